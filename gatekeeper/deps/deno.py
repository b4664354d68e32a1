"""Deno's configuration (`deno.json`, `deno.jsonc`) and import maps (`import_map.json`): the packages their
`imports` (and `scopes`) map names to.

A value is a specifier: `jsr:@scope/name@^1.2.3[/path]` (JSR, ecosystem `jsr`), `npm:name@1.2.3[/path]` (npm), a
`deno.land/x/name@v1.2.3/…` or `deno.land/std@0.200.0/…` URL (ecosystem `deno`, named `deno.land/x/name`), an npm
package through a CDN — `https://esm.sh/name@1.2.3?external=preact`, jsDelivr's `/npm/`, unpkg, Skypack — (npm,
round 49), or another http(s) URL (ecosystem `deno`, named by the URL, no version: a moved URL is one module removed
and another added). A relative or absolute path is the project's own code. Any other value (another scheme, a
specifier whose version is not a version) is refused: the file is `unparsable`, never read in part. The rest of the
file (tasks, compiler options, lint and fmt settings) installs nothing.
"""

from __future__ import annotations

from gatekeeper.deps.devcontainer import jsonc
from gatekeeper.deps.edits import RANGE, Side
from gatekeeper.deps.loaders import mapping
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

NAMES = ("deno.json", "deno.jsonc", "import_map.json")
# `jsr:@std/assert@^1.0.0`, `npm:@types/node@22/x`, `npm:chalk`, `npm:/tailwindcss@3.4.1/` (Deno takes a slash
# after the scheme): the package, then an optional version and subpath
_PACKAGE = lazy(r"^(?P<kind>jsr|npm):/?(?P<name>(?:@[a-z0-9][\w.-]*/)?[A-Za-z0-9][\w.-]*)(?:@(?P<version>[^/\s]+))?"
                r"(?P<path>/\S*)?$")
_DENO_LAND = lazy(r"^https://deno\.land/(?P<name>std|x/[\w.-]+)@(?P<version>[^/\s]+)(?:/\S*)?$")
_URL = lazy(r"^https?://[^\s\"]+$")
# An npm package through a CDN that serves npm's registry: esm.sh (a build prefix `v135/`, `stable/`, the `*` that
# marks every dependency external, a query `?external=preact`), jsDelivr's /npm/, unpkg, Skypack; the package at its
# version, then an optional path or query.
_NPM_CDN = lazy(r"^https://(?:esm\.sh/(?:v\d+/|stable/)?\*?|cdn\.jsdelivr\.net/npm/|unpkg\.com/|cdn\.skypack\.dev/)"
                r"(?P<name>(?:@[a-z0-9][\w.-]*/)?[a-z0-9][\w.-]*)@(?P<version>[^/?#\s]+)(?:[/?#]\S*)?$")
_LOCAL = ("./", "../", "/", "file:")
# A patch line of the map: `"key": "value",`, both JSON strings without escapes.
_PAIR = lazy(r'^\s*"(?P<key>[^"\\]+)"\s*:\s*"(?P<value>[^"\\]*)"\s*,?\s*$')


def specifier(value: str) -> tuple[str, str, str] | None:
    """(ecosystem, name, version) of one import map value; None for the project's own path; ManifestError for a
    value of no form above."""
    if value.startswith(_LOCAL):
        return None
    if (m := _PACKAGE.match(value)) is not None:
        version = m.group("version") or ""
        if version and not RANGE.match(version) and version not in ("latest", "*"):
            raise ManifestError(f"{value[:80]!r}: not a version range")
        return ("npm" if m.group("kind") == "npm" else "jsr", m.group("name"), version)
    if (m := _DENO_LAND.match(value)) is not None:
        return ("deno", f"deno.land/{m.group('name')}", m.group("version"))
    if (m := _NPM_CDN.match(value)) is not None and RANGE.match(m.group("version")):
        return ("npm", m.group("name"), m.group("version"))
    if _URL.match(value):
        return ("deno", value, "")
    raise ManifestError(f"{value[:80]!r}: not a specifier the import map reader knows")


def parse_deno_json(path: str, data: bytes) -> list[Dependency]:
    """Every value of `imports` and of each scope in `scopes`, in file order."""
    doc = mapping(jsonc(data), path.rpartition("/")[2])
    maps = [mapping(doc.get("imports"), "imports")]
    maps += [mapping(scope, "a scope") for scope in mapping(doc.get("scopes"), "scopes").values()]
    out: list[Dependency] = []
    for imports in maps:
        for value in imports.values():
            if not isinstance(value, str):
                raise ManifestError("an import map value is not a string")
            if (dep := specifier(value)) is not None:
                out.append(Dependency(dep[0], dep[1], dep[2], path, True, "runtime"))
    return out


def deno_json_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A changed `"key": "jsr:…"` / `"npm:…"` / `"https://deno.land/…"` line: one entry of an import map, which is
    the only place such a value means a package (a task's value is a command). Any other changed line (a task, a
    compiler option, a bracket) is refused, so the file's other edits keep it reviewed."""
    line = side[index][0]
    if not line.strip():
        return []
    pair = _PAIR.match(line)
    if pair is None or not (pair.group("value").startswith(("jsr:", "npm:", "https://deno.land/"))
                            or _NPM_CDN.match(pair.group("value"))):
        raise ManifestError(f"not an import map entry: {line.strip()[:80]!r}")
    dep = specifier(pair.group("value"))
    return [] if dep is None else [(dep[1], dep[2], dep[0])]
