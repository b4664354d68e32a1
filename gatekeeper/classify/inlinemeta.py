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

An executable file without a suffix is read too: uv's guide makes a script an executable with the shebang
`#!/usr/bin/env -S uv run --script` and no suffix (`bin/sync`), and running it installs what its block declares (red
team 29, tests/test_redteam29_inline_executables.py: such a block's new package was `src` with `--tree`, and the gate
allowed it). With `--tree` only the block's opening line `# /// script` counts there (a shell script's `# dependencies
= curl` comment is no block); in a patch's hunks, which may not show the opening, its TOML lines count too
(`# dependencies = [`, `# requires-python = "`). With `--tree` a file without a suffix is read only where a tree
holds it executable (uv runs another only as `uv run --script FILE`, which a CI step naming it makes ci), so the
MAX_READS count stays one of scripts; a script of another suffix run by `uv run --script` is not read (limits). An
executable with a suffix other than `.py` is read as one without (attack 24: `./bin/sync.sh` with uv's shebang installs
its block's packages as `bin/sync` does; tests/test_attack24_inline_suffixes.py), with the commits and from a patch.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from gatekeeper.classify.markers import extension
from gatekeeper.classify.sniff import Signal
from gatekeeper.lazy_pattern import lazy

if TYPE_CHECKING:  # context imports is_script (its fast path): no cycle at run time
    from gatekeeper.classify.contexttypes import Shown
    from gatekeeper.gitobjects import TreeEntry
    from gatekeeper.model import FileChange

RULE = "deps.content.inline-script-metadata"
MAX_READS = 1_000  # changed Python files read per --tree gate; past it each further one counts (fail closed)
_TYPES = ("py", "pyw")
_ENDINGS = ("py", "PY", "Py", "pY", "pyw", "PYW", "pyW", "pYw", "Pyw", "PYw", "pYW", "PyW")
_BLOCK = lazy(rb"(?m)^[+ -]?# /// script[ \t]*\r?$|^[+ -]?#[ \t]+(?:dependencies|requires-python)[ \t]*=")
_OPENING = lazy(rb"(?m)^[+ -]?# /// script[ \t]*\r?$")  # what a file without a suffix must show, whole
# ... or, in a patch's hunks, the block's TOML: `# dependencies = [` or `# requires-python = "` (no shell comment)
_TOML = lazy(rb"(?m)^[+ -]?# /// script[ \t]*\r?$"
                   rb"|^[+ -]?#[ \t]+(?:dependencies[ \t]*=[ \t]*\[|requires-python[ \t]*=[ \t]*[\"'])")

# ... or, from a patch whose hunk shows neither the header nor a key, a comment line of the hunk shaped as the block's:
# a quoted list item (`#   "evil-pkg==1.0",`), the list's or block's end (`# ]`, `# ///`), a `# [tool.uv]` header
_HIDDEN = lazy(rb"""(?m)^[+ -]?#[ \t]+(?:"[^"\r\n]*"|'[^'\r\n]*')[ \t]*(?:,[ \t]*)?(?:#[^\r\n]*)?\r?$"""
                     rb"|^[+ -]?#[ \t]*\][ \t]*\r?$|^[+ -]?# ///[ \t]*\r?$|^[+ -]?#[ \t]+\[tool\.")


def is_script(path: str) -> bool:
    """A Python file (the cheap first test: a C-speed suffix test first)."""
    return path.endswith(_ENDINGS) and path.rpartition(".")[2].lower() in _TYPES


def may_run(path: str) -> bool:
    """A Python file, or a file without a suffix (an executable `uv run --script` runs through its shebang)."""
    return is_script(path) or extension(path.rpartition("/")[2]) == ""


def executable(change: FileChange) -> bool:
    """A change whose either side the patch gives at mode 100755: its shebang may run `uv run --script` whatever its
    suffix (`bin/sync.sh`, attack 24)."""
    return "100755" in (change.old_mode, change.new_mode)


class Reads:
    """What a --tree gate reads for inline metadata: the changed sides that are Python scripts outside a package or
    executables of any other type (mode 100755 in HEAD or the merge base), counted per kind; past MAX_READS of a kind,
    each further one counts (fail closed)."""

    def __init__(self, new_tree: Mapping[str, TreeEntry], old_tree: Mapping[str, TreeEntry]) -> None:
        self._trees = (new_tree, old_tree)
        self._reads = {True: 0, False: 0}  # Python files / executables read

    def evidence(self, change: FileChange, content: Callable[[], Sequence[Shown]]) -> str | None:
        sides = [side for side in change.sides() if is_script(side) or any(  # an executable of any suffix (attack 24)
            getattr(tree.get(side), "mode", "") == "100755" for tree in self._trees)]
        # A package's module (an `__init__.py` beside it on either side) is imported, not run as a script.
        if all(is_script(side) and any(f"{side.rpartition('/')[0]}/__init__.py".lstrip("/") in tree
                                       for tree in self._trees) for side in sides):
            return None
        python = any(map(is_script, sides))  # each kind has its own count
        self._reads[python] += 1
        if self._reads[python] > MAX_READS:
            kind = "Python files" if python else "executables of other types"
            return f"more than {MAX_READS} {kind} changed: not read for inline metadata (review)"
        return evidence(content())


def evidence(shown: Sequence[Shown]) -> str | None:
    """The evidence of the first side that holds an inline metadata block, or None."""
    for side in shown:
        if (found := signal(side.data) if is_script(side.path) else opening(side.data, side.complete)) is not None:
            return f"{side.path}: {found.evidence}"
        if is_script(side.path) and not side.complete and (line := _HIDDEN.search(side.data)) is not None:
            shown_line = line.group().decode("utf-8", "replace").strip()
            return (f"{side.path}: {shown_line} (a changed line shaped as an inline metadata block's, whose header the "
                    "patch does not show: review, or pass --tree to read the whole file)")
    return None


def signal(data: bytes) -> Signal | None:
    """The inline metadata block's evidence line in `data` (a blob's head, or a patch's hunks), or None."""
    found = _BLOCK.search(data)
    if found is None:
        return None
    return Signal("deps", RULE, found.group().decode("utf-8", "replace").strip())


def opening(data: bytes, complete: bool) -> Signal | None:
    """The block's opening line in `data`, a file without a suffix (a hunk may show only its TOML), or None."""
    found = (_OPENING if complete else _TOML).search(data)
    return Signal("deps", RULE, found.group().decode("utf-8", "replace").strip()) if found is not None else None
