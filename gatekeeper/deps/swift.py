"""Swift packages: `Package.resolved` (SwiftPM's pins, file versions 1, 2 and 3), JSON."""

from __future__ import annotations

import re

from gatekeeper.deps.loaders import listing, load_json, mapping, string
from gatekeeper.deps.model import Dependency


def _name(location: str) -> str:
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
        name = _name(location) if location else string(pin.get("identity")) or string(pin.get("package"))
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
        name = _name(location) if location else string(pin.get("identity")) or string(pin.get("package"))
        if not name:
            continue
        state = mapping(pin.get("state"), "state")
        version = string(state.get("version")) or string(state.get("branch")) or string(state.get("revision"))
        out.append(Dependency("swift", name, version, path, True, "runtime"))
    return out
