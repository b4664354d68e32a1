"""Read a repository's commits through git objects only: one long-lived `git cat-file --batch`.

The gate must judge BASE and HEAD as git stores them, never the working tree (which a job, or the
change under review, may have altered). Tree listings (read as tree objects), blob contents and names
resolved to commits all come from one `git cat-file --batch` process (catfile.py), so reading a thousand
blobs costs a thousand pipe round-trips, not a thousand processes, and within a gate or classify the next
reader of the repository takes the same one over (catfile.shared_processes). Hooks, fsmonitor and
outside configuration are off (gitcmd.SAFE_GIT), and the environment is scrubbed (gitcmd.scrubbed_git_env).
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import TracebackType

from gatekeeper.catfile import CatFile, CatFileError, tree_entries
from gatekeeper.errors import GatekeeperError
from gatekeeper.gitcmd import SAFE_GIT, git_program, scrubbed_git_env, without_attributes

# Only what a tree entry can really be; anything else in a listing is refused.
BLOB_MODES = frozenset({"100644", "100755", "120000"})
GITLINK_MODE = "160000"
TREE_MODE = "040000"
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
# Objects never change: a process that opens the same repository more than once (the gate reads its configuration
# from BASE, then classifies BASE..HEAD) lists a commit's tree and checks a full commit id once. Keyed by the git
# folder; a few trees only (20,000 files hold ~5 MB), so a long-lived process does not gather every tree it read.
_SHARED_TREES: dict[tuple[str, str], dict[str, TreeEntry]] = {}
_SHARED_TREES_MAX = 4
_KNOWN_COMMITS: dict[tuple[str, str], str] = {}
_KNOWN_COMMITS_MAX = 64
_FULL_ID = frozenset("0123456789abcdef")


class GitObjectsError(GatekeeperError):
    """The repository's objects cannot be read: not a repository, an unknown revision, git failed."""


@dataclass(frozen=True, slots=True)
class TreeEntry:
    """One non-tree entry of a commit's tree: its mode and object id."""

    mode: str
    oid: str

    @property
    def is_symlink(self) -> bool:
        return self.mode == "120000"

    @property
    def is_gitlink(self) -> bool:
        return self.mode == GITLINK_MODE


_set_mode, _set_oid = TreeEntry.__dict__["mode"].__set__, TreeEntry.__dict__["oid"].__set__  # its slots
# What os.fsdecode decodes a name with.
_FS_ENCODING, _FS_ERRORS = sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()


def _tree_entry(mode: str, oid: str) -> TreeEntry:
    """TreeEntry(mode, oid), built through its slots: a frozen dataclass's `__init__` sets each field through
    `object.__setattr__` (~1.8 us an entry, 70 ms of a 40,000-entry listing on a loaded machine; this ~0.6 us)."""
    entry = object.__new__(TreeEntry)
    _set_mode(entry, mode)
    _set_oid(entry, oid)
    return entry


def remember_commit(git_dir: str, commit: str) -> None:
    """`commit` (a full id git resolved a name or a merge base to) is a commit of the repository at `git_dir`."""
    if len(commit) == 40 and _FULL_ID.issuperset(commit):
        if len(_KNOWN_COMMITS) >= _KNOWN_COMMITS_MAX:
            _KNOWN_COMMITS.clear()
        _KNOWN_COMMITS[(git_dir, commit)] = commit


