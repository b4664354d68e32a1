"""A command's answer on standard output: a stream that cannot take it is an error of its own (exit 2, one line).

Red team 16: a pipe whose reader had gone made click turn the EPIPE into `sys.exit(1)` (the gate's deny code, on a
review or an allow, and no message); a full device or a closed standard output was an "internal error".
"""

from __future__ import annotations

import os
import sys

import click

from gatekeeper.errors import GatekeeperError

_HINT = "pass --output FILE, or give the command a standard output that takes its report"


class OutputError(GatekeeperError):
    """Standard output cannot take the report: the answer was not delivered (exit 2)."""


def write_report(text: str) -> None:
    """Write `text` (a final newline added when it has none) to standard output and flush it."""
    if sys.stdout is None:
        raise OutputError("standard output is closed: the report cannot be written", hint=_HINT)
    try:
        click.echo(text, nl=not text.endswith("\n"))
        sys.stdout.flush()
    except OSError as exc:
        # What is still buffered goes nowhere: the exit's own flush must not fail again (Python's status 120).
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives until the process ends
        raise OutputError(f"cannot write the report to standard output: {exc.strerror or exc}", hint=_HINT) from exc
