"""Cargo.lock git sources: a crate locked from a git repository carries the commit it is checked out at.

Cargo writes a git dependency's entry as `source = "git+https://github.com/aya-rs/aya#0a82062…"`: the fragment is
the commit Cargo checks out, whatever the crate's own `version` says. Dependabot moves such a dependency from one
commit to the next ("bump aya from `15a0de1` to `0a82062`", firezone/firezone) while every version stays: the delta
named nothing (lockedsources.py reports the moved location as a problem). As a Gemfile.lock GIT gem does
(bundler.py), the entry's version now carries its source and commit (`0.14.0 from git+https://github.com/aya-rs/aya
revision:0a82062…`), so the move is named `changed` at its commit, beside the problem, which stays; a version that
carries its source no longer orders against one that does not (loaders.sourced_version), so a crate moved between
crates.io and a git repository under a bump is `changed` too.
"""

from __future__ import annotations

from gatekeeper.deps.hunks import CHANGED, HUNK, toml_lock_hunks
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency
from gatekeeper.lazy_pattern import lazy

_GIT = lazy(r"^git\+(?P<where>[^#\s]{1,2000})#(?P<commit>[0-9a-f]{7,64})$")
_NAME = lazy(r'^name\s*=\s*"(?P<name>[^"]+)"\s*$')
_VERSION = lazy(r'^version\s*=\s*"(?P<version>[^"]+)"\s*$')
_SOURCE = lazy(r'^source\s*=\s*"(?P<source>[^"]+)"\s*$')


def locked_version(version: str, source: str) -> str:
    """The entry's version, with its git repository and commit when it comes from one."""
    if (git := _GIT.match(source)) is None:
        return version
    return f"{version} from git+{git.group('where')} revision:{git.group('commit')}"


def cargo_lock_hunks(path: str, data: bytes) -> list[Dependency]:
    """A Cargo.lock's hunk lines (hunks.toml_lock_hunks), each entry whose `source` line the same hunk shows below its
    `name` and `version` carrying that source as the whole-file reader's does."""
    found = toml_lock_hunks("cargo", path, data)
    sourced: dict[tuple[str, str], str] = {}
    name = version = None
    for raw in text(data).split("\n"):
        line = raw.removeprefix(CHANGED)
        if raw == HUNK or line.startswith("[["):
            name = version = None
        elif (m := _NAME.match(line)) is not None:
            name, version = m.group("name"), None
        elif (v := _VERSION.match(line)) is not None:
            version = v.group("version")
        elif name and version and (s := _SOURCE.match(line)) is not None:
            sourced[(name, version)] = locked_version(version, s.group("source"))
            name = version = None
    return [Dependency(d.ecosystem, d.name, sourced.get((d.name, d.version), d.version), d.manifest, d.direct, d.scope)
            for d in found]
