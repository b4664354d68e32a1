"""PEP 723 inline script metadata: a Python script's `# /// script` comment block declares the dependencies (and the
Python, the index through `[tool.uv]`) that `uv run`, `pipx run`, `hatch run` and `pdm run` install before running it
(red team 18, tests/test_redteam18_inline_metadata.py: `dependencies = ["evil-pkg"]` added to such a block was `src`,
and `gate --tree --enable deps` allowed it). A script holding such a block is a dependency manifest: `deps`
(`deps.content.inline-script-metadata`), so the deps policy reviews its edits (`deps.unexplained`: no delta reads it).

The block is found as PEP 723's reference regex finds it (`^# /// script$`, comment lines, `^# ///$`), anywhere in
the first 8 KiB read; from a patch, a hunk that shows the opening line or a `# dependencies =` line counts. With
the commits each changed Python file outside a package (no `__init__.py` beside it on either side: a package's module
is imported, not run) has its head read (~25 µs of CPU each); past MAX_READS in one gate each further one is deps
unread (a review under the deps policy; the default policy does not review deps). A module of a package that someone
runs with `uv run pkg/x.py` is not read (a limit).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gatekeeper.classify.sniff import Signal

if TYPE_CHECKING:  # context imports is_script (its fast path): no cycle at run time
    from gatekeeper.classify.contexttypes import Shown

RULE = "deps.content.inline-script-metadata"
MAX_READS = 1_000  # changed Python files read per --tree gate; past it each further one counts (fail closed)
_TYPES = ("py", "pyw")
_ENDINGS = ("py", "PY", "Py", "pY", "pyw", "PYW", "pyW", "pYw", "Pyw", "PYw", "pYW", "PyW")
_BLOCK = re.compile(rb"(?m)^[+ -]?# /// script[ \t]*\r?$|^[+ -]?#[ \t]+(?:dependencies|requires-python)[ \t]*=")


def is_script(path: str) -> bool:
    """A Python file (the cheap first test: a C-speed suffix test first)."""
    return path.endswith(_ENDINGS) and path.rpartition(".")[2].lower() in _TYPES


def evidence(shown: Sequence[Shown]) -> str | None:
    """The evidence of the first side that holds an inline metadata block, or None."""
    for side in shown:
        if (found := signal(side.data)) is not None:
            return f"{side.path}: {found.evidence}"
    return None


def signal(data: bytes) -> Signal | None:
    """The inline metadata block's evidence line in `data` (a blob's head, or a patch's hunks), or None."""
    found = _BLOCK.search(data)
    if found is None:
        return None
    return Signal("deps", RULE, found.group().decode("utf-8", "replace").strip())
