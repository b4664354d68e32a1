"""Dependency edits inside structured manifests that a patch shows only as hunks.

package.json and composer.json (`"name": "range",`), Cargo.toml (`name = "req"` or an inline table, whose
array may span lines; a renamed crate by the crate it fetches), pyproject.toml (a PEP 508 list item
`"name>=1.0",`; a Poetry `name = "^1.0"`, or a whole PEP 735 group or extra on one line, only under a dependency
table header the hunk itself shows); pom.xml and Gradle catalogs are read in refedits.py, NuGet's references in
nugetedits.py.

Fail closed: every changed line must be a dependency line of its format or blank, each name may be
edited in one place only (a name removed in one block and added in another may have moved between
sections: from devDependencies to dependencies, say), and a value that is not a plain version range
(a git URL, a path; an npm alias `npm:other@1` or a renamed crate unless both sides show the same key
aliasing the same package) is refused. A refusal raises
ManifestError, which the caller reports as a `partial` problem: the change then needs `--tree`.
What is read has no scope or standing (the section header is rarely in the hunk): direct, runtime.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence

from gatekeeper.bounded import load_json
from gatekeeper.deps import tools
from gatekeeper.deps.entryoptions import requirement_options, table_options
from gatekeeper.deps.hunkends import FileEnd, ends_file
from gatekeeper.deps.hunkreads import Side, hunk_pairs  # Side: one side of a hunk, (line, changed)
from gatekeeper.deps.infra import hunk_app
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError, PartialEdits, edit_key
from gatekeeper.deps.npm import VOLTA_TOOLS
from gatekeeper.deps.pypi import spec_of
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

# The (name, version) pairs of the changed line `side[index]` ([] for a line that holds no dependency,
# such as a chart's own version); ManifestError for a line that cannot be read safely. A name may carry
# the section its line shows (`devDependencies|aws-cdk-lib`, split off by `read`).
# A reader may name a pair's ecosystem third where it is not the file's (an image in a .tf file), a
# version comment fourth, the file's own name for the entry (model.Dependency.alias) fifth and what else the
# entry asks for (model.Dependency.options: extras, markers, features) sixth: `with_options` adds it where there is one.
LineReader = Callable[[Side, int], "Sequence[tuple[str, ...]]"]
SECTION_MARK = "|"


def with_options(pair: tuple[str, ...], ecosystem: str, options: str) -> tuple[str, ...]:
    """`pair` (name, version[, ecosystem, comment, alias]) with the entry's options sixth, where it has any."""
    return (*pair, *(ecosystem, "", "")[len(pair) - 2:], options) if options else pair

# A trailing comma is read with the blanks after it: `\s*,?\s*$` split a line of blanks every way (quadratic).
NPM_PAIR = lazy(r'^\s*("(?:[^"\\]|\\.)+")\s*:\s*("(?:[^"\\]|\\.)*")\s*(?:,\s*)?$')
_NPM_SECTION = lazy(r'^\s*"(?P<section>dependencies|devDependencies|optionalDependencies|peerDependencies|'
                    r'require|require-dev)"\s*:\s*(\{.*\})\s*(?:,\s*)?$')
# One npm/composer constraint: `^1.2.3`, `~1.2`, `>=1.0 <2`, `1.x`, `1.2.3 - 1.4`, `^7.4 || ^8.0`, `v1.2.3-rc.1`.
# Each run of blanks is read once: the old `\s*(?:…|\s-\s|\s)\s*` before a part's own `\s*` split a value of
# blanks every way (cubic, 1 KiB in 3.7 CPU-s); the separator takes the blanks, a part only those after its operator.
_RANGE_PART = r"v?\d+(?:\.(?:\d+|[xX*]))*(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?(?:@\w+)?"
_OPERATOR = r"(?:[\^~]|[<>]=?|=)"
RANGE = lazy(rf"^(?:{_OPERATOR}\s*|\s*){_RANGE_PART}"
             rf"(?:(?:\s*(?:\|\|?|,)\s*|\s+(?:-\s+)?)(?:{_OPERATOR}\s*)?{_RANGE_PART})*$")
