"""PatchContext's section reader: the section at a `diff --git` line, found past thousands of lines whole buffers at
a time, is exactly the section a plain line-by-line reading of the patch finds (real git patches, lines longer than
the buffer and newlines on its edges)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from gitdiffs import commit_patch

from gatekeeper.classify import load_rules
from gatekeeper.classify.patchcontext import _SKIP_BUFFER, PatchContext, _Sections
from gatekeeper.classify.sniff import LONG_WINDOW
from gatekeeper.diff import parse_patch
from tests.gitrepo import GitRepo

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")


def _reference(patch: bytes) -> dict[int, tuple[bytes, bytes]]:
    """Every section by its `diff --git` line, read the plain way: each line of the patch in order (kept as `_collect`
    keeps it)."""
    found: dict[int, tuple[list[bytes], list[bytes], list[int]]] = {}
    current = None
    in_hunk = False
    for number, raw in enumerate(patch.splitlines(keepends=True), 1):
        if raw.startswith(b"diff --git "):
            current = found[number] = ([], [], [0, 0])
            in_hunk = False
            continue
        if raw.startswith(b"@@"):
            in_hunk = True
            continue
        if current is None or not in_hunk:
            continue
        old, new, sizes = current
        mark, body = raw[:1], raw[1:]
        if mark in (b" ", b"-") and sizes[0] < LONG_WINDOW:
            old.append(body)
            sizes[0] += len(body)
        if mark in (b" ", b"+") and sizes[1] < LONG_WINDOW:
            new.append(body)
            sizes[1] += len(body)
    return {line: (b"".join(old), b"".join(new)) for line, (old, new, _) in found.items()}


@pytest.fixture(scope="module")
def long_patch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """A real patch of 300 files whose lines vary from empty to past the read buffer, and its sections' lines."""
    repo = GitRepo(tmp_path_factory.mktemp("sections") / "repo")
    rng = random.Random(20261203)
    repo.write("README.md", "x\n")
    for i in range(300):
        repo.write(f"pkg{i % 13}/f{i}.txt", "".join(f"{'b' * rng.randrange(0, 90)}\n" for _ in range(6)))
    repo.commit("base")
    for i in range(300):
        width = rng.choice((_SKIP_BUFFER - 1, _SKIP_BUFFER, _SKIP_BUFFER + 7) if i % 25 == 3 else (0, 1, 79, 4000))
        repo.write(f"pkg{i % 13}/f{i}.txt", "".join(f"{'h' * width}{j}\n" for j in range(rng.randrange(1, 4))))
    repo.commit("head")
    patch = repo.root.parent / "c.diff"
    patch.write_bytes(commit_patch(repo, "main~1", "main", "--binary"))
    return patch, [change.line for change in parse_patch(patch)]


@pytest.mark.parametrize("step", [1, 7, 97, 299])
def test_every_section_asked_in_order_is_the_section_a_plain_reading_finds(long_patch: tuple[Path, list[int]],
                                                                            step: int) -> None:
    patch, starts = long_patch
    data = patch.read_bytes()
    assert len(data) > 20 * _SKIP_BUFFER  # many buffers to count through
    expected = _reference(data)
    assert sorted(expected) == starts
    asked = starts[::step] + ([starts[-1]] if starts[-1] not in starts[::step] else [])
    sections = _Sections(patch)
    try:
        for line in asked:
            assert sections.get(line) == expected[line], line
    finally:
        sections.close()


def test_a_line_that_starts_no_section_and_one_asked_again_earlier(long_patch: tuple[Path, list[int]]) -> None:
    patch, starts = long_patch
    data = patch.read_bytes()
    expected = _reference(data)
    sections = _Sections(patch)
    try:
        assert sections.get(starts[150] + 1) is None  # inside a section: none starts there
        assert sections.get(starts[250]) == expected[starts[250]]
        assert sections.get(starts[10]) == expected[starts[10]]  # earlier: read again from the start
        assert sections.get(len(data.splitlines()) + 5) is None  # past the end
    finally:
        sections.close()


def test_the_context_reads_the_last_file_of_a_long_patch(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    for i in range(800):
        git_repo.write(f"src/p{i % 50}/f{i}.go", f"package p\n\n// {i}\n")
    git_repo.write("zz/pipeline.yaml", "apiVersion: tekton.dev/v1\nkind: Pipeline\nmetadata:\n  name: build\n")
    git_repo.commit("head")
    patch = tmp_path / "c.diff"
    patch.write_bytes(commit_patch(git_repo, "main~1", "main", "--binary"))
    changes = list(parse_patch(patch))
    context = PatchContext(patch, changes, RULES.context)
    try:
        (shown,) = context.content(changes[-1])
    finally:
        context.close()
    assert shown.path == "zz/pipeline.yaml" and shown.data.startswith(b"apiVersion: tekton.dev/v1\nkind: Pipeline\n")


@pytest.mark.parametrize("before", [-5, -1, 0, 1])
def test_a_header_on_the_edge_of_the_read_buffer(git_repo: GitRepo, tmp_path: Path, before: int) -> None:
    """The second section's `diff --git` line starts `before` bytes from the end of the first buffer read (it
    straddles it, or the buffer ends at the newline before it): it is found whole."""
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    patch = tmp_path / "c.diff"

    def take(width: int) -> bytes:
        git_repo.write("a.txt", "a" * width + "\n")
        git_repo.write("b.txt", "b\n")
        git_repo.git("add", "-A")
        return git_repo.git("diff", "--cached", "--binary", "HEAD")

    first = take(1000)
    width = 1000 + _SKIP_BUFFER + before - first.index(b"diff --git a/b.txt")
    data = take(width)
    assert data.index(b"diff --git a/b.txt") == _SKIP_BUFFER + before
    patch.write_bytes(data)
    line = data[: data.index(b"diff --git a/b.txt")].count(b"\n") + 1
    sections = _Sections(patch)
    try:
        assert sections.get(line) == _reference(data)[line] == (b"", b"b\n")
    finally:
        sections.close()
