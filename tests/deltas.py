"""The dependency delta of two commits of a test repository, read both ways the gate reads it."""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib.util
import io
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import pytest
from gitdiffs import commit_patch

from gatekeeper.cli import main
from gatekeeper.deps.model import Change, ManifestError
from gatekeeper.deps.sources import Delta, patch_delta, tree_delta
from tests.gitrepo import GitRepo, edited_commits, two_commits


def cli_json(folder: Path, capsys: pytest.CaptureFixture[str], base: dict[str, str], head: dict[str, str], *,
             tree: bool) -> dict[str, list[dict[str, str]]]:
    """`gatekeeper deps --format json` on a repository in `folder` whose second commit changes `base` into `head`:
    with `--tree` (`tree`), else on the patch git makes between them."""
    repo, first, last = two_commits(folder / "repo", {"README.md": "app\n", **base}, head)
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        if tree:
            assert main(["deps", "--tree", f"{first}..{last}", "--format", "json"]) == 0
        else:
            patch = repo.root.parent / "c.diff"
            patch.write_bytes(repo.git("diff", "--binary", first, last))
            assert main(["deps", str(patch), "--format", "json"]) == 0
    result: dict[str, list[dict[str, str]]] = json.loads(capsys.readouterr().out)
    return result


def tree(repo: GitRepo, base: str, head: str) -> Delta:
    """From the commits' git objects (`--tree BASE..HEAD`)."""
    with repo.objects() as git:
        return tree_delta(git, base, head)


def both_edited(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[Delta, Delta]:
    """The delta of `edited_commits(root / "repo", files, edits)` with the commits, then from git's patch of them."""
    repo, base, head = edited_commits(root / "repo", files, edits)
    return tree(repo, base, head), patch_delta(None, io.BytesIO(commit_patch(repo, base, head)))


def patch(repo: GitRepo, base: str, head: str, *extra: str) -> Delta:
    """From the patch git makes between them (`extra`: more `git diff` options), read from a stream."""
    patch = commit_patch(repo, base, head, "--binary", *extra)  # git writes it (tests/gitdiffs.py)
    return patch_delta(None, io.BytesIO(patch))


def moves(delta: Delta) -> set[tuple[str, str, str | None, str | None]]:
    """(ecosystem, name, from, to) of every change."""
    return {(c.ecosystem, c.name, c.from_version, c.to_version) for c in delta.changes}


def partial(delta: Delta, path: str) -> bool:
    """Whether `path` has a `partial` problem (what the patch shows of it cannot be read safely)."""
    return any(p.manifest == path and p.kind == "partial" for p in delta.problems)


def refused(call: Callable[[], object]) -> None:
    """Call `call`; a ManifestError (the reader refusing the input) is an answer as good as a result here."""
    try:
        call()
    except ManifestError:
        pass


def each_fast(calls: Sequence[tuple[Callable[[], object], str]], limit: float) -> None:
    """Every (call, what) answers within `limit` CPU seconds: fed hostile input built against its patterns, a linear
    reader takes milliseconds, a quadratic walk minutes."""
    for call, what in calls:
        # This thread's CPU, the garbage collector off: neither another thread of the worker nor a collector pass
        # over a long-lived pytest worker's heap is the reader's cost (once 0.5 s of CPU landed on a 0.12 s call
        # during `make test`, three jobs side by side).
        gc.disable()
        try:
            started = time.thread_time()
            call()
            took = time.thread_time() - started
        finally:
            gc.enable()
        assert took < limit, what


@functools.cache
def accuracy_bench() -> ModuleType:
    """bench/bench_deps_accuracy.py as a module, loaded once a process: the label rounds test its naming rules."""
    path = Path(__file__).resolve().parent.parent / "bench" / "bench_deps_accuracy.py"
    spec = importlib.util.spec_from_file_location("bench_deps_accuracy_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def bench_change(ecosystem: str, name: str, **more: str) -> Change:
    """A delta's change of `name` as the benchmark compares it with a row (versions and place do not matter)."""
    return Change(ecosystem, name, "", "f", "1", "2", "upgraded", True, "runtime", **more)  # type: ignore[arg-type]
