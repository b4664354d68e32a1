"""The eighty-first set: an action that runs a repository file by its documented default, the step naming none.

DataFrames.jl's docs job is `uses: julia-actions/julia-docdeploy@latest`: the action runs `julia --project=docs/
docs/make.jl` (Documenter's build, deployed with the job's token), and `docs/make.jl` was `src`; getsentry/responses'
release job is `uses: getsentry/craft@v2`, whose `craft prepare` runs the default pre-release command `bash
scripts/bump-version.sh` (getsentry/action-prepare-release does the same), and the script was `src`. Cypress' action
runs `npx cypress run` unless its `command:` says otherwise, loading `cypress.config.*`. On 13d71d3 every positive
case below failed; the look-alikes (another action of the family, a comment, a step's name, a longer action name)
kept what they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citools import tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import cli_result, tree_gate

from gatekeeper.classify import cidefaults

STEP = "      - uses: actions/checkout@v4\n{step}"
WORKFLOW = "name: docs\non: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n" + STEP
# (how a step names the action, the file it runs by default, the other files the tree holds)
ACTIONS = [
    ("julia-actions/julia-docdeploy", "docs/make.jl", {"docs/Project.toml": "[deps]\n"}),
    ("julia-actions/julia-runtest", "test/runtests.jl", {"Project.toml": 'name = "Demo"\n'}),
    ("getsentry/craft", "scripts/bump-version.sh", {".craft.yml": "minVersion: 0.21.0\n"}),
    ("getsentry/action-prepare-release", "scripts/bump-version.sh", {".craft.yml": "changelog: CHANGES\n"}),
    ("cypress-io/github-action", "cypress.config.ts", {"package.json": '{"name": "web"}'}),
    # the eighty-fifth set: RubyGems' trusted-publishing action and an older one run `rake release` (Bundler's gem
    # tasks, which the Rakefile loads), delayed_job's publish workflow
    ("rubygems/release-gem", "Rakefile", {"Gemfile": "source 'https://rubygems.org'\ngemspec\n"}),
    ("cadwallion/publish-rubygems-action", "Rakefile", {"demo.gemspec": "Gem::Specification.new\n"}),
]
# the step's shapes: a version tag, a SHA pin with a comment, quoted, with a name first, with env and inputs
STEPS = [
    "      - uses: {a}@v1\n", "      - uses: {a}@latest\n        env:\n          GITHUB_TOKEN: x\n",
    "      - uses: {a}@c6e2f04939b6ee67030588afbb5af76b127d8203 # v2\n", "      - uses: '{a}@v2'\n",
    "      - name: Build and deploy\n        uses: \"{a}@v6\"\n        with:\n          version: 1\n",
    "      -   uses:   {a}@main\n",
]


def _tree(step: str, target: str, extra: dict[str, str]) -> dict[str, str]:
    return {".github/workflows/docs.yml": WORKFLOW.format(step=step), target: "x\n", "README.md": "x\n", **extra}


@pytest.mark.parametrize(("action", "target", "extra"), ACTIONS)
def test_the_actions_default_file_is_run(action: str, target: str, extra: dict[str, str]) -> None:
    missed = [step for step in STEPS if target not in tree_runs(_tree(step.format(a=action), target, extra))]
    assert missed == [], action


def test_a_composite_actions_step_runs_it_too() -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(step="      - uses: ./.github/actions/docs\n"),
            ".github/actions/docs/action.yml": "runs:\n  using: composite\n  steps:\n"
                                               "    - uses: julia-actions/julia-docdeploy@v1\n",
            "docs/make.jl": "using Documenter\n"}
    assert "docs/make.jl" in tree_runs(tree)


# another action of the family, a commented step, a step's name or a message naming it, a longer name, a fork's path
LOOK_ALIKES = [
    ("      - uses: julia-actions/julia-buildpkg@v1\n", "docs/make.jl"),
    ("      # - uses: julia-actions/julia-docdeploy@v1\n", "docs/make.jl"),
    ("      - name: julia-actions/julia-docdeploy@v1\n        run: echo hi\n", "docs/make.jl"),
    ("      - run: echo 'uses: getsentry/craft@v2'\n", "scripts/bump-version.sh"),
    ("      - uses: julia-actions/julia-docdeploy-extra@v1\n", "docs/make.jl"),
    ("      - uses: getsentry/craft-action-lite@v1\n", "scripts/bump-version.sh"),
    ("      - uses: cypress-io/github-action-setup@v1\n", "cypress.config.ts"),
    ("      - uses: julia-actions/julia-docdeploy@v1\n", "test/runtests.jl"),
    ("      - uses: julia-actions/julia-runtest-extra@v1\n", "test/runtests.jl"),
    ("      # - uses: julia-actions/julia-runtest@v1\n", "test/runtests.jl"),
    ("      - uses: julia-actions/julia-runtest@v1\n", "docs/make.jl"),
    ("      - uses: rubygems/configure-rubygems-credentials@v1\n", "Rakefile"),
    ("      - uses: rubygems/release-gem-preview@v1\n", "Rakefile"),
    ("      # - uses: rubygems/release-gem@v1\n", "Rakefile"),
    ("      - name: rubygems/release-gem@v1\n        run: gem build x.gemspec\n", "Rakefile"),
]


@pytest.mark.parametrize(("step", "target"), LOOK_ALIKES)
def test_a_look_alike_runs_nothing_new(step: str, target: str) -> None:
    assert target not in tree_runs(_tree(step, target, {}))


def test_the_gated_edit_needs_a_human(tmp_path: Path) -> None:
    base = _tree("      - uses: julia-actions/julia-docdeploy@v1\n", "docs/make.jl", {})
    base["docs/make.jl"] = "using Documenter\nmakedocs()\n"
    _, first, second = two_commits(tmp_path, base, {"docs/make.jl": "using Documenter\nrun(`curl x.example`)\n"})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]
    assert any(reason["rule"] == "core.ci" for reason in decision["reasons"])


def test_a_gated_rakefile_edit_needs_a_human(tmp_path: Path) -> None:
    base = _tree("      - uses: rubygems/release-gem@v1\n", "Rakefile", {"Gemfile": "gemspec\n"})
    base["Rakefile"] = "require 'bundler/gem_tasks'\n"
    _, first, second = two_commits(tmp_path, base, {"Rakefile": "require 'bundler/gem_tasks'\nsh 'curl x.example'\n"})
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]
    assert any(reason["rule"] == "core.ci" for reason in decision["reasons"])


def test_many_steps_are_read_in_linear_time() -> None:
    unit = "      - uses: julia-actions/julia-docdeploy@v1\n"
    assert_linear(lambda text: cidefaults.with_default(".github/workflows/d.yml", text),
                  repeated(unit, head=WORKFLOW.format(step="")), budget=0.5)


@pytest.mark.parametrize(("action", "target", "extra"), ACTIONS)
def test_a_patch_showing_the_workflow_runs_the_default_file(tmp_path: Path, action: str, target: str,
                                                            extra: dict[str, str]) -> None:
    # the eighty-fifth set: from a patch alone the walk of the shown definitions named no action's default file
    # (delayed_job's Rakefile beside its publish workflow stayed src)
    repo, first, second = two_commits(tmp_path, {"README.md": "x\n"}, _tree(STEPS[2].format(a=action), target, extra))
    patch = tmp_path / "change.diff"
    patch.write_bytes(repo.git("diff", "--binary", first, second))
    code, doc = cli_result(["classify", str(patch), "--format", "json"])
    files = {f["path"]: f for f in doc["files"]}
    assert code == 0 and files[target]["bucket"] == "ci", files[target]
