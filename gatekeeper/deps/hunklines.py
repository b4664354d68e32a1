"""Line readers (edits.py's `LineReader`) for the hunks of YAML, TOML and Starlark dependency files.

Each reads one changed line only where the line, and the context lines the hunk shows above it, say safely
which package it pins at which version; anything else raises ManifestError (a `partial` problem: run with
`--tree`). Context lines are checked by `git apply` against the base; the text after a hunk's `@@ … @@`
(git's function name) is not, so it is never read.

- `.pre-commit-config.yaml`: a `rev:` whose `- repo:` the hunk shows as the first key of the same list item, and a
  `- repo:` line moved to another repository whose `rev:` the hunk shows as the item's next key;
  `# frozen: vX` beside a full commit sha is the version comment, as the whole-file reader takes it. A hook's
  `additional_dependencies` item whose key the hunk shows above it, or the key's one-line flow list, each item pinned
  (precommit.hook_item_line).
  A hook's `- id: x` item with no other key, under a `hooks:` key the hunk shows (python-poetry/poetry-core's
  pre-commit.ci move of ruff-pre-commit that renamed `- id: ruff` to `- id: ruff-check`): which hook of the
  repository, at the rev read beside it, runs; no package (the whole-file reader reads no id either).
- `pubspec.yaml`: `  name: ^1.2.0` directly under a `dependencies:` or `dev_dependencies:` header the hunk
  shows (never `dependency_overrides:`, an override section, nor a nested key of another entry).
- `MODULE.bazel`: a line that is one whole `bazel_dep(...)` call of literal arguments, or one Maven
  coordinate string `"group:artifact:version",`, and nothing else (bazel.residue); the `version = "…",` line of a
  multi-line call whose opening `bazel_dep(` and closing `)` lines the hunk shows, no other line of it changed; so
  the `commit = "…",` line of a `git_override(` call of literals (bazelpins.py) and the `digest`/`tag` line of an
  `oci.pull(` call (bazel.py reads it as the image it pulls).
- `kustomization.yaml`: an `image:` line (what the whole-file reader takes from inline patches too); a `helmCharts:`
  entry's `version:` whose entry's `name:` (unchanged) and the top-level `helmCharts:` above it the hunk shows.
- `rust-toolchain.toml`: the `channel = "1.80.0"` line.
- `libs.versions.toml` (a Gradle catalog): cataloglines.py.
"""

from __future__ import annotations

from gatekeeper.deps import bazel, kustomize, precommit
from gatekeeper.deps.docker import image_version
from gatekeeper.deps.edits import RANGE, Side
from gatekeeper.deps.hunkends import FileEnd
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.deps.toolfiles import parse_compose
from gatekeeper.deps.tools import TOOL, VERSIONISH
from gatekeeper.lazy_pattern import lazy

_REV = lazy(r"""^(\s*)(-\s+)?rev:\s*(["']?)([^"'\s#]+)\3\s*(?:#.*)?$""")
_HOOK_ID = lazy(r"""^(\s*)-\s+id:\s*(["']?)[\w.-]+\2\s*(?:#.*)?$""")
_HOOKS = lazy(r"^hooks:\s*(?:#.*)?$")
_REPO = lazy(r"""^(\s*)(-\s+)repo:\s*(["']?)([^"'\s#]+)\3\s*(?:#.*)?$""")
# The value: runs of other characters with single runs of blanks between them, each taken whole (`++`, `*+`): the
# lazy `[^"'#]*?` this replaces split a value's blanks every way against the `\s*` after it, cubic in a line of them.
_PUB_ENTRY = lazy(r"""^( +)([A-Za-z_][A-Za-z0-9_]*):\s*+(["']?)((?:[^"'#\s]++(?:\s++[^"'#\s]++)*+)?)\3\s*+(?:#.*)?$""")
_PUB_SECTIONS = {"dependencies": "runtime", "dev_dependencies": "dev"}
# `environment:`'s keys: the SDK constraints (a package of these names would be an SDK dependency, `sdk: flutter`)
_PUB_SDKS = frozenset({"sdk", "flutter"})
_TOP_KEY = lazy(r"^([A-Za-z_][\w-]*):\s*(?:#.*)?$")
_COMMENT = lazy(r"^\s*(?:#.*)?$")
_CHANNEL = lazy(r"""^\s*channel\s*=\s*(["'])([^"']+)\1\s*(?:#.*)?$""")


