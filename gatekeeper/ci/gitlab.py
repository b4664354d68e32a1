"""The reports of the GitLab job (examples/gitlab-ci.yml) from the one decision the gate wrote.

`python -I -m gatekeeper.ci.gitlab DECISION.json` prints the text report (outcome and every rule that
fired, with its paths) for the job log, and writes the JUnit and Code Quality reports the job
publishes as artifacts. The gate runs once; its exit status stays the job's.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from gatekeeper.bounded import load_json, read_bytes
from gatekeeper.errors import ExitCode, GatekeeperError
from gatekeeper.reports import emit

REPORTS = {"junit": "gatekeeper-junit.xml", "codequality": "gl-code-quality-report.json"}


def write_reports(decision_file: Path, folder: Path) -> str:
    """Write REPORTS into `folder` from the decision in `decision_file`; return the text report."""
    decision = load_json(read_bytes(decision_file), str(decision_file))
    for fmt, name in REPORTS.items():
        emit(fmt, decision, output=folder / name, env={})
    return emit("text", decision, env={})


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: 0 when the reports were written, 2 (one line on stderr) when not."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        sys.stderr.write("usage: python -I -m gatekeeper.ci.gitlab DECISION.json\n")
        return int(ExitCode.ERROR)
    try:
        sys.stdout.write(write_reports(Path(args[0]), Path.cwd()))
    except (GatekeeperError, OSError, ValueError) as exc:
        sys.stderr.write(f"gatekeeper: cannot write the job's reports: {exc}\n")
        return int(ExitCode.ERROR)
    return int(ExitCode.OK)


if __name__ == "__main__":
    sys.exit(main())
