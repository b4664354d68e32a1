"""Versions are not honour-system: `gatekeeper test --since REV`, and the bundle's uncommitted changes recorded."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from bundlecopy import bundle_copy, edit
from conftest import POLICY_DIR
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.cli import main
from gatekeeper.policy.bundle import load_bundle

# --- versions are not honour-system -----------------------------------------------------------------


def _bundle_repo(git_repo: GitRepo) -> Path:
    shutil.copytree(POLICY_DIR, git_repo.root / "policies", ignore=shutil.ignore_patterns("__pycache__"))
    git_repo.commit()
    return git_repo.root / "policies"


def _set_version(policy: Path, version: str) -> None:
    text = policy.read_text()
    policy.write_text(re.sub(r"(#   version: )\S+", rf"\g<1>{version}", text, count=1))


def _versions(root: Path, since: str) -> dict[str, tuple[str, str]]:
    from gatekeeper.testing.versions import check_versions

    return {r.name: (r.status, r.message) for r in check_versions(load_bundle(root), since)}


def test_since_fails_a_changed_policy_without_a_bump_and_passes_with_one(git_repo: GitRepo) -> None:
    root = _bundle_repo(git_repo)
    policy = root / "size" / "policy.rego"
    edit(policy, "max_files := lib.param", "max_files := lib.param")  # same bytes: nothing to bump
    edit(root / "size" / "policy_test.rego", "import rego.v1", "import rego.v1\n")  # a test change needs none
    assert {status for status, _ in _versions(root, "HEAD").values()} == {"pass"}
    edit(policy, '"max_files"], 100)', '"max_files"], 101)')
    status, message = _versions(root, "HEAD")["version size"]
    assert status == "fail" and "policy.rego changed" in message and "patch bump" in message
    old = re.search(r"#   version: (\d+)\.(\d+)\.(\d+)", policy.read_text())
    assert old is not None
    _set_version(policy, f"{old.group(1)}.{old.group(2)}.{int(old.group(3)) + 1}")
    assert _versions(root, "HEAD")["version size"][0] == "pass"


def test_since_needs_a_minor_bump_for_a_new_rule_id_and_a_major_for_a_removed_one(git_repo: GitRepo) -> None:
    root = _bundle_repo(git_repo)
    policy = root / "size" / "policy.rego"
    text = policy.read_text()
    old = re.search(r"#   version: (\d+)\.(\d+)\.(\d+)", text)
    assert old is not None
    major, minor, patch = int(old.group(1)), int(old.group(2)), int(old.group(3))
    policy.write_text(text.replace("#     - size.files", "#     - size.files\n#     - size.new", 1))
    _set_version(policy, f"{major}.{minor}.{patch + 1}")
    status, message = _versions(root, "HEAD")["version size"]
    assert status == "fail" and "size.new" in message and "minor bump" in message
    _set_version(policy, f"{major}.{minor + 1}.0")
    assert _versions(root, "HEAD")["version size"][0] == "pass"
    policy.write_text(text.replace("#     - size.files\n", "", 1))
    _set_version(policy, f"{major}.{minor + 1}.0")
    status, message = _versions(root, "HEAD")["version size"]
    assert status == "fail" and "removed" in message and "major bump" in message


@each_case("rev", ["--output=/tmp/x", "no-such-rev", ""])
def test_since_refuses_what_is_not_a_revision(git_repo: GitRepo, rev: str) -> None:
    from gatekeeper.errors import UsageError

    root = _bundle_repo(git_repo)
    with pytest.raises(UsageError):
        _versions(root, rev)


def test_the_decision_says_when_the_bundle_had_uncommitted_changes(git_repo: GitRepo, tmp_path: Path) -> None:
    root = _bundle_repo(git_repo)
    clean = load_bundle(root).describe()
    assert clean["uncommitted"] is False and clean["commit"] == git_repo.git("rev-parse", "HEAD").decode().strip()
    edit(root / "size" / "policy.rego", '"max_files"], 100)', '"max_files"], 101)')
    dirty = load_bundle(root).describe()
    assert dirty["uncommitted"] is True and dirty["commit"] == clean["commit"] and dirty["digest"] != clean["digest"]
    (root / "size" / "policy.rego").write_text((POLICY_DIR / "size" / "policy.rego").read_text())
    (root / "size" / "notes.txt").write_text("an untracked file counts too\n")
    assert load_bundle(root).describe()["uncommitted"] is True
    assert load_bundle(bundle_copy(tmp_path)).describe()["uncommitted"] is None  # not in a repository


def test_audit_show_prints_that_the_bundle_had_uncommitted_changes(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from gatekeeper.audit.log import append_decision

    log = tmp_path / "decisions.jsonl"
    base = {"outcome": "allow", "reasons": [], "policies": [{"name": "core", "version": "1.0.0"}],
            "packet": {"run_id": "run-1", "diff_sha256": "0" * 64, "digest": "p" * 64}, "input_digest": "i" * 64,
            "summary": {"files": 1, "additions": 1, "deletions": 0, "buckets": {}}, "dry_run": False,
            "tool": {"name": "gatekeeper", "version": "0.1.0"}, "decided_at": "2026-11-29T12:00:00Z"}
    append_decision(log, {**base, "bundle": {"name": "d", "revision": "r1", "commit": "c" * 40,
                                             "uncommitted": True, "digest": "e" * 64}})
    append_decision(log, {**base, "bundle": {"name": "d", "revision": "r1", "commit": "c" * 40,
                                             "uncommitted": False, "digest": "f" * 64}})
    assert main(["audit", "show", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert sum("uncommitted" in line for line in out) == 1 and any("eeeeeeeeeeee" in line for line in out)


def test_old_sources_are_the_blobs_git_show_prints_one_batch_for_the_bundle(git_repo: GitRepo) -> None:
    """The old modules come from one `git cat-file --batch` (not a `git show` each): the same bytes `git show REV:path`
    prints for every file, whatever its name (spaces, a colon, non-ASCII, a leading dash); a newline in the name goes
    to `git show` itself; a symlink is read where it resolves (as before); no text for a folder, a path missing at REV
    or one outside the repository."""
    import subprocess

    from gatekeeper.catfile import CatFile
    from gatekeeper.testing.versions import _old_sources

    names = ["p/policy.rego", "p/two words.rego", "p/a:b.rego", "p/d\u00e9j\u00e0.rego", "p/-dash.rego", "p/nl\nx.rego"]
    for number, name in enumerate(names):
        git_repo.write(name, f"package p{number}\n# {name!r}\n\xff".encode("utf-8", "surrogateescape") + b"\xfe\n")
    git_repo.symlink("p/link.rego", "policy.rego")
    git_repo.write("p/folder/x.rego", "package x\n")
    git_repo.commit()
    root = git_repo.root
    keys = [str(root / name) for name in [*names, "p/link.rego", "p/folder", "p/absent.rego"]] + ["/elsewhere.rego"]
    calls: list[list[str]] = []
    real_run = subprocess.run

    def counted(argv: list[str], *args: object, **kwargs: object) -> object:
        calls.append(argv)
        return real_run(argv, *args, **kwargs)  # type: ignore[call-overload]

    objects = CatFile(root, {}, shareable=False)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(subprocess, "run", counted)
            old = _old_sources(keys, "HEAD", root, objects)
    finally:
        objects.close()
    for name, shown_name in [*zip(names, names, strict=True), ("p/link.rego", "p/policy.rego")]:  # a link: resolved
        shown = real_run(["git", "show", f"HEAD:{shown_name}"], cwd=root, capture_output=True, check=True).stdout
        assert old[str(root / name)] == shown.decode("utf-8", "surrogateescape"), name
    assert [old[str(root / name)] for name in ("p/folder", "p/absent.rego")] == [None, None]
    assert old["/elsewhere.rego"] is None
    assert [argv[1:] for argv in calls] == [["show", "HEAD:p/nl\nx.rego"]]  # only the newline name: one process
