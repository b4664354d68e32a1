"""Classes of the misses left across the dependency sets (issue 14, the second sweep), from a patch.

- A Makefile's image pair (`DOCKER_IMAGE_DEVELOPER_TOOLS := cft/developer-tools` beside
  `DOCKER_TAG_VERSION_DEVELOPER_TOOLS := 1.25`, the blueprint Makefile of terraform-google-modules' repositories
  that Renovate bumps: project-factory, network, sql-db and GoogleCloudPlatform's cloud-run, 27 commits of the sets)
  is a dependency where a recipe runs it (`docker run … $(DOCKER_IMAGE…):$(DOCKER_TAG…)`), which `--tree` reads. A
  patch's hunk shows the two variables but not the recipe far below: the hunk lines named nothing and flagged
  nothing, a moved image passed the gate as no dependency change at all. Now such a pair moved is named as shown
  beside a `partial` problem (the patch cannot tell a run image from the project's own), which the gate reviews.
- A git-sourced locked entry moved to another commit under an unchanged version (firezone's Cargo.lock `source =
  "git+https://github.com/aya-rs/aya#<commit>"`, Dependabot's "Updates `aya` from `15a0de1` to `0a82062`"): Cargo.lock
  reported it as a moved download location (reviewed). Bundler's Gemfile.lock writes the same move as a `GIT`
  section's `revision:` line above its `specs:`, which no reader compared: alone it was `deps.unexplained`, but beside
  any other gem's bump in the same lockfile it passed as that bump. Its sections' `remote:` and git `revision:` are now
  each gem's location (lockedsources.py, and lockhunks.py from a patch), reviewed as Cargo's are.
- The benchmark's naming (bench/bench_deps_accuracy.py): from Scala 3.8 the standard library a Scala 3
  `scalaVersion` selects is `org.scala-lang:scala-library` at that version (scala3-library_3 is published empty,
  scala/scala3 #24816); scala-steward ("Update scala-library to 3.8.1", typelevel/natchez) and Dependabot ("Bump
  org.scala-lang:scala-library from 2.13.18 to 3.8.0") name it so. The delta names the setting by the Scala 3 library.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from tables import each_case
from test_deps_gate import Case, gate

from gatekeeper.deps.makehunks import makefile_edits
from gatekeeper.deps.model import PartialEdits
from gatekeeper.deps.sources import Delta
from tests.deltas import accuracy_bench, bench_change, moves, patch, tree
from tests.gitrepo import GitRepo

MAKEFILE = """# Copyright 2026 Example LLC
#
# Licensed under the Apache License, Version 2.0 (the "License");

# Please note that this file was generated from a blueprint template.
# Make will use bash instead of sh
SHELL := /usr/bin/env bash

DOCKER_TAG_VERSION_DEVELOPER_TOOLS := 1.25
DOCKER_IMAGE_DEVELOPER_TOOLS := cft/developer-tools
REGISTRY_URL := gcr.io/cloud-foundation-cicd

# Enter docker container for local development
.PHONY: docker_run
docker_run:
\tdocker run --rm -it \\
\t\t-e SERVICE_ACCOUNT_JSON \\
\t\t-v "$(CURDIR)":/workspace \\
\t\t$(REGISTRY_URL)/${DOCKER_IMAGE_DEVELOPER_TOOLS}:${DOCKER_TAG_VERSION_DEVELOPER_TOOLS} \\
\t\t/bin/bash

# Execute prepare tests within the docker container
.PHONY: docker_test_prepare
docker_test_prepare:
\tdocker run --rm -it \\
\t\t-e SERVICE_ACCOUNT_JSON \\
\t\t-v "$(CURDIR)":/workspace \\
\t\t$(REGISTRY_URL)/${DOCKER_IMAGE_DEVELOPER_TOOLS}:${DOCKER_TAG_VERSION_DEVELOPER_TOOLS} \\
\t\t/usr/local/bin/execute_with_credentials.sh prepare_environment
"""
PATH_ = "Makefile"
MOVE = ("docker", "cft/developer-tools", "1.25", "1.26")
BUMP = ("DOCKER_TAG_VERSION_DEVELOPER_TOOLS := 1.25", "DOCKER_TAG_VERSION_DEVELOPER_TOOLS := 1.26")


def _delta(tmp_path: Path, path: str, before: str, after: str, *extra: str) -> tuple[Delta, Delta]:
    """(from the patch git makes, `--tree`) of one file's edit."""
    repo = GitRepo(tmp_path / "repo")
    repo.write(path, before)
    base = repo.commit("base")
    repo.write(path, after)
    head = repo.commit("head")
    return patch(repo, base, head, *extra), tree(repo, base, head)


