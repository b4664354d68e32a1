"""What the tests of the CI walk share: a release workflow whose steps (or a script one step runs) hand tools their
settings files, the repository the tests of ciconfigs.py build (tests/test_ci_tool_settings.py,
tests/test_cfgarg2_ci_tools.py); a one-step workflow and a helper script; the paths a CI script names, as the walk
resolves them; what the walk finds CI runs in a one-tree repository."""

from __future__ import annotations

from pathlib import Path

from gitrepo import two_commits

from gatekeeper.classify import ciruns, treereads
from gatekeeper.classify.ciwalk import ci_runs
from gatekeeper.classify.ruleset import load_rules
from gatekeeper.classify.treereads import PastBound
from gatekeeper.gitobjects import TreeEntry

POLICIES = Path(__file__).resolve().parent.parent / "policies"

WORKFLOW = "on: push\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{steps}"

# A workflow of one `run:` step (`{run}`), and a shell helper such a step's script may reach.
RUN_WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - run: {run}\n")
HELPER = "#!/bin/bash\nlog() { echo \"$@\"; }\n"

# Six CI systems' definitions with one command line in a block (`{line}`, literal braces doubled), for the tests that
# read a line in each (the cileft65 and cileft66 classes; each adds a script of its own)
BLOCK_DEFINITIONS = [
    (".github/workflows/ci.yml", "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                                 "      - uses: actions/checkout@v4\n      - run: |\n          {line}\n"),
    (".gitlab-ci.yml", "test:\n  image: python:3.12\n  script:\n    - |\n      {line}\n"),
    (".circleci/config.yml", "version: 2.1\njobs:\n  build:\n    docker:\n      - image: cimg/base:stable\n"
                             "    steps:\n      - checkout\n      - run:\n          command: |\n            {line}\n"),
    ("azure-pipelines.yml", "pool:\n  vmImage: ubuntu-latest\nsteps:\n- script: |\n    {line}\n"),
    (".buildkite/pipeline.yml", "steps:\n  - label: test\n    command: |\n      {line}\n"),
    ("Jenkinsfile", "pipeline {{\n  agent any\n  stages {{\n    stage('t') {{\n      steps {{\n"
                    "        sh \'\'\'\n          {line}\n        \'\'\'\n      }}\n    }}\n  }}\n}}\n"),
]
# Three places a command line stands on a line of its own (`{line}`: a YAML scalar there is quoted by yaml_quoted),
# for the red teams' command tables (attack 38's fed scripts, attack 39's expansions)
LINE_DEFINITIONS = [
    (".github/workflows/ci.yml", "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                                 "      - uses: actions/checkout@v4\n      - run: {line}\n"),
    (".gitlab-ci.yml", "build:\n  script:\n    - {line}\n"),
    ("ci/build.sh", "#!/bin/bash\nset -e\n{line}\n"),
]


def yaml_quoted(line: str) -> str:
    """`line` as a single-quoted YAML scalar."""
    return "'" + line.replace("'", "''") + "'"


def named_paths(path: str, text: str) -> set[str]:
    """The resolved paths the script at `path` names (as the CI walk reads it)."""
    scripts, _, folders = ciruns.named_in(path, text)
    return {p for named in scripts for p in ciruns.resolved(named, path, folders)}


def release_repo(tmp_path: Path, how: str, edited: dict[str, str], lines: list[str],
                 base: dict[str, str]) -> tuple[Path, str, str]:
    """`base` with a release workflow that runs `lines` as steps (`how` "step") or from `scripts/release.sh`
    ("script"), then a commit writing `edited`: (the repository's folder, BASE, HEAD)."""
    if how == "step":
        base[".github/workflows/release.yml"] = WORKFLOW.format(steps="".join(f"      - run: {c}\n" for c in lines))
    else:
        base[".github/workflows/release.yml"] = WORKFLOW.format(steps="      - run: bash scripts/release.sh\n")
        base["scripts/release.sh"] = "#!/bin/sh\nset -e\n" + "".join(f"{c}\n" for c in lines)
    repo, first, last = two_commits(tmp_path / "r", base, edited)
    return repo.root, first, last


def one_tree_runs(files: dict[str, str]) -> dict[str, tuple[str, str]] | bool:
    """ci_runs of a one-tree repository holding `files`, as the gate calls it (local actions, the path rules)."""
    tree = {path: TreeEntry("100644", f"{index:040x}") for index, path in enumerate(files)}
    blobs = {tree[path].oid: text.encode() for path, text in files.items()}

    def read(entry: TreeEntry) -> bytes:
        return blobs[entry.oid]

    actions = treereads.local_actions((tree,), read)
    return ci_runs((tree,), read, actions if isinstance(actions, dict) else {}, load_rules(POLICIES))


def named_count(path: str, text: str) -> int:
    """How many patterns the CI walk reads from the text at `path` (scripts, Compose files, folders); 0 where it
    closes past its bound instead (every script ci)."""
    try:
        scripts, composed, folders = ciruns.named_in(path, text)
    except PastBound:
        return 0
    return len(scripts) + len(composed) + len(folders)


def tree_runs(files: dict[str, str]) -> set[str]:
    """The files of `files` the CI walk reaches (one_tree_runs), asserting the walk did not close."""
    runs = one_tree_runs(files)
    assert isinstance(runs, dict), "the walk closed"
    return {path for path in runs if path in files}


def with_line(definition: str, template: str, line: str, files: dict[str, str]) -> dict[str, str]:
    """`files` with `definition` holding `line` in `template`; a script `ci/release.sh` gets a workflow that runs it."""
    tree = {definition: template.format(line=line.replace("{", "{{").replace("}", "}}")), **files}
    if definition == "ci/release.sh":
        tree[".github/workflows/release.yml"] = BLOCK_DEFINITIONS[0][1].format(line="bash ci/release.sh")
    return tree
