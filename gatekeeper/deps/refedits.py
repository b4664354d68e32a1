"""Versions named once and used by reference, from a patch's hunks: a Gradle catalog's `[versions]` key
(`okio = "3.17.0"`, used as `version.ref = "okio"`) and a pom.xml property (`<jackson.version>`, used as
`${jackson.version}`).

A bot's bump of such a version changes that one line; the libraries it feeds are elsewhere in the file (and, for a
catalog key, in build scripts; for a property, in child POMs), which a patch shows only where a hunk's lines happen
to hold them. What the hunks do show is named: each use a hunk shows (context, checked by `git apply` against the
base) whose library the same hunk names (a catalog entry's one-line table; a `<version>` whose `<dependency>` or
`<plugin>` with its groupId and artifactId the hunk shows above it), moved from the old value to the new. What they
cannot show, every other use, is said as a `partial` problem beside those changes (PartialEdits): the delta names
what it can and the gate still asks for `--tree`, which reads every use (jvm.parse_version_catalog, mavenprops.py).
A moved key or property no hunk shows a use of is named by itself (`[versions].jimfs`, `${okhttp3.version}`) beside
that problem (round 55).

Fail closed: the key's line must sit under a `[versions]` header, the property's under `<properties>`, both shown
by the hunk — or the hunk shows nothing but such keys (one-part strings) or version properties (_keys_only,
_properties_only); each may move once (one old and one new value across the hunks); a use's line must not be a changed
line (a reference moved is read by the line readers, which refuse it); a hunk holding an XML comment or CDATA
marker, or a TOML multi-line string, shows no use (the line may be text, not an element or an entry).
"""

from __future__ import annotations

from collections.abc import Callable

from gatekeeper.deps import cataloglines, edits, pomlines
from gatekeeper.deps.edits import Side
from gatekeeper.deps.loaders import load_toml
from gatekeeper.deps.model import Dependency, ManifestError, PartialEdits
from gatekeeper.lazy_pattern import lazy

Found = tuple[list[Dependency], list[Dependency]]
Moved = dict[str, tuple[list[str], list[str]]]  # key or property → its (old, new) values the changed lines show
KeyReader = Callable[[Side, int], "tuple[str, str] | None"]  # a changed line's (key, value), None for another line
UseReader = Callable[[Side, int], "tuple[str, str, str] | None"]  # a line's (key it uses, package, alias)


_VERSION_KEY = lazy(r"""^\s*([A-Za-z0-9_-]+)\s*=\s*"([^"\\]*)"\s*(?:#.*)?$""")


def _catalog_key(side: Side, index: int) -> tuple[str, str] | None:
    """(key, version) of a `[versions]` line the hunk shows under its header; None for any other line."""
    m = _VERSION_KEY.match(side[index][0])
    if m is None:
        return None
    sections, unsafe = _scan("catalog", side)
    if sections[index] != "versions" and not (sections[index] is None and _keys_only(side, m.group(2))):
        return None
    if unsafe:
        raise ManifestError(f"a [versions] key in a hunk holding a multi-line string: {side[index][0].strip()[:80]!r}")
    return m.group(1), m.group(2)


_TOML_COMMENT = lazy(r"^\s*(?:#.*)?$")


def _keys_only(side: Side, value: str) -> bool:
    """The hunk shows `[versions]` keys only, one context line at least, with no header: a one-part string is no
    `[libraries]` (`g:a:v`) or `[plugins]` (`id:v`) entry, so only a `[versions]` key far below its header."""
    return ":" not in value and _only("keys", side, _all_keys)


def _all_keys(side: Side) -> bool:
    if all(changed for _, changed in side):
        return False
    for text, _ in side:
        if (m := _VERSION_KEY.match(text)) is None:
            if not _TOML_COMMENT.match(text):
                return False
        elif ":" in m.group(2):
            return False
    return True


_ONLY: dict[str, tuple[Side, bool]] = {}  # kind → (the side last asked of, whether it shows keys/properties only)


