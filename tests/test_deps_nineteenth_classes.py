"""Classes of misses the nineteenth blind set of bot update commits found (bench/deps_bumps_nineteenth.tsv): a
project template's requirements file (cookiecutter's `{{cookiecutter.project_slug}}/requirements_dev.txt`, its
conditional lines wrapped in Jinja's `{% if … -%}` / `{% endif %}` tags) was unparsable, so pyup's bumps of it were
no change in both modes (8 commits); a chart's `appVersion` under a Renovate annotation written without its colon
(gabe565/charts: `# renovate datasource=docker depName=vabene1111/recipes`) was named by the chart, not the image
the annotation names (1 with `--tree`, 7 more from the patch, where the values file's tag line shows no
repository); and, from the hunk alone, a pre-commit hook's `- id:` renamed beside its repository's `rev:`
(python-poetry/poetry-core: pre-commit.ci's move of ruff-pre-commit, `- id: ruff` → `- id: ruff-check`) refused the
whole file (1). Real-shaped files, look-alikes and attacks; one git repository per case."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import pypi, tools
from gatekeeper.deps.hunklines import precommit_line
from gatekeeper.deps.model import ManifestError
from tests.deltas import each_fast, moves, partial, refused
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

# The shape of a Python project template's development requirements: pinned tools, then the lines a choice made
# when the project is generated keeps or drops.
TEMPLATE_PATH = "{{cookiecutter.project_slug}}/requirements_dev.txt"
TEMPLATE = """\
pip==24.3.1
bump2version==1.0.1
wheel==0.45.0
watchdog==6.0.0
tox==4.23.2
coverage==7.6.8
Sphinx==8.1.3
twine==6.0.0
ruff==0.8.0
{% if cookiecutter.command_line_interface|lower == 'typer' -%}
typer==0.14.0{% endif %}
{% if cookiecutter.use_pytest == 'y' -%}
pytest==8.3.3{% endif %}
{# the rendered file ends here #}
"""


def test_a_templated_requirements_file_reads_its_pins(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {TEMPLATE_PATH: TEMPLATE},
                                      {TEMPLATE_PATH: {"coverage==7.6.8": "coverage==7.6.9"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("pip", "coverage", "7.6.8", "7.6.9")}, delta
    assert not _tree(repo, base, head).problems


def test_a_conditional_requirement_is_read_as_one_it_may_install(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {TEMPLATE_PATH: TEMPLATE},
                                      {TEMPLATE_PATH: {"pytest==8.3.3{%": "pytest==8.3.4{%"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("pip", "pytest", "8.3.3", "8.3.4")}, delta


def test_a_requirement_hidden_behind_a_false_condition_is_still_a_dependency(tmp_path: Path) -> None:
    """The delta renders nothing: what a tag could drop is read as installed (a new package goes to a human)."""
    hidden = "ruff==0.8.0\n{% if false %}evil==1.0{% endif %}\n"
    repo, base, head = edited_commits(tmp_path, {TEMPLATE_PATH: TEMPLATE}, {TEMPLATE_PATH: {"ruff==0.8.0\n": hidden}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("pip", "evil", None, "1.0")}, delta


@each_case("line", [
    "{{ cookiecutter.project_slug }}==0.1.0",  # an expression renders to text the delta cannot know
    "requests=={{ cookiecutter.requests_version }}",
    "pytest==8.3.3 {# an unclosed comment",
    "{% if cookiecutter.use_pytest == 'y' pytest==8.3.3",  # an unclosed statement
])
def test_template_expressions_and_unclosed_tags_stay_unreadable(line: str) -> None:
    with pytest.raises(ManifestError):
        pypi.parse_requirements("requirements.txt", f"tox==4.23.2\n{line}\n".encode())


def test_a_file_without_tags_reads_as_before() -> None:
    body = b"coverage==7.6.9  # {not a tag}\n-r base.txt\n"
    assert [(d.name, d.version) for d in pypi.parse_requirements("requirements.txt", body)] == [
        ("coverage", "7.6.9"), ("base.txt", "requirements file")]


def test_hostile_template_lines_are_read_quickly() -> None:
    big = 1 << 20
    calls = [
        (lambda: pypi.untemplated("{%x%}" * (big // 5) + "{#"), "many closed tags, then an unclosed comment"),
        (lambda: pypi.untemplated("{%" * (big // 2)), "opens only"),
        (lambda: pypi.untemplated("{#" * (big // 4) + "{%a%}" * 1000), "unclosed comments before statements"),
        (lambda: refused(lambda: pypi.parse_requirements("r.txt", ("a==1{%%}" * (big // 7)).encode())),
         "a requirement split by empty tags"),
    ]
    each_fast(calls, 2.0)


# A chart whose templates tag the image with appVersion; the repository's own Renovate regex manager matches the
# annotation above it without a colon.
CHART = """\
apiVersion: v2
name: tandoor
description: Drop-in recipe manager
icon: https://example.invalid/logo.svg
type: application
version: 0.9.2
# renovate datasource=docker depName=vabene1111/recipes
appVersion: 1.5.14
kubeVersion: ">=1.22.0-0"
keywords:
  - recipes
"""


def test_a_colonless_annotation_names_a_charts_app_image(tmp_path: Path) -> None:
    path = "charts/tandoor/Chart.yaml"
    repo, base, head = edited_commits(tmp_path, {path: CHART}, {path: {"appVersion: 1.5.14": "appVersion: 1.5.15"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("docker", "vabene1111/recipes", "1.5.14", "1.5.15")}, delta


@each_case(("line", "named"), [
    ("# renovate: datasource=docker depName=vabene1111/recipes", ("docker", "vabene1111/recipes")),
    ("#renovate datasource=docker depName=vabene1111/recipes", ("docker", "vabene1111/recipes")),
    ("# renovate datasource=github-releases depName=vabene1111/recipes", ("tool", "vabene1111/recipes")),
    # without a colon, only a line naming its datasource is an annotation
    ("# renovate depName=vabene1111/recipes", None),
    ("# renovate github=vabene1111/recipes", None),
    ("# renovatebot datasource=docker depName=vabene1111/recipes", None),
    ("# renovate later, datasource=docker depName=x", None),
    ("# renovate datasource=docker", None),
])
def test_colonless_annotation_look_alikes(line: str, named: tuple[str, str] | None) -> None:
    assert tools.annotation(line) == named


def test_a_chart_under_a_look_alike_comment_keeps_its_own_name(tmp_path: Path) -> None:
    path = "charts/tandoor/Chart.yaml"
    body = CHART.replace("# renovate datasource=docker depName", "# renovate depName")
    repo, base, head = edited_commits(tmp_path, {path: body}, {path: {"appVersion: 1.5.14": "appVersion: 1.5.15"}})
    assert moves(_tree(repo, base, head)) == {("tool", "tandoor", "1.5.14", "1.5.15")}


# A Python project's pre-commit configuration, the hook's id renamed by its new release beside the rev.
PRE_COMMIT = """\
ci:
  autofix_prs: false

repos:
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v5.0.0
    hooks:
      - id: trailing-whitespace
      - id: end-of-file-fixer
      - id: check-docstring-first

  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.11.7
    hooks:
      - id: ruff
      - id: ruff-format

  - repo: https://github.com/woodruffw/zizmor-pre-commit
    rev: v1.6.0
    hooks:
      - id: zizmor
"""
RUFF_MOVE = {"rev: v0.11.7": "rev: v0.12.7", "      - id: ruff\n": "      - id: ruff-check\n",
             "rev: v1.6.0": "rev: v1.11.0"}


def test_a_hook_renamed_beside_its_rev_reads_from_the_hunk(tmp_path: Path) -> None:
    path = ".pre-commit-config.yaml"
    repo, base, head = edited_commits(tmp_path, {path: PRE_COMMIT}, {path: RUFF_MOVE})
    want = {("pre-commit", "astral-sh/ruff-pre-commit", "v0.11.7", "v0.12.7"),
            ("pre-commit", "woodruffw/zizmor-pre-commit", "v1.6.0", "v1.11.0")}
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == want and not partial(delta, path), delta


def test_a_compact_hooks_list_reads_the_same() -> None:
    side = [("  - repo: https://github.com/astral-sh/ruff-pre-commit", False), ("    rev: v0.12.7", False),
            ("    hooks:", False), ("    - id: ruff-check  # renamed in 0.12", True), ("    - id: ruff-format", False)]
    assert precommit_line(side, 3) == []


@each_case("side", [
    # no `hooks:` above: the hunk does not show whose list this is
    [("      - id: ruff", False), ("      - id: ruff-check", True)],
    # an id where a repository's key belongs
    [("repos:", False), ("  - id: ruff-check", True)],
    [("  - repo: https://github.com/astral-sh/ruff-pre-commit", False), ("    rev: v0.12.7", False),
     ("    - id: ruff-check", True)],
    # more than an id on the line, or another key
    [("    hooks:", False), ("      - {id: ruff-check, entry: evil}", True)],
    [("    hooks:", False), ("      - id: ruff-check", False), ("        entry: evil", True)],
    [("    hooks:", False), ("      - id: ruff check", True)],
    # an item with more keys than its id, or a line below it no item of this list can follow
    [("    hooks:", False), ("      - id: ruff-check", True), ("        args: [--fix]", False)],
    [("    hooks:", False), ("      - id: ruff-check", True), ("     rev: v1", False)],
    [("    hooks:", False), ("      - id: ruff-check", True), ("      rev: v1", False)],
    # a sibling deeper than the list's items
    [("    hooks:", False), ("      - id: ruff", False), ("        - id: ruff-check", True)],
])
def test_hook_id_look_alikes_stay_refused(side: list[tuple[str, bool]]) -> None:
    with pytest.raises(ManifestError):
        precommit_line(side, next(i for i, (_, changed) in enumerate(side) if changed))


def test_a_new_hook_item_with_more_keys_is_read_whole_or_refused(tmp_path: Path) -> None:
    """A new hook item with its id and `additional_dependencies`: the whole file reads the package; from the hunk an
    item with more keys than its id is refused, never read as nothing."""
    path = ".pre-commit-config.yaml"
    local = ("      - id: zizmor\n"
             "      - id: check-things\n"
             "        additional_dependencies: [evil==1.0]\n")
    repo, base, head = edited_commits(tmp_path, {path: PRE_COMMIT}, {path: {"      - id: zizmor\n": local}})
    assert ("pip", "evil", None, "1.0") in moves(_tree(repo, base, head))
    assert partial(_patch(repo, base, head), path)


def test_an_id_dropped_from_above_its_keys_is_refused(tmp_path: Path) -> None:
    """The keys left behind would belong to no hook (the whole file does not parse): the hunk must not read it."""
    path = ".pre-commit-config.yaml"
    body = PRE_COMMIT + "  - repo: local\n    hooks:\n      - id: cargo-fmt\n        entry: cargo fmt --\n"
    repo, base, head = edited_commits(tmp_path, {path: body},
                                      {path: {"      - id: cargo-fmt\n": "\n", "      - id: zizmor\n":
                                              "      - id: zizmor\n      - id: cargo-fmt\n"}})
    assert partial(_patch(repo, base, head), path)


def test_hostile_hook_lines_are_read_quickly() -> None:
    big = 1 << 20
    calls = [
        (lambda: refused(lambda: precommit_line([("      - id: " + "a" * big + " b", True)], 0)),
         "a long id, then more"),
        (lambda: refused(lambda: precommit_line([("        x", False)] * (big // 8) + [("      - id: a", True)],
                                                big // 8)), "many lines above, none a hooks key"),
    ]
    each_fast(calls, 2.0)