def _problem(delta: Delta, path: str) -> str:
    return " ".join(p.msg for p in delta.problems if p.manifest == path and p.kind == "partial")


@pytest.mark.parametrize("path", ["Makefile", "build/docker.mk", "GNUmakefile"])
def test_an_image_pair_moved_without_its_run_in_the_hunk_is_named_beside_a_problem(tmp_path: Path,
                                                                                     path: str) -> None:
    from_patch, whole = _delta(tmp_path, path, MAKEFILE, MAKEFILE.replace(*BUMP))
    assert moves(whole) == {MOVE}
    assert not whole.problems
    assert moves(from_patch) == {MOVE}
    assert all(c.partial for c in from_patch.changes)
    assert "DOCKER_IMAGE_DEVELOPER_TOOLS/DOCKER_TAG_VERSION_DEVELOPER_TOOLS" in _problem(from_patch, path)


def test_the_image_variable_moved_is_named_too(tmp_path: Path) -> None:
    after = MAKEFILE.replace("cft/developer-tools", "cft/developer-tools-light")
    from_patch, whole = _delta(tmp_path, PATH_, MAKEFILE, after)
    assert {(c.name, c.change) for c in whole.changes} == {(c.name, c.change) for c in from_patch.changes} == {
        ("cft/developer-tools", "removed"), ("cft/developer-tools-light", "added")}
    assert _problem(from_patch, PATH_)


def test_a_pair_whose_run_the_hunk_shows_needs_no_problem(tmp_path: Path) -> None:
    # a Makefile short enough that the hunk reaches the recipe: read as before, from its lines
    text = ("DOCKER_TAG_VERSION_TOOLS := 1.25\nDOCKER_IMAGE_TOOLS := cft/developer-tools\n"
            "run:\n\tdocker run --rm $(DOCKER_IMAGE_TOOLS):$(DOCKER_TAG_VERSION_TOOLS) make\n")
    from_patch, whole = _delta(tmp_path, PATH_, text, text.replace("1.25", "1.26"))
    assert moves(from_patch) == moves(whole) == {MOVE}
    assert not from_patch.problems


def test_a_pair_only_built_is_no_dependency_with_tree_but_reviewed_from_the_patch(tmp_path: Path) -> None:
    # the project's own image: --tree sees the whole file and names nothing; the patch cannot tell
    text = MAKEFILE.replace("docker run --rm -it", "docker build -t")
    from_patch, whole = _delta(tmp_path, PATH_, text, text.replace(*BUMP))
    assert not whole.changes and not whole.problems
    assert _problem(from_patch, PATH_)


@pytest.mark.parametrize(("before", "after"), [
    ("SHELL := /usr/bin/env bash", "SHELL := /bin/bash"),  # another line beside the pair, which stays as it was
    ("REGISTRY_URL := gcr.io/cloud-foundation-cicd", "REGISTRY_URL := gcr.io/other"),
])
def test_a_hunk_that_shows_the_pair_unchanged_flags_nothing(tmp_path: Path, before: str, after: str) -> None:
    from_patch, _ = _delta(tmp_path, PATH_, MAKEFILE, MAKEFILE.replace(before, after))
    assert not from_patch.changes
    assert not _problem(from_patch, PATH_)


@pytest.mark.parametrize("text", [
    # a tag variable without an image partner (a project's own release number): no pair, nothing read
    "RELEASE_TAG := v1.2.3\nGO_VERSION := 1.22\n",
    # the two variables do not share a word besides IMAGE/TAG: no pair
    "DOCKER_TAG_VERSION_DEVELOPER_TOOLS := 1.25\nDOCKER_IMAGE_OTHER := cft/developer-tools\n",
    # an image holding a variable: not an image reference
    "DOCKER_TAG_VERSION_TOOLS := 1.25\nDOCKER_IMAGE_TOOLS := $(BASE)/tools\n",
])
def test_look_alikes_are_not_pairs(tmp_path: Path, text: str) -> None:
    from_patch, whole = _delta(tmp_path, PATH_, text, text.replace("1.25", "1.26").replace("v1.2.3", "v1.2.4"))
    assert not from_patch.changes and not whole.changes
    assert not _problem(from_patch, PATH_)


