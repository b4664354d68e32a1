"""Review 70 (attack on misses 10's lefthook `root:` reader, lefthookroots.py): lefthook 1.10's `jobs:` are a list, and
a job whose first key is `root` (`- root: web`, also a `group:` job's root its nested jobs run in) was not read: its
`run: ./s.sh` was read from the settings file's folder only and `web/s.sh` stayed `src` (an edit exit 0). A list
item's key is read as a mapping's is. Look-alikes: a list item's root out of the tree, another key ending in root."""

from __future__ import annotations

from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import lefthookroots

SETTINGS = [("lefthook.yml", "pre-commit:\n  jobs:\n    - root: {root}\n      run: ./s.sh\n"),
            ("lefthook.yml", "pre-commit:\n  jobs:\n    -   root: \"{root}\"\n        run: ./s.sh\n"),
            (".lefthook.yaml", "pre-commit:\n  jobs:\n    - root: {root}\n      group:\n        jobs:\n"
                               "          - run: ./s.sh\n"),
            ("lefthook-local.yml", "pre-push:\n  jobs:\n  - 'root': '{root}'\n    run: bash ./s.sh\n"),
            ("lefthook.yml", "pre-commit:\n  jobs:\n    - {{root: {root}, run: ./s.sh}}\n")]
ROOTS = [("web", "web"), ("web/", "web"), ("packages/app", "packages/app")]


@each_case("settings, text, script", [(name, text.format(root=root), f"{folder}/s.sh") for name, text in SETTINGS
                                      for root, folder in ROOTS])
def test_a_list_jobs_root_is_where_its_command_runs(settings: str, text: str, script: str) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="npx lefthook run pre-commit"), settings: text,
             script: "#!/bin/sh\n", "package.json": "{}\n"}
    assert script in tree_runs(files), (settings, text)  # before: 12/15 missed


@each_case("text", ["pre-commit:\n  jobs:\n    - root: ../web\n      run: ./s.sh\n",
                    "pre-commit:\n  jobs:\n    - gitroot: web\n      run: ./s.sh\n",
                    "pre-commit:\n  jobs:\n    - name: root\n      run: ./s.sh\n"])
def test_look_alikes_add_no_root(text: str) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="npx lefthook run pre-commit"), "lefthook.yml": text,
             "web/s.sh": "#!/bin/sh\n", "package.json": "{}\n"}
    assert "web/s.sh" not in tree_runs(files), text


@each_case("hostile", [repeated("    - root: w\n"), repeated("- " + " " * 200, "", "root"),
                       repeated("{- root: ", "", "x")])
def test_the_reader_is_linear(hostile: object) -> None:
    # measured: at most 2 ms CPU at 64 KiB (load 6.5)
    assert_linear(lambda text: lefthookroots.roots("lefthook.yml", text), hostile,  # type: ignore[arg-type]
                  budget=0.1)
