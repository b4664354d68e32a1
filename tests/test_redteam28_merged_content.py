"""Red team 28: content only the merge holds.

A pull request branched before BASE changed a file is judged on HEAD's copy and BASE's copy of it. git merges the
two: when each side adds part of a manifest (BASE an `apiVersion:` line, the branch a `kind:` line), neither copy
is one, the merged file is, and `gate --tree` allowed it (the merge check compares paths, not content). BASE's half
can come from an earlier change that was `src` on its own. The merged content of a file both sides changed is now
read too (git merge-file of the merge base's, BASE's and HEAD's blobs). Each variant checks that git's own merge
(`git merge-tree`) writes the manifest, and that each copy alone is no manifest. Variants: Kubernetes either way
round, an Ansible play, an IAM policy; an unrelated edit on both sides stays allowed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main

TAIL = "\n\n\n\n\n"  # lines between the two halves keep git's merge clean
POD = "metadata:\n  name: web\n" + TAIL + "spec:\n  containers:\n    - name: web\n      image: x/y:1\n"
# name: (merge base, what BASE adds after its first line, what HEAD adds before its last line, path)
CASES = {
    "k8s-kind-in-branch": (POD, "apiVersion: v1\n", "kind: Pod\n", "app/web.yaml"),
    "k8s-kind-in-base": (POD, "kind: Pod\n", "apiVersion: v1\n", "app/web.yaml"),
    "ansible-play": ("- name: site\n  become: true\n" + TAIL + "  vars:\n    a: 1\n",
                     "  tasks:\n    - command: /bin/true\n", "  hosts: all\n", "app/jobs.yml"),
    "iam-policy": ('{\n  "Id": "p",\n' + TAIL.replace("\n", "\n  ") + '"Sid2": "x"\n}\n',
                   '  "Version": "2012-10-17",\n', '  "Statement": [{"Effect": "Allow", "Action": "*"}],\n',
                   "app/policy.json"),
}


def _sides(tmp_path: Path, middle: str, base_adds: str, head_adds: str, path: str) -> tuple[GitRepo, str, str]:
    """merge base: `middle`; BASE: its first line, then `base_adds`; HEAD: `head_adds` before its last line."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    repo.write(path, middle)
    repo.commit("start")
    repo.branch("pr")
    first, rest = middle.split("\n", 1)
    lines = middle.splitlines(keepends=True)
    repo.write(path, "".join(lines[:-1]) + head_adds + lines[-1])
    head = repo.commit("pr half")
    repo.git("checkout", "-q", "-b", "target", f"{head}~1")
    repo.write(path, first + "\n" + base_adds + rest)
    base = repo.commit("base half")
    return repo, base, head


def _gate(repo: GitRepo, base: str, head: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def _alone(repo: GitRepo, commit: str, path: str, capsys: pytest.CaptureFixture[str]) -> str:
    """The bucket of `path` as added on its own at `commit`'s content (no merge)."""
    capsys.readouterr()
    assert main(["classify", "--tree", f"{commit}~1..{commit}", "--repo", str(repo.root), "--format", "json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    return str(files[path]["bucket"])


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_manifest_only_the_merge_holds_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      case: str) -> None:
    middle, base_adds, head_adds, path = CASES[case]
    repo, base, head = _sides(tmp_path, middle, base_adds, head_adds, path)
    merged = repo.git("merge-tree", "--write-tree", base, head).split(b"\n")[0].decode()
    text = repo.git("cat-file", "blob", f"{merged}:{path}").decode()
    assert base_adds in text and head_adds in text and "<<<<<<<" not in text  # git merges both halves, cleanly
    assert _alone(repo, base, path, capsys) == "src" and _alone(repo, head, path, capsys) == "src"
    code, decision = _gate(repo, base, head, capsys)
    assert code == 3, decision
    assert path in {p for reason in decision["reasons"] for p in reason.get("paths", ())}


def test_an_unrelated_edit_on_both_sides_stays_allowed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, head = _sides(tmp_path, "alpha\n" + TAIL + "omega\n", "beta\n", "gamma\n", "app/notes.txt")
    code, decision = _gate(repo, base, head, capsys)
    assert code == 0, decision
