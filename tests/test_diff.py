"""The patch parser against real git: every form `git diff --cached --binary` writes, malformed input, streaming."""

from __future__ import annotations

import os
import zlib

import pytest
from diffcheck import assert_matches_git, parse_bytes
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.diff import lines as lines_module
from gatekeeper.errors import PatchError

# -------------------------------------------------------------------------------------------------
# Real git patches: paths, statuses and counts equal `git diff --name-status -z` / `--numstat -z`.


def test_add_modify_delete(git_repo: GitRepo) -> None:
    git_repo.write("keep.txt", "one\ntwo\nthree\n")
    git_repo.write("gone.txt", "bye\nbye\n")
    git_repo.commit()
    git_repo.write("keep.txt", "one\n2\nthree\nfour\n")
    (git_repo.root / "gone.txt").unlink()
    git_repo.write("new/deep/file.py", "print('hi')\n")
    changes = assert_matches_git(git_repo)
    assert [(c.path, c.status, c.additions, c.deletions) for c in changes] == [
        ("gone.txt", "deleted", 0, 2),
        ("keep.txt", "modified", 2, 1),
        ("new/deep/file.py", "added", 1, 0),
    ]
    assert changes[0].old_mode == "100644" and changes[0].new_mode is None
    assert changes[2].new_mode == "100644" and changes[2].old_mode is None
    assert changes[1].line == 9


def test_empty_patch_is_zero_files(git_repo: GitRepo) -> None:
    git_repo.write("a.txt", "x\n")
    git_repo.commit()
    assert git_repo.staged_patch() == b""
    assert parse_bytes(b"") == []


NAMES = [
    "sp ace.txt",
    "x b/y b.txt",  # holds " b/", the split a naive header reader would take
    "a b c/d e f.txt",
    'quo"te.txt',
    "back\\slash.txt",
    "caf\u00e9/\u65e5\u672c.txt",
    "trailing space ",
    "-- dash.txt",
]


@pytest.mark.parametrize("quotepath", ["true", "false"])
def test_names_git_quotes_or_not(git_repo: GitRepo, quotepath: str) -> None:
    git_repo.git("config", "core.quotepath", quotepath)
    for name in NAMES:
        git_repo.write(name, "old\n")
    git_repo.commit()
    for name in NAMES:
        git_repo.write(name, "old\nnew\n")
    git_repo.write("fresh one.txt", "")  # no ---/+++ lines: the header alone names it
    git_repo.write("e b/f b.txt", "", mode=0o755)
    changes = assert_matches_git(git_repo)
    assert {c.path for c in changes} == set(NAMES) | {"fresh one.txt", "e b/f b.txt"}
    assert all(c.unsafe is None for c in changes)


@pytest.mark.parametrize("quotepath", ["true", "false"])
def test_control_and_non_utf8_names(git_repo: GitRepo, quotepath: str) -> None:
    git_repo.git("config", "core.quotepath", quotepath)
    git_repo.write(b"tab\there.txt", "t\n")
    git_repo.write(b"new\nline.txt", "n\n")
    git_repo.write(b"latin1-\xe9t\xe9.txt", "l\n")
    git_repo.write(b"dir \xff/x y.bin", b"\0\1\2")
    changes = assert_matches_git(git_repo)
    by_path = {c.path: c for c in changes}
    raw = os.fsdecode(b"latin1-\xe9t\xe9.txt")
    assert raw in by_path and by_path[raw].unsafe is None
    assert os.fsencode(raw) == b"latin1-\xe9t\xe9.txt"  # lossless round trip
    assert by_path[os.fsdecode(b"dir \xff/x y.bin")].binary
    assert "control character" in (by_path["tab\there.txt"].unsafe or "")
    assert "control character" in (by_path["new\nline.txt"].unsafe or "")


