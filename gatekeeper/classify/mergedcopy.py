"""A changed file as merging HEAD into BASE writes it, when BASE and the change both changed it (red team 28).

The content tier reads HEAD's copy and BASE's; git's merge combines them. When each adds half of a manifest (BASE an
`apiVersion:` line, a branch forked before it a `kind:` line), neither copy is one and the merged file is. The merged
text comes from `git merge-file` of the merge base's, BASE's and HEAD's blobs (the line merge git's own merge makes;
a conflict leaves both sides and markers in, which is read all the same).
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

from gatekeeper.classify.contexttypes import Shown
from gatekeeper.classify.sniff import FULL_READ, is_candidate
from gatekeeper.gitcmd import SAFE_GIT, git_program, scrubbed_git_env
from gatekeeper.gitobjects import GitObjects, TreeEntry
from gatekeeper.model import FileChange

MAX_MERGED = 8 << 20  # each copy merged; a longer one is judged by its copies alone (docs/classification.md)
_REGULAR = ("100644", "100755")
Trees = tuple[Mapping[str, TreeEntry], Mapping[str, TreeEntry], Mapping[str, TreeEntry]]  # merge base, BASE, HEAD


def shown(objects: GitObjects, trees: Trees, change: FileChange, every_type: bool) -> list[Shown]:
    """The merged file as one more Shown (its first FULL_READ + 1 bytes, as the copies are read); none when the merge
    writes a copy already read (only one side changed it), a side is no regular file, or git cannot merge."""
    start_tree, base_tree, head_tree = trees
    if change.status == "deleted" or base_tree is start_tree or not (every_type or is_candidate(change.path)):
        return []
    old = change.old_path or change.path
    entries = (start_tree.get(old), base_tree.get(change.path) or base_tree.get(old), head_tree.get(change.path))
    if any(entry is None or entry.mode not in _REGULAR for entry in entries) or \
            len({entry.oid for entry in entries if entry is not None}) < 3:
        return []
    blobs = [objects.blob(entry.oid, MAX_MERGED + 1) for entry in entries if entry is not None]
    if any(len(blob) > MAX_MERGED for blob in blobs):
        return []
    merged = _merge_file(*blobs)
    return [] if merged is None else [Shown(change.path, merged[:FULL_READ + 1], True)]


def _merge_file(start: bytes, base: bytes, head: bytes) -> bytes | None:
    with tempfile.TemporaryDirectory(prefix="gatekeeper-merge-") as tmp:
        names = []
        for name, data in (("base", base), ("start", start), ("head", head)):
            Path(tmp, name).write_bytes(data)
            names.append(str(Path(tmp, name)))
        try:
            done = subprocess.run([git_program(), *SAFE_GIT, "merge-file", "-p", *names], cwd=tmp,
                                  env=scrubbed_git_env(), capture_output=True, timeout=60, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
    # merge-file exits with the number of conflicts (0-127), and negative (255) when it cannot merge (binary).
    return done.stdout if 0 <= done.returncode < 128 else None
