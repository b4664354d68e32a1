"""`BASE..HEAD` resolved once per command (revrange.py): what every reader of the pull request's commits is handed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.classify import load_rules
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.cli import main
from gatekeeper.errors import UsageError
from gatekeeper.revrange import RangeError, parse_range, resolve_range
from gatekeeper.treecheck import merge_differences, tree_differences


def _pull_request(tmp_path: Path) -> tuple[GitRepo, str, str]:
    repo = GitRepo(tmp_path / "r")
    repo.write("src/app.py", "print(1)\n")
    base = repo.commit("base")
    repo.git("checkout", "-q", "-b", "pr")
    repo.write("src/app.py", "print(2)\n")
    return repo, base, repo.commit("change")


@each_case("text", ["main", "main...pr", "..pr", "main..", "-x..pr", "main..--output=x", "a b..c"])
def test_parse_range_refuses_anything_but_base_dot_dot_head(text: str) -> None:
    with pytest.raises(UsageError, match="--tree"):
        parse_range(text)


def test_parse_range() -> None:
    assert parse_range("origin/main..HEAD") == ("origin/main", "HEAD")
    assert parse_range("0123abc..feature/x") == ("0123abc", "feature/x")


def test_names_commits_merge_base_and_work_tree(tmp_path: Path) -> None:
    repo, base, head = _pull_request(tmp_path)
    (repo.root / "sub").mkdir()
    revs = resolve_range("main..pr", repo.root / "sub")
    assert (revs.text, revs.base, revs.head, revs.repo) == ("main..pr", "main", "pr", repo.root / "sub")
    assert (revs.base_commit, revs.head_commit, revs.merge_bases, revs.merge_base) == (base, head, (base,), base)
    assert (revs.top, revs.prefix) == (repo.root.resolve(), "sub/")
    assert revs.git_dir == str((repo.root / ".git").resolve())
    assert revs.objects_dir == str((repo.root / ".git" / "objects").resolve())


@each_case("text", ["-x..pr", "main..--output=x", "main..pr\0", "ma in..pr", "main..pr\n"])
def test_a_name_git_could_read_as_an_option_is_refused_before_git_runs(tmp_path: Path, text: str) -> None:
    # No repository at all: the refusal comes before any git process could be told anything.
    with pytest.raises(UsageError, match="not a revision"):
        resolve_range(text, tmp_path / "none")


def test_a_branch_that_moves_after_resolution_is_not_read(tmp_path: Path) -> None:
    # One resolution is one answer: a push during the gate does not give one check the old HEAD, another the new.
    repo, base, head = _pull_request(tmp_path)
    revs = resolve_range("main..pr", repo.root)
    patch = tmp_path / "change.diff"
    patch.write_bytes(repo.git("diff", "--binary", "main", "pr"))
    repo.write(".github/workflows/ci.yml", "on: push\n")
    moved = repo.commit("pushed while the gate ran")
    repo.git("update-ref", "refs/heads/main", moved)  # BASE moves too: HEAD would no longer hold it
    with TreeContext(revs, load_rules(POLICY_DIR)) as context:
        assert (context.base_commit, context.head_commit, context.old_commit) == (base, head, base)
        assert [change.path for change in context.changes()] == ["src/app.py"]
    assert tree_differences(revs, patch) == [] and merge_differences(revs) == []


def test_bare_repository_resolves_without_a_work_tree(tmp_path: Path) -> None:
    repo, base, head = _pull_request(tmp_path)
    bare = tmp_path / "bare.git"
    repo.git("clone", "-q", "--bare", str(repo.root), str(bare))
    revs = resolve_range("main..pr", bare)
    assert (revs.base_commit, revs.head_commit, revs.top, revs.prefix) == (base, head, None, "")
    with pytest.raises(RangeError, match="unknown revision 'nope'"):
        resolve_range("main..nope", bare)


def test_gate_in_a_bare_repository_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = _pull_request(tmp_path)
    bare = tmp_path / "bare.git"
    repo.git("clone", "-q", "--bare", str(repo.root), str(bare))
    assert main(["gate", "--tree", "main..pr", "--repo", str(bare), "--policy", str(POLICY_DIR)]) == 2
    assert "not inside a git work tree" in capsys.readouterr().err


def test_merge_bases_are_git_merge_base_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A near ancestor is read from the commit objects, never `git merge-base`; every answer is what
    `git merge-base --all` gives, whichever way it was found (criss-cross, unrelated, far and shallow included)."""
    import gatekeeper.revrange as revrange

    repo = GitRepo(tmp_path / "r")
    repo.write("f", "0\n")
    names = {"root": repo.commit("root")}
    for step in range(1, 5):
        repo.write("f", f"{step}\n")
        names[f"main{step}"] = repo.commit(f"main {step}")
    repo.git("checkout", "-q", "-b", "side", names["main1"])
    repo.write("g", "side\n")
    names["side"] = repo.commit("side")
    repo.git("merge", "-q", "--no-ff", "-m", "merge", "main", "-X", "theirs")
    names["merged"] = repo.head()
    repo.git("checkout", "-q", "--orphan", "alone")
    names["alone"] = repo.commit("unrelated")
    asked: list[list[str]] = []
    real = revrange._git
    monkeypatch.setattr(revrange, "_git", lambda r, e, args: (asked.append(args), real(r, e, args))[1])
    for base in names.values():
        for head in names.values():
            before = len(asked)
            got = resolve_range(f"{base}..{head}", repo.root).merge_bases
            done = subprocess.run(["git", "merge-base", "--all", base, head], cwd=repo.root, capture_output=True)
            assert sorted(got) == sorted(done.stdout.decode().split()), (base, head)
            asked_git = any(a[0] == "merge-base" for a in asked[before:])
            assert asked_git == (len(got) != 1 or got[0] not in (base, head)), (base, head)
    monkeypatch.setattr(revrange, "ANCESTRY_STEPS", 1)  # too short a walk: git is asked, same answer
    assert resolve_range(f"{names['root']}..{names['merged']}", repo.root).merge_bases == (names["root"],)
    assert asked[-1][0] == "merge-base"
    monkeypatch.setattr(revrange, "ANCESTRY_STEPS", 64)
    (repo.root / ".git" / "shallow").write_text(names["main2"] + "\n")  # git hides main2's parents now
    assert resolve_range(f"{names['root']}..{names['main4']}", repo.root).merge_bases == ()
    assert asked[-1][0] == "merge-base"
