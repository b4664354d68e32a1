"""The CI walk's answer does not depend on PYTHONHASHSEED (determinism round 44; walk 43's Left 2).

On BetterThanTomorrow/calva@453b4d60 the walk named 755 paths with seed 1 and 751 with seed 2: tasktexts.restricted
kept a package.json's asked scripts in the iteration order of a frozenset of names, so the text the readers read
(`"pree2e-test": "cd ./src/extension-test/e2e-test/ && npm i", "calva-lib-test": "node ./out/…"`) had its scripts in
an order the seed chose, and fixtureinstalls' `npm i` read the next script's words only where that one came next.
Each case runs the walk in its own process under four seeds and asserts one answer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gatekeeper.classify import tasktexts
from gatekeeper.classify.taskunits import Tasks

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ("1", "2", "3", "4")
MIRROR = Path("/work/.mirror/BetterThanTomorrow+calva/repo")
# mirrored repositories where a bound is reached (determinism 45's audit): a script there names more than
# ciruns.MAX_NAMED patterns, so the walk reads its first MAX_NAMED (Heimdall: two such files; tektoncd/results: one)
BOUNDED = {"linuxserver/Heimdall": "c16a4847f73fc4f8718e674663e8b8559078c277",
           "tektoncd/results": "b2abcb69074b217f5fbd32c45af53bec52e162dc"}

# the walk of a one-tree repository (files: stdin's JSON) printed as sorted JSON
_WALK = """
import json, sys
sys.path.insert(0, sys.argv[1])
from citools import one_tree_runs
print(json.dumps(one_tree_runs(json.load(sys.stdin)), sort_keys=True))
"""

# the calva mirror's walk at 453b4d60 (as walk 43's dump.py reads it)
_MIRROR_WALK = """
import json, sys
from pathlib import Path
from gatekeeper.gitobjects import GitObjects, GitObjectsError
from gatekeeper.classify import ciwalk, treereads
from gatekeeper.classify.ruleset import load_rules
from gatekeeper.classify.sniff import FULL_READ
git_dir = Path(sys.argv[1])
with GitObjects(git_dir, git_dir=str(git_dir)) as objects:
    tree = objects.tree(sys.argv[2])
    def read(e):
        try:
            return objects.blob(e.oid, FULL_READ + 1)
        except GitObjectsError:
            return b""
    actions = treereads.local_actions((tree,), read)
    runs = ciwalk.ci_runs((tree,), read, actions if isinstance(actions, dict) else {}, load_rules(sys.argv[3]))
print(json.dumps(runs, sort_keys=True))
"""


def _run(seed: str, program: str, args: list[str], stdin: str = "") -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", program, *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=ROOT, check=True)
    return done.stdout


def _answers(files: dict[str, str]) -> set[str]:
    return {_run(seed, _WALK, [str(ROOT / "tests")], json.dumps(files)) for seed in SEEDS}


def _calva_shape(installer: str, names: list[str]) -> dict[str, str]:
    """calva's shape: CI files each running one npm script; a `pre` script installs in a test folder (`cd … && npm
    i`), another runs a test file by a `./` path: which follows the install in the restricted text decides what
    fixtureinstalls reads."""
    scripts = {name: f"node ./test/{name}/run.js" for name in names}
    scripts[f"pre{names[0]}"] = f"cd ./test/e2e/ && {installer}"
    files = {"package.json": json.dumps({"name": "x", "scripts": scripts}),
             "test/e2e/package.json": "{}"}
    for name in names:
        files[f".circleci/jobs/{name}.yml"] = f"steps:\n- run: npm run {name}\n"
        files[f".github/workflows/{name}.yml"] = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                                                  f"      - run: npm run {name}\n")
    return files


@pytest.mark.parametrize(("installer", "names"), [
    ("npm i", ["e2e", "lib", "unit", "integration", "smoke"]),
    ("npm install", ["alpha", "beta", "gamma", "delta"]),
    ("pnpm add", ["one", "two", "three", "four", "five", "six"]),
])
def test_walk_one_answer_under_seeds(installer: str, names: list[str]) -> None:
    answers = _answers(_calva_shape(installer, names))
    assert len(answers) == 1, answers


@pytest.mark.parametrize("names", [["e2e", "lib", "unit", "integration"], ["a", "b", "c", "d", "e", "f", "g"]])
def test_restricted_package_text_in_file_order(names: list[str]) -> None:
    """The kept scripts stand in the file's order, whatever the order of the asked names."""
    scripts = {f"pre{name}": f"echo pre {name}" for name in names} | {name: f"echo {name}" for name in names}
    scripts["unasked"] = "echo no"
    text = json.dumps({"name": "x", "scripts": scripts})
    kept = json.loads(tasktexts.restricted("package.json", text, Tasks(frozenset(names))))["scripts"]
    assert list(kept) == [name for name in scripts if name != "unasked"]


def test_restricted_single_name_unchanged() -> None:
    """A look-alike: one asked name with its `pre`/`post` scripts keeps them (and nothing else)."""
    text = json.dumps({"scripts": {"pretest": "a", "test": "b", "posttest": "c", "build": "d"}})
    kept = json.loads(tasktexts.restricted("package.json", text, Tasks(frozenset({"test"}))))["scripts"]
    assert kept == {"pretest": "a", "test": "b", "posttest": "c"}


@pytest.mark.skipif(not MIRROR.is_dir(), reason="the calva mirror is absent")
def test_calva_one_answer_under_seeds() -> None:
    answers = {_run(seed, _MIRROR_WALK, [str(MIRROR), "453b4d60", str(ROOT / "policies")]) for seed in SEEDS[:2]}
    assert len(answers) == 1


@pytest.mark.parametrize(("repo", "commit"), sorted(BOUNDED.items()))
def test_bounded_mirror_one_answer_under_seeds(repo: str, commit: str) -> None:
    """Where a bound cuts what the walk reads, the cut keeps the same part under every seed (determinism 45)."""
    mirror = Path(f"/work/.mirror/{repo.replace('/', '+')}/repo")
    if not mirror.is_dir():
        pytest.skip(f"the {repo} mirror is absent")
    answers = {_run(seed, _MIRROR_WALK, [str(mirror), commit, str(ROOT / "policies")]) for seed in SEEDS[:2]}
    assert len(answers) == 1
