"""npm-family files: package.json, package-lock.json (v1-3), yarn.lock (classic and berry), pnpm-lock.yaml, bun.lock."""

from __future__ import annotations

from typing import Any

from gatekeeper.deps.loaders import MAX_ENTRIES, load_json, load_yaml, mapping, string, text
from gatekeeper.deps.model import Dependency, ManifestError, Scope
from gatekeeper.deps.tools import TOOL, tool_name
from gatekeeper.lazy_pattern import lazy

SECTIONS: dict[str, Scope] = {"dependencies": "runtime", "optionalDependencies": "runtime",
                               "peerDependencies": "runtime", "devDependencies": "dev"}


def _declared(entry: dict[str, Any]) -> dict[str, Scope]:
    """Names a package.json-shaped object declares, with their scope (runtime wins over dev)."""
    names: dict[str, Scope] = {}
    for section, scope in SECTIONS.items():
        for name in mapping(entry.get(section), section):
            if names.get(name) != "runtime":
                names[name] = scope
    return names


# An alias (`"@nuxt/ui-pro": "npm:@nuxt/ui-pro-edge@1.4.4-28839576.e8eba4f"`): npm installs the package after
# `npm:` under the key's folder name. The package fetched is the dependency; the key is the file's name for it.
_ALIAS = lazy(r"^npm:((?:@[^@\s/]+/)?[^@\s/]+)@(\S+)$")


def declared(path: str, name: str, spec: str, scope: Scope) -> Dependency:
    """One `name: spec` entry of a package.json section or a pnpm catalog: an alias names the package it fetches
    (a new target is another package, not a new version), with the key kept as its `alias`."""
    alias = _ALIAS.match(spec.strip())
    if alias is not None and alias.group(1) != name:
        return Dependency("npm", alias.group(1), alias.group(2), path, True, scope, alias=name)
    return Dependency("npm", name, spec, path, True, scope)


def parse_package_json(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_json(data), "package.json")
    out: list[Dependency] = []
    for section, scope in SECTIONS.items():
        for name, spec in mapping(doc.get(section), section).items():
            out.append(declared(path, name, string(spec), scope))
    manager = string(doc.get("packageManager"))  # corepack installs and runs exactly this: `pnpm@9.1.0+sha512...`
    if manager:
        name, _, version = manager.rpartition("@") if manager.rfind("@") > 0 else (manager, "", "")
        out.append(Dependency("npm", name, version.split("+")[0], path, True, "build"))
    return out + engines(path, doc)


# The runtimes and package managers a package names by version: `engines` (`"node": ">=v14.17.4"`, which Renovate
# bumps as "Update Node.js to v14") and Volta's pins of its tools. Volta's `extends` is a path, no tool.
VOLTA_TOOLS = ("node", "npm", "pnpm", "yarn")


def engines(path: str, doc: dict[str, Any]) -> list[Dependency]:
    """The tools a package.json's `engines` and `volta` name, each at its version or range as written."""
    named = [*mapping(doc.get("engines"), "engines").items(),
             *((k, v) for k, v in mapping(doc.get("volta"), "volta").items() if k in VOLTA_TOOLS)]
    return [Dependency(TOOL, tool_name(key), value, path, True, "build") for key, value in named
            if isinstance(value, str) and value.strip()]


