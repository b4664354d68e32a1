"""Bazel `http_archive`/`http_file` downloads of GitHub releases (bazelrepos.py): rules_jvm_external's WORKSPACE
bumps Robolectric's archive and buildifier's four `http_file`s by hand. Before, WORKSPACE and `.bzl` files were read
by no reader. Attack cases first (hostile files: bounded, no traceback, nothing named from a form not read, a call
not read on one side no removal), then the class and its look-alikes, through real git repositories (--tree and the
patch)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from cpucost import within_cpu
from deltas import both_edited

from gatekeeper.deps.bazel import parse_module_bazel
from gatekeeper.deps.bazelrepos import parse_repos
from gatekeeper.deps.registry import format_for
from gatekeeper.deps.sources import Delta

WORKSPACE = """workspace(name = "android_local_test")

load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")

http_archive(
    name = "robolectric",
    sha256 = "2929e39c81502e03628f1469d0f7fb411dd82d8c6d75244752bc2f6b537c5baa",
    strip_prefix = "robolectric-bazel-4.10",
    urls = ["https://github.com/robolectric/robolectric-bazel/archive/refs/tags/4.10.tar.gz"],
)

load("@robolectric//bazel:robolectric.bzl", "robolectric_repositories")

robolectric_repositories()
"""
OLD_URL = "https://github.com/robolectric/robolectric-bazel/archive/refs/tags/4.10.tar.gz"
NEW_URL = "https://github.com/robolectric/robolectric-bazel/releases/download/4.12.1/robolectric-bazel-4.12.1.tar.gz"
BUMP = {OLD_URL: NEW_URL, "robolectric-bazel-4.10": "robolectric-bazel-4.12.1",
        "2929e39c81502e03628f1469d0f7fb411dd82d8c6d75244752bc2f6b537c5baa":
        "f8d736fa09ef5ddaa315db20b6b20f867946bc78ffeff8ee4f29275b73c797d4"}
BUILDIFIER = "".join(f"""
http_file(
    name = "buildifier-{arch}",
    sha256 = "917d599dbb040e63ae7a7e1adb710d2057811902fdc9e35cce925ebfd966eeb8",
    urls = [
        "https://mirror.bazel.build/github.com/bazelbuild/buildtools/releases/download/5.1.0/buildifier-{arch}",
        "https://github.com/bazelbuild/buildtools/releases/download/5.1.0/buildifier-{arch}",
    ],
)
""" for arch in ("linux-arm64", "linux-amd64", "darwin-arm64"))


def _rows(delta: Delta) -> set[tuple[object, ...]]:
    return {(c.ecosystem, c.name, c.from_version, c.to_version, c.change) for c in delta.changes}


def _read(body: str, path: str = "WORKSPACE") -> set[tuple[str, str, str]]:
    return {(d.name, d.version or "", d.alias) for d in parse_repos(path, body.encode())}


# --- attack cases ---

def test_unclosed_long_and_nested_calls_are_read_in_linear_time() -> None:
    for body in ("http_archive(\n" * 100_000, "http_file(" + ' x = "a",' * 200_000 + ")\n",
                 'http_archive(urls = [' + '"a" ' * 200_000 + '])\n',
                 'http_archive(urls = [' + '"a",    ' * 15 + ' ' * 500_000 + 'x])\n',
                 "http_archive(name = \"" + "a" * 1_000_000 + "\")\n", "\0\xff" * 100_000):
        assert within_cpu(5, partial(_read, body)) == set()


# (round 56: an `http://github.com/…` URL is the same repository as `https://` and is read:
# tests/test_deps_bazel_repos_args.py)
def test_a_call_of_other_than_literal_github_downloads_names_nothing() -> None:
    for swap in (f'urls = ["{OLD_URL}" + ""]', 'urls = [URL]', f'urls = ["{OLD_URL}".format(v)]',
                 'urls = ["https://example.com/robolectric-bazel/archive/refs/tags/4.10.tar.gz"]',
                 'urls = ["https://github.com/robolectric/robolectric-bazel/archive/refs/heads/main.tar.gz"]',
                 'urls = ["https://github.com/robolectric/robolectric-bazel/archive/main.tar.gz"]',
                 f'urls = ["{OLD_URL}", "https://github.com/evil/robolectric-bazel/archive/refs/tags/4.10.tar.gz"]',
                 f'urls = ["{OLD_URL}", "https://example.com/mirror/4.10.tar.gz"]', 'urls = []'):
        assert _read(WORKSPACE.replace(f'urls = ["{OLD_URL}"]', swap)) == set(), swap


def test_a_call_no_longer_read_on_one_side_is_no_removal(tmp_path: Path) -> None:
    computed = 'urls = ["https://github.com/robolectric/robolectric-bazel/archive/refs/tags/%s.tar.gz" % V]'
    tree, patch = both_edited(tmp_path, {"WORKSPACE": WORKSPACE}, {"WORKSPACE": {f'urls = ["{OLD_URL}"]': computed}})
    assert not any(c.change == "removed" for c in tree.changes + patch.changes)
    assert [p.kind for p in tree.problems] == ["unparsable"]
    assert {p.kind for p in patch.problems} == {"partial"}, patch


def test_a_call_whose_name_is_not_read_holds_every_download(tmp_path: Path) -> None:
    tree, _ = both_edited(tmp_path, {"WORKSPACE": WORKSPACE}, {"WORKSPACE": {
        f'urls = ["{OLD_URL}"]': "urls = URLS", 'name = "robolectric"': "name = NAME"}})
    assert not any(c.change == "removed" for c in tree.changes)
    assert [p.kind for p in tree.problems] == ["unparsable"]


# --- the class ---

def test_a_workspace_archive_bump(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"examples/android_local_test/WORKSPACE": WORKSPACE},
                              {"examples/android_local_test/WORKSPACE": BUMP})
    want = {("tool", "robolectric/robolectric-bazel", "4.10", "4.12.1", "upgraded")}
    assert _rows(tree) == _rows(patch) == want
    assert {c.alias for c in tree.changes} == {"robolectric"}
    assert tree.problems == patch.problems == ()


def test_buildifier_files_in_a_bzl_file_are_one_tool(tmp_path: Path) -> None:
    assert format_for("private/versions.bzl") == format_for("WORKSPACE.bazel") == format_for("WORKSPACE") is not None
    tree, patch = both_edited(tmp_path, {"private/repositories.bzl": BUILDIFIER},
                              {"private/repositories.bzl": {"/5.1.0/": "/v7.1.2/"}})
    assert _rows(tree) == {("tool", "bazelbuild/buildtools", "5.1.0", "v7.1.2", "upgraded")}
    # each URL line of the list sits four lines below its call's opening: the hunks cut the calls
    assert patch.changes == () and {p.kind for p in patch.problems} == {"partial"}
    one_line = BUILDIFIER.replace("urls = [\n        ", "urls = [").replace(",\n        \"https://github", ", \"https://github")
    _, shown = both_edited(tmp_path / "b", {"WORKSPACE.bazel": one_line}, {"WORKSPACE.bazel": {"/5.1.0/": "/v7.1.2/"}})
    assert _rows(shown) == _rows(tree) and shown.problems == ()


def test_a_module_bazel_use_repo_rule_download() -> None:
    body = 'http_file = use_repo_rule("@bazel_tools//tools/build_defs/repo:http.bzl", "http_file")\n' + BUILDIFIER
    found = {(d.ecosystem, d.name, d.version) for d in parse_module_bazel("MODULE.bazel", body.encode())}
    assert found == {("tool", "bazelbuild/buildtools", "5.1.0")}


def test_a_commit_archive_and_a_url_argument() -> None:
    sha = "0123456789abcdef0123456789abcdef01234567"
    body = f'http_archive(name = "c", url = "https://github.com/o/c/archive/{sha}.zip", strip_prefix = "c-{sha}")\n'
    assert _read(body) == {("o/c", sha, "c")}


def test_a_url_line_the_hunk_cuts_from_its_call_stays_partial(tmp_path: Path) -> None:
    long_call = WORKSPACE.replace('    strip_prefix', '    build_file_content = "",\n' * 5 + '    strip_prefix')
    _, patch = both_edited(tmp_path, {"WORKSPACE": long_call}, {"WORKSPACE": {OLD_URL: NEW_URL}})
    assert patch.changes == ()
    assert {p.kind for p in patch.problems} == {"partial"}


# --- look-alikes ---

def test_commented_out_or_other_rules_name_nothing() -> None:
    assert _read("\n".join("# " + line for line in WORKSPACE.splitlines())) == set()
    assert _read(WORKSPACE.replace("http_archive(", "my_http_archive(")) == set()
    assert _read(WORKSPACE.replace("http_archive(", "git_repository(")) == set()
    assert format_for("docs/notes.bzl.md") is None and format_for("BUILD.bazel") is None
