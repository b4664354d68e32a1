"""The eighty-first set: a pre-commit config's `exclude:` regex names files pre-commit leaves out, never runs.

aio-libs/multidict's `.pre-commit-config.yaml` keeps ruff off `tools/upgrade_pythoncapi.py` with a folded `exclude: >-
(?x) ^ tools/upgrade_pythoncapi\\.py $`; CI runs pre-commit, the walk read the config's words, and the maintainer script
no CI runs was `ci`. pre-commit's documentation is the truth: `exclude` (top level and per hook) is a regex of the files
not passed to a hook. On 13d71d3 the excluded files of every form below but a plain one-path scalar were named; what
a hook runs (`entry:`, its `args:`, a `files:` filter, which passes files to the hook) stays named.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_classify

from gatekeeper.classify import settingsexcludes

FILES = {"tools/gen.py": "print(1)\n", "docs/conf.py": "x = 1\n", "scripts/build.sh": "echo hi\n",
         "web/build.js": "console.log(1)\n"}
# the exclude values (as written after `exclude:` at a key's indentation {i})
EXCLUDES = [
    "'^(tools/gen\\.py|docs/conf\\.py|scripts/build\\.sh|web/build\\.js)$'",
    "\"^(tools/gen\\\\.py|docs/conf\\\\.py|scripts/build\\\\.sh|web/build\\\\.js)$\"",
    ">-\n{i}  (?x)\n{i}  ^(\n{i}    tools/gen\\.py|\n{i}    docs/conf\\.py|\n"
    "{i}    scripts/build\\.sh|\n{i}    web/build\\.js\n{i}  )$",
    "|\n{i}  (?x)^(\n{i}      tools/gen\\.py\n{i}    | docs/conf\\.py\n"
    "{i}    | scripts/build\\.sh\n{i}    | web/build\\.js\n{i}  )$",
    "^(tools/gen\\.py|docs/conf\\.py|\n{i}  scripts/build\\.sh|web/build\\.js)$",
]
CONFIG_NAMES = [".pre-commit-config.yaml", ".pre-commit-config.yml", ".pre-commit-config-ci.yaml"]


def _config(where: str, value: str) -> str:
    hook = "- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.6.0\n  hooks:\n  - id: ruff\n"
    if where == "top":
        return f"exclude: {value.format(i='')}\nrepos:\n{hook}"
    if where == "hook":
        return f"repos:\n{hook}    exclude: {value.format(i='    ')}\n  - id: ruff-format\n"
    return f"repos:\n{hook}  -   exclude: {value.format(i='      ')}\n      id: ruff-format\n"  # an item's first key


def _tree(name: str, config: str) -> dict[str, str]:
    run = "pre-commit run --all-files" + (f" -c {name}" if name != ".pre-commit-config.yaml" else "")
    return {".github/workflows/lint.yml": RUN_WORKFLOW.format(run=run), name: config, **FILES}


@pytest.mark.parametrize("name", CONFIG_NAMES)
@pytest.mark.parametrize("where", ["top", "hook", "item"])
def test_an_excluded_file_is_not_run(name: str, where: str) -> None:
    named = {str(at): sorted(set(FILES) & tree_runs(_tree(name, _config(where, value))))
             for at, value in enumerate(EXCLUDES)}
    assert named == {str(at): [] for at in range(len(EXCLUDES))}


HOOKS = [
    "- repo: local\n  hooks:\n  - id: gen\n    name: gen\n    entry: python tools/gen.py\n    language: python\n"
    "    exclude: ^docs/\n",
    "- repo: local\n  hooks:\n  - id: gen\n    name: gen\n    entry: python\n    args: [tools/gen.py]\n"
    "    language: system\n    exclude: '^docs/conf\\.py$'\n",
    "- repo: local\n  hooks:\n  - id: gen\n    name: gen\n    entry: python tools/gen.py\n    language: system\n"
    "    exclude: |\n      ^docs/\n    files: ^src/\n",
]


@pytest.mark.parametrize("hooks", HOOKS)
def test_what_a_hook_runs_stays_run(hooks: str) -> None:
    assert "tools/gen.py" in tree_runs(_tree(".pre-commit-config.yaml", f"repos:\n{hooks}"))


def test_another_files_exclude_key_is_read_as_before() -> None:
    """A workflow's `exclude:` (a matrix's) and a Python tool's list keep their readers' meaning."""
    assert settingsexcludes.unexcluded("ci.yml", "exclude: tools/gen.py\n") == "exclude: tools/gen.py\n"
    assert settingsexcludes.unexcluded(".pre-commit-hooks.yaml", "- id: x\n  exclude: a.py\n") \
        == "- id: x\n  exclude: a.py\n"


def test_the_maintainer_script_is_src_with_tree(tmp_path: Path) -> None:
    config = _config("hook", EXCLUDES[2])
    base = _tree(".pre-commit-config.yaml", config)
    repo, first, second = two_commits(tmp_path, base, {"tools/gen.py": "print(2)\n"})
    assert tree_classify(repo.root, first, second)["tools/gen.py"]["bucket"] == "src"


def test_a_long_exclude_is_blanked_in_linear_time() -> None:
    assert_linear(lambda text: settingsexcludes.unexcluded(".pre-commit-config.yaml", text),
                  repeated("      tools/gen\\.py|\n", head="repos:\n- repo: x\n  hooks:\n  - id: y\n    exclude: |\n"),
                  budget=0.5)
    assert_linear(lambda text: settingsexcludes.unexcluded(".pre-commit-config.yaml", text),
                  repeated("  - id: y\n    exclude: a\\.py\n", head="repos:\n- repo: x\n  hooks:\n"), budget=0.5)
