"""Value literals a policy compares with enumerated input fields must be values those fields can hold (red team 22).

`f.status == "modifed"`, `network == "denid"` (network := object.get(sandbox, "network", null)) or `c.change in
{"added", "upgarded"}` is never true, and `!=` always is: the rule silently stops firing (or fires for everything)
and the gate allows. The field check (field_check.py) refuses misspelt NAMES; this module, called from it, refuses:

- a string literal compared (`==`, `!=`, `in {...}`/`[...]`) with a field whose every schema declaration is an
  `enum` (status, bucket, network, backend, recording, context, kind, change, scope, level, a relay api): read
  as `x.field`, `x["field"]`, `object.get(x, "field", d)` / `object.get(x, [..., "field"], d)`, or a name
  assigned one of those (`network := object.get(sandbox, "network", null)`);
- a tag literal compared with an element of `tags` (`f.tags[_] == "needs-contxt"`);
- a key held in a name (`k := "sanbox"; input.packet[k]`), a key bound by `some k, v in input.x` and compared with
  a literal (`k == "sanbox"`), `"sanbox" in object.keys(input.x)`, and a literal path of `walk(input.x, ...)`
  (`walk(input.packet, [["sanbox", "network"], v])`, `[p, v] := walk(input.x); p == ["sanbox"]`): walked through
  the input schema as a literal key would be;
- a rule id literal of a finding (`lib.finding("core.cii", ...)`) that the policy's METADATA does not declare.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from typing import Any

from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import TAGS
from gatekeeper.policy.near_values import near_issues, schema_nodes
from gatekeeper.policy.reference import CompileIssue

_ID = r"[A-Za-z_][A-Za-z0-9_]*"
_STR = r'"[^"\n]*"'
_SET = r"(?:\{[^{}\n]*\}|\[[^\[\]\n]*\])"
# What a field is read as: `x.a.field`, `x["field"]`, `object.get(x, "field", d)`, `object.get(x, [.., "field"], d)`.
_READ = (rf"(?:{_ID}(?:\.{_ID}|\[[^\[\]\n]*\])*\.({_ID})|{_ID}(?:\.{_ID})*\[\s*\"({_ID})\"\s*\]"
         rf"|object\.get\(\s*[\w.]+\s*,\s*(?:\"({_ID})\"|\[[^\]\n]*\"({_ID})\"\s*\])\s*,[^()\n]*\)|({_ID})\b(?!\s*[.(\[]))")
_LEFT = lazy(rf"(?<![\w.\"])(?:{_READ})\s*(==|!=|(?<![:=!<>])=(?!=)|\bin\b)\s*({_STR}|{_SET})")  # `=` unifies
_RIGHT = lazy(rf"({_STR})\s*(==|!=)\s*(?:{_READ})")
_ASSIGN = lazy(rf"(?<![\w.])({_ID})\s*:=\s*(?:{_READ})\s*$", re.M)
_CONST = lazy(rf"(?<![\w.])({_ID})\s*:=\s*({_STR})")
_STRING = lazy(r'"([^"\n]*)"')
_TAG_ITEM = lazy(rf"\btags\[\s*{_ID}\s*\]\s*(?:==|!=)\s*({_STR})|({_STR})\s*(?:==|!=)\s*[\w.]*\btags\[\s*{_ID}\s*\]")
_SOME_KEY = lazy(rf"\bsome\s+({_ID})\s*,\s*{_ID}\s+in\s+(input(?:\.{_ID})*)|\bsome\s+({_ID})\s+in\s+object\.keys\("
                 rf"\s*(input(?:\.{_ID})*)\s*\)")
_KEYS_IN = lazy(rf"({_STR})\s+in\s+object\.keys\(\s*(input(?:\.{_ID})*)\s*\)")
_WALK_LITERAL = lazy(rf"\bwalk\(\s*(input(?:\.{_ID})*)\s*,\s*\[\s*(\[[^\[\]\n]*\])")
_WALK_BIND = lazy(rf"\[\s*({_ID})\s*,\s*{_ID}\s*\]\s*:=\s*walk\(\s*(input(?:\.{_ID})*)\s*\)"
                  rf"|\bwalk\(\s*(input(?:\.{_ID})*)\s*,\s*\[\s*({_ID})\s*,\s*{_ID}\s*\]\s*\)")
_FINDING = lazy(rf"\b(?:finding|paths_finding|bucket_finding)\(\s*({_STR})|\"rule\"\s*:\s*({_STR})")
_DECLARED = lazy(r"^#\s+rules:\s*\n((?:#\s+-\s+\S+\s*\n)+)", re.M)
_INPUT_KEYED = lazy(rf"(?<![\w.])input((?:\.{_ID}|\[[^\[\]\n]*\])*)\[\s*({_ID})\s*\]")

# Red team 23: a literal reaching a field through a string builtin, a pattern, a name bound to a literal set, or a
# name bound to each tag (`some t in f.tags`); a raw string (`\`cii\``) as a double-quoted one.
_TEXT = r'(?:"[^"\n]*"|`[^`\n]*`)'
_PREDICATE = lazy(rf"\b(startswith|endswith|contains|indexof)\(\s*(?:{_READ})\s*,\s*({_TEXT})\s*\)")
_MATCH = lazy(rf"\b(regex\.match|glob\.match)\(\s*({_TEXT})\s*,\s*(?:\[[^\[\]\n]*\]\s*,\s*)?(?:{_READ})\s*\)")
_NAMED_SET = lazy(rf"(?<![\w.])({_ID})\s*:=\s*({_SET})|\bsome\s+({_ID})\s+in\s+({_SET})")
_RAW_COMPARED = lazy(rf"(?<![\w.\"])(?:{_READ})\s*(?:==|!=)\s*`([^`\n]*)`")
_HEAD_LINE = lazy(r"^[^\s}#]", re.M)
_RUNS_ON = '_])=["(.,'  # with a word character (`\w`, `[\w.]+`): what a part of a read ends in before a `\s*`
_TAG_NAME = lazy(rf"\bsome\s+({_ID})\s+in\s+[\w.]*\btags\b(?!\s*[.\[])")
_TESTS: dict[str, Callable[[str, str], bool]] = {
    "startswith": str.startswith, "endswith": str.endswith, "contains": lambda v, s: s in v,
    "indexof": lambda v, s: s in v,
    "regex.match": lambda v, p: re.search(p, v) is not None,
    "glob.match": lambda v, p: re.fullmatch(_glob(p), v) is not None,
}

# A name bound by `:=` / `=`, or by `some` / `every` over a collection (`some k, v in x`: the value `v`).
_BINDS = lazy(rf"(?<![\w.])({_ID})\s*:?=(?!=)()|\b(?:some|every)\s+(?:{_ID}\s*,\s*)?({_ID})\s+in\s+()")
_FUNCTION = lazy(rf"^({_ID})\(([^()\n]*)\)\s*(?::=|=|if\b|\{{)", re.M)
_CALL = lazy(rf"(?<![\w])(?:{_ID}\.)?({_ID})\(")

Walk = Callable[[list[tuple[str, bool]]], "str | None"]


def enums(root: Mapping[str, Any]) -> dict[str, frozenset[str]]:
    """Field name -> the values it can hold, for names every declaration of which (input and packet) is an enum."""
    seen: dict[str, set[str] | None] = {}
    for name, node in schema_nodes(root, items_named=True):
        wrapper = any(key in node for key in ("items", "anyOf", "oneOf", "allOf"))  # its parts declare the values
        if name is not None and ("enum" in node or not wrapper):
            values, old = node.get("enum"), seen.get(name, set())
            seen[name] = None if values is None or old is None else old | {v for v in values if isinstance(v, str)}
    return {name: frozenset(values) for name, values in seen.items() if values}


def helpers(modules: Mapping[str, str], codes: Mapping[str, str],
            fields: Mapping[str, frozenset[str]]) -> dict[str, dict[int, str]]:
    """Function name -> {parameter position: the enumerated field (or `tags`) its value is compared with or
    stored as}: `paths_in_bucket(files, bucket)` compares `f.bucket == bucket`, `bucket_finding(.., bucket, ..)`
    stores `"bucket": bucket` (a misspelt literal argument is the misspelt comparison one call away)."""
    out: dict[str, dict[int, str]] = {}
    for name, text in modules.items():
        code = _strings_back(text, codes[name])
        for head in _FUNCTION.finditer(code):
            end = code.find("\n", head.end())
            while end != -1 and end + 1 < len(code) and code[end + 1] in " \t}])":  # the body's lines
                end = code.find("\n", end + 1)
            body = code[head.end():len(code) if end == -1 else end]
            for i, param in enumerate(p.strip() for p in head.group(2).split(",")):
                if not re.fullmatch(_ID, param):
                    continue
                p = re.escape(param)
                found = re.search(rf"\.({_ID})\s*==\s*{p}\b|(?<![\w.]){p}\s*==\s*[\w.]*\.({_ID})\b|"
                                  rf"\"({_ID})\"\s*:\s*{p}\b", body)
                field = next((g for g in found.groups() if g), "") if found else ""
                if field in fields:
                    out.setdefault(head.group(1), {})[i] = field
                elif re.search(rf"(?<![\w.]){p}\s+in\s+[\w.]*\btags\b", body):
                    out.setdefault(head.group(1), {})[i] = "tags"
    return out


def _literal_args(code: str, helpers: Mapping[str, Mapping[int, str]]) -> Iterator[tuple[int, str, str]]:
    """(offset, value, field) of each string literal passed where a helper compares its parameter with a field."""
    for call in _CALL.finditer(code):
        positions = helpers.get(call.group(1))
        if not positions:
            continue
        depth, index, start = 0, 0, call.end()
        for at in range(call.end(), min(len(code), call.end() + 2000)):
            char = code[at]
            if char in "([{":
                depth += 1
            elif char in ")]}" and depth:
                depth -= 1
            elif char == "," and not depth or char == ")" and not depth:
                arg = code[start:at].strip()
                if index in positions and re.fullmatch(r'"[^"\n]*"', arg):
                    yield start + code[start:at].index('"'), arg[1:-1], positions[index]
                if char == ")":
                    break
                index, start = index + 1, at + 1


def value_issues(text: str, code: str, fields: Mapping[str, frozenset[str]], walk: Walk,
                 issue: Callable[[int, str], CompileIssue],
                 helpers: Mapping[str, Mapping[int, str]] | None = None,
                 known: Collection[str] = (), free: Collection[str] = ()) -> Iterator[CompileIssue]:
    """The value-literal issues of one module (`text`, and `code` with comments and strings blanked): those of the
    forms below, then a literal one typo from a value on a line they did not report (near_values.py; `known`: the
    field names of the schemas and params, no misspelt values where they stand as keys; `free`: the free-text fields, a
    literal compared straight with one is no misspelt value)."""
    found = list(_form_issues(text, code, fields, walk, issue, helpers))
    lines = {i.line for i in found}
    yield from found
    yield from (i for i in near_issues(text, code, fields, known, issue, free) if i.line not in lines)


def _form_issues(text: str, code: str, fields: Mapping[str, frozenset[str]], walk: Walk,
                 issue: Callable[[int, str], CompileIssue],
                 helpers: Mapping[str, Mapping[int, str]] | None) -> Iterator[CompileIssue]:
    code = _strings_back(text, code)
    for at, value, compared in _literal_args(code, helpers or {}):
        allowed = frozenset(TAGS) if compared == "tags" else fields[compared]
        if value not in allowed:
            yield issue(at, f'a helper compares this argument with `{compared}`, which is never "{value}" (it is '
                            f'one of: {", ".join(sorted(allowed))})')
    own = _own_values(code)
    named = _Scoped(code, ((m.start(1), m.group(1), None if _root(code[m.end(1):m.end()].partition(":=")[2]) in own
                           else _field(m, 2)) for m in _ASSIGN.finditer(code)))
    field: str | None
    for hit in _LEFT.finditer(code):
        if _root(code[hit.start():hit.start(6)]) in own:
            continue  # the policy's own values (`item.kind == "migration"`, a param): no input field (attack19)
        field = _field(hit, 1) if hit.group(5) is None else named.get(hit.group(5), hit.start())
        if field is not None and field in fields:
            for literal in _STRING.finditer(text[hit.start(7):hit.end(7)]):
                if literal.group(1) not in fields[field]:
                    yield issue(hit.start(7) + literal.start(), _unknown(field, literal.group(1), fields[field]))
    for hit in _RIGHT.finditer(code):
        if _root(code[hit.end(2):hit.end()]) in own:
            continue
        field = _field(hit, 3) if hit.group(7) is None else named.get(hit.group(7), hit.start())
        value = text[hit.start(1) + 1:hit.end(1) - 1]
        if field is not None and field in fields and value not in fields[field]:
            yield issue(hit.start(1), _unknown(field, value, fields[field]))
    for hit in _TAG_ITEM.finditer(code):
        group = 1 if hit.group(1) is not None else 2
        value = text[hit.start(group) + 1:hit.end(group) - 1]
        if value not in TAGS:
            yield issue(hit.start(group), f'unknown tag "{value}" (tags: {", ".join(TAGS)})')
    yield from _reached(text, code, fields, named, own, issue)
    yield from _keys(text, code, walk, issue)
    declared = {line.split("-", 1)[1].strip() for m in _DECLARED.finditer(text) for line in m.group(1).splitlines()}
    if declared:
        for hit in _FINDING.finditer(code):
            group = 1 if hit.group(1) is not None else 2
            rule = text[hit.start(group) + 1:hit.end(group) - 1]
            if rule not in declared:
                yield issue(hit.start(group), f'rule id "{rule}" is not declared in this policy\'s METADATA '
                                              f'(custom.rules: {", ".join(sorted(declared))})')


def _reached(text: str, code: str, fields: Mapping[str, frozenset[str]], named: _Scoped,
             own: set[str], issue: Callable[[int, str], CompileIssue]) -> Iterator[CompileIssue]:
    """Literals no value of the field they reach can satisfy: `startswith(f.bucket, "cii")`, `regex.match("^cii$",
    f.bucket)`, `f.bucket in buckets` with `buckets := {"cii", "iac"}`, `some t in f.tags; t == "needs-contxt"`."""
    code = re.sub(r"`( *)`", lambda m: text[m.start():m.end()], code)  # raw strings' contents back
    for regex, at_func, at_read, at_text in ((_PREDICATE, 1, 2, 7), (_MATCH, 1, 3, 2)):
        for hit in regex.finditer(code):
            field = _field(hit, at_read) if hit.group(at_read + 4) is None else named.get(hit.group(at_read + 4),
                                                                                           hit.start())
            inner = code[code.index("(", hit.start()) + 1:hit.end() - 1]  # the call's arguments
            read = inner.partition(",")[0] if regex is _PREDICATE else inner.rpartition(",")[2]
            if field is None or field not in fields or _root(read) in own:
                continue
            literal, test = text[hit.start(at_text) + 1:hit.end(at_text) - 1], _TESTS[hit.group(at_func)]
            try:
                if not any(test(value, literal) for value in fields[field]):
                    yield issue(hit.start(at_text), f'{hit.group(at_func)}: no value of `{field}` fits "{literal}" '
                                                    f'(it is one of: {", ".join(sorted(fields[field]))})')
            except re.error:
                continue  # a pattern Python reads otherwise than RE2: not judged
    for hit in _RAW_COMPARED.finditer(code) if "`" in code else ():  # each match holds a raw string
        field = _field(hit, 1) if hit.group(5) is None else named.get(hit.group(5), hit.start())
        value = hit.group(6)
        if field is not None and field in fields and value not in fields[field] \
                and _root(code[hit.start():hit.start(6)]) not in own:
            yield issue(hit.start(6) - 1, _unknown(field, value, fields[field]))
    for m in _NAMED_SET.finditer(code):  # each binding in its own rule (attack 21: a name reused in two rules)
        var, at, literals = m.group(1) or m.group(3), m.start(2) if m.group(1) else m.start(4), m.group(2) or m.group(4)
        items = list(_STRING.finditer(text[at:at + len(literals)]))
        if not items:
            continue  # no literal to judge (`[f | some f in ...]`): the reads need not be found
        v, (start, end) = re.escape(var), _scope(code, m.start())
        reads = re.compile(rf"(?<![\w.\"])(?:{_READ})\s*(?:==|\bin\b)\s*{v}(?![\w.\[])|(?<![\w.]){v}\s*==\s*"
                           rf"(?:{_READ})")
        # A read that starts above the rule and runs on into it crosses the newline before its head in a `\s*` that
        # follows a word character or one of _RUNS_ON: else the reads found from the head are those found from the top.
        above = code[:start].rstrip()[-1:]
        runs_on = above != "" and (above.isalnum() or above in _RUNS_ON)
        for hit in reads.finditer(code, 0 if runs_on else start, end):
            if hit.start() < start:
                continue
            field = _field(hit, 1) if hit.group(5) is None else named.get(hit.group(5), hit.start())
            if field is None or field not in fields:
                field = _field(hit, 6) if hit.group(10) is None else named.get(hit.group(10), hit.start())
            if field is not None and field in fields:
                for item in items:
                    if item.group(1) not in fields[field]:
                        yield issue(at + item.start(), _unknown(field, item.group(1), fields[field]))
    for bound in _TAG_NAME.finditer(code):
        t, (start, end) = re.escape(bound.group(1)), _scope(code, bound.start())
        for hit in re.finditer(rf"(?<![\w.]){t}\s*(?:==|!=)\s*({_STR})|({_STR})\s*(?:==|!=)\s*{t}(?![\w.])", code):
            if not start <= hit.start() < end:
                continue
            group = 1 if hit.group(1) is not None else 2
            if (value := text[hit.start(group) + 1:hit.end(group) - 1]) not in TAGS:
                yield issue(hit.start(group), f'unknown tag "{value}" (tags: {", ".join(TAGS)})')


class _Scoped:
    """Names bound in a module (`:=` to a field or a literal), each read in the rule that binds it; one bound at a
    line's start (a rule of its own) in every rule. A name reused by another rule is that rule's (red team 24)."""

    def __init__(self, code: str, bindings: Iterable[tuple[int, str, str | None]]) -> None:
        self._seen: dict[str, list[tuple[int, int, int, str | None]]] = {}
        for at, name, value in bindings:
            self._seen.setdefault(name, []).append((*_scope(code, at), at, value))

    def get(self, name: str, at: int) -> str | None:
        """What `name` holds where it is read at `at`: its last binding before `at` in that rule, else any there."""
        here = [(bound, value) for start, end, bound, value in self._seen.get(name, ()) if start <= at < end]
        before = [value for bound, value in here if bound <= at]
        return before[-1] if before else here[-1][1] if here else None


def _scope(code: str, at: int) -> tuple[int, int]:
    """The offsets of the rule `at` is in (from its head's line to the next line that starts a rule), or the whole
    module for a binding at a line's start (a rule of its own, `buckets := {"ci"}`, which every rule may read)."""
    line = code.rfind("\n", 0, at) + 1
    if at == line:
        return 0, len(code)
    heads = _heads(code)
    after = bisect.bisect_right(heads, at)
    return heads[after - 1] if after else 0, heads[after] if after < len(heads) else len(code)


@functools.lru_cache(maxsize=4)
def _heads(code: str) -> tuple[int, ...]:
    """The offsets of the lines of `code` that start a rule, in order (one list per module, not one per binding)."""
    return tuple(m.start() for m in _HEAD_LINE.finditer(code))


def _glob(pattern: str) -> str:
    """A glob.match pattern as a Python regex (`*`, `?`, `**`, `[...]`, `{a,b}`)."""
    out, depth = [], 0
    for char in pattern:
        if char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "{":
            out.append("(?:")
            depth += 1
        elif char == "}" and depth:
            out.append(")")
            depth -= 1
        elif char == "," and depth:
            out.append("|")
        elif char in "[]":
            out.append(char)
        else:
            out.append(re.escape(char))
    return "".join(out).replace(".*.*", ".*")


def _keys(text: str, code: str, walk: Walk, issue: Callable[[int, str], CompileIssue]) -> Iterator[CompileIssue]:
    """Keys reaching the input by a name, a `some k, v` binding, object.keys or walk's paths."""
    consts = _Scoped(code, ((m.start(1), m.group(1), text[m.start(2) + 1:m.end(2) - 1]) for m in _CONST.finditer(code)))
    for hit in _INPUT_KEYED.finditer(code):
        if (key := consts.get(hit.group(2), hit.start())) is not None:
            if reason := walk(_path(hit.group(1)) + [(key, True)]):
                yield issue(hit.start(2), f'undefined ref: input{hit.group(1)}[{hit.group(2)}] with {hit.group(2)} = '
                                          f'"{key}" ({reason})')
    checks: list[tuple[int, str, list[str]]] = []
    for hit in _KEYS_IN.finditer(code):
        checks.append((hit.start(1), hit.group(2), [text[hit.start(1) + 1:hit.end(1) - 1]]))
    for hit in _WALK_LITERAL.finditer(code):
        keys = [m.group(1) for m in _STRING.finditer(text[hit.start(2):hit.end(2)])]
        checks.append((hit.start(2), hit.group(1), keys))
    for m in _SOME_KEY.finditer(code):  # each binding read in the rule that binds it
        var, target, (start, end) = m.group(1) or m.group(3), m.group(2) or m.group(4), _scope(code, m.start())
        for hit in re.finditer(rf"(?<![\w.]){var}\s*(?:==|!=)\s*({_STR})|({_STR})\s*(?:==|!=)\s*{var}(?![\w.])",
                               code[:end]):
            group = 1 if hit.group(1) is not None else 2
            if hit.start() >= start:
                checks.append((hit.start(group), target, [text[hit.start(group) + 1:hit.end(group) - 1]]))
    for m in _WALK_BIND.finditer(code):
        var, target, (start, end) = m.group(1) or m.group(4), m.group(2) or m.group(3), _scope(code, m.start())
        for hit in re.finditer(rf"(?<![\w.]){var}\s*==\s*(\[[^\[\]\n]*\])", code[:end]):
            if hit.start() >= start:
                keys = [k.group(1) for k in _STRING.finditer(text[hit.start(1):hit.end(1)])]
                checks.append((hit.start(1), target, keys))
    for at, target, keys in checks:
        if keys and (reason := walk(_path(target[len("input"):]) + [(k, True) for k in keys])):
            yield issue(at, f"undefined key: {target} has no {'.'.join(keys)} ({reason})")


def _own_values(code: str) -> set[str]:
    """`data` and the names a module binds only to the policy's own values, never to the input: a literal object or
    array (`item := {"kind": "migration"}`, `some e in [{...}]`) or a data document (`some e in
    data.gatekeeper.params.acme.exceptions`). Their fields are not the input's: `e.status == "approved"` compares
    no enumerated field (attack19: such bundles were refused at load)."""
    own: set[str] = {"data"}
    other: set[str] = set()
    for m in _BINDS.finditer(code):
        name, at = (m.group(1), m.start(2)) if m.group(1) else (m.group(3), m.start(4))
        (own if _own_value(code, at) else other).add(name)
    return own - other


def _own_value(code: str, at: int) -> bool:
    """The value at `at` is a data document or a literal object or array that reads nothing of the input and is no
    comprehension (`[f | some f in input.files]` is the input's)."""
    rest = code[at:].lstrip()
    if rest.startswith("data."):
        return True
    if not rest.startswith(("{", "[")):
        return False
    depth = 0
    for end, char in enumerate(rest[:20_000]):
        depth += (char in "{[(") - (char in "}])")
        if depth == 0:
            literal = rest[:end + 1]
            return "|" not in literal and re.search(r"(?<![\w.])input\b", literal) is None
    return False


def _root(read: str) -> str:
    """The name a read starts from: `e` of `e.status`, `x` of `object.get(x.a, "k", d)`."""
    read = read.strip().removeprefix("object.get(").lstrip()
    return m.group(0) if (m := re.match(_ID, read)) else ""


def _strings_back(text: str, code: str) -> str:
    """`code` (comments and string contents blanked) with the string contents of `text` put back."""
    return re.sub(r'"( *)"', lambda m: text[m.start():m.end()], code)


def _path(chain: str) -> list[tuple[str, bool]]:
    return [(k, True) for k in re.findall(_ID, chain)]


def _field(hit: re.Match[str], first: int) -> str | None:
    return next((hit.group(i) for i in range(first, first + 4) if hit.group(i) is not None), None)


def _unknown(field: str, value: str, allowed: frozenset[str]) -> str:
    return f'`{field}` is never "{value}" (it is one of: {", ".join(sorted(allowed))})'