def _refuse(why: str, line: str) -> ManifestError:
    return ManifestError(f"{why}: {line.strip()[:80]!r}")


def precommit_line(side: Side, index: int) -> list[tuple[str, ...]]:
    line = side[index][0]
    if (packages := precommit.hook_item_line(side, index)) is not None:
        return packages  # a hook's `additional_dependencies` (precommit.py)
    if _hook_id(side, index):
        return []
    if (repo := _REPO.match(line)) is not None:
        return _moved_repo(side, index, repo.group(4), len(repo.group(1)) + len(repo.group(2)))
    m = _REV.match(line)
    if m is None or m.group(2):
        raise _refuse("not a hook repository's rev line", line)
    indent = len(m.group(1))
    if not _scalar_ends(side, index, indent):
        raise _refuse("a rev with lines nested under it", line)
    for above, _ in reversed(side[:index]):
        repo = _REPO.match(above)
        if repo is not None and len(repo.group(1)) + len(repo.group(2)) == indent:
            url = repo.group(4)
            if url in ("local", "meta"):
                return []
            rev = m.group(4)
            comment = precommit.REV_COMMENT.match(line)
            tag = comment.group(2) if comment is not None and comment.group(1) == rev else ""
            return [(precommit.repo_name(url), rev, "pre-commit", tag)]
        stripped = above.lstrip()
        if not stripped or len(above) - len(stripped) != indent or stripped.startswith("-"):
            break  # another list item, a nested block or the end of this one
    raise _refuse("the hunk does not show whose rev this is", line)


def _moved_repo(side: Side, index: int, url: str, column: int) -> list[tuple[str, ...]]:
    """A changed `- repo: URL` line (pre-commit.ci's move of psf/black to psf/black-pre-commit-mirror): that
    repository at the `rev:` the hunk shows as the item's next key, on the line below; when that rev line changed
    too, it names the repository itself (precommit_line). A `local` or `meta` one has no rev: refused, as before."""
    if url in ("local", "meta"):
        raise _refuse("not a hook repository's rev line", side[index][0])
    for at in range(index + 1, len(side)):
        below, changed = side[at]
        if _COMMENT.match(below):
            continue
        rev = _REV.match(below)
        if rev is None or rev.group(2) or len(rev.group(1)) != column or not _scalar_ends(side, at, column):
            break
        if changed:
            return []
        comment = precommit.REV_COMMENT.match(below)
        tag = comment.group(2) if comment is not None and comment.group(1) == rev.group(4) else ""
        return [(precommit.repo_name(url), rev.group(4), "pre-commit", tag)]
    raise _refuse("the hunk does not show this repository's rev below it", side[index][0])


def _hook_id(side: Side, index: int) -> bool:
    """`side[index]` is a hook's `- id: x` item, its only key, in a list the hunk shows under a `hooks:` key (a
    block sequence indented below it, or a compact one at its column): the lines above it up to that key are the
    list's other items, and the line below it another item or a shallower key. An item with more keys is refused
    (an id dropped from above its `entry:` would leave the keys to another item, which the whole file would not
    parse)."""
    m = _HOOK_ID.match(side[index][0])
    if m is None:
        return False
    indent, hooks = len(m.group(1)), -1
    for above, _ in reversed(side[:index]):
        stripped = above.lstrip()
        column = len(above) - len(stripped)
        if _COMMENT.match(above) or column > indent or column == indent and stripped.startswith("- "):
            continue  # a sibling item, or a key of one
        if _HOOKS.match(stripped) is None:
            return False
        hooks = column
        break
    if hooks < 0:
        return False
    for below, _ in side[index + 1:]:
        stripped = below.lstrip()
        if _COMMENT.match(below):
            continue
        column = len(below) - len(stripped)
        if column == indent:
            return stripped.startswith("- ") or indent == hooks
        return column < indent and column <= hooks
    return True