# Keys of a package's own metadata that hold a version but name no dependency.
_OWN_KEYS = frozenset({"version", "name", "edition", "rust-version", "requires-python", "python", "php"})
# `default_features`: the spelling Cargo accepted before edition 2024 (tokio-rs/tracing's `criterion` entries)
CARGO_TABLE_KEYS = frozenset({"version", "features", "optional", "default-features", "default_features", "public"})
_POETRY_TABLE_KEYS = frozenset({"version", "extras", "optional", "python", "markers", "allow-prereleases"})
_POETRY_HEADER = lazy(r"^\[tool\.poetry\.(?:(?:dev-)?dependencies|group\.[\w.-]+\.dependencies)\]\s*$")
_TOML_HEADER = lazy(r"^\s*\[")


def hunks(data: bytes) -> list[tuple[Side, Side, list[int], list[int]]]:
    """The hunks of `data` (raw hunk lines: `@@` headers, then lines with their ' ', '-', '+' prefix):
    each side's lines and the block of each line (a run of changed lines between context lines is one
    block, on both sides: the edit `-a` `+a'` is one block, a pure addition is a block of its own)."""
    hunks: list[tuple[Side, Side, list[int], list[int]]] = []
    marked: set[int] = set()
    last: set[int] = set()  # the hunks whose last line is the marker (hunkends)
    block, before = 0, False
    for line in text(data).splitlines():
        if line.startswith("@@"):
            hunks.append(([], [], [], []))
            block, before = 0, False
            continue
        if hunks and line.startswith("\\"):  # `\ No newline at end of file`
            marked.add(len(hunks) - 1)
            last.add(len(hunks) - 1)
        if not hunks or not line or line[0] not in " -+":
            continue
        last.discard(len(hunks) - 1)
        old, new, old_blocks, new_blocks = hunks[-1]
        mark, body = line[0], line[1:]
        changed = mark != " "
        block += changed and not before
        before = changed
        if mark in " -":
            old.append((body, mark == "-"))
            old_blocks.append(block)
        if mark in " +":
            new.append((body, mark == "+"))
            new_blocks.append(block)
    # a block of a hunk git marks `\ No newline` that reads the same on both sides (`-</Project>`, the marker,
    # `+</Project>`: the file's last newline) edits nothing: it is context
    for old, new, old_blocks, new_blocks in (hunks[i] for i in sorted(marked)):
        shown = [_changed(old, old_blocks), _changed(new, new_blocks)]
        same = {b for b, was in shown[0].items()
                if [old[i][0] for i in was] == [new[i][0] for i in shown[1].get(b, ())]}
        for side, lines in ((old, shown[0]), (new, shown[1])):
            at = {i for b in same for i in lines.get(b, ())}
            side[:] = [(t, c and i not in at) for i, (t, c) in enumerate(side)]
    return [(FileEnd(old), FileEnd(new), ob, nb) if ends_file(old, new, number in last) else (old, new, ob, nb)
            for number, (old, new, ob, nb) in enumerate(hunks)]


def _changed(side: Side, blocks: list[int]) -> dict[int, list[int]]:
    """The indexes of `side`'s changed lines, by block."""
    out: dict[int, list[int]] = {}
    for i, (_, changed) in enumerate(side):
        if changed:
            out.setdefault(blocks[i], []).append(i)
    return out


