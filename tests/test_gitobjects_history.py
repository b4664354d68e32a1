"""What the gate reads of a repository's history is its commits as written: not what replace refs or a graft
file in the checkout's `.git` make git show (`scrubbed_git_env`)."""

from __future__ import annotations

from pathlib import Path

from gitrepo import GitRepo

from gatekeeper.gitobjects import GitObjects
from gatekeeper.revrange import resolve_range


def _history(tmp_path: Path) -> tuple[GitRepo, str, str, str]:
    """main: A; the change: B (a workflow edit), then C (a source edit)."""
    repo = GitRepo(tmp_path / "r")
    repo.write("src/app.py", "print(1)\n")
    repo.write(".github/workflows/ci.yml", "on: push\n")
    a = repo.commit("A")
    repo.write(".github/workflows/ci.yml", "on: push\njobs: {}\n")
    b = repo.commit("B")
    repo.write("src/app.py", "print(2)\n")
    c = repo.commit("C")
    return repo, a, b, c


def test_a_graft_file_does_not_hide_a_commit(tmp_path: Path) -> None:
    repo, a, b, c = _history(tmp_path)
    (repo.root / ".git" / "info").mkdir(exist_ok=True)
    (repo.root / ".git" / "info" / "grafts").write_text(f"{c} {a}\n")  # C's parent "is" A: B disappears
    # git itself now says C made the workflow edit (against its grafted parent A)
    assert repo.git("log", "-1", "--format=%H", c, "--", ".github/workflows/ci.yml").decode().strip() == c
    with GitObjects(repo.root) as objects:
        assert objects.last_change(c, ".github/workflows/ci.yml") == b
    assert resolve_range(f"{b}..{c}", repo.root).merge_bases == (b,)  # the merge base as written, too


def test_replace_refs_do_not_swap_a_commit(tmp_path: Path) -> None:
    repo, a, b, c = _history(tmp_path)
    repo.git("replace", b, a)  # B "is" A: its workflow edit disappears
    assert repo.git("rev-parse", f"{b}^{{tree}}") == repo.git("rev-parse", f"{a}^{{tree}}")
    with GitObjects(repo.root) as objects:
        assert objects.tree(b)[".github/workflows/ci.yml"].oid != objects.tree(a)[".github/workflows/ci.yml"].oid
        assert objects.last_change(c, ".github/workflows/ci.yml") == b
