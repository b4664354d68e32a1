"""Bazel `http_archive`/`http_file` calls of round 56's misses (MobileNativeFoundation/rules_xcodeproj):

- its `_maybe(http_archive, name = …, url = …, ignore_version_differences = ignore_version_differences)` passes the
  macro's own parameter on: an argument that is a variable, not a literal, so no call was read and three hand bumps
  (rules_swift 1.2.0 and 1.5.1, rules_apple 1.1.2) named nothing. A variable passed as any argument but the download's
  own (`name`, `url`/`urls`, `sha256`, `integrity`, `strip_prefix`) says nothing about which release is fetched;
- its WORKSPACE's buildifier-prebuilt moved from `http://github.com/…/archive/0.4.0.tar.gz` to `https://…/6.0.0.tar.gz`:
  the `http://` URL was not read, so the move was `unparsable`. Both schemes name the same GitHub repository.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.deps.bazelrepos import parse_repos
from tests.deltas import both_edited, moves, partial

URL = "https://github.com/bazelbuild/rules_swift/releases/download/1.5.0/rules_swift.1.5.0.tar.gz"
NEW = "https://github.com/bazelbuild/rules_swift/releases/download/1.5.1/rules_swift.1.5.1.tar.gz"

# rules_xcodeproj's xcodeproj/repositories.bzl of 2023 (its shape: a `_maybe` wrapper taking the macro's parameter)
REPOSITORIES = '''\
"""Definitions for handling Bazel repositories used by rules_xcodeproj."""

load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")

def _maybe(repo_rule, name, ignore_version_differences, **kwargs):
    """Executes the given repository rule if it hasn't been executed already."""
    if native.existing_rule(name):
        return
    repo_rule(name = name, **kwargs)

def xcodeproj_rules_dependencies(
        ignore_version_differences = False,
        use_dev_patches = False):
    """Fetches repositories that are dependencies of `rules_xcodeproj`."""
    _maybe(
        http_archive,
        name = "bazel_skylib",
        sha256 = "74d544d96f4a5bb630d465ca8bbcfe231e3594e5aae57e1edbf17a6eb3ca2506",
        url = "https://github.com/bazelbuild/bazel-skylib/releases/download/1.3.0/bazel-skylib-1.3.0.tar.gz",
        ignore_version_differences = ignore_version_differences,
    )

    _maybe(
        http_archive,
        name = "build_bazel_rules_swift",
        sha256 = "32f95dbe6a88eb298aaa790f05065434f32a662c65ec0a6aabdaf6881e4f169f",
        url = "URL",
        ignore_version_differences = ignore_version_differences,
    )

    _maybe(
        http_archive,
        name = "build_bazel_rules_apple",
        url = "https://github.com/bazelbuild/rules_apple/releases/download/1.1.1/rules_apple.1.1.1.tar.gz",
        sha256 = "a19cf84dd060eda50be9ba5b0eca88377e0306ffbc1cc059df6a6947e48ac61a",
        ignore_version_differences = ignore_version_differences,
    )
