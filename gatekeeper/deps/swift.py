"""Swift packages: `Package.resolved` (SwiftPM's pins, file versions 1, 2 and 3), JSON.

From a patch, `package_resolved_hunks` reads a modified file's hunks: a pin's `location` (v2, v3) or
`repositoryURL` (v1) line sits three lines above its `revision` and four above its `version` (swift writes
the keys sorted, one per line), so git's context shows the pin's name beside a bump.
"""

from __future__ import annotations

import re

from gatekeeper.deps.hunks import CHANGED, HUNK, sides
from gatekeeper.deps.loaders import listing, load_json, mapping, string, text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy


def pin_name(location: str) -> str:
    """A package by its repository, as Dependabot names it: `github.com/apple/swift-log` for
    `https://github.com/apple/swift-log.git` (and for `git@github.com:apple/swift-log.git`)."""
    name = re.sub(r"^(?:[a-z+]+://)?(?:[^@/]+@)?", "", location.strip())
    return re.sub(r"(?:\.git)?/*$", "", name.replace(":", "/", 1) if "://" not in location else name)


def pinned_revisions(data: bytes) -> dict[str, tuple[str, str]]:
    """Each pin's (version, revision), for pins that have both."""
    out: dict[str, tuple[str, str]] = {}
    doc = mapping(load_json(data), "Package.resolved")
    pins = doc.get("pins") if "pins" in doc else mapping(doc.get("object"), "object").get("pins")
    for pin in listing(pins, "pins"):
        pin = mapping(pin, "pin")
        location = string(pin.get("location")) or string(pin.get("repositoryURL"))
        name = pin_name(location) if location else string(pin.get("identity")) or string(pin.get("package"))
        state = mapping(pin.get("state"), "state")
        if name and string(state.get("version")) and string(state.get("revision")):
            out[name] = (string(state.get("version")), string(state.get("revision")))
    return out


def moved_revisions(base: bytes, head: bytes) -> list[str]:
    """Pins whose revision moved under the same version: SwiftPM checks out the revision, so this is other
    code under an old label, which the delta of names and versions cannot show."""
    before, after = pinned_revisions(base), pinned_revisions(head)
    return sorted(f"the revision of {name} {after[name][0]}" for name in before.keys() & after.keys()
                  if before[name][0] == after[name][0] and before[name][1] != after[name][1])


def parse_package_resolved(path: str, data: bytes) -> list[Dependency]:
    """Each pin at its version, else its branch, else its revision. A lockfile: whether a pin is direct is
    in `Package.swift`, a program that is not read, so every pin counts as direct (fail closed)."""
    doc = mapping(load_json(data), "Package.resolved")
    pins = doc.get("pins") if "pins" in doc else mapping(doc.get("object"), "object").get("pins")
    out: list[Dependency] = []
    for pin in listing(pins, "pins"):
        pin = mapping(pin, "pin")
        location = string(pin.get("location")) or string(pin.get("repositoryURL"))
        name = pin_name(location) if location else string(pin.get("identity")) or string(pin.get("package"))
        if not name:
            continue
        state = mapping(pin.get("state"), "state")
        version = string(state.get("version")) or string(state.get("branch")) or string(state.get("revision"))
        out.append(Dependency("swift", name, version, path, True, "runtime"))
    return out


_LOCATION = lazy(r'^\s*"(?:location|repositoryURL)"\s*:\s*"([^"]+)",?\s*$')
_STATE = lazy(r'^\s*"(version|revision|branch)"\s*:\s*(?:"([^"]*)"|null),?\s*$')
# The file's own format version (`"version" : 3`, a number; a pin's state is a string): a changed one is the file
# rewritten (Dependabot's two-space indentation over Xcode's tabs shows every line changed), no pin's move.
_FORMAT = lazy(r'^\s*"version"\s*:\s*\d{1,9},?\s*$')
# A changed line that may name a pin or its state in a form the patterns above do not read.
_LOOSE = lazy(r'"(?:location|repositoryURL|version|revision|branch)"')


class _Pin:
    """What one pin's hunk lines show: its name, its state's values, which of them the hunk changes."""

    def __init__(self) -> None:
        self.name = ""
        self.state: dict[str, str] = {}
        self.changed: set[str] = set()

    def done(self, path: str, out: list[Dependency]) -> None:
        if not self.state:
            return
        if not self.name and self.changed:
            raise ManifestError("a changed pin whose location the hunk does not show")
        if "revision" in self.changed and "version" not in self.changed and "version" in self.state:
            raise ManifestError(f"the revision of {self.name} moved under its version {self.state['version']}")
        if "revision" in self.changed and not self.state.get("version"):
            # a branch pin's new commit: the branch label the whole-file reader reports does not move
            raise ManifestError(f"the revision of {self.name} moved under branch {self.state.get('branch')!r}")
        version = self.state.get("version") or self.state.get("branch") or self.state.get("revision")
        if self.name and version:
            out.append(Dependency("swift", self.name, version, path, True, "runtime"))


def package_resolved_hunks(path: str, data: bytes) -> list[Dependency]:
    """The pins one side of a Package.resolved's hunks (hunks.sides) shows. A changed state line whose pin's
    location the hunk does not show, and a revision moved under an unchanged version or a branch (other
    code under an old label: what `moved_revisions` finds in whole files), fail closed (ManifestError)."""
    out: list[Dependency] = []
    pin = _Pin()
    for raw in text(data).splitlines():
        changed, line = raw.startswith(CHANGED), raw.lstrip(CHANGED)
        if raw == HUNK or (m := _LOCATION.match(line)) is not None:
            pin.done(path, out)
            pin = _Pin()
            if raw != HUNK and m is not None:
                pin.name = pin_name(m.group(1))
        elif (m := _STATE.match(line)) is not None:
            pin.state[m.group(1)] = m.group(2) or ""
            if changed:
                pin.changed.add(m.group(1))
        elif _FORMAT.match(line):
            continue
        elif changed and _LOOSE.search(line):
            raise ManifestError(f"a changed line names a pin in a form not read from hunks: {line.strip()[:80]!r}")
        elif line.strip().startswith("}") and pin.state:
            pin.done(path, out)
            pin = _Pin()
    pin.done(path, out)
    return out


def _shown_pins(data: bytes) -> dict[str, dict[str, str]]:
    """Each pin one side of the hunks (hunks.sides) shows: its state's values, changed lines or not."""
    pins: dict[str, dict[str, str]] = {}
    name = ""
    for raw in text(data).splitlines():
        line = raw.lstrip(CHANGED)
        if raw == HUNK:
            name = ""
        elif (m := _LOCATION.match(line)) is not None:
            name = pin_name(m.group(1))
            pins.setdefault(name, {})
        elif name and (m := _STATE.match(line)) is not None:
            pins[name][m.group(1)] = m.group(2) or ""
    return pins


def hunk_revision_moves(raw: list[str]) -> str | None:
    """From a patch's hunk lines (with their ' ', '-', '+'), the first pin whose revision moved under the same version
    (or branch), both sides compared: a file rewritten whole (its indentation changed) marks every line changed, so
    the reader's changed lines cannot tell it (what `moved_revisions` finds in whole files)."""
    old, new = (_shown_pins(side) for side in sides(raw))
    for name in sorted(old.keys() & new.keys()):
        was, now = old[name], new[name]
        if was.get("revision", "") != now.get("revision", "") and was.get("version") == now.get("version"):
            return f"the revision of {name} under {now.get('version') or now.get('branch') or 'no version'}"
    return None
