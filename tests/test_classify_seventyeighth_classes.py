"""The seventy-eighth set's classes (issue 12; bench/classify_accuracy/seventyeighth.tsv, a CI-weighted blind set).

- **A script CI runs by an absolute path into the checkout** (`ci.context.ci-run`). A job that runs a repository
  script through the folder the checkout lands in names it by an absolute path: Cirrus CI's
  `"${SKOPEO_PATH}/${SCRIPT_BASE}/runner.sh" build` with `SKOPEO_PATH` the task's `CIRRUS_WORKING_DIR`
  (`/var/tmp/go/src/go.podman.io/skopeo`: containers/skopeo, podman, buildah), a container the job starts with the
  repository inside (`docker run img /bin/bash /github/grpc-web/scripts/docker-run-mocha-tests.sh`: grpc/grpc-web),
  a runner's work folder (`/home/runner/work/app/app/tools/x.py`), a home folder (`~/project/ci/x.sh`). The walk
  read such a word as a root-relative path (`var/tmp/.../runner.sh`), which names nothing, and the script stayed
  `src`. Now an absolute or home word is also read by its last two to four parts (the checkout is somewhere above;
  as runvars.folders reads an absolute `cd`). A single name is not (`/usr/local/bin/run-tests.sh` does not name a
  root `run-tests.sh`), nor a tail no file of the tree has.
- **Kokoro job configurations** (`ci.system-folders`, `ci.context.ci-run`). Kokoro's `.cfg` files name the script a
  job runs by `build_file: "<checkout folder>/<path>"` (grpc-web: `build_file: "grpc-web/scripts/run_basic_tests.sh"`;
  Google's client libraries `github/<repo>/.kokoro/build.sh`), and some repositories keep them in a root `kokoro/`
  folder without the dot (grpc-web, protobuf). The `.cfg` files were never read as definitions and `kokoro/` was
  `src`. Now a root `kokoro/` is a CI system's folder as `.kokoro/` is, a `.cfg` below either is a definition, and
  the paths it names are read without their first one or two folders (the checkout folder).
- **Fedora's CI: Packit, tmt and gating** (`ci.fedora-ci`). `.packit.yaml` sets the jobs Packit runs on every pull
  request (Copr builds of the spec, Testing Farm test runs, downstream updates); tmt's `*.fmf` metadata (`plans/`,
  `tests/**/main.fmf`, the tree's `.fmf/version`) are the plans and tests Testing Farm runs; `gating.yaml` is the
  Greenwave policy deciding which CI results gate an update (containers/skopeo, containers/crun). All were `src`.
- **A root `contrib/` or `hack/` folder's folder named after one CI system** (`ci.system-folders`): the containers
  projects keep their Cirrus CI scripts in `contrib/cirrus/`, as others keep them in `scripts/cirrus/`.
"""

from __future__ import annotations

import json
from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from conftest import POLICY_DIR
from gitrepo import two_commits
from incli import run_cli
from tables import each_case

from gatekeeper.classify.ruleset import load_rules

POLICIES = Path(__file__).resolve().parent.parent / "policies"

# (the command line, the script it runs): the checkout below a GOPATH, a container's mount, a runner's work folder,
# a home folder, with and without a quote, an interpreter, `./` inside the path
ABSOLUTE_RUNS = [
    ('"/var/tmp/go/src/go.podman.io/skopeo/./contrib/ci/runner.sh" build', "contrib/ci/runner.sh"),
    ("/var/tmp/go/src/github.com/acme/app/hack/ci/lint.sh", "hack/ci/lint.sh"),
    ("docker run --rm grpcweb/prereqs /bin/bash /github/grpc-web/scripts/docker-run-mocha-tests.sh",
     "scripts/docker-run-mocha-tests.sh"),
    ("docker run --rm -v \"$PWD:/src/app\" img bash /src/app/tools/integration.sh", "tools/integration.sh"),
    ("python3 /home/runner/work/app/app/tools/release/notes.py --check", "tools/release/notes.py"),
    ("bash ~/project/ci/steps/check.sh", "ci/steps/check.sh"),
]
# The scripts those commands run, and files the look-alikes below must not name
SCRIPTS = {path: "#!/bin/bash\necho run\n" for _, path in ABSOLUTE_RUNS}


def _files(definition: str, text: str, line: str) -> dict[str, str]:
    return {definition: text.format(line=line), **SCRIPTS, "run-tests.sh": "#!/bin/sh\n", "main.go": "package main\n"}


