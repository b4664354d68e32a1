"""Report renderers, one module per format, registered in one place.

Every reporter module exposes `render(decision) -> str` (the whole report, ending in a newline), where
`decision` is the decision's JSON (`model.Decision.to_dict`): the gate renders its own decision, and
the CI steps (ci/github_action.py, ci/gitlab.py) render the decision file the gate wrote, with the
same code.
A module may also expose `publish(decision, env)` for a side channel its CI offers (the github
format appends a Markdown job summary to `$GITHUB_STEP_SUMMARY`). Modules are imported only when
their format is asked for, so `gatekeeper --help` does not pay for XML or SARIF.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from gatekeeper.atomic import write_output
from gatekeeper.errors import UsageError
from gatekeeper.model import Decision

# The one registry: format name -> reporter module. FORMATS (click.Choice) is derived from it.
REPORTERS: Mapping[str, str] = {
    "text": "gatekeeper.reports.text",
    "json": "gatekeeper.reports.json_report",
    "github": "gatekeeper.reports.github",
    "sarif": "gatekeeper.reports.sarif",
    "junit": "gatekeeper.reports.junit",
    "markdown": "gatekeeper.reports.markdown",
    "codequality": "gatekeeper.reports.codequality",
}

FORMATS: tuple[str, ...] = tuple(REPORTERS)


def reporter(fmt: str) -> ModuleType:
    """The reporter module for `fmt`; an unknown name is a UsageError, never a fallback."""
    try:
        return importlib.import_module(REPORTERS[fmt])
    except KeyError:
        raise UsageError(
            f"unknown report format {fmt!r}", hint=f"choose one of: {', '.join(FORMATS)}"
        ) from None


def render(fmt: str, decision: Decision | Mapping[str, Any]) -> str:
    """The report text for `decision` in `fmt`."""
    text: str = reporter(fmt).render(_json(decision))
    return text


def emit(
    fmt: str,
    decision: Decision | Mapping[str, Any],
    *,
    output: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> str:
    """Render `decision` in `fmt`; write it atomically to `output` and return "", else return it.

    The github format also appends its Markdown summary to `env["GITHUB_STEP_SUMMARY"]` when set
    (`env` defaults to the process environment).
    """
    module = reporter(fmt)
    decision = _json(decision)
    text: str = module.render(decision)
    if output is not None:
        write_output(output, text)
    publish = getattr(module, "publish", None)
    if publish is not None:
        publish(decision, os.environ if env is None else env)
    return "" if output is not None else text


def _json(decision: Decision | Mapping[str, Any]) -> Mapping[str, Any]:
    return decision.to_dict() if isinstance(decision, Decision) else decision