@each_case("flags", [(), ("-M",), ("--no-renames",), ("-M50%",)])
def test_renames_with_and_without_edits(git_repo: GitRepo, flags: tuple[str, ...]) -> None:
    body = "".join(f"line {i}\n" for i in range(40))
    git_repo.write("src/pure.py", body)
    git_repo.write("src/edited.py", body.replace("line", "row"))
    git_repo.write("dir a/sp ace.txt", body.replace("line", "col"))
    git_repo.commit()
    git_repo.move("src/pure.py", "lib/pure.py")
    git_repo.move("src/edited.py", "lib/edited.py")
    git_repo.move("dir a/sp ace.txt", "dir b/sp ace 2.txt")
    git_repo.write("lib/edited.py", body.replace("line", "row") + "extra\n")
    changes = assert_matches_git(git_repo, *flags)
    statuses = {c.path: c.status for c in changes}
    if flags == ("--no-renames",):
        assert set(statuses.values()) == {"added", "deleted"}
    else:
        assert statuses == {"dir b/sp ace 2.txt": "renamed", "lib/edited.py": "renamed", "lib/pure.py": "renamed"}
        edited = next(c for c in changes if c.path == "lib/edited.py")
        assert (edited.old_path, edited.additions, edited.deletions) == ("src/edited.py", 1, 0)


@each_case("flags", [("-C",), ("-C", "--find-copies-harder"), ("-C", "-C")])
def test_copies(git_repo: GitRepo, flags: tuple[str, ...]) -> None:
    body = "".join(f"copy me {i}\n" for i in range(30))
    git_repo.write("orig.txt", body)
    git_repo.write("other.txt", "x\n")
    git_repo.commit()
    git_repo.write("orig.txt", body + "touched\n")  # a modified source lets plain -C find the copy
    git_repo.write("copy one.txt", body)
    git_repo.write("copy2.txt", body + "more\n")
    changes = assert_matches_git(git_repo, *flags)
    assert "copied" in {c.status for c in changes}


def test_type_changes_and_symlinks(git_repo: GitRepo) -> None:
    git_repo.write("file-to-link", "content\n")
    git_repo.symlink("link-to-file", "target-a")
    git_repo.symlink("link-moves", "old/target")
    git_repo.symlink("link-gone", "x")
    git_repo.commit()
    (git_repo.root / "file-to-link").unlink()
    git_repo.symlink("file-to-link", "../elsewhere")
    (git_repo.root / "link-to-file").unlink()
    git_repo.write("link-to-file", "now a file\n")
    git_repo.symlink("link-moves", "new/target")
    (git_repo.root / "link-gone").unlink()
    git_repo.symlink("link-new", "some where")
    changes = {c.path: c for c in assert_matches_git(git_repo)}
    assert changes["file-to-link"].status == "type_changed"
    assert changes["file-to-link"].symlink_target == "../elsewhere"
    assert (changes["file-to-link"].old_mode, changes["file-to-link"].new_mode) == ("100644", "120000")
    assert changes["link-to-file"].status == "type_changed"
    assert changes["link-to-file"].old_symlink_target == "target-a"
    assert changes["link-to-file"].symlink_target is None
    assert changes["link-moves"].status == "modified"
    assert (changes["link-moves"].old_symlink_target, changes["link-moves"].symlink_target) == (
        "old/target",
        "new/target",
    )
    assert changes["link-gone"].status == "deleted" and changes["link-gone"].old_symlink_target == "x"
    assert changes["link-new"].symlink_target == "some where"


def _subrepo(parent: GitRepo, name: str) -> GitRepo:
    sub = GitRepo(parent.root / name)
    sub.write("s.txt", "1\n")
    sub.commit("sub base")
    return sub


def test_submodule_pointer_changes(git_repo: GitRepo) -> None:
    sub = _subrepo(git_repo, "vendor/lib")
    git_repo.write("top.txt", "t\n")
    git_repo.commit()
    sub.write("s.txt", "2\n")
    sub.commit("sub next")
    _subrepo(git_repo, "vendor/added")
    changes = {c.path: c for c in assert_matches_git(git_repo)}
    assert changes["vendor/lib"].status == "modified" and changes["vendor/lib"].submodule
    assert changes["vendor/lib"].new_mode == "160000"
    assert (changes["vendor/lib"].additions, changes["vendor/lib"].deletions) == (1, 1)
    assert changes["vendor/added"].status == "added" and changes["vendor/added"].submodule