def _only(kind: str, side: Side, check: Callable[[Side], bool]) -> bool:
    """`check(side)`, once a side (as _scan): each changed line asks it, one pass a side answers."""
    cached = _ONLY.get(kind)
    if cached is None or cached[0] is not side:
        cached = _ONLY[kind] = (side, check(side))
    return cached[1]
_TABLE_KEY = lazy(r"\b(?:module|group|id)\s*=")
# kind → (the side last scanned, what governs each of its lines from above, whether it may hold text not markup): the
# key readers ask of every changed line what a walk up the hunk would tell; one pass a side keeps that linear
_SCANS: dict[str, tuple[Side, list[str | None], bool]] = {}


def _scan(kind: str, side: Side) -> tuple[list[str | None], bool]:
    cached = _SCANS.get(kind)
    if cached is not None and cached[0] is side:
        return cached[1], cached[2]
    found = (_catalog_sections(side), _toml_text([t for t, _ in side])) if kind == "catalog" else \
        (_pom_blocks(side), _xml_text([t for t, _ in side]))
    _SCANS[kind] = (side, *found)
    return found


def _catalog_sections(side: Side) -> list[str | None]:
    """The table each line sits in as the lines above it show (cataloglines.catalog_section's walk up): the header
    above across entries and comments only; never `versions` past an inline table that may be a library's or a
    plugin's; None when nothing shows it."""
    out: list[str | None] = []
    state: str | None = None
    for text, _ in side:
        out.append(state)
        if (header := cataloglines.CATALOG_HEADER.match(text)) is not None:
            state = header.group(1)
        elif (entry := cataloglines.CATALOG_ENTRY.match(text)) is not None:
            if entry.group(2).startswith("{") and _TABLE_KEY.search(entry.group(2)) is not None:
                state = "libraries or plugins"  # what such a table may prove (never `versions`), parsed by none
        elif not _TOML_COMMENT.match(text):
            state = None
    return out


_REF = lazy(r"\bref\s*=")


def _catalog_use(side: Side, index: int) -> tuple[str, str, str] | None:
    """(ref, name, alias) of a one-line catalog entry whose version is `version.ref = "<ref>"`."""
    m = cataloglines.CATALOG_ENTRY.match(side[index][0])
    if m is None or _REF.search(m.group(2)) is None:
        return None
    value = load_toml(f"v = {m.group(2)}".encode())["v"]
    if not isinstance(value, dict) or frozenset(value) not in cataloglines.CATALOG_TABLES:
        return None
    ref = value["version"]
    if not isinstance(ref, dict) or set(ref) != {"ref"} or not isinstance(ref["ref"], str) \
            or not all(isinstance(value[k], str) for k in value if k != "version"):
        return None
    name = value.get("id") or value.get("module") or f"{value.get('group')}:{value.get('name')}"
    return ref["ref"], str(name), m.group(1)


_CATALOG_KEY = "[versions] key"


def catalog_edits(path: str, data: bytes) -> Found:
    """The hunks of a Gradle catalog (cataloglines.catalog_line), with its `[versions]` keys' moves named through the
    entries the hunks show using them."""
    return _read(path, data, _catalog_key, _catalog_use, cataloglines.catalog_line, _toml_text,
                 _CATALOG_KEY, "entries and build scripts ({uses})")


_PROPERTIES = lazy(r"^\s*<properties>\s*$")
_USE = lazy(r"^\s*<version>\s*\$\{([\w.-]+)\}\s*</version>\s*$")


def _xml_text(lines: list[str]) -> bool:
    """Some line may be text, not markup: a CDATA marker, or a comment's marker other than one whole-line comment
    (a comment spanning lines could hold a `<version>` line that is no element)."""
    return any("CDATA[" in text or "]]>" in text
               or ("<!--" in text or "-->" in text) and pomlines.COMMENT_LINE.match(text) is None for text in lines)


def _toml_text(lines: list[str]) -> bool:
    """Some line may be part of a multi-line string."""
    return any(quote in text for text in lines for quote in ('"""', "'''"))


