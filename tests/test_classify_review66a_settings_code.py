"""Review 66a, bypasses of the eighty-first set's lowering (`other.lint-format`): three of the settings files it moved
to `other` are code the tool runs. bump-my-version runs a `.bumpversion.cfg`/`.bumpversion.toml`'s `setup_hooks`,
`pre_commit_hooks` and `post_commit_hooks` as shell commands; Steep evaluates its `Steepfile` as Ruby; qlty runs the
commands its `.qlty/qlty.toml` plugin definitions name (`script = ...`). Where CI runs the tool, an edit of the file
was exit 0 on 089857f9 (docs/classification.md's tool-settings principle: such settings are `ci` where CI runs it).

The class: a CI line that runs bump-my-version/bumpversion/bump2version, steep or qlty (bare, behind `bundle exec`,
`uvx`, `pipx run`, ...) names the settings file the tool loads. Look-alikes that stay `other`: the same files where CI
runs no such tool, a word that only contains the name (`steeper`, `qlty-report`, `./bump-my-version.md`)."""

from __future__ import annotations

from citools import one_tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import toolreads

SETTINGS = {"bump": [".bumpversion.cfg", ".bumpversion.toml"], "steep": ["Steepfile"], "qlty": [".qlty/qlty.toml"]}
LINES = {
    "bump": ["bump-my-version bump patch", "uvx bump-my-version bump --allow-dirty minor",
             "pipx run bump2version patch",
             "python -m pip install bump-my-version && bump-my-version bump patch", "bumpversion --new-version 2.0 x"],
    "steep": ["bundle exec steep check", "steep check lib", "cd sig && bundle exec steep stats", "(steep check)"],
    "qlty": ["qlty check --all", "qlty fmt --check", "curl https://127.0.0.1:9/qlty | sh; qlty check"],
}
WORKFLOW = "on: [pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: {line}\n"
GITLAB = "test:\n  script:\n    - {line}\n"
UNRELATED = ["echo steeper", "qlty-report --x", "cat ./bump-my-version.md", "make test", "bundle exec rake"]


def _files(definition: str, text: str) -> dict[str, str]:
    return {definition: text, **{name: "# settings\n" for names in SETTINGS.values() for name in names}}


def _cases() -> list[tuple[str, str, str]]:
    return [(tool, definition, form.format(line=line)) for tool, lines in LINES.items() for line in lines
            for definition, form in ((".github/workflows/ci.yml", WORKFLOW), (".gitlab-ci.yml", GITLAB))]


@each_case("tool, definition, text", _cases())
def test_a_tool_ci_runs_makes_its_code_settings_run(tool: str, definition: str, text: str) -> None:
    runs = one_tree_runs(_files(definition, text))
    assert isinstance(runs, dict)
    assert set(SETTINGS[tool]) <= set(runs), text


@each_case("line", UNRELATED)
def test_settings_of_a_tool_ci_does_not_run_stay_unread(line: str) -> None:
    runs = one_tree_runs(_files(".github/workflows/ci.yml", WORKFLOW.format(line=line)))
    assert isinstance(runs, dict)
    assert not {name for names in SETTINGS.values() for name in names} & set(runs), line


@each_case("hostile", [repeated("steep "), repeated("bump-my-version", "", " x"), repeated("qlty;")])
def test_a_hostile_line_is_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(toolreads.settings_code, hostile, budget=0.25)
