"""PatchContext's section reader: the section at a `diff --git` line, found past thousands of lines whole buffers at
a time, is exactly the section a plain line-by-line reading of the patch finds (real git patches, lines longer than
the buffer and newlines on its edges)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from gitdiffs import commit_patch
from tables import each_case

from gatekeeper.classify import load_rules, patchcontext, walkpaths
from gatekeeper.classify.patchcontext import _SKIP_BUFFER, PatchContext, _Sections
from gatekeeper.classify.sniff import LONG_WINDOW
from gatekeeper.classify.tasks import MAX_DEFINITIONS
from gatekeeper.diff import parse_patch
from gatekeeper.model import FileChange
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


@each_case("step", [1, 7, 97, 299])
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


@each_case("before", [-5, -1, 0, 1])
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


def _plain_walk(context: PatchContext) -> list[tuple[str, list[str], list[str]]]:
    """The patterns each definition (and each file it runs that the patch shows, in patch order) names, the plain
    way: every pattern compared with every path by `walkpaths.reaches`. A patch's walk, read once for all its files."""
    walked: list[tuple[str, list[str], list[str]]] = []
    queue, seen = list(context._pipelines), {c.path for c in context._pipelines}
    while queue and len(walked) < MAX_DEFINITIONS:
        definition = queue.pop(0)
        for shown in context.content(definition, every_type=True):
            if shown.path == definition.path:
                scripts, composed, _ = walkpaths.shown_names(shown.path, shown.data.decode("utf-8", "replace"))
                walked.append((shown.path, scripts, composed))
                for path, other in context._shown.items():
                    if path not in seen and any(walkpaths.reaches(pattern, path) for pattern in scripts):
                        seen.add(path)
                        queue.append(other)
    return walked


def _plain_ci_run(walked: list[tuple[str, list[str], list[str]]], change: FileChange) -> tuple[str, str] | None:
    """`ci_run` for a patch without a .bazelrc, the plain way: each side of the change against every pattern of the
    patch's walk (`_plain_walk`)."""
    for side in change.sides():
        for path, scripts, composed in walked:
            if side != path and any(walkpaths.reaches(pattern, side) for pattern in scripts):
                return "ci.context.ci-run", f"{path} runs {side}"
            if any(walkpaths.reaches(pattern, side) for pattern in composed):
                return "iac.context.compose-file", f"{path} names {side} as a Compose file"
    return None


_WORKFLOW = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"


def test_what_ci_runs_is_found_as_every_pattern_against_every_path_finds_it(git_repo: GitRepo, tmp_path: Path) -> None:
    """ci_run looks a path up among each definition's exact names and tries only the variable patterns (`*`): on a
    real patch of variable and exact names, a script named by two definitions, a file named first as a Compose file,
    scripts that run scripts (queued in patch order, whatever order they are named in) and a workflow naming itself,
    every file gets what comparing every pattern with every path gives."""
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    steps = {
        ".github/workflows/a.yml": ["docker compose -f deploy/compose.yml -f deploy/only.yml up",
                                    "./scripts/${{ matrix.name }}.sh", "sh ci/$STAGE/run.sh"],
        ".github/workflows/b.yml": ["bash deploy/compose.yml", "bash .github/workflows/b.yml", "bash tools/only.sh",
                                    "bash zz/last.sh && bash aa/first.sh"],  # exact names only, not in patch order
    }
    for path, runs in steps.items():
        git_repo.write(path, _WORKFLOW + "".join(f"      - run: {run}\n" for run in runs))
    git_repo.write(".gitlab-ci.yml", "include:\n  - local: ci/*.yml\n  - local: ci/jobs/build.yml\n")
    git_repo.write("zz/last.sh", "bash common/x.sh\n./lib/run_$X.sh\n")
    git_repo.write("aa/first.sh", "bash common/x.sh\nbash tools/build.sh\n")
    for path in ("deploy/compose.yml", "deploy/only.yml", "scripts/lint.sh", "ci/jobs/build.yml", "ci/deploy.yml",
                 "ci/stage1/run.sh", "common/x.sh", "lib/run_fast.sh", "tools/build.sh", "tools/only.sh",
                 "tools/other.sh"):
        git_repo.write(path, "echo ok\n")
    for i in range(300):
        git_repo.write(f"src/p{i % 7}/f{i}.go", f"package p\n\n// {i}\n")
    git_repo.commit("head")
    patch = tmp_path / "c.diff"
    patch.write_bytes(commit_patch(git_repo, "main~1", "main", "--binary"))
    changes = list(parse_patch(patch))
    indexed, plain = PatchContext(patch, changes, RULES.context), PatchContext(patch, changes, RULES.context)
    try:
        found = {c.path: indexed.ci_run(c) for c in changes}
        walked = _plain_walk(plain)
        assert found == {c.path: _plain_ci_run(walked, c) for c in changes}
    finally:
        indexed.close()
        plain.close()
    assert found["common/x.sh"] == ("ci.context.ci-run", "aa/first.sh runs common/x.sh")  # queued in patch order
    assert found["tools/build.sh"] == ("ci.context.ci-run", "aa/first.sh runs tools/build.sh")  # a script's script
    assert found["deploy/compose.yml"] == ("iac.context.compose-file",
                                           ".github/workflows/a.yml names deploy/compose.yml as a Compose file")
    assert found["deploy/only.yml"] == ("iac.context.compose-file",
                                        ".github/workflows/a.yml names deploy/only.yml as a Compose file")
    assert found[".github/workflows/b.yml"] is None  # naming itself is not running another file
    for path, by in (("scripts/lint.sh", ".github/workflows/a.yml"), ("ci/stage1/run.sh", ".github/workflows/a.yml"),
                     ("ci/deploy.yml", ".gitlab-ci.yml"), ("lib/run_fast.sh", "zz/last.sh"),
                     ("tools/only.sh", ".github/workflows/b.yml")):
        assert found[path] == ("ci.context.ci-run", f"{by} runs {path}"), path
    assert found["tools/other.sh"] is None and found["src/p0/f0.go"] is None


def test_each_configuration_the_patch_shows_is_read_once(git_repo: GitRepo, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # Every file no tier reads asks whether a configuration above it names it (context.refine's fast path, the
    # seventy-ninth set): a root Dockerfile was parsed again for each of them, 10,000 times in bench_deps_gate.py's
    # gate (+0.5 s). It is read once; the answers are the same.
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    for i in range(300):
        git_repo.write(f"src/p{i % 30}/f{i}.txt", f"{i}\n")
    git_repo.write("Dockerfile", "FROM alpine:3.20\nCOPY src/ /app/\nRUN sh /app/p1/f1.txt\n")
    git_repo.write("infra/main.tf", 'resource "x" "y" {\n  content = file("${path.module}/../src/p2/f2.txt")\n}\n')
    git_repo.commit("head")
    patch = tmp_path / "c.diff"
    patch.write_bytes(commit_patch(git_repo, "main~1", "main", "--binary"))
    changes = list(parse_patch(patch))
    calls: list[str] = []
    real = patchcontext.names_in
    monkeypatch.setattr(patchcontext, "names_in", lambda where, text: calls.append(where) or real(where, text))
    context = PatchContext(patch, changes, RULES.context)
    try:
        named = {c.path: context.terraform_ref(c) for c in changes}
    finally:
        context.close()
    assert sorted(calls) == ["Dockerfile", "infra/main.tf"]  # each once (301 files ask for the Dockerfile)
    assert named["src/p1/f1.txt"] is not None and named["src/p3/f3.txt"] is None
