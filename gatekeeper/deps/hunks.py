"""Readers for the hunk lines of structured lockfiles (a patch alone shows only those).

A lockfile entry's name and version sit on neighbouring lines, so git's three context lines almost
always show both: `"node_modules/x": {` + `"version": "1.2.3"` (package-lock), `name = "x"` +
`version = "1.2.3"` (Cargo.lock, poetry.lock, uv.lock); a pnpm-lock.yaml package key holds both.
What they find is marked `partial`, and its direct/transitive standing is unknown (counted as direct:
fail closed).
"""

from __future__ import annotations

import re

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency

_NPM_KEY = re.compile(r'^\s*"((?:[^"]*/)?node_modules/((?:@[^"/]+/)?[^"/]+))":\s*\{\s*$')
_NPM_VERSION = re.compile(r'^\s*"version":\s*"([^"]+)"')
# pnpm-lock.yaml `packages:`/`snapshots:` keys carry both: `  '@babel/core@7.23.0':`, `  /ms@2.1.3(peer):`.
_PNPM_KEY = re.compile(r"""^ {2}'?/?((?:@[^@\s'/]+/)?[^@\s'/(]+)@([0-9][^(:'\s]*)(?:\([^'\s]*\))?'?:\s*$""")
_TOML_NAME = re.compile(r'^name\s*=\s*"([^"]+)"\s*$')
_TOML_VERSION = re.compile(r'^version\s*=\s*"([^"]+)"\s*$')


def package_lock_hunks(ecosystem: str, path: str, data: bytes) -> list[Dependency]:
    out: list[Dependency] = []
    name: str | None = None
    for line in text(data).splitlines():
        if m := _NPM_KEY.match(line):
            name = m.group(2)
        elif name and (v := _NPM_VERSION.match(line)):
            out.append(Dependency(ecosystem, name, v.group(1), path, None, None))
            name = None
        elif line.strip().startswith("}"):
            name = None
    return out


def toml_lock_hunks(ecosystem: str, path: str, data: bytes) -> list[Dependency]:
    out: list[Dependency] = []
    name: str | None = None
    for line in text(data).splitlines():
        if m := _TOML_NAME.match(line):
            name = m.group(1)
        elif name and (v := _TOML_VERSION.match(line)):
            out.append(Dependency(ecosystem, name, v.group(1), path, None, None))
            name = None
        elif line.startswith("[["):
            name = None
    return out


def pnpm_lock_hunks(path: str, data: bytes) -> list[Dependency]:
    found = {m.group(1, 2) for line in text(data).splitlines() if (m := _PNPM_KEY.match(line))}
    return [Dependency("npm", name, version, path, None, None) for name, version in sorted(found)]