def test_a_pair_split_across_two_hunks_is_not_paired(tmp_path: Path) -> None:
    filler = "".join(f"# line {i}\n" for i in range(12))
    text = f"DOCKER_TAG_VERSION_TOOLS := 1.25\n{filler}DOCKER_IMAGE_TOOLS := cft/developer-tools\n"
    after = text.replace("1.25", "1.26").replace("cft/developer-tools", "cft/other-tools")
    from_patch, _ = _delta(tmp_path, PATH_, text, after, "-U1")
    assert not from_patch.changes
    assert not _problem(from_patch, PATH_)


def test_a_pair_added_whole_is_named_beside_a_problem(tmp_path: Path) -> None:
    text = "SHELL := /usr/bin/env bash\n\n.PHONY: all\nall:\n\techo\n"
    after = text.replace("\n\n", "\nDOCKER_TAG_TOOLS := 2.0\nDOCKER_IMAGE_TOOLS := library/alpine\n\n")
    from_patch, _ = _delta(tmp_path, PATH_, text, after)
    assert {(c.name, c.to_version, c.change) for c in from_patch.changes} == {("library/alpine", "2.0", "added")}
    assert _problem(from_patch, PATH_)


@each_case("raw", [
    b"",
    b"@@\n",
    b"@@\n-DOCKER_TAG_X := \xff\xfe\n+DOCKER_TAG_X := 1\n",
    b"@@\n+DOCKER_IMAGE_X := a/b\n\\\n",
    b"@@\n-DOCKER_TAG_X := 1\n@@\n+DOCKER_IMAGE_X := a/b\n",
])
def test_malformed_or_partial_hunks_do_not_crash(raw: bytes) -> None:
    try:
        base, head = makefile_edits(PATH_, raw)
    except PartialEdits as exc:
        base, head = exc.found
    assert all(d.ecosystem == "docker" for d in base + head)


