"""Elixir packages (Hex): `mix.lock`, an Elixir map literal with one entry per line.

`mix.exs` is not read as the lock's manifest (its literal deps list is read on its own, mixexs.py): every lock entry
counts as direct (fail closed).
"""

from __future__ import annotations

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

# `"name": {:hex, :package, "1.2.3", "<sha256>", [:mix], [...], "hexpm", "<sha256>"},`
_HEX = lazy(r'^\s*"([\w.-]+)":\s*\{:hex,\s*:"?([\w.-]+)"?,\s*"([^"]+)"')
# `"name": {:git, "https://github.com/o/r.git", "<commit>", [branch: "main"]},`
_GIT = lazy(r'^\s*"([\w.-]+)":\s*\{:git,\s*"([^"]+)",\s*"([0-9a-f]{7,40})"')
# The ref a git entry was fetched by, in its options: `[tag: "1.31.0", sparse: "icons"]` (also `ref:`, `branch:`).
_GIT_TAG = lazy(r'(?<![\w:])tag:\s*"([^"]*)"')
_ENTRY = lazy(r'^\s*"[^"]*":')
# An entry's key anywhere on a line: one line holds one entry, or the second would be read under the first's name.
_KEYS = lazy(r'"[^"]*":\s*\{')
# mix before 1.5 opened the map on the first entry's line (`%{"backoff": {...},`) and closed it on the last one's
# (`..., [:rebar3], []}}`): the map's own braces, never part of an entry.
_MAP_OPEN = lazy(r'^\s*%\{')
_MAP_CLOSE = lazy(r'\}\s*\}\s*$')
# The end of a hex entry: `..., "<repo>", "<sha256>"}` (the repository it is fetched from), or `]}` / `"}` of the
# older forms that name none (hexpm).
_HEX_TAIL = lazy(r'(?:,\s*"([^"]*)",\s*"[^"]*"|\]|")\s*\},?\s*$')


def parse_mix_lock(path: str, data: bytes) -> list[Dependency]:
    """Hex packages (named by package, and by repository when not hexpm) at their version, git dependencies
    at their commit (`git:` + url is not modelled: the name and commit are), with the tag their options fetch it
    by (`[tag: "1.31.0"]`) as the commit's label, as a sha-pinned action's version comment is. mix's older layout, the
    map opened on the first entry's line and closed on the last one's, is read alike (round 50). A line that opens an
    entry in another form, holds two, follows the map's end, or is anything but an entry, the map's brace, a comment
    or blank (attack 42: `jason: {...}`, `:jason => {...}`) is a problem, never skipped."""
    out: list[Dependency] = []
    opened = closed = False
    for number, line in enumerate(text(data).splitlines(), 1):
        if (map_open := _MAP_OPEN.match(line)) is not None:
            if opened or out:
                raise ManifestError(f"line {number}: the lock's map opened twice, or after an entry")
            opened, line = True, line[map_open.end():]
        if closed and line.strip():
            raise ManifestError(f"line {number}: text after the lock's map ends")
        if len(_KEYS.findall(line)) > 1:
            raise ManifestError(f"line {number}: more than one lock entry on a line")
        if _ENTRY.match(line) and _MAP_CLOSE.search(line):
            closed, line = True, line.rstrip()[:-1]
        if (hex_entry := _HEX.match(line)) is not None:
            # Named by the package fetched, not the lock key (`hex: :other` fetches another package under the
            # app's name), and by its repository when that is not hexpm: a move to another is a new dependency.
            if (tail := _HEX_TAIL.search(line)) is None:
                raise ManifestError(f"line {number}: a hex entry whose repository this reader cannot find")
            repo = tail.group(1) or "hexpm"
            name = hex_entry.group(2) if repo == "hexpm" else f"{repo}/{hex_entry.group(2)}"
            out.append(Dependency("hex", name, hex_entry.group(3), path, None, None))
        elif (git := _GIT.match(line)) is not None:
            tag = _GIT_TAG.search(line, git.end())
            out.append(Dependency("hex", git.group(1), git.group(3), path, None, None, tag.group(1) if tag else ""))
        elif line.strip() not in ("", "}") and not line.lstrip().startswith("#"):
            # Elixir reads `jason: {...}`, `:jason => {...}`, `"jason" => {...}` as entries too (attack 42): a line
            # that is no entry this reader knows, the map's brace, a comment or blank is never skipped
            raise ManifestError(f"line {number}: a lock entry in a form this reader does not know")
    return out
