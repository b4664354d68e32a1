"""Report renderers, one module per format, registered in one place (PLACEHOLDER)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

FORMATS: tuple[str, ...] = ("text", "json", "github", "sarif", "junit", "markdown")


def emit(fmt: str, decision: Mapping[str, Any], *, output: Path | None = None, env: Mapping[str, str] | None = None) -> str:
    """Render `decision` in `fmt`; write it atomically to `output` when given, else return it."""
    return json.dumps(decision, indent=2)