@each_case("definition, text", BLOCK_DEFINITIONS, ids=lambda d: d if isinstance(d, str) and "/" in d else None)
@each_case("line, script", ABSOLUTE_RUNS)
def test_a_script_run_by_an_absolute_path_into_the_checkout_is_ci(definition: str, text: str, line: str,
                                                                   script: str) -> None:
    runs = one_tree_runs(_files(definition, text, line))
    assert isinstance(runs, dict)
    assert script in runs, (definition, line)


# Look-alikes: an absolute path whose only tail in the tree is a single name, a tail no file has, a system program,
# and the same words read as data (`cat`, an exclude list)
LOOKALIKE_LINES = [
    "/usr/local/bin/run-tests.sh",
    "bash /opt/tools/ci/missing.sh",
    "/usr/bin/env python3 -m pytest",
    "cat /github/grpc-web/scripts/docker-run-mocha-tests.sh",
]


@each_case("definition, text", BLOCK_DEFINITIONS, ids=lambda d: d if isinstance(d, str) and "/" in d else None)
@each_case("line", LOOKALIKE_LINES)
def test_absolute_words_that_name_no_checkout_file_name_nothing(definition: str, text: str, line: str) -> None:
    runs = one_tree_runs(_files(definition, text, line))
    assert isinstance(runs, dict)
    assert "run-tests.sh" not in runs and "main.go" not in runs
    assert not ({path for _, path in ABSOLUTE_RUNS} & set(runs)), line


# skopeo's shape: the checkout folder held by a variable Cirrus sets, the script folder by another
CIRRUS = ('env:\n    GOPATH: &gopath "/var/tmp/go"\n    GOSRC: &gosrc "/var/tmp/go/src/go.podman.io/skopeo"\n'
          '    SKOPEO_PATH: *gosrc\n    CIRRUS_WORKING_DIR: *gosrc\n    SCRIPT_BASE: "./contrib/cirrus"\n\n'
          'cross_task:\n    container:\n        image: quay.io/libpod/fedora_podman:x\n'
          '    setup_script: >-\n        "${GOSRC}/${SCRIPT_BASE}/runner.sh" setup\n'
          '    build_script: >-\n        "${SKOPEO_PATH}/${SCRIPT_BASE}/runner.sh" build\n')


