"""Classes of the recall misses left across the 31 labelled sets (the sweep14 round), each with the look-alikes it
must leave alone:

- An installed third-party package's own CI definitions (a Go module's `vendor/<module>/.travis.yml`, an npm
  package's `node_modules/<package>/.travis.yml`, a Composer package's workflows) never run here: GitHub runs only the
  root `.github/workflows/`, Travis only the root `.travis.yml` (a vendored GitLab, Jenkins, AppVeyor or CircleCI
  file, which a setting or an include can run, keeps what it names `ci`). What such a definition names inside its own
  install folder keeps the vendored rule its path gives (`deps`; rule `ci.context.ci-run` is not given by that naming:
  vendoredci.py). A file a running definition reaches, in or out of the install folder, is `ci` as before, even when
  a vendored definition names it too (running definitions are walked first); a vendored definition's names outside
  its install folder stay `ci`, and so does anything under a `vendor/` folder the path rules do not call `deps`
  (test data).

The real repository below checks them with the commits (tree context)."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify import vendoredci
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, tree_files


@each_case(("path", "root"), [
    ("vendor/github.com/pkg/errors/.travis.yml", "vendor/"),
    ("ecosystem/runner/externals/node12/lib/node_modules/npm/node_modules/debug/.travis.yml",
     "ecosystem/runner/externals/node12/lib/node_modules/"),
    ("web/bower_components/jquery/.travis.yml", "web/bower_components/"),
    ("third_party/zlib/.travis.yml", "third_party/"),
    ("pip/_vendor/rich/.github/workflows/test.yml", "pip/_vendor/"),
    # not in an install folder
    (".travis.yml", None),
    ("vendors/acme/.travis.yml", None),
    ("docs/vendor.md", None),
    ("tools/vendor-internal/flock/.travis.yml", None),
])
def test_package_root(path: str, root: str | None) -> None:
    assert vendoredci.package_root(path) == root


@each_case(("origin", "named", "own"), [
    ("vendor/github.com/hashicorp/hcl/.travis.yml", "vendor/github.com/hashicorp/hcl/Makefile", True),
    ("vendor/golang.org/x/oauth2/.travis.yml", "vendor/golang.org/x/oauth2/go.sum", True),
    ("lib/node_modules/npm/node_modules/debug/.travis.yml", "lib/node_modules/npm/bin/npm.cmd", True),
    # a running definition, a name outside the install folder, a name the path rules do not call deps
    (".github/workflows/ci.yml", "vendor/github.com/hashicorp/hcl/Makefile", False),
    ("vendor/github.com/acme/tool/.travis.yml", "scripts/release.sh", False),
    ("testdata/vendor/acme/.travis.yml", "testdata/vendor/acme/build.sh", False),
    ("vendor/github.com/acme/tool/.travis.yml", "vendor/github.com/acme/tool/Makefile", True),
    ("vendor/pimple/pimple/.github/workflows/tests.yml", "vendor/pimple/pimple/Makefile", True),
    # definitions another service can be told to run from any folder keep what they name ci
    ("vendor/acme/ci-templates/.gitlab-ci.yml", "vendor/acme/ci-templates/deploy.sh", False),
    ("vendor/acme/pipeline/Jenkinsfile", "vendor/acme/pipeline/release.sh", False),
    ("vendor/acme/tool/appveyor.yml", "vendor/acme/tool/build.ps1", False),
    ("vendor/acme/tool/.circleci/config.yml", "vendor/acme/tool/run.sh", False),
    ("vendor/acme/tool/.github/actions/setup/action.yml", "vendor/acme/tool/setup.sh", False),
])
def test_own_package_file(origin: str, named: str, own: bool) -> None:
    assert vendoredci.own_package_file(origin, named, RULES) is own
    assert vendoredci.own_package_file(origin, named, None) is False  # without path rules: ci as before


ROOT_WORKFLOW = """name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: go test ./...
      - run: bash vendor/github.com/acme/shared/check.sh
"""

HCL_TRAVIS = """sudo: false
language: go
go:
  - 1.x
  - tip
branches:
  only:
    - master
script: make test
"""

HCL_MAKEFILE = """TEST?=./...

default: test

fmt: generate
\tgo fmt ./...

test: generate
\tgo get -t ./...
\tgo test $(TEST) $(TESTARGS)

.PHONY: default generate test
"""

OAUTH_TRAVIS = """language: go
go:
  - tip
install:
  - export GOPATH="$HOME/gopath"
  - go get -v -t -d golang.org/x/oauth2/...
script:
  - go test -v golang.org/x/oauth2/...
  - bash ./go.sum
"""

DEBUG_TRAVIS = """language: node_js
node_js:
  - "6"
  - "5"
install:
  - make install
script:
  - make lint