def _scalar_ends(side: Side, index: int, indent: int) -> bool:
    """The key at `side[index]` holds a scalar: no line the hunk shows below it is nested deeper (YAML would
    not parse; the whole-file reader would report the file, so the hunk must not read it either)."""
    for below, _ in side[index + 1:]:
        if not _COMMENT.match(below):
            return len(below) - len(below.lstrip()) <= indent
    return True


def pubspec_line(side: Side, index: int) -> list[tuple[str, ...]]:
    line = side[index][0]
    m = _PUB_ENTRY.match(line)
    if m is None or not m.group(4) or not RANGE.match(m.group(4).strip()):
        raise _refuse("not a package with a plain version constraint", line)
    indent = len(m.group(1))
    if not _scalar_ends(side, index, indent):
        raise _refuse("a version with lines nested under it", line)
    for above, _ in reversed(side[:index]):
        if _COMMENT.match(above):
            continue
        depth = len(above) - len(above.lstrip())
        if depth >= indent:
            continue  # a sibling entry, or a line nested under one
        if depth > 0:
            break  # the line is a key nested under another entry (`version:` of a hosted source, say)
        top = _TOP_KEY.match(above)
        section = top.group(1) if top is not None else ""
        if section == "environment" and m.group(2) in _PUB_SDKS:
            # the SDK's constraint, no package (the whole-file reader reads none), yet build settings beside versions
            raise PartlyShown(f"environment's {m.group(2)} constraint moves: not a dependency; review it", [])
        if section not in _PUB_SECTIONS:
            break  # `dependency_overrides:` (an override section), `environment:`'s other keys, …
        return [(f"{section}|{m.group(2)}", m.group(4).strip())]
    else:
        if indent == 2 and m.group(2) not in _PUB_SDKS:
            # Every line the hunk shows above sits at least as deep: an entry of a top-level map whose key is above
            # the hunk. The package and its constraint are shown; not whether the map is `dependencies`,
            # `dev_dependencies` or `dependency_overrides` (nor that no block scalar above holds the line).
            raise PartlyShown(f"the hunk does not show the section of {m.group(2)[:80]!r} (dependencies, "
                              "dev_dependencies or dependency_overrides): scope unknown",
                              [(m.group(2), m.group(4).strip())])
    raise _refuse("the hunk does not show this entry's dependencies section", line)


# A multi-line call (buildifier's layout of a long one): its opening and closing lines at the top level, and its
# `version = "…",` argument line
_BAZEL_OPEN = lazy(r"^(?:bazel_dep|git_override|oci\.pull)\s*\(\s*(?:#.*)?$")
_BAZEL_CLOSE = lazy(r"^\)\s*(?:#.*)?$")
_BAZEL_VERSION = lazy(r"""^\s+(?:version|commit|digest|tag)\s*=\s*"[^"\\]*"\s*,?\s*(?:#.*)?$""")


def _bazel_call(side: Side, index: int) -> str | None:
    """The whole multi-line `bazel_dep(` … `)` call around the version line `side[index]` when the hunk shows all of
    it and no other line of it changed; else None."""
    first = index - 1
    while first >= 0 and not _BAZEL_OPEN.match(side[first][0]):
        if side[first][1] or "(" in side[first][0] or ")" in side[first][0]:
            return None
        first -= 1
    last = index + 1
    while last < len(side) and not _BAZEL_CLOSE.match(side[last][0]):
        if side[last][1] or "(" in side[last][0] or ")" in side[last][0]:
            return None
        last += 1
    if first < 0 or last == len(side) or side[first][1] or side[last][1]:
        return None
    return "\n".join(line for line, _ in side[first:last + 1])


def bazel_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """One whole `bazel_dep(...)` call or Maven coordinate on the line; or the `version` argument of a multi-line call
    the hunk shows whole (aspect-build/bazel-lib's `bazel_dep(` / `name = "rules_go",` / `version = "0.46.0",` / … /
    `)`), which names that call's module."""
    line = side[index][0]
    data = line.encode()
    if _COMMENT.match(line):
        return []
    if _BAZEL_VERSION.match(line) and (call := _bazel_call(side, index)) is not None:
        data = call.encode()
    if bazel.residue(data) not in ("", ","):
        raise _refuse("not one whole bazel_dep call or Maven coordinate", line)
    found = bazel.parse_module_bazel("", data)
    if not found:
        raise _refuse("not one whole bazel_dep call or Maven coordinate", line)
    return [(f"{d.scope}|{d.name}", d.version, d.ecosystem, *(("", d.alias) if d.alias else ()))  # the call's name
            for d in found]


