"""`--tree BASE..HEAD`: the patch the gate judges must be the change the pull request's commits make.

Real repositories: a `main` branch, a `pr` branch made the way an agent's pull request is made (the
patch's change committed, then the patch and packet under .agent/), and the ways it can lie.
"""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo

from gatekeeper.cli import main
from gatekeeper.errors import ExitCode, InputFileError, UsageError
from gatekeeper.gate_command import GateOptions, run_gate
from gatekeeper.revrange import RangeError, resolve_range
from gatekeeper.treecheck import MAX_SHOWN, tree_differences

WORKFLOW = ".github/workflows/ci.yml"


class PullRequest:
    """`main` with a base commit; `pr` holding the agent's change, then .agent/patch.diff and packet.json."""

    def __init__(self, repo: GitRepo) -> None:
        self.repo = repo
        repo.write("src/app.py", "print('hello')\n")
        repo.write(WORKFLOW, "on: push\njobs: {}\n")
        repo.write("README.md", "base\n")
        repo.commit("base")
        repo.branch("pr")
        self.agent = repo.root / ".agent"
        self.patch, self.packet = self.agent / "patch.diff", self.agent / "packet.json"

    def change(self, files: dict[str, str]) -> PullRequest:
        """Commit `files` as the agent's change, then its patch and packet (as the agent's job does)."""
        for path, text in files.items():
            self.repo.write(path, text)
        data = self.repo.staged_patch()
        self.repo.commit("agent change")
        self.agent.mkdir(exist_ok=True)
        self.patch.write_bytes(data)
        assert main(["packet", str(self.patch), "--out", str(self.packet), "--policy", str(POLICY_DIR)]) == 0
        self.repo.commit("agent patch and packet")
        return self

    def sneak(self, files: dict[str, str]) -> None:
        """One more commit on the pull request that the patch does not show."""
        for path, text in files.items():
            self.repo.write(path, text)
        self.repo.commit("unrelated")

    def differences(self, base: str = "main", head: str = "pr") -> list[str]:
        revs = resolve_range(f"{base}..{head}", self.repo.root)
        return tree_differences(revs, self.patch, transport=(self.patch, self.packet))

    def gate(self, *extra: str, tree: str = "main..pr") -> list[str]:
        return ["gate", ".agent/packet.json", "--patch", ".agent/patch.diff",
                "--policy", str(POLICY_DIR), "--tree", tree, *extra]


