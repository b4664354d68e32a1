"""Walk round 43: the CI walk's byte budget (walktree.MAX_BYTES; cost40's Left 2).

The walk read up to ciruns.MAX_FILES files of up to FULL_READ each in a tree, at ~1 µs a character: 1,000 files of
1 MiB a workflow runs (an agent can arrange that, `--tree` reads HEAD) cost ~1,000 CPU-s. Past MAX_BYTES read in a
tree the walk stops and fails closed, as past its other bounds: every file it may name is `ci`
(treecontext.ci_run). The trees here are built in memory with the budget lowered, each shape a way a workflow reaches
many large scripts; the bytes the walk reads are counted (bounded work without timing). Look-alikes that must not
change: the same shapes under the budget, large files nothing runs, two trees each under the budget.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_classify, tree_gate

from gatekeeper.classify import ciwalk, walktree
from gatekeeper.classify.treereads import Tree
from gatekeeper.gitobjects import TreeEntry

BUDGET = 512 << 10
LARGE = 64 << 10  # each script: 24 of them are 1.5 MiB, three times the budget
COUNT = 24
WORKFLOW = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{steps}"


def _padded(text: str, size: int) -> str:
    """`text` then comment lines up to `size` bytes (what a bundled or generated script looks like to the walk)."""
    line = "# " + "x" * 76 + "\n"
    return text + line * max(0, (size - len(text)) // len(line))


def _steps(count: int, size: int) -> dict[str, str]:
    steps = "".join(f"      - run: bash scripts/s{i}.sh\n" for i in range(count))
    return {".github/workflows/ci.yml": WORKFLOW.format(steps=steps),
            **{f"scripts/s{i}.sh": _padded("#!/bin/sh\necho ok\n", size) for i in range(count)}}


def _fanout(count: int, size: int) -> dict[str, str]:
    runs = "".join(f"bash tools/t{i}.sh\n" for i in range(count))
    return {".github/workflows/ci.yml": WORKFLOW.format(steps="      - run: ./ci/run.sh\n"),
            "ci/run.sh": "#!/bin/sh\n" + runs,
            **{f"tools/t{i}.sh": _padded("#!/bin/sh\necho ok\n", size) for i in range(count)}}


def _chain(count: int, size: int) -> dict[str, str]:
    return {".github/workflows/ci.yml": WORKFLOW.format(steps="      - run: sh build/c0.sh\n"),
            **{f"build/c{i}.sh": _padded(f"#!/bin/sh\nsh build/c{i + 1}.sh\n" if i + 1 < count else "#!/bin/sh\n",
                                         size) for i in range(count)}}


def _make(count: int, size: int) -> dict[str, str]:
    recipe = "".join(f"\tpython tools/gen{i}.py\n" for i in range(count))
    return {".github/workflows/ci.yml": WORKFLOW.format(steps="      - run: make all\n"),
            "Makefile": "all:\n" + recipe,
            **{f"tools/gen{i}.py": _padded("print('ok')\n", size) for i in range(count)}}


def _gitlab(count: int, size: int) -> dict[str, str]:
    jobs = "".join(f"j{i}:\n  script:\n    - ./release/r{i}.sh\n" for i in range(count))
    return {".gitlab-ci.yml": jobs,
            **{f"release/r{i}.sh": _padded("#!/bin/sh\necho ok\n", size) for i in range(count)}}


SHAPES: dict[str, Callable[[int, int], dict[str, str]]] = {
    "workflow-steps": _steps, "script-fanout": _fanout, "script-chain": _chain, "makefile-recipe": _make,
    "gitlab-jobs": _gitlab}


def _tree(files: dict[str, str]) -> tuple[Tree, dict[str, bytes]]:
    blobs = {hashlib.sha1(text.encode()).hexdigest(): text.encode() for text in files.values()}
    tree = {path: TreeEntry("100755" if path.endswith(".sh") else "100644", hashlib.sha1(text.encode()).hexdigest())
            for path, text in files.items()}
    return tree, blobs


def _walk(trees: tuple[Tree, ...], blobs: dict[str, bytes]) -> tuple[dict[str, tuple[str, str]] | bool, int]:
    """ci_runs over `trees` (no local actions, no rules) and the bytes it read."""
    read = [0]

    def read_blob(entry: TreeEntry) -> bytes:
        data = blobs[entry.oid][:(1 << 20) + 1]
        read[0] += len(data)
        return data

    return ciwalk.ci_runs(trees, read_blob, {}), read[0]


@pytest.fixture
def budget(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(walktree, "MAX_BYTES", BUDGET)
    return BUDGET


@pytest.mark.parametrize("shape", SHAPES)
def test_past_the_byte_budget_the_walk_fails_closed_after_reading_about_the_budget(shape: str, budget: int) -> None:
    files = SHAPES[shape](COUNT, LARGE)
    runs, read = _walk((_tree(files)[0],), _tree(files)[1])
    assert runs is False, (shape, sorted(runs) if isinstance(runs, dict) else runs)
    assert read <= budget + 2 * LARGE + 4096, (shape, read)  # stops at the file past the budget


@pytest.mark.parametrize("shape", SHAPES)
def test_under_the_budget_the_walk_names_the_same_files(shape: str, budget: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    files = SHAPES[shape](COUNT, budget // (4 * COUNT))
    tree, blobs = _tree(files)
    runs, _ = _walk((tree,), blobs)
    assert isinstance(runs, dict)
    named = [path for path in files if path.endswith((".sh", ".py")) and not path.endswith(("c0.sh", "run.sh"))]
    assert set(named) <= set(runs), (shape, sorted(set(named) - set(runs)))
    monkeypatch.undo()  # the default budget: the same answer
    assert _walk((tree,), blobs)[0] == runs


def test_large_files_nothing_runs_are_not_read(budget: int) -> None:
    files = {**_steps(2, 100), **{f"data/blob{i}.sh": _padded("#!/bin/sh\n", LARGE) for i in range(COUNT)}}
    tree, blobs = _tree(files)
    runs, read = _walk((tree,), blobs)
    assert isinstance(runs, dict) and {"scripts/s0.sh", "scripts/s1.sh"} <= set(runs)
    assert not any(path.startswith("data/") for path in runs)
    assert read < budget


def test_the_budget_is_per_tree(budget: int) -> None:
    """BASE and HEAD each read under the budget (HEAD rewrites every script) though both together pass it."""
    size = budget // (COUNT + 4)  # ~0.9 of the budget in each tree
    base, head = _steps(COUNT, size), _steps(COUNT, size)
    head = {path: text.replace("echo ok", "echo ko") for path, text in head.items()}
    (base_tree, base_blobs), (head_tree, head_blobs) = _tree(base), _tree(head)
    runs, read = _walk((base_tree, head_tree), {**base_blobs, **head_blobs})
    assert read > budget
    assert isinstance(runs, dict) and {f"scripts/s{i}.sh" for i in range(COUNT)} <= set(runs)


def _repo_files(size: int) -> dict[str, str]:
    return {**_fanout(12, size), "src/app.py": "print('app')\n"}


def test_a_gate_past_the_budget_reviews_what_the_walk_left(tmp_path: Path, budget: int) -> None:
    repo, base, head = two_commits(tmp_path, _repo_files(LARGE), {"src/app.py": "print('changed')\n"})
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3, decision
    files = tree_classify(repo.root, base, head)
    assert files["src/app.py"]["bucket"] == "ci", files["src/app.py"]
    assert "bytes read" in str(files["src/app.py"]), files["src/app.py"]


def test_a_gate_under_the_budget_keeps_its_answer(tmp_path: Path, budget: int) -> None:
    repo, base, head = two_commits(tmp_path, _repo_files(1024), {"src/app.py": "print('changed')\n"})
    files = tree_classify(repo.root, base, head)
    assert files["src/app.py"]["bucket"] == "src", files["src/app.py"]
