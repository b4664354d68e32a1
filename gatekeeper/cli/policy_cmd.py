"""`gatekeeper policy list|history`: what the bundle holds, and who changed it when."""

from __future__ import annotations

import json
from pathlib import Path

import click

from gatekeeper.errors import ExitCode, UsageError
from gatekeeper.policy.history import policy_history
from gatekeeper.policy.history import render_text as render_history
from gatekeeper.policy.listing import list_policies
from gatekeeper.policy.listing import render_text as render_listing
from gatekeeper.policy_dir import resolve_policy_dir

_POLICY = click.option("--policy", "policy_dir", type=click.Path(file_okay=False, path_type=Path),
                       help="The policy bundle folder (default: gatekeeper.yaml, ./policies, the shipped one).")
_FORMAT = click.option("--format", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True)


@click.group("policy")
def policy() -> None:
    """List the bundle's policies and read their history."""


@policy.command("list")
@_POLICY
@_FORMAT
def list_(policy_dir: Path | None, fmt: str) -> int:
    """Each policy with its version, title and whether it is on by default."""
    listing = list_policies(resolve_policy_dir(policy_dir))
    click.echo(json.dumps(listing, indent=2) if fmt == "json" else render_listing(listing))
    return ExitCode.OK


@policy.command("history")
@_POLICY
@click.option("--policy-name", "name", metavar="NAME",
              help="Only the commits that changed policy NAME (its folder, or its default switch in .manifest).")
@click.option("-n", "--max-count", "limit", type=click.IntRange(min=1), help="Only the newest N commits.")
@_FORMAT
def history(policy_dir: Path | None, name: str | None, limit: int | None, fmt: str) -> int:
    """The commits that changed the bundle: author, date, message, policies, rules and versions changed."""
    if policy_dir is not None and not policy_dir.exists() and len(policy_dir.parts) == 1:
        # `--policy core` reads as "the policy core" but names the bundle folder everywhere else.
        raise UsageError(f"--policy names the bundle folder, and there is no folder {str(policy_dir)!r}",
                         where="policy history", hint=f"to follow one policy, pass --policy-name {policy_dir}")
    changes = policy_history(resolve_policy_dir(policy_dir), limit=limit, policy=name)
    click.echo(json.dumps([c.to_dict() for c in changes], indent=2) if fmt == "json" else render_history(changes))
    return ExitCode.OK


COMMANDS: list[click.Command] = [policy]
