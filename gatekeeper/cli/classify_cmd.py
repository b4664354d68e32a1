"""`gatekeeper classify`: the bucket and deciding rule of every path of a patch or a path list."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gatekeeper.classify.report import ClassifyRequest, classify_report
from gatekeeper.cli.stdout import write_bytes
from gatekeeper.errors import ExitCode


@click.command(
    "classify",
    epilog="Exit codes: 0 classified; 2 bad arguments, unreadable input, malformed patch or invalid rules. "
    "See docs/classification.md for the rules, the tiers and how to change them.",
)
@click.argument("patch", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--paths", "paths", metavar="FILE|-", help="Classify the paths in FILE (one per line; '-' = stdin).")
@click.option(
    "--policy",
    "policy_dir",
    metavar="DIR",
    type=click.Path(file_okay=False, path_type=Path),
    help="Policy bundle holding classification.yaml (default: gatekeeper.yaml, ./policies, the shipped one).",
)
@click.option(
    "--format", "fmt", type=click.Choice(("text", "json")), default="text", show_default=True,
    help="text: an aligned table for people; json: {\"rules_digest\", \"files\": [...]} in input order.",
)
@click.option(
    "--explain",
    "explain",
    metavar="PATH",
    multiple=True,
    help="Show the decision for PATH (its tier and evidence) and every path rule matching it.",
)
@click.option(
    "--tree", metavar="BASE..HEAD",
    help="Read markers and content from these commits (never the working tree). Alone: classify every path "
    "the change touches; with PATCH or --explain: classify those with this context.",
)
@click.option("--repo", type=click.Path(file_okay=False, path_type=Path),
              help="The repository holding BASE and HEAD (default: the current folder).")
def classify(patch: Path | None, paths: str | None, policy_dir: Path | None, fmt: str, explain: tuple[str, ...],
             tree: str | None, repo: Path | None) -> int:
    """Classify PATCH (a git diff), --paths or --tree BASE..HEAD into ci / iac / deps / src / other, with the
    deciding rule. Tiers: path rules, ancestor markers, content (docs/classification.md)."""
    request = ClassifyRequest(patch, paths, policy_dir, fmt, explain, tree, repo)
    text = classify_report(request, sys.stdin.buffer)
    # Paths may hold undecodable bytes (surrogate-escaped), so they go out as bytes, not through echo.
    write_bytes(text)
    return ExitCode.OK


COMMANDS: list[click.Command] = [classify]