def test_the_gate_reviews_an_image_pair_the_patch_moves_without_its_run(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    case = Case(tmp_path, {PATH_: MAKEFILE}, {PATH_: MAKEFILE.replace(*BUMP)})
    from_patch = gate(capsys, case, False)
    assert from_patch["outcome"] == "review"
    assert "deps.unreadable" in [r["rule"] for r in from_patch["reasons"]]
    with_tree = gate(capsys, case, True)
    assert "deps.unreadable" not in [r["rule"] for r in with_tree["reasons"]]


@each_case(("want", "version", "same"), [
    ("scala-library", "3.8.1", True), ("scala-library", "3.10.0", True),
    ("scala-library", "3.7.4", False),  # before 3.8 the Scala 3 library is scala3-library_3; scala-library is 2.13's
    ("scala-library", "3.3.8", False), ("scala-reflect", "3.8.1", False), ("scala3-library", "3.8.1", True),
])
def test_the_benchmark_names_the_scala_3_8_library_by_scala_library(want: str, version: str, same: bool) -> None:
    bench = accuracy_bench()
    change = dataclasses.replace(bench_change("maven", "org.scala-lang:scala3-library"), to_version=version)
    assert bench._same_name(want, change) is same
    other = dataclasses.replace(bench_change("maven", "org.typelevel:cats-core"), to_version=version)
    assert not bench._same_name(want, other)


GEMFILE = """source "https://rubygems.org"

gem "rake", "~> 13.0"
gem "rails", github: "rails/rails", branch: "main"
"""
LOCK = """GIT
  remote: https://github.com/rails/rails.git
  revision: 5c2a5c8d3f4e6b7a8c9d0e1f2a3b4c5d6e7f8a9b
  branch: main
  specs:
    actionpack (8.1.0.alpha)
      rack (>= 2.2.4)
    rails (8.1.0.alpha)
      actionpack (= 8.1.0.alpha)

GEM
  remote: https://rubygems.org/
  specs:
    rack (3.1.8)
    rake (13.2.1)

PLATFORMS
  ruby
  x86_64-linux

DEPENDENCIES
  rails!
  rake (~> 13.0)

BUNDLED WITH
   2.5.22
"""
OLD_REV, NEW_REV = "5c2a5c8d3f4e6b7a8c9d0e1f2a3b4c5d6e7f8a9b", "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d"


def _gem_delta(tmp_path: Path, after: str, *extra: str) -> tuple[Delta, Delta]:
    repo = GitRepo(tmp_path / "repo")
    repo.write("Gemfile", GEMFILE)
    repo.write("Gemfile.lock", LOCK)
    base = repo.commit("base")
    repo.write("Gemfile.lock", after)
    head = repo.commit("head")
    return patch(repo, base, head, *extra), tree(repo, base, head)


@pytest.mark.parametrize("also", [False, True])
def test_a_git_gem_moved_to_another_commit_under_its_version_is_reviewed(tmp_path: Path, also: bool) -> None:
    after = LOCK.replace(OLD_REV, NEW_REV)
    if also:  # beside another gem's bump of the same lockfile, which explained the file before
        after = after.replace("rake (13.2.1)", "rake (13.3.0)")
    from_patch, whole = _gem_delta(tmp_path, after)
    for delta in (from_patch, whole):
        assert "rails" in _problem(delta, "Gemfile.lock") or "revision" in _problem(delta, "Gemfile.lock")
        # the git gems are named at their commits too (round 28: Dependabot names the move by them), never ordered
        moved = {c.name for c in delta.changes if f"revision:{NEW_REV}" in (c.to_version or "")}
        assert {c.name for c in delta.changes} - moved == ({"rake"} if also else set())
        assert all(c.change == "changed" for c in delta.changes if c.name in moved)
    assert {c.name for c in whole.changes if f"revision:{NEW_REV}" in (c.to_version or "")} == {"actionpack", "rails"}
    assert {m for m in moves(whole) if "revision:" not in m[3]} == (
        {("bundler", "rake", "13.2.1", "13.3.0")} if also else set())


def test_a_gem_server_swapped_under_unchanged_versions_is_reviewed(tmp_path: Path) -> None:
    from_patch, whole = _gem_delta(tmp_path, LOCK.replace("https://rubygems.org/", "https://gems.example.net/"))
    assert _problem(whole, "Gemfile.lock")
    assert _problem(from_patch, "Gemfile.lock")


@each_case(("before", "after"), [
    ("rake (13.2.1)", "rake (13.3.0)"),  # an ordinary bump from the gem server
    ("rack (3.1.8)", "rack (3.1.9)"),
    ("   2.5.22", "   2.6.2"),  # Bundler's own version
    ("  x86_64-linux", "  x86_64-linux\n  arm64-darwin"),  # a platform added
])
def test_ordinary_lockfile_edits_are_not_moved_locations(tmp_path: Path, before: str, after: str) -> None:
    from_patch, whole = _gem_delta(tmp_path, LOCK.replace(before, after))
    assert not _problem(whole, "Gemfile.lock")
    assert not _problem(from_patch, "Gemfile.lock")


def test_a_git_gem_bumped_with_its_commit_is_a_version_move_not_a_location(tmp_path: Path) -> None:
    # the commit moves with a new version of the gems it holds: a bump of those gems, no other location
    after = LOCK.replace(OLD_REV, NEW_REV).replace("8.1.0.alpha", "8.1.0.beta1")
    from_patch, whole = _gem_delta(tmp_path, after)
    assert not _problem(whole, "Gemfile.lock")
    assert not _problem(from_patch, "Gemfile.lock")
    assert ("bundler", "rails") in {(c.ecosystem, c.name) for c in whole.changes}


def test_a_revision_line_whose_section_the_hunk_does_not_show_fails_closed(tmp_path: Path) -> None:
    from_patch, _ = _gem_delta(tmp_path, LOCK.replace(OLD_REV, NEW_REV), "-U0")
    assert _problem(from_patch, "Gemfile.lock")


def test_the_gate_reviews_a_git_gem_moved_beside_another_bump(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    after = LOCK.replace(OLD_REV, NEW_REV).replace("rake (13.2.1)", "rake (13.2.2)")
    case = Case(tmp_path, {"Gemfile": GEMFILE, "Gemfile.lock": LOCK}, {"Gemfile": GEMFILE, "Gemfile.lock": after})
    for with_tree in (False, True):
        decided = gate(capsys, case, with_tree)
        assert decided["outcome"] == "review"
        assert "deps.unreadable" in [r["rule"] for r in decided["reasons"]]
