"""Meteor's `.meteor/release` and `.meteor/versions`: the Meteor release an app builds with, and every package it locks.

`.meteor/release` holds one line, the release track and version (`METEOR@3.5-rc.2`): the tool `meteor` (another
track, `TRACK@1.0`, is named `meteor:TRACK`, so a swapped track is a new dependency). `.meteor/versions` is the lock:
one `name@version` a line (`aldeed:collection2@4.2.0`, core packages without an author prefix), each an Atmosphere
package (`meteor`). Both files are line-oriented and read alike from a patch. A line of another shape, or a release
file of no or several releases, is a problem, never skipped. Round 52 (wekan/wekan's "Update Meteor to 3.5-rc.2"
named nothing: both files were classified as source).
"""

from __future__ import annotations

from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.deps.tools import TOOL
from gatekeeper.lazy_pattern import lazy

ECOSYSTEM = "meteor"
NAMES = frozenset({"release", "versions"})  # right in a `.meteor` folder
_RELEASE = lazy(r"^(?P<track>[A-Za-z0-9][\w.-]{0,100})@(?P<version>[\w.+-]{1,100})$")
_PACKAGE = lazy(r"^(?P<name>[a-z0-9][\w.-]{0,100}(?::[a-z0-9][\w.-]{0,100})?)@(?P<version>[\w.+-]{1,100})$")


def is_meteor_file(folder: str, base: str) -> bool:
    """`.meteor/release` or `.meteor/versions`, in any folder."""
    return base in NAMES and folder.rpartition("/")[2] == ".meteor"


def _lines(data: bytes) -> list[str]:
    return [line.strip() for line in text(data).splitlines() if line.strip() and not line.lstrip().startswith("#")]


def parse_meteor_release(path: str, data: bytes) -> list[Dependency]:
    """The one release the app builds with."""
    lines = _lines(data)
    if len(lines) != 1 or (m := _RELEASE.match(lines[0])) is None:
        raise ManifestError("a .meteor/release that is not one TRACK@VERSION line")
    track = m["track"]
    name = "meteor" if track == "METEOR" else f"meteor:{track}"
    return [Dependency(TOOL, name, m["version"], path, True, "build")]


def parse_meteor_versions(path: str, data: bytes) -> list[Dependency]:
    """Each locked package at its version."""
    out: list[Dependency] = []
    for line in _lines(data):
        if (m := _PACKAGE.match(line)) is None:
            raise ManifestError(f"not a NAME@VERSION line of .meteor/versions: {line[:80]!r}")
        out.append(Dependency(ECOSYSTEM, m["name"], m["version"], path, True, "runtime"))
    return out
