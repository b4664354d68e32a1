"""Classes of misses the sixty-fifth label set showed (bench/classify_accuracy/sixtyfifth.tsv: 23 repositories
fetched for it, weighted to CI, measured blind first), each with the look-alikes it must leave alone.

- A NixOS configuration written with nested attribute sets (`boot = { loader.grub = { ... }; };`, `environment = {
  systemPackages = ...; };`, `system = { stateVersion = ...; };`), as casey/lab's `configuration.nix` is: the content
  signal knew only the dotted spelling (`boot.loader.grub...`), so the configuration was `src`, and so were the files
  it deploys by path literal; and a path literal in an antiquotation (`--conf ${./etc/ergo.yaml}`, which Nix copies
  into the store for the service to read) was not read as one.
- A Node module a CI-run script imports through its own folder spelt out (`require(__dirname + '/parse.js')`,
  `require(path.join(__dirname, 'lib', 'util'))`), as janwilmans/DezyneSamples' code generator does, which its AppVeyor
  build runs: the import reader knew only `require('./x')`, so the modules stayed `src`.
- A sourcehut build manifest's paths below the folder builds.sr.ht clones each source into (`~/<name>`, where the
  tasks start): ysoftwareab/yplatform's `.builds/sourcehut.yml` runs `yplatform/bin/github-checkout`, which was
  `src`.
- multibuild's project hooks: a CI definition that sources multibuild's steps (`source multibuild/travis_steps.sh`,
  the wheel builders' library) has every build and test step source the project's `config.sh` (or the file
  `CONFIG_PATH` names), which defines the `build_wheel` and `run_tests` CI calls (onnx/wheel-builder's was `src`).
- A README document in the folder of a local action a workflow runs (`uses: ./jira-linter`): principle 0 keeps README
  documents `src` wherever they sit, as in `.github/actions/`; the local-action reader raised it to `ci`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.ciforms import rooted
from gatekeeper.classify.jobenv import loaded
from gatekeeper.classify.shapes import NIXOS
from gatekeeper.classify.sniff import sniff
from gatekeeper.classify.tfrefs import names_in
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, added_files, patch_files, tree_files

# casey/lab's shape: a NixOS system configuration whose options sit in nested attribute sets.
NESTED_NIXOS = """{ lib, pkgs, ... }:

