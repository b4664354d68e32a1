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
# The end of a hex entry: `..., "<repo>", "<sha256>"}` (the repository it is fetched from), or `]}` / `"}` of the
# older forms that name none (hexpm).
_HEX_TAIL = lazy(r'(?:,\s*"([^"]*)",\s*"[^"]*"|\]|")\s*\},?\s*$')


def parse_mix_lock(path: str, data: bytes) -> list[Dependency]:
    """Hex packages (named by package, and by repository when not hexpm) at their version, git dependencies
    at their commit (`git:` + url is not modelled: the name and commit are), with the tag their options fetch it
    by (`[tag: "1.31.0"]`) as the commit's label, as a sha-pinned action's version comment is. A line that opens an
    entry in another form is a problem, never skipped."""
    out: list[Dependency] = []
    for number, line in enumerate(text(data).splitlines(), 1):
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
        elif _ENTRY.match(line):
            raise ManifestError(f"line {number}: a lock entry in a form this reader does not know")
    return out
