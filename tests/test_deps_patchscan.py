"""The gate's second read of a patch (the delta's sections): the mapped scan must yield exactly the lines, with
the same numbers, that the streamed filter yields, on real git patches and on mutated ones."""

from __future__ import annotations

import io
import random
from bisect import bisect_right
from pathlib import Path

import pytest
from gitrepo import GitRepo
from tables import each_case

from gatekeeper.deps import patchscan
from gatekeeper.deps.patchscan import candidates, mapped, may_hold_dependencies, section_lines
from gatekeeper.deps.sources import patch_delta
from gatekeeper.diff import HashingReader
from gatekeeper.diff.lines import MAX_KEPT, read_lines

NAMES = ["src/app.py", "README.md", "package.json", "web/package-lock.json", "go.sum", "svc/go.mod",
         ".github/workflows/ci.yml", "Dockerfile", "deploy/values.YAML", "docs/guide.txt", "Cargo.toml",
         "requirements-dev.txt", "weird name/with space.c", "tools/.npmrc", "img.png", "Sub/REQUIREMENTS.TXT"]


def streamed(data: bytes) -> list[tuple[int, bytes, bool]]:
    return list(candidates(read_lines(HashingReader(io.BytesIO(data)), "p")))


def scanned(path: Path) -> list[tuple[int, bytes, bool]]:
    with open(path, "rb") as handle:
        view = mapped(handle)
        assert view is not None
        try:
            return list(section_lines(view, "p"))
        finally:
            view.close()


def _real_patch(root: Path, seed: int) -> bytes:
    rng = random.Random(seed)
    repo = GitRepo(root / f"repo{seed}")
    for name in NAMES:
        repo.write(name, "".join(f"line {i} of {name}\n" for i in range(rng.randint(1, 30))))
    (repo.root / "img.png").write_bytes(bytes(range(256)) * 4)
    repo.commit("base")
    for name in rng.sample(NAMES, rng.randint(1, len(NAMES))):
        action = rng.choice(["edit", "delete", "crlf", "rename"])
        target = repo.root / name
        if action == "edit":
            target.write_bytes(target.read_bytes() + b"+Subproject commit " + b"1" * 40 + b"\nmore\n")
        elif action == "delete":
            target.unlink()
        elif action == "crlf":
            target.write_bytes(target.read_bytes().replace(b"\n", b"\r\n"))
        else:
            target.rename(target.with_name("moved-" + target.name))
    repo.git("add", "-A")
    gitlink_names = ["lib/thing", "vendor/Other Thing", "package-lock.json.d"]
    for number, gitlink in enumerate(gitlink_names[: rng.randint(0, 3)]):
        repo.git("update-index", "--add", "--cacheinfo", f"160000,{str(number + 1) * 40},{gitlink}")
    return repo.git("diff", "--cached", "--binary", *(["-M"] if seed % 2 else []))


# Mutations that move section boundaries, hunk starts and gitlink pointers, or cut lines.
PIECES = [b"diff --git a/x b/x", b"diff --git a/go.sum b/go.sum", b"@@ -1 +1 @@", b"+Subproject commit " + b"2" * 40,
          b"-Subproject commit " + b"3" * 40, b"\r", b"", b" context", b"\\ No newline at end of file", b"\xff\xfe"]
# A header longer than the kept part of a line: the candidate name past the cut does not count (slow to search:
# inserted at most once a variant).
LONG = b"diff --git a/" + b"q" * MAX_KEPT + b"/package.json b/x"


