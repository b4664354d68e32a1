"""`gatekeeper audit verify|show|stats|replay`: read the decision log the gate writes with `--log`."""

from __future__ import annotations

from pathlib import Path

import click

from gatekeeper.errors import ExitCode
from gatekeeper.wording import count

_LOG = click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
_FORMAT = click.option("--format", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True)


@click.group("audit")
def audit() -> None:
    """Verify, show, count and replay the decisions in a log written by `gate --log`."""


@audit.command("verify")
@_LOG
@click.option("--head-file", type=click.Path(dir_okay=False, path_type=Path),
              help="A copy of LOG.head kept elsewhere (default: LOG.head beside the log).")
@_FORMAT
def verify(log: Path, head_file: Path | None, fmt: str) -> int:
    """Check the hash chain: exit 0 intact, 1 naming the first tampered line, 2 unreadable."""
    import json

    from gatekeeper.audit.verify import verify_log

    verdict = verify_log(log, head_file=head_file)
    if fmt == "json":
        click.echo(json.dumps(verdict.to_dict(), indent=2))
    elif verdict.problem is not None:
        click.echo(f"{log}: chain broken: {verdict.problem.message}")
    else:
        click.echo(
            f"{log}: intact: {count(verdict.records, 'record')}, last seq {verdict.last_seq}, hash {verdict.last_hash}"
        )
        if verdict.head_file is None and verdict.records:
            click.echo(f"{log}: note: no head file, so records removed from the end cannot be detected", err=True)
    return ExitCode.OK if verdict.ok else ExitCode.FAILED


@audit.command("show")
@_LOG
@click.argument("run_id", required=False)
@_FORMAT
def show(log: Path, run_id: str | None, fmt: str) -> int:
    """Show the decisions (those of RUN_ID only, when given) as a table or JSON."""
    from gatekeeper.audit.read import load_entries, snapshot_file
    from gatekeeper.audit.show import render_json, render_table, select

    entries = select(load_entries(snapshot_file(log)), run_id)
    click.echo(render_json(entries) if fmt == "json" else render_table(entries))
    return ExitCode.OK


@audit.command("stats")
@_LOG
@click.option("--since", help="Only decisions logged on or after this date (YYYY-MM-DD or RFC 3339).")
@_FORMAT
def stats(log: Path, since: str | None, fmt: str) -> int:
    """Count outcomes, policies and rules that fired, per ISO week, and the share sent to a human."""
    import json

    from gatekeeper.audit.read import load_entries, snapshot_file
    from gatekeeper.audit.stats import compute, parse_since, render_text

    start = parse_since(since) if since else None
    result = compute(load_entries(snapshot_file(log)), start)
    click.echo(json.dumps(result, indent=2) if fmt == "json" else render_text(result))
    return ExitCode.OK


@audit.command("replay")
@_LOG
@click.argument("record")
@click.option("--packet", "packet_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The review packet the decision was made for.")
@click.option("--patch", "patch_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The patch the decision was made for.")
@click.option("--policy", "policy_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Today's policy bundle, inside the git repository that holds its history.")
@_FORMAT
def replay(log: Path, record: str, packet_path: Path, patch_path: Path, policy_dir: Path | None, fmt: str) -> int:
    """Re-decide RECORD (seq or hash prefix) with the bundle as recorded, and with today's; exit 1 if it differs."""
    import json

    from gatekeeper.audit.read import snapshot_file
    from gatekeeper.audit.replay import render_text, replay_record
    from gatekeeper.config import resolve_policy_dir

    result = replay_record(snapshot_file(log), record, packet_path, patch_path, resolve_policy_dir(policy_dir))
    click.echo(json.dumps(result.to_dict(), indent=2) if fmt == "json" else render_text(result))
    return ExitCode.OK if result.same else ExitCode.FAILED


COMMANDS: list[click.Command] = [audit]
