"""CocoaPods `Podfile.lock` (gatekeeper/deps/cocoapods.py), found by the seventh blind set of bot update commits:
chrisbanes/tivi's iOS app, bumped by Renovate's cocoapods manager. The real file's shape through real git
repositories, with the source moves and malformed files beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import cocoapods
from gatekeeper.deps.model import ManifestError
from tests.deltas import moves as _moves
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

PODFILE_LOCK = """\
PODS:
  - AppAuth (1.7.5):
    - AppAuth/Core (= 1.7.5)
    - AppAuth/ExternalUserAgent (= 1.7.5)
  - AppAuth/Core (1.7.5)
  - AppAuth/ExternalUserAgent (1.7.5):
    - AppAuth/Core
  - FirebaseCore (11.2.0):
    - FirebaseCoreInternal (~> 11.0)
  - FirebaseCoreInternal (11.2.0)
  - FirebaseCrashlytics (11.2.0):
    - FirebaseCore (~> 11.0)
  - Kingfisher (8.1.0)
  - Shared (1.0.0)

DEPENDENCIES:
  - AppAuth (= 1.7.5)
  - FirebaseCrashlytics (= 11.2.0)
  - Kingfisher (from `https://github.com/onevcat/Kingfisher.git`, tag `8.1.0`)
  - Shared (from `../../shared/build/cocoapods/publish/release`)

SPEC REPOS:
  trunk:
    - AppAuth
    - FirebaseCore
    - FirebaseCoreInternal
    - FirebaseCrashlytics

EXTERNAL SOURCES:
  Kingfisher:
    :git: https://github.com/onevcat/Kingfisher.git
    :tag: 8.1.0
  Shared:
    :path: "../../shared/build/cocoapods/publish/release"

CHECKOUT OPTIONS:
  Kingfisher:
    :commit: 2ef543ee21d63734e1c004ad6c870255e8716c50
    :git: https://github.com/onevcat/Kingfisher.git

SPEC CHECKSUMS:
  AppAuth: 501c04eda8a8d11f179dbe8637b7a91bb7e5d2fa
  FirebaseCore: 8344daef5e2661eb004b177488d6f9f0f24251b7
  FirebaseCoreInternal: ef4505d2afb1d0ebbc33162cb3795382904b5679
  FirebaseCrashlytics: cfc69af5b53565dc6a5e563788809b5778ac4eac

PODFILE CHECKSUM: 9483244057ce5a93cc853948e5b45a5dfe9c39fd

