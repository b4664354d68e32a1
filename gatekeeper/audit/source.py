"""`audit ... LOG` or `audit ... --git REMOTE[#REF]`: one way for every audit command to open the log it names."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from gatekeeper.audit.gitlog import parse_spec, read_git
from gatekeeper.audit.read import Snapshot, snapshot_file
from gatekeeper.audit.verify import Verdict, read_head, verify_log, verify_snapshot
from gatekeeper.errors import UsageError

if TYPE_CHECKING:
    from gatekeeper.attest.keys import Trust


def _check(log: Path | None, git: str | None) -> None:
    if (log is None) == (git is None):
        raise UsageError("name one decision log: a LOG file or --git REMOTE[#REF]", where="audit",
                         hint="e.g. `gatekeeper audit verify decisions.jsonl` or `... --git https://host/audit.git`")


def open_log(log: Path | None, git: str | None, env: Mapping[str, str] | None = None) -> Snapshot:
    """The records of the file LOG or of the git ref --git, as one Snapshot."""
    _check(log, git)
    if git is not None:
        return read_git(parse_spec(git), env=os.environ if env is None else env)[0]
    assert log is not None
    return snapshot_file(log)


def verify(log: Path | None, git: str | None, head_file: Path | None,
           env: Mapping[str, str] | None = None, trust: Trust | None = None) -> Verdict:
    """Verify the file LOG (with its head file) or the git ref --git (with --head-file when given); with
    `trust`, every record's signature too."""
    _check(log, git)
    if log is not None:
        return verify_log(log, head_file=head_file, trust=trust)
    assert git is not None
    snapshot, tip = read_git(parse_spec(git), env=os.environ if env is None else env)
    head = read_head(head_file) if head_file is not None else None
    return verify_snapshot(snapshot, head, tip=tip, head_file=head_file, trust=trust)