def _pom_property(side: Side, index: int) -> tuple[str, str] | None:
    """(name, value) of a property line whose `<properties>` the hunk shows above it, other properties between."""
    m = pomlines.PROPERTY.match(side[index][0])
    if m is None or m.group(1) in ("groupId", "artifactId", "version") or "$" in m.group(2):
        return None  # a dependency's own tag, or a property built of others (its value is not in the hunk)
    blocks, unsafe = _scan("pom", side)
    if blocks[index] != "project" and _properties_only(side, m.group(1)) and not unsafe and "&" not in m.group(2):
        return m.group(1), m.group(2)  # whose properties the hunk does not show: named by itself, `partial`
    if blocks[index] is None:
        return None
    if blocks[index] != "project":
        raise ManifestError(f"a property whose <properties> the hunk does not show to be the project's (a "
                            f"profile's or a developer's?): {side[index][0].strip()[:80]!r}")
    if unsafe:
        raise ManifestError(f"a property in a hunk holding an XML comment or CDATA: {side[index][0].strip()[:80]!r}")
    if "&" in m.group(2):
        raise ManifestError(f"an XML character reference in a property: {side[index][0].strip()[:80]!r}")
    return m.group(1), m.group(2)


_PROPERTIES_EDGE = lazy(r"^\s*</?properties>\s*$")
_OWN_TAGS = ("groupId", "artifactId", "version")


def _properties_only(side: Side, name: str) -> bool:
    """The hunk shows properties only (one context line at least; `<properties>` and `</properties>` lines), `name` a
    version's: whose properties they are (the project's, a profile's) the hunk does not show, but no dependency's or
    plugin's element looks so."""
    return "version" in name.lower() and _only("properties", side, _all_properties)


def _all_properties(side: Side) -> bool:
    if all(changed for _, changed in side):
        return False
    for text, _ in side:
        if (m := pomlines.PROPERTY.match(text)) is not None:
            if m.group(1) in _OWN_TAGS:
                return False
        elif text.strip() and pomlines.COMMENT_LINE.match(text) is None and _PROPERTIES_EDGE.match(text) is None:
            return False
    return True


def _pom_blocks(side: Side) -> list[str | None]:
    """Whose `<properties>` each line sits in as the lines above it show, across properties, blank lines and
    one-line comments only: `project`, `other` (a profile's, a developer's, or not shown to be the project's), None
    when no `<properties>` shows."""
    out: list[str | None] = []
    state: str | None = None
    for at, (text, _) in enumerate(side):
        out.append(state)
        if _PROPERTIES.match(text):
            state = "project" if _project_level(side, at) else "other"
        elif text.strip() and pomlines.PROPERTY.match(text) is None and pomlines.COMMENT_LINE.match(text) is None:
            state = None
    return out


# What sits beside the project's own `<properties>` only: a profile holds no such element, nor a developer's entry
# (whose `<properties>` are no Maven properties) any of these but `<url>`, `<name>` and `<organization>`, left out.
_PROJECT_LEVEL = lazy(r"^\s*(?:<(modelVersion|groupId|artifactId|version|packaging|description|inceptionYear)>"
                      r"[^<]*</\1>"
                      r"|</(?:parent|licenses|developers|contributors|mailingLists|prerequisites|scm|issueManagement"
                      r"|ciManagement)>|<project\b[^<>]*>)\s*$")


def _project_level(side: Side, at: int) -> bool:
    """The `<properties>` at `side[at]` is the project's: the nearest element the hunk shows above it is one a profile
    or a developer cannot hold (a profile's properties, which the whole-file reader joins with the project's as
    alternatives, jvm.pom_properties, and a developer's, which are no Maven properties, are refused)."""
    for before in range(at - 1, -1, -1):
        above = side[before][0]
        if above.strip() and pomlines.COMMENT_LINE.match(above) is None:
            return _PROJECT_LEVEL.match(above) is not None
    return False


def _pom_use(side: Side, index: int) -> tuple[str, str, str] | None:
    """(property, coordinates, "") of `<version>${property}</version>` whose element the hunk shows above it."""
    m = _USE.match(side[index][0])
    if m is None:
        return None
    try:
        owner = pomlines.pom_owner(side, index)
    except ManifestError:
        return None
    return m.group(1), owner, ""