def test_binary_literal_and_delta(git_repo: GitRepo) -> None:
    big = bytes(range(256)) * 400 + zlib.compress(os.urandom(20000))
    git_repo.write("assets/big.bin", big)
    git_repo.write("assets/gone.bin", b"\0gone")
    git_repo.commit()
    git_repo.write("assets/big.bin", big[:-10] + b"\0changed!!")
    git_repo.write("assets/new.bin", b"\0\1\2\3")
    git_repo.write("assets/empty.bin", b"\0")
    (git_repo.root / "assets/gone.bin").unlink()
    patch = git_repo.staged_patch()
    assert b"\ndelta " in patch and b"\nliteral " in patch
    changes = assert_matches_git(git_repo)
    assert all(c.binary for c in changes)
    assert {c.path: c.status for c in changes} == {
        "assets/big.bin": "modified",
        "assets/empty.bin": "added",
        "assets/gone.bin": "deleted",
        "assets/new.bin": "added",
    }


def test_binary_without_binary_flag(git_repo: GitRepo) -> None:
    git_repo.write("a.bin", b"\0a")
    git_repo.commit()
    git_repo.write("a.bin", b"\0b")
    git_repo.write("sp ace.bin", b"\0c")
    git_repo.git("add", "-A")
    patch = git_repo.git("diff", "--cached")
    assert b"Binary files" in patch
    changes = parse_bytes(patch)
    assert [(c.path, c.status, c.binary) for c in changes] == [
        ("a.bin", "modified", True),
        ("sp ace.bin", "added", True),
    ]


def test_no_newline_crlf_and_header_lookalikes(git_repo: GitRepo) -> None:
    git_repo.write("nonl.txt", "a\nb")
    git_repo.write("crlf.txt", "one\r\ntwo\r\n")
    git_repo.write("look.txt", "-- removed\nkeep\n")
    git_repo.commit()
    git_repo.write("nonl.txt", "a\nc")
    git_repo.write("crlf.txt", "one\r\n2\r\nthree")
    git_repo.write("look.txt", "keep\n++ added\n@@ -1 +1 @@\ndiff --git a/x b/x\n")
    inner = GitRepo(git_repo.root.parent / "inner")
    inner.write("x.txt", "old\n")
    inner.commit()
    inner.write("x.txt", "new\n")
    git_repo.write("docs/example.patch", inner.staged_patch())
    changes = {c.path: c for c in assert_matches_git(git_repo)}
    assert (changes["nonl.txt"].additions, changes["nonl.txt"].deletions) == (1, 1)
    assert (changes["crlf.txt"].additions, changes["crlf.txt"].deletions) == (2, 1)
    assert (changes["look.txt"].additions, changes["look.txt"].deletions) == (3, 1)
    assert changes["docs/example.patch"].status == "added"
    assert len(changes) == 4


def test_empty_files_mode_changes_and_deletions(git_repo: GitRepo) -> None:
    git_repo.write("run.sh", "echo\n")
    git_repo.write("both.sh", "echo\n")
    git_repo.write("empty-gone", "")
    git_repo.write("x", "x\n")
    git_repo.commit()
    (git_repo.root / "run.sh").chmod(0o755)
    git_repo.write("both.sh", "echo 2\n", mode=0o755)
    (git_repo.root / "empty-gone").unlink()
    git_repo.write("empty new", "")
    git_repo.write("exec new", "#!/bin/sh\n", mode=0o755)
    (git_repo.root / "x").unlink()
    git_repo.write("x/inside.txt", "file became a folder\n")
    renamed = {c.path: c for c in assert_matches_git(git_repo)}
    assert renamed["empty new"].old_path == "empty-gone"  # git pairs identical (empty) blobs as a rename
    changes = {c.path: c for c in assert_matches_git(git_repo, "--no-renames")}
    assert changes["run.sh"].status == "mode_changed"
    assert (changes["run.sh"].old_mode, changes["run.sh"].new_mode) == ("100644", "100755")
    assert changes["both.sh"].status == "modified" and changes["both.sh"].new_mode == "100755"
    assert changes["empty-gone"].status == "deleted"
    assert changes["empty new"].status == "added" and changes["empty new"].additions == 0
    assert changes["exec new"].new_mode == "100755"
    assert changes["x"].status == "deleted" and changes["x/inside.txt"].status == "added"


def test_many_hunks_and_context_settings(git_repo: GitRepo) -> None:
    body = [f"l{i}\n" for i in range(300)]
    git_repo.write("many.txt", "".join(body))
    git_repo.commit()
    for i in range(0, 300, 17):
        body[i] = f"changed {i}\n"
    body.insert(150, "inserted\n")
    git_repo.write("many.txt", "".join(body))
    for flags in [(), ("-U0",), ("-U10",), ("--diff-algorithm=patience",), ("-w",)]:
        assert_matches_git(git_repo, *flags)


