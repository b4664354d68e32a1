"""The eightieth set's classes (issue 12; bench/classify_accuracy/eightieth.tsv, a blind set weighted to CI other than
GitHub Actions).

- **Zuul's tox jobs run tox.ini** (`ci.context.zuul-job`). An OpenStack-style project names jobs it inherits from
  the zuul-jobs library (`openstack-tox-py36`, `tox-py27` as a job's `parent:`, the `openstack-python3-jobs` project
  template): each runs `tox` in the checkout, which reads the root `tox.ini` and runs its commands. No command line
  says `tox`, so tox.ini stayed `other.lint-format` (openstack/python-jenkins).
- **The build configuration files a CI command names by option** (`ci.context.ci-run`). Meson's `--cross-file` and
  `--native-file`, CMake's `-DCMAKE_TOOLCHAIN_FILE=`, `--toolchain` and `-C` (an initial cache script) name files the
  build reads to decide how it compiles: the job's own settings (videolan/dav1d's
  `--cross-file package/crossfiles/i686-linux32.meson`). They were read only where their extension was a script's.
- **Scripts a CI-run PowerShell listing runs** (`ci.context.ci-run`). `Get-ChildItem "$PSScriptRoot\\*.ps1" | % {
  & $_ }` runs every script it lists (AArnott's Library.Template, in many .NET repositories: `tools/artifacts/_all.ps1`
  and `tools/variables/_define.ps1`, which the pipelines run); a glob was read only from a shell's loops.
- **Settings files under names no rule knew** (`other`): Checkstyle's variants beside the build
  (`checkstyle-strict.xml`, `checkstyleSuppressions.xml`), hawkeye's `licenserc.toml`, a root `CodeQL.yml` without
  the dot, Azure DevOps' `azurepipelines-coverage.yml`, git-review's `.gitreview`, direnv's `.envrc.example`, DOAP
  project descriptions (`*.doap`).
"""

from __future__ import annotations

import json
from pathlib import Path

from citools import BLOCK_DEFINITIONS, tree_runs, with_line
from conftest import POLICY_DIR
from gitrepo import two_commits
from incli import run_cli
from tables import each_case

from gatekeeper.classify import zuuljobs
from gatekeeper.classify.ruleset import load_rules

POLICIES = Path(__file__).resolve().parent.parent / "policies"
TOX = "[tox]\nenvlist = py3,pep8\n\n[testenv]\ncommands = stestr run {posargs}\n"

# Where Zuul reads a project's jobs, and the ways its text names a tox job of the zuul-jobs library
ZUUL_FILES = [".zuul.yaml", "zuul.yaml", ".zuul.d/project.yaml", "zuul.d/jobs.yaml"]
TOX_JOBS = [
    "- project:\n    check:\n      jobs:\n        - openstack-tox-py36\n        - openstack-tox-pep8\n",
    "- project:\n    gate:\n      jobs:\n        - openstack-tox-pypy:\n            nodeset: ubuntu-bionic\n",
    "- job:\n    name: jjb-tox-cross\n    parent: tox-py27\n    voting: true\n",
    "- job:\n    name: unit\n    parent: 'tox'\n",
    "- project:\n    templates:\n      - openstack-python3-jobs\n      - publish-to-pypi\n",
    "- project:\n    templates: [check-requirements, openstack-python3-zed-jobs]\n",
    "- project:\n    check:\n      jobs:\n        - tox-linters\n",
    "- project:\n    check:\n      jobs: [tox-py311, noop]\n",
]
# Zuul files that name no tox job: tox.ini stays what the path rules say
NO_TOX_JOBS = [
    "- project:\n    check:\n      jobs:\n        - noop\n",
    "- project:\n    check:\n      jobs:\n        - f38-gcc-cover:\n            required-projects:\n"
    "              - name: github/CESNET/libyang\n",
    "- job:\n    name: toxiproxy-functional\n    description: Runs the suite against a proxy; no tox here\n"
    "    run: playbooks/proxy.yaml\n",
    "# tox jobs come later\n- project:\n    check:\n      jobs:\n        - nodejs-npm-run-test\n",
    "- job:\n    name: functional\n    vars:\n      tox_envlist: functional\n    parent: base\n",
]


def _classified(tmp_path: Path, files: dict[str, str]) -> dict[str, str]:
    repo, base, head = two_commits(tmp_path / "r", {"README.md": "x\n"}, files)
    done = run_cli(["classify", "--tree", f"{base}..{head}", "--repo", repo.root, "--policy", POLICY_DIR,
                    "--format", "json"], text=True)
    return {f["path"]: f["bucket"] for f in json.loads(str(done.stdout))["files"]}


