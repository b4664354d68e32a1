"""The one place for exit codes and user-facing errors.

Every error a user can cause is a `GatekeeperError`: it says what is wrong, where (file, line,
field) and what to do. The CLI turns it into one line on stderr and its exit code; nothing
else in the library prints or exits.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Exit codes of every command (the README and `--help` show this table)."""

    OK = 0  # gate: allow; other commands: success
    FAILED = 1  # gate: deny; test: a test failed; audit verify: the chain is broken
    ERROR = 2  # could not decide: bad arguments, unreadable or invalid input, policy error
    REVIEW = 3  # gate: a human must review before merge


# The gate's outcome as an exit code: every non-zero status fails a CI step.
OUTCOME_EXIT: dict[str, ExitCode] = {"allow": ExitCode.OK, "deny": ExitCode.FAILED, "review": ExitCode.REVIEW}

EXIT_CODE_HELP = (
    "Exit codes: 0 allow / success; 1 deny (gate), failures (test: a test failed or coverage is below the "
    "floor; run: the generator failed or timed out, patch and packet written; audit verify: the chain is "
    "broken; audit replay: the decision is not reproduced; verify: packet, patch and commits differ); 2 could "
    "not decide (bad arguments, unreadable or invalid input, policy error); 3 review required (gate)."
)


class GatekeeperError(Exception):
    """Base of every user-facing error: what is wrong, where, and what to do."""

    exit_code: ExitCode = ExitCode.ERROR

    def __init__(self, what: str, *, where: str | None = None, hint: str | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.where = where
        self.hint = hint

    def __str__(self) -> str:
        text = f"{self.where}: {self.what}" if self.where else self.what
        if self.hint:
            text += f" ({self.hint})"
        return text


class UsageError(GatekeeperError):
    """The command line or a config file asks for something impossible."""


class DiffersError(GatekeeperError):
    """A check ran and found a difference (verify: the packet, its patch and the commits disagree): exit 1."""

    exit_code = ExitCode.FAILED


class InputFileError(GatekeeperError):
    """A file named on the command line cannot be read."""


class PatchError(GatekeeperError):
    """A patch is malformed or unsafe to process."""


class PacketError(GatekeeperError):
    """A review packet is unreadable, invalid against its schema, or does not match its patch."""


class RulesError(GatekeeperError):
    """A classification rules file is invalid."""


class PolicyError(GatekeeperError):
    """A policy bundle cannot be loaded or evaluated: the gate cannot decide."""


class RunError(GatekeeperError):
    """The runner cannot set up, isolate or finish a generator run."""


class AuditError(GatekeeperError):
    """A decision log or the policy history cannot be read."""


class LimitError(GatekeeperError):
    """A document (JSON or YAML) is larger, deeper or wider than the documented input limits (exit 2)."""


class FixtureError(GatekeeperError):
    """A fixtures folder or one of its cases cannot be loaded (exit 2)."""


def where(path: object, line: int | None = None, field: str | None = None) -> str:
    """Format a location as `file[:line][: field]` for `GatekeeperError(where=...)`."""
    text = str(path)
    if line is not None:
        text += f":{line}"
    if field:
        text += f": {field}"
    return text