def test_suppress_blank_empty(git_repo: GitRepo) -> None:
    git_repo.write("blank.txt", "a\n\nb\n")
    git_repo.commit()
    git_repo.write("blank.txt", "a\n\nc\n")
    git_repo.git("config", "diff.suppressBlankEmpty", "true")
    patch = git_repo.staged_patch()
    assert b"\n\n" in patch
    assert_matches_git(git_repo)


# -------------------------------------------------------------------------------------------------
# Malformed input: PatchError naming FILE:LINE.


@pytest.fixture
def real_patch(git_repo: GitRepo) -> bytes:
    git_repo.write("a.txt", "1\n2\n3\n")
    git_repo.write("b.bin", b"\0" + os.urandom(300))
    git_repo.commit()
    git_repo.write("a.txt", "1\ntwo\n3\nfour\n")
    git_repo.write("b.bin", b"\0" + os.urandom(300))
    return git_repo.staged_patch()


def _error(patch: bytes) -> PatchError:
    with pytest.raises(PatchError) as info:
        parse_bytes(patch, "p.diff")
    return info.value


def test_garbage_is_refused() -> None:
    err = _error(b"hello world\n")
    assert err.where == "p.diff:1" and "not a git patch" in err.what


def test_truncated_hunk(real_patch: bytes) -> None:
    text = real_patch.split(b"\n")
    cut = b"\n".join(text[: text.index(b"+two") + 1]) + b"\n"
    err = _error(cut)
    assert "ends inside a hunk" in err.what and err.where == f"p.diff:{text.index(b'+two') + 2}"


def test_cut_mid_line(real_patch: bytes) -> None:
    assert "middle of a line" in _error(real_patch[:-3]).what


def test_hunk_counts_that_do_not_add_up(real_patch: bytes) -> None:
    assert "hunk" in _error(real_patch.replace(b"@@ -1,3 +1,4 @@", b"@@ -1,3 +1,5 @@")).what
    assert "more lines than its header" in _error(real_patch.replace(b"@@ -1,3 +1,4 @@", b"@@ -1,3 +1,3 @@")).what


def test_binary_section_cut_short(real_patch: bytes) -> None:
    lines = real_patch.split(b"\n")
    start = lines.index(b"GIT binary patch")
    err = _error(b"\n".join(lines[: start + 3]) + b"\n")
    assert "binary" in err.what
    bad = lines[:]
    bad[start + 2] = bad[start + 2][:-1]
    assert "base85" in _error(b"\n".join(bad)).what


def test_header_without_paths() -> None:
    err = _error(b"diff --git \nnew file mode 100644\nindex 0000000..e69de29\n")
    assert "cannot read the file names" in err.what and err.where == "p.diff:1"


def test_header_disagreeing_with_sides(real_patch: bytes) -> None:
    err = _error(real_patch.replace(b"+++ b/a.txt", b"+++ b/other.txt"))
    assert "differ" in err.what


def test_header_lying_about_the_path(real_patch: bytes) -> None:
    err = _error(real_patch.replace(b"diff --git a/a.txt b/a.txt", b"diff --git a/z.txt b/z.txt"))
    assert "header disagree" in err.what


def test_duplicate_section(real_patch: bytes) -> None:
    assert "second time" in _error(real_patch + real_patch).what


def test_a_name_changed_twice_across_a_rename_is_refused(git_repo: GitRepo) -> None:
    # A rename names two files: either one changed again by another section is refused, as a path changed twice is
    # (the one-name test of the other changes is the common case; a rename tests both of its names).
    git_repo.write("x.txt", "".join(f"line {i}\n" for i in range(20)))
    git_repo.write("w.txt", "w\n")
    git_repo.commit()
    git_repo.move("x.txt", "y.txt")
    renamed = git_repo.staged_patch("-M")
    assert b"rename from x.txt" in renamed
    git_repo.git("reset", "-q", "--hard")
    git_repo.write("x.txt", "changed\n")
    modified_x = git_repo.staged_patch()
    git_repo.git("reset", "-q", "--hard")
    git_repo.write("w.txt", "w2\n")
    modified_w = git_repo.staged_patch()
    assert "'x.txt' a second time" in _error(modified_x + renamed).what  # the rename's old name
    assert "'x.txt' a second time" in _error(renamed + modified_x).what
    assert [c.path for c in parse_bytes(renamed + modified_w, "p.diff")] == ["y.txt", "w.txt"]