def parse_package_lock(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_json(data), "lockfile")
    packages = mapping(doc.get("packages"), "packages")
    out: list[Dependency] = []
    if packages:  # lockfileVersion 2 and 3
        direct: dict[str, Scope] = {}
        for key, entry in packages.items():
            if isinstance(entry, dict) and "node_modules/" not in f"/{key}":
                direct.update({n: s for n, s in _declared(entry).items() if direct.get(n) != "runtime"})
        for key, entry in packages.items():
            if not isinstance(entry, dict) or "node_modules/" not in f"/{key}" or entry.get("link"):
                continue
            folder = key.rpartition("node_modules/")[2]
            name = string(entry.get("name")) or folder
            top = key.count("node_modules/") == 1
            dev = bool(entry.get("dev") or entry.get("devOptional"))
            scope: Scope = "dev" if dev else "runtime"
            # The root declares folder names (`"utils": "npm:evil-utils@1"`); `name` is the package npm fetches.
            out.append(Dependency("npm", name, string(entry.get("version")), path, top and folder in direct, scope))
        return out
    stack = [(mapping(doc.get("dependencies"), "dependencies"), 0)]  # lockfileVersion 1: nested trees
    while stack:
        deps, depth = stack.pop()
        for name, entry in deps.items():
            if not isinstance(entry, dict):
                continue
            if len(out) >= MAX_ENTRIES:
                raise ManifestError(f"more than {MAX_ENTRIES} entries")
            dev_scope: Scope = "dev" if entry.get("dev") else "runtime"
            out.append(Dependency("npm", name, string(entry.get("version")), path, None if depth == 0 else False,
                                  dev_scope))
            nested = entry.get("dependencies")
            if isinstance(nested, dict):
                stack.append((nested, depth + 1))
    return out


_YARN_VERSION = lazy(r'^ {2}version:? "?([^"\s]+)"?\s*$')
# a scope without `/` (one way to split `@a/b/c`; the same group: a line of `@a/a/a…` cost 2.1 CPU-s at 16 KiB)
_YARN_DEP = lazy(r'^ {4}"?((?:@[^@"\s:/]+/)?[^@"\s:]+)"?:? ')


def yarn_name(header: str) -> str:
    """The package name a yarn.lock entry header (`"lodash@^4.17.20, lodash@^4.17.21":`) locks."""
    first = header.rstrip(":").split(",")[0].strip().strip('"')
    at = first.find("@", 1)
    return first if at < 0 else first[:at]


def parse_yarn_lock(path: str, data: bytes) -> list[Dependency]:
    """Line-oriented (both dialects), so a hunk's lines parse too: an entry header, then its version."""
    out: list[Dependency] = []
    name: str | None = None
    workspace = False
    in_deps = False
    direct: set[str] = set()
    for line in text(data).splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith(" "):
            name = None if line.startswith("__metadata") else yarn_name(line)
            workspace = "@workspace:" in line or "@link:" in line
            in_deps = False
            continue
        if line.startswith("  ") and not line.startswith("   "):
            in_deps = line.strip().rstrip(":") in ("dependencies", "devDependencies", "peerDependencies",
                                                   "optionalDependencies")
        if workspace and in_deps and (dep := _YARN_DEP.match(line)):
            direct.add(dep.group(1))
        m = _YARN_VERSION.match(line)
        if m and name and not workspace:
            out.append(Dependency("npm", name, m.group(1), path, None, None))
    if direct:
        out = [Dependency(d.ecosystem, d.name, d.version, path, d.name in direct, None) for d in out]
    return out


# A lockfile v6+ key's name, then `@` and its version: `@babel/core@7.23.0`, `ms@2.1.3(peer)`. A v5 key separates them
# by `/` and may carry peers after `_`, each `name@version` (`/styled-jsx/5.0.7_react@18.2.0`): the first `@` after
# the name is not always the version's.
_PNPM_V6_NAME = lazy(r"^(?:@[^/@]+/)?[^/@]+@")


def pnpm_key(key: str) -> tuple[str, str] | None:
    key = key.lstrip("/").split("(")[0]
    if (m := _PNPM_V6_NAME.match(key)) is not None:
        return key[:m.end() - 1], key[m.end():]
    name, _, version = key.rpartition("/")  # lockfileVersion 5: /name/1.2.3_peer
    return (name, version.split("_")[0]) if name else None


def _pnpm_declared(importer: dict[str, Any], v5: bool) -> dict[str, Scope]:
    """_declared, and the package an importer's entry locks under another name (red team 14, second round): pnpm
    installs `lodash: {specifier: ^4.17.21, version: evil@4.17.21}` (v6 `/evil@4.17.21`, v5 `/evil/4.17.21`) as
    `node_modules/lodash` from the `evil@4.17.21` entry (its refToRelative: a reference naming a package is a
    dependency path), so `evil` is the project's own dependency, never a transitive one an upgrade brought."""
    names = _declared(importer)
    for section, scope in SECTIONS.items():
        for key, entry in mapping(importer.get(section), section).items():
            ref = entry.get("version") if isinstance(entry, dict) else entry
            target = pnpm_key(ref) if isinstance(ref, str) and names_package(ref, v5) else None
            if target is not None and target[0] != key and names.get(target[0]) != "runtime":
                names[target[0]] = scope
    return names


