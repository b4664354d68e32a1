"""Classes of misses a twenty-fourth label set found (bench/classify_accuracy/twentyfourth.tsv: 60 repositories weighted
to dependency files, measured blind first), each with the look-alikes it must leave alone: code vendored into a
`vendored/` folder, the files of ecosystems no rule named (Hatch, PDM, conda-lock, Ivy, Mill, Homebrew bundle, Julia's
prefixed manifests, LuaRocks, esy, haxelib, single tools' version files), Perl's packaging files (Dist::Zilla's
`dist.ini`, `Makefile.PL`, `Build.PL`) and vcpkg triplets (deps), pip-tools inputs under any `*.in` name (deps by
content), Publish to BCR's `.bcr/`, Changesets' settings and a root `ci.sh` (ci), Azure Pipelines job and step
templates outside the folders the path rules name (ci by content), Meson's `test cases/` and Pants' `testprojects/`
(test projects: src), code named like a governance file with a compound suffix (`license.component.ts`, src), and
test-runner, spell-checker and linter settings, a site's `security.txt`, a bundled tool's `COPYING_7z` and Xcode's
shared workspace settings (other). The real repository below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.sniff import is_candidate, sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # a vendored/ folder holds third-party code as vendor/ does; test data of a package named so stays test data
    ("bench/vendored/ppx_sexp_conv.v0.15.1/.gitignore", "deps"), ("botocore/vendored/requests/api.py", "deps"),
    ("internal/extract/vendored/testdata/zlib/README", "src"), ("src/vendoring.py", "src"),
    # Perl's packaging: what cpanm and dzil install before a build
    ("dist.ini", "deps"), ("Makefile.PL", "deps"), ("Build.PL", "deps"), ("lib/Dist/Zilla/Plugin/x.pm", "src"),
    ("docs/dist.md", "src"),
    # the ecosystems' files no rule named: Python's package managers, Ivy, Mill, pub overrides, opam, Homebrew bundle,
    # Julia's prefixed and versioned manifests, LuaRocks, esy, haxelib, single tools' version files
    (".pdm-python", "deps"), ("hatch.toml", "deps"), ("envs/dev.conda-lock.yml", "deps"), ("ivy.xml", "deps"),
    ("build.mill", "deps"), ("build.sc", "deps"), ("core/package.mill", "deps"), ("pubspec_overrides.yaml", "deps"),
    ("opam.locked", "deps"), ("Brewfile", "deps"), ("Brewfile.lock.json", "deps"), ("JuliaProject.toml", "deps"),
    ("JuliaManifest.toml", "deps"), ("Manifest-v1.11.toml", "deps"), ("luarocks.lock", "deps"), ("esy.json", "deps"),
    ("esy.lock/index.json", "deps"), ("haxelib.json", "deps"), (".haxerc", "deps"), ("elm-tooling.json", "deps"),
    (".xcode-version", "deps"), (".crystal-version", "deps"), (".zig-version", "deps"),
    ("gemfiles/rails_7.gemfile", "deps"), ("gemfiles/rails_7.gemfile.lock", "deps"), ("Gemfile.next", "deps"),
    ("Gemfile.next.lock", "deps"), ("Godeps/Godeps.json", "deps"), (".php-version", "deps"), (".deno-version", "deps"),
    ("renv/activate.R", "deps"), ("renv/settings.json", "deps"), ("packrat/packrat.lock", "deps"),
    ("rebar.config.script", "deps"), ("cabal.config", "deps"), ("melos.yaml", "deps"),
    (".config/nextest.toml", "other"),
    (".github/workflows/melos.yml", "ci"), ("R/activate.R", "src"), ("app/settings.json", "src"),
    ("src/mill/build.scala", "src"), ("docs/brewfile.md", "src"), (".eslintrc", "other"), ("hatch_build.py", "src"),
    # vcpkg triplets, in vcpkg's folder or an overlay folder; other CMake stays build code
    ("dep/vcpkg-overlay-triplets/fuzzing/x86-windows-static.cmake", "deps"),
    ("triplets/community/x64-linux-dynamic.cmake", "deps"), ("cmake/custom_triplets/arm64-osx.cmake", "deps"),
    ("cmake/toolchain.cmake", "src"), ("triplets/README.md", "src"),
    # release automation and a root CI script
    (".bcr/metadata.template.json", "ci"), (".bcr/presubmit.yml", "ci"), (".bcr/source.template.json", "ci"),
    (".changeset/config.json", "ci"), (".changeset/brave-dogs-dance.md", "src"), ("docs/.bcr/x.json", "src"),
    ("ci.sh", "ci"), ("ci.bash", "ci"), ("scripts/lib/ci.sh", "src"), ("cim.sh", "src"),
    # test projects and test cases shaped like manifests
    ("test cases/rust/22 cargo subproject/subprojects/unixdep-0.1-rs/Cargo.toml", "src"),
    ("test cases/rust/33 cargo workspace/subprojects/foo.wrap", "src"),
    ("test cases/common/51 run target/.clang-tidy", "src"),
    ("testprojects/pants-plugins/src/python/test_pants_plugin/requirements.txt", "src"),
    ("subprojects/foo.wrap", "deps"), ("requirements.txt", "deps"),
    # code named like a governance file, whatever suffix its framework adds; the licences stay governance
    ("UI/Web/src/app/admin/license/license.component.ts", "src"), ("sbom/test/license.test.ts", "src"),
    ("src/authors.service.ts", "src"), ("LICENSE.md", "other"), ("LICENSE.txt", "other"),
    # test-runner, spell-checker and linter settings, a site's security contact, bundled licences, Xcode's settings
    ("dart_test.yaml", "other"), ("cspell.json", "other"), ("cspell.yml", "other"), (".cspell.json", "other"),
    (".bandit", "other"), (".pymarkdown.yml", "other"), ("apps/web/public/.well-known/security.txt", "other"),
    ("win32/COPYING_7z", "other"), ("COPYING-GPL", "other"),
    ("SwiftFormat.xcodeproj/project.xcworkspace/xcshareddata/WorkspaceSettings.xcsettings", "other"),
    ("App.xcodeproj/xcuserdata/me.xcuserdatad/xcschemes/xcschememanagement.plist", "other"),
    ("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", "src"), ("docs/security.md", "src"),
])
def test_path_rules_of_the_twenty_first_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


SENTRY_IN = "# Sentry has a very large dependency tree\nsentry\n"
DEV_IN = """-c requirements.txt
-r base.in
pytest>=7.4,<9  # the test runner
black[jupyter]==24.2.0
tomli ; python_version < "3.11"
wheel @ https://files.example.invalid/wheel-0.42.0-py3-none-any.whl
git+https://github.com/example/plugin.git@v1.2#egg=plugin
"""
MAKEFILE_IN = "prefix = @prefix@\nall: tool\n\ttool: main.o\n\t$(CC) -o $@ $^\n"
MANIFEST_IN = "include README.md\nrecursive-include src *.py\nprune tests\n"
WORDS_IN = "hello world\ngoodbye\n"
WRAPPER_IN = '#!/bin/sh\nexedir="@@EXE_DIR@@"\nexec "$exedir/tool" "$@"\n'


@each_case(("name", "text", "deps"), [
    ("examples/sentry.in", SENTRY_IN, True), ("requirements/dev.in", DEV_IN, True), ("tools.in", DEV_IN, True),
    ("Makefile.in", MAKEFILE_IN, False), ("MANIFEST.in", MANIFEST_IN, False), ("po/words.in", WORDS_IN, False),
    ("bindist/wrapper.in", WRAPPER_IN, False), ("config.h.in", SENTRY_IN, False), ("empty.in", "# nothing\n", False),
])
def test_pip_tools_inputs_by_content(name: str, text: str, deps: bool) -> None:
    assert is_candidate(name) == ("." not in name.rpartition("/")[2][:-3])
    signal = sniff(name, text.encode(), RULES.context)
    assert (signal is not None and signal.rule == "deps.content.pip-compile-input") == deps, (name, signal)


AZURE_JOB_TEMPLATE = """parameters:
  name: ''
  vmImage: ''