class GitObjects:
    """Commits, trees and blobs of the repository at `repo`, read from its object store.

    Use as a context manager; `close()` ends the batch process.
    """

    def __init__(self, repo: Path, *, timeout: float = 120.0, git_dir: str | None = None) -> None:
        if not repo.is_dir():
            raise GitObjectsError("the repository folder does not exist", where=str(repo))
        self.repo = repo
        self._timeout = timeout
        self._env = scrubbed_git_env()
        self._trees: dict[str, dict[str, TreeEntry]] = {}
        self._tree_objects: dict[str, list[tuple[str, bytes, str]]] = {}  # tree id → its entries, as read
        self._walked: dict[str, list[tuple[str, TreeEntry | None, str]]] = {}  # tree id → its entries, as _list walks
        self._entries_by_id: dict[str, TreeEntry] = {}  # one TreeEntry for a blob BASE and HEAD both hold
        # `git_dir`: as a RevRange resolved it (revrange.py), not asked again
        self.git_dir = git_dir or self._git(["rev-parse", "--absolute-git-dir"], "not a git repository").decode()
        self.git_dir = self.git_dir.strip()
        self._cat = CatFile(repo, self._env)

    def __enter__(self) -> GitObjects:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Done reading: the cat-file process ends, or is left for the repository's next reader (catfile.py)."""
        self._cat.close()

    def commit(self, rev: str) -> str:
        """The full id of the commit `rev` names; GitObjectsError for an unknown revision."""
        if not rev or rev.startswith("-") or any(ch.isspace() or ch == "\0" for ch in rev):
            raise GitObjectsError(f"not a revision: {rev!r}", where="--tree", hint="name a commit, branch or tag")
        # Only a full commit id is remembered: a branch or HEAD may move between two gates of one process.
        if len(rev) == 40 and _FULL_ID.issuperset(rev) and (known := _KNOWN_COMMITS.get((self.git_dir, rev))):
            return known
        # Asked of the batch process that reads the blobs (it resolves a name as `rev-parse --verify` does): no
        # process of its own per name.
        header, _ = self._batch_read(f"{rev}^{{commit}}".encode())
        fields = header.split()
        if len(fields) != 3 or fields[1] != b"commit":
            raise GitObjectsError(f"unknown revision {rev!r}", where=str(self.repo),
                                  hint="fetch the history (actions/checkout: fetch-depth: 0) or name a commit of this "
                                       "repository")
        commit = fields[0].decode()
        remember_commit(self.git_dir, commit)  # a name resolved to a commit: its full id need not be asked again
        return commit

    def reaches(self, upper: str, lower: str, steps: int) -> bool:
        """Whether commit `lower` is `upper` or one of its ancestors, walking at most `steps` commits down from
        `upper` by their parent lines (False when the walk runs out or a commit cannot be read)."""
        seen = {upper}
        level = [upper]
        while level and len(seen) <= steps:
            if lower in level:
                return True
            try:
                answers = self._cat.read_many([commit.encode() for commit in level], b"commit")
            except CatFileError:
                return False
            parents = []
            for _, data in answers:
                if data is None:
                    return False
                lines = data.split(b"\n\n", 1)[0].split(b"\n")[1:]  # after `tree`: the parent lines git reads
                parents += [line[7:].decode() for line in itertools.takewhile(lambda ln: ln.startswith(b"parent "),
                                                                              lines)]
            level = [parent for parent in dict.fromkeys(parents) if parent not in seen]
            seen.update(level)
        return lower in level

    def diff_tree(self, old: str, new: str) -> bytes:
        """`git diff-tree -r -z -M --raw --numstat` between two commits (renames paired, as a patch has them)."""
        with without_attributes(self.git_dir) as (folder, env):  # numstat's binary files are git's, not the PR's
            return self._git(["diff-tree", "-r", "-z", "-M", "--raw", "--numstat", "--no-commit-id", old, new],
                             f"cannot compare {old[:12]} with {new[:12]}", cwd=folder, env=env)

    def tree(self, commit: str) -> dict[str, TreeEntry]:
        """Every blob, symlink and gitlink of `commit`'s tree by path (cached per commit)."""
        if commit == EMPTY_TREE:
            return {}
        cached = self._trees.get(commit)
        if cached is not None:
            return cached
        key = (self.git_dir, commit) if len(commit) == 40 and _FULL_ID.issuperset(commit) else None
        shared = _SHARED_TREES.get(key) if key is not None else None
        if shared is not None:
            self._trees[commit] = shared
            return shared
        entries = self._list(commit)
        self._trees[commit] = entries
        if key is not None:
            if len(_SHARED_TREES) >= _SHARED_TREES_MAX:
                del _SHARED_TREES[next(iter(_SHARED_TREES))]  # the oldest
            _SHARED_TREES[key] = entries
        return entries

    def listed(self, commit: str) -> dict[str, TreeEntry] | None:
        """The tree of `commit` when this reader has listed it already (`tree`), else None: no git process."""
        return self._trees.get(commit)

    def blob(self, oid: str, limit: int | None = None) -> bytes:
        """The content of blob `oid` (its first `limit` bytes when given)."""
        header, data = self._batch_read(oid.encode(), b"blob", limit)
        if data is None:
            raise GitObjectsError(f"object {oid} is not a blob ({header.decode(errors='replace').strip()})",
                                  where=str(self.repo))
        return data

    def _batch_read(self, name: bytes, kind: bytes | None = None,
                    limit: int | None = None) -> tuple[bytes, bytes | None]:
        """`git cat-file --batch`'s header line for `name` and, when the object is of `kind`, its content (its first
        `limit` bytes when given)."""
        try:
            return self._cat.read(name, kind, limit)
        except CatFileError as exc:
            raise GitObjectsError(exc.what, where=exc.where, hint=exc.hint) from None

    def _root(self, commit: str) -> tuple[str, int]:
        """(the id of `commit`'s tree, read into the tree cache; the length of a raw object id)."""
        header, root = self._batch_read(f"{commit}^{{tree}}".encode(), b"tree")
        if root is None:
            raise GitObjectsError(f"cannot list the tree of {commit}", where=str(self.repo))
        top = header.split()[0].decode()
        if top not in self._tree_objects:
            self._tree_objects[top] = self._entries(root, len(top) // 2, commit)
        return top, len(top) // 2

    def _entries(self, data: bytes, raw: int, where: str) -> list[tuple[str, bytes, str]]:
        try:
            return list(tree_entries(data, raw, where))
        except CatFileError as exc:
            raise GitObjectsError(exc.what, where=exc.where) from None

    def _fetch(self, trees: list[str], raw: int, commit: str) -> None:
        """Read the tree objects `trees` not read yet into the tree cache, with one round trip for many."""
        wanted = [oid for oid in dict.fromkeys(trees) if oid not in self._tree_objects]
        if not wanted:
            return
        try:
            answers = self._cat.read_many([oid.encode() for oid in wanted], b"tree")
        except CatFileError as exc:
            raise GitObjectsError(f"cannot list the tree of {commit}: {exc.what}", where=exc.where) from None
        for oid, (_, data) in zip(wanted, answers, strict=True):
            if data is None:
                raise GitObjectsError(f"cannot list the tree of {commit}: {oid} is not a tree", where=str(self.repo))
            self._tree_objects[oid] = self._entries(data, raw, f"{commit}: tree {oid}")

    def _list(self, commit: str) -> dict[str, TreeEntry]:
        """What `git ls-tree -r --full-tree commit` lists, read as tree objects through the batch process: a subtree
        already read (BASE and HEAD share most of theirs) is not asked again, the others a level at a time."""
        top, raw = self._root(commit)
        objects = self._tree_objects
        pending = [top]
        while pending:
            pending = [oid for tree in pending for mode, _, oid in objects[tree] if mode == TREE_MODE]
            self._fetch(pending, raw, commit)
        entries: dict[str, TreeEntry] = {}
        walkable = self._walkable
        # depth first, in each tree's order: the order ls-tree -r lists. A tree's prefix is joined at its first file,
        # not held for every folder on the way (a path of 32,768 folders held 1 GB of prefixes; cost 44)
        names: list[str] = []  # the folders from the root to the tree being walked
        stack: list[tuple[Iterator[tuple[str, TreeEntry | None, str]], str | None]] = [(iter(walkable(top)), "")]
        while stack:
            walking, prefix = stack[-1]
            for name, entry, oid in walking:  # a folder's files at C speed, up to its next subfolder
                if entry is None:
                    names.append(name)
                    stack.append((iter(walkable(oid)), None))
                    break
                if prefix is None:
                    prefix = "".join(f"{folder}/" for folder in names)
                    stack[-1] = (walking, prefix)
                entries[prefix + name] = entry
            else:
                stack.pop()
                if names:
                    names.pop()
        return entries

    def _walkable(self, tree: str) -> list[tuple[str, TreeEntry | None, str]]:
        """The entries of the tree object `tree` (read already) as `_list` walks them: (name, the entry of a file, a
        symlink or a gitlink, None for a subtree; the object id), built once per object. The names decode one by one
        as the whole path would (a path's `/` ends every name before it: os.fsdecode cannot join two bytes across)."""
        found = self._walked.get(tree)
        if found is None:
            known = self._entries_by_id
            found = []
            for mode, name, oid in self._tree_objects[tree]:
                entry = None
                if mode != TREE_MODE:
                    entry = known.get(oid)
                    if entry is None or entry.mode != mode:
                        entry = known[oid] = _tree_entry(mode, oid)
                found.append((name.decode(_FS_ENCODING, _FS_ERRORS), entry, oid))
            self._walked[tree] = found
        return found

    def changed(self, base: str, head: str) -> list[tuple[str, TreeEntry | None, TreeEntry | None]]:
        """What `git diff-tree -r --no-renames base head` lists: (path, BASE's entry, HEAD's entry; None for the side
        without one) for every blob, symlink or gitlink that differs, ordered by the path's bytes (git's order).
        Only subtrees that differ are read (in proportion to the change), through the batch process."""
        (old_top, raw), (new_top, _) = self._root(base), self._root(head)
        objects = self._tree_objects
        out: list[tuple[bytes, TreeEntry | None, TreeEntry | None]] = []
        level: list[tuple[bytes, str | None, str | None]] = [(b"", old_top, new_top)] if old_top != new_top else []
        while level:
            self._fetch([oid for _, *pair in level for oid in pair if oid is not None], raw, head)
            deeper: list[tuple[bytes, str | None, str | None]] = []
            for prefix, old_tree, new_tree in level:
                old = {name: (mode, oid) for mode, name, oid in objects[old_tree]} if old_tree else {}
                new = {name: (mode, oid) for mode, name, oid in objects[new_tree]} if new_tree else {}
                for name in old.keys() | new.keys():
                    before, after = old.get(name), new.get(name)
                    if before == after:
                        continue
                    below = [side[1] if side is not None and side[0] == TREE_MODE else None for side in (before, after)]
                    if below != [None, None]:
                        deeper.append((prefix + name + b"/", below[0], below[1]))
                    files = [TreeEntry(*side) if side is not None and side[0] != TREE_MODE else None
                             for side in (before, after)]
                    if files != [None, None]:
                        out.append((prefix + name, files[0], files[1]))
            level = deeper
        out.sort(key=lambda row: row[0])
        return [(os.fsdecode(path), old_entry, new_entry) for path, old_entry, new_entry in out]

    def read(self, commit: str, path: str, limit: int | None = None) -> bytes | None:
        """The content of `path` at `commit` (None when it is not a regular file or symlink there)."""
        entry = self.tree(commit).get(path)
        if entry is None or entry.is_gitlink:
            return None
        return self.blob(entry.oid, limit)

    def last_change(self, commit: str, path: str) -> str | None:
        """The last commit at or before `commit` that changed `path` ('' for the whole tree), if any."""
        # From the top of the tree, taken literally: `repo` may be a subfolder, a name may hold `*`.
        spec = ["--", f":(top,literal){path.strip('/')}"] if path.strip("/") else []
        out = self._git(["log", "-1", "--format=%H", commit, *spec],
                        f"cannot read the history of {path or 'the tree'}")
        return out.decode().strip() or None

    def walk(self, commit: str, prefix: str) -> Iterator[tuple[str, TreeEntry]]:
        """Every entry of `commit` under the folder `prefix` ('' for the whole tree), by relative path."""
        folder = PurePosixPath(prefix).as_posix().strip("/") if prefix not in ("", ".") else ""
        lead = f"{folder}/" if folder else ""
        for path, entry in self.tree(commit).items():
            if path.startswith(lead):
                yield path[len(lead):], entry

    def export(self, commit: str, prefix: str, dest: Path) -> int:
        """Write the regular files under `prefix` at `commit` into the new folder `dest`; symlinks and
        gitlinks are refused (a bundle read from git must not point outside itself). Returns the count."""
        files: list[tuple[str, str]] = []
        for rel, entry in self.walk(commit, prefix):
            if entry.is_symlink or entry.is_gitlink:
                raise GitObjectsError("a symlink or submodule inside a folder read from git",
                                      where=f"{commit[:12]}:{prefix.strip('/')}/{rel}",
                                      hint="keep policy bundles as plain files")
            if any(part in ("", ".", "..") for part in rel.split("/")):
                raise GitObjectsError("a path that would leave the export folder",
                                      where=f"{commit[:12]}:{prefix.strip('/')}/{rel}")
            files.append((rel, entry.oid))
        # Every blob asked in one round trip (a few dozen at a time), not one request and answer per file.
        try:
            answers = self._cat.read_many([oid.encode() for _, oid in files], b"blob")
        except CatFileError as exc:
            raise GitObjectsError(exc.what, where=exc.where, hint=exc.hint) from None
        for (rel, oid), (header, data) in zip(files, answers, strict=True):
            if data is None:
                raise GitObjectsError(f"object {oid} is not a blob ({header.decode(errors='replace').strip()})",
                                      where=str(self.repo))
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        return len(files)

    def _git(self, args: list[str], what: str, *, hint: str | None = None, cwd: Path | None = None,
             env: dict[str, str] | None = None) -> bytes:
        try:
            done = subprocess.run([git_program(), *SAFE_GIT, *args], cwd=cwd or self.repo, env=env or self._env,
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=self._timeout)
        except OSError as exc:
            raise GitObjectsError(f"cannot run git: {exc.strerror}", hint="install git") from None
        except subprocess.TimeoutExpired:
            raise GitObjectsError(f"{what}: git {args[0]} did not finish within {self._timeout:g} s",
                                  where=str(self.repo)) from None
        if done.returncode != 0:
            lines = [ln.strip() for ln in done.stderr.decode(errors="replace").splitlines() if ln.strip()]
            reasons = [ln for ln in lines if ln.startswith(("fatal:", "error:"))]
            detail = f": {reasons[0]}" if reasons else ""
            raise GitObjectsError(f"{what}{detail}", where=str(self.repo), hint=hint)
        return done.stdout
