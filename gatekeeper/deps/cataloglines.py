"""The hunk line reader (edits.py's `LineReader`) of a Gradle version catalog, `libs.versions.toml` (moved out of
hunklines.py, whose other readers it shares nothing with but the refusal's form).

A one-line inline table of a plugin (`{ id, version }`) or a library (`{ module, version }`, `{ group, name,
version }`) with a literal version, whatever its section (Gradle refuses those keys in any other); a string entry
(`"g:a:1.0"`, `"id:1.0"`, or TOML's literal `'g:a:1.0'`) only in a `[libraries]` or `[plugins]` table the hunk
shows — its header above, or such an
inline table with no header between — since in `[versions]` any string is a version; a three-part `"g:a:v"` string
whose table the hunk does not show is named as shown beside a `partial` problem (PartlyShown), since only a
`[versions]` key could hold one too, and so is a two-part `"plugin.id:1.0"` string, as a plugin. A `[versions]`
alias and a `version.ref` name no package from the hunk alone; any triple quote in the hunk (a multi-line string
could hold a line that looks like an entry) refuses the file.
"""

from __future__ import annotations

from gatekeeper.deps.edits import Side
from gatekeeper.deps.loaders import load_toml
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.lazy_pattern import lazy

_COMMENT = lazy(r"^\s*(?:#.*)?$")


def _refuse(why: str, line: str) -> ManifestError:
    return ManifestError(f"{why}: {line.strip()[:80]!r}")


_COORDINATE = lazy(r"^[A-Za-z0-9_][\w.+-]{0,199}$")  # one part of `group:artifact:version`
# a string basic (`"g:a:1.0"`) or literal (`'g:a:1.0'`, halo-dev/halo's catalog; round 49), or a one-line inline table
CATALOG_ENTRY = lazy(r"""^\s*([A-Za-z0-9_-]+)\s*=\s*(\{[^{}]*\}|"[^"\\]*"|'[^'\n]*')\s*(?:#.*)?$""")
CATALOG_HEADER = lazy(r"^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(?:#.*)?$")
CATALOG_TABLES = {frozenset({"id", "version"}), frozenset({"module", "version"}),
                   frozenset({"group", "name", "version"})}


def catalog_section(side: Side, index: int) -> str | None:
    """The table the entry at `index` sits in: the header the hunk shows above it, else what an entry of the
    same table the hunk shows (no header between) proves — a `module`/`group` table is a library, an `id`
    table a plugin, and Gradle refuses those keys in any other table. None when nothing shows it."""
    for step, lines in ((-1, reversed(side[:index])), (1, iter(side[index + 1:]))):
        for text, _ in lines:
            if (header := CATALOG_HEADER.match(text)) is not None:
                if step == -1:
                    return header.group(1)
                break  # the next table begins: nothing below it is of this one
            if _COMMENT.match(text):
                continue
            entry = CATALOG_ENTRY.match(text)
            if entry is None:
                break
            value = load_toml(f"v = {entry.group(2)}".encode())["v"]
            if isinstance(value, dict) and frozenset(value) in CATALOG_TABLES:
                return "plugins" if "id" in value else "libraries"
    return None


def catalog_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """One entry of a Gradle version catalog: (name, version, "maven", "", its key, the alias)."""
    line = side[index][0]
    if _COMMENT.match(line):
        return []
    m = CATALOG_ENTRY.match(line)
    if m is None or any("\"\"\"" in text or "\'\'\'" in text for text, _ in side):
        raise _refuse("not a one-line catalog entry with its version", line)
    key, value = m.group(1), load_toml(f"v = {m.group(2)}".encode())["v"]
    if isinstance(value, dict):
        if frozenset(value) not in CATALOG_TABLES or not all(isinstance(v, str) for v in value.values()):
            raise _refuse("not a catalog entry with a literal version", line)
        name = value.get("id") or value.get("module") or f"{value.get('group')}:{value.get('name')}"
        return [(name, value["version"], "maven", "", key)]
    section = catalog_section(side, index)
    parts = value.split(":")
    if section == "libraries" and len(parts) == 3:
        return [(f"{parts[0]}:{parts[1]}", parts[2], "maven", "", key)]
    if section == "plugins" and len(parts) == 2:
        return [(parts[0], parts[1], "maven", "", key)]
    if section == "versions":
        raise _refuse("a [versions] key that is not one plain string", line)
    if section is None and len(parts) == 3 and all(_COORDINATE.match(part) for part in parts):
        # `asm = "org.ow2.asm:asm:9.7.1"` far below `[libraries]` (JakeWharton/diffuse, Automattic's pocket-casts):
        # Gradle's string notation of a library; only a [versions] key could hold such a string too
        raise PartlyShown(f"the hunk does not show the table of {key[:80]!r} (a group:artifact:version string is a "
                          "[libraries] entry, or a [versions] key's odd value)", [(f"{parts[0]}:{parts[1]}",
                                                                                  parts[2], "maven", "", key)])
    if section is None and len(parts) == 2 and all(_COORDINATE.match(part) for part in parts) \
            and parts[1][:1].isdigit() and "." in parts[0]:
        # `spotbugs = "com.github.spotbugs:6.5.11"` far below `[plugins]` (diffplug/spotless): Gradle's string
        # notation of a plugin, its id dotted; a versionless library's `group:artifact` names no digit-led version
        raise PartlyShown(f"the hunk does not show the table of {key[:80]!r} (an id:version string is a [plugins] "
                          "entry, or a [versions] key's odd value)", [(parts[0], parts[1], "maven", "", key)])
    if section is None and len(parts) == 1:
        # most often a [versions] key far below its header: the libraries it feeds are elsewhere (refedits.py)
        raise _refuse("a string entry whose table the hunk does not show (a [versions] key, or an entry of "
                      "[libraries] or [plugins])", line)
    raise _refuse("the hunk does not show this entry's [libraries] or [plugins] header", line)
