"""`gatekeeper policy list|history`: what the bundle holds, and who changed it when."""

from __future__ import annotations

from pathlib import Path

import click

from gatekeeper.errors import ExitCode

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
    import json

    from gatekeeper.audit.policies import list_policies, render_text
    from gatekeeper.policy_dir import resolve_policy_dir

    listing = list_policies(resolve_policy_dir(policy_dir))
    click.echo(json.dumps(listing, indent=2) if fmt == "json" else render_text(listing))
    return ExitCode.OK


@policy.command("history")
@_POLICY
@click.option("-n", "--max-count", "limit", type=click.IntRange(min=1), help="Only the newest N commits.")
@_FORMAT
def history(policy_dir: Path | None, limit: int | None, fmt: str) -> int:
    """The commits that changed the bundle: author, date, message, policies, rules and versions changed."""
    import json

    from gatekeeper.audit.history import policy_history, render_text
    from gatekeeper.policy_dir import resolve_policy_dir

    changes = policy_history(resolve_policy_dir(policy_dir), limit=limit)
    click.echo(json.dumps([c.to_dict() for c in changes], indent=2) if fmt == "json" else render_text(changes))
    return ExitCode.OK


COMMANDS: list[click.Command] = [policy]
