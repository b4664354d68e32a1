"""The demo's sample generator: deterministic, offline, no model — it edits what an agent might edit.

Run inside the sandbox as `python -I demo_generator.py` in the workspace. It writes whole files
(never appends), so running it again after a resume gives the same result: it is restartable.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

SERVED_MODEL = "sample-model-2026-01 (offline demo generator)"

APP = '''"""A tiny sample application."""


def greet(name: str) -> str:
    """Say hello to `name`."""
    return f"hello, {name}"


def farewell(name: str) -> str:
    """Say goodbye to `name` (added by the sample generator)."""
    return f"goodbye, {name}"


if __name__ == "__main__":
    print(greet("world"))
    print(farewell("world"))
'''

WORKFLOW = """name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: python -m pytest
      - run: python src/app.py  # added by the sample generator
"""

GO_MOD = """module example.com/sample

go 1.22

require golang.org/x/text v0.14.0
"""


def _edit_package_json(path: Path) -> None:
    doc: dict[str, Any] = (
        json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"name": "sample", "version": "1.0.0"}
    )
    doc.setdefault("dependencies", {})["left-pad"] = "1.3.0"
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def main() -> int:
    """Make the demo's edits in the current folder and report the model that 'served' them."""
    root = Path.cwd()
    steps = [
        ("src/app.py", lambda p: p.write_text(APP, encoding="utf-8")),
        (".github/workflows/ci.yml", lambda p: p.write_text(WORKFLOW, encoding="utf-8")),
        ("go.mod", lambda p: p.write_text(GO_MOD, encoding="utf-8")),
        ("package.json", _edit_package_json),
    ]
    for rel, edit in steps:
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        edit(target)
        print(f"sample generator: edited {rel}")
    report = os.environ.get("GATEKEEPER_MODEL_REPORT")
    if report:
        Path(report).write_text(json.dumps({"model": SERVED_MODEL}) + "\n", encoding="utf-8")
    print(f"sample generator: asked for {os.environ.get('GATEKEEPER_MODEL')!r}, served {SERVED_MODEL!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
