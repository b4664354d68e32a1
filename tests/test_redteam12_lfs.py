"""Red team 12, `--tree` and patches: a Git LFS pointer in place of a configuration file.

With `*.yaml filter=lfs` in `.gitattributes`, git stores a three-line pointer (`version https://git-lfs.github.com/
spec/v1`, `oid sha256:…`, `size …`) and the file's text goes to the LFS store, which a checkout with LFS (actions/
checkout `lfs: true`, `git lfs pull`, Argo CD with LFS on) writes into the work tree. The gate read the pointer: a
Kubernetes Deployment at a path only its content classifies was `src`, and `gate --tree` said allow while the deploy
applied the stored object. The change holds no byte of that content, so a pointer at a path whose content the gate
reads is `iac.content.lfs-pointer` (reviewed), from the commits and from the patch alike. Variants: paths whose class
comes from content, pointer spellings (the v1 spec, the pre-release `hawser` one, CRLF, extension lines)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main

OID = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393"
POINTERS = {
    "v1": f"version https://git-lfs.github.com/spec/v1\noid sha256:{OID}\nsize 12345\n",
    "hawser": f"version https://hawser.github.com/spec/v1\noid sha256:{OID}\nsize 12345\n",
    "crlf": f"version https://git-lfs.github.com/spec/v1\r\noid sha256:{OID}\r\nsize 12345\r\n",
    "extensions": (f"version https://git-lfs.github.com/spec/v1\next-0-foo sha256:{OID}\noid sha256:{OID}\n"
                   "size 12345\n"),
}
PATHS = ["app/web.yaml", "app/config.json", "app/settings.yml", "scripts/release", "app/hosts.ini"]


def _repo(tmp_path: Path) -> tuple[GitRepo, str, str, dict[str, str]]:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    base = repo.commit("base")
    repo.write(".gitattributes", "* filter=lfs diff=lfs merge=lfs -text\n")
    placed = {}
    for n, (name, pointer) in enumerate(POINTERS.items()):
        for path in PATHS:
            where = f"c{n}/{path}"
            repo.write(where, pointer)
            placed[where] = f"{name} {path}"
    return repo, base, repo.commit("pointers"), placed


@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
def test_a_pointer_in_place_of_configuration_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         tree: bool) -> None:
    repo, base, head, placed = _repo(tmp_path)
    patch, packet = tmp_path / "change.diff", tmp_path / "packet.json"
    patch.write_bytes(repo.git("diff", "--binary", base, head))
    where = ["--tree", f"{base}..{head}", "--repo", str(repo.root)] if tree else []
    assert main(["packet", str(patch), "--out", str(packet)]) == 0
    capsys.readouterr()
    code = main(["gate", str(packet), "--patch", str(patch), "--format", "json", *where])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3, decision["reasons"]
    reviewed = {p for reason in decision["reasons"] for p in reason.get("paths", ())}
    missed = sorted(name for path, name in placed.items() if path not in reviewed)
    assert not missed, missed


def test_the_pointer_is_named_by_its_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, head, _ = _repo(tmp_path)
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        assert main(["classify", "--tree", f"{base}..{head}", "--format", "json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    assert files["c0/app/web.yaml"]["rule"] == "iac.content.lfs-pointer", files["c0/app/web.yaml"]


def test_a_yaml_file_that_mentions_lfs_is_no_pointer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    base = repo.commit("base")
    repo.write("app/notes.yaml", "# see https://git-lfs.github.com/spec/v1\nversion: 1\n")
    head = repo.commit("notes")
    capsys.readouterr()
    assert main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root)]) == 0
