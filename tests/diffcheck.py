"""Compare what gatekeeper's parser reads from a patch with what git itself reports for the same change."""

from __future__ import annotations

import io
import json
from pathlib import Path

from gitrepo import GitRepo

from gatekeeper.diff import parse_patch_stream
from gatekeeper.model import FileChange

LETTER = {
    "added": "A",
    "modified": "M",
    "mode_changed": "M",
    "deleted": "D",
    "renamed": "R",
    "copied": "C",
    "type_changed": "T",
}


def _dec(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def name_status(repo: GitRepo, *flags: str) -> list[tuple[str, str | None, str]]:
    """(letter with score, old path or None, path) per file, from `git diff --cached --name-status -z`."""
    tokens = repo.git("diff", "--cached", "--name-status", "-z", *flags).split(b"\0")
    out = []
    i = 0
    while i < len(tokens) - 1:
        status = tokens[i].decode()
        if status[0] in "RC":
            out.append((status, _dec(tokens[i + 1]), _dec(tokens[i + 2])))
            i += 3
        else:
            out.append((status, None, _dec(tokens[i + 1])))
            i += 2
    return out


def numstat(repo: GitRepo, *flags: str) -> dict[str, tuple[int | None, int | None]]:
    """{path: (additions, deletions)} from `git diff --cached --numstat -z`; None for a binary file's counts."""
    data = repo.git("diff", "--cached", "--numstat", "-z", *flags)
    out: dict[str, tuple[int | None, int | None]] = {}
    i = 0
    while i < len(data):
        tab1 = data.index(b"\t", i)
        tab2 = data.index(b"\t", tab1 + 1)
        adds, dels = data[i:tab1], data[tab1 + 1 : tab2]
        if data[tab2 + 1 : tab2 + 2] == b"\0":  # rename/copy: empty, then old NUL new NUL
            old_end = data.index(b"\0", tab2 + 2)
            new_end = data.index(b"\0", old_end + 1)
            path = data[old_end + 1 : new_end]
            i = new_end + 1
        else:
            end = data.index(b"\0", tab2 + 1)
            path = data[tab2 + 1 : end]
            i = end + 1
        out[_dec(path)] = (None if adds == b"-" else int(adds), None if dels == b"-" else int(dels))
    return out


def parse_bytes(patch: bytes, name: str = "test.diff") -> list[FileChange]:
    return list(parse_patch_stream(io.BytesIO(patch), name))


def assert_matches_git(repo: GitRepo, *flags: str) -> list[FileChange]:
    """Stage everything, take the patch with `flags`, and assert paths, statuses and counts equal git's own."""
    patch = repo.staged_patch(*flags)
    changes = parse_bytes(patch)
    flags = tuple(f for f in flags if not f.startswith("-U"))  # -U implies -p, which would mix a patch in
    got = [(LETTER[c.status], c.old_path, c.path, c.similarity) for c in changes]
    want = [
        (s[0], old, new, int(s[1:]) if s[0] in "RC" else None) for s, old, new in name_status(repo, *flags)
    ]
    assert got == want
    counts = numstat(repo, *flags)
    assert set(counts) == {c.path for c in changes}
    for change in changes:
        adds, dels = counts[change.path]
        if adds is None:
            assert change.binary and (change.additions, change.deletions) == (0, 0)
        else:
            assert (change.additions, change.deletions) == (adds, dels), change.path
    return changes


BUNDLE_REVISION = "test-revision-7"
FALLBACK_RULES = b"""version: 1
rules:
  - id: test.ci
    bucket: ci
    description: CI workflows
    match: [".github/workflows/**"]
  - id: test.src
    bucket: src
    description: everything else
    match: ["**"]
"""


def make_bundle(folder: Path) -> Path:
    """A policy bundle for packet tests: the shipped classification rules (when present) and our own manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    shipped = Path(__file__).resolve().parent.parent / "policies" / "classification.yaml"
    rules = shipped.read_bytes() if shipped.is_file() else FALLBACK_RULES
    (folder / "classification.yaml").write_bytes(rules)
    (folder / ".manifest").write_text(json.dumps({"revision": BUNDLE_REVISION, "roots": ["gatekeeper"]}))
    return folder
