"""Red team 28: `.gitattributes` that make a checkout write other bytes than the blob the gate read.

`working-tree-encoding=UTF-16LE` makes git write a file re-encoded: a blob of CJK text whose UTF-16LE bytes are
an ASCII Kubernetes manifest is `src` to the gate (it reads the blob), and a checkout (actions/checkout, Argo CD)
writes the manifest. A non-LFS `filter` (a driver configured where CI checks out) and `ident` also rewrite what
is checked out. The change that adds such an attribute, and a changed file an attribute of HEAD or BASE rewrites,
are `iac.content.checkout-attributes` (reviewed). Each attack is first checked against git: a real checkout writes
the manifest. Variants: three encodings (with a byte order mark a reader decodes the text, so
none), a macro, a folder's own `.gitattributes`, the attribute added before the file (two steps), filters and
ident; LFS and line-ending attributes stay what they were."""

from __future__ import annotations

import contextlib
import json
import subprocess
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main

MANIFEST = (b"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
            b"      containers:\n        - name: web\n          image: registry.example/web:1\n\n")
# (attribute value, the bytes a checkout must write, how git stores them): the stored blob is what git's add makes
# of those bytes, so the checkout writes them back.
ENCODINGS = {
    "UTF-16LE": (MANIFEST, MANIFEST.decode("utf-16-le").encode()),
    "UTF-16BE": (MANIFEST, MANIFEST.decode("utf-16-be").encode()),
    "UCS-2LE": (MANIFEST, MANIFEST.decode("utf-16-le").encode()),
    "UTF-32LE": (MANIFEST + b"\n\n", None),  # ASCII is not UTF-32: git refuses to store it, nothing to hide
}
ATTRIBUTE_FILES = {  # how the attribute reaches app/web.yaml: (file, its text)
    "root": (".gitattributes", "app/*.yaml working-tree-encoding={enc}\n"),
    "folder": ("app/.gitattributes", "*.yaml working-tree-encoding={enc}\n"),
    "macro": (".gitattributes", "[attr]wide working-tree-encoding={enc}\napp/*.yaml wide\n"),
}


def _gate(repo: GitRepo, base: str, head: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def _checked_out(repo: GitRepo, path: str) -> bytes:
    """What a checkout of HEAD writes at `path` (git's own checkout, its attributes in force)."""
    (repo.root / path).unlink()
    repo.git("checkout", "-f", "HEAD", "--", path)
    return (repo.root / path).read_bytes()


def _reviewed(decision: dict) -> set[str]:
    return {p for reason in decision["reasons"] for p in reason.get("paths", ())}


@pytest.mark.parametrize("how", sorted(ATTRIBUTE_FILES))
@pytest.mark.parametrize("encoding", ["UTF-16LE", "UTF-16BE", "UCS-2LE"])
def test_a_manifest_git_writes_re_encoded_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       encoding: str, how: str) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    base = repo.commit("base")
    name, text = ATTRIBUTE_FILES[how]
    written, stored = ENCODINGS[encoding]
    repo.write(name, text.format(enc=encoding))
    repo.write("app/web.yaml", written)  # git's add stores the blob re-encoded, as an author's checkout would
    head = repo.commit("change")
    assert repo.git("cat-file", "blob", f"{head}:app/web.yaml") == stored
    assert _checked_out(repo, "app/web.yaml") == written  # the attack is real: the checkout is the manifest
    code, decision = _gate(repo, base, head, capsys)
    assert code == 3, decision
    assert "app/web.yaml" in _reviewed(decision)


def test_utf32_of_ascii_cannot_be_stored() -> None:
    """Why UTF-32 is no variant: ASCII bytes read as UTF-32 are no characters, so git has no blob to write back."""
    written, _ = ENCODINGS["UTF-32LE"]
    with pytest.raises(UnicodeDecodeError):
        written.decode("utf-32-le")