def read(ecosystem: str, reader: LineReader, path: str, data: bytes) -> tuple[list[Dependency], list[Dependency]]:
    """(base, head) dependencies the changed lines of the hunks in `data` show; ManifestError when no hunk can be
    read safely (hunkreads.py; else PartialEdits). The same edit in several places (`memcached` 6.1.11 → 8.7.7
    under three aliases of a chart, one hook repository's rev in two entries) is one move; any other edit of a name
    in two places may be a move between sections: that name is left unnamed beside the others (PartialEdits)."""
    edits: dict[str, dict[tuple[int, int], tuple[list[Dependency], list[Dependency]]]] = {}
    sections: tuple[dict[str, str], dict[str, str]] = ({}, {})  # name → the section its line shows, per side
    unshown: list[str] = []  # what lines read only as far as their hunk shows cannot show (PartlyShown)
    refused: list[str] = []  # hunks with a changed line that cannot be read safely: none of their lines is named
    for number, (old, new, old_blocks, new_blocks) in enumerate(hunks(data)):
        try:
            lines_read = hunk_pairs(reader, old, new)
        except ManifestError as exc:
            refused.append(str(exc))
            continue
        for which, index, pairs, why in lines_read:
            side, blocks = (old, old_blocks) if which == 0 else (new, new_blocks)
            if why and why not in unshown:
                unshown.append(why)
            for pair in pairs:
                named, version, kind = pair[0], pair[1], pair[2] if len(pair) > 2 else ecosystem
                tag = pair[3] if len(pair) > 3 else ""  # a version comment (pre-commit's `# frozen: v1`)
                alias = pair[4] if len(pair) > 4 else ""  # the file's own name for it (a catalog's key)
                options = pair[5] if len(pair) > 5 else ""  # extras, markers, features (entryoptions.py)
                section, _, name = named.rpartition(SECTION_MARK)
                if sections[1 - which].get(name, section) != section:
                    raise ManifestError(f"{name!r} moves between sections: read the whole file (--tree)")
                sections[which][name] = section
                place = edits.setdefault(name, {}).setdefault((number, blocks[index]), ([], []))
                dep = Dependency(kind, name, version, path, None, None, tag, alias, options=options)
                if place[which] and kind == "kustomize" and place[which] == [dep]:
                    continue  # files of one repository at one ref (`…/rook/v1.9.9/a.yaml`, `…/b.yaml`): one
                if place[which]:
                    raise ManifestError(f"{name!r} appears twice on one side of an edit")
                place[which].append(dep)
    sides: tuple[list[Dependency], list[Dependency]] = ([], [])
    for name, places in edits.items():
        shown = list(places.values())
        if ecosystem in ("npm", "cargo") and any(d.alias and not (old and new and old[0].alias == new[0].alias)
                                                 for old, new in shown for d in old + new):
            # a key pointed at another package (`lodash` → `npm:evil-lodash@4`, `regex = { package = "evil-regex" }`),
            # or an alias (a renamed crate) added or dropped
            raise ManifestError(f"{name!r}: an alias the hunk does not show on both sides")
        if len(shown) > 1 and (any(len(old) != 1 or len(new) != 1 for old, new in shown)
                               or len({edit_key(old[0], new[0]) for old, new in shown}) != 1):
            was, now = [d for old, _ in shown for d in old], [d for _, new in shown for d in new]
            if len(was) == len(now) == 1 and sections[0].get(name) and sections[0].get(name) == sections[1].get(name):
                # removed in one place and written in another of the section the hunks show on both sides (a
                # section sorted anew beside bumps, plus_plugins' pubspecs): one edit, its scope unmoved
                sides[0].extend(was)
                sides[1].extend(now)
                continue
            unshown.append(f"{name!r} is edited in two places: read the whole file (--tree)")
            continue
        sides[0].extend(shown[0][0])
        sides[1].extend(shown[0][1])
    if refused and not sides[0] + sides[1]:
        raise ManifestError(refused[0])  # nothing readable beside the hunk that is not: as before, no names
    if said := unshown + [f"a hunk cannot be read safely ({why})" for why in refused]:  # named as far as shown
        raise PartialEdits("; ".join(said[:3]) + ("; …" if len(said) > 3 else ""), sides)
    return sides