_LIST_ITEM = lazy(r"""^\s*-\s+["']?([^"'\s#]+)["']?\s*(?:#.*)?$""")


_IMAGE_KEY = lazy(r"""^( *)(- +)?(name|newName|newTag|digest): *(["']?)([^"'\s#]+)\4 *(?:#.*)?$""")


def _image_entry(side: Side, index: int) -> list[tuple[str, ...]] | None:
    """The `images:` entry (`- name: X`, `newName:`, `newTag:`, `digest:`) the key line at `index` belongs to,
    when the hunk shows all of it: its `- name:` line, every key, the line that ends it (the next entry or a
    shallower line), and above it `images:` across earlier entries only. None when the line is no such key;
    ManifestError when the hunk does not show the whole entry (a `newName:` out of sight renames the image) or
    the entry's name changes. One entry is one dependency: only its first changed line yields it."""
    if _IMAGE_KEY.match(side[index][0]) is None:
        return None
    start = index
    while start >= 0 and (m := _IMAGE_KEY.match(side[start][0])) is not None and not m.group(2):
        start -= 1
    head = _IMAGE_KEY.match(side[start][0]) if start >= 0 else None
    if head is None or head.group(3) != "name":
        raise _refuse("the hunk does not show this images entry's `- name:` line", side[index][0])
    column = len(head.group(1))
    keys, end = {}, start
    while end < len(side) and (m := _IMAGE_KEY.match(side[end][0])) is not None \
            and (end == start or not m.group(2) and len(m.group(1)) == column + len(head.group(2))):
        if m.group(3) in keys:
            raise _refuse("an images entry with a key twice", side[end][0])
        keys[m.group(3)] = m.group(5)
        end += 1
    above = start - 1
    while above >= 0 and (m := _IMAGE_KEY.match(side[above][0])) is not None and len(m.group(1)) >= column:
        above -= 1
    # the line after the entry, shallower, or the file's end the hunk reaches (hunkends: no `newName:` can follow); a
    # blank or comment line ends no YAML mapping: the entry's `newName:` may come after it (attack 16)
    after = end
    while after < len(side) and (not side[after][0].strip() or side[after][0].lstrip().startswith("#")):
        after += 1
    closed = len(side[after][0]) - len(side[after][0].lstrip()) <= column if after < len(side) \
        else isinstance(side, FileEnd)
    if end <= index or not closed or above < 0 or side[above][0].rstrip() != " " * column + "images:" \
            and side[above][0].rstrip() != "images:":
        raise _refuse("the hunk does not show this whole images entry under `images:`", side[index][0])
    changed = [at for at in range(start, end) if side[at][1]]
    if any((key := _IMAGE_KEY.match(side[at][0])) is not None and key.group(3) in ("name", "newName")
           for at in changed):
        # an entry renamed (or added) from a hunk: which image it replaced needs the whole file
        raise _refuse("an images entry whose name changes", side[index][0])
    if index != changed[0]:
        return []
    tag, digest = keys.get("newTag", ""), keys.get("digest", "")
    if not tag and not digest:
        return []  # a rename alone names no version, as kustomize.parse_kustomization reads it
    name = keys.get("newName") or keys["name"]
    return [(name, image_version(tag, f"sha256:{digest.removeprefix('sha256:')}" if digest else ""), "docker")]


