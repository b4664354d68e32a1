"""The versions npm, yarn and pnpm override sections pin (`overrides`, `resolutions`, `pnpm.overrides`, pnpm 10's
`overrides` in pnpm-workspace.yaml), as dependencies of the manifest that writes them.

An override section stays a `partial` problem whenever it changes (overrides.py: the policy reviews it); this only
names what it pins, so a bot's bump of an override (`rollup: 4.62.4` → `4.62.5`) shows the package and version it
moves. Only a plain version or range is read as one, also behind yarn's `npm:` protocol when it names no other package
(`"js-yaml@npm:^4.1.1": "npm:4.3.0"`, or `"npm:js-yaml@4.3.1"` for the key's own package: Renovate writes both);
`npm:other@1`, `file:`, `link:`, a git or tarball URL, npm's `$name` reference and `-` (removal) name another source
or none, and are left to the problem alone.
"""

from __future__ import annotations

from typing import Any

from gatekeeper.deps.loaders import load_json, load_yaml
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

# A version or a range of versions: `4.62.5`, `^1.2.0`, `~3.0`, `>=2.1.4`, `1.x`, `v2.0.0-rc.1`.
_PLAIN = lazy(r"(?:[~^]|[<>]=?|=)?\s*v?\d+(?:\.(?:\d+|[xX*]))*(?:[-+][0-9A-Za-z.+-]*)?")
_MAX_DEPTH = 8
# yarn's `npm:` protocol: a version (`npm:4.3.0`) or a package at a version (`npm:@scope/x@^1`).
_NPM = lazy(r"npm:(?:((?:@[^@\s/]+/)?[^@\s/]+)@)?(\S+)")


def _package(key: str) -> str:
    """The package an override key names, last in its selector: pnpm's `parent>child` and `name@range`, yarn's path
    of package names (`**/name`, `parent/name`, `@scope/parent/@scope/name`)."""
    parts = key.rsplit(">", 1)[-1].strip().split("/")
    names: list[str] = []
    i = 0
    while i < len(parts):
        scoped = parts[i].startswith("@") and i + 1 < len(parts)
        names.append(f"{parts[i]}/{parts[i + 1]}" if scoped else parts[i])
        i += 2 if scoped else 1
    last = next((n for n in reversed(names) if n != "**"), "")
    at = last.find("@", 1)  # `name@<2`, `@scope/name@^1`: the selector's range is no part of the name
    return last[:at] if at > 0 else last


def _pins(section: Any, path: str, out: list[Dependency], depth: int = 0) -> None:
    if not isinstance(section, dict) or depth > _MAX_DEPTH:
        return
    for key, value in section.items():
        if not isinstance(key, str):
            continue
        if isinstance(value, dict):  # npm's nested form: `{"parent": {".": "1.0.0", "child": "2.0.0"}}`
            if isinstance(value.get("."), str) and (version := _plain(_package(key), value["."])):
                out.append(Dependency("npm", _package(key), version, path, True, "runtime"))
            _pins({k: v for k, v in value.items() if k != "."}, path, out, depth + 1)
        elif isinstance(value, str) and (name := _package(key)) and (version := _plain(name, value)):
            out.append(Dependency("npm", name, version, path, True, "runtime"))


def _plain(name: str, value: str) -> str:
    """The version or range `value` pins `name` to, "" when it names another package or source."""
    value = value.strip()
    if (npm := _NPM.fullmatch(value)) is not None:
        if npm.group(1) not in (None, name):
            return ""
        value = npm.group(2)
    return value if _PLAIN.fullmatch(value) else ""


def override_pins(path: str, data: bytes | None) -> list[Dependency]:
    """The plain versions the override sections of `path` pin; empty for any other file or one that does not
    parse (its parser reports that)."""
    name = path.rsplit("/", 1)[-1]
    if data is None or name not in ("package.json", "pnpm-workspace.yaml"):
        return []
    try:
        doc = load_json(data) if name == "package.json" else load_yaml(data)
    except (ManifestError, RecursionError):
        return []
    if not isinstance(doc, dict):
        return []
    out: list[Dependency] = []
    pnpm = doc.get("pnpm")
    for section in (doc.get("overrides"), doc.get("resolutions"), pnpm.get("overrides") if isinstance(pnpm, dict)
                    else None):
        _pins(section, path, out)
    return out