COCOAPODS: 1.15.2
"""
KINGFISHER = "Kingfisher@git+https://github.com/onevcat/Kingfisher.git"


def test_podfile_lock_pods_sources_and_direct() -> None:
    deps = {(d.name, d.version, d.direct) for d in cocoapods.parse_podfile_lock("Podfile.lock", PODFILE_LOCK.encode())}
    assert deps == {("AppAuth", "1.7.5", True), ("FirebaseCore", "11.2.0", False),
                    ("FirebaseCoreInternal", "11.2.0", False), ("FirebaseCrashlytics", "11.2.0", True),
                    (KINGFISHER, "8.1.0@2ef543ee21d63734e1c004ad6c870255e8716c50", True),
                    ("Shared@path+../../shared/build/cocoapods/publish/release", "1.0.0", True)}


def test_renovate_cocoapods_bump(tmp_path: Path) -> None:
    edits = {"ios/Podfile.lock": {"FirebaseCrashlytics (11.2.0)": "FirebaseCrashlytics (11.3.0)",
                                  "FirebaseCrashlytics (= 11.2.0)": "FirebaseCrashlytics (= 11.3.0)",
                                  "FirebaseCrashlytics: cfc69af5": "FirebaseCrashlytics: ba7b6a55"}}
    repo, base, head = edited_commits(tmp_path, {"ios/Podfile.lock": PODFILE_LOCK}, edits)
    delta = _tree(repo, base, head)
    assert [(c.ecosystem, c.name, c.from_version, c.to_version, c.change, c.direct, c.purl) for c in delta.changes] == [
        ("cocoapods", "FirebaseCrashlytics", "11.2.0", "11.3.0", "upgraded", True,
         "pkg:cocoapods/FirebaseCrashlytics@11.3.0")]
    # a patch does not show which section a line is in, nor a pod's source: the file is reviewed
    patch = _patch(repo, base, head)
    assert not patch.changes and {(p.manifest, p.kind) for p in patch.problems} == {("ios/Podfile.lock", "partial")}


@pytest.mark.parametrize(("old", "new", "moves"), [
    # another commit checked out under the same version: other code under the old label
    ("2ef543ee21d63734e1c004ad6c870255e8716c50", "0000000000000000000000000000000000000bad", {(KINGFISHER, "changed")}),
    # the same pod from another spec repository is another package
    ("  trunk:\n    - AppAuth\n", "  https://127.0.0.1:9/Specs.git:\n    - AppAuth\n  trunk:\n",
     {("AppAuth", "removed"), ("AppAuth@https://127.0.0.1:9/Specs.git", "added")}),
    # the same pod from a git source instead of trunk
    ("  Shared:\n    :path:", "  FirebaseCore:\n    :git: https://127.0.0.1:9/core.git\n  Shared:\n    :path:",
     {("FirebaseCore", "removed"), ("FirebaseCore@git+https://127.0.0.1:9/core.git", "added")}),
])
def test_podfile_lock_source_moves_are_no_upgrades(tmp_path: Path, old: str, new: str,
                                                   moves: set[tuple[str, str]]) -> None:
    delta = _tree(*edited_commits(tmp_path, {"Podfile.lock": PODFILE_LOCK}, {"Podfile.lock": {old: new}}))
    assert {(c.name, c.change) for c in delta.changes} == moves


@each_case("body", [
    "PODS:\n  - AppAuth 1.7.5\n",  # a pod without its version in parentheses
    "PODS:\n  - AppAuth (1.7.5)\n  - AppAuth/Core (1.7.4)\n",  # one pod at two versions
    "PODS: [unclosed\n",
    "EXTERNAL SOURCES:\n  Foo:\n    :svn: https://example.com/foo\n",  # a source form not read
    "- a\n- list\n",
])
def test_malformed_podfile_lock_is_a_problem(tmp_path: Path, body: str) -> None:
    with pytest.raises(ManifestError):
        cocoapods.parse_podfile_lock("Podfile.lock", body.encode())
    delta = _tree(*edited_commits(tmp_path, {"Podfile.lock": PODFILE_LOCK}, {"Podfile.lock": {PODFILE_LOCK: body}}))
    assert [(p.manifest, p.kind) for p in delta.problems] == [("Podfile.lock", "unparsable")] and not delta.changes


def test_podspec_checksum_moved_under_its_version_is_a_problem(tmp_path: Path) -> None:
    """Another podspec under an unchanged version may fetch other code: it must not ride on a bump beside it."""
    edits = {"Podfile.lock": {"AppAuth: 501c04eda8a8d11f179dbe8637b7a91bb7e5d2fa": "AppAuth: " + "0" * 40,
                              "FirebaseCrashlytics (11.2.0)": "FirebaseCrashlytics (11.3.0)",
                              "FirebaseCrashlytics: cfc69af5": "FirebaseCrashlytics: ba7b6a55"}}
    delta = _tree(*edited_commits(tmp_path, {"Podfile.lock": PODFILE_LOCK}, edits))
    assert _moves(delta) == {("cocoapods", "FirebaseCrashlytics", "11.2.0", "11.3.0")}
    [problem] = delta.problems
    assert (problem.manifest, problem.kind) == ("Podfile.lock", "partial") and "AppAuth 1.7.5" in problem.msg
