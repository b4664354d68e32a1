"""`gatekeeper deps`: the dependency delta of a patch or of a commit range."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gatekeeper.cli.stdout import write_bytes
from gatekeeper.deps.report import RENDERERS, DepsRequest, deps_report
from gatekeeper.errors import ExitCode


@click.command(
    "deps",
    epilog="Exit codes: 0 delta printed (vulnerable changes too: the gate decides); 2 bad arguments, "
    "unreadable patch, repository or advisories. Files that do not parse are listed under `problems`, "
    "never fatal. See docs/dependencies.md.",
)
@click.argument("patch", required=False, type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--tree", "tree", metavar="BASE..HEAD",
              help="Compare the dependency files of two commits of the repository in the current folder.")
@click.option("--format", "fmt", type=click.Choice(tuple(RENDERERS)), default="text", show_default=True,
              help='text: a table per manifest; json: {"changes": [...], "problems": [...]}.')
@click.option("--advisories", "advisories", metavar="DIR", type=click.Path(path_type=Path),
              help="Mark changes whose new version an OSV record in DIR (JSON files, recursively) affects.")
def deps(patch: Path | None, tree: str | None, fmt: str, advisories: Path | None) -> int:
    """Show which dependencies, actions and images PATCH (or --tree BASE..HEAD) adds, removes or moves."""
    text = deps_report(DepsRequest(patch, tree, fmt, advisories, Path.cwd()), sys.stdin.buffer)
    write_bytes(text)
    return ExitCode.OK


COMMANDS: list[click.Command] = [deps]
