"""A command's answer on standard output: a stream that cannot take it is an error of its own (exit 2, one line).

Red team 16: a pipe whose reader had gone made click turn the EPIPE into `sys.exit(1)` (the gate's deny code, on a
review or an allow, and no message; `test`'s failure, `audit replay`'s "not reproduced"); a full device or a closed
standard output was an "internal error". The gate's report and the bytes `classify` and `deps` print go through
the writers here; everything else click prints (help, version, other commands' echo) reaches `unwritable` through
the command group (gatekeeper/cli/__init__.py), which turns the EPIPE into this error before click sees it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import click

from gatekeeper.errors import GatekeeperError

_HINT = "give the command a standard output that takes what it prints, or pass --output FILE where it has one"


class OutputError(GatekeeperError):
    """Standard output cannot take the answer: it was not delivered (exit 2)."""


def unwritable(exc: OSError) -> OutputError:
    """The error for a write standard output refused. What is still buffered goes nowhere: the exit's own flush
    must not fail again (Python's status 120)."""
    sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives until the process ends
    return OutputError(f"cannot write to standard output: {exc.strerror or exc}", hint=_HINT)


def write_report(text: str) -> None:
    """Write `text` (a final newline added when it has none) to standard output and flush it."""
    _guarded(lambda: click.echo(text, nl=not text.endswith("\n")))


def write_bytes(text: str) -> None:
    """Write `text` as UTF-8, surrogate escapes back to the bytes they stand for (paths git gave that do not
    decode), and flush it."""
    _guarded(lambda: sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape")))


def _guarded(write: Callable[[], object]) -> None:
    if sys.stdout is None:  # the process was started with descriptor 1 closed
        raise OutputError("standard output is closed: nothing can be written to it", hint=_HINT)
    try:
        write()
        sys.stdout.flush()
    except OSError as exc:
        raise unwritable(exc) from exc
