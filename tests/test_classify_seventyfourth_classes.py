"""The classes of misses the seventy-fourth label set showed (bench/classify_accuracy/seventyfourth.tsv: 31 repositories
fetched for it, weighted to what CI runs and loads, measured blind first), with the look-alikes they must leave alone.

- *Travis' default script*: a root `.travis.yml` with no `script:` runs its language's default (docs.travis-ci.com,
  the language guides): `bundle exec rake` for Ruby, also when no `language:` is given (Ruby is the default), `make`
  for Go when a Makefile exists, `./configure && make && make test` for C and C++, `npm test` for Node.js.
  kbeckman/commish's Travis file names no command and runs its Rakefile's default task; the Rakefile was `src`.
- *A Makefile's include by a glob with character classes*: grafana/synthetic-monitoring-agent's Makefile, which the
  workflows run, has `include $(wildcard $(ROOTDIR)/scripts/make/[0-9][0-9][0-9]_*.mk)`; the `[0-9]` classes were
  matched as literal text, so the fragments stayed `src`.
- *AWS CodeDeploy's deployment hooks*: an `appspec.yml` (`iac` by its name) runs the scripts its `hooks:` name by
  `location:` on every instance it deploys to, from the revision's root (the appspec's folder): hjar/bitbucket-to-aws'
  `codedeploy-prepare.sh` and `codedeploy-setup-app.sh` were `src`.
- *Cirrus CI's folders*: `.cirrus/` (SonarSource's layout: the CI image's Dockerfile, scripts) and `.cirrusci/`
  (spamwax/rmate-rs' FreeBSD scripts) belong to one CI system, as `.travis/` and `.appveyor/` do.
"""

from __future__ import annotations

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import added_files, assert_path_rule

RAKEFILE = "require 'rspec/core/rake_task'\nRSpec::Core::RakeTask.new(:spec)\ntask default: %w[spec]\n"
RAKE_TASK = "namespace :release do\n  task :push do\n    sh 'gem push pkg/*.gem'\n  end\nend\n"
MAKEFILE = "all: build\nbuild:\n\tgo build ./...\ntest:\n\tgo test ./...\n"
CONFIGURE = "#!/bin/sh\necho configuring\n"
PACKAGE = '{"name": "x", "version": "1.0.0", "scripts": {"test": "sh scripts/test.sh"}}\n'
SCRIPT = "#!/bin/sh\nset -e\necho run\n"

# (the root Travis file, the files beside it, what each must be)
TRAVIS = [
    # commish's shape: Ruby versions, a before_install, no script
    ("sudo: required\nlanguage: ruby\nrvm:\n  - 2.5\n  - 2.6\nbefore_install: gem install bundler\n",
     {"Rakefile": RAKEFILE, "rakelib/release.rake": RAKE_TASK}, {"Rakefile": "ci", "rakelib/release.rake": "ci"}),
    # no language: Travis' default language is Ruby
    ("os: linux\ndist: focal\nrvm: 3.1\n", {"Rakefile": RAKEFILE}, {"Rakefile": "ci"}),
    ("language: 'ruby'\ncache: bundler\n", {"Rakefile": RAKEFILE}, {"Rakefile": "ci"}),
    # a job of the matrix sets its own script; the other jobs still run the default
    ("language: ruby\nrvm: [3.2]\njobs:\n  include:\n    - name: lint\n      script: bundle exec rubocop\n",
     {"Rakefile": RAKEFILE}, {"Rakefile": "ci"}),
    # Go runs make when a Makefile exists
    ("language: go\ngo:\n  - 1.21.x\n", {"Makefile": MAKEFILE}, {"Makefile": "ci"}),
    # C and C++: ./configure && make && make test
    ("language: c\ncompiler:\n  - gcc\n  - clang\n", {"configure": CONFIGURE, "Makefile": MAKEFILE},
     {"configure": "ci", "Makefile": "ci"}),
    ("language: cpp\n", {"configure": CONFIGURE}, {"configure": "ci"}),
    # Node.js: npm test, whose script runs a file
    ("language: node_js\nnode_js:\n  - 18\n", {"package.json": PACKAGE, "scripts/test.sh": SCRIPT},
     {"scripts/test.sh": "ci"}),
    # look-alikes: a script is given, so the default does not run
    ("language: ruby\nrvm: 3.2\nscript: bundle exec rspec\n", {"Rakefile": RAKEFILE}, {"Rakefile": "src"}),
    ("language: ruby\nscript:\n  - bundle exec rspec\n  - bundle exec rubocop\n", {"Rakefile": RAKEFILE},
     {"Rakefile": "src"}),
    ("language: go\nscript:\n  - go test ./...\n", {"Makefile": MAKEFILE}, {"Makefile": "src"}),
    # Python has no default script, and a Makefile beside it is a person's
    ("language: python\npython: 3.11\ninstall: pip install -e .\n", {"Makefile": MAKEFILE, "Rakefile": RAKEFILE},
     {"Makefile": "src", "Rakefile": "src"}),
]