jobs:
- job: ${{ parameters.name }}
  timeoutInMinutes: 120
  pool:
    vmImage: ${{ parameters.vmImage }}
  strategy:
    matrix:
      GHC 9.4:
        ARGS: "--resolver lts-21"
  steps:
  - script: |
      stack test $ARGS
    displayName: Build and test
"""
AZURE_STEPS_TEMPLATE = """parameters:
- name: configuration
  default: Release

steps:
- checkout: self
  fetchDepth: 0
- pwsh: ./build.ps1 -Configuration ${{ parameters.configuration }}
  displayName: Build
"""
APP_JOBS = """jobs:
  - job: nightly-backup
    schedule: "0 3 * * *"
    target: s3://backups
"""
ANSIBLE_TASKS = """- name: Run the installer
  script: files/install.sh
  args:
    creates: /opt/tool
"""


@each_case(("name", "text", "ci"), [
    ("doc/azure/azure-osx-template.yml", AZURE_JOB_TEMPLATE, True),
    ("build/templates/build-steps.yaml", AZURE_STEPS_TEMPLATE, True),
    ("config/scheduler.yaml", APP_JOBS, False), ("roles/tool/tasks/install.yml", ANSIBLE_TASKS, False),
])
def test_azure_pipelines_templates_by_content(name: str, text: str, ci: bool) -> None:
    signal = sniff(name, text.encode(), RULES.context)
    assert (signal is not None and signal.bucket == "ci") == ci, (name, signal)
    if ci:
        assert signal is not None and signal.rule == "ci.content.azure-pipelines-template"


def test_the_twenty_fourth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# tool\n")
    git_repo.commit("base")
    texts = {
        "examples/sentry.in": SENTRY_IN,
        "Makefile.in": MAKEFILE_IN,
        "doc/azure/azure-osx-template.yml": AZURE_JOB_TEMPLATE,
        "config/scheduler.yaml": APP_JOBS,
        "dist.ini": "name = Web-Tool\nversion = 1.0\n\n[@Basic]\n[Prereqs]\nPlack = 1.0\n",
        "dep/vcpkg-overlay-triplets/x64-windows-static.cmake":
            "set(VCPKG_TARGET_ARCHITECTURE x64)\nset(VCPKG_CRT_LINKAGE static)\nset(VCPKG_LIBRARY_LINKAGE static)\n",
        ".changeset/config.json": '{"changelog": "@changesets/changelog-github", "baseBranch": "main"}\n',
        "test cases/rust/1 basic/Cargo.toml": '[package]\nname = "basic"\nversion = "0.1.0"\n',
        "bench/vendored/ppx_x/.gitignore": "_build\n",
    }
    want = {
        "examples/sentry.in": "deps", "Makefile.in": "src", "doc/azure/azure-osx-template.yml": "ci",
        "config/scheduler.yaml": "src", "dist.ini": "deps",
        "dep/vcpkg-overlay-triplets/x64-windows-static.cmake": "deps",
        ".changeset/config.json": "ci", "test cases/rust/1 basic/Cargo.toml": "src",
        "bench/vendored/ppx_x/.gitignore": "deps",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["examples/sentry.in"].rule == "deps.content.pip-compile-input"
    assert "job:" in files["doc/azure/azure-osx-template.yml"].evidence
    # the patch adds every file whole
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
