"""Red team 14, second round: SwiftPM's package configuration, where its mirrors and registries live, was `src`.

SwiftPM reads `.swiftpm/configuration/mirrors.json` beside Package.swift (`swift package config set-mirror`, SE-0219:
the mirror's URL is fetched instead of the original's, direct and transitive dependencies alike; the older file is
`.swiftpm/config`) and `.swiftpm/configuration/registries.json` (`swift package-registry set`: where every
`.package(id:)` dependency is resolved). Both were `src.default`, so `gate --enable deps` allowed (exit 0), from the
patch and with `--tree`, a change that sends `apple/swift-log` to a fork or the registry to another host. They are
`deps` (`deps.swiftpm.settings`) now; no reader reads them, so the deps policy sends every change of one to a human
(`deps.unexplained`). Look-alikes keep their class: Xcode's workspace settings under `.swiftpm/xcode/`, another JSON
file of the folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tables import each_case
from test_deps_gate import Case, gate

from tests.test_classify_context import RULES

DEPS = [".swiftpm/configuration/mirrors.json", ".swiftpm/configuration/registries.json", ".swiftpm/config",
        "Packages/Core/.swiftpm/configuration/mirrors.json", "Packages/Core/.swiftpm/configuration/registries.json"]
NOT_DEPS = [".swiftpm/xcode/package.xcworkspace/contents.xcworkspacedata", ".swiftpm/configuration/notes.json",
            "docs/swiftpm/configuration/mirrors.json.md"]


@each_case("path", DEPS)
def test_swiftpm_configuration_is_deps(path: str) -> None:
    decided = RULES.match(path)
    assert (decided.bucket, decided.rule) == ("deps", "deps.swiftpm.settings")


@each_case("path", NOT_DEPS)
def test_look_alikes_keep_their_class(path: str) -> None:
    assert RULES.match(path).rule != "deps.swiftpm.settings"


def _mirrors(mirror: str) -> str:
    return json.dumps({"object": [{"mirror": mirror, "original": "https://github.com/apple/swift-log.git"}],
                      "version": 1}, indent=2) + "\n"


def _registries(url: str) -> str:
    return json.dumps({"registries": {"[default]": {"url": url, "supportsAvailability": False}}, "version": 1},
                      indent=2) + "\n"


MANIFEST = ('// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n  name: "App",\n'
            '  dependencies: [\n    .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),\n'
            '    .package(id: "mona.LinkedList", from: "1.0.0"),\n  ]\n)\n')
ATTACKS = {
    "mirror added": ({}, {".swiftpm/configuration/mirrors.json": _mirrors("https://github.com/evil/swift-log.git")}),
    "mirror moved": ({".swiftpm/configuration/mirrors.json": _mirrors("https://git.corp.example/swift-log.git")},
                     {".swiftpm/configuration/mirrors.json": _mirrors("https://github.com/evil/swift-log.git")}),
    "legacy mirrors file": ({}, {".swiftpm/config": _mirrors("https://github.com/evil/swift-log.git")}),
    "registry added": ({}, {".swiftpm/configuration/registries.json": _registries("https://evil.example")}),
    "registry moved": ({".swiftpm/configuration/registries.json": _registries("https://swift.corp.example")},
                       {".swiftpm/configuration/registries.json": _registries("https://evil.example")}),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_swiftpm_source_change_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str,
                                               tree: bool) -> None:
    base, head = ATTACKS[name]
    decision = gate(capsys, Case(tmp_path, {"Package.swift": MANIFEST, **base}, head), tree)
    assert decision["outcome"] == "review", decision["reasons"]
    reviewed = {p for reason in decision["reasons"] for p in reason.get("paths", ())}
    assert set(head) <= reviewed, decision["reasons"]