{
  imports = [ ./hardware-configuration.nix ];

  boot = {
    loader.grub = {
      enable = true;
      device = "/dev/sda";
    };
  };

  environment = {
    etc."opendmarc/opendmarc.conf".source = ./etc/opendmarc.conf;
    systemPackages = with pkgs; [ git jq ];
  };

  systemd.services.ergo = {
    serviceConfig.ExecStart = "${pkgs.ergochat}/bin/ergo run --conf ${./etc/ergo.yaml}";
  };

  systemd.services.audit = {
    serviceConfig.ExecStart = "${ ./bin/audit.sh } --session audit";
  };

  system = {
    stateVersion = "24.11";
  };
}
"""
# Each nested spelling alone, with the rest of a module around it (generated over the option and the indentation).
NESTED_OPTIONS = [
    "boot = {\n{i}loader.grub = {\n{i}{i}enable = true;\n{i}};\n};\n",
    "boot = {\n{i}loader.systemd-boot.enable = true;\n{i}loader.efi.canTouchEfiVariables = true;\n};\n",
    "boot = {\n{i}initrd.availableKernelModules = [ \"nvme\" ];\n};\n",
    "boot.loader = {\n{i}grub.enable = true;\n};\n",
    "environment = {\n{i}systemPackages = with pkgs; [ vim ];\n};\n",
    "environment = {\n{i}systemPackages = [\n{i}{i}pkgs.git\n{i}];\n};\n",
    "system = {\n{i}stateVersion = \"25.05\";\n};\n",
    "system.stateVersion = \"25.05\";\n",
]
NESTED_VARIANTS = [(option.replace("{i}", indent), indent)
                   for option in NESTED_OPTIONS for indent in ("  ", "    ", "\t")]
# Nix that is no machine's configuration: a package, a development shell, a flake's outputs, an option's declaration,
# a comment and a string naming the options.
NIX_LOOK_ALIKES = [
    ("pkgs/tool/default.nix", "{ stdenv }:\nstdenv.mkDerivation {\n  pname = \"tool\";\n  version = \"1.0\";\n}\n"),
    ("shell.nix", "{ pkgs ? import <nixpkgs> {} }:\npkgs.mkShell {\n  packages = [ pkgs.go ];\n}\n"),
    ("nix/flake-part.nix", "{\n  perSystem = { pkgs, ... }: {\n    packages = {\n      default = pkgs.hello;\n"
                           "    };\n  };\n}\n"),
    ("modules/grub.nix", "{ lib, ... }: {\n  options.boot.loader.grub.theme = lib.mkOption {\n"
                         "    type = lib.types.path;\n  };\n}\n"),
    ("notes.nix", "# set system.stateVersion and environment.systemPackages in your configuration\n{ }\n"),
    ("doc.nix", "{\n  description = \"environment = { systemPackages = ...; }\";\n}\n"),
    ("devenv.nix", "{ pkgs, ... }: {\n  packages = [ pkgs.git ];\n  languages.go.enable = true;\n}\n"),
]


def _module(option: str) -> str:
    return "{ config, pkgs, ... }:\n{\n" + "".join(f"  {line}\n" for line in option.splitlines()) + "}\n"


@each_case(("option", "indent"), NESTED_VARIANTS)
def test_nested_nixos_options_are_a_machine_configuration(option: str, indent: str) -> None:
    got = sniff("hosts/web/configuration.nix", _module(option).encode(), RULES.context)
    assert got is not None and (got.bucket, got.rule) == ("iac", "iac.content.nixos"), (option, got)


def test_casey_labs_configuration_is_a_machine_configuration() -> None:
    got = sniff("configuration.nix", NESTED_NIXOS.encode(), RULES.context)
    assert got is not None and (got.bucket, got.rule) == ("iac", "iac.content.nixos"), got


@each_case(("path", "text"), NIX_LOOK_ALIKES, ids=[item[0] for item in NIX_LOOK_ALIKES])
def test_nix_look_alikes_are_no_machine_configuration(path: str, text: str) -> None:
    got = sniff(path, text.encode(), RULES.context)
    assert got is None or got.rule != "iac.content.nixos", got


def test_the_files_a_nested_configuration_deploys_are_iac(git_repo: GitRepo, tmp_path: Path) -> None:
    """With the commits, the files the nested configuration names by path literal are what it deploys (tfrefs'
    nix_paths, which reads a file the NixOS signal matches); a file it does not name keeps its bucket."""
    git_repo.write("README.md", "# lab\n")
    git_repo.commit("base")
    texts = {"configuration.nix": NESTED_NIXOS,
             "etc/ergo.yaml": "network:\n  name: lab\nserver:\n  name: tulip.farm\n",
             "etc/opendmarc.conf": "AuthservID tulip.farm\n",
             "bin/audit.sh": "#!/bin/sh\nlab task --name audit\n",
             "etc/unused.yaml": "network:\n  name: other\n",
             "src/main.rs": "fn main() {}\n"}
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in ("configuration.nix", "etc/ergo.yaml", "etc/opendmarc.conf", "bin/audit.sh"):
        assert files[path].bucket == "iac", files[path]
    for path in ("etc/unused.yaml", "src/main.rs"):
        assert files[path].bucket not in ("ci", "iac"), files[path]
    patched = patch_files(git_repo, tmp_path)
    assert patched["configuration.nix"].bucket == "iac", patched["configuration.nix"]


WORKFLOW = """name: Jira lint
on: pull_request
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: ./jira-linter
        with:
          token: ${{ secrets.GITHUB_TOKEN }}
"""
ACTION = """name: Jira linter
runs:
  using: composite
  steps:
    - run: bash ${{ github.action_path }}/lint.sh
      shell: bash
