"""Go's dep tool (`Gopkg.toml`, `Gopkg.lock`): the projects a repository vendored before Go modules.

`Gopkg.toml` constrains projects (`[[constraint]]`, and `[[override]]` over the whole graph): `name` and one of
`version` (a semver range), `branch` or `revision`, with a `source` naming where the project is fetched from instead.
`Gopkg.lock` pins each project dep solved (`[[projects]]`): `name`, the commit `revision`, and the `version` (a tag)
or `branch` that resolved to it, which labels the commit as a sha-pinned action's comment labels its sha. A project
fetched from a `source` is named `NAME => SOURCE`, as go.mod's `replace` is, so a swapped source is a new dependency,
never the old one's bump. A key either file does not define (dep refuses them too), a project without a name or a
lock entry without a revision is a problem, never skipped. From a patch, a Gopkg.toml line moving a constraint's or
override's `version`, `branch` or `revision` is named with the `name` (and `source`) its hunk shows in the same table,
beside a `partial` problem unless the hunk shows the table's header; any other changed line is `partial`. A Gopkg.lock
`[[projects]]` table a hunk shows whole (its header and every line down to the next header) is read as the whole file
reads it, a changed line under a `[solve-meta]` header the hunk shows is the solver's record, read by neither, and
any other changed line (a table whose header or end the hunk cuts) is a `partial` problem beside them (round 59).
Round 52 (cloudflare/cfssl's "update github.com/google/certificate-transparency-go to 1.0.10" named nothing).
"""

from __future__ import annotations

from typing import Any

from gatekeeper.deps.hunkreads import Side
from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import listing, load_toml, mapping, text
from gatekeeper.deps.model import Dependency, ManifestError, PartlyRead, PartlyShown
from gatekeeper.lazy_pattern import lazy

ECOSYSTEM = "go"
_MANIFEST_KEYS = frozenset({"required", "ignored", "constraint", "override", "prune", "metadata", "noverify"})
_RULE_KEYS = frozenset({"name", "version", "branch", "revision", "source", "metadata"})
_LOCK_KEYS = frozenset({"projects", "solve-meta", "memo"})  # `memo`: dep's locks before v0.4
# a Gopkg.toml line of a patch: a table's header, or one `key = "string"` pair (a trailing comment allowed)
_HEADER = lazy(r"^\s*\[\[?\s*(?P<table>[\w.-]+)\s*\]\]?\s*(?:#.*)?$")
_PAIR = lazy(r'^\s*(?P<key>[\w-]+)\s*=\s*"(?P<value>[^"\\]*)"\s*(?:#.*)?$')
_BLANK = lazy(r"^\s*(?:#.*)?$")
_ASKS = ("version", "branch", "revision")
_PROJECT_KEYS = frozenset({"name", "branch", "revision", "version", "source", "packages", "pruneopts", "digest"})


def _text(entry: dict[str, Any], key: str, what: str) -> str:
    value = entry.get(key, "")
    if not isinstance(value, str):
        raise ManifestError(f"{what}: `{key}` is not a string")
    return value


def _name(entry: Any, keys: frozenset[str], what: str) -> tuple[dict[str, Any], str]:
    """The entry as a table and its name (with its source), after checking every key is one dep defines."""
    table = mapping(entry, what)
    if unknown := sorted(set(table) - keys):
        raise ManifestError(f"{what}: key {unknown[0][:80]!r}, which dep does not define")
    name = _text(table, "name", what)
    if not name:
        raise ManifestError(f"{what} without a name")
    source = _text(table, "source", what)
    return table, f"{name} => {source}" if source else name


def parse_gopkg_toml(path: str, data: bytes) -> list[Dependency]:
    """Each constraint and override at the version, branch or revision it asks for."""
    doc = load_toml(data)
    if unknown := sorted(set(doc) - _MANIFEST_KEYS):
        raise ManifestError(f"Gopkg.toml: key {unknown[0][:80]!r}, which dep does not define")
    out: list[Dependency] = []
    for kind in ("constraint", "override"):
        for entry in listing(doc.get(kind), f"[[{kind}]]"):
            table, name = _name(entry, _RULE_KEYS, f"a [[{kind}]]")
            asked = [_text(table, key, name) for key in ("version", "branch", "revision") if key in table]
            if len(asked) > 1:
                raise ManifestError(f"{name[:80]}: more than one of version, branch and revision")
            out.append(Dependency(ECOSYSTEM, name, asked[0] if asked else "", path, True, "runtime",
                                  options="override" if kind == "override" else ""))
    return out


