"""The CLI's error contract: every usage error is one line on stderr with exit 2, never click's three."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from gatekeeper.cli import COMMAND_MODULES, main


@pytest.mark.parametrize("argv", [
    ["gate", "--bogus"],
    ["gate", "--format", "pdf"],
    ["gate", "--timeout", "x"],
    ["classify", "--format", "yaml", "x.diff"],
    ["nosuchcommand"],
    ["audit", "show", "--nope"],
    ["verify"],
])
def test_click_usage_errors_are_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(argv) == 2
    out = capsys.readouterr()
    lines = out.err.splitlines()
    assert out.out == "" and len(lines) == 1, out.err
    assert lines[0].startswith("gatekeeper: error: ") and "--help" in lines[0]


def test_a_bare_command_still_shows_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "Usage: gatekeeper" in capsys.readouterr().err


def test_every_command_module_is_in_the_lazy_table_and_only_its_own_module_loads() -> None:
    folder = Path(__file__).resolve().parent.parent / "gatekeeper" / "cli"
    defined = {}
    for path in sorted(folder.glob("*_cmd.py")):
        module = importlib.import_module(f"gatekeeper.cli.{path.stem}")
        defined.update({command.name: path.stem for command in module.COMMANDS})
    assert defined == COMMAND_MODULES
    # `gatekeeper classify --help` loads classify's module and no other command's (cli/stdout.py, the guarded
    # standard output every command writes through, is the group's own).
    probe = ("import sys; from gatekeeper.cli import main; main(['classify', '--help']); "
             "print(sorted(m for m in sys.modules if m.startswith('gatekeeper.cli.')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.splitlines()[-1] == "['gatekeeper.cli.classify_cmd', 'gatekeeper.cli.stdout']"