@each_case(("travis", "extra", "want"), TRAVIS)
def test_travis_runs_its_languages_default_script_when_none_is_given(git_repo: GitRepo, travis: str,
                                                                     extra: dict[str, str],
                                                                     want: dict[str, str]) -> None:
    files = added_files(git_repo, {".travis.yml": travis, **extra})
    for path, bucket in want.items():
        assert files[path].bucket == bucket, files[path]
        if bucket == "ci":
            assert files[path].rule == "ci.context.ci-run", files[path]


def test_a_nested_or_vendored_travis_file_runs_no_default(git_repo: GitRepo) -> None:
    """Travis reads the root `.travis.yml` only: a subproject's and a vendored gem's run nothing here."""
    files = added_files(git_repo, {
        "sub/.travis.yml": "language: ruby\nrvm: 3.2\n", "sub/Rakefile": RAKEFILE,
        "vendor/gems/x/.travis.yml": "language: ruby\n", "vendor/gems/x/Rakefile": RAKEFILE,
        "Rakefile": RAKEFILE})
    assert files["sub/Rakefile"].bucket == "src", files["sub/Rakefile"]
    assert files["Rakefile"].bucket == "src", files["Rakefile"]
    assert files["vendor/gems/x/Rakefile"].bucket == "deps", files["vendor/gems/x/Rakefile"]


MAKE_WORKFLOW = """name: ci
on: [push]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make deps
      - run: make test
"""
HELPERS = "##@ Helpers\n.PHONY: help\nhelp:\n\t@echo help\n"


@each_case("include, fragments, left", [
    # synthetic-monitoring-agent's line: a variable folder, a wildcard function, character classes
    ("ROOTDIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))\n"
     "include $(wildcard $(ROOTDIR)/scripts/make/[0-9][0-9][0-9]_*.mk)\n",
     ["scripts/make/900_helpers.mk", "scripts/make/100_build.mk"],
     ["scripts/make/helpers.mk", "scripts/make/README.md", "scripts/make/9_x.txt"]),
    ("-include mk/?-rules.mk\n", ["mk/a-rules.mk", "mk/z-rules.mk"], ["mk/a-rules.txt", "mk/rules.mk"]),
    ("sinclude $(wildcard build/[a-z]*.mk)\n", ["build/go.mk", "build/lint.mk"], ["build/go.md", "build/lint.txt"]),
    ("include make/[!_]*.mk\n", ["make/release.mk"], ["make/notes.txt"]),
])
def test_a_makefile_included_by_a_glob_with_classes_runs_its_fragments(git_repo: GitRepo, include: str,
                                                                       fragments: list[str], left: list[str]) -> None:
    files = added_files(git_repo, {
        ".github/workflows/ci.yml": MAKE_WORKFLOW,
        "Makefile": f"{include}\nall: deps build\ndeps:\n\tgo mod download\ntest:\n\tgo test ./...\n",
        **{name: HELPERS for name in fragments + left}})
    for name in fragments:
        assert files[name].bucket == "ci", files[name]
    for name in left:
        assert files[name].bucket == "src", files[name]


