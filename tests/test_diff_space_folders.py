"""A folder name ending in a space (`Cloud-native-attacks /arm-native.json`, a real repository's ARM template):
git writes `diff --git a/x /y b/x /y`, from which git's own scan reads no name (it gives up at a separator followed
by '/') and so checks nothing against it; the ---/+++ lines name the file and `git apply` applies the patch git
wrote. The parser refused every such patch ("the names in the 'diff --git' header disagree"), a valid change the
gate could not judge. Each patch here is written by real git from a real repository and read by `git apply
--numstat` (the truth): where git reads names we read the same ones, where git refuses we refuse.
"""

from __future__ import annotations

import os
from pathlib import Path

from gitrepo import GitRepo
from incli import run_cli
from tables import each_case
from test_redteam_diff_names import REFUSED, git_numstat, ours

# Names holding a component that ends in a space (before a '/'), and look-alikes without one.
NAMES = [b"x /y", b"Azure-arm/blue-sec/Cloud-native-attacks /arm-native.json", b"a b /c d", b"x  /y", b"x /y /z",
         b"x /.github/workflows/ci.yml", b" x /y", b"x/y /z", b"x y/z", b"x/y z", b"x/y "]
# What a change does, and whether git's patch carries ---/+++ lines (a header-only section, a mode change or a
# binary file, is named by the header alone: git reads no name from these and refuses it, so must we).
KINDS = ["modify", "add", "delete", "mode+content", "mode", "binary"]


def _patch(root: Path, name: bytes, kind: str) -> bytes:
    repo = GitRepo(root)
    path = os.fsdecode(name)
    if kind != "add":
        repo.write(path, b"\0\1binary\n" if kind == "binary" else b"one\n")
        repo.git("add", "-A")
        repo.git("commit", "-q", "-m", "base")
    if kind == "delete":
        (root / path).unlink()
    elif kind == "mode":
        (root / path).chmod(0o755)
    else:
        repo.write(path, b"\0\2binary\n" if kind == "binary" else b"one\ntwo\n")
        if kind == "mode+content":
            (root / path).chmod(0o755)
    repo.git("add", "-A")
    return repo.git("diff", "--cached", "--binary")


@each_case(("name", "kind"), [(n, k) for n in NAMES for k in KINDS])
def test_patches_git_writes_are_read_as_git_reads_them(tmp_path: Path, name: bytes, kind: str) -> None:
    root = tmp_path / f"{NAMES.index(name)}-{kind}"
    patch = _patch(root, name, kind)
    gits = git_numstat(patch, root)
    mine = ours(patch)
    if gits is None:
        assert mine == REFUSED, (patch, mine)
    else:
        assert mine != REFUSED, (patch, gits)
        assert [path for path, _ in mine] == gits, (patch, mine, gits)
    if kind in ("modify", "add", "delete", "mode+content"):  # ---/+++ lines name it: git reads it
        assert gits == [name], (patch, gits)


def test_a_header_naming_another_file_is_still_refused(tmp_path: Path) -> None:
    """The header must be the one git writes for the ---/+++ name: another name (git reads none from it either)
    is refused, as is one git reads as a different file."""
    patch = _patch(tmp_path / "r", b"x /y", "modify")
    for header in (b"a/x /z b/x /z", b"a/.github /ci.yml b/.github /ci.yml", b"a/x /y  b/x /y", b"a/x b/x"):
        forged = patch.replace(b"diff --git a/x /y b/x /y", b"diff --git " + header, 1)
        assert forged != patch
        assert ours(forged) == REFUSED, header


def test_the_gate_judges_a_change_in_such_a_folder(tmp_path: Path) -> None:
    """Through `gatekeeper classify` (exit 0, the file named) where it exited 2 before."""
    patch = _patch(tmp_path / "r", b"deploy /main.tf", "modify")
    (tmp_path / "p.diff").write_bytes(patch)
    done = run_cli(["classify", "--format", "json", "p.diff"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert b'"path": "deploy /main.tf"' in done.stdout
