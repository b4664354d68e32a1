"""The paths a Python tool's settings leave out, for the CI walk (issue 12, the seventy-fifth set).

Where CI runs pytest, tox or another tool, the walk reads the settings files it loads (`pyproject.toml`, `setup.cfg`,
`tox.ini`, ...) for the files they name, and every script path in them counts as run: the safe side. But a linter's,
type checker's or coverage tool's exclude list names files the tool leaves out, never runs: isort's
`tests/unit/example_crlf_file.py`, a CRLF test input its `[tool.isort] skip`, `[tool.mypy] exclude` and
`[tool.ruff.lint.per-file-ignores]` name, was `ci` because pytest loads the same pyproject.toml (the seventy-fifth
set). `unexcluded` blanks those values, as datawords.EXCLUDES does for the same options on a command line
(`--exclude`, `--skip`, `--omit`):

- in the sections of the Python tools that read such lists (`[tool.mypy]`, `[tool.isort]`, `[tool.ruff.lint]`,
  `[tool.coverage.run]`, `[flake8]`, `[mypy-*]`, `[tool:pytest]`, pylint's `[MAIN]`, ...; in `ruff.toml` and
  `.isort.cfg` also the top level and their own sections), the value of an exclude key (`exclude`, `extend-exclude`,
  `skip`, `skip_glob`, `omit`, `norecursedirs`, `ignore-paths`, `per-file-ignores`, ...), over its continuation
  lines: a TOML array or triple-quoted string up to its close, an INI value's indented lines;
- every key of ruff's per-file-ignores tables (`"tests/x.py" = ["F401"]`).

- a pre-commit config's `exclude:` values (`.pre-commit-config*.yaml`/`.yml`, the top level's and each hook's: a regex
  of the files pre-commit passes to no hook), over the lines indented deeper than the key (a block or folded scalar,
  a plain scalar's continuation: the eighty-first set, multidict's maintainer script a ruff hook leaves out).

Only in a settings file of those names, only those keys; what is blanked was data to the tool that reads it, so no
file CI runs loses its `ci` (another section's commands, `[tool.poe.tasks]`, `[testenv] commands`, `addopts`, stay
read whole). Linear: one pass over the lines; a value's continuation ends at its close, a new section or MAX_LINES
lines (past it the rest is read again, only raising).
"""

from __future__ import annotations

import re

from gatekeeper.classify import ciforms
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_LINES", "unexcluded"]

MAX_LINES = 4096  # continuation lines of one value blanked, at most (past it the lines are read as before)
# the settings files the Python tools read (the walk reads them where CI runs pytest, tox, ...)
_NAMES = frozenset({"pyproject.toml", "setup.cfg", "tox.ini", ".flake8", "pytest.ini", ".pytest.ini", "mypy.ini",
                    ".mypy.ini", ".coveragerc", "ruff.toml", ".ruff.toml", ".isort.cfg", ".pylintrc", "pylintrc",
                    ".bandit", ".codespellrc", ".pydocstyle", ".pycodestyle"})
# the tools whose sections hold exclude lists (`[tool.NAME…]` in TOML, `[NAME…]`/`[NAME:…]`/`[tool:NAME]` in INI)
_TOOLS = ("mypy", "black", "ruff", "isort", "coverage", "pytest", "pylint", "bandit", "codespell", "pyright",
          "basedpyright", "flake8", "pydocstyle", "pycodestyle", "pep8", "autopep8", "yapf", "docformatter", "vulture",
          "interrogate", "deptry", "pycln", "pyupgrade", "refurb", "pylama", "pyflakes")
