"""Red team 32: the merged copies come from one `git merge-tree` of the whole change (mergedcopy.py).

Red team 28 read a file BASE and the change both changed as `git merge-file` writes it, one process a file. Now the
merge of HEAD into BASE is written once and the merged blobs are read from its tree. These variants check what the
per-file merge could not get wrong and a tree lookup could: a manifest only the merge holds among hundreds of files
both sides changed, paths git stores with bytes that are not UTF-8, quotes, spaces and a newline, a merge with
conflicts, a merge git resolves to BASE's copy, and that nothing is written into the repository's objects."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main

TAIL = "\n\n\n\n\n"
POD = "metadata:\n  name: web\n" + TAIL + "spec:\n  containers:\n    - name: web\n      image: x/y:1\n"
NAMES = ["app/web.yaml", "app/we b.yaml", 'app/"q".yaml', "app/caf\u00e9.yaml", "app/line\nbreak.yaml",
         os.fsdecode(b"app/raw\xff\xfe.yaml")]


def _sides(root: Path, files: dict[str, tuple[str, str, str]]) -> tuple[GitRepo, str, str]:
    """files: {path: (merge base, BASE's copy, HEAD's copy)}."""
    repo = GitRepo(root / "repo")
    repo.write("README.md", "app\n")
    for path, (start, _, _) in files.items():
        repo.write(os.fsencode(path), start)
    repo.commit("start")
    for path, (_, _, head) in files.items():
        repo.write(os.fsencode(path), head)
    head_commit = repo.commit("branch")
    repo.git("checkout", "-q", "-b", "target", f"{head_commit}~1")
    for path, (_, base, _) in files.items():
        repo.write(os.fsencode(path), base)
    base_commit = repo.commit("base")
    return repo, base_commit, head_commit


def _halves(path: str) -> tuple[str, str, str]:
    first, rest = POD.split("\n", 1)
    lines = POD.splitlines(keepends=True)
    return POD, first + "\napiVersion: v1\n" + rest, "".join(lines[:-1]) + "kind: Pod\n" + lines[-1]


def _classify(repo: GitRepo, base: str, head: str, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    capsys.readouterr()
    assert main(["classify", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json"]) == 0
    return {f["path"]: f["bucket"] for f in json.loads(capsys.readouterr().out)["files"]}


def _objects(repo: GitRepo) -> int:
    return sum(len(files) for _, _, files in os.walk(repo.root / ".git" / "objects"))


@pytest.mark.parametrize("name", NAMES)
def test_a_manifest_only_the_merge_holds_among_many_files(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          name: str) -> None:
    files = {f"conf/c{i}.yaml": (f"a: {i}\n" + TAIL + "z: 0\n", f"a: {i}\nb: 1\n" + TAIL + "z: 0\n",
                                 f"a: {i}\n" + TAIL + "y: 2\nz: 0\n") for i in range(300)}
    files[name] = _halves(name)
    repo, base, head = _sides(tmp_path, files)
    stored = _objects(repo)
    buckets = _classify(repo, base, head, capsys)
    assert buckets[name] == "iac", buckets[name]
    assert "iac" not in {buckets[f"conf/c{i}.yaml"] for i in range(300)}
    assert _objects(repo) == stored  # the merge's blobs and trees went to a scratch folder


def test_a_conflicted_merge_is_read_with_both_sides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Both sides rewrite the same line, BASE to `apiVersion:`, the branch to `kind:`: the merge keeps both (with
    # markers), neither copy holds both.
    start = "metadata:\n  name: web\nnote: start\nspec:\n  containers: []\n"
    files = {"app/web.yaml": (start, start.replace("note: start", "apiVersion: v1"),
                              start.replace("note: start", "kind: Pod"))}
    repo, base, head = _sides(tmp_path, files)
    assert _classify(repo, base, head, capsys)["app/web.yaml"] == "iac"


def test_an_unrelated_edit_on_both_sides_stays_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {f"notes/n{i}.yaml": (f"a: {i}\n" + TAIL + "z: 0\n", f"a: {i}\nb: 1\n" + TAIL + "z: 0\n",
                                  f"a: {i}\n" + TAIL + "y: 2\nz: 0\n") for i in range(50)}
    repo, base, head = _sides(tmp_path, files)
    assert "iac" not in set(_classify(repo, base, head, capsys).values())
