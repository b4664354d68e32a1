"""Path safety in the patch parser: git never writes these paths, so real patches are edited by hand."""

from __future__ import annotations

from diffcheck import parse_bytes
from gitrepo import GitRepo
from tables import each_case


def _patch_renaming(git_repo: GitRepo, new_name: bytes) -> bytes:
    git_repo.write("victim.txt", "x\n")
    git_repo.commit()
    git_repo.write("victim.txt", "y\n")
    return git_repo.staged_patch().replace(b"victim.txt", new_name)


@each_case(("name", "reason"), [
        (b"../outside.txt", "'..'"),
        (b"a/../../x", "'..'"),
        (b".git/config", ".git"),
        (b"sub/.GIT/hooks/pre-commit", ".git"),
        (b".git./hooks/x", ".git"),
        (b"GIT~1/config", ".git"),
        (".g\u200cit/config".encode(), ".git"),
        (b"x/\xc2\x85y", "control character"),
        (b"dir//x", "empty path component"),
        (b"./x", "'.'"),
    ])
def test_unsafe_paths_are_marked_not_raised(git_repo: GitRepo, name: bytes, reason: str) -> None:
    (change,) = parse_bytes(_patch_renaming(git_repo, name))
    assert change.unsafe is not None and reason in change.unsafe


def test_absolute_path_is_unsafe(git_repo: GitRepo) -> None:
    patch = _patch_renaming(git_repo, b"victim.txt")
    patch = patch.replace(b"a/victim.txt", b"a//etc/passwd").replace(b"b/victim.txt", b"b//etc/passwd")
    (change,) = parse_bytes(patch)
    assert change.path == "/etc/passwd" and change.unsafe == "absolute path"


def test_rename_source_checked_too(git_repo: GitRepo) -> None:
    git_repo.write("a.txt", "x\n" * 20)
    git_repo.commit()
    git_repo.move("a.txt", "b.txt")
    patch = git_repo.staged_patch("-M").replace(b"a.txt", b".git/hooks/x")
    (change,) = parse_bytes(patch)
    assert change.old_path == ".git/hooks/x" and change.unsafe == "path inside .git/"