def names_package(ref: str, v5: bool) -> bool:
    """pnpm's refToRelative: whether an importer's reference is a dependency path (`evil@1.0.0`, `@s/evil@1.0.0`,
    `/evil@1.0.0`; lockfile v5 `/evil/1.0.0`) rather than a version of the key's own package (`1.0.0(react@18.0.0)`,
    v5 `1.0.0_react@18.0.0`) or a link."""
    if ref.startswith(("/", "@")) or v5:
        return ref.startswith(("/", "@"))
    at, colon, bracket = ref.find("@"), ref.find(":"), ref.find("(")
    return at > 0 and (colon < 0 or at < colon) and (bracket < 0 or at < bracket)


def parse_pnpm_lock(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_yaml(data), "pnpm-lock.yaml")
    importers = mapping(doc.get("importers"), "importers") or {".": doc}
    v5 = str(doc.get("lockfileVersion", "")).startswith("5")
    direct: dict[str, Scope] = {}
    for importer in importers.values():
        if isinstance(importer, dict):
            for name, scope in _pnpm_declared(importer, v5).items():
                if direct.get(name) != "runtime":
                    direct[name] = scope
    out: list[Dependency] = []
    seen: set[tuple[str, str]] = set()
    for key, entry in mapping(doc.get("packages"), "packages").items():
        parsed = pnpm_key(str(key))
        if parsed is None or parsed in seen:
            continue
        seen.add(parsed)
        entry = entry if isinstance(entry, dict) else {}
        pkg_scope: Scope = direct.get(parsed[0]) or ("dev" if entry.get("dev") is True else "runtime")
        out.append(Dependency("npm", parsed[0], parsed[1], path, parsed[0] in direct, pkg_scope))
    return out


def parse_pnpm_workspace(path: str, data: bytes) -> list[Dependency]:
    """pnpm-workspace.yaml's catalogs (`catalog:` and the named `catalogs:`): the version ranges the
    workspace's packages take with `catalog:`; its `overrides` are overrides.py's."""
    doc = mapping(load_yaml(data), "pnpm-workspace.yaml")
    tables = [doc.get("catalog"), *mapping(doc.get("catalogs"), "catalogs").values()]
    out: list[Dependency] = []
    for table in tables:
        for name, spec in mapping(table, "catalog").items():
            if isinstance(spec, (str, int, float)) and not isinstance(spec, bool):
                out.append(declared(path, str(name), str(spec), "runtime"))
    return out


_JSONC = lazy(r'("(?:\\.|[^"\\])*")|,(\s*[}\]])')


def parse_bun_lock(path: str, data: bytes) -> list[Dependency]:
    """bun.lock is JSON with trailing commas."""
    doc = mapping(load_json(_JSONC.sub(lambda m: m.group(1) or m.group(2), text(data))), "bun.lock")
    direct: dict[str, Scope] = {}
    for ws in mapping(doc.get("workspaces"), "workspaces").values():
        if isinstance(ws, dict):
            direct.update({n: s for n, s in _declared(ws).items() if direct.get(n) != "runtime"})
    out: list[Dependency] = []
    for key, entry in mapping(doc.get("packages"), "packages").items():
        if not isinstance(entry, list) or not entry or not isinstance(entry[0], str):
            continue
        ident = entry[0]
        at = ident.find("@", 1)
        if at < 0 or "@workspace:" in ident:
            continue
        name, version = ident[:at], ident[at + 1:]
        top = "/" not in key or key.startswith("@") and key.count("/") == 1
        out.append(Dependency("npm", name, version, path, top and name in direct, direct.get(name, "runtime")))
    return out
