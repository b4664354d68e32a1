"""`gatekeeper packet` (build a review packet from a patch) and `gatekeeper verify` (check one against its patch)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from gatekeeper.errors import ExitCode

_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_FILE = click.Path(dir_okay=False, path_type=Path)
_DIR = click.Path(file_okay=False, path_type=Path)


@click.command("packet")
@click.argument("patch", type=_FILE)
@click.option("--out", type=_FILE, help="Write the packet here (atomically) instead of printing it.")
@click.option("--policy", "policy_dir", type=_DIR, help="Policy bundle whose classification rules to use.")
@click.option("--model-requested", metavar="NAME", help="The model the generator asked for.")
@click.option("--model-reported", metavar="NAME", help="The model the provider said it served (else null).")
@click.option("--run-id", metavar="ID", help="Run id to record (default: a fresh one).")
@click.option("--format", "fmt", type=click.Choice(("text", "json")), default="json", show_default=True,
              help="json: the packet (or, with --out, a short JSON note); text: a human summary.")
def packet(
    patch: Path,
    out: Path | None,
    policy_dir: Path | None,
    model_requested: str | None,
    model_reported: str | None,
    run_id: str | None,
    fmt: str,
) -> int:
    """Build review packet v1 for PATCH (a `git diff --cached --binary`); refuses unsafe paths (exit 2)."""
    import json

    from gatekeeper.classify import load_rules
    from gatekeeper.config import resolve_policy_dir
    from gatekeeper.errors import UsageError
    from gatekeeper.packet import build_packet, derive, packet_json, read_bundle_revision, write_packet

    if run_id is not None and not _RUN_ID.fullmatch(run_id):
        raise UsageError(
            f"invalid run id {run_id!r}", where="--run-id", hint="use letters, digits, '.', '_' and '-' (at most 128)"
        )
    bundle = resolve_policy_dir(policy_dir)
    rules = load_rules(bundle)
    derived = derive(patch, rules)
    built = build_packet(
        derived,
        rules,
        run_id=run_id,
        model_requested=model_requested,
        model_reported=model_reported,
        reported_by="command-line" if model_reported is not None else None,
        bundle_revision=read_bundle_revision(bundle),
    )
    if out is not None:
        write_packet(out, built)
        if fmt == "json":
            note = {"packet": str(out.resolve()), "run_id": built["run_id"], **built["diff"]}
            click.echo(json.dumps(note, indent=2, ensure_ascii=True))
        else:
            click.echo(f"{out}: {_summary(built)}")
    elif fmt == "json":
        click.echo(packet_json(built), nl=False)
    else:
        click.echo(_summary(built))
        for entry in built["files"]:
            click.echo(_file_line(entry))
    return ExitCode.OK


@click.command("verify")
@click.argument("packet_file", metavar="PACKET", type=_FILE)
@click.option("--patch", type=_FILE, required=True, help="The patch the packet describes.")
@click.option("--policy", "policy_dir", type=_DIR, help="Policy bundle whose classification rules to re-derive with.")
def verify(packet_file: Path, patch: Path, policy_dir: Path | None) -> int:
    """Check PACKET against PATCH: schema, sha256, file list, statuses, buckets and counts
    (exit 2 on any difference)."""
    from gatekeeper.classify import load_rules
    from gatekeeper.config import resolve_policy_dir
    from gatekeeper.errors import PacketError
    from gatekeeper.packet import derive
    from gatekeeper.verify import compare, load_packet

    claimed = load_packet(packet_file)
    rules = load_rules(resolve_policy_dir(policy_dir))
    differences = compare(claimed, derive(patch, rules))
    if differences:
        for line in differences:
            click.echo(f"gatekeeper: verify: {_printable(line)}", err=True)
        raise PacketError(
            f"the packet does not match its patch ({len(differences)} difference"
            f"{'' if len(differences) == 1 else 's'}, listed above)",
            where=str(packet_file),
            hint="rebuild the packet with `gatekeeper packet` from this very patch",
        )
    diff = claimed["diff"]
    click.echo(
        f"{packet_file}: matches {patch} ({diff['file_count']} files, "
        f"+{diff['additions']} -{diff['deletions']}, sha256 {diff['sha256']})"
    )
    return ExitCode.OK


def _summary(built: dict[str, Any]) -> str:
    diff = built["diff"]
    radius = ", ".join(
        f"{bucket} {totals['files']}" for bucket, totals in built["blast_radius"].items() if totals["files"]
    )
    return (
        f"run {built['run_id']}: {diff['file_count']} files, +{diff['additions']} -{diff['deletions']}"
        f" ({radius or 'no files'}), sha256 {diff['sha256']}"
    )


def _file_line(entry: dict[str, Any]) -> str:
    counts = "binary" if entry["binary"] else f"+{entry['additions']} -{entry['deletions']}"
    path = entry["path"] if entry["old_path"] is None else f"{entry['old_path']} -> {entry['path']}"
    return f"  {entry['status']:<12} {entry['bucket']:<5} {counts:<12} {_printable(path)}"


_ODD = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _printable(text: str) -> str:
    # Paths may hold surrogate escapes (non-UTF-8 bytes) and control characters: show them escaped,
    # so a name can neither break the terminal nor the one-line-per-file layout.
    return _ODD.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace").decode("ascii"), text)


COMMANDS: list[click.Command] = [packet, verify]
