"""Classifying a change, not a path: renames, copies, deletions, symlinks and modes, with the shipped rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.classify import RuleSet, classify_change, classify_changes, load_rules, resolve_link
from gatekeeper.model import FileChange

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


# -- change sides: renames, copies, deletions, symlinks, modes ----------------------------------


def change(path: str, status: str = "modified", **kw: object) -> FileChange:
    return FileChange(path=path, old_path=kw.pop("old_path", None), status=status, **kw)  # type: ignore[arg-type]


@each_case(
    ("old", "new", "bucket", "rule"),
    [
        (".github/workflows/ci.yml", "docs/ci.yml", "ci", "ci.workflows-folder"),
        ("docs/ci.yml", ".github/workflows/ci.yml", "ci", "ci.workflows-folder"),
        ("main.tf", "src/main.go", "iac", "iac.terraform"),
        ("package-lock.json", "old/package-lock.json.bak", "deps", "deps.npm.lockfile"),
        ("assets/a.png", "src/a.go", "other", "other.binary-assets"),
        ("src/a.go", "src/b.go", "src", "src.default"),
        ("Dockerfile", ".circleci/Dockerfile", "ci", "ci.circleci"),
    ],
)
def test_renames_take_the_more_sensitive_side(rules: RuleSet, old: str, new: str, bucket: str, rule: str) -> None:
    for status in ("renamed", "copied"):
        cf = classify_change(change(new, status, old_path=old), rules)
        assert (cf.bucket, cf.rule) == (bucket, rule), (old, new, status)


def test_rename_keeps_the_ecosystem_and_tags_of_both_sides(rules: RuleSet) -> None:
    cf = classify_change(change("docs/AGENTS.txt", "renamed", old_path="AGENTS.md"), rules)
    assert "guardrail" in cf.tags
    cf = classify_change(change("ci/notes.txt", "renamed", old_path="yarn.lock"), rules)
    assert (cf.bucket, cf.rule, cf.ecosystem) == ("ci", "ci.script-folders", None)
    assert "lockfile" in cf.tags


def test_deletion_is_classified_by_the_deleted_path(rules: RuleSet) -> None:
    cf = classify_change(change(".github/workflows/ci.yml", "deleted"), rules)
    assert cf.bucket == "ci"


@each_case(
    ("link", "target", "bucket", "rule"),
    [
        ("src/wf.yml", "../.github/workflows/x.yml", "ci", "ci.workflows-folder"),
        ("src/x", "../.circleci", "ci", "ci.circleci"),  # a link to a CI folder
        ("tools/ci", "../ci", "ci", "ci.script-folders"),
        ("src/Dockerfile.link", "../deploy/Dockerfile", "iac", "iac.containers"),
        ("lib/a.go", "b.go", "src", "src.default"),
        ("src/passwd", "../../../etc/passwd", "other", "builtin.symlink-outside-repo"),
        ("src/abs", "/etc/shadow", "other", "builtin.symlink-outside-repo"),
        ("src/hook", "../.git/hooks/pre-commit", "other", "builtin.symlink-outside-repo"),
        (".github/workflows/x.yml", "../../src/a.yml", "ci", "ci.workflows-folder"),  # the link itself is CI
    ],
)
def test_symlinks_are_classified_by_their_target_too(
    rules: RuleSet, link: str, target: str, bucket: str, rule: str
) -> None:
    cf = classify_change(change(link, "added", new_mode="120000", symlink_target=target), rules)
    assert (cf.bucket, cf.rule) == (bucket, rule)
    assert "symlink" in cf.tags


def test_a_link_retargeted_away_from_ci_still_touches_ci(rules: RuleSet) -> None:
    c = change("src/x", "modified", old_mode="120000", new_mode="120000", symlink_target="a.go",
               old_symlink_target="../.github/workflows/x.yml")
    assert classify_change(c, rules).bucket == "ci"


@each_case(
    ("link", "target", "expected"),
    [
        ("src/a", "../b", "b"),
        ("a", "b/c/../d", "b/d"),
        ("a/b/c", "../../x", "x"),
        ("a", "..", None),
        ("a/b", "../..", None),
        ("a", "/abs", None),
        ("a", ".git/config", None),
        ("src/a", ".", "src"),
        ("a", ".", ""),
    ],
)
def test_resolve_link(link: str, target: str, expected: str | None) -> None:
    assert resolve_link(link, target) == expected


def test_change_tags(rules: RuleSet) -> None:
    cf = classify_change(change("scripts/run.sh", "added", new_mode="100755"), rules)
    assert cf.tags == ("executable",)
    cf = classify_change(change("scripts/run.sh", "mode_changed", old_mode="100644", new_mode="100755"), rules)
    assert cf.tags == ("executable",)
    cf = classify_change(change("scripts/run.sh", "modified", old_mode="100755", new_mode="100755"), rules)
    assert cf.tags == ()
    cf = classify_change(change("assets/logo.png", "added", binary=True, new_mode="100644"), rules)
    assert (cf.bucket, cf.tags) == ("other", ("binary",))
    cf = classify_change(change("third/lib", "modified", old_mode="160000", new_mode="160000", submodule=True), rules)
    assert (cf.bucket, cf.rule, cf.ecosystem, cf.tags) == ("deps", "builtin.submodule", "git-submodule", ("submodule",))
    cf = classify_change(change(".github/workflows/lib", "added", new_mode="160000", submodule=True), rules)
    assert cf.bucket == "ci"  # a submodule inside the workflows folder is still CI first


def test_classify_changes_keeps_order_and_to_dict_carries_everything(rules: RuleSet) -> None:
    changes = [change("b/go.sum"), change("a/main.go"), change(".travis.yml")]
    files = classify_changes(iter(changes), rules)
    assert [f.change.path for f in files] == ["b/go.sum", "a/main.go", ".travis.yml"]
    entry = files[0].to_dict()
    assert (entry["bucket"], entry["rule"], entry["ecosystem"], entry["tags"]) == (
        "deps",
        "deps.go.lockfile",
        "go",
        ["lockfile"],
    )


# -- real patches from git, through the diff parser ------------------------------------------------


def test_real_patch_renames_and_symlinks(git_repo: GitRepo, tmp_path: Path, rules: RuleSet) -> None:
    from gatekeeper.diff import parse_patch

    git_repo.write(".github/workflows/ci.yml", "on: push\njobs: {}\n" * 20)
    git_repo.write("src/app.go", "package main\n")
    git_repo.write("yarn.lock", "# lock\n" * 10)
    git_repo.commit()
    (git_repo.root / "docs").mkdir()
    git_repo.git("mv", ".github/workflows/ci.yml", "docs/old-ci.yml")  # a move out of CI touches CI
    git_repo.symlink("src/wf.yml", "../docs/old-ci.yml")
    git_repo.symlink("src/ci-link", "../.github/workflows/new.yml")  # a link into CI
    git_repo.write("tools/run.sh", "#!/bin/sh\n", mode=0o755)
    git_repo.write("yarn.lock", "# lock\n" * 9 + "# changed\n")
    patch = git_repo.save_patch(tmp_path / "change.diff", "-M")
    files = {f.change.path: f for f in classify_changes(parse_patch(patch), rules)}
    moved = files["docs/old-ci.yml"]
    assert (moved.change.status, moved.change.old_path, moved.bucket, moved.rule) == (
        "renamed", ".github/workflows/ci.yml", "ci", "ci.workflows-folder"
    )
    assert (files["src/ci-link"].bucket, files["src/ci-link"].tags) == ("ci", ("symlink",))
    assert files["src/wf.yml"].bucket == "src"
    assert (files["tools/run.sh"].bucket, files["tools/run.sh"].tags) == ("src", ("executable",))
    assert (files["yarn.lock"].bucket, files["yarn.lock"].ecosystem, files["yarn.lock"].tags) == (
        "deps",
        "npm",
        ("lockfile",),
    )


def test_real_patch_deleted_and_retyped_links_into_ci(
    git_repo: GitRepo, tmp_path: Path, rules: RuleSet
) -> None:
    from gatekeeper.diff import parse_patch

    git_repo.write(".github/workflows/x.yml", "on: push\n")
    git_repo.symlink("src/gone", "../.github/workflows/x.yml")
    git_repo.symlink("src/retyped", "../.github/workflows/x.yml")
    git_repo.commit()
    (git_repo.root / "src" / "gone").unlink()
    (git_repo.root / "src" / "retyped").unlink()
    git_repo.write("src/retyped", "now a plain file\n")
    patch = git_repo.save_patch(tmp_path / "links.diff")
    files = {f.change.path: f for f in classify_changes(parse_patch(patch), rules)}
    assert (files["src/gone"].change.status, files["src/gone"].bucket) == ("deleted", "ci")
    assert (files["src/retyped"].change.status, files["src/retyped"].bucket) == ("type_changed", "ci")
    assert all("symlink" in f.tags for f in files.values())
