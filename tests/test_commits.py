"""`gatekeeper gate --tree BASE..HEAD` without a packet: the pull request judged from its commits alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.cli import main
from gatekeeper.commits import commits_patch
from gatekeeper.revrange import RangeError, resolve_range

ALLOW, DENY, ERROR, REVIEW = 0, 1, 2, 3


def pull_request(repo: GitRepo, files: dict[str, str | bytes]) -> None:
    """main: a README and a source file; branch pr: `files` on top, committed."""
    repo.write("README.md", "base\n")
    repo.write("src/app.py", "x = 1\n")
    repo.commit("base")
    repo.branch("pr")
    for path, data in files.items():
        repo.write(path, data)
    repo.commit("change")


def gate(capsys: pytest.CaptureFixture[str], repo: GitRepo, *args: str) -> tuple[int, dict[str, Any], str]:
    capsys.readouterr()
    code = main(["gate", "--repo", str(repo.root), "--policy", str(POLICY_DIR), "--format", "json", *args])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, (json.loads(out.out) if out.out.strip() else {}), out.err


def test_a_ci_change_without_a_packet_goes_to_review(git_repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    pull_request(git_repo, {".github/workflows/ci.yml": "on: push\njobs: {}\n"})
    code, decision, _ = gate(capsys, git_repo, "--tree", "main..pr")
    assert code == REVIEW and decision["outcome"] == "review"
    assert [r["rule"] for r in decision["reasons"]] == ["core.ci"]
    head = git_repo.git("rev-parse", "pr").decode().strip()
    assert decision["packet"]["run_id"] == f"pr-{head}"
    # The decision is bound to exactly the change git shows for the pull request.
    expected = git_repo.git("diff", "--binary", "--full-index", "-M", "main...pr")
    import hashlib

    assert decision["packet"]["diff_sha256"] == hashlib.sha256(expected).hexdigest()


def test_a_source_change_without_a_packet_is_allowed(git_repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    pull_request(git_repo, {"src/app.py": "x = 2\n", "src/new.py": "y = 1\n"})
    code, decision, _ = gate(capsys, git_repo, "--tree", "main..pr")
    assert (code, decision["outcome"], decision["reasons"]) == (ALLOW, "allow", [])
    assert decision["summary"]["files"] == 2


def test_runner_claims_are_absent_and_the_policies_say_unverified(
    git_repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    pull_request(git_repo, {"src/app.py": "x = 2\n"})
    code, decision, _ = gate(capsys, git_repo, "--tree", "main..pr", "--enable", "sandbox", "--enable", "provenance")
    assert code == REVIEW
    found = {r["rule"]: r["msg"] for r in decision["reasons"]}
    assert {"sandbox.unverified", "provenance.unverified", "sandbox.network"} <= set(found)
    assert "no packet" in found["sandbox.unverified"]


def test_the_base_moving_on_does_not_count_as_the_pull_requests_change(
    git_repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    pull_request(git_repo, {"src/app.py": "x = 2\n"})
    git_repo.git("checkout", "-q", "main")
    git_repo.write(".github/workflows/ci.yml", "on: push\n")  # on main only: not part of the pull request
    git_repo.commit("main moves on")
    code, decision, _ = gate(capsys, git_repo, "--tree", "main..pr")
    assert (code, decision["summary"]["files"]) == (ALLOW, 1)


@pytest.mark.parametrize("args", [[], ["--patch", "x.diff"], ["--repo", "."]])
def test_no_packet_and_no_tree_is_a_usage_error(
    args: list[str], git_repo: GitRepo, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    capsys.readouterr()
    code = main(["gate", *args])
    err = capsys.readouterr().err
    assert code == ERROR and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_packet_without_its_patch_is_a_usage_error(
    git_repo: GitRepo, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pull_request(git_repo, {"src/app.py": "x = 2\n"})
    packet = tmp_path / "packet.json"
    packet.write_text("{}")
    code, _, err = gate(capsys, git_repo, str(packet), "--tree", "main..pr")
    assert code == ERROR and "--patch" in err


@pytest.mark.parametrize("tree", ["main..nope", "nope..pr", "--output=x..pr", "main..pr --output=/tmp/x"])
def test_unknown_or_hostile_revisions_cannot_decide(
    tree: str, git_repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    pull_request(git_repo, {"src/app.py": "x = 2\n"})
    code, decision, err = gate(capsys, git_repo, "--tree", tree)
    assert (code, decision) == (ERROR, {}) and err.count("\n") == 1


def test_criss_cross_history_cannot_decide(git_repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    pull_request(git_repo, {"src/a.py": "a\n"})
    git_repo.git("checkout", "-q", "main")
    git_repo.write("src/b.py", "b\n")
    git_repo.commit("b")
    main_b = git_repo.git("rev-parse", "HEAD").decode().strip()
    git_repo.git("merge", "-q", "--no-edit", "pr")
    git_repo.git("checkout", "-q", "pr")
    git_repo.git("merge", "-q", "--no-edit", main_b)
    git_repo.write("src/c.py", "c\n")
    git_repo.commit("c")
    code, _, err = gate(capsys, git_repo, "--tree", "main..pr")
    assert code == ERROR and "merge bases" in err


# Settings a clone's config may hold (CI checks out the base's config, but a self-hosted runner may keep
# anything): none of them may change the patch the gate judges, run a program, or hide a change.
HOSTILE_CONFIG = [
    ("diff.external", "sh -c 'echo owned > {marker}'"),
    ("diff.noprefix", "true"),
    ("diff.mnemonicPrefix", "true"),
    ("diff.relative", "true"),
    ("diff.renames", "false"),
    ("diff.ignoreSubmodules", "all"),
    ("diff.submodule", "log"),
    ("diff.srcPrefix", "x/"),
    ("diff.dstPrefix", "y/"),
    ("color.diff", "always"),
    ("color.ui", "always"),
    ("diff.txt.textconv", "sh -c 'echo owned > {marker}; cat'"),
    ("core.quotePath", "false"),
]


@each_case(("key", "value"), HOSTILE_CONFIG)
def test_repository_config_cannot_change_the_derived_patch(
    key: str, value: str, git_repo: GitRepo, tmp_path: Path
) -> None:
    pull_request(git_repo, {
        "src/app.py": "x = 2\n", "docs/a.txt": "text\n", "bin/blob.dat": bytes(range(256)),
        "src/caf\u00e9 n\u00e4me.py": "z = 1\n", "src/latin1.py": b"# \xe9\xff\n",
    })
    clean = _derived(git_repo)
    marker = tmp_path / "marker"
    git_repo.write(".gitattributes", "*.txt diff=txt\n")
    git_repo.git("add", ".gitattributes")
    git_repo.git("commit", "-q", "--amend", "--no-edit")
    clean = _derived(git_repo)
    git_repo.git("config", key, value.format(marker=marker))
    assert _derived(git_repo) == clean
    assert not marker.exists()


def _derived(repo: GitRepo) -> bytes:
    with commits_patch(resolve_range("main..pr", repo.root)) as patch:
        data = patch.read_bytes()
        assert patch.stat().st_mode & 0o077 == 0 or patch.parent.stat().st_mode & 0o077 == 0
        folder = patch.parent
    assert not folder.exists()  # the private copy is gone
    return data


def test_the_derived_patch_is_what_git_shows(git_repo: GitRepo) -> None:
    pull_request(git_repo, {"bin/blob.dat": bytes(range(256)) * 4, "src/latin1.py": b"# \xe9\xff\n",
                            "src/app.py": "x = 2\n"})
    git_repo.move("README.md", "docs/README.md")
    git_repo.commit("rename")
    expected = git_repo.git("diff", "--binary", "--full-index", "--no-color", "-M", "main...pr")
    assert _derived(git_repo) == expected


def test_an_empty_change_is_an_empty_patch(git_repo: GitRepo) -> None:
    pull_request(git_repo, {})
    assert _derived(git_repo) == b""


def test_unknown_revision_raises_range_error(git_repo: GitRepo) -> None:
    pull_request(git_repo, {"src/app.py": "x = 2\n"})
    with pytest.raises(RangeError, match="unknown revision"):
        resolve_range("main..missing", git_repo.root)


def test_packet_less_sarif_is_valid_and_locates_runner_findings_at_readme(
    git_repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_reports_sarif import VALIDATOR, github_problems

    pull_request(git_repo, {".github/workflows/ci.yml": "on: push\n"})
    capsys.readouterr()
    code = main(["gate", "--repo", str(git_repo.root), "--policy", str(POLICY_DIR), "--format", "sarif",
                 "--tree", "main..pr", "--enable", "sandbox", "--enable", "provenance"])
    log = json.loads(capsys.readouterr().out)
    assert code == REVIEW
    assert not list(VALIDATOR.iter_errors(log)) and not github_problems(log)
    results = log["runs"][0]["results"]
    uris = {r["ruleId"]: r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris["core.ci"] == ".github/workflows/ci.yml" and uris["sandbox.unverified"] == "README.md"


def test_a_log_in_a_missing_folder_is_refused_unless_log_init(
    git_repo: GitRepo, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pull_request(git_repo, {"src/app.py": "x = 2\n"})
    log = tmp_path / "audit" / "decisions.jsonl"
    code, decision, err = gate(capsys, git_repo, "--tree", "main..pr", "--log", str(log))
    assert (code, decision) == (ERROR, {}) and "folder does not exist" in err and "--log-init" in err
    assert not log.parent.exists()
    code, decision, _ = gate(capsys, git_repo, "--tree", "main..pr", "--log", str(log), "--log-init")
    assert code == ALLOW and len(log.read_text().splitlines()) == 1
    code, _, _ = gate(capsys, git_repo, "--tree", "main..pr", "--log", str(log))  # the folder exists now
    assert code == ALLOW and len(log.read_text().splitlines()) == 2
