"""A `pyproject.toml` hunk line (edits.pyproject_line) that edits.py refuses but Poetry reads as a dependency.

Round 53 (pandas-dev/pandas-stubs' "update mypy to 0.982" and "Bump pandas to 1.5.0", both named by `--tree` only):
- Poetry takes PEP 440's operators beside npm-like ones (`mypy = "==0.982"`, `"!=7.2.0,>=7.1.2"`, `"~=3.6.0"`,
  `"==0.7.*"`), which edits.RANGE (npm's, Composer's, Cargo's) does not read: under a Poetry dependency table's header
  the hunk shows, such a value is the entry's version, as a caret range is.
- A `name = "constraint"` line with no table header above it in the hunk (Dependabot's three context lines rarely
  reach it) is read as a Poetry dependency **beside a `partial` problem** (PartlyShown): the hunk shows a package and
  its version, not its table, as a pubspec entry or a mise tool with its header above the hunk. The package's own keys
  and tools' settings that hold versions (`version`, `python`, `python_version`, `requires-python`, `minversion`,
  `target-version`…), an upper-case or dotted key, a value that is no plain constraint and any hunk holding a
  multi-line string stay refused, as before.
"""

from __future__ import annotations

from gatekeeper.deps.edits import (
    _OWN_KEYS,
    _POETRY_HEADER,
    _POETRY_TABLE_KEYS,
    RANGE,
    pyproject_line,
    toml_pair,
    with_options,
)
from gatekeeper.deps.entryoptions import table_options
from gatekeeper.deps.hunkreads import Side
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.lazy_pattern import lazy

# one PEP 440 clause, up to eight joined by commas: an operator, a release (a trailing `.*` for `==`/`!=`)
_CLAUSE = r"(?:==|!=|~=|<=|>=|<|>)[ \t]*+v?\d[\w.+-]{0,127}(?:\.\*)?"
_PEP440 = lazy(rf"^{_CLAUSE}(?:[ \t]*+,[ \t]*+{_CLAUSE}){{0,7}}$")
_HEADER = lazy(r"^\s*\[")
_NAME = lazy(r"^[a-z0-9][a-z0-9._-]{0,99}$")
# the key as written: a bare key without a dot (`a.b = …` is TOML's dotted key, a table `a`) or a quoted one
_KEY = lazy(r"""^\s*+(?:[A-Za-z0-9_-]++|"[^"\\\n]++"|'[^'\n]++')\s*+=""")
# keys a table above the hunk may hold whose value looks like a version but names no dependency
_SETTINGS = _OWN_KEYS | {"python_version", "python-version", "minversion", "min_version", "target-version",
                         "required-version", "requires_python", "python_requires", "version_scheme"}


def poetry_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """edits.pyproject_line, and the Poetry entries it refuses that the module docstring lists."""
    try:
        return pyproject_line(side, index)
    except PartlyShown:
        raise
    except ManifestError as refused:
        found = _poetry(side, index)
        if found is None:
            raise refused from None
        return found


def _poetry(side: Side, index: int) -> list[tuple[str, ...]] | None:
    line = side[index][0]
    if any('"""' in shown or "'''" in shown for shown, _ in side):
        return None  # a line may be text inside a multi-line string the hunk cuts
    header = next((shown for shown, _ in reversed(side[:index]) if _HEADER.match(shown)), None)
    if header is not None and not _POETRY_HEADER.match(header.strip()):
        return None
    if not _KEY.match(line):
        return None
    try:
        name, value = toml_pair(line)
    except ManifestError:
        return None
    if isinstance(value, dict) and not set(value) <= _POETRY_TABLE_KEYS:
        return None  # a git, path or url entry, or a key Poetry does not define
    raw = value.get("version") if isinstance(value, dict) else value
    if not isinstance(raw, str):
        return None
    if not _PEP440.match(raw.strip()) and not (header is None and RANGE.match(raw.strip())):
        return None
    options = table_options(value, ("version",)) if isinstance(value, dict) else ""
    pair = with_options((name, raw.strip()), "pip", options)
    if header is not None:
        return [pair]
    if not _NAME.match(name) or name in _SETTINGS:
        return None
    raise PartlyShown(f"the hunk does not show the table of {name[:80]!r} (a Poetry dependency table or another): "
                      "read as a dependency", [pair])