def _npm_pair(line: str, name: object, value: object) -> tuple[str, str]:
    """A package.json or composer.json pair; `*`, the wildcard both document for any version (nextcloud/activity's
    `"friendsofphp/php-cs-fixer": "*"` that Renovate pinned), is a range as the whole value."""
    if not isinstance(name, str) or SECTION_MARK in name or name in _OWN_KEYS or not isinstance(value, str) \
            or not (RANGE.match(value.strip()) or value.strip() == "*"):
        raise ManifestError(f"not a plain version range: {line.strip()[:80]!r}")
    return name, value.strip()


def json_value(value: str, line: str) -> object:
    try:
        return load_json(value, "a manifest line of the patch")
    except (ValueError, LimitError):
        raise ManifestError(f"not a dependency line: {line.strip()[:80]!r}") from None


# An npm package name: `x` or `@scope/x`. Keys of `resolutions` / `overrides` that name a path or a selector
# (yarn's `express/path-to-regexp` and `**/x`, pnpm's `a>b` and `x@1`) are none: from a hunk alone they are
# an override section's lines, never a dependency called `express/path-to-regexp`.
_NPM_NAME = lazy(r"^(?:@[A-Za-z0-9_.~-]+/)?[A-Za-z0-9_.~-]+$")


# An alias's value, `npm:<package>@<range>`: npm installs <package> under the key's name (npm.declared).
_NPM_ALIAS = lazy(r'^\s*("(?:[^"\\]|\\.)+")\s*:\s*"npm:((?:@[A-Za-z0-9_.~-]+/)?[A-Za-z0-9_.~-]+)@([^"\\]+)"'
                  r'\s*(?:,\s*)?$')


