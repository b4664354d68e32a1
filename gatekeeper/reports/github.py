"""GitHub Actions: workflow-command annotations per finding and path, and a Markdown job summary.

Workflow commands are lines of the form `::error file=F,title=T::message`. GitHub's toolkit
escapes a message (`%`, CR, LF) and, more strictly, a property value (also `:` and `,`); a value
escaped that way can neither end the command early nor start a new one on the next line, so an
agent-chosen path cannot smuggle in `::set-env` or `::stop-commands`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gatekeeper.errors import InputFileError
from gatekeeper.reports import markdown
from gatekeeper.reports.findings import HEADLINES, Finding, counts_phrase, display, findings, outcome

COMMANDS: Mapping[str, str] = {"deny": "error", "review": "warning", "warn": "notice"}
# GitHub shows at most 10 annotations of a kind per step; past this, one line points at the summary.
MAX_FILE_ANNOTATIONS = 10
SUMMARY_ENV = "GITHUB_STEP_SUMMARY"


def render(decision: Mapping[str, Any]) -> str:
    """The annotations, one per finding and path (a path-less finding gets one without `file`)."""
    items = findings(decision)
    lines = [f"gatekeeper: {HEADLINES[outcome(decision)]}; {counts_phrase(items)}"]
    if decision.get("dry_run"):
        lines.append("gatekeeper: dry run: the real decision is reported, the exit status is 0")
    for item in items:
        lines.extend(_annotations(item))
    return "\n".join(lines) + "\n"


def publish(decision: Mapping[str, Any], env: Mapping[str, str]) -> None:
    """Append the Markdown summary to `$GITHUB_STEP_SUMMARY` when the runner provides that file."""
    target = env.get(SUMMARY_ENV)
    if not target:
        return
    text = markdown.render(decision) + "\n"
    try:
        # Appending, not replacing: earlier steps of the job own what the file already holds.
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise InputFileError(
            f"cannot append the job summary: {exc.strerror}",
            where=f"{SUMMARY_ENV}={target}",
            hint="the runner sets this to a writable file; unset it outside GitHub Actions",
        ) from exc


def escape_data(text: object) -> str:
    """Escape a workflow-command message the way GitHub's toolkit does."""
    escaped = str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return display(escaped)  # other controls and non-UTF-8 bytes as visible `\xNN`


def escape_property(text: object) -> str:
    """Escape a workflow-command property value: the data escapes plus `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: object, **properties: object) -> str:
    """One workflow command line; properties with a None value are left out."""
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items() if value is not None)
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def _annotations(item: Finding) -> Iterator[str]:
    name = COMMANDS.get(item.level, "error")
    title = f"gatekeeper {item.level}: {item.rule} (policy {item.policy})"
    if not item.paths:
        yield command(name, item.msg, title=title)
        return
    for path in (item.paths or ())[:MAX_FILE_ANNOTATIONS]:
        yield command(name, item.msg, file=path, title=title)
    hidden = len(item.paths or ()) - MAX_FILE_ANNOTATIONS
    if hidden > 0:
        yield command(name, f"{item.msg} (and {hidden} more files: see the job summary)", title=title)