_TOOL = "|".join(_TOOLS)
_SECTION = lazy(r"^[ \t]*+\[\[?+[ \t]*+([^\]\n]{0,256}+)\]")
_TOOL_SECTION = lazy(r"(?:tool[.:])?+[\"']?+(?:" + _TOOL + r")(?:[\"']?+[.:\-][^\n]*+)?+", re.IGNORECASE)
# the sections a tool's own file names without its name (coverage's `[run]`, isort's `[settings]`, pylint's `[MAIN]`,
# ruff's `[lint]` and `[lint.per-file-ignores]`)
_OWN_SECTIONS = {".coveragerc": lazy(r"run|report|paths", re.IGNORECASE), ".isort.cfg": lazy(r"settings|isort"),
                 ".pylintrc": lazy(r"main|master", re.IGNORECASE), "pylintrc": lazy(r"main|master", re.IGNORECASE),
                 "ruff.toml": lazy(r"lint(?:\.[^\n]*+)?+|format|(?:extend-)?+per-file-ignores"),
                 ".ruff.toml": lazy(r"lint(?:\.[^\n]*+)?+|format|(?:extend-)?+per-file-ignores")}
_PER_FILE = lazy(r"(?:^|\.)(?:extend-)?+per-file-ignores$", re.IGNORECASE)  # ruff's tables: each key a path
# an exclude key and the start of its value (TOML `key = …`, INI `key = …` or `key: …`)
_KEY = lazy(r"^[ \t]*+[\"']?+(exclude|extend[-_]exclude|force[-_]exclude|skip|skip[-_]glob|extend[-_]skip"
            r"|extend[-_]skip[-_]glob|omit|norecursedirs|ignore|ignore[-_]paths|ignore[-_]patterns|exclude[-_]dirs"
            r"|per[-_]file[-_]ignores|extend[-_]per[-_]file[-_]ignores)[\"']?+[ \t]*+[=:][ \t]*+(.*)$", re.IGNORECASE)
# pytest's lists of what a conftest.py leaves out of collection: the value starts after the match
_COLLECT_IGNORE = lazy(r"^[ \t]*+collect_ignore(?:_glob)?+[ \t]*+(?::[^=\n]{0,128}+)?+(?:(\.(?:append|extend)\()|\+?=)")
_CALL = lazy(r"[\w\])][ \t]*+\(")  # a name, index or call's result called
# a pre-commit config's `exclude:` key at any depth, also a list item's first key (`- exclude: …`)
_PRECOMMIT_EXCLUDE = lazy(r"^[ \t]*+(?:-[ \t]++)?+(exclude)[ \t]*+:(?:[ \t]|$)")
_ANY_KEY = lazy(r"^[ \t]*+(?:\"[^\"\n]{0,4096}+\"|'[^'\n]{0,4096}+'|[A-Za-z0-9_.\-/*]++)[ \t]*+=")


def unexcluded(name: str, text: str) -> str:
    """`text` of the settings file `name` with its Python tools' exclude lists blanked (module docstring); `text`
    itself for any other file, or when it holds none."""
    if name == "conftest.py":
        return _collect_unignored(text) if "collect_ignore" in text else text
    if name.startswith(".pre-commit-config") and name.endswith((".yaml", ".yml")):
        return _precommit_unexcluded(text) if "exclude" in text else text
    if name not in _NAMES or not any(word in text for word in ("exclude", "skip", "omit", "ignore", "norecurse")):
        return text
    toml = name.endswith(".toml")
    lines = text.split("\n")
    tool = name in (".isort.cfg", "ruff.toml", ".ruff.toml", ".flake8")  # their top level is the tool's own
    own = _OWN_SECTIONS.get(name)
    per_file = False
    close = ""  # what ends the value being blanked: "]", a triple quote, or "indent" (an INI value's indented lines)
    left = 0
    indent = 0  # the blanked key's indentation: configparser reads a line indented no deeper as a new key (attack 43)
    for at, line in enumerate(lines):
        if close:
            ended = close == "indent" and (len(line) - len(line.lstrip()) <= indent or not line.strip())
            if not ended and left > 0 and _SECTION.match(line) is None:
                left -= 1
                lines[at] = ""
                ended = close in line and close != "indent"
                close = "" if ended else close
                continue
            close = ""
        if (section := _SECTION.match(line)) is not None:
            header = section.group(1).strip()
            tool = _TOOL_SECTION.fullmatch(header) is not None or own is not None and own.fullmatch(header) is not None
            per_file = tool and _PER_FILE.search(header) is not None
            continue
        if not tool:
            continue
        indent = len(line) - len(line.lstrip())
        if per_file and _ANY_KEY.match(line) is not None:
            lines[at] = ""  # a per-file-ignores table's key is a path (`"tests/x.py" = ["F401"]`)
            close, left = _continued(line.partition("=")[2], toml)
            continue
        if (key := _KEY.match(line)) is not None:
            lines[at] = ""
            close, left = _continued(key.group(2), toml)
    return "\n".join(lines)


