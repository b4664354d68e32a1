"""The files `python -m NAME` runs, and the PYTHONPATH a line sets (red team 12, second round; attack 47; review 70).

`python -m tools.release` runs `tools/release.py` or `tools/release/__main__.py`, after the `__init__.py` of each
package on the way; a PYTHONPATH the line sets (`PYTHONPATH=tools python -m lib.notes`) is looked below too. Read by
commandlines.scripts for each interpreter it finds.
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.lazy_pattern import lazy

__all__ = ["module_files", "module_name", "python_paths"]

# a PYTHONPATH the line sets (`PYTHONPATH=tools python -m x`, `env PYTHONPATH=…`, `export PYTHONPATH=…`): review 70
_PYTHONPATH = lazy(r"""\bPYTHONPATH=(?:"([^"\n]{0,1024}+)"|'([^'\n]{0,1024}+)'|([^\s;&|'"`]{0,1024}+))""")


def module_name(words: list[str]) -> str:
    """The module `python -m NAME` (or `-mNAME`) runs (empty when the words hold no `-m NAME`)."""
    joined = next((word[2:] for word in words if word.startswith("-m") and len(word) > 2), "")
    # a subshell's or a substitution's close glued to it (`(python -m lib.notes)`: misses 11)
    return (words[words.index("-m") + 1] if "-m" in words[:-1] else joined).rstrip(")`")


def python_paths(line: str) -> list[str]:
    """The literal entries of the PYTHONPATH `line` sets (a variable's, an absolute or the working folder: none)."""
    entries = [entry.removeprefix("$PWD/").removeprefix("${PWD}/").removeprefix("./").rstrip("/")
               for hit in (_PYTHONPATH.findall(line)[:8] if "PYTHONPATH" in line else ())
               for entry in "".join(hit).split(":")[:16]]
    return [entry for entry in dict.fromkeys(entries)
            if entry and entry != "." and "$" not in entry and not entry.startswith("/")]


def module_files(words: list[str], paths: list[str]) -> list[str]:
    """The files `python -m tools.release` runs: the module's file or its package's `__main__.py` (red team 12, second
    round: the release job's code, named by its module), and the `__init__.py` of each package on the way, which
    Python imports first (attack 47: `python -m tools.mod` ran an edited `tools/mod/__init__.py`)."""
    module = module_name(words)
    if not module or re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", module) is None:
        return []
    path, parts = module.replace(".", "/"), module.split(".")
    inits = ["/".join([*parts[:at], "__init__.py"]) for at in range(1, len(parts) + 1)]
    files = [f"{path}.py", f"{path}/__main__.py", *inits]
    # also below each entry of a PYTHONPATH its line sets (review 70)
    return files + [posixpath.join(entry, file) for entry in paths for file in files]
