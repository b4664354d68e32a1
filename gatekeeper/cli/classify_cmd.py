"""`gatekeeper classify`: the bucket and deciding rule of every path of a patch or a path list."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from gatekeeper.errors import ExitCode

if TYPE_CHECKING:
    from gatekeeper.classify.pathlist import ListedPath


@dataclass(frozen=True, slots=True)
class ClassifyOptions:
    """What the command line asked for."""

    patch: Path | None
    paths: str | None  # a file name, or "-" for stdin
    policy_dir: Path | None
    fmt: str
    explain: tuple[str, ...]


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
    return execute(ClassifyOptions(patch, paths, policy_dir, fmt, explain))


def execute(options: ClassifyOptions) -> int:
    """Run the command: one call into the library, output on stdout."""
    from gatekeeper.classify import classify_changes, load_rules, render
    from gatekeeper.classify.pathlist import classify_paths
    from gatekeeper.errors import UsageError

    given = [
        name
        for name, value in (("PATCH", options.patch), ("--paths", options.paths), ("--explain", options.explain))
        if value
    ]
    if len(given) != 1:
        raise UsageError(
            "give exactly one of PATCH, --paths FILE|- or --explain PATH"
            + (f" (got {', '.join(given)})" if given else ""),
            hint="see `gatekeeper classify --help`",
        )
    rules = load_rules(_rules_dir(options.policy_dir))
    json_out = options.fmt == "json"
    if options.explain:
        text = (render.explain_json if json_out else render.explain_text)(options.explain, rules)
    elif options.patch is not None:
        from gatekeeper.diff import parse_patch

        files = classify_changes(parse_patch(options.patch), rules)
        text = render.files_json(files, rules) if json_out else render.files_text(files, show_status=True)
    else:
        listed = _read_listing(options.paths or "-")
        matches = classify_paths(listed, rules)
        text = render.paths_json(listed, matches, rules) if json_out else render.paths_text(listed, matches)
    # Paths may hold undecodable bytes (surrogate-escaped), so they go out as bytes, not through echo.
    out = sys.stdout.buffer
    out.write(text.encode("utf-8", "surrogateescape"))
    out.flush()
    return ExitCode.OK


def _read_listing(name: str) -> list[ListedPath]:
    from gatekeeper.classify.pathlist import read_paths
    from gatekeeper.errors import InputFileError

    if name == "-":
        return read_paths(sys.stdin.buffer)
    try:
        with open(name, "rb") as handle:
            return read_paths(handle)
    except OSError as exc:
        raise InputFileError(f"cannot read path list: {exc.strerror}", where=name) from None


def _rules_dir(explicit: Path | None) -> Path:
    # classify needs only the rules, so a folder holding just classification.yaml will do.
    from gatekeeper.config import RULES_FILE, resolve_policy_dir

    return resolve_policy_dir(explicit, marker=RULES_FILE)


COMMANDS: list[click.Command] = [classify]