def test_a_glob_include_of_a_makefile_no_ci_runs_names_nothing(git_repo: GitRepo) -> None:
    files = added_files(git_repo, {
        "Makefile": "include $(wildcard scripts/make/[0-9][0-9][0-9]_*.mk)\nall:\n\techo hi\n",
        "scripts/make/900_helpers.mk": HELPERS})
    assert files["scripts/make/900_helpers.mk"].bucket == "src", files["scripts/make/900_helpers.mk"]


APPSPEC = """# Definition file for AWS CodeDeploy

version: 0.0
os: linux
files:
  - source: /
    destination: /var/www/app
permissions:
  - object: /var/www/app
    owner: apache
hooks:
  BeforeInstall:
    - location: codedeploy-prepare.sh
  AfterInstall:
    - location: "scripts/setup app.sh"
      timeout: 300
      runas: root
  ApplicationStart:
    - location: scripts/start_server
    - timeout: 60
      location: 'scripts/warm.sh'
  ValidateService:
    - location: ./scripts/validate.py
  AfterBlockTraffic:
    - location: ../outside.sh
"""
ECS_APPSPEC = """version: 0.0
Resources:
  - TargetService:
      Type: AWS::ECS::Service
      Properties:
        TaskDefinition: "arn:aws:ecs:us-east-1:111222333444:task-definition/web:1"
Hooks:
  - BeforeInstall: "LambdaFunctionToValidateBeforeInstall"
"""


def test_codedeploy_runs_the_scripts_its_hooks_name_on_the_instances(git_repo: GitRepo) -> None:
    files = added_files(git_repo, {
        "appspec.yml": APPSPEC, "codedeploy-prepare.sh": SCRIPT, "scripts/setup app.sh": SCRIPT,
        "scripts/start_server": SCRIPT, "scripts/warm.sh": SCRIPT, "scripts/validate.py": "print('ok')\n",
        "outside.sh": SCRIPT, "scripts/other.sh": SCRIPT,
        # a revision bundled from a folder: its appspec names paths from that folder
        "bundle/appspec.yaml": "version: 0.0\nos: linux\nhooks:\n  AfterInstall:\n    - location: hooks/after.sh\n",
        "bundle/hooks/after.sh": SCRIPT, "hooks/after.sh": SCRIPT,
        # ECS' appspec names Lambda functions, no file
        "ecs/appspec.yml": ECS_APPSPEC, "ecs/LambdaFunctionToValidateBeforeInstall": SCRIPT,
        # a YAML file that is no appspec with a `location:` key
        "config/places.yml": "hooks:\n  - location: scripts/place.sh\n", "scripts/place.sh": SCRIPT})
    for name in ("codedeploy-prepare.sh", "scripts/setup app.sh", "scripts/start_server", "scripts/warm.sh",
                 "scripts/validate.py", "bundle/hooks/after.sh"):
        assert files[name].bucket == "iac", files[name]
        assert files[name].rule == "iac.context.deploy-hook", files[name]
    for name in ("outside.sh", "scripts/other.sh", "hooks/after.sh", "ecs/LambdaFunctionToValidateBeforeInstall",
                 "scripts/place.sh"):
        assert files[name].bucket == "src", files[name]


@each_case("path", [".cirrus/Dockerfile", ".cirrus/build.sh", ".cirrus/run_iris.sh", ".cirrusci/build.sh",
                    ".cirrusci/deploy.sh", ".cirrusci/install_ghr.sh"])
def test_cirrus_ci_folders_are_ci(path: str) -> None:
    assert_path_rule(path, "ci", "ci.system-folders")


@each_case("path", ["cirrus/build.sh", "docs/cirrus-ci.md", "src/cirrus/client.py", ".cirrusrc.sh"])
def test_cirrus_named_look_alikes_are_not_ci_folders(path: str) -> None:
    assert_path_rule(path, "src", None)
