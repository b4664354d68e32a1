"""`gatekeeper classify`: the bucket and deciding rule of every path of a patch or a path list."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gatekeeper.errors import ExitCode


@click.command(
    "classify",
    epilog="Exit codes: 0 classified; 2 bad arguments, unreadable input, malformed patch or invalid rules. "
    "See docs/classification.md for the rules and how to change them.",
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
    help="Show the deciding rule and every later rule matching PATH.",
)
def classify(patch: Path | None, paths: str | None, policy_dir: Path | None, fmt: str, explain: tuple[str, ...]) -> int:
    """Classify PATCH (a git diff) or --paths into ci / iac / deps / src / other, with the deciding rule."""
    from gatekeeper.classify.report import ClassifyRequest, classify_report

    text = classify_report(ClassifyRequest(patch, paths, policy_dir, fmt, explain), sys.stdin.buffer)
    # Paths may hold undecodable bytes (surrogate-escaped), so they go out as bytes, not through echo.
    sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
    sys.stdout.buffer.flush()
    return ExitCode.OK


COMMANDS: list[click.Command] = [classify]
