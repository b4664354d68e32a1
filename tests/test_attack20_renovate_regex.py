"""Red team 20: the repository's Renovate custom regex managers are run on what the change wrote.

`deps/renovatecustom.py` (deps26) compiles BASE's `matchStrings` and `managerFilePatterns`/`fileMatch` with Python's
`re`, which has no time limit, and ran them in the gate's own process on HEAD's paths and texts. Renovate's documented
`datasource=(?<datasource>.*?) depName=(?<depName>.*?)...\\s.*?_VERSION...` form is cubic: 4 KB of
`datasource=a depName=b ` took 15 s, the 64 KiB the reader allows hours. A path pattern with nested repetition
(`^(?:[\\w-]+/?)+\\.version$`) is exponential in the length of a file name the agent chooses. Each test runs the delta
in a forked child with a generous limit: on the old code the child is killed (the test fails), now the reading stops at
the module's limit and the files it would have read are `partial` problems (reviewed by hand).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gatekeeper.deps import renovatecustom
from gatekeeper.deps.sources import Delta
from gatekeeper.policy.isolate import run_isolated
from tests.deltas import moves, partial
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

CUBIC = {  # the shape of Renovate's documentation example, as many repositories copy it
    "customType": "regex",
    "managerFilePatterns": ["/(^|/)Makefile$/"],
    "matchStrings": ["datasource=(?<datasource>.*?) depName=(?<depName>.*?)( versioning=(?<versioning>.*?))?\\s"
                     ".*?_VERSION\\s*[?:]?=\\s*(?<currentValue>.*)\\s"],
}
NESTED_PATH = {
    "customType": "regex",
    "fileMatch": ["^(?:[\\w-]+/?)+\\.version$"],
    "matchStrings": ["^(?<currentValue>[0-9.]+)"],
    "depNameTemplate": "docker.io/example/build",
    "datasourceTemplate": "docker",
}
MAKEFILE = "# renovate: datasource=github-releases depName=golangci/golangci-lint\nGOLANGCI_VERSION ?= v2.1.0\n"
OUTER_LIMIT = 30.0  # seconds; the old code needs hours, the reading now stops at renovatecustom._TIME_LIMIT
# The module's limit here: a sane file is read in milliseconds (room to spare on a loaded machine); a hostile one runs
# until the limit, so each of those tests burns it whole in CPU (six of them: 6 CPU-s at 1 s): a quarter of a second
# shows the cut as well as a minute would.
SANE_LIMIT = 1.0
HOSTILE_LIMIT = 0.25


def _config(*managers: dict[str, object]) -> str:
    return json.dumps({"extends": ["config:recommended"], "customManagers": list(managers)}, indent=2) + "\n"


def _bounded_tree(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> Delta:
    repo, base, head = edited_commits(root, {"README.md": "app\n", **files}, edits)
    delta: Delta = run_isolated(_tree, repo, base, head, timeout=OUTER_LIMIT)
    return delta


@pytest.fixture(autouse=True)
def _short_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(renovatecustom, "_TIME_LIMIT", SANE_LIMIT, raising=False)  # absent before the fix


@pytest.fixture
def hostile_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(renovatecustom, "_TIME_LIMIT", HOSTILE_LIMIT, raising=False)


def test_a_sane_makefile_is_still_read(tmp_path: Path) -> None:
    delta = _bounded_tree(tmp_path, {"renovate.json": _config(CUBIC), "Makefile": MAKEFILE},
                          {"Makefile": {"v2.1.0": "v2.2.0"}})
    assert moves(delta) == {("tool", "golangci/golangci-lint", "v2.1.0", "v2.2.0")}
    assert delta.problems == ()


@pytest.mark.parametrize("filler", ["datasource=a depName=b ", "datasource=" + "a" * 40 + " depName=",
                                    "datasource= depName= versioning= "])
@pytest.mark.usefixtures("hostile_limit")
def test_text_written_to_backtrack_is_a_partial_problem_not_a_hang(tmp_path: Path, filler: str) -> None:
    hostile = MAKEFILE + filler * (12_000 // len(filler)) + "\n"
    delta = _bounded_tree(tmp_path, {"renovate.json": _config(CUBIC), "Makefile": MAKEFILE},
                          {"Makefile": {MAKEFILE: hostile}})
    assert partial(delta, "Makefile")
    assert "review it by hand" in " ".join(p.msg for p in delta.problems)


@pytest.mark.parametrize("name", ["a" * 40 + ".versions", "b-" * 24 + "x", "ci/" + "d" * 40 + ".txt"])
@pytest.mark.usefixtures("hostile_limit")
def test_a_path_written_to_backtrack_is_a_partial_problem_not_a_hang(tmp_path: Path, name: str) -> None:
    delta = _bounded_tree(tmp_path, {"renovate.json": _config(NESTED_PATH), name: "1.25.1\n", "app.version": "1.0\n"},
                          {name: {"1.25.1": "1.26.0"}})
    assert partial(delta, name)


def test_a_path_the_nested_pattern_selects_quickly_is_still_read(tmp_path: Path) -> None:
    delta = _bounded_tree(tmp_path, {"renovate.json": _config(NESTED_PATH), "ci/go.version": "1.25.1\n"},
                          {"ci/go.version": {"1.25.1": "1.26.0"}})
    assert moves(delta) == {("docker", "docker.io/example/build", "1.25.1", "1.26.0")}
    assert delta.problems == ()