"""


@each_case("readme", ["README.md", "README", "README.rst", "docs/README.md", "README.zh-CN.md"])
def test_a_local_actions_readme_stays_a_document(git_repo: GitRepo, tmp_path: Path, readme: str) -> None:
    """TykTechnologies/github-actions' shape: `uses: ./jira-linter`; the action's definition, its script and a data
    file it keeps are ci (GitHub runs the folder), its README documents are src, as in `.github/actions/`."""
    git_repo.write("README.md", "# actions\n")
    git_repo.commit("base")
    git_repo.write(".github/workflows/jira-lint.yaml", WORKFLOW)
    git_repo.write("jira-linter/action.yml", ACTION)
    git_repo.write("jira-linter/lint.sh", "#!/bin/sh\necho lint\n")
    git_repo.write("jira-linter/statuses.json", "[\"In Review\"]\n")
    git_repo.write(f"jira-linter/{readme}", "# Jira Linter\n\nValidates pull requests against Jira tickets.\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in ("jira-linter/action.yml", "jira-linter/lint.sh", "jira-linter/statuses.json"):
        assert files[path].bucket == "ci", files[path]
    assert files[f"jira-linter/{readme}"].bucket == "src", files[f"jira-linter/{readme}"]


@each_case("path", ["jira-linter/README.yml", "jira-linter/README.json", "jira-linter/readme.sh",
                                  "jira-linter/README.md.sh"])
def test_readme_named_code_in_a_local_action_stays_ci(git_repo: GitRepo, path: str) -> None:
    """Only README documents: a README named YAML, JSON or script in the action's folder is what the runner may load."""
    git_repo.write("README.md", "# actions\n")
    git_repo.commit("base")
    git_repo.write(".github/workflows/jira-lint.yaml", WORKFLOW)
    git_repo.write("jira-linter/action.yml", ACTION)
    git_repo.write(path, "echo: x\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files[path].bucket == "ci", files[path]


@pytest.mark.parametrize("size", [64 * 1024, 256 * 1024])
def test_the_nix_readers_stay_linear_on_hostile_lines(size: int) -> None:
    """A line of blanks before no option, and an antiquotation opening a path that never closes: each read once."""
    blanks = "\t" * size + "x = 1;\n"
    assert NIXOS.search(blanks) is None
    text = "system.stateVersion = \"24.11\";\n" + "${./" + "a" * size + " ${./" * 64 + "\nx = \"${./etc/x.yaml}\";\n"
    assert names_in("configuration.nix", text).files == {"etc/x.yaml"}  # the unclosed ones name nothing


# DezyneSamples' shape: the build CI runs calls a generator, which loads its parser by `__dirname`, which loads the AST
# by a name without an extension (the word scan of what a CI script names finds `parse.js`, not `ast`).
DIRNAME_IMPORTS = [
    ("var ast = require(__dirname + '/ast');\n", "tools/ast.js"),
    ('var ast = require (__dirname + "/lib/ast");\n', "tools/lib/ast.js"),
    ("const ast = require(path.join(__dirname, 'lib', 'ast'));\n", "tools/lib/ast.js"),
    ("const ast = require(path.resolve(__dirname, './lib/ast'));\n", "tools/lib/ast.js"),
    ("const ast = require(join(__dirname, 'ast'));\n", "tools/ast.js"),
    ("const ast = await import(path.join(__dirname, 'lib/ast'));\n", "tools/lib/ast.js"),
    ("const ast = require(__dirname + '/lib');\n", "tools/lib/index.js"),
]
DIRNAME_LOOK_ALIKES = [
    "const data = fs.readFileSync(__dirname + '/ast');\n",  # data read, no module loaded
    "const out = path.join(__dirname, 'ast');\n",  # a path built, nothing imported
    "const up = require(__dirname + '/../ast');\n",  # leaves the script's folder: never followed upwards
]


def _generator_repo(git_repo: GitRepo, parser: str) -> None:
    git_repo.write("README.md", "# samples\n")
    git_repo.commit("base")
    texts = {".github/workflows/build.yml": "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
                                             "      - run: node tools/generate.js models/alarm.dzn\n",
             "tools/generate.js": "var parser = require(__dirname + '/parse.js');\nparser.parse(process.argv[2]);\n",
             "tools/parse.js": parser,
             "tools/ast.js": "exports.Port = function Port() {};\n",
             "tools/lib/ast.js": "exports.Port = function Port() {};\n",
             "tools/lib/index.js": "exports.x = 1;\n",
             "ast.js": "exports.root = 1;\n",
             "tools/unused.js": "exports.x = 1;\n"}
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")


@each_case(("form", "module"), DIRNAME_IMPORTS)
def test_modules_a_ci_script_loads_by_its_dirname_are_ci(git_repo: GitRepo, form: str, module: str) -> None:
    _generator_repo(git_repo, form)
    files = tree_files(git_repo)
    assert files["tools/parse.js"].bucket == "ci", files["tools/parse.js"]
    assert files[module].bucket == "ci", files[module]
    for path in ("tools/unused.js", "ast.js"):
        assert files[path].bucket not in ("ci", "iac"), files[path]


@each_case("form", DIRNAME_LOOK_ALIKES)
def test_dirname_look_alikes_import_nothing(git_repo: GitRepo, form: str) -> None:
    _generator_repo(git_repo, form)
    files = tree_files(git_repo)
    for path in ("tools/ast.js", "ast.js", "tools/unused.js"):
        assert files[path].bucket not in ("ci", "iac"), files[path]


def test_a_test_suites_dirname_imports_are_not_followed(git_repo: GitRepo) -> None:
    """A test file `npm test` runs as a suite imports the product: not CI's code (ciimports.is_test)."""
    git_repo.write("README.md", "# x\n")
    git_repo.commit("base")
    git_repo.write(".github/workflows/test.yml", "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                                                 "      - run: npm test\n")
    git_repo.write("package.json", '{"scripts": {"test": "mocha test/parse.test.js"}}\n')
    git_repo.write("test/parse.test.js", "const helper = require(__dirname + '/helper');\n"
                                         "const fixtures = require(path.join(__dirname, 'fixtures'));\n")
    git_repo.write("test/helper.js", "exports.h = 1;\n")
    git_repo.write("test/fixtures/index.js", "exports.f = 1;\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    for path in ("test/helper.js", "test/fixtures/index.js"):
        assert files[path].bucket not in ("ci", "iac"), files[path]


SOURCEHUT_BASE = """image: alpine/edge
sources:
  - {source}
tasks:
  - build: |
      {command}
"""
SOURCEHUT_VARIANTS = [
    ("https://git.sr.ht/~user/proj", "proj/bin/check", "bin/check"),
    ("https://github.com/ysoftwareab/proj.git", "GITHUB_WORKSPACE=$(pwd)/run proj/bin/check", "bin/check"),
    ("https://git.sr.ht/~user/proj#main", "cd proj\n      ./ci/build.sh", "ci/build.sh"),
    ("git@git.sr.ht:~user/proj", "cd proj && sh tools/test", "tools/test"),
    ("https://git.sr.ht/~user/proj", "bash proj/scripts/release.sh --dry-run", "scripts/release.sh"),
    ("https://git.sr.ht/~user/proj", "cd proj/scripts && ./release", "scripts/release"),
]


@each_case("source, command, script, manifest", [(source, command, script, manifest)
           for source, command, script in SOURCEHUT_VARIANTS for manifest in [".builds/test.yml", ".build.yml"]])
def test_a_sourcehut_tasks_paths_below_its_clone_are_the_repositorys(git_repo: GitRepo, source: str, command: str,
                                                                     script: str, manifest: str) -> None:
    files = added_files(git_repo, {manifest: SOURCEHUT_BASE.format(source=source, command=command),
                                   script: "#!/bin/sh\necho run\n", "tools/other": "#!/bin/sh\necho other\n"})
    assert files[script].bucket == "ci", files[script]
    assert files["tools/other"].bucket not in ("ci", "iac"), files["tools/other"]


@each_case(("path", "text"), [
    # another folder than the clone's name
    (".builds/test.yml", SOURCEHUT_BASE.format(source="https://git.sr.ht/~user/proj", command="other/bin/check")),
    # a GitHub workflow: no clone folder (the checkout is the working folder)
    (".github/workflows/ci.yml", "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n"
                                 "      - run: proj/bin/check\n"),
    # sources and tasks of some other YAML (an Ansible-ish list), not a CI definition
    ("deploy/sources.yml", "sources:\n  - https://example.invalid/proj\ntasks:\n  - run: proj/bin/check\n"),
])
def test_sourcehut_look_alikes_name_no_root_file(git_repo: GitRepo, path: str, text: str) -> None:
    files = added_files(git_repo, {path: text, "bin/check": "#!/bin/sh\necho run\n"})
    assert files["bin/check"].bucket not in ("ci", "iac"), files["bin/check"]


@pytest.mark.parametrize("size", [64 * 1024, 256 * 1024])
def test_the_sourcehut_reading_stays_linear(size: int) -> None:
    """A sources list of one long line of dashes, and a clone name repeated along a long task line: read once."""
    text = "sources:\n  " + "- " * (size // 2) + "\n  - https://git.sr.ht/~u/proj\ntasks:\n  - a: |\n      " + \
        "proj/x " * (size // 7) + "\n"
    assert " proj/" not in rooted(text).partition("tasks:")[2]  # every clone prefix read as the root


TRAVIS_MULTIBUILD = """language: python
env:
  global:
    - REPO_DIR=onnx
{extra}before_install:
  - {source} multibuild/common_utils.sh;
  - {source} multibuild/{steps};
  - before_install;
install:
  - build_wheel $REPO_DIR $PLAT;
script:
  - install_run $PLAT
"""
MULTIBUILD_VARIANTS = [
    (".travis.yml", TRAVIS_MULTIBUILD.format(extra="", source="source", steps="travis_steps.sh"), "config.sh"),
    (".travis.yml", TRAVIS_MULTIBUILD.format(extra="", source=".", steps="travis_osx_steps.sh"), "config.sh"),
    (".travis.yml", TRAVIS_MULTIBUILD.format(extra="    - CONFIG_PATH=ci/multibuild-config.sh\n", source="source",
                                             steps="travis_steps.sh"), "ci/multibuild-config.sh"),
    (".github/workflows/wheels.yml", "on: push\njobs:\n  w:\n    runs-on: ubuntu-latest\n    env:\n"
     "      CONFIG_PATH: tools/wheels/config.sh\n    steps:\n      - run: |\n"
     "          source multibuild/common_utils.sh\n          source multibuild/travis_steps.sh\n"
     "          build_wheel . x86_64\n", "tools/wheels/config.sh"),
]


@each_case(("definition", "text", "config"), MULTIBUILD_VARIANTS)
def test_multibuilds_project_hooks_are_ci(git_repo: GitRepo, definition: str, text: str, config: str) -> None:
    git_repo.write("README.md", "# wheels\n")
    git_repo.commit("base")
    git_repo.write(definition, text)
    git_repo.write(config, "function build_wheel {\n    build_bdist_wheel $@\n}\nfunction run_tests {\n"
                           "    pytest\n}\n")
    git_repo.write("tools/other.sh", "#!/bin/sh\necho other\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files[config].bucket == "ci", files[config]
    assert files["tools/other.sh"].bucket not in ("ci", "iac"), files["tools/other.sh"]


@each_case("text", [
    # no multibuild: a root config.sh a person sources
    "language: python\nscript:\n  - pytest\n",
    # multibuild named, not sourced
    "language: python\nscript:\n  - echo 'see multibuild/README.rst'\n  - git submodule update multibuild\n",
    # another library's steps
    "language: python\nbefore_install:\n  - source ci/travis_steps.sh\n",
])
def test_multibuild_look_alikes_leave_config_sh(git_repo: GitRepo, text: str) -> None:
    files = added_files(git_repo, {".travis.yml": text, "config.sh": "export X=1\n"}, "# wheels\n")
    assert files["config.sh"].bucket not in ("ci", "iac"), files["config.sh"]


@pytest.mark.parametrize("size", [64 * 1024, 256 * 1024])
def test_the_multibuild_reading_stays_linear(size: int) -> None:
    """Long words after `source` and after `multibuild/`: each read once."""
    assert loaded("source " + "a" * size + "\n. multibuild/" + "steps" * (size // 5) + "\n") == []
    assert "config.sh" in loaded("x\n" * (size // 2) + "source multibuild/travis_steps.sh\n")