def _mutate(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")[:-1]
    for _ in range(rng.randint(1, 6)):
        at = rng.randint(0, len(lines))
        choice = rng.random()
        if choice < 0.6:
            lines.insert(at, rng.choice(PIECES))
        elif choice < 0.8 and lines:
            del lines[min(at, len(lines) - 1)]
        elif lines:
            lines.insert(at, lines[rng.randrange(len(lines))])
    if rng.random() < 0.2:
        lines.insert(rng.randint(0, len(lines)), LONG)
    if rng.random() < 0.3:
        lines.insert(0, b"From 1234 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] a preamble")
    return b"\n".join(lines) + b"\n"


@each_case("seed", range(6))
def test_the_mapped_scan_yields_the_streamed_lines(tmp_path: Path, seed: int) -> None:
    real = _real_patch(tmp_path, seed)
    rng = random.Random(seed)
    variants = [real] + [_mutate(real, rng) for _ in range(30)]
    for number, data in enumerate(variants):
        path = tmp_path / f"v{number}.diff"
        path.write_bytes(data)
        assert scanned(path) == streamed(data), f"seed {seed} variant {number}"
    path = tmp_path / "real.diff"
    path.write_bytes(real)
    assert patch_delta(path, parse_all=False) == patch_delta(None, io.BytesIO(real), parse_all=False)
    assert patch_delta(path, parse_all=False) == patch_delta(path)
    assert may_hold_dependencies(path)


def test_a_patch_without_a_final_newline_or_of_nothing_is_streamed(tmp_path: Path) -> None:
    for data in (b"", b"diff --git a/go.sum b/go.sum"):
        path = tmp_path / "p.diff"
        path.write_bytes(data)
        with open(path, "rb") as handle:
            assert mapped(handle) is None  # read as a stream, which reports the missing newline


@pytest.mark.parametrize("seed", range(3))
def test_may_hold_dependencies_is_whether_any_header_is_a_candidate(tmp_path: Path, seed: int) -> None:
    """The whole-patch test stops at the first candidate header: the same answer as the set of every candidate
    header the mapped scan keeps (empty for a patch of source files only)."""
    rng = random.Random(seed)
    repo = GitRepo(tmp_path / "repo")
    names = ["src/a.c", "lib/b.py", "docs/c.md", *rng.sample(NAMES, 2)]
    for name in names:
        repo.write(name, "one\n")
    repo.commit("base")
    for name in names:
        repo.write(name, "two\n")
    repo.git("add", "-A")
    real = repo.git("diff", "--cached")
    sources_only = b"".join(b"diff --git" + part for part in real.split(b"diff --git")[1:]
                            if b"/src/a.c " in part or b"/lib/b.py " in part or b"/docs/c.md " in part)
    for number, data in enumerate([real, sources_only, *(_mutate(real, rng) for _ in range(10))]):
        path = tmp_path / f"m{number}.diff"
        path.write_bytes(data)
        with open(path, "rb") as handle:
            view = mapped(handle)
            assert view is not None
            try:
                expected = view.find(b"Subproject commit ") >= 0 or bool(
                    patchscan._candidate_headers(view, patchscan._header_starts(view)))
            finally:
                view.close()
        assert may_hold_dependencies(path) == expected, number
        if number == 1:
            assert not expected


def test_the_candidate_headers_found_by_their_words_are_the_ones_the_pattern_finds(tmp_path: Path) -> None:
    """`_candidate_headers` finds each of the pattern's texts with `find` instead of searching with the pattern:
    the same headers, over every word, each at the start, the end and inside a name, cut by the header length
    bound, in upper case, near misses (a word with one letter changed), and random names."""
    words = patchscan._CANDIDATE_WORDS
    assert words is not None and b".yaml" in words and b".yml" in words and b"pip.ini" in words
    rng = random.Random(7)
    names = [*NAMES]
    for word in words:
        text = word.decode()
        names += [f"{text}x", f"x/{text}", f"a{text}b.c", text.upper(), f"{text[:-1]}#{text[-1]}",
                  f"{'d' * (MAX_KEPT - 20)}/{text}", f"{text[:1]}_{text[1:]}"]
    alphabet = "abcdefghijklmnopqrstuvwxyz./-_"
    names += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30))) for _ in range(3000)]
    patch = b"".join(f"diff --git a/{name} b/{name}\nindex 1111111..2222222 100644\n".encode() for name in names)
    path = tmp_path / "headers.diff"
    path.write_bytes(patch)
    with open(path, "rb") as handle:
        view = mapped(handle)
        assert view is not None
        try:
            starts = patchscan._header_starts(view)
            joined, ends = patchscan._joined_headers(view, starts)
            expected = {bisect_right(ends, m.start()) for m in patchscan._CANDIDATE_LOWER.finditer(joined)}
            found = patchscan._candidate_headers(view, starts)
        finally:
            view.close()
    assert found == expected and 0 < len(found) < len(names)
