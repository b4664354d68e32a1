"""tests/gitdiffs.py: the patch of one edited file from the long-lived git process is the patch `git diff` writes in
a test's own repository, byte for byte."""

from __future__ import annotations

from pathlib import Path

import gitdiffs
import pytest
from gitdiffs import file_patch
from tables import each_case

from tests.gitrepo import GitRepo

TEXT = "".join(f"line {i}\n" for i in range(40))
CASES = [
    ("a.txt", TEXT, TEXT.replace("line 20\n", "line twenty\n"), ()),
    ("deep/er/x.yaml", TEXT, TEXT.replace("line 3\n", "").replace("line 30\n", "new\nlines\n"), ("-U0",)),
    ("x.toml", TEXT, TEXT.replace("line 1\n", "one\n"), ("-U12",)),
    ("crlf.txt", TEXT.replace("\n", "\r\n"), TEXT.replace("\n", "\r\n").replace("line 9", "nine"), ()),
    ("no-eol.txt", TEXT.rstrip("\n"), TEXT.rstrip("\n") + " more", ()),
    ("emptied.txt", TEXT, "", ()),
    ("filled.txt", "", TEXT, ()),
    ("same.txt", TEXT, TEXT, ()),
    ("bin.dat", "\0\1\2" * 50, "\0\1\3" * 50, ()),
    ("utf.txt", "é\n" * 5, "é\n" * 4 + "ü\n", ()),
]


@pytest.mark.parametrize("binary", [False, True])
def test_file_patch_is_what_git_diff_writes(tmp_path: Path, binary: bool) -> None:
    repo = GitRepo(tmp_path / "repo")
    for path, old, new, options in CASES:
        repo.write(path, old)
        repo.add()
        repo.write(path, new)
        flags = (*options, *(["--binary"] if binary else []))
        want = repo.git("diff", *flags)
        assert file_patch(path, old.encode(), new.encode(), *flags) == want, path
        assert bool(want) == (old != new)


def test_a_blob_whose_seven_digits_another_object_shares_moves_to_a_fresh_repository(tmp_path: Path) -> None:
    first = file_patch("a.txt", b"a\n", b"b\n")
    oracle = gitdiffs._ORACLE[0]
    oid = oracle.writer.store(b"blob", b"a\n").hex()
    twin = oracle.folder / ".git" / "objects" / oid[:2] / (oid[2:7] + "0" * 33)
    if twin.name == oid[2:]:
        twin = twin.with_name(oid[2:7] + "1" * 33)
    twin.write_bytes(b"")  # git would need eight digits to name the blob here
    assert oracle.crowded(bytes.fromhex(oid))
    assert file_patch("a.txt", b"a\n", b"b\n") == first
    assert gitdiffs._ORACLE[0] is not oracle and not oracle.folder.exists()


@each_case("options", [(), ("--binary",), ("-M", "--binary"), ("-C", "--find-copies-harder"),
                                     ("--no-renames",), ("--full-index",)])
def test_commit_patch_is_what_git_diff_writes(tmp_path: Path, options: tuple[str, ...]) -> None:
    """commit_patch against `git diff OPTIONS BASE HEAD` in the repository itself: renames (followed by default, as
    git diff follows them), copies, a mode, a symlink, a delete, binary content, names as `main~1` and `main`, and an
    attribute file (then git is asked in the repository)."""
    repo = GitRepo(tmp_path / "repo")
    for path, text in {"a/moved.txt": TEXT, "copied.txt": TEXT * 2, "run.sh": "echo\n", "gone.txt": "bye\n",
                       "bin.dat": "\0\1" * 40, "edit.txt": TEXT}.items():
        repo.write(path, text)
    base = repo.commit()
    repo.move("a/moved.txt", "b/moved.txt")
    repo.write("copy-of.txt", TEXT * 2)
    (repo.root / "run.sh").chmod(0o755)
    (repo.root / "gone.txt").unlink()
    repo.symlink("link", "b")
    repo.write("bin.dat", "\0\2" * 40)
    repo.write("edit.txt", TEXT.replace("line 7\n", "seven\n"))
    head = repo.commit("head")
    for old, new in ((base, head), (head, base), ("main~1", "main"), (base, base)):
        assert gitdiffs.commit_patch(repo, old, new, *options) == repo.git("diff", *options, old, new)
    repo.write(".gitattributes", "*.txt binary\n")
    attributed = repo.commit("attributes")
    assert gitdiffs.commit_patch(repo, base, attributed, *options) == repo.git("diff", *options, base, attributed)