def test_cirrus_runs_a_script_through_the_checkout_variable(tmp_path: Path) -> None:
    files = {".cirrus.yml": CIRRUS, "contrib/cirrus/runner.sh": "#!/bin/bash\nset -e\n",
             "contrib/cirrus/lib.sh": "x=1\n", "main.go": "package main\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert "contrib/cirrus/runner.sh" in runs
    # and with the commits, through classify --tree on a real repository
    repo, base, head = two_commits(tmp_path / "r", {"README.md": "x\n"}, files)
    done = run_cli(["classify", "--tree", f"{base}..{head}", "--repo", repo.root, "--policy", POLICY_DIR,
                    "--format", "json"], text=True)
    got = {f["path"]: f["bucket"] for f in json.loads(str(done.stdout))["files"]}
    assert got["contrib/cirrus/runner.sh"] == "ci"
    assert got["main.go"] == "src"


# Kokoro: its folders and job configurations
KOKORO_FOLDERS = [".kokoro/", "kokoro/", "kokoro/linux/", ".kokoro/presubmit/"]
BUILD_FILES = ['build_file: "grpc-web/scripts/run_basic_tests.sh"\n',
               'build_file: "github/grpc-web/scripts/run_basic_tests.sh"\n',
               '# Format: //devtools/kokoro/config/proto/build.proto\n\nbuild_file: "app/scripts/run_basic_tests.sh"\n'
               'timeout_mins: 60\n',
               'env_vars {\n  key: "TRAMPOLINE_BUILD_FILE"\n  value: "github/app/scripts/run_basic_tests.sh"\n}\n']


@each_case("folder", KOKORO_FOLDERS)
@each_case("config", BUILD_FILES)
def test_a_kokoro_job_runs_the_script_its_build_file_names(folder: str, config: str) -> None:
    files = {f"{folder}presubmit.cfg": config, "scripts/run_basic_tests.sh": "#!/bin/bash\n",
             "scripts/other.sh": "#!/bin/bash\n", "src/app.cc": "int main() {}\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert "scripts/run_basic_tests.sh" in runs
    assert "scripts/other.sh" not in runs and "src/app.cc" not in runs


KOKORO_PATHS = ["kokoro/presubmit.cfg", "kokoro/interop.cfg", "kokoro/linux/build.sh", "kokoro/release/common.cfg",
                ".kokoro/presubmit.cfg", ".kokoro/build.sh"]
# a `kokoro` folder below the root is some project's own (a game's, a library's), left to the other rules
KOKORO_LOOKALIKES = [("src/kokoro/presubmit.cfg", "src"), ("docs/kokoro.md", "src"), ("kokoro.cfg", "src"),
                     ("lib/kokoro/build.sh", "src")]


@each_case("path", KOKORO_PATHS)
def test_a_root_kokoro_folder_is_a_ci_systems_folder(path: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == "ci"


@each_case("path, bucket", KOKORO_LOOKALIKES)
def test_kokoro_look_alikes_stay_what_they_were(path: str, bucket: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == bucket


# Fedora's CI: Packit's settings, tmt's metadata, Greenwave's gating policy (at the root and below)
FEDORA_CI = [".packit.yaml", ".packit.yml", "packit.yaml", "packit.yml", ".fmf/version", "plans/main.fmf",
             "plans/tmt.fmf", "tests/tmt/sanity/main.fmf", "tests/tmt/podman/system-test.fmf", "plans/e2e/basic.fmf",
             "test/system/main.fmf", "gating.yaml", "rpm/gating.yaml", "gating.yml"]
FEDORA_LOOKALIKES = [("docs/packit.md", "src"), ("packit/config.py", "src"), ("src/gating.py", "src"),
                     ("plans/README.md", "src"), ("tests/tmt/sanity/runtest.sh", "src"), ("fmf.py", "src")]


@each_case("path", FEDORA_CI)
def test_packit_tmt_and_gating_files_are_ci(path: str) -> None:
    match = load_rules(POLICIES).match(path)
    assert (match.bucket, match.rule) == ("ci", "ci.fedora-ci")


@each_case("path, bucket", FEDORA_LOOKALIKES)
def test_fedora_ci_look_alikes_stay_what_they_were(path: str, bucket: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == bucket


CONTRIB_CI = ["contrib/cirrus/runner.sh", "contrib/cirrus/lib.sh", "contrib/cirrus/ostree_ext.dockerfile",
              "contrib/cirrus/mac_cleanup.sh", "hack/cirrus/setup.sh", "contrib/travis/install.sh",
              "contrib/circleci/run.sh", "contrib/appveyor/build.ps1"]
CONTRIB_LOOKALIKES = [("contrib/completions/bash/skopeo", "src"), ("contrib/skopeoimage/README.md", "src"),
                      ("src/contrib/cirrus/x.sh", "src"), ("hack/tree_status.sh", "src")]


@each_case("path", CONTRIB_CI)
def test_a_contrib_or_hack_folder_named_after_a_ci_system_is_ci(path: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == "ci"


@each_case("path, bucket", CONTRIB_LOOKALIKES)
def test_contrib_look_alikes_stay_what_they_were(path: str, bucket: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == bucket


# poethepoet's `script` tasks and PDM's `call` scripts name a module a workflow's `poe`/`pdm run` imports and calls
POE_WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                "      - run: {line}\n")
PY_TASKS = [
    ('[tool.poe.tasks.ty]\nhelp = "check"\nscript = "scripts.test.run:ty_src"\n', "scripts/test/run.py"),
    ('[tool.poe.tasks]\ntest = {script = "scripts.test:run_tests(src=True, dist=False)"}\n',
     "scripts/test/__init__.py"),
    ('[tool.poe.tasks.all]\nsequence = [{script = "tools.checks:main"}, {cmd = "pytest"}]\n', "tools/checks.py"),
    ('[tool.poe.tasks.gen]\nscript = "codegen:main"\n', "src/codegen.py"),
    ('[tool.pdm.scripts]\ngen = {call = "tools.gen:main"}\n', "tools/gen.py"),
    ('[tool.pdm.scripts.gen]\ncall = "tools.gen:main(\'x\')"\nhelp = "generate"\n', "tools/gen.py"),
]
RUNNERS = ["poetry run poe ty", "uv run poe test", "pdm run gen", "poetry install && poetry run poe all"]
MODULES = ["scripts/test/run.py", "scripts/test/__init__.py", "tools/checks.py", "src/codegen.py", "tools/gen.py",
           "pkg/cli.py", "tools/other.py"]


@each_case("table, module", PY_TASKS)
@each_case("line", RUNNERS)
def test_a_module_a_python_task_runner_calls_is_ci(table: str, module: str, line: str) -> None:
    files = {".github/workflows/ci.yml": POE_WORKFLOW.format(line=line),
             "pyproject.toml": f'[project]\nname = "app"\n[project.scripts]\napp = "pkg.cli:main"\n\n{table}',
             **{path: "def main(): ...\n" for path in MODULES}}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert module in runs
    # an entry point the package installs is no task, and a module no task calls is not run
    assert "pkg/cli.py" not in runs and "tools/other.py" not in runs


def test_task_modules_no_ci_step_reaches_stay_unread() -> None:
    files = {"pyproject.toml": f"[project]\nname = \"app\"\n\n{PY_TASKS[0][0]}", "scripts/test/run.py": "x = 1\n",
             ".github/workflows/ci.yml": POE_WORKFLOW.format(line="go test ./...")}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict) and "scripts/test/run.py" not in runs


# orb-tools' `<<include(FILE)>>` inlines a file of the orb's source folder into a command, job or executor
ORB_INCLUDES = [("command: <<include(scripts/install.sh)>>", "src/scripts/install.sh"),
                ("MAX_PARALLELISM_GO_CONTENTS: <<include(max_parallelism/main.go)>>", "src/max_parallelism/main.go"),
                ("command: << include(./lib/notify.py) >>", "src/lib/notify.py")]
ORB_DEFINITIONS = ["src/commands/test.yml", "src/jobs/build.yml", "src/executors/default.yml"]


@each_case("line, included", ORB_INCLUDES)
@each_case("definition", ORB_DEFINITIONS)
def test_a_file_an_orb_definition_includes_is_ci(line: str, included: str, definition: str) -> None:
    files = {"src/@orb.yml": "version: 2.1\ndescription: x\n", definition: f"steps:\n  - run:\n      {line}\n",
             included: "echo\n", "src/examples/use.yml": "usage:\n  version: 2.1\n", "src/tests/t.bats": "@test x {}\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert included in runs
    assert "src/examples/use.yml" not in runs  # usage examples stay documentation


# semantic-release's plugins run their `*Cmd` options (package.json's `release`, run by `npx semantic-release`)
RELEASE_OPTIONS = ["prepareCmd", "publishCmd", "verifyConditionsCmd", "successCmd"]


@each_case("option", RELEASE_OPTIONS)
def test_a_script_semantic_releases_exec_plugin_runs_is_ci(option: str) -> None:
    manifest = {"name": "app", "scripts": {"build": "tsc"},
                "release": {"plugins": ["@semantic-release/commit-analyzer",
                                        ["@semantic-release/exec",
                                         {option: "node scripts/bump.js ${nextRelease.version}"}],
                                        ["@semantic-release/git", {"assets": ["scripts/notes.js", "CHANGELOG.md"]}]]}}
    files = {".github/workflows/release.yml": POE_WORKFLOW.format(line="yarn install && npx semantic-release"),
             "package.json": json.dumps(manifest), "scripts/bump.js": "x\n", "scripts/notes.js": "y\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert "scripts/bump.js" in runs
    assert "scripts/notes.js" not in runs  # an asset list names files the release commits, not commands


# Packit builds the spec its settings name in Copr for every pull request (rpmbuild runs its %build and %check)
PACKIT_NAMES = [".packit.yaml", ".packit.yml", "packit.yaml"]
PACKIT_FORMS = [
    "specfile_path: rpm/skopeo.spec\njobs:\n  - job: copr_build\n    trigger: pull_request\n",
    "upstream_package_name: skopeo\ndownstream_package_name: skopeo\nspecfile_path: 'rpm/skopeo.spec'\n",
    "packages:\n  skopeo-fedora:\n    pkg_tool: fedpkg\n    specfile_path: rpm/skopeo.spec\n"
    "jobs:\n  - job: tests\n    trigger: pull_request\n",
]


@each_case("name", PACKIT_NAMES)
@each_case("settings", PACKIT_FORMS)
def test_the_spec_packit_builds_is_ci(name: str, settings: str) -> None:
    files = {name: settings, "rpm/skopeo.spec": "%build\nmake\n", "rpm/other.spec": "%build\n",
             "main.go": "package m\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert "rpm/skopeo.spec" in runs
    assert "rpm/other.spec" not in runs and "main.go" not in runs


# Tool settings and VCS metadata the older sets label `other`: towncrier's settings under the name its docs give (the
# dotted `.towncrier.toml` was `other` already) and Mercurial's tag list (beside `.hgignore`, `.mailmap`)
OTHER_FILES = [("towncrier.toml", "other.lint-format"), ("docs/towncrier.toml", "other.lint-format"),
               (".hgtags", "other.governance")]
OTHER_LOOKALIKES = [("towncrier/__init__.py", "src"), ("changelog.d/123.feature.md", "src"), ("hgtags.py", "src"),
                    (".github/towncrier.toml", "ci"), ("ci/.hgtags", "ci")]


@each_case("path, rule", OTHER_FILES)
def test_towncrier_settings_and_mercurial_tags_are_other(path: str, rule: str) -> None:
    match = load_rules(POLICIES).match(path)
    assert (match.bucket, match.rule) == ("other", rule)


@each_case("path, bucket", OTHER_LOOKALIKES)
def test_their_look_alikes_stay_what_they_were(path: str, bucket: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == bucket


# An in-tree PEP 517 build backend: what `backend-path` puts on every build's path is a build hook (deps)
BACKEND_PROJECT = ('[build-system]\nrequires = ["setuptools == 80.3.1", "wheel >= 0.37"]\n'
                   'build-backend = "cython_backend"\nbackend-path = ["build_backend"]\n\n'
                   '[project]\nname = "psycopg-c"\n\n[tool.setuptools.cmdclass]\n'
                   'build_ext = "psycopg_build_ext.psycopg_build_ext"\n')
BACKEND_PLACES = ["", "psycopg_c/", "packages/native/"]


def _classified(tmp_path: Path, files: dict[str, str]) -> dict[str, str]:
    repo, base, head = two_commits(tmp_path / "r", {"README.md": "x\n"}, files)
    done = run_cli(["classify", "--tree", f"{base}..{head}", "--repo", repo.root, "--policy", POLICY_DIR,
                    "--format", "json"], text=True)
    return {f["path"]: f["bucket"] for f in json.loads(str(done.stdout))["files"]}


@each_case("place", BACKEND_PLACES)
def test_an_in_tree_build_backends_code_is_a_build_hook(tmp_path: Path, place: str) -> None:
    files = {f"{place}pyproject.toml": BACKEND_PROJECT, f"{place}build_backend/cython_backend.py": "import os\n",
             f"{place}build_backend/psycopg_build_ext.py": "from setuptools import Command\n",
             f"{place}psycopg_c/pq.py": "x = 1\n", "tools/build_backend/other.py": "y = 2\n"}
    got = _classified(tmp_path, files)
    assert got[f"{place}build_backend/cython_backend.py"] == "deps"
    assert got[f"{place}build_backend/psycopg_build_ext.py"] == "deps"
    assert got[f"{place}psycopg_c/pq.py"] == "src" and got["tools/build_backend/other.py"] == "src"


def test_a_backend_in_the_projects_own_folder_claims_only_its_module(tmp_path: Path) -> None:
    project = ('[build-system]\nrequires = []\nbuild-backend = "flit_core.buildapi"\nbackend-path = ["."]\n\n'
               '[project]\nname = "flit_core"\n')
    got = _classified(tmp_path, {"pyproject.toml": project, "flit_core/buildapi.py": "def build_wheel(): ...\n",
                                 "flit_core/common.py": "x = 1\n", "flit_core/__init__.py": ""})
    assert got["flit_core/buildapi.py"] == "deps"
    assert got["flit_core/common.py"] == "src"
    # a backend folder that is the product's package (maturin's bootstrap): its backend module alone
    project = ('[build-system]\nrequires = ["setuptools"]\nbackend-path = ["maturin"]\nbuild-backend = "bootstrap"\n\n'
               '[project]\nname = "maturin"\n')
    got = _classified(tmp_path / "m", {"pyproject.toml": project, "maturin/bootstrap.py": "x = 1\n",
                                       "maturin/__init__.py": "", "maturin/__main__.py": "y = 2\n"})
    assert got["maturin/bootstrap.py"] == "deps"
    assert got["maturin/__init__.py"] == "src" and got["maturin/__main__.py"] == "src"
    # and a project without backend-path claims nothing
    got = _classified(tmp_path / "b", {"pyproject.toml": '[build-system]\nbuild-backend = "hatchling.build"\n',
                                       "build_backend/x.py": "x = 1\n"})
    assert got["build_backend/x.py"] == "src"