def test_combined_diff_and_unknown_header() -> None:
    assert "combined" in _error(b"diff --cc x\n").what
    assert "unexpected line" in _error(b"diff --git a/x b/x\nweird header\n").what


def test_section_that_changes_nothing() -> None:
    assert "changes nothing" in _error(b"diff --git a/x b/x\nindex 1234567..1234567 100644\n").what


def test_no_prefix_patch_is_refused(git_repo: GitRepo) -> None:
    git_repo.write("top.txt", "1\n")
    git_repo.commit()
    git_repo.write("top.txt", "2\n")
    git_repo.git("add", "-A")
    err = _error(git_repo.git("diff", "--cached", "--no-prefix"))
    assert "prefix" in err.what or "names" in err.what


# -------------------------------------------------------------------------------------------------
# Streaming: chunk boundaries and very long lines change nothing.


@pytest.mark.parametrize("chunk", [1, 2, 7, 64])
def test_chunk_boundaries(real_patch: bytes, monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    want = parse_bytes(real_patch)
    monkeypatch.setattr(lines_module, "CHUNK", chunk)
    assert parse_bytes(real_patch) == want


def test_long_content_lines_are_cut_not_loaded(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    git_repo.write("min.js", "a" * 5000 + "\n")
    git_repo.commit()
    git_repo.write("min.js", "b" * 5000 + "\nshort\n")
    monkeypatch.setattr(lines_module, "MAX_KEPT", 100)
    monkeypatch.setattr(lines_module, "CHUNK", 256)
    (change,) = assert_matches_git(git_repo)
    assert (change.additions, change.deletions) == (2, 1)


# -------------------------------------------------------------------------------------------------
# More git settings and flags.


def test_mnemonic_prefixes(git_repo: GitRepo) -> None:
    git_repo.write("a b.txt", "1\n")
    git_repo.write("plain.txt", "1\n")
    git_repo.commit()
    git_repo.write("a b.txt", "2\n")
    git_repo.write("plain.txt", "2\n")
    git_repo.git("config", "diff.mnemonicPrefix", "true")
    assert b"diff --git c/plain.txt i/plain.txt" in git_repo.staged_patch()
    assert_matches_git(git_repo)


def test_quoted_rename_and_copy_lines(git_repo: GitRepo) -> None:
    body = "".join(f"row {i}\n" for i in range(20))
    git_repo.write("caf\u00e9 one.txt", body)
    git_repo.write('q"uote.txt', body + "z\n")
    git_repo.commit()
    git_repo.move("caf\u00e9 one.txt", "d\u00e9j\u00e0/vu two.txt")
    git_repo.move('q"uote.txt', "tab\there.txt")
    patch = git_repo.staged_patch("-M")
    assert b'rename from "caf\\303\\251 one.txt"' in patch and b'rename to "tab\\there.txt"' in patch
    changes = {c.path: c for c in assert_matches_git(git_repo, "-M")}
    assert changes["d\u00e9j\u00e0/vu two.txt"].old_path == "caf\u00e9 one.txt"
    assert changes["tab\there.txt"].old_path == 'q"uote.txt'


def test_break_rewrites(git_repo: GitRepo) -> None:
    git_repo.write("rewritten.txt", "".join(f"old line number {i} with some text\n" for i in range(200)))
    git_repo.commit()
    git_repo.write("rewritten.txt", "".join(f"completely different {i * 7} content\n" for i in range(220)))
    assert b"dissimilarity index" in git_repo.staged_patch("-B")
    (change,) = assert_matches_git(git_repo, "-B")
    assert (change.status, change.additions, change.deletions) == ("modified", 220, 200)


def test_file_becomes_submodule(git_repo: GitRepo) -> None:
    git_repo.write("dep", "was a file\n")
    git_repo.commit()
    (git_repo.root / "dep").unlink()
    _subrepo(git_repo, "dep")
    (change,) = assert_matches_git(git_repo)
    assert (change.status, change.old_mode, change.new_mode, change.submodule) == (
        "type_changed",
        "100644",
        "160000",
        True,
    )
