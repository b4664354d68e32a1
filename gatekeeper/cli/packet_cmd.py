"""`gatekeeper packet` (build a review packet from a patch) and `gatekeeper verify` (check one against its patch).

The policy bundle (whose classification rules to use) is resolved here, in the command layer.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from gatekeeper.catfile import shared_processes
from gatekeeper.classify import load_rules
from gatekeeper.errors import DiffersError, ExitCode, UsageError
from gatekeeper.packet import (
    RUN_ID,
    build_packet,
    derive,
    open_tree_context,
    packet_json,
    read_bundle_revision,
    write_packet,
)
from gatekeeper.packet_text import render_text, summary
from gatekeeper.policy_dir import resolve_policy_dir
from gatekeeper.readable import count, printable
from gatekeeper.revrange import parse_range, resolve_option, resolve_range
from gatekeeper.treecheck import tree_differences
from gatekeeper.verify import compare, load_packet, packet_context

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
@click.option("--tree", metavar="BASE..HEAD",
              help="Classify with the markers and content of these commits (context 'tree'; else the patch alone).")
@click.option("--repo", type=_DIR, help="The repository holding BASE and HEAD (default: the current folder).")
def packet(
    patch: Path,
    out: Path | None,
    policy_dir: Path | None,
    model_requested: str | None,
    model_reported: str | None,
    run_id: str | None,
    fmt: str,
    tree: str | None,
    repo: Path | None,
) -> int:
    """Build review packet v1 for PATCH (a `git diff --cached --binary`); refuses unsafe paths (exit 2)."""
    if run_id is not None and not RUN_ID.fullmatch(run_id):
        raise UsageError(
            f"invalid run id {run_id!r}", where="--run-id", hint="use letters, digits, '.', '_' and '-' (at most 128)"
        )
    bundle = resolve_policy_dir(policy_dir)  # --policy, else gatekeeper.yaml, else ./policies, else the shipped one
    rules = load_rules(bundle)
    # The range's ancestry walk and the tree context read through one `git cat-file` (catfile.shared_processes).
    with shared_processes(), open_tree_context(resolve_option(tree, repo), rules) as context:
        derived = derive(patch, rules, context)
    built = build_packet(derived, rules, run_id=run_id, model_requested=model_requested,
                         model_reported=model_reported,
                         reported_by="command-line" if model_reported is not None else None,
                         bundle_revision=read_bundle_revision(bundle))
    if out is not None:
        write_packet(out, built)
        if fmt == "json":
            note = {"packet": str(out.resolve()), "run_id": built["run_id"], **built["diff"]}
            click.echo(json.dumps(note, indent=2, ensure_ascii=True))
        else:
            click.echo(f"{out}: {summary(built)}")
    elif fmt == "json":
        click.echo(packet_json(built), nl=False)
    else:
        click.echo(render_text(built), nl=False)
    return ExitCode.OK


@click.command("verify")
@click.argument("packet_file", metavar="PACKET", type=_FILE)
@click.option("--patch", type=_FILE, required=True, help="The patch the packet describes.")
@click.option("--policy", "policy_dir", type=_DIR, help="Policy bundle whose classification rules to re-derive with.")
@click.option("--tree", metavar="BASE..HEAD", help="Also check that the patch is exactly the change HEAD makes "
              "(and re-derive a packet classified with context 'tree').")
@click.option("--repo", type=_DIR, help="The repository holding BASE and HEAD (default: the current folder).")
def verify(packet_file: Path, patch: Path, policy_dir: Path | None, tree: str | None, repo: Path | None) -> int:
    """Check PACKET against PATCH: schema, sha256, file list, statuses, buckets and counts, and with
    --tree the patch against the commits (exit 1 on any difference, 2 when they cannot be read)."""
    if tree is not None:
        parse_range(tree)  # a malformed range is reported before the packet is read
    claimed = load_packet(packet_file)
    rules = load_rules(resolve_policy_dir(policy_dir))
    # Resolved once: the re-derivation and the binding read the same commits; the range's ancestry walk and the tree
    # context read through one `git cat-file` (catfile.shared_processes).
    with shared_processes():
        revs = resolve_range(tree, repo or Path.cwd()) if tree is not None else None
        # Re-derived with the context the packet names: a packet classified with `tree` needs --tree.
        with open_tree_context(revs if packet_context(claimed) == "tree" else None, rules) as context:
            differences = compare(claimed, derive(patch, rules, context))
    for line in differences:
        click.echo(f"gatekeeper: verify: {printable(line)}", err=True)
    if revs is not None:
        found = tree_differences(revs, patch, transport=(packet_file, patch))
        for line in found:
            click.echo(f"gatekeeper: verify: tree: {line}", err=True)
        if found:
            also = f"; and the packet differs from it ({count(len(differences), 'difference')})" if differences else ""
            raise DiffersError(f"the patch is not the change {tree} makes (listed above){also}", where=str(patch),
                            hint="gate the patch of the commits under review: git diff --binary BASE...HEAD")
    if differences:
        raise DiffersError(
            f"the packet does not match its patch ({len(differences)} difference"
            f"{'' if len(differences) == 1 else 's'}, listed above)",
            where=str(packet_file),
            hint="rebuild the packet with `gatekeeper packet` from this very patch",
        )
    diff = claimed["diff"]
    click.echo(
        f"{packet_file}: matches {patch} ({count(diff['file_count'], 'file')}, "
        f"+{diff['additions']} -{diff['deletions']}, sha256 {diff['sha256']})"
        + (f", and is the change {tree} makes" if tree is not None else "")
    )
    return ExitCode.OK


COMMANDS: list[click.Command] = [packet, verify]
