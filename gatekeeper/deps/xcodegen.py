"""Swift packages an XcodeGen project spec (`project.yml`) declares: its top-level `packages:` map.

    packages:
      MapLibre:
        url: https://github.com/maplibre/maplibre-gl-native-distribution
        minorVersion: 6.25.1

Each remote entry (`url:`, or XcodeGen's `github: owner/repo`) is a `swift` dependency named by its repository as
Package.resolved's pins are (`github.com/maplibre/maplibre-gl-native-distribution`), with its key kept as `alias`
(Renovate names the update "Update dependency MapLibre to v6.26.0"), at its requirement: `exactVersion`, `version`,
`from`, `minorVersion`, `majorVersion`, `minVersion`..`maxVersion`, else `branch`, else `revision`. A `path:` entry is
a local folder: no dependency. Read line by line, not through a YAML loader: `minorVersion: 1.10` would load as the
number 1.1. The same reader reads a patch's hunks, where the `packages:` line is usually out of sight: when they show
a key only XcodeGen's entries use, an entry counts when its hunk shows its `url`/`github` line, and a changed
requirement line whose entry's repository the hunk does not show fails closed. Hunks of a `project.yml` that show
no such key are another tool's (Argo CD's, a Helm project's): nothing is read from them.
"""

from __future__ import annotations

import re

from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.deps.swift import pin_name
from gatekeeper.lazy_pattern import lazy

_KEY = lazy(r"""^(?P<indent>\s*)(?P<key>["']?[\w.+-]+["']?)\s*:\s*(?:#.*)?$""")
_PAIR = lazy(r"""^(?P<indent>\s*)(?P<key>[A-Za-z]+)\s*:\s*(?P<q>["']?)(?P<value>[^"'#\s][^"'#]*?)(?P=q)\s*(?:#.*)?$""")
_REQUIREMENTS = ("exactVersion", "version", "from", "minorVersion", "majorVersion", "minVersion", "branch",
                 "revision")
_READ = frozenset({"url", "github", "path", "maxVersion", *_REQUIREMENTS})


class _Entry:
    def __init__(self, key: str, indent: int) -> None:
        self.key = key.strip("\"'")
        self.indent = indent  # the key's column; its fields sit deeper
        self.fields: dict[str, str] = {}
        self.changed: set[str] = set()

    def dependency(self, path: str) -> Dependency | None:
        where = self.fields.get("url") or (f"github.com/{self.fields['github']}" if "github" in self.fields else "")
        requirement = next((self.fields[k] for k in _REQUIREMENTS if k in self.fields), "")
        if "minVersion" in self.fields and "maxVersion" in self.fields:
            requirement = f">={self.fields['minVersion']},<{self.fields['maxVersion']}"
        if not where:
            if self.changed & {*_REQUIREMENTS, "maxVersion"} and "path" not in self.fields:
                raise ManifestError(f"a changed requirement of {self.key or 'a package'} whose repository the hunk "
                                    "does not show")
            return None
        if "path" in self.fields or not requirement:
            return None
        return Dependency("swift", pin_name(where), requirement, path, True, "runtime", alias=self.key)


def _read(path: str, lines: list[str], whole: bool) -> list[Dependency]:
    out: list[Dependency] = []
    entry: _Entry | None = None
    inside = not whole  # a whole file: only its top-level `packages:` map
    for raw in lines:
        changed, line = raw.startswith(CHANGED), raw.lstrip(CHANGED)
        if raw == HUNK or not line.strip() or line.lstrip().startswith("#"):
            if raw == HUNK and entry is not None:
                out += [d for d in [entry.dependency(path)] if d is not None]
                entry = None
            continue
        indent = len(line) - len(line.lstrip())
        if whole and indent == 0:
            if entry is not None:
                out += [d for d in [entry.dependency(path)] if d is not None]
                entry = None
            inside = line.split("#")[0].strip() == "packages:"
            continue
        if not inside:
            continue
        pair = _PAIR.match(line)
        if entry is not None and indent > entry.indent and pair is not None and pair.group("key") in _READ:
            entry.fields[pair.group("key")] = pair.group("value").strip()
            if changed:
                entry.changed.add(pair.group("key"))
            continue
        key = _KEY.match(line)
        if entry is not None and indent > entry.indent and key is not None and not entry.fields:
            entry = _Entry(key.group("key"), indent)  # the line above was a map of entries (`packages:`), not one
            continue
        if entry is not None and indent > entry.indent:
            continue  # another field of the entry (options XcodeGen adds)
        if entry is not None:
            out += [d for d in [entry.dependency(path)] if d is not None]
            entry = None
        if key is not None:
            entry = _Entry(key.group("key"), indent)
        elif pair is not None and pair.group("key") in _READ and not whole:
            # a hunk that starts inside an entry: its key is out of sight
            entry = _Entry("", indent - 1)
            entry.fields[pair.group("key")] = pair.group("value").strip()
            if changed:
                entry.changed.add(pair.group("key"))
    if entry is not None:
        out += [d for d in [entry.dependency(path)] if d is not None]
    return out


def parse_project_spec(path: str, data: bytes) -> list[Dependency]:
    """The remote packages of an XcodeGen spec's `packages:` map; none for a `project.yml` of another tool."""
    return _read(path, text(data).splitlines(), True)


# Keys only XcodeGen's package entries use (`version`, `branch`, `revision` and `url` are everyone's: an Argo CD
# `project.yml`'s chart `url:` over `version:` is no Swift package).
# `^[^\S\n]*+`: a key after its own line's blanks (`^\s*` read every following blank line again from each line start:
# 16 Ki blank lines before `from` cost 2.1 CPU-s)
_OWN_KEYS = lazy(r"^[^\S\n]*+(?:exactVersion|minorVersion|majorVersion|minVersion|maxVersion|from)\s*:|^packages\s*:",
                 re.MULTILINE)


def project_spec_hunks(path: str, data: bytes) -> list[Dependency]:
    """The packages one side of a spec's hunks (hunks.sides) shows whole (repository and requirement), when the
    hunks show a key of XcodeGen's own (`minorVersion:`, `packages:` …); none in another tool's `project.yml`."""
    body = text(data).replace(CHANGED, "")
    return _read(path, text(data).splitlines(), False) if _OWN_KEYS.search(body) else []