'''.replace('"URL"', f'"{URL}"')


def test_the_hand_bumps_are_named_in_both_modes(tmp_path: Path) -> None:
    edits = {"xcodeproj/repositories.bzl": {
        URL: NEW,
        "32f95dbe6a88eb298aaa790f05065434f32a662c65ec0a6aabdaf6881e4f169f":
            "84e2cc1c9e3593ae2c0aa4c773bceeb63c2d04c02a74a6e30c1961684d235593"}}
    tree, patch = both_edited(tmp_path, {"xcodeproj/repositories.bzl": REPOSITORIES}, edits)
    want = {("tool", "bazelbuild/rules_swift", "1.5.0", "1.5.1")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch  # git's hunk opens at `_maybe(`: the call is shown


def test_two_bumps_of_one_commit(tmp_path: Path) -> None:
    """858f783's shape: each call's url and sha256 lines moved, so each hunk opens at its `_maybe(`."""
    edits = {"xcodeproj/repositories.bzl": {
        URL: NEW, "32f95dbe6a88eb298aaa790f05065434f32a662c65ec0a6aabdaf6881e4f169f": "8" * 64,
        "download/1.1.1/rules_apple.1.1.1": "download/1.1.2/rules_apple.1.1.2",
        "a19cf84dd060eda50be9ba5b0eca88377e0306ffbc1cc059df6a6947e48ac61a": "9" * 64}}
    tree, patch = both_edited(tmp_path, {"xcodeproj/repositories.bzl": REPOSITORIES}, edits)
    want = {("tool", "bazelbuild/rules_swift", "1.5.0", "1.5.1"), ("tool", "bazelbuild/rules_apple", "1.1.1", "1.1.2")}
    assert moves(tree) == want == moves(patch), (tree, patch)


def test_a_hunk_that_does_not_show_the_maybe_stays_partial(tmp_path: Path) -> None:
    """Only the url line moved, four lines below its `_maybe(`: the hunk opens at `http_archive,`."""
    edits = {"xcodeproj/repositories.bzl": {URL: NEW}}
    tree, patch = both_edited(tmp_path, {"xcodeproj/repositories.bzl": REPOSITORIES}, edits)
    assert moves(tree) == {("tool", "bazelbuild/rules_swift", "1.5.0", "1.5.1")}, tree
    assert partial(patch, "xcodeproj/repositories.bzl"), patch


_RELEASE = "https://github.com/o/r/releases/download/v1.2.3/r.tar.gz"


@pytest.mark.parametrize("rule", ["http_archive(", "maybe(http_archive, ", "_maybe(\n    http_file,\n    "])
@pytest.mark.parametrize("extra", [
    "ignore_version_differences = ignore_version_differences",
    "build_file = BUILD_FILE",
    "patches = _PATCHES",
    "patch_args = PATCH_ARGS",
    "repo_mapping = mapping",
    "canonical_id = CANONICAL",
])
def test_a_variable_argument_beside_literal_urls_is_read(rule: str, extra: str) -> None:
    call = f'{rule}name = "r", urls = ["{_RELEASE}"], {extra},\n)\n'
    deps = parse_repos("deps.bzl", call.encode())
    assert [(d.name, d.version, d.alias) for d in deps] == [("o/r", "v1.2.3", "r")]


@pytest.mark.parametrize("call", [
    f'http_archive(name = NAME, urls = ["{_RELEASE}"])',  # the name a variable
    'http_archive(name = "r", urls = URLS)',  # the URLs a variable
    'http_archive(name = "r", url = URL)',
    f'http_archive(name = "r", urls = ["{_RELEASE}"], url = URL)',  # one URL more, a variable
    f'http_archive(name = "r", urls = ["{_RELEASE}"], sha256 = SHA)',  # the download's own arguments
    f'http_archive(name = "r", urls = ["{_RELEASE}"], strip_prefix = PREFIX)',
    f'http_archive(name = "r", urls = ["{_RELEASE}"], integrity = INTEGRITY)',
    f'http_archive(name = "r", urls = ["{_RELEASE}"], build_file = "x" % y)',  # an expression, not a variable
    f'http_archive(name = "r", urls = ["{_RELEASE}"], patches = a + b)',
    f'http_archive(name = "r", urls = ["{_RELEASE}"], build_file = a.b)',
    f'http_archive(name = "r", urls = ["{_RELEASE}"], **kwargs)',  # arguments not shown
])
def test_a_variable_where_the_download_is_named_is_not_read(call: str) -> None:
    assert parse_repos("deps.bzl", f"{call}\n".encode()) == []


WORKSPACE = '''\
load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")

http_archive(
    name = "buildifier_prebuilt",
    sha256 = "0450069a99db3d414eff738dd8ad4c0969928af13dc8614adbd1c603a835caad",
    strip_prefix = "buildifier-prebuilt-0.4.0",
    urls = [
        "http://github.com/keith/buildifier-prebuilt/archive/0.4.0.tar.gz",
    ],
)
'''


@pytest.mark.parametrize("new", ["https://github.com/keith/buildifier-prebuilt/archive/6.0.0.tar.gz",
                                 "http://github.com/keith/buildifier-prebuilt/archive/6.0.0.tar.gz",
                                 "http://mirror.bazel.build/github.com/keith/buildifier-prebuilt/archive/6.0.0.tar.gz"])
def test_an_http_github_url_is_the_same_repository(tmp_path: Path, new: str) -> None:
    edits = {"WORKSPACE": {"http://github.com/keith/buildifier-prebuilt/archive/0.4.0.tar.gz": new,
                           "buildifier-prebuilt-0.4.0": "buildifier-prebuilt-6.0.0"}}
    tree, patch = both_edited(tmp_path, {"WORKSPACE": WORKSPACE}, edits)
    want = {("tool", "keith/buildifier-prebuilt", "0.4.0", "6.0.0")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not partial(patch, "WORKSPACE"), patch


@pytest.mark.parametrize("url", ["http://github.com.example.org/o/r/archive/1.0.tar.gz",
                                 "ftp://github.com/o/r/archive/1.0.tar.gz",
                                 "http://gitlab.com/o/r/archive/1.0.tar.gz",
                                 "http//github.com/o/r/archive/1.0.tar.gz"])
def test_other_hosts_and_schemes_stay_unread(url: str) -> None:
    assert parse_repos("WORKSPACE", f'http_archive(name = "r", urls = ["{url}"])\n'.encode()) == []