def test_the_attribute_added_after_the_file_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two steps: the CJK text lands first (src, no attribute: allowed), the attribute alone later."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    repo.write("app/web.yaml", ENCODINGS["UTF-16LE"][1])
    first = repo.commit("base")
    repo.write(".gitattributes", "*.png binary\napp/*.yaml working-tree-encoding=UTF-16LE\n")
    repo.git("add", ".gitattributes")  # git add -A would read app/web.yaml again, now as UTF-16LE, and refuse it
    repo.git("commit", "-q", "-m", "attribute")
    head = repo.head()
    assert _checked_out(repo, "app/web.yaml") == MANIFEST
    code, decision = _gate(repo, first, head, capsys)
    assert code == 3, decision
    assert ".gitattributes" in _reviewed(decision)


def test_a_file_base_already_re_encodes_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """BASE holds the attribute (approved once); every later change of a file it covers is judged on blob bytes the
    checkout does not write."""
    repo = GitRepo(tmp_path / "repo")
    repo.write(".gitattributes", "app/*.yaml working-tree-encoding=UTF-16LE\n")
    repo.write("README.md", "app\n")
    base = repo.commit("base")
    repo.write("app/web.yaml", MANIFEST)
    head = repo.commit("change")
    assert repo.git("cat-file", "blob", f"{head}:app/web.yaml") == ENCODINGS["UTF-16LE"][1]
    code, decision = _gate(repo, base, head, capsys)
    assert code == 3, decision
    assert "app/web.yaml" in _reviewed(decision)


@pytest.mark.parametrize("line", ["app/*.yaml filter=crypt", "app/*.yaml ident", "[attr]sealed filter=seal\n"
                                  "app/*.yaml sealed"])
def test_other_checkout_rewrites_are_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    base = repo.commit("base")
    repo.write(".gitattributes", line + "\n")
    repo.write("app/notes.yaml", "note: 1\n")
    head = repo.commit("change")
    code, decision = _gate(repo, base, head, capsys)
    assert code == 3, decision
    assert {".gitattributes", "app/notes.yaml"} <= _reviewed(decision)


@pytest.mark.parametrize("line", ["*.png filter=lfs diff=lfs merge=lfs -text", "*.sh text eol=lf", "*.bin -diff",
                                  "docs/** linguist-documentation", "*.txt -filter !ident",
                                  "*.md working-tree-encoding=UTF-8"])
def test_attributes_that_write_the_blob_as_it_is_stay_other(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            line: str) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    base = repo.commit("base")
    repo.write(".gitattributes", line + "\n")
    repo.write("app/notes.yaml", "note: 1\n")
    head = repo.commit("change")
    code, decision = _gate(repo, base, head, capsys)
    assert code == 0, decision


