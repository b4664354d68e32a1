"""pnpm-workspace.yaml's hunks (edits.py's `LineReader`): a catalog's or an override's `name: range` line.

The whole-file readers name pnpm-workspace.yaml's `catalog:` entries, each named catalog's under `catalogs:`
(npm.parse_pnpm_workspace) and the plain versions `overrides:` pins (overridepins.py), all as npm dependencies of
the file. From a patch a changed line is read where it is one `name: range` pair of an npm package name and a plain
range (or an `npm:other@range` alias) holding a scalar, and the lines the hunk shows above it say which of those
maps holds it: at two spaces under a top-level `catalog:` or `overrides:`, at four under `catalogs:`' named catalog;
an override is named beside a `partial` problem (PartlyShown), as overrides.py makes every override edit one, and an
alias (`npm:other@1`) only in a catalog the hunk shows.
Where the hunk shows no line above it at a lower indentation (Renovate's one-line bump of a catalog, three
context lines all entries), the pair is named as shown and the map is not: PartlyShown, a `partial` problem beside
it (the text after `@@`, git's function name, would say `catalog:`, but `git apply` checks nothing of it, so it is
never read). Anything else (a key nested under another, a selector `a>b`, `packageExtensions`, `peerDependencyRules`,
a list item, a path or URL value) is refused: the file's hunk stays `partial` and names nothing.
"""

from __future__ import annotations

from gatekeeper.deps.edits import RANGE, SECTION_MARK
from gatekeeper.deps.hunkreads import Side
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.lazy_pattern import lazy

# `  'name': '^1.2.0'`, `  "@scope/name": 1.2.0`, `    name: npm:other@^2 # comment`: key and value quoted alike or not.
_ENTRY = lazy(r"""^( +)(["']?)((?:@[A-Za-z0-9_.~-]+/)?[A-Za-z0-9_.~-]+)\2:[ \t]+(["']?)([^"'#\s]+)\4[ \t]*(?:#.*)?$""")
_ALIAS = lazy(r"^npm:((?:@[A-Za-z0-9_.~-]+/)?[A-Za-z0-9_.~-]+)@(.+)$")
_TOP = lazy(r"""^(["']?)(catalog|catalogs|overrides)\1:[ \t]*(?:#.*)?$""")
_NAMED = lazy(r"""^  (["']?)([A-Za-z0-9_.~@/-]+)\1:[ \t]*(?:#.*)?$""")  # a named catalog under `catalogs:`
_COMMENT = lazy(r"^\s*(?:#.*)?$")


def _refuse(why: str, line: str) -> ManifestError:
    return ManifestError(f"{why}: {line.strip()[:80]!r}")


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _pair(name: str, value: str, line: str) -> tuple[str, ...]:
    """(name, range) or, for an alias, (package fetched, range, "npm", "", key): as npm.declared names it."""
    alias = _ALIAS.match(value)
    if alias is not None and alias.group(1) != name and RANGE.match(alias.group(2)):
        return (alias.group(1), alias.group(2), "npm", "", name)
    if alias is None and RANGE.match(value):
        return (name, value)
    raise _refuse("not a plain version range", line)


def workspace_line(side: Side, index: int) -> list[tuple[str, ...]]:
    line = side[index][0]
    m = _ENTRY.match(line)
    if m is None or "\t" in m.group(1):
        raise _refuse("not a `name: range` entry", line)
    indent = len(m.group(1))
    if indent not in (2, 4):
        raise _refuse("not an entry of a catalog or of overrides", line)
    for below, _ in side[index + 1:]:
        if not _COMMENT.match(below):
            if _depth(below) > indent:
                raise _refuse("a value with lines nested under it", line)
            break
    pair = _pair(m.group(3), m.group(5), line)
    parent = _above(side, index, indent)
    named = _NAMED.match(parent[0]) if parent is not None and indent == 4 else None
    top_at = parent if indent == 2 else _above(side, parent[1], 2) if named is not None and parent is not None else None
    top = _TOP.match(top_at[0]) if top_at is not None else None
    section = top.group(2) if top is not None else ""
    if len(pair) > 2 and section != ("catalog" if indent == 2 else "catalogs"):
        # an alias sends the key to another package: a catalog's may, an override's is overrides.py's problem
        raise _refuse("an alias outside a catalog the hunk shows", line)
    if parent is None or named is not None and top_at is None:
        raise PartlyShown(f"the hunk does not show the map of {m.group(3)[:80]!r} (a catalog or overrides)", [pair])
    if indent == 2 and section == "catalog":
        return [(f"catalog{SECTION_MARK}{pair[0]}", *pair[1:])]
    if indent == 2 and section == "overrides":
        # named as the whole-file reader names an override's pin, beside the problem it always is (overrides.py)
        raise PartlyShown(f"overrides moves {pair[0][:80]!r}: review it",
                          [(f"overrides{SECTION_MARK}{pair[0]}", pair[1])])
    if indent == 4 and named is not None and section == "catalogs":
        return [(f"catalogs.{named.group(2)}{SECTION_MARK}{pair[0]}", *pair[1:])]
    raise _refuse("not an entry of `catalog:`, a named catalog or `overrides:`", line)


def _above(side: Side, index: int, indent: int) -> tuple[str, int] | None:
    """The nearest line above `side[index]` the hunk shows at less than `indent` (a comment is none), with its index."""
    for at in range(index - 1, -1, -1):
        above = side[at][0]
        if not _COMMENT.match(above) and _depth(above) < indent:
            return above, at
    return None
