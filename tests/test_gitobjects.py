"""The git-object reader: what it returns is what git stores, never what the working tree holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.gitobjects import EMPTY_TREE, GitObjects, GitObjectsError
from tests.gitrepo import GitRepo


@pytest.fixture()
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write("policies/core/policy.rego", "package x\n")
    repo.write('odd "name"\twith tab', "odd\n")
    repo.write("big.bin", b"\0" * 100_000)
    repo.symlink("link", "policies")
    return repo


def test_reads_trees_and_blobs_from_objects_not_the_working_tree(repo: GitRepo) -> None:
    base = repo.commit()
    repo.write("policies/core/policy.rego", "package changed\n")  # not committed: must not be seen
    with GitObjects(repo.root) as objects:
        assert objects.commit("HEAD") == base
        tree = objects.tree(base)
        assert set(tree) == {"policies/core/policy.rego", 'odd "name"\twith tab', "big.bin", "link"}
        assert tree["link"].is_symlink and objects.read(base, "link") == b"policies"
        assert objects.read(base, "policies/core/policy.rego") == b"package x\n"
        assert objects.read(base, 'odd "name"\twith tab') == b"odd\n"
        # A prefix read still leaves the pipe aligned for the next object.
        assert objects.read(base, "big.bin", limit=10) == b"\0" * 10
        assert objects.read(base, "policies/core/policy.rego", limit=7) == b"package"
        assert objects.read(base, "missing") is None
        assert objects.tree(EMPTY_TREE) == {}


def test_export_refuses_symlinks(repo: GitRepo, tmp_path: Path) -> None:
    repo.symlink("policies/evil", "/etc")
    head = repo.commit()
    with GitObjects(repo.root) as objects, pytest.raises(GitObjectsError, match="symlink"):
        objects.export(head, "policies", tmp_path / "out")


def test_export_writes_the_committed_files(repo: GitRepo, tmp_path: Path) -> None:
    head = repo.commit()
    with GitObjects(repo.root) as objects:
        assert objects.export(head, "policies/", tmp_path / "out") == 1
    assert (tmp_path / "out/core/policy.rego").read_text() == "package x\n"


@pytest.mark.parametrize("rev", ["nope", "-h", "--output=/tmp/x", "a b", "HEAD\0"])
def test_unknown_or_option_like_revisions_are_refused(repo: GitRepo, rev: str) -> None:
    repo.commit()
    with GitObjects(repo.root) as objects, pytest.raises(GitObjectsError):
        objects.commit(rev)


def test_not_a_repository(tmp_path: Path) -> None:
    with pytest.raises(GitObjectsError, match="not a git repository"):
        GitObjects(tmp_path)


def test_last_change(repo: GitRepo) -> None:
    first = repo.commit()
    repo.write("src/x.py", "x\n")
    second = repo.commit("src only")
    (repo.root / "policies" / "sub").mkdir()
    with GitObjects(repo.root / "policies" / "sub") as objects:
        assert objects.last_change(second, "policies") == first  # src/ changed later; the bundle did not
        assert objects.last_change(second, "") == second
        assert objects.last_change(second, "*") is None  # a literal path, never a glob
        assert objects.last_change(first, "src") is None


def test_replace_refs_do_not_change_what_a_commit_holds(repo: GitRepo) -> None:
    base = repo.commit()
    original = repo.git("rev-parse", f"{base}:policies/core/policy.rego").decode().strip()
    other = repo.git("hash-object", "-w", "--stdin", input=b"package replaced\n").decode().strip()
    repo.git("replace", original, other)
    assert repo.git("cat-file", "-p", f"{base}:policies/core/policy.rego") == b"package replaced\n"  # git obeys it
    with GitObjects(repo.root) as objects:
        assert objects.read(base, "policies/core/policy.rego") == b"package x\n"


def test_a_full_commit_id_is_checked_and_listed_once_per_process(repo: GitRepo,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The gate opens the repository twice (its configuration from BASE, then BASE..HEAD): objects never change,
    so a full commit id is checked and its tree listed once; a branch name is resolved again every time."""
    base = repo.commit()
    calls: list[str] = []
    real = GitObjects._git

    def spy(self: GitObjects, args: list[str], *rest: object, **options: object) -> bytes:
        calls.append(" ".join(args[:2]))
        return real(self, args, *rest, **options)  # type: ignore[arg-type]

    real_read = GitObjects._batch_read

    def read_spy(self: GitObjects, name: bytes, *rest: object) -> tuple[bytes, bytes | None]:
        if name.endswith(b"^{commit}"):
            calls.append("resolve " + name.decode())
        if name.endswith(b"^{tree}"):
            calls.append("list " + name.decode())
        return real_read(self, name, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(GitObjects, "_git", spy)
    monkeypatch.setattr(GitObjects, "_batch_read", read_spy)
    for _ in range(2):
        with GitObjects(repo.root) as objects:
            assert objects.tree(objects.commit(base))["link"].is_symlink
            assert objects.commit("HEAD") == base
    assert calls.count(f"list {base}^{{tree}}") == 1
    assert calls.count(f"resolve {base}^{{commit}}") == 1  # the full id once
    assert calls.count("resolve HEAD^{commit}") == 2  # HEAD each time
    repo.write("new.txt", "x\n")
    moved = repo.commit("next")
    with GitObjects(repo.root) as objects:
        assert objects.commit("HEAD") == moved != base
        assert "new.txt" in objects.tree(moved) and "new.txt" not in objects.tree(base)


def test_a_tree_is_listed_as_git_ls_tree_lists_it(repo: GitRepo) -> None:
    """Trees are read as tree objects through the batch process: the same entries, modes and order as `git ls-tree
    -r`, also for a mode git no longer writes (100664, an old executable 100775) and a gitlink; a subtree both
    commits share is read once."""
    repo.write("a/b/c/deep.txt", "deep\n")
    repo.write("a.b", "sorts before a/\n")
    repo.write("a-b/x", "x\n")
    repo.write("run.sh", "#!/bin/sh\n", mode=0o755)
    base = repo.commit()
    blob = repo.git("rev-parse", f"{base}:a.b").decode().strip()
    sub = repo.git("rev-parse", f"{base}:a").decode().strip()
    raw = b"".join(mode + b" " + name + b"\0" + bytes.fromhex(oid) for mode, name, oid in (
        (b"100664", b"old-mode", blob), (b"100775", b"old-exec", blob), (b"160000", b"module", base),
        (b"40000", b"shared", sub)))
    odd = repo.git("hash-object", "-t", "tree", "-w", "--stdin", "--literally", input=raw).decode().strip()
    top = repo.git("rev-parse", f"{base}^{{tree}}").decode().strip()
    listing = repo.git("ls-tree", top).replace(b"\n", b"\0") + b"040000 tree " + odd.encode() + b"\todd\0"
    head = repo.git("commit-tree", repo.git("mktree", "-z", input=listing).decode().strip(), "-p", base,
                    "-m", "odd").decode().strip()
    calls: list[bytes] = []
    with GitObjects(repo.root) as objects:
        real = objects._cat.read_many

        def spy(names: list[bytes], *rest: object) -> list[tuple[bytes, bytes | None]]:
            calls.extend(names)
            return real(names, *rest)  # type: ignore[arg-type]

        objects._cat.read_many = spy  # type: ignore[method-assign]
        for commit in (base, head):
            want = []
            for record in repo.git("ls-tree", "-r", "-z", "--full-tree", commit).split(b"\0")[:-1]:
                meta, _, name = record.partition(b"\t")
                mode, _, oid = meta.decode().split(" ")
                want.append((name.decode(), mode, oid))
            assert [(p, e.mode, e.oid) for p, e in objects.tree(commit).items()] == want
    assert ("odd/old-mode", "100644", blob) in want and ("odd/old-exec", "100755", blob) in want
    assert ("odd/module", "160000", base) in want and ("odd/shared/b/c/deep.txt" in {p for p, _, _ in want})
    assert len(calls) == len(set(calls))  # no tree object asked twice


def test_changed_is_what_git_diff_tree_lists(tmp_path: Path) -> None:
    """GitObjects.changed against `git diff-tree -r --no-renames` both ways between commits that swap a file and a
    folder of the same name, change a mode, a blob, a symlink's target, turn a file into a symlink, add and delete
    nested folders and carry a gitlink; subtrees both sides share are never read."""
    repo = GitRepo(tmp_path / "r")
    for path, text in {"x": "file\n", "keep/a/b.txt": "same\n", "d/e/f.txt": "1\n", "d/g.txt": "g\n",
                       "gone/deep/h.txt": "h\n", "t.txt": "t\n", "run.sh": "echo\n", "a.b": "dot\n"}.items():
        repo.write(path, text)
    repo.symlink("link", "keep")
    first = repo.commit()
    (repo.root / "x").unlink()
    repo.write("x/inside.txt", "now a folder\n")
    repo.write("d/e/f.txt", "2\n")
    repo.write("new/deeper/n.txt", "n\n")
    for path in ("gone/deep/h.txt", "t.txt"):
        (repo.root / path).unlink()
    repo.symlink("t.txt", "x")
    repo.symlink("link", "d")
    (repo.root / "run.sh").chmod(0o755)
    second = repo.commit("second")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{first},module")
    third = repo.git("commit-tree", repo.git("write-tree").decode().strip(), "-p", second, "-m", "module").decode()
    third = third.strip()
    with GitObjects(repo.root) as objects:
        for old, new in ((first, second), (second, first), (first, third), (third, second), (first, first)):
            fields = repo.git("diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", old, new).split(b"\0")
            want = []
            for meta, name in zip(fields[0::2], fields[1::2], strict=False):
                old_mode, new_mode, old_oid, new_oid, _ = meta[1:].decode().split(" ")
                want.append((name.decode(), None if old_mode == "000000" else (old_mode, old_oid),
                             None if new_mode == "000000" else (new_mode, new_oid)))
            got = [(path, before and (before.mode, before.oid), after and (after.mode, after.oid))
                   for path, before, after in objects.changed(old, new)]
            assert got == want, (old, new)
        assert len(want := [p for p, _, _ in objects.changed(first, third)]) > 8 and "module" in want
        keep = repo.git("rev-parse", f"{first}:keep").decode().strip()
        assert keep not in objects._tree_objects  # never opened: the same on both sides
