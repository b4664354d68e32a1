"""`gatekeeper audit verify|show|stats|replay|flush`: read the decision log the gate writes (file or git ref)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from gatekeeper.attest.keys import load_trust
from gatekeeper.audit.collector import flush as flush_spool
from gatekeeper.audit.collector import spool_dir
from gatekeeper.audit.gitlog import redact
from gatekeeper.audit.read import load_entries
from gatekeeper.audit.replay import render_text as render_replay
from gatekeeper.audit.replay import replay_record
from gatekeeper.audit.show import render_json, render_table, select
from gatekeeper.audit.source import open_log
from gatekeeper.audit.source import verify as verify_source
from gatekeeper.audit.stats import compute, render_text
from gatekeeper.audit.window import window
from gatekeeper.catfile import shared_processes
from gatekeeper.errors import ExitCode, UsageError
from gatekeeper.policy_dir import resolve_policy_dir
from gatekeeper.readable import count
from gatekeeper.revrange import resolve_option

_LOG = click.argument("log", required=False, type=click.Path(dir_okay=False, path_type=Path))
_GIT = click.option("--git", "git", metavar="REMOTE[#REF]",
                    help="Read the log from REF (default refs/gatekeeper/decisions) of a git repository (path or URL) "
                         "instead of a LOG file.")
_FORMAT = click.option("--format", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True)


@click.group("audit")
def audit() -> None:
    """Verify, show, count and replay the decisions in a log written by `gate --log` or `gate --log-git`."""


@audit.command("verify")
@_LOG
@_GIT
@click.option("--head-file", type=click.Path(dir_okay=False, path_type=Path),
              help="A head ({seq, hash}) kept elsewhere (default for a LOG file: LOG.head beside it).")
@click.option("--trust", type=click.Path(dir_okay=False, path_type=Path),
              help="An allowed-signers file: every record must be signed (gate --sign) by a key it trusts in "
              "gatekeeper-gate (its line: namespaces=\"gatekeeper-gate\", or no namespaces=).")
@_FORMAT
def verify(log: Path | None, git: str | None, head_file: Path | None, trust: Path | None, fmt: str) -> int:
    """Check the hash chain (and with --trust every record's signature): exit 0 intact, 1 naming the first
    tampered, unsigned or untrusted line or record, 2 unreadable."""
    signers = None
    if trust is not None:

        signers = load_trust(trust)
    verdict = verify_source(log, git, head_file, trust=signers)
    name = log if log is not None else redact(str(git))  # a token in the URL must not reach the CI log
    if fmt == "json":
        click.echo(json.dumps(verdict.to_dict(), indent=2))
    elif verdict.problem is not None:
        broken = "not signed by a trusted key" if verdict.problem.kind in ("unsigned", "untrusted") else "chain broken"
        click.echo(f"{name}: {broken}: {verdict.problem.message}")
    elif verdict.records == 0:
        # Nothing to check is not proof of anything: say so, and say what would catch a log emptied on purpose.
        kept = "" if verdict.head_file is not None else "; keep a head elsewhere (--head-file) to tell an emptied log"
        click.echo(f"{name}: empty: no records to verify{kept}")
    else:
        tip = f", tip {verdict.tip}" if verdict.tip else ""
        signed = f", all signed by {', '.join(verdict.signers)}" if verdict.signers else ""
        click.echo(f"{name}: intact: {count(verdict.records, 'record')}, last seq {verdict.last_seq}, "
                   f"hash {verdict.last_hash}{tip}{signed}")
        if verdict.head_file is None and verdict.records:
            head = "no head file" if git is None else "no --head-file"
            click.echo(f"{name}: note: {head}, so records removed from the end cannot be detected", err=True)
    return ExitCode.OK if verdict.ok else ExitCode.FAILED


@audit.command("show")
@_LOG
@click.argument("run_id", required=False)
@_GIT
@_FORMAT
def show(log: Path | None, run_id: str | None, git: str | None, fmt: str) -> int:
    """Show the decisions (those of RUN_ID only, when given) as a table or JSON; exit 1 when RUN_ID has none."""
    if git is not None and log is not None and run_id is None:
        log, run_id = None, str(log)  # with --git the one positional argument is the run id
    entries = select(load_entries(open_log(log, git)), run_id)
    if run_id is not None and not entries:
        name = log if log is not None else redact(str(git))
        click.echo(f"gatekeeper: no decision for run {run_id!r} in {name} (run ids: `gatekeeper audit show` lists "
                   "them)", err=True)
        return ExitCode.FAILED
    click.echo(render_json(entries) if fmt == "json" else render_table(entries))
    return ExitCode.OK


@audit.command("stats")
@_LOG
@_GIT
@click.option("--since", metavar="WHEN", help="Only records logged at or after WHEN: YYYY-MM-DD (midnight UTC), an "
              "RFC 3339 time, or a span back from now in UTC: 24h, 7d, 2w.")
@click.option("--until", metavar="WHEN", help="Only records logged before WHEN (same forms as --since).")
@click.option("--bucket", "buckets", multiple=True, type=click.Choice(("ci", "iac", "deps", "src", "other")),
              help="Only decisions on changes touching this bucket (repeatable: any of them).")
@_FORMAT
def stats(log: Path | None, git: str | None, since: str | None, until: str | None, buckets: tuple[str, ...],
          fmt: str) -> int:
    """Count outcomes, policies and rules that fired, per repository, bucket and ISO week, and the share sent to a
    human; dry runs and could-not-decide records are counted apart."""
    period = window(since, until)  # before reading: a bad --since is a usage error whatever the log holds
    result = compute(load_entries(open_log(log, git)), period, buckets=buckets)
    click.echo(json.dumps(result, indent=2) if fmt == "json" else render_text(result))
    return ExitCode.OK


@audit.command("replay")
@_LOG
@click.argument("record", required=False)
@_GIT
@click.option("--packet", "packet_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The review packet the decision was made for.")
@click.option("--patch", "patch_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The patch the decision was made for.")
@click.option("--policy", "policy_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Today's policy bundle, inside the git repository that holds its history.")
@click.option("--trust", type=click.Path(dir_okay=False, path_type=Path),
              help="An allowed-signers file (keys trusted in gatekeeper-gate): replay only when the records up to "
              "RECORD are signed.")
@click.option("--tree", metavar="BASE..HEAD", help="The commits of a record the gate decided with --tree (its "
              "ci.tree): decide again with their context and tree check, as the gate did. Needed for such a record, "
              "refused for any other.")
@click.option("--repo", type=click.Path(file_okay=False, path_type=Path),
              help="The repository holding BASE and HEAD (default: the current folder).")
@_FORMAT
def replay(log: Path | None, record: str | None, git: str | None, packet_path: Path, patch_path: Path,
           policy_dir: Path | None, trust: Path | None, tree: str | None, repo: Path | None, fmt: str) -> int:
    """Re-decide RECORD (seq or hash prefix) with the bundle as recorded, and with today's; exit 1 if it differs."""
    if git is not None and log is not None and record is None:
        log, record = None, str(log)  # with --git the one positional argument is the record
    if record is None:
        raise UsageError("name the RECORD to replay (its seq or a hash prefix)", where="audit replay")
    signers = None
    if trust is not None:

        signers = load_trust(trust)
    # The range's ancestry walk and both tree contexts (the recorded bundle's, today's) read through one
    # `git cat-file` (catfile.shared_processes).
    with shared_processes():
        revs = resolve_option(tree, repo)
        result = replay_record(open_log(log, git), record, packet_path, patch_path, resolve_policy_dir(policy_dir),
                               trust=signers, revs=revs)
    click.echo(json.dumps(result.to_dict(), indent=2) if fmt == "json" else render_replay(result))
    return ExitCode.OK if result.same else ExitCode.FAILED


@audit.command("flush")
@_FORMAT
def flush(fmt: str) -> int:
    """Send the records spooled by `gate --log-url` while the collector was down; exit 1 if some are left."""
    result = flush_spool(os.environ)
    if fmt == "json":
        click.echo(json.dumps({"sent": result.sent, "left": result.left, "error": result.error,
                               "spool": str(spool_dir(os.environ))}, indent=2))
    else:
        click.echo(f"sent {count(result.sent, 'spooled record')}; {result.left} left"
                   + (f" ({result.error})" if result.error else ""))
    return ExitCode.OK if result.left == 0 else ExitCode.FAILED


COMMANDS: list[click.Command] = [audit]