@pytest.mark.parametrize("line", ["app/*.yaml working-tree-encoding=UTF-16LE", "* filter=crypt", "x ident"])
def test_from_a_patch_alone_the_attribute_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     line: str) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    repo.commit("base")
    repo.write(".gitattributes", "*.png binary\n" + line + "\n")
    patch, packet = repo.save_patch(tmp_path / "change.diff"), tmp_path / "packet.json"
    with contextlib.chdir(tmp_path):
        assert main(["packet", str(patch), "--out", str(packet)]) == 0
        capsys.readouterr()
        code = main(["gate", str(packet), "--patch", str(patch), "--format", "json"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3, decision
    assert ".gitattributes" in _reviewed(decision)


def test_git_still_rewrites_as_the_tests_assume() -> None:
    """The git on this machine knows working-tree-encoding (2.18+): otherwise the attacks above prove nothing."""
    version = subprocess.run(["git", "--version"], capture_output=True, text=True, check=True).stdout.split()[2]
    assert tuple(int(x) for x in version.split(".")[:2]) >= (2, 18)


# Spellings of one attribute line git reads alike: its pattern forms, separators, line ends, a byte order mark.
FORMS = [
    "/app/web.yaml working-tree-encoding=UTF-16LE\n", "**/web.yaml working-tree-encoding=UTF-16LE\n",
    "app/** working-tree-encoding=UTF-16LE\n", "app/web.yam[l]\tworking-tree-encoding=UTF-16LE\n",
    '"app/web.yaml" working-tree-encoding=UTF-16LE\n', "app/*.yaml text working-tree-encoding=utf-16le\n",
    "app/*.yaml working-tree-encoding=UTF-16LE\r\n", "\ufeffapp/*.yaml working-tree-encoding=UTF-16LE\n",
    "# notes\n\n*.png binary\n   app/*.yaml    -diff working-tree-encoding=UTF-16LE  \n",
]


@pytest.mark.parametrize("text", FORMS, ids=range(len(FORMS)))
def test_every_spelling_of_the_line_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    base = repo.commit("base")
    repo.write(".gitattributes", text)
    repo.write("app/web.yaml", MANIFEST)
    head = repo.commit("change")
    assert _checked_out(repo, "app/web.yaml") == MANIFEST
    assert repo.git("cat-file", "blob", f"{head}:app/web.yaml") == ENCODINGS["UTF-16LE"][1]  # git read the line
    code, decision = _gate(repo, base, head, capsys)
    assert code == 3, decision
    assert {".gitattributes", "app/web.yaml"} <= _reviewed(decision)


@pytest.mark.parametrize("where", ["root", "folder"])
def test_a_line_past_what_is_read_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    """1.5 MiB of comments before the line: past the 1 MiB the scan and sniff read, not past git."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    repo.write("app/web.yaml", ENCODINGS["UTF-16LE"][1])
    name = ".gitattributes" if where == "root" else "app/.gitattributes"
    repo.write(name, "# padding\n" * 150_000 + "*.yaml working-tree-encoding=UTF-16LE\n")
    repo.git("add", "-A", "--", name, "README.md")
    # app/web.yaml as its blob is, added before the attribute applies: a plumbing add of the stored bytes
    blob = repo.git("hash-object", "-w", "--no-filters", "app/web.yaml").decode().strip()
    repo.git("update-index", "--add", "--cacheinfo", f"100644,{blob},app/web.yaml")
    repo.git("commit", "-q", "-m", "padded")
    head = repo.head()
    repo.git("checkout", "-q", "--orphan", "empty")
    repo.git("rm", "-rq", "--cached", ".")
    repo.write("README.md", "app\n")
    repo.git("add", "README.md")
    repo.git("commit", "-q", "-m", "base")
    base = repo.head()
    merged = repo.git("commit-tree", "-p", base, "-m", "change", f"{head}^{{tree}}").decode().strip()
    assert _checked_out_at(repo, merged, "app/web.yaml") == MANIFEST
    code, decision = _gate(repo, base, merged, capsys)
    assert code == 3, decision
    assert "app/web.yaml" in _reviewed(decision)


def _checked_out_at(repo: GitRepo, commit: str, path: str) -> bytes:
    repo.git("checkout", "-q", "-f", commit)
    return (repo.root / path).read_bytes()


def test_a_patch_longer_than_it_shows_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    repo.commit("base")
    repo.write(".gitattributes", "# padding\n" * 10_000 + "* filter=crypt\n")
    patch, packet = repo.save_patch(tmp_path / "change.diff"), tmp_path / "packet.json"
    with contextlib.chdir(tmp_path):
        assert main(["packet", str(patch), "--out", str(packet)]) == 0
        capsys.readouterr()
        code = main(["gate", str(packet), "--patch", str(patch), "--format", "json"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3, decision
    assert ".gitattributes" in _reviewed(decision)


def test_attributes_only_the_merge_holds_are_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """BASE defines a re-encoding macro after the branch forked (reviewed then); the branch adds a folder's
    `.gitattributes` that uses it and the CJK blob. Neither commit alone re-encodes the file; the merge does."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "app\n")
    repo.commit("start")
    repo.branch("pr")
    repo.write("app/.gitattributes", "*.yaml wide\n")
    repo.write("app/web.yaml", ENCODINGS["UTF-16LE"][1])
    head = repo.commit("branch")
    repo.git("checkout", "-q", "-b", "target", f"{head}~1")
    repo.write(".gitattributes", "[attr]wide working-tree-encoding=UTF-16LE\n")
    base = repo.commit("macro")
    merged = repo.git("merge-tree", "--write-tree", base, head).split(b"\n")[0].decode()
    repo.git("checkout", "-q", "-f", repo.git("commit-tree", "-p", base, "-m", "m", merged).decode().strip())
    assert (repo.root / "app/web.yaml").read_bytes() == MANIFEST  # git's merge re-encodes it
    code, decision = _gate(repo, base, head, capsys)
    assert code == 3, decision
    assert "app/web.yaml" in _reviewed(decision)