@each_case("config", ZUUL_FILES)
def test_a_zuul_tox_job_runs_tox_ini(config: str) -> None:
    for text in TOX_JOBS:
        assert ("tox.ini", f"{config}: a Zuul tox job runs tox in the checkout (tox.ini)") in zuuljobs.named(
            config, text), text


@each_case("text", NO_TOX_JOBS)
def test_zuul_files_without_a_tox_job_name_no_tox_ini(text: str) -> None:
    assert not [pattern for pattern, _ in zuuljobs.named(".zuul.yaml", text) if pattern.startswith("tox")]


def test_tox_ini_of_a_project_with_zuul_tox_jobs_is_ci_in_a_real_repository(tmp_path: Path) -> None:
    got = _classified(tmp_path, {".zuul.yaml": TOX_JOBS[0], "tox.ini": TOX, "setup.cfg": "[metadata]\nname = x\n"})
    assert got["tox.ini"] == "ci" and got["setup.cfg"] != "ci"
    got = _classified(tmp_path / "n", {".zuul.yaml": NO_TOX_JOBS[0], "tox.ini": TOX})
    assert got["tox.ini"] == "other"


# (a command line, the file it names by a build-configuration option)
BUILD_CONFIGS = [
    ("meson setup build --buildtype release --cross-file package/crossfiles/i686-linux32.meson",
     "package/crossfiles/i686-linux32.meson"),
    ("meson build --cross-file=cross/arm64-linux.txt", "cross/arm64-linux.txt"),
    ("meson setup _build --native-file ci/native/clang.ini -Db_lto=true", "ci/native/clang.ini"),
    ("cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64.cmake", "cmake/toolchains/aarch64.cmake"),
    ("cmake .. -DCMAKE_TOOLCHAIN_FILE:FILEPATH=../cmake/mingw-w64.cmake -GNinja", "cmake/mingw-w64.cmake"),
    ("cmake --toolchain toolchains/riscv64.cmake -B out", "toolchains/riscv64.cmake"),
    ("cmake -C cmake/caches/ci.cmake -S . -B out", "cmake/caches/ci.cmake"),
    ("cmake -Ccmake/caches/release.cmake -S . -B out", "cmake/caches/release.cmake"),
]
CONFIG_FILES = {path: "[binaries]\nc = 'gcc'\n" for _, path in BUILD_CONFIGS}
# Lines that name no build configuration file of the tree
NOT_CONFIGS = [
    "meson setup build -Dtests=true --prefix /usr",
    "cmake -S . -B build -DCMAKE_INSTALL_PREFIX=/opt/app -DCMAKE_BUILD_TYPE=Release",
    "meson setup build --cross-file /usr/share/mingw/toolchain-mingw64.meson",
    "cmake -DCMAKE_TOOLCHAIN_FILE=/opt/toolchains/vcpkg.cmake -B b",
    "echo --cross-file package/crossfiles/unused.meson",
]


@each_case("definition, template", BLOCK_DEFINITIONS)
def test_a_build_configuration_file_a_ci_command_names_is_ci(definition: str, template: str) -> None:
    for line, named in BUILD_CONFIGS:
        files = with_line(definition, template, line if "../" not in line else f"cd build && {line}",
                          {**CONFIG_FILES, "build/.keep": ""})
        assert named in tree_runs(files), (line, named)


@each_case("definition, template", BLOCK_DEFINITIONS)
def test_lines_that_name_no_build_configuration_file_reach_none(definition: str, template: str) -> None:
    files = {"package/crossfiles/unused.meson": "[binaries]\n", "vcpkg.cmake": "set(X 1)\n",
             "toolchain-mingw64.meson": "[binaries]\n", "usr/share/mingw/other.meson": "[binaries]\n"}
    for line in NOT_CONFIGS:
        assert not tree_runs(with_line(definition, template, line, files)) & set(files), line


def test_a_cross_file_no_ci_command_names_stays_src(tmp_path: Path) -> None:
    gitlab = "build:\n  script:\n    - meson setup build --cross-file package/crossfiles/x86_64-w64-mingw32.meson\n"
    got = _classified(tmp_path, {".gitlab-ci.yml": gitlab, "package/crossfiles/x86_64-w64-mingw32.meson": "[b]\n",
                                 "package/crossfiles/wasm32.meson": "[b]\n"})
    assert got["package/crossfiles/x86_64-w64-mingw32.meson"] == "ci"
    assert got["package/crossfiles/wasm32.meson"] == "src"


