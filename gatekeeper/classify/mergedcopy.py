"""A changed file as merging HEAD into BASE writes it, when BASE and the change both changed it (red team 28).

The content tier reads HEAD's copy and BASE's; git's merge combines them. When each adds half of a manifest (BASE an
`apiVersion:` line, a branch forked before it a `kind:` line), neither copy is one and the merged file is. The merged
text is what git's own merge writes (`git merge-tree --write-tree` of BASE and HEAD, as the gate's merge check runs
it; a conflict leaves both sides and markers in, which is read all the same).

One merge for the whole change, on the first file that needs it (red team 32: one `git merge-file` a file was 2,000
processes for 2,000 such files). Its blobs and trees land in a scratch object folder (the repository's objects are
only read), so its blobs are read through a `git cat-file --batch` of their own on that folder, not GitObjects'.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

from gatekeeper.catfile import CatFile, CatFileError
from gatekeeper.classify.contexttypes import Shown
from gatekeeper.classify.sniff import FULL_READ, is_candidate
from gatekeeper.gitcmd import GIT_TIMEOUT, MERGE_FOLLOWING_RENAMES, SAFE_GIT, git_program
from gatekeeper.gitobjects import GitObjectsError, TreeEntry
from gatekeeper.model import FileChange
from gatekeeper.revrange import RevRange
from gatekeeper.treecheck import scratch_env

_REGULAR = ("100644", "100755")
Trees = tuple[Mapping[str, TreeEntry], Mapping[str, TreeEntry], Mapping[str, TreeEntry]]  # merge base, BASE, HEAD


class MergedCopies:
    """The files merging HEAD into BASE writes, for the changed files BASE and the change both changed; `close()`
    ends its batch process and removes its scratch folder."""

    def __init__(self, revs: RevRange, trees: Trees) -> None:
        self._revs = revs
        self._trees = trees
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        self._cat: CatFile | None = None
        self._merged: dict[str, TreeEntry] | None = None  # {path: entry} where the merge differs from BASE

    def close(self) -> None:
        if self._cat is not None:
            self._cat.close()
            self._cat = None
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None

    def shown(self, change: FileChange, every_type: bool) -> list[Shown]:
        """The merged file as one more Shown (its first FULL_READ + 1 bytes, as the copies are read); none when the
        merge writes a copy already read (only one side changed it, or git kept BASE's), or a side is no regular
        file. GitObjectsError when git cannot merge (older than 2.38): the merged file is not left unread."""
        start_tree, base_tree, head_tree = self._trees
        if change.status == "deleted" or base_tree is start_tree or not (every_type or is_candidate(change.path)):
            return []
        old = change.old_path or change.path
        entries = (start_tree.get(old), base_tree.get(change.path) or base_tree.get(old), head_tree.get(change.path))
        if any(entry is None or entry.mode not in _REGULAR for entry in entries) or \
                len({entry.oid for entry in entries if entry is not None}) < 3:
            return []
        merged = self._merge().get(change.path)
        if merged is None or merged.mode not in _REGULAR or any(e is not None and e.oid == merged.oid for e in entries):
            return []
        assert self._cat is not None
        try:
            header, data = self._cat.read(merged.oid.encode(), b"blob", FULL_READ + 1)
        except CatFileError as exc:
            raise GitObjectsError(exc.what, where=exc.where, hint=exc.hint) from None
        if data is None:
            raise GitObjectsError(f"cannot read the merged copy of {change.path!r} ({header.decode(errors='replace')})",
                                  where=str(self._revs.repo))
        return [Shown(change.path, data, True)]

    def _merge(self) -> dict[str, TreeEntry]:
        """{path: entry} of every file the merge of HEAD into BASE writes other than BASE holds it (merged once)."""
        if self._merged is not None:
            return self._merged
        revs = self._revs
        self._scratch = tempfile.TemporaryDirectory(prefix="gatekeeper-merged-")
        work, env = scratch_env(revs, self._scratch.name)
        # A merge with conflicts (exit 1) still writes its tree, the conflicted files with markers in them.
        tree = _git(work, env, [*MERGE_FOLLOWING_RENAMES, "merge-tree", "--write-tree", "--no-messages", "-z",
                                revs.base_commit, revs.head_commit], (0, 1), str(revs.repo)).split(b"\0")[0]
        listing = _git(work, env, ["diff-tree", "-r", "-z", "--no-renames", revs.base_commit, tree.decode()], (0,),
                       str(revs.repo))
        merged: dict[str, TreeEntry] = {}
        fields = listing.split(b"\0")
        for at in range(0, len(fields) - 1, 2):  # `:old-mode new-mode old-id new-id status`, then the path
            meta = fields[at].decode().split()
            if len(meta) == 5 and meta[4] != "D":
                merged[os.fsdecode(fields[at + 1])] = TreeEntry(meta[1], meta[3])  # decoded as the trees' paths are
        self._cat = CatFile(work, env, shareable=False)
        self._merged = merged
        return merged


def _git(work: Path, env: dict[str, str], args: list[str], ok: tuple[int, ...], where: str) -> bytes:
    """git's output as bytes (paths as git stores them); GitObjectsError when it fails: a file the merge writes is
    never left unread."""
    try:
        done = subprocess.run([git_program(), *SAFE_GIT, *args], cwd=work, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitObjectsError(f"cannot run git to merge HEAD into BASE: {exc}", where=where) from None
    if done.returncode not in ok:
        reason = done.stderr.decode(errors="replace").strip().splitlines()[:1] or [f"exit code {done.returncode}"]
        raise GitObjectsError(f"cannot read the files the merge of HEAD into BASE writes: {reason[0]}", where=where,
                              hint="classifying with --tree needs git 2.38 or newer (git merge-tree --write-tree)")
    return done.stdout