def pom_edits(path: str, data: bytes) -> Found:
    """The hunks of a pom.xml (pomlines.pom_line), with its properties' moves named through the `<version>` lines the
    hunks show using them."""
    return _read(path, data, _pom_property, _pom_use, pomlines.pom_line, _xml_text, "property",
                 "dependencies, plugins and child POMs ({uses})")


_MAX_USES = 256


def _read(path: str, data: bytes, keys: KeyReader, uses_of: UseReader, reader: edits.LineReader,
          unsafe: Callable[[list[str]], bool], what: str, elsewhere: str) -> Found:
    try:
        return _moves(path, data, keys, uses_of, reader, unsafe, what, elsewhere)
    finally:
        _SCANS.clear()
        _ONLY.clear()


def _moves(path: str, data: bytes, keys: KeyReader, uses_of: UseReader, reader: edits.LineReader,
           unsafe: Callable[[list[str]], bool], what: str, elsewhere: str) -> Found:
    hunks = edits.hunks(data)
    moved: Moved = {}
    for old, new, _, _ in hunks:
        for which, side in ((0, old), (1, new)):
            for index, (_, changed) in enumerate(side):
                if changed and (pair := keys(side, index)) is not None:
                    moved.setdefault(pair[0], ([], []))[which].append(pair[1])

    def line(side: Side, index: int) -> list[tuple[str, ...]]:
        return [] if keys(side, index) is not None else list(reader(side, index))

    for key, (was, now) in moved.items():  # before the lines are read: a side's line read as a key, its other
        if len(was) != 1 or len(now) != 1:  # side's as an entry, would name the entry alone
            raise ManifestError(f"{what} {key!r} added, dropped or edited in more than one place: read the whole "
                                f"file (--tree)")
    base, head = edits.read("maven", line, path, data)
    if not moved:
        return base, head
    named: dict[str, list[str]] = {key: [] for key in moved}
    taken = {d.name for d in base + head}
    for old, new, _, _ in hunks:
        if unsafe([text for text, _ in old + new]):
            continue  # a use there may be text of a comment or string, not an element or entry
        for index, (_, changed) in enumerate(new):
            if len(taken) > _MAX_USES:
                break  # a catalog or POM has fewer; the rest stays what the `partial` problem says is not read
            use = None if changed else uses_of(new, index)
            if use is None or use[0] not in moved:
                continue
            key, name, alias = use
            if name in taken:
                raise ManifestError(f"{name!r} is edited beside the {what} {key!r} it uses: read the whole file "
                                    f"(--tree)")
            taken.add(name)
            named[key].append(name)
            ref = key if what == _CATALOG_KEY else ""  # a catalog entry names the key it shares, as the file reader
            base.append(Dependency("maven", name, moved[key][0][0], path, None, None, "", alias, ref))
            head.append(Dependency("maven", name, moved[key][1][0], path, None, None, "", alias, ref))
    for key, names in named.items():
        if not names:  # no use shown: the key or property itself, by the name a use writes (docs/dependencies.md)
            label = f"[versions].{key}" if what == _CATALOG_KEY else f"${{{key}}}"
            base.append(Dependency("maven", label, moved[key][0][0], path, None, None, "", "", key))
            head.append(Dependency("maven", label, moved[key][1][0], path, None, None, "", "", key))
    shown = {key: ", ".join(names[:4]) + (" …" if len(names) > 4 else "") for key, names in named.items()}
    summary = "; ".join(f"{what} {key!r} {moved[key][0][0][:40]} → {moved[key][1][0][:40]} feeds "
                        f"{shown[key] or 'no entry the hunks show'}"
                        for key in list(named)[:3]) + ("; …" if len(named) > 3 else "")
    if not any(named.values()):
        raise PartialEdits(f"{summary}: which libraries it moves is not in the patch, so it is named by itself",
                           (base, head))
    raise PartialEdits(f"{summary}; other {elsewhere.format(uses='uses beyond the hunks')} are not in the patch",
                       (base, head))