@pytest.fixture
def pr(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> PullRequest:
    monkeypatch.chdir(git_repo.root)
    return PullRequest(git_repo)


def _gate(
    pr: PullRequest, capsys: pytest.CaptureFixture[str], *extra: str, tree: str = "main..pr"
) -> tuple[int, str, str]:
    """Run the gate in the pull request's checkout: (exit status, stdout, stderr)."""
    argv = pr.gate(*extra, tree=tree)
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- the library ---------------------------------------------------------------------------------------


def test_patch_equal_to_the_pull_request_has_no_difference(pr: PullRequest) -> None:
    pr.change({"src/app.py": "print('hello, world')\n", "src/new.py": "x = 1\n"})
    assert pr.differences() == []
    assert pr.differences("main", "HEAD") == []


def test_transport_files_count_unless_named(pr: PullRequest) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    found = tree_differences(resolve_range("main..pr", pr.repo.root), pr.patch)
    assert sorted(found) == [f".agent/{name}: in pr, not in main + patch" for name in ("packet.json", "patch.diff")]


def test_an_extra_commit_not_in_the_patch_is_named(pr: PullRequest) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    pr.sneak({WORKFLOW: "on: push\njobs: {evil: {runs-on: x, steps: [{run: curl evil}]}}\n", "new.sh": "x\n"})
    assert pr.differences() == [
        f"{WORKFLOW}: content differs between pr and main + patch",
        "new.sh: in pr, not in main + patch",
    ]


def test_a_file_the_patch_adds_but_the_pull_request_drops(pr: PullRequest) -> None:
    pr.change({"src/new.py": "x = 1\n"})
    pr.repo.git("rm", "-q", "src/new.py")
    pr.repo.commit("drop it again")
    assert pr.differences() == ["src/new.py: in main + patch, not in pr"]


def test_an_empty_patch_is_an_empty_change(pr: PullRequest) -> None:
    pr.change({})
    assert pr.patch.stat().st_size == 0
    assert pr.differences() == []
    pr.sneak({"new.sh": "x\n"})
    assert pr.differences() == ["new.sh: in pr, not in main + patch"]


def test_a_patch_that_does_not_apply_is_a_difference(pr: PullRequest) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    pr.patch.write_bytes(pr.patch.read_bytes().replace(b"-print('hello')", b"-print('other')"))
    [line] = pr.differences()
    assert line.startswith("the patch does not apply to the merge base of main and pr (")
    assert "src/app.py" in line and "patch does not apply" in line


def test_the_base_branch_moving_on_is_no_difference(pr: PullRequest) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    pr.repo.git("checkout", "-q", "main")
    pr.repo.write("README.md", "main moved on\n")
    pr.repo.commit("later on main")
    pr.repo.git("checkout", "-q", "pr")
    # The pull request's change is measured from the merge base, as its "files changed" view is.
    assert pr.differences() == []


def test_reverting_a_base_commit_on_the_pull_request_is_a_difference(pr: PullRequest) -> None:
    pr.repo.git("checkout", "-q", "main")
    pr.repo.write("SECURITY.md", "fixed\n")
    pr.repo.commit("security fix")
    pr.repo.git("checkout", "-q", "pr")
    pr.repo.git("merge", "-q", "--no-edit", "main")
    pr.repo.git("rm", "-q", "SECURITY.md")
    pr.repo.commit("quietly revert the fix")
    pr.change({"src/app.py": "print(2)\n"})
    assert pr.differences() == ["SECURITY.md: in main + patch, not in pr"]


def test_unrelated_histories_are_a_difference(pr: PullRequest) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    pr.repo.git("checkout", "-q", "--orphan", "other")
    pr.repo.commit("unrelated root")
    assert pr.differences("other", "pr") == ["other and pr have no common ancestor: the patch cannot be compared "
                                             "with the change"]


def test_many_differences_are_bounded_with_a_count(pr: PullRequest) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    pr.sneak({f"extra/{i:03}.txt": "x\n" for i in range(MAX_SHOWN + 7)})
    found = pr.differences()
    assert len(found) == MAX_SHOWN + 1
    assert found[0] == "extra/000.txt: in pr, not in main + patch"
    assert found[-1] == "and 7 more path(s) differ"


def test_working_tree_index_head_and_objects_are_untouched(pr: PullRequest) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    pr.sneak({"new.sh": "x\n"})
    pr.repo.write("README.md", "dirty work tree\n")
    pr.repo.write("staged.txt", "staged\n")
    pr.repo.git("add", "staged.txt")
    git_dir = pr.repo.root / ".git"

    def state() -> tuple[object, ...]:
        objects = sorted(str(p.relative_to(git_dir)) for p in (git_dir / "objects").rglob("*") if p.is_file())
        return (
            pr.repo.git("status", "--porcelain=v1", "-uall"),
            hashlib.sha256((git_dir / "index").read_bytes()).hexdigest(),
            (git_dir / "HEAD").read_bytes(),
            pr.repo.git("show-ref"),
            (pr.repo.root / "README.md").read_bytes(),
            objects,
            sorted(p.name for p in git_dir.iterdir()),
        )

    before = state()
    assert pr.differences() == ["new.sh: in pr, not in main + patch"]
    garbage = pr.repo.root.parent / "garbage.diff"
    garbage.write_bytes(b"garbage\n")
    assert "No valid patches in input" in tree_differences(resolve_range("main..pr", pr.repo.root), garbage)[0]
    assert state() == before


def test_repository_config_cannot_loosen_or_break_the_check(pr: PullRequest) -> None:
    pr.change({"src/app.py": "print(2)   \n"})  # trailing whitespace
    pr.repo.git("config", "apply.whitespace", "error")
    pr.repo.git("config", "core.splitIndex", "true")
    ran = pr.repo.root.parent / "hook-ran"
    pr.repo.write(".git/hooks/post-index-change", f"#!/bin/sh\ntouch '{ran}'\n", mode=0o755)
    assert pr.differences() == []
    assert not ran.exists()
    pr.repo.git("read-tree", "HEAD")  # the hook is real: git runs it when the index is written
    assert ran.exists()
    assert not list((pr.repo.root / ".git").glob("sharedindex.*"))


def test_errors_say_what_and_where(pr: PullRequest, tmp_path: Path) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    with pytest.raises(RangeError, match="unknown revision 'nope'.*fetch-depth: 0"):
        resolve_range("nope..pr", pr.repo.root)
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    with pytest.raises(RangeError, match="not a git repository"):
        resolve_range("main..pr", outside)
    with pytest.raises(RangeError, match="repository folder does not exist"):
        resolve_range("main..pr", tmp_path / "missing")
    with pytest.raises(InputFileError, match="patch"):
        tree_differences(resolve_range("main..pr", pr.repo.root), tmp_path / "missing.diff")


# -- the gate and verify ---------------------------------------------------------------------------------


def test_gate_denies_a_pull_request_whose_commits_are_not_the_patch(
    pr: PullRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    code, _, _ = _gate(pr, capsys, "--format", "json")
    assert code == ExitCode.OK  # the honest pull request
    pr.sneak({WORKFLOW: "on: push\njobs: {evil: {}}\n"})
    argv = pr.gate("--format", "json", tree="main..HEAD")
    capsys.readouterr()
    without = main(argv[: argv.index("--tree")] + ["--format", "json"])
    assert json.loads(capsys.readouterr().out)["outcome"] == "allow"
    assert without == ExitCode.OK  # the hole --tree closes: the patch alone looks harmless
    code, out, _ = _gate(pr, capsys, "--format", "json")
    assert code == ExitCode.FAILED
    decision = json.loads(out)
    assert decision["outcome"] == "deny"
    [finding] = [r for r in decision["reasons"] if r["rule"] == "gatekeeper.tree_mismatch"]
    assert finding["policy"] == "gatekeeper" and finding["level"] == "deny"
    assert WORKFLOW in finding["msg"]


def test_tree_mismatch_cannot_be_switched_off(pr: PullRequest, capsys: pytest.CaptureFixture[str]) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    pr.sneak({"new.sh": "x\n"})
    (pr.repo.root / "gatekeeper.yaml").write_text("disable: [core]\n")
    code, out, _ = _gate(pr, capsys, "--dry-run", "--format", "json")
    assert code == ExitCode.OK  # a dry run reports, it never blocks
    assert json.loads(out)["outcome"] == "deny"


def test_junit_report_fails_the_built_in_case(pr: PullRequest, capsys: pytest.CaptureFixture[str]) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    pr.sneak({"new.sh": "x\n"})
    code, _, _ = _gate(pr, capsys, "--format", "junit", "--output", "report.xml")
    assert code == ExitCode.FAILED
    failures = ET.parse(pr.repo.root / "report.xml").getroot().findall(".//failure")
    assert [f.get("type") for f in failures] == ["deny"]
    assert "gatekeeper.tree_mismatch" in (failures[0].get("message") or "")


@pytest.mark.parametrize(
    ("tree", "message"),
    [("nope..pr", "unknown revision 'nope'"), ("main...pr", "not a revision range"), ("main..-p", "not a revision")],
)
def test_gate_cannot_decide_on_a_bad_range(
    pr: PullRequest, capsys: pytest.CaptureFixture[str], tree: str, message: str
) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    code, out, err = _gate(pr, capsys, tree=tree)
    assert code == ExitCode.ERROR and message in err and "Traceback" not in out + err


def test_verify_with_tree(pr: PullRequest, capsys: pytest.CaptureFixture[str]) -> None:
    pr.change({"src/app.py": "print(2)\n"})
    args = ["verify", ".agent/packet.json", "--patch", ".agent/patch.diff", "--policy", str(POLICY_DIR)]
    assert main([*args, "--tree", "main..pr"]) == ExitCode.OK
    assert "is the change main..pr makes" in capsys.readouterr().out
    pr.sneak({WORKFLOW: "on: push\n"})
    assert main([*args, "--tree", "main..pr"]) == ExitCode.FAILED  # differs: 1
    err = capsys.readouterr().err
    assert f"gatekeeper: verify: tree: {WORKFLOW}: content differs" in err
    assert "the patch is not the change main..pr makes" in err
    assert main(args) == ExitCode.OK  # without --tree, packet and patch still agree


def test_the_tree_checks_error_comes_before_what_the_gate_reads_beside_it(
    pr: PullRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tree check is collected late (the trust file, the signature, the tree context and the patch are read while
    git works), but its error still comes first: here the missing patch (the check's), not the approvals that need a
    trust file (read after it), nor the derivation's failure to read it."""
    pr.change({"src/app.py": "print(2)\n"})
    pr.patch.unlink()
    options = GateOptions(packet=pr.packet, patch=pr.patch, policy_dir=POLICY_DIR, tree="main..pr",
                          approvals=pr.agent / "approvals.json")
    with pytest.raises(InputFileError, match="the patch does not exist"):
        run_gate(options)
    # nor the patch's own reading in decide (`cannot read`), which runs before decide collects the check
    with pytest.raises(InputFileError, match="the patch does not exist"):
        run_gate(GateOptions(packet=pr.packet, patch=pr.patch, policy_dir=POLICY_DIR, tree="main..pr"))
    pr.change({"src/app.py": "print(3)\n"})  # with the check passing, the approvals' error is the one raised
    with pytest.raises(UsageError, match="trusted signers"):
        run_gate(GateOptions(packet=pr.packet, patch=pr.patch, policy_dir=POLICY_DIR, tree="main..pr",
                             approvals=pr.agent / "approvals.json"))


def test_the_patched_index_is_compared_as_git_diff_tree_compares_its_tree(tmp_path: Path) -> None:
    """The check lists `git diff-index --cached -R HEAD` of the patched index: what `git diff-tree` lists between the
    index written as a tree and HEAD (a file turned folder and back, a symlink, a mode, a gitlink, adds, deletes)."""
    from gatekeeper.treecheck import _scratch

    repo = GitRepo(tmp_path / "r")
    for path, text in {"x": "x\n", "d/a.txt": "a\n", "d/b.txt": "b\n", "run.sh": "echo\n", "keep": "k\n"}.items():
        repo.write(path, text)
    base = repo.commit()
    repo.git("checkout", "-q", "-b", "pr")
    (repo.root / "x").unlink()
    repo.write("x/inner.txt", "inner\n")
    repo.write("d/a.txt", "a2\n")
    (repo.root / "d/b.txt").unlink()
    repo.symlink("link", "keep")
    (repo.root / "run.sh").chmod(0o755)
    patch = tmp_path / "p.diff"
    patch.write_bytes(repo.staged_patch("--binary"))
    repo.commit("pr")
    heads = [base, repo.head()]
    repo.write("d/a.txt", "other\n")
    repo.write("new.txt", "n\n")
    (repo.root / "x/inner.txt").unlink()
    (repo.root / "x").rmdir()
    repo.write("x", "a file again\n")
    repo.git("add", "-A")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{base},module")
    tree = repo.git("write-tree").decode().strip()
    heads.append(repo.git("commit-tree", tree, "-p", base, "-m", "o").decode().strip())
    revs = resolve_range(f"{base}..{base}", repo.root)
    for head in heads:
        with _scratch(revs) as git:
            git(["read-tree", base], "read")
            git(["apply", "--cached", "--binary", str(patch)], "apply")
            written = git(["write-tree"], "write")
            want = git(["diff-tree", "-r", "-z", "--no-renames", "--name-status", written, head], "diff")
            got = git(["diff-index", "--cached", "-R", "-z", "--no-renames", "--name-status", head, "--"], "diff")
            assert got == want and (head == heads[1]) == (not want), head