def parse_gopkg_lock(path: str, data: bytes) -> list[Dependency]:
    """Each locked project at its revision, labelled with the tag or branch that resolved to it."""
    doc = load_toml(data)
    if unknown := sorted(set(doc) - _LOCK_KEYS):
        raise ManifestError(f"Gopkg.lock: key {unknown[0][:80]!r}, which dep does not write")
    out: list[Dependency] = []
    for entry in listing(doc.get("projects"), "[[projects]]"):
        table, name = _name(entry, _PROJECT_KEYS, "a [[projects]] entry")
        revision = _text(table, "revision", name)
        if not revision:
            raise ManifestError(f"{name[:80]}: a locked project without a revision")
        label = _text(table, "version", name) or _text(table, "branch", name)
        out.append(Dependency(ECOSYSTEM, name, revision, path, True, "runtime", tag=label))
    return out


def gopkg_toml_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A changed `version`/`branch`/`revision` line of a Gopkg.toml hunk, named by the table the hunk shows around it;
    a blank or comment line names nothing; any other line is refused (ManifestError)."""
    line = side[index][0]
    if _BLANK.match(line):
        return []
    pair = _PAIR.match(line)
    if pair is None or pair["key"] not in _ASKS:
        raise ManifestError(f"not a constraint's version, branch or revision: {line.strip()[:80]!r}")
    table = None
    found: dict[str, str] = {}
    for step in (-1, 1):
        at = index + step
        while 0 <= at < len(side):
            shown = side[at][0]
            if (header := _HEADER.match(shown)) is not None:
                if step == -1:
                    table = header["table"]
                break
            if (other := _PAIR.match(shown)) is not None:
                found.setdefault(other["key"], other["value"])
            elif not _BLANK.match(shown):
                raise ManifestError(f"a line the hunk shows in the table is not a string pair: {shown.strip()[:80]!r}")
            at += step
    if table is not None and table not in ("constraint", "override"):
        raise ManifestError(f"a version line of a [{table}] table, which names no project")
    if not found.get("name"):
        raise ManifestError("the hunk does not show the name of the project whose version this is")
    name = f"{found['name']} => {found['source']}" if found.get("source") else found["name"]
    named = (name, pair["value"], ECOSYSTEM, "", "", "override" if table == "override" else "")
    if table is None:
        raise PartlyShown("the hunk does not show the table the constraint sits in", [named])
    return [named]


def _tables(lines: list[str]) -> tuple[list[str], bool]:
    """One hunk's lines (CHANGED-marked) → the `[[projects]]` tables it shows whole, as TOML text each, and whether a
    changed line lies outside them and outside a `[solve-meta]` table whose header it shows."""
    whole: list[str] = []
    unplaced = False
    header: str | None = None  # the table the lines below the last header shown belong to; None above the first
    block: list[str] = []

    def close(ended: bool) -> None:  # the lines since the last header end: at the next header (`ended`) or the hunk's
        nonlocal unplaced
        if header == "projects" and ended:
            whole.append("\n".join(line.removeprefix(CHANGED) for line in block))
        elif header != "solve-meta" and any(line.startswith(CHANGED) for line in block):
            unplaced = True  # above the first header, or a table the hunk's end cuts

    for raw in lines:
        line = raw.removeprefix(CHANGED)
        shown = _HEADER.match(line)
        if shown is None:
            block.append(raw)
            continue
        close(True)
        header, block = shown["table"], [line]
        if header == "projects" and not line.lstrip().startswith("[["):
            raise ManifestError("a [projects] header that is no array of tables")
    close(False)
    return whole, unplaced


def gopkg_lock_hunks(path: str, data: bytes) -> list[Dependency]:
    """From a patch's one side (hunks.sides): the `[[projects]]` tables the hunks show whole, read as the whole file
    reads them; a changed line in no such table nor under a `[solve-meta]` header shown is `partial` (module doc)."""
    tables: list[str] = []
    unplaced = False
    for chunk in text(data).split("\n" + HUNK + "\n"):
        shown, cut = _tables([line for line in chunk.splitlines() if line != HUNK])
        tables += shown
        unplaced = unplaced or cut
    found = parse_gopkg_lock(path, "\n".join(tables).encode()) if tables else []
    if unplaced and found:
        raise PartlyRead("a changed line in a [[projects]] table whose header or end the hunk does not show", found)
    if unplaced:
        raise ManifestError("a changed line in a [[projects]] table whose header or end the hunk does not show")
    return found
