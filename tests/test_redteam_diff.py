"""Red-team regressions for the patch parser: crafted headers must not blow up time or memory,
and the parser must never read fewer or other paths than `git apply` would touch."""

from __future__ import annotations

import io
import subprocess
import tracemalloc
from pathlib import Path

from gitrepo import GitRepo
from tables import each_case

from gatekeeper.diff import parse_patch_stream
from gatekeeper.errors import PatchError


def _parse(data: bytes) -> list[tuple[str, str | None, str]]:
    return [(c.path, c.old_path, c.status) for c in parse_patch_stream(io.BytesIO(data), "p.diff")]


def _peak_bytes(data: bytes) -> int:
    tracemalloc.start()
    try:
        try:
            _parse(data)
        except PatchError:
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@each_case("header", [
        b"a/x" + b" " * 60_000 + b"b/x",  # every space a split point
        b"a/" + b"x " * 30_000 + b"b/x",
        b"a/x" + b' "' * 30_000 + b'"',  # quoted-second-name candidates
    ])
def test_header_with_many_split_points_stays_small(header: bytes) -> None:
    data = b"diff --git " + header + b"\nold mode 100644\nnew mode 100755\n"
    # Reading every split of a 60 KB header as two new byte strings took ~5 GB and 8 s.
    assert _peak_bytes(data) < 16 << 20


def test_many_split_points_with_named_sides_stays_small() -> None:
    name = b"d" + b" d" * 15_000
    data = (
        b"diff --git a/" + name + b" b/" + name + b"\nindex 1111111..2222222 100644\n--- a/" + name + b"\t\n+++ b/"
        + name + b"\t\n@@ -1 +1 @@\n-x\n+y\n"
    )
    assert _peak_bytes(data) < 16 << 20
    assert _parse(data) == [(name.decode(), None, "modified")]


def test_header_split_results_unchanged(git_repo: GitRepo, tmp_path: Path) -> None:
    # Names with spaces that look like prefixes: the parser reads what git wrote.
    git_repo.write("a b/c d", "1\n")
    git_repo.write("x b/x", "")
    git_repo.commit()
    git_repo.write("a b/c d", "2\n")
    (git_repo.root / "x b/x").chmod(0o755)
    git_repo.write("new b/new b", "")
    patch = git_repo.staged_patch()
    assert sorted(_parse(patch)) == [
        ("a b/c d", None, "modified"),
        ("new b/new b", None, "added"),
        ("x b/x", None, "mode_changed"),
    ]
    numstat = subprocess.run(["git", "apply", "--numstat", "-z", "-"], input=patch, capture_output=True, check=True,
                             cwd=git_repo.root).stdout
    assert sorted(p.decode() for p in numstat.split(b"\0") if p) == sorted(
        f"{a}\t{d}\t{p}" for a, d, p in (("1", "1", "a b/c d"), ("0", "0", "new b/new b"), ("0", "0", "x b/x"))
    )