OTHER_FILES = [("checkstyle-strict.xml", "other.lint-format"), ("checkstyle-simple.xml", "other.lint-format"),
               ("checkstyleSuppressions.xml", "other.lint-format"), ("build/checkstyle_rules.xml", "other.lint-format"),
               ("licenserc.toml", "other.lint-format"), (".licenserc.toml", "other.lint-format"),
               ("CodeQL.yml", "other.lint-format"), ("azurepipelines-coverage.yml", "other.code-services"),
               (".gitreview", "other.dev-tool-settings"), (".envrc.example", "other.editor"),
               (".envrc.sample", "other.editor"), ("gnome-calculator.doap", "other.package-metadata")]
OTHER_LOOKALIKES = [("src/checkstyle/Checker.java", "src"), ("lib/licenserc.py", "src"),
                    (".github/CodeQL.yml", "ci"), ("ci/azurepipelines-coverage.yml", "ci"),
                    ("docs/gitreview.md", "src"), ("envrc.example.md", "src"), ("src/doap.py", "src")]


@each_case("path, rule", OTHER_FILES)
def test_settings_under_names_no_rule_knew_are_other(path: str, rule: str) -> None:
    match = load_rules(POLICIES).match(path)
    assert (match.bucket, match.rule) == ("other", rule)


@each_case("path, bucket", OTHER_LOOKALIKES)
def test_their_look_alikes_stay_what_they_were(path: str, bucket: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == bucket


# PowerShell runs every script a folder listing gives (AArnott's Library.Template: tools/artifacts/_all.ps1 and
# tools/variables/_define.ps1, which the pipelines run, `& $_` each `*.ps1` beside them): (the listing, where the
# scripts it runs sit, relative to the script's folder)
PS_LISTINGS = [('Get-ChildItem "$PSScriptRoot\\*.ps1" -Exclude "_*"', ""),
               ("Get-ChildItem $PSScriptRoot\\*.ps1 -Recurse", ""),
               ('Get-ChildItem -Path "$PSScriptRoot" -Filter *.ps1', ""),
               ('gci "$PSScriptRoot\\steps\\*.ps1"', "steps/"),
               ("Get-ChildItem -Path $PSScriptRoot/steps -Filter '*.ps1'", "steps/")]
PS_RUNS = ["| % {\n  $name = $_.BaseName\n  $value = & $_\n}", "|% { . $_ }", "| ForEach-Object { & $_.FullName }",
           "| foreach {\n  & $_ -Verbose\n}"]
PS_READS = ["| % { Write-Host $_.Name }", "| ForEach-Object { Test-ScriptFileInfo $_ }", "| Remove-Item",
            "| Measure-Object"]
PIPELINE = "trigger: none\npool:\n  vmImage: windows-latest\nsteps:\n- powershell: tools/artifacts/_all.ps1\n"


def _listing_tree(listing: str, body: str, place: str) -> dict[str, str]:
    return {"azure-pipelines.yml": PIPELINE, "tools/artifacts/_all.ps1": f"{listing} {body}\n",
            f"tools/artifacts/{place}coverage.ps1": "@{ coverage = 'x' }\n", "tools/other/unrun.ps1": "exit 1\n"}


@each_case("listing, place", PS_LISTINGS)
def test_scripts_a_ci_run_powershell_listing_runs_are_ci(listing: str, place: str) -> None:
    for body in PS_RUNS:
        # (`$PSScriptRoot` is read as `.`, which the walk resolves from the root too: a wide read, the safe side)
        assert f"tools/artifacts/{place}coverage.ps1" in tree_runs(_listing_tree(listing, body, place)), body


@each_case("listing, place", PS_LISTINGS)
def test_a_listing_whose_block_only_reads_the_files_runs_none(listing: str, place: str) -> None:
    for body in PS_READS:
        assert f"tools/artifacts/{place}coverage.ps1" not in tree_runs(_listing_tree(listing, body, place)), body


# A script named `ci` in a root helper folder beside `tools/` and `scripts/` (pixman's `contrib/ci.sh`)
CI_NAMED = ["contrib/ci.sh", "hack/ci.sh", "build/ci.sh", "bin/ci.sh", "dev/ci.sh", "utils/ci.sh", "contrib/ci.ps1"]
CI_NAMED_LOOKALIKES = [("lib/ci.sh", "src"), ("contrib/ci.py", "src"), ("src/contrib/ci.sh", "src"),
                       ("contrib/cinder.sh", "src"), ("docs/ci.sh.md", "src")]


@each_case("path", CI_NAMED)
def test_a_script_named_ci_in_a_root_helper_folder_is_ci(path: str) -> None:
    assert load_rules(POLICIES).match(path).rule == "ci.script-folders"


@each_case("path, bucket", CI_NAMED_LOOKALIKES)
def test_ci_named_look_alikes_stay_what_they_were(path: str, bucket: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == bucket