def npm_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A package.json dependency line; an alias (`"@nuxt/ui-pro": "npm:@nuxt/ui-pro-edge@1.4.4"`) is named by the
    package it fetches, with its key as the alias, as npm.declared names it; `read` takes an alias only where the
    hunk shows the same key aliasing the same package on both sides."""
    alias = _NPM_ALIAS.match(side[index][0])
    if alias is not None and RANGE.match(alias.group(3).strip()):
        key = json_value(alias.group(1), side[index][0])
        if isinstance(key, str) and _NPM_NAME.match(key) and key != alias.group(2):
            return [(alias.group(2), alias.group(3).strip(), "npm", "", key)]
    found: list[tuple[str, ...]] = list(json_line(side, index))
    for named, _ in found:
        if not _NPM_NAME.match(named.rpartition(SECTION_MARK)[2]):
            raise ManifestError(f"not an npm package name (a resolution path or selector?): {named[:80]!r}")
    table = opening(side, index) if len(found) == 1 and SECTION_MARK not in found[0][0] else None
    if table == "engines" or table == "volta" and found[0][0] in VOLTA_TOOLS:
        # a runtime or package manager the package names (npm.engines reads the whole file so)
        return [(f"{table}{SECTION_MARK}{tools.tool_name(found[0][0])}", found[0][1], tools.TOOL)]
    return found


_OPENING = lazy(r'^(\s*)"(?P<key>[^"\\]+)"\s*:\s*\{\s*$')


def opening(side: Side, index: int) -> str | None:
    """The key of the object whose `"name": "value"` line `side[index]` is, where the hunk shows its opening above it
    across the object's other pair lines only, within 32 lines (`engines` and `volta` hold a few keys; a hunk of
    10,000 dependency lines stays linear); None where it does not."""
    indent = len(side[index][0]) - len(side[index][0].lstrip())
    for above, _ in reversed(side[max(0, index - 32):index]):
        if NPM_PAIR.match(above) and len(above) - len(above.lstrip()) == indent:
            continue
        m = _OPENING.match(above)
        return m.group("key") if m is not None and len(m.group(1)) < indent else None
    return None


def json_line(side: Side, index: int) -> list[tuple[str, str]]:
    """`"name": "range",`, or a whole dependency section on one line: `"dependencies": { "a": "1.0" },`;
    `"packageManager": "pnpm@9.1.0+sha512.…"`, the package manager corepack runs (named as the whole-file
    reader names it: `pnpm` at 9.1.0)."""
    line = side[index][0]
    m = NPM_PAIR.match(line)
    if m is not None and json_value(m.group(1), line) == "packageManager":
        manager = json_value(m.group(2), line)
        name, at, version = manager.rpartition("@") if isinstance(manager, str) else ("", "", "")
        if not name or name.startswith("@") and "/" not in name or not RANGE.match(version.split("+")[0]):
            raise ManifestError(f"not a package manager at a version: {line.strip()[:80]!r}")
        return [(f"packageManager{SECTION_MARK}{name}", version.split("+")[0])]
    if m is not None:
        return [_npm_pair(line, json_value(m.group(1), line), json_value(m.group(2), line))]
    if (section := _NPM_SECTION.match(line)) is not None:
        try:
            table = json_value(section.group(2), line)
        except ManifestError:
            table = None
        if isinstance(table, dict):
            pairs = [_npm_pair(line, name, value) for name, value in table.items()]
            return [(f"{section.group('section')}{SECTION_MARK}{name}", value) for name, value in pairs]
    raise ManifestError(f"not a dependency line: {line.strip()[:80]!r}")


def toml_pair(line: str) -> tuple[str, object]:
    try:
        doc = tomllib.loads(line.strip())
    except (tomllib.TOMLDecodeError, RecursionError):  # `x = [[[[…`: tomllib recurses a level a bracket
        raise ManifestError(f"not a one-line TOML key: {line.strip()[:80]!r}") from None
    if len(doc) != 1:
        raise ManifestError(f"not a one-line TOML key: {line.strip()[:80]!r}")
    [(name, value)] = doc.items()
    if name in _OWN_KEYS:
        raise ManifestError(f"{name!r} names no dependency")
    return name, value


def table_version(name: str, value: object, allowed: frozenset[str]) -> str:
    if isinstance(value, dict):
        if not set(value) <= allowed or not isinstance(value.get("version"), str):
            raise ManifestError(f"{name!r}: only a version (and features) can be read from a hunk")
        value = value["version"]
    if not isinstance(value, str) or not RANGE.match(value.strip()):
        raise ManifestError(f"{name!r}: not a plain version requirement")
    return value.strip()


def pyproject_line(side: Side, index: int) -> list[tuple[str, ...]]:
    from packaging.requirements import InvalidRequirement, Requirement  # deferred: only a requirement needs it (pypi)

    line = side[index][0].strip()
    if line.startswith(("'", '"')):
        try:
            item = tomllib.loads(f"x = [\n{line}\n]")["x"]  # one item, its comma and comment (`# relaxed …`)
            req = Requirement(item[0]) if len(item) == 1 and isinstance(item[0], str) else None
        except (tomllib.TOMLDecodeError, RecursionError, InvalidRequirement):
            req = None
        if req is None or req.url or not req.specifier:
            raise ManifestError(f"not a versioned PEP 508 requirement: {line[:80]!r}")
        return [with_options((req.name, spec_of(req)), "pip", requirement_options(req))]
    header = next((text for text, _ in reversed(side[:index]) if _TOML_HEADER.match(text)), None)
    if header is not None and _LIST_TABLES.match(header.strip()):
        return _requirement_list(line)
    if header is not None and header.strip() == "[build-system]" and toml_pair(line)[0] == "requires":
        return _requirement_list(line)  # `requires = ["hatchling==1.30.1"]` (meltano): what builds the package
    if header is None or not _POETRY_HEADER.match(header.strip()):
        raise ManifestError(f"not a dependency line (no dependency table shown above it): {line[:80]!r}")
    name, value = toml_pair(line)
    options = table_options(value, ("version",)) if isinstance(value, dict) else ""  # `optional`, `markers`…
    return [with_options((name, table_version(name, value, _POETRY_TABLE_KEYS)), "pip", options)]


# Tables whose every key is a list of PEP 508 requirements: PEP 735 groups, PEP 621 extras, PDM's older dev groups.
_LIST_TABLES = lazy(r"^\[(?:dependency-groups|project\.optional-dependencies|tool\.pdm\.dev-dependencies)\]"
                    r"\s*(?:#.*)?$")


def _requirement_list(line: str) -> list[tuple[str, ...]]:
    """A whole group on one line under its table's header (`hatch = ["hatch==1.17.0", "hatch-vcs"]`): each
    requirement under its group's name as its section, so one moved between groups is refused. An item that
    is no requirement (PEP 735's `{include-group = "x"}`) or names a URL cannot be read from the hunk."""
    from packaging.requirements import InvalidRequirement, Requirement  # deferred: only a requirement needs it (pypi)

    group, items = toml_pair(line)
    if not isinstance(items, list):
        raise ManifestError(f"not a list of requirements: {line[:80]!r}")
    out: list[tuple[str, ...]] = []
    for item in items:
        try:
            req = Requirement(item) if isinstance(item, str) else None
        except InvalidRequirement:
            req = None
        if req is None or req.url:
            raise ManifestError(f"not a list of plain PEP 508 requirements: {line[:80]!r}")
        out.append(with_options((f"{group}{SECTION_MARK}{req.name}", spec_of(req)), "pip", requirement_options(req)))
    return out


_YAML_VERSION = lazy(r"^(\s*)(-\s+)?version:\s*['\"]?([^'\"\s#]+)['\"]?\s*$")
_YAML_NAME = lazy(r"^(\s*)(-\s+)?name:\s*['\"]?([^'\"\s#]+)['\"]?\s*$")
_CHART_OWN = lazy(r"^(?:version|appVersion|digest|generated):")  # the chart's and the lock's own keys


def _annotation(side: Side, index: int) -> bool:
    """The line sits inside the chart's top-level `annotations:` mapping, as the hunk shows: every line from
    it up to `annotations:` is indented (a key of the mapping, or text of a block scalar such as
    `artifacthub.io/changes: |`). Annotations are metadata for people and tools (Artifact Hub's changelog,
    traefik's supported proxy versions); Helm installs nothing from them."""
    if not side[index][0][:1].isspace():
        return False  # a top-level key itself (`annotations:` included) is the chart's structure
    for above, _ in reversed(side[:index]):
        if above.strip() and not above[0].isspace():
            return above.rstrip() == "annotations:"
    return False


def helm_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A dependency's `version:` in Chart.yaml or Chart.lock whose `- name:` the hunk shows in the same
    list item; the chart's own version and the lock's digest are no dependency (None)."""
    line = side[index][0]
    if _annotation(side, index):
        return []
    if _CHART_OWN.match(line):
        # `# renovate: github=prometheus/prometheus` over `appVersion:` names the app (as parse_chart reads it)
        named = tools.annotation(side[index - 1][0]) if index > 0 else None
        dep = tools.annotated(line, named, "") if named is not None else None
        # an unannotated appVersion: the application, when the hunk shows the chart's name (infra.hunk_app)
        app = hunk_app([above for above, _ in side], index) if named is None else None
        return [(dep.name, dep.version, dep.ecosystem)] if dep is not None else [(*app, tools.TOOL)] if app else []
    m = _YAML_VERSION.match(line)
    if m is None or m.group(2):
        raise ManifestError(f"not a dependency's version line: {line.strip()[:80]!r}")
    indent = len(m.group(1))
    for above, _ in reversed(side[:index]):
        item = _YAML_NAME.match(above)
        if item is not None and item.group(2) and len(item.group(1)) + len(item.group(2)) == indent:
            return [(item.group(3), m.group(3))]
        stripped = above.lstrip()
        if not stripped or len(above) - len(stripped) != indent or stripped.startswith("-"):
            break  # another list item, a nested block or the end of this one
    raise ManifestError(f"the hunk does not show whose version this is: {line.strip()[:80]!r}")