"""

SHARED_TRAVIS = """language: go
script:
  - ./check.sh
  - ../../../../scripts/release.sh
"""

GO_SUM = "github.com/google/go-cmp v0.5.8 h1:e6P7q2lk1O+qJJb4BtCQXlK8vWEO8V1ZeuEdJNOqZyg=\n"
CHECK_SH = "#!/bin/sh\nset -e\nsh vendor/github.com/acme/shared/lint.sh\ngo vet ./...\n"
LINT_SH = "#!/bin/sh\ngofmt -l . | tee /dev/stderr | (! read)\n"
RELEASE_SH = "#!/bin/sh\nset -e\ngoreleaser release --clean\n"
FIXTURE_TRAVIS = "language: go\nscript:\n  - ./build.sh\n"


def test_the_sweep14_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a Go service with its vendored modules and a committed node runtime\n")
    git_repo.write("go.mod", "module example.invalid/svc\n\ngo 1.22\n")
    git_repo.write("main.go", "package main\n\nfunc main() {}\n")
    git_repo.commit("base")
    git_repo.write(".github/workflows/ci.yml", ROOT_WORKFLOW)  # with the scripts it runs (each tree is walked apart)
    git_repo.write("vendor/github.com/hashicorp/hcl/.travis.yml", HCL_TRAVIS)
    git_repo.write("vendor/github.com/hashicorp/hcl/Makefile", HCL_MAKEFILE)
    git_repo.write("vendor/golang.org/x/oauth2/.travis.yml", OAUTH_TRAVIS)
    git_repo.write("vendor/golang.org/x/oauth2/go.sum", GO_SUM)
    git_repo.write("externals/node12/lib/node_modules/npm/node_modules/debug/.travis.yml", DEBUG_TRAVIS)
    git_repo.write("externals/node12/lib/node_modules/npm/node_modules/debug/Makefile", "lint:\n\teslint src\n")
    # a package the running workflow reaches into, which has a definition of its own naming the same files
    git_repo.write("vendor/github.com/acme/shared/.travis.yml", SHARED_TRAVIS)
    git_repo.write("vendor/github.com/acme/shared/check.sh", CHECK_SH, mode=0o755)
    git_repo.write("vendor/github.com/acme/shared/lint.sh", LINT_SH, mode=0o755)
    git_repo.write("scripts/release.sh", RELEASE_SH, mode=0o755)
    # a vendor/ folder inside test data: the path rules do not call it deps
    git_repo.write("testdata/vendor/acme/.travis.yml", FIXTURE_TRAVIS)
    git_repo.write("testdata/vendor/acme/build.sh", "#!/bin/sh\necho build\n", mode=0o755)
    git_repo.commit("head")
    want = {
        "vendor/github.com/hashicorp/hcl/Makefile": ("deps", "deps.vendored"),
        "vendor/golang.org/x/oauth2/go.sum": ("deps", "deps.vendored"),
        "externals/node12/lib/node_modules/npm/node_modules/debug/Makefile": ("deps", "deps.npm.installed"),
        # what the root workflow runs, and what that runs in turn, stays ci
        "vendor/github.com/acme/shared/check.sh": ("ci", "ci.context.ci-run"),
        "vendor/github.com/acme/shared/lint.sh": ("ci", "ci.context.ci-run"),
        # a vendored definition's name outside its install folder stays ci
        "scripts/release.sh": ("ci", "ci.context.ci-run"),
        "testdata/vendor/acme/build.sh": ("ci", "ci.context.ci-run"),
    }
    files = tree_files(git_repo)
    assert {path: (files[path].bucket, files[path].rule) for path in want} == want
    assert files["vendor/github.com/acme/shared/lint.sh"].evidence.startswith(".github/workflows/ci.yml runs ")


GITLAB_TEMPLATE = """deploy:
  stage: deploy
  script:
    - ./deploy.sh production
"""


def test_a_vendored_gitlab_template_keeps_what_it_runs_ci(git_repo: GitRepo) -> None:
    """A root `.gitlab-ci.yml` can include a vendored template (`include: local:`), which then runs: not root-only."""
    git_repo.write("README.md", "# a service that includes a vendored pipeline template\n")
    git_repo.commit("base")
    git_repo.write(".gitlab-ci.yml", "include:\n  - local: vendor/acme/ci-templates/deploy.gitlab-ci.yml\n")
    git_repo.write("vendor/acme/ci-templates/deploy.gitlab-ci.yml", GITLAB_TEMPLATE)
    git_repo.write("vendor/acme/ci-templates/deploy.sh", "#!/bin/sh\nkubectl apply -f k8s/\n", mode=0o755)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert (files["vendor/acme/ci-templates/deploy.sh"].bucket,
            files["vendor/acme/ci-templates/deploy.sh"].rule) == ("ci", "ci.context.ci-run")
