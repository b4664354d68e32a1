"""A Bazel module's `git_override` (bazelpins.py): aspect-build/rules_py builds container_structure_test from a
commit of its repository, which Renovate bumps. Before, the move was only an override problem, named by no change.
Attack cases first (hostile MODULE.bazel: bounded, no traceback, nothing named from a form not read), then the class
and its look-alikes, through real git repositories (--tree and the patch)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from cpucost import within_cpu
from deltas import both_edited

from gatekeeper.deps.bazel import parse_module_bazel
from gatekeeper.deps.bazelpins import git_overrides
from gatekeeper.deps.sources import Delta

OLD, NEW = "89353131caa8b28f73bb5aa67e91cf5b1b5b5650", "63ee63e15fae64f00b1c1ace1eb5cc99251b9e02"
MODULE = f"""module(name = "aspect_rules_py", version = "0.0.0")

bazel_dep(name = "rules_oci", version = "2.2.6", dev_dependency = True)
bazel_dep(name = "container_structure_test", version = "1.19.3", dev_dependency = True)
git_override(
    module_name = "container_structure_test",
    commit = "{OLD}",
    remote = "https://github.com/GoogleContainerTools/container-structure-test.git",
)
"""


def _rows(delta: Delta) -> set[tuple[object, ...]]:
    return {(c.ecosystem, c.name, c.from_version, c.to_version, c.change) for c in delta.changes}


def _pins(body: str) -> list[tuple[str, str, str]]:
    return [(d.name, d.version or "", d.alias) for d in git_overrides("MODULE.bazel", body)]


# --- attack cases ---

def test_unclosed_and_long_calls_are_read_in_linear_time() -> None:
    for body in ("git_override(\n" * 100_000, "git_override(" + " x = 1," * 200_000 + ")\n",
                 "git_override(module_name = \"" + "a" * 1_000_000 + "\")\n"):
        assert within_cpu(5, partial(_pins, body)) == []


def test_an_override_of_other_than_literals_names_nothing() -> None:
    for swap in ('commit = COMMIT,', 'commit = "63ee63e",', f'commit = "{NEW}" + "",',
                 'tag = "v1.19.3",', f'commit = "{NEW}", remote = REMOTE,'):
        body = MODULE.replace(f'commit = "{OLD}",', swap)
        assert _pins(body) == [], swap
    assert _pins(MODULE.replace("https://github.com/", "git@github.com:")) == []


def test_an_override_moved_to_a_form_not_read_is_no_removal(tmp_path: Path) -> None:
    # `commit = "63ee63e"` (abbreviated), a `tag`, a module_name no literal: the override still replaces the module
    for n, swap in enumerate(('commit = "63ee63e",', 'tag = "v1.19.3",', f'commit = "{NEW}", init_submodules = X,')):
        tree, patch = both_edited(tmp_path / str(n), {"MODULE.bazel": MODULE},
                                  {"MODULE.bazel": {f'commit = "{OLD}",': swap}})
        for delta in (tree, patch):
            assert not any(c.change == "removed" for c in delta.changes), (swap, delta.changes)
            assert delta.problems, swap
        assert "unparsable" in [p.kind for p in tree.problems], swap
    # an override call whose module_name is no literal may override any module: held for all
    tree, _ = both_edited(tmp_path / "n", {"MODULE.bazel": MODULE}, {"MODULE.bazel": {
        f'commit = "{OLD}",': 'commit = "63ee63e",', 'module_name = "container_structure_test"': "module_name = M"}})
    assert not any(c.change == "removed" for c in tree.changes) and "unparsable" in [p.kind for p in tree.problems]


def test_an_override_deleted_with_its_call_is_a_removal(tmp_path: Path) -> None:
    call = MODULE[MODULE.index("git_override("):]
    tree, _ = both_edited(tmp_path, {"MODULE.bazel": MODULE}, {"MODULE.bazel": {call: ""}})
    assert ("git", "github.com/GoogleContainerTools/container-structure-test", OLD, None, "removed") in _rows(tree)


# --- the class ---

def test_a_git_override_commit_moves(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"MODULE.bazel": MODULE}, {"MODULE.bazel": {OLD: NEW}})
    want = {("git", "github.com/GoogleContainerTools/container-structure-test", OLD, NEW, "changed")}
    assert _rows(tree) == want
    # the override's change stays a problem (the download location moved), as before
    assert [p.kind for p in tree.problems] == ["partial"]
    assert {c.alias for c in tree.changes} == {"container_structure_test"}
    assert _rows(patch) == want  # the hunk shows the whole call: its commit line is read in it


def test_a_commit_line_whose_call_the_hunk_does_not_show_whole_stays_partial(tmp_path: Path) -> None:
    more = '    patches = [],\n    patch_strip = 1,\n    init_submodules = True,\n    strip_prefix = "",\n'
    long_call = MODULE.replace('    commit = "', more + '    commit = "')
    _, patch = both_edited(tmp_path, {"MODULE.bazel": long_call}, {"MODULE.bazel": {OLD: NEW}})
    assert patch.changes == ()
    assert [p.kind for p in patch.problems] == ["partial"]


def test_another_line_of_the_call_moved_beside_the_commit_is_no_bare_bump(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"MODULE.bazel": MODULE}, {"MODULE.bazel": {
        OLD: NEW, "GoogleContainerTools/container-structure-test": "evil/container-structure-test"}})
    assert ("git", "github.com/evil/container-structure-test", None, NEW, "added") in _rows(tree)
    assert [p.kind for p in tree.problems] == ["partial"]
    assert patch.problems and not any(c.change == "changed" for c in patch.changes)


def test_the_bazel_deps_are_read_as_before() -> None:
    found = {(d.ecosystem, d.name, d.version) for d in parse_module_bazel("MODULE.bazel", MODULE.encode())}
    assert ("bazel", "container_structure_test", "1.19.3") in found
    assert ("git", "github.com/GoogleContainerTools/container-structure-test", OLD) in found


# --- look-alikes ---

def test_a_commented_out_override_or_another_call_names_nothing() -> None:
    assert _pins("\n".join("# " + line for line in MODULE.splitlines())) == []
    assert _pins(MODULE.replace("git_override(", "archive_override(")) == []
    assert _pins(MODULE.replace("git_override(", "my_git_override(")) == []


PULL = """oci = use_extension("@rules_oci//oci:extensions.bzl", "oci")
oci.pull(
    name = "distroless_java",
    digest = "sha256:97891db4665b347af579b94f324f94f984a1e2e6d009b0015a1d2d214a0389d3",
    image = "gcr.io/distroless/java17",
)
use_repo(oci, "distroless_java")
"""
DIGEST = "sha256:f4329451b879886de6e0f1ac58ab3ca5adee9faeeb1f58ded0ad545afc7d4a31"


def test_an_oci_pull_digest_line_the_hunk_shows_with_its_call(tmp_path: Path) -> None:
    old = "sha256:97891db4665b347af579b94f324f94f984a1e2e6d009b0015a1d2d214a0389d3"
    tree, patch = both_edited(tmp_path, {"java-maven/MODULE.bazel": PULL}, {"java-maven/MODULE.bazel": {old: DIGEST}})
    assert {(c.ecosystem, c.name, c.to_version) for c in tree.changes} \
        == {(c.ecosystem, c.name, c.to_version) for c in patch.changes} == {
            ("docker", "gcr.io/distroless/java17", "@" + DIGEST)}
    assert patch.problems == ()


def test_an_oci_pull_whose_other_argument_moved_or_is_cut_stays_partial(tmp_path: Path) -> None:
    old = "sha256:97891db4665b347af579b94f324f94f984a1e2e6d009b0015a1d2d214a0389d3"
    _, moved = both_edited(tmp_path / "a", {"MODULE.bazel": PULL},
                           {"MODULE.bazel": {old: DIGEST, "java17": "java21"}})
    assert all(c.name != "gcr.io/distroless/java17" or c.change != "changed" for c in moved.changes)
    cut = PULL.replace('    image = "gcr.io/distroless/java17",\n',
                       '    image = "gcr.io/distroless/java17",\n' + '    platforms = ["linux/amd64"],\n' * 4)
    _, unseen = both_edited(tmp_path / "b", {"MODULE.bazel": cut}, {"MODULE.bazel": {old: DIGEST}})
    assert unseen.changes == () and [p.kind for p in unseen.problems] == ["partial"]