# Possessive runs (`*+`): blanks after the colon and after an empty value must not be split two ways between them, a
# quadratic backtrack on a line of blanks ending in a quote (red team: tests/test_redteam_runlines_redos.py).
_CHART_KEY = lazy(r"""^( *+)(- ++)?([A-Za-z][\w-]*+): *+(["']?)([^"'\s#]*+)\4 *+(?:#.*)?$""")
_HELM_CHARTS = lazy(r"^helmCharts: *(?:#.*)?$")
# How far a `version:` line's entry and its `helmCharts:` may lie from it: each changed line walks the hunk, so an
# unbounded walk is quadratic in a hunk of many; an entry longer than this (a long `valuesInline:`) is refused.
_CHART_REACH = 400


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _chart_entry(side: Side, index: int) -> list[tuple[str, ...]] | None:
    """A `helmCharts:` entry's changed `version:` line (`- name: cilium` … `version: 1.15.5`, mirceanton/home-ops):
    the chart the entry names, when the hunk shows the entry's `name:` among its keys, unchanged, and above the entry
    the top-level `helmCharts:` across earlier entries only. None when the line is no `version:` key; ManifestError
    when the hunk does not show what places it."""
    m = _CHART_KEY.match(side[index][0])
    if m is None or m.group(3) != "version":
        return None
    column = len(m.group(1)) + len(m.group(2) or "")  # the entry's keys start here
    start, seen = index, {"version"}
    while not m.group(2):  # up to the entry's `- ` line, over its keys and the lines nested under them
        start -= 1
        if start < 0 or index - start > _CHART_REACH:
            raise _refuse("the hunk does not show this helmCharts entry's start", side[index][0])
        line = side[start][0]
        if _COMMENT.match(line) or _indent(line) > column:
            continue
        m = _CHART_KEY.match(line)
        if m is None or _indent(line) + len(m.group(2) or "") != column:
            raise _refuse("the hunk does not show this helmCharts entry's start", side[index][0])
        if m.group(3) in seen:  # also what keeps a hunk of many `version:` lines linear: each walk stops at the next
            raise _refuse("a helmCharts entry with a key twice", line)
        seen.add(m.group(3))
    dash = _indent(side[start][0])
    above = start - 1
    while above >= 0 and index - above <= _CHART_REACH and (
            _COMMENT.match(side[above][0]) or _indent(side[above][0]) > dash
            or _indent(side[above][0]) == dash and side[above][0].lstrip(" ").startswith("- ")):
        above -= 1
    if above < 0 or not _HELM_CHARTS.match(side[above][0]):
        raise _refuse("the hunk does not show this entry's top-level `helmCharts:`", side[index][0])
    keys: dict[str, tuple[str, bool]] = {}
    at = start
    while at < len(side) and at - index <= _CHART_REACH and (
            at == start or _COMMENT.match(side[at][0]) or _indent(side[at][0]) >= column):
        key = _CHART_KEY.match(side[at][0])
        if key is not None and (at == start or _indent(side[at][0]) == column):
            if key.group(3) in keys:
                raise _refuse("a helmCharts entry with a key twice", side[at][0])
            keys[key.group(3)] = (key.group(5), side[at][1])
        at += 1
    name = keys.get("name")
    if name is None or not name[0] or name[1]:
        raise _refuse("the hunk does not show this helmCharts entry's unchanged name", side[index][0])
    if not keys["version"][0]:
        raise _refuse("a helmCharts version that is no one-line value", side[index][0])
    return [(name[0], keys["version"][0], "helm")]


def kustomize_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """An `image:` line, one key of an `images:` entry the hunk shows whole, a `helmCharts:` entry's `version:`
    (_chart_entry), or one list item naming a remote resource on GitHub at a ref (kustomize.remote)."""
    line = side[index][0]
    if (chart := _chart_entry(side, index)) is not None:
        return chart
    # a generator's file may be keyed (`cp.json=https://raw.githubusercontent.com/…`), as the whole-file reader reads it
    if (item := _LIST_ITEM.match(line)) is not None and (found_remote := kustomize.remote(item.group(1))
                                                         or kustomize.remote(item.group(1).partition("=")[2])):
        return [(found_remote[0], found_remote[1], "kustomize")]
    if (entry := _image_entry(side, index)) is not None:
        return entry
    found = parse_compose("", line.encode())
    if not found:
        raise _refuse("not an image: line", line)
    return [(d.name, d.version, d.ecosystem) for d in found]


def rust_toolchain_line(side: Side, index: int) -> list[tuple[str, ...]]:
    line = side[index][0]
    m = _CHANNEL.match(line)
    if m is None or not VERSIONISH.match(m.group(2)):
        raise _refuse("not a versioned toolchain channel", line)
    return [("rust", m.group(2), TOOL)]
