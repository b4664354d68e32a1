"""Red team 29: the Swift packages an Xcode project file (`*.xcodeproj/project.pbxproj`) names.

An app's packages live in its project file as `XCRemoteSwiftPackageReference` objects, and `xcodebuild` resolves them
anew when they no longer match the `Package.resolved` beside the project: a reference added, pointed at a fork or
moved to a branch in the project file alone brings in other code. The file was `src` and read by no delta, so `gate
--enable deps` allowed each (exit 0) with `--tree` and from the patch. Now the delta reads the references
(`gatekeeper/deps/xcodeproj.py`); from a patch a hunk that may touch one fails closed. A bump within the level, and
an ordinary edit of the project (a source file added), still queue with `--tree`; the ordinary edit from the patch too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import both_modes
from tables import each_case

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.xcodeproj import parse_pbxproj

PROJECT = "App.xcodeproj/project.pbxproj"
FILE_REF = ("\t\tAB00000000000000000000F1 /* main.swift */ = {{isa = PBXFileReference; lastKnownFileType = "
            "sourcecode.swift; path = {name}; sourceTree = \"<group>\"; }};\n")


def reference(ident: str, url: str, requirement: str) -> str:
    return (f"\t\t{ident} /* XCRemoteSwiftPackageReference */ = {{\n\t\t\tisa = XCRemoteSwiftPackageReference;\n"
            f"\t\t\trepositoryURL = \"{url}\";\n\t\t\trequirement = {{\n{requirement}\t\t\t}};\n\t\t}};\n")


def major(version: str) -> str:
    return f"\t\t\t\tkind = upToNextMajorVersion;\n\t\t\t\tminimumVersion = {version};\n"


LOG = "https://github.com/apple/swift-log.git"


def project(*references: str, source: str = "main.swift") -> str:
    return ("// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 60;\n\tobjects = {\n\n"
            "/* Begin PBXFileReference section */\n" + FILE_REF.format(name=source) +
            "/* End PBXFileReference section */\n\n/* Begin PBXProject section */\n"
            "\t\tAB0000000000000000000001 /* Project object */ = {\n\t\t\tisa = PBXProject;\n"
            "\t\t\tcompatibilityVersion = \"Xcode 14.0\";\n\t\t};\n/* End PBXProject section */\n\n"
            "/* Begin XCRemoteSwiftPackageReference section */\n" + "".join(references) +
            "/* End XCRemoteSwiftPackageReference section */\n\t};\n"
            "\trootObject = AB0000000000000000000001 /* Project object */;\n}\n")


BASE = project(reference("AB0000000000000000000002", LOG, major("1.5.3")))
ATTACKS = {
    "a fork at the same version": project(reference("AB0000000000000000000002",
                                                    "https://github.com/evil/swift-log.git", major("1.5.3"))),
    "a fork beside a bump": project(reference("AB0000000000000000000002", "https://github.com/evil/swift-log",
                                              major("1.5.4"))),
    "a new package": project(reference("AB0000000000000000000002", LOG, major("1.5.3")),
                             reference("AB0000000000000000000003", "https://github.com/evil/kit.git", major("1.0.0"))),
    "a new package beside a bump": project(reference("AB0000000000000000000002", LOG, major("1.5.4")),
                                           reference("AB0000000000000000000003", "git@github.com:evil/kit.git",
                                                     major("1.0.0"))),
    "a branch": project(reference("AB0000000000000000000002", LOG, "\t\t\t\tbranch = main;\n\t\t\t\tkind = branch;\n")),
    "a revision": project(reference("AB0000000000000000000002", LOG,
                                    "\t\t\t\tkind = revision;\n\t\t\t\trevision = " + "a" * 40 + ";\n")),
    "a local package": project(reference("AB0000000000000000000002", LOG, major("1.5.3")),
                               "\t\tAB0000000000000000000004 /* XCLocalSwiftPackageReference */ = {\n\t\t\tisa = "
                               "XCLocalSwiftPackageReference;\n\t\t\trelativePath = ../../evil;\n\t\t};\n"),
    "an escaped type name": project(reference("AB0000000000000000000002", LOG, major("1.5.3")), reference(
        "AB0000000000000000000003", "https:\\U002F/github.com/evil/kit.git", major("1.0.0")).replace(
        "isa = XCRemoteSwiftPackageReference;", 'isa = "XCRemote\\U0053wiftPackageReference";').replace(
        "repositoryURL =", '"repositoryUR\\U004C" =')),
    "a value split off its key": BASE.replace("minimumVersion = 1.5.3;", "minimumVersion =\n1.5.4;").replace(
        'repositoryURL = "https://github.com/apple/', 'repositoryURL =\n"https://github.com/evil/'),
}


VARIANTS = [(name, folder) for name in ATTACKS for folder in ("", "ios/")]


def test_the_variants_are_what_they_say() -> None:
    assert len(VARIANTS) == 18


@each_case(("name", "folder"), VARIANTS)
def test_a_swift_package_moved_in_the_project_file_needs_a_human(tmp_path: Path, name: str, folder: str) -> None:
    gates = both_modes(tmp_path, {folder + PROJECT: BASE}, {folder + PROJECT: ATTACKS[name]})
    for mode, (code, decision) in zip(("patch", "tree"), gates, strict=True):
        assert (code, decision["outcome"]) == (3, "review"), (mode, decision["reasons"])


def test_a_bump_queues_with_the_tree_and_an_ordinary_edit_in_both_modes(tmp_path: Path) -> None:
    bump = project(reference("AB0000000000000000000002", LOG, major("1.5.4")))
    code, decision = both_modes(tmp_path / "bump", {PROJECT: BASE}, {PROJECT: bump})[1]
    assert (code, decision["outcome"]) == (0, "allow"), decision["reasons"]
    edit = project(reference("AB0000000000000000000002", LOG, major("1.5.3")), source="App.swift")
    gates = both_modes(tmp_path / "edit", {PROJECT: BASE}, {PROJECT: edit})
    for mode, (code, decision) in zip(("patch", "tree"), gates, strict=True):
        assert (code, decision["outcome"]) == (0, "allow"), (mode, decision["reasons"])


def test_the_project_file_is_read_as_xcode_reads_it() -> None:
    found = {(d.name, d.version) for d in parse_pbxproj(PROJECT, ATTACKS["a new package beside a bump"].encode())}
    assert found == {("github.com/apple/swift-log", "^1.5.4"), ("github.com/evil/kit", "^1.0.0")}
    split = {(d.name, d.version) for d in parse_pbxproj(PROJECT, ATTACKS["a value split off its key"].encode())}
    assert split == {("github.com/evil/swift-log", "^1.5.4")}


@each_case("broken", [BASE.replace("};\n/* End XCRemote", "\n/* End XCRemote"),
                                    BASE.replace("kind = upToNextMajorVersion", "kind = upToNextEverything"),
                                    BASE.replace('repositoryURL = "', 'repositoryURL = ("'),
                                    BASE.replace('"<group>"', '"<group>'), BASE + "/* unterminated"])
def test_a_project_file_not_read_fails_closed(broken: str) -> None:
    with pytest.raises(ManifestError):
        parse_pbxproj(PROJECT, broken.encode())
