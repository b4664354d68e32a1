"""Just enough reading of Rego source to find test rules and refuse the forms that crash regopy.

This is not a Rego parser: it blanks comments and string contents (keeping offsets and line
numbers) and reads top-level rule heads, which is all the test runner and its lint need.
The engine still compiles every file and reports real syntax errors with their line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from gatekeeper.lazy_pattern import lazy

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_PACKAGE = lazy(rf"^package\s+({_IDENT}(?:\.{_IDENT})*)\s*$", re.M)
_HEAD = lazy(rf"^(?:default\s+)?({_IDENT})\b(?!\s*\.)", re.M)
_IMPORT = lazy(rf"^import\s+(?:data|input)((?:\.{_IDENT})+)(?:\s+as\s+({_IDENT}))?\s*$", re.M)
_WITH_INPUT = lazy(r"\bwith\s+input\s+as\b")
_WITH_VALUE = lazy(r"\bwith\s+([^\s]+)\s+as\s+(data\b|" + _IDENT + r")(\s*\()?")
_SPECIAL = lazy(r"[#\"`]")
# `data` as the root of a reference (not a field `x.data`, not part of a longer name) and the dotted path after it.
_DATA_REF = lazy(rf"(?<![\w.])data(?!\w)((?:\.{_IDENT})*)")
# A string's body ends at its closing quote or an unescaped newline; a backslash skips the next character.
_STRING_BODY = lazy(r"(?:[^\"\\\n]|\\[\s\S])*")
_NOT_NEWLINE = lazy(r"[^\n]")
_KEYWORDS = frozenset({"package", "import", "default", "not", "some", "every", "with", "as", "if", "contains", "else"})
_LITERALS = frozenset({"true", "false", "null", "input", "data"})


@dataclass(frozen=True, slots=True)
class TestRule:
    """One `test_` or `todo_` rule head in a test file."""

    __test__ = False  # not a pytest test class, despite the name

    name: str
    line: int  # 1-based line of the first definition
    skipped: bool  # a `todo_` rule: reported as skipped, never evaluated
    body: str  # source text from this head to the next top-level rule (for coverage hints)
    spans: tuple[tuple[int, int], ...] = ()  # (start, end) offsets of every definition


@dataclass(frozen=True, slots=True)
class LintIssue:
    """A form in a test file that regopy mishandles: refused before anything is evaluated."""

    line: int
    message: str
    name: str = "refused"  # what the report calls it: `refused` (a crashing form) or `syntax`


@functools.lru_cache(maxsize=64)
def blank(source: str) -> str:
    """`source` with comments and string contents replaced by spaces; offsets and newlines kept.

    Remembered for the last 64 sources (the result depends on the text alone): a process that checks the same modules
    again (the test suite's gates and mutants) blanked each for its package, rule names, ref and field checks."""
    # Plain code is copied a run at a time, up to the next `#`, `"` or backquote (a loop per
    # character cost 0.6 s of every `gatekeeper test`; tests/test_rego_tests.py holds it as the oracle).
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        special = _SPECIAL.search(source, i)
        if special is None:
            out.append(source[i:])
            break
        start = special.start()
        out.append(source[i:start])
        ch = source[start]
        if ch == "#":
            end = source.find("\n", start)
            end = n if end < 0 else end
            out.append(" " * (end - start))
            i = end
        elif ch == '"':
            body = _STRING_BODY.match(source, start + 1)  # always matches (maybe nothing)
            j = min(body.end() if body else start + 1, n - 1)
            out.append('"' + " " * (j - start - 1) + (source[j] if j > start else ""))
            i = j + 1
        else:
            end = source.find("`", start + 1)
            end = n - 1 if end < 0 else end
            out.append("`" + _NOT_NEWLINE.sub(" ", source[start + 1 : end]) + "`")
            i = end + 1
    return "".join(out)[:n]


def line_of(text: str, offset: int) -> int:
    """1-based line number of a character offset."""
    return text.count("\n", 0, offset) + 1


def package_of(source: str) -> str | None:
    """The module's package path (`gatekeeper.policies.core`), or None when it declares none."""
    found = _PACKAGE.search(blank(source))
    return found.group(1) if found else None


def rule_names(source: str) -> set[str]:
    """Names defined at the top level of a module, plus names it imports with `import data.x`."""
    code = blank(source)
    names = {m.group(1) for m in _HEAD.finditer(code) if m.group(1) not in _KEYWORDS}
    for m in _IMPORT.finditer(code):
        names.add(m.group(2) or m.group(1).rsplit(".", 1)[-1])
    return names


def find_test_rules(source: str) -> list[TestRule]:
    """The `test_`/`todo_` rules of a test file, in source order, one per name."""
    code = blank(source)
    heads = [m for m in _HEAD.finditer(code) if m.group(1) not in _KEYWORDS]
    found: dict[str, TestRule] = {}
    for index, head in enumerate(heads):
        name = head.group(1)
        if not name.startswith(("test_", "todo_")):
            continue
        end = heads[index + 1].start() if index + 1 < len(heads) else len(source)
        body = source[head.start() : end]
        span = (head.start(), end)
        if name in found:  # a test defined twice is one test (OPA merges them as one boolean rule)
            old = found[name]
            found[name] = TestRule(name, old.line, old.skipped, old.body + body, (*old.spans, span))
            continue
        found[name] = TestRule(name, line_of(code, head.start()), name.startswith("todo_"), body, (span,))
    return list(found.values())


def without_tests(source: str, tests: list[TestRule] | tuple[TestRule, ...], keep: str) -> str:
    """`source` with every test rule but `keep` blanked out, line numbers unchanged."""
    chars = list(source)
    for test in tests:
        if test.name == keep:
            continue
        for start, end in test.spans:
            for i in range(start, end):
                if chars[i] != "\n":
                    chars[i] = " "
    return "".join(chars)


def lint(source: str, known_rules: set[str] | frozenset[str] = frozenset()) -> list[LintIssue]:
    """Refuse `with input as ...` and mocks whose value is a `data.` reference or a rule."""
    code = blank(source)
    rules = rule_names(source) | set(known_rules)
    issues: list[LintIssue] = []
    for m in _WITH_INPUT.finditer(code):
        issues.append(
            LintIssue(
                line_of(code, m.start()),
                "`with input as ...` replaces the whole input, which crashes regopy; "
                "mock the parts the rule reads instead (`with input.files as [...]`, `with input.summary as {...}`)",
            )
        )
    for m in _WITH_VALUE.finditer(code):
        target, value, call = m.group(1), m.group(2), m.group(3)
        if target == "input" or call or value in _LITERALS - {"data"}:
            continue
        if value == "data" or value in rules:
            what = "a `data.` reference" if value == "data" else f"the rule `{value}`"
            issues.append(
                LintIssue(
                    line_of(code, m.start()),
                    f"`with {target} as {value}...` mocks with {what}, which regopy silently "
                    "treats as undefined; bind it to a local variable first (`v := ...; ... with "
                    f"{target} as v`) or write the literal",
                )
            )
    issues.sort(key=lambda issue: issue.line)
    return issues


_STRING = lazy(r'"((?:[^"\\\n]|\\.)*)"')


def named_rule_ids(body: str, candidates: set[str] | frozenset[str]) -> set[str]:
    """Rule ids a test body names in string literals, outside comments and negated lines."""
    code = blank(body)
    named: set[str] = set()
    for m in _STRING.finditer(body):
        if m.group(1) not in candidates or code[m.start()] != '"':
            continue  # not a candidate, or the quote sits inside a comment
        line_start = code.rfind("\n", 0, m.start()) + 1
        if code[line_start : m.start()].lstrip().startswith("not "):
            continue
        named.add(m.group(1))
    return named


def reached_modules(modules: Mapping[str, str], source: str, package: str) -> dict[str, str]:
    """The modules a test file in `package` can read: the closure of its `data.` references (`gatekeeper test`).

    A module holds documents under its package path only, so a reference `data.a.b` reaches every module whose
    package is `a.b`, lies under it or above it (`a` may define `b.c`); each reached module's own references count
    too. Fail closed: a module without a readable package, or any text that reads `data` whole (`data[x]`,
    `walk(data, ...)`, `object.get(data, ...)`), keeps every module. Comments and strings (blanked) name nothing.
    Building fewer modules changes no result: regopy compiles only what a test's entry point reaches (the unreached
    ones cost the build about a quarter of its time), and a module regopy cannot parse is refused before any test runs.
    """
    wanted: set[tuple[str, ...]] = {tuple(package.split("."))}
    packages = {name: package_of(text) for name, text in modules.items()}
    kept: set[str] = set()
    pending = [source]
    while pending:
        for found in _DATA_REF.finditer(blank(pending.pop())):
            if not found.group(1):
                return dict(modules)
            wanted.add(tuple(found.group(1)[1:].split(".")))
        for name, text in modules.items():
            path = packages[name]
            if name in kept:
                continue
            if path is None:
                return dict(modules)
            here = tuple(path.split("."))
            if any(here[: len(ref)] == ref[: len(here)] for ref in wanted):
                kept.add(name)
                pending.append(text)
    return {name: text for name, text in modules.items() if name in kept}
