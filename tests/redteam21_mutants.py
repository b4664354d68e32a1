"""Typo-shaped mutants of the shipped policy bundle (red team 21, tests only).

A mutant is one edit a security team's typo makes: one name (an input field, a bound variable's field,
a local variable at one use, a helper or builtin at a call, an import, a rule head, an object.get key, a
params key, a `with` target) misspelt at one place. Each kind is generated at every site of every shipped
module; `kind` says which. A spelling that names something the bundle already has is not a typo of nothing
and is skipped (renaming one field into another is a different change).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gatekeeper.testing.rego_source import blank

_ID = r"[A-Za-z_][A-Za-z0-9_]*"
_WORD = re.compile(_ID)
_BUILTINS = frozenset({"count", "sprintf", "concat", "trim_space", "startswith", "endswith", "is_array", "is_string",
                       "object.get", "array.slice", "glob.match", "lower", "upper", "contains", "split", "regex.match",
                       "to_number", "sum", "max", "min", "sort", "indexof", "substring", "replace", "is_object",
                       "is_number", "is_boolean", "is_null", "array.concat", "json.marshal", "strings.any_prefix_match",
                       "object.keys"})
_KEYWORDS = frozenset({"package", "import", "default", "not", "some", "every", "with", "as", "if", "contains", "else",
                       "in", "true", "false", "null", "rego", "v1", "data", "input"})


@dataclass(frozen=True, slots=True)
class Mutant:
    file: str  # the module's path relative to the bundle root
    line: int
    kind: str
    old: str
    new: str
    source: str  # the whole mutated module

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.file}:{self.line}:{self.old}->{self.new}"


def typos(name: str) -> list[str]:
    """Three misspellings of `name`: last two letters swapped, one letter dropped, one doubled."""
    out: list[str] = []
    if len(name) >= 3 and name[-1] != name[-2]:
        out.append(name[:-2] + name[-1] + name[-2])
    if len(name) >= 3:
        cut = len(name) // 2
        out.append(name[:cut] + name[cut + 1:])
    out.append(name + name[-1])
    return [t for t in dict.fromkeys(out) if t != name and re.fullmatch(_ID, t)]


def mutants(root: Path) -> Iterator[Mutant]:
    """Every typo mutant of every module (policies, lib, tests) of the bundle at `root`."""
    for path in sorted(root.rglob("*.rego")):
        text = path.read_text()
        words = set(_WORD.findall(text))
        rel = path.relative_to(root).as_posix()
        for start, end, kind in _sites(text):
            old = text[start:end]
            for new in typos(old):
                if new in words:
                    continue
                yield Mutant(rel, text.count("\n", 0, start) + 1, kind, old, new, text[:start] + new + text[end:])


def _sites(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, kind) of every name a typo can hit, classified by its context."""
    code = blank(text)
    test_module = re.search(r"^package\s+\S+_test\s*$", code, re.M) is not None
    assigned: set[str] = set()
    for m in re.finditer(rf"(?<![\w.])({_ID}(?:\.{_ID})*)", code):
        ref = m.group(1)
        line_start = code.rfind("\n", 0, m.start()) + 1
        before = code[line_start:m.start()]
        after = code[m.end():m.end() + 3]
        parts = ref.split(".")
        if before.lstrip().startswith("package") or before.strip() == "#":
            continue
        if before.strip() == "import":
            if ref.startswith("data."):
                yield m.start() + len(ref) - len(parts[-1]), m.end(), "import"
            continue
        offset = m.start()
        for i, part in enumerate(parts):
            start, end = offset, offset + len(part)
            offset = end + 1
            if part in _KEYWORDS:
                continue
            if parts[0] == "input" and i > 0:
                yield start, end, "with_target" if test_module and before.rstrip().endswith("with") else "input_field"
            elif parts[0] == "data" and i > 0:
                yield start, end, "data_ref"
            elif i == 0 and len(parts) == 1:
                if after.startswith("("):
                    yield start, end, "builtin" if part in _BUILTINS else "call"
                elif before == "" and not test_module:
                    yield start, end, "entry_point" if part in {"deny", "review", "warn"} else "rule_head"
                elif before.rstrip().endswith("not"):
                    yield start, end, "not_name"
                elif re.search(r"\bsome\s+[\w, ]+\bin\s*$", before):
                    yield start, end, "some_in"
                elif part in assigned:
                    yield start, end, "local_var"
                else:
                    assigned.add(part)  # its first occurrence binds it; later ones are uses
            elif i == 0:
                yield start, end, "import_alias" if part == "lib" else "bound_var"
            elif ref in _BUILTINS or ".".join(parts[:2]) in _BUILTINS:
                if after.startswith("("):
                    yield start, end, "builtin"
            elif i == len(parts) - 1 and code[m.end():m.end() + 1] == "(":
                yield start, end, "call"
            else:
                yield start, end, "field"
    for m in re.finditer(r"\bobject\.get\([^,\n]*,\s*(\"[^\"\n]*\"|\[[^\]\n]*\])", text):
        for s in re.finditer(r'"([A-Za-z_][A-Za-z0-9_]*)"', m.group(1)):
            yield m.start(1) + s.start(1), m.start(1) + s.end(1), "object_get_key"
    for m in re.finditer(r"\bparam\(\s*data\.gatekeeper\.params\s*,\s*\[([^\]\n]*)\]", text):
        for s in re.finditer(r'"([A-Za-z_][A-Za-z0-9_]*)"', m.group(1)):
            yield m.start(1) + s.start(1), m.start(1) + s.end(1), "param_key"