def _precommit_unexcluded(text: str) -> str:
    """A pre-commit config's `text` with each `exclude:` value blanked, its continuation lines (indented deeper than
    the key, blank lines inside) too, at most MAX_LINES of them a key; not a value that declares a YAML anchor (a
    hook's `entry: *e` runs it: review 66a)."""
    lines = text.split("\n")
    kept = list(lines)
    indent, left, start = -1, 0, 0  # the blanked key's column while its value goes on (-1: none), from line `start`
    for at, line in enumerate(lines):
        stripped = line.lstrip()
        if indent >= 0 and left > 0 and (not stripped or len(line) - len(stripped) > indent):
            lines[at], left = "", left - 1
            continue
        if indent >= 0:
            _keep_anchored(lines, kept, start, at)
        indent = -1
        if (key := _PRECOMMIT_EXCLUDE.match(line)) is not None:
            lines[at], indent, left, start = "", key.start(1), MAX_LINES, at
    if indent >= 0:
        _keep_anchored(lines, kept, start, len(lines))
    return "\n".join(lines)


def _keep_anchored(lines: list[str], kept: list[str], start: int, end: int) -> None:
    """Puts back `kept`'s lines `start` to `end` (one blanked value) where one of them declares a YAML anchor."""
    if any("&" in kept[at] and ciforms.holds_anchor(kept[at]) for at in range(start, end) if kept[at] != lines[at]):
        lines[start:end] = kept[start:end]


def _continued(value: str, toml: bool) -> tuple[str, int]:
    """What ends a value that goes on after its first line (`value`), and how many lines it may take; ("", 0) for a
    value whole on its line."""
    value = value.strip()
    if toml:
        for quote in ('"""', "'''"):
            if value.startswith(quote) and value.count(quote) == 1:
                return quote, MAX_LINES
        if value.startswith("[") and "]" not in value:
            return "]", MAX_LINES
        return "", 0
    return "indent", MAX_LINES


def _collect_unignored(text: str) -> str:
    """A conftest.py's `text` with the literal values of pytest's `collect_ignore`/`collect_ignore_glob` blanked
    (`=`, `+=`, `.append(`, `.extend(`, over the lines its brackets span, at most MAX_LINES): the files pytest leaves
    out. A value with a call runs at import (`[run("./x.sh")]`): kept."""
    lines = text.split("\n")
    at = 0
    while at < len(lines):
        start = _COLLECT_IGNORE.match(lines[at])
        if start is None:
            at += 1
            continue
        depth, end = 0, at
        value = lines[at][start.end():]
        while True:
            depth += sum(value.count(c) for c in "[({") - sum(value.count(c) for c in "])}")
            if depth <= 0 or end + 1 >= len(lines) or end - at >= MAX_LINES:
                break
            end += 1
            value = lines[end]
        span = "\n".join([lines[at][start.end():], *lines[at + 1:end + 1]])
        # a call's `name(` (the `.append(` itself was matched): code that runs at import
        if depth <= 0 and _CALL.search(span.rstrip().removesuffix(")") if start.group(1) else span) is None:
            lines[at:end + 1] = [""] * (end + 1 - at)
        at = end + 1
    return "\n".join(lines)
