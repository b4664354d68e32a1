"""The CLI's error contract: every usage error is one line on stderr with exit 2, never click's three."""

from __future__ import annotations

import pytest

from gatekeeper.cli import main


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
