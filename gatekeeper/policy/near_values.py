"""A string literal one typo away from an enumerated value is refused, whatever the syntax around it (red team 24).

value_check.py follows a literal to the field it is compared with, form by form (`==`, `startswith`, sets, ...); each
new form (`lower(f.bucket) == "cii"`, `{"cii"}[f.bucket]`, a function's parameter, `sprintf`, `b := "cii"; f.bucket
== b`, `every b in ["cii"]`) was a new hole: the rule silently never fired and the gate allowed. This check reads no
syntax: any literal of a module, outside comments, that is not a value of an enumerated field (bucket, status,
change, scope, network, ...), a tag or an ecosystem, but is within a small edit distance of one is an error at its
place. Edits: a letter left out, added, changed or swapped with its neighbour (two such edits for values of eight
letters or more), another case, spaces around. Parts of a pattern (`"^(ci|iacc)$"`, `"{ci,iacc}"`) are read one by
one. Not judged: free text (a literal with a space inside or a `%`: messages, sprintf formats), a field name of the
schemas or of the bundle's object literals (`"path"` is no typo of `patch`), and a literal the module names as
intended in a comment: `# gatekeeper: intended "cii"` (anywhere in the module; one literal per mark).
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any

from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import TAGS
from gatekeeper.policy.reference import CompileIssue

# The ecosystems a policy compares `ecosystem` with: the classification rules' and the dependency readers' names.
# The schema keeps the field free text (a bundle's own rules may name others), so they are listed here.
ECOSYSTEMS = frozenset({
    "ansible", "bazel", "bundler", "cargo", "carthage", "chef", "cocoapods", "composer", "conan", "deno", "docker",
    "git-submodule", "github-actions", "go", "gradle", "haskell", "helm", "helmfile", "jsonnet", "jvm", "kcl",
    "maven", "meson", "mix", "nix", "npm", "nuget", "pip", "pre-commit", "pub", "puppet", "sbt", "swiftpm",
    "terraform", "toolchain", "vcpkg", "vendir", "vendored"})
_STRING = lazy(r'"( *)"|`([ \n]*)`')  # over blanked code: a literal's place and length
_PATTERN = lazy(r"[\^$|(){},*?\[\]]")  # a regex or glob: its words are read one by one
_WORD = lazy(r"[A-Za-z0-9_-]+")
_INTENDED = lazy(r'#.*\bgatekeeper:\s*intended\s+"([^"\n]*)"')
_FREE_TEXT = lazy(r"\S\s+\S|%")
_FRAGMENT_CALL = lazy(r"\b(?:startswith|endswith|contains|indexof|regex\.\w+|glob\.match|trim\w*|replace|split)\("
                      r"[^()\n]*\Z")
# Values a letter from a common word (`vendir`: `vendor`): valid, but nothing is read as their typo.
_WORD_NEIGHBOURS = frozenset({"vendir"})
_OUTCOMES = frozenset({"allow", "review", "deny", "warn"})  # a decision's words and the entry points' names
_ID = r"[A-Za-z_][A-Za-z0-9_]*"
_COMPARED = lazy(rf"(?<![\w.]){_ID}(?:\.{_ID}|\[[^\[\]\n]*\])*\.({_ID})\s*(?:==|!=|\bin\b)\s*"
                 rf"(\{{[^{{}}\n]*\}}|\[[^\[\]\n]*\]|\"[^\"\n]*\")|(\"[^\"\n]*\")\s*(?:==|!=)\s*{_ID}(?:\.{_ID})*\.({_ID})(?![\w.(\[])")
_NOT_FREE = frozenset({"ecosystem", "tags"})  # named by values (ECOSYSTEMS, TAGS) though the schema keeps them open
_KEY_AFTER = lazy(r"[ \t]*:(?!=)|\s+in\s+object\.keys\(")
_INDEX_BEFORE = lazy(r"[\w\])]\[\s*\Z")
_CALL_NAME = lazy(rf"((?:{_ID}\.)?{_ID})\s*\Z")
_MARKS = lazy(r"[()\[\]{},]")
_NAME_RUN = lazy(r"[\w.\s]*")
_KEY_CALLS = frozenset({"object.get", "object.remove", "object.filter", "json.filter", "json.remove", "walk"})
# Letters an eye takes for one another: a first letter replaced by its look-alike is a typo still (`lac`, `1ac`).
_LOOK_ALIKES = ("il1j|", "o0", "s5", "z2", "uv", "gq")


def schema_nodes(node: Any, name: str | None = None, *,
                 items_named: bool) -> Iterator[tuple[str | None, dict[str, Any]]]:
    """Every object of a JSON schema with the field name it declares (None: the root, an `additionalProperties`
    value; `anyOf`/`oneOf`/`allOf` parts keep their field's name, so do `items` when `items_named`), in order."""
    if isinstance(node, list):
        for value in node:
            yield from schema_nodes(value, name, items_named=items_named)
        return
    if not isinstance(node, dict):
        return
    yield name, node
    for key, value in node.items():
        if key == "properties" and isinstance(value, dict):
            for field, sub in value.items():
                yield from schema_nodes(sub, field, items_named=items_named)
        elif key in ("anyOf", "oneOf", "allOf"):
            yield from schema_nodes(value, name, items_named=items_named)
        elif key == "items":
            yield from schema_nodes(value, name if items_named else None, items_named=items_named)
        elif key == "additionalProperties":
            yield from schema_nodes(value, None, items_named=items_named)


def free_text(root: Mapping[str, Any]) -> frozenset[str]:
    """Field names every declaration of which is a string without an enum (`path`, `name`, `purl`): a literal
    compared straight with one is a file's or a package's name, no typo of a value (a `const` declares no other)."""
    seen: dict[str, bool] = {}
    for name, node in schema_nodes(root, items_named=False):
        if name is not None and "const" not in node and not any(key in node for key in ("anyOf", "oneOf", "allOf")):
            kind = node.get("type")
            free = "enum" not in node and (kind == "string" or isinstance(kind, list) and "string" in kind
                                           and set(kind) <= {"string", "null"})
            seen[name] = seen.get(name, True) and free
    return frozenset(name for name, free in seen.items() if free)


@functools.lru_cache(maxsize=16)
def vocabulary(fields: tuple[tuple[str, frozenset[str]], ...]) -> dict[str, str]:
    """Each value a policy may name -> what names it (`bucket`, `tag`, `ecosystem`, ...)."""
    out: dict[str, set[str]] = {}
    for field, values in fields:
        for value in values:
            out.setdefault(value, set()).add(f"`{field}`")
    for value in TAGS:
        out.setdefault(value, set()).add("a tag")
    for value in ECOSYSTEMS:
        out.setdefault(value, set()).add("`ecosystem`")
    return {value: " or ".join(sorted(names)) for value, names in out.items()}


def near_issues(text: str, code: str, fields: Mapping[str, frozenset[str]], known: Collection[str],
                issue: Callable[[int, str], CompileIssue], free: Collection[str] = ()) -> Iterator[CompileIssue]:
    """The literals of one module (`text`, `code` its blanked form) one typo away from a value they are not."""
    key = tuple(sorted(fields.items()))
    values = vocabulary(key)
    hits = list(_STRING.finditer(code))
    starts = [hit.start() for hit in hits]
    # A mark counts in a comment only: not inside a string literal (a raw string's text: attack 22)
    intended = {m.group(1) for m in _INTENDED.finditer(text)
                if not (at := bisect.bisect_right(starts, m.start())) or hits[at - 1].end() <= m.start()}
    compared = _free_text_spans(code, free)
    for hit in hits:
        literal = text[hit.start() + 1:hit.end() - 1]
        if literal in values or literal in intended or _FREE_TEXT.search(literal.strip()) \
                or _within(compared, hit.start()):
            continue
        if _PATTERN.search(literal):
            words = [(m.start(), m.group()) for m in _WORD.finditer(literal)]
            names: Collection[str] = known
        elif _WORD.fullmatch(literal.strip()):
            words = [(0, literal)]
            # A field's name is exempt where it stands as a key only: `"path"` compared is `patch` misspelt (red
            # team 25)
            names = known if _keyed(code, hit.start(), hit.end()) else ()
        else:
            continue  # a path, a file's name, a rule id: no value has a `.` or a `/`
        folded = "(?i)" in literal  # a case-blind pattern: `CI` is `ci`
        # A pattern's word, or a string builtin's argument, may be part of a value (`contains(f.bucket, "ac")`).
        fragment = len(words) > 1 or _FRAGMENT_CALL.search(code, max(0, hit.start() - 200), hit.start()) is not None
        for at, word in words:
            if (word.lower() if folded else word) in values or word in intended or word in names \
                    or word.strip() in _OUTCOMES or fragment and any(word in value for value in values):
                continue
            meant = _nearest(word, key)
            if meant is not None:
                yield issue(hit.start() + 1 + at, f'"{word}" is no value of {values[meant]}: "{meant}" misspelt? (a '
                                                  f'literal meant otherwise: `# gatekeeper: intended "{word}"`)')


def _free_text_spans(code: str, free: Collection[str]) -> list[tuple[int, int]]:
    """The spans of literals compared straight with a free-text field (`c.name == "node"`, `f.path in {...}`, `"nose"
    == c.name`): a package's or a file's name there is no value of an enumerated field. A bare name (`b == "cl"`) or
    a call (`lower(c.name)`) may hold any field: never exempt."""
    spans = []
    for m in _COMPARED.finditer(code):
        field, span = (m.group(1), m.span(2)) if m.group(1) else (m.group(4), m.span(3))
        if field in free and field not in _NOT_FREE:
            spans.append(span)
    return spans


def _within(spans: list[tuple[int, int]], at: int) -> bool:
    return any(start <= at < end for start, end in spans)


def _keyed(code: str, start: int, end: int) -> bool:
    """The literal at `code[start:end]` stands as a key: an object's (`"path": x`), an index (`f["path"]`), tested
    with `in object.keys(...)`, or the key (path) argument of object.get, object.remove, object.filter, json.filter,
    json.remove or walk."""
    after = code[end:end + 40]
    if _KEY_AFTER.match(after):
        return after.lstrip().startswith("in") or not _indexed(code, end)  # `{"path": 1}[c.level]` compares it
    before = code[max(0, start - 2000):start]
    if _INDEX_BEFORE.search(before):
        return True
    depth, arg, last = 0, 0, len(before) - 1
    backwards = before[::-1]  # the brackets and commas from `start` back, found at C speed
    for mark in _MARKS.finditer(backwards):
        at, char = last - mark.start(), mark.group()
        if char in ")]}":
            depth += 1
        elif char in "([{" and depth:
            depth -= 1
        elif char in "[{":
            arg = 0  # a key path or key set: count the arguments of the call around it
        elif char == "(":
            # Every match ends at `at` and holds only name characters, dots and spaces: none starts before the run of
            # those that ends there, so the search starts at the run (the same leftmost match, not a try per position).
            run = _NAME_RUN.match(backwards, last + 1 - at)  # always matches (maybe nothing)
            call = _CALL_NAME.search(before, at - (run.end() - run.start() if run else 0), at)
            return call is not None and call.group(1) in _KEY_CALLS and arg == 1
        elif char == "," and not depth:
            arg += 1
    return False


def _indexed(code: str, at: int) -> bool:
    """The object literal around `at` is looked up at once (`{...}[x]`): its keys are compared with `x`."""
    depth = 0
    for end in range(at, min(len(code), at + 20_000)):
        char = code[end]
        if char in "([{":
            depth += 1
        elif char in ")]}" and depth:
            depth -= 1
        elif char in ")]}":
            return char == "}" and code[end + 1:end + 41].lstrip().startswith("[")
    return False


@functools.lru_cache(maxsize=4096)
def _nearest(word: str, key: tuple[tuple[str, frozenset[str]], ...]) -> str | None:
    return near(word, vocabulary(key))  # a module's literals repeat, and so do a process's modules


def near(word: str, values: Mapping[str, str]) -> str | None:
    """The value `word` is one typo away from, if any (the first in sorted order when several are). A word in mixed case
    (`Dockerfile`, a file's name) is no typo of a value; a value of up to four letters is judged by a doubled, swapped,
    dropped or upper-cased letter only (`cii`, `ic`, `CI`): one changed letter of `ci`, `dev` or `none` is another word
    (`cd`, `dew`, `node`)."""
    stripped = word.strip()
    if stripped != word and stripped in values:
        return stripped
    if stripped not in (stripped.lower(), stripped.upper()):
        # A field's value or a tag with its first letter upper-cased (`Deps`, `Deleted`: red team 25) is a slip; any
        # other mixed case is a name, and so are an ecosystem's (`Docker`, `Go`: attack 22) and a file's by its
        # convention (`Dockerfile`, `Makefile`: the `kind` value `dockerfile` written as the file's name).
        capital = stripped.lower()
        return capital if stripped == capital.capitalize() and not capital.endswith("file") \
            and values.get(capital, "`ecosystem`") != "`ecosystem`" else None
    lowered = stripped.lower()
    if lowered != stripped and lowered in values:
        return lowered
    for value in sorted(values):
        # A typo keeps the first letter or swaps the first two; another first letter makes another word, a package's
        # name a policy compares with `name` (`hatch`, `raven`, `mocker`, `rc`, `ip`: attack 22).
        if value in _WORD_NEIGHBOURS or abs(len(value) - len(lowered)) > 2 or not (lowered[0] == value[0] or (
                len(lowered) == len(value) and lowered[:2] == value[1::-1]) or _look_alike(lowered[0], value[0])):
            continue
        if len(value) <= 4:
            if _short_typo(lowered, value):
                return value
        elif len(value) < 8:  # one edit
            if _distance(lowered, value) <= 1:
                return value
        elif abs(len(lowered) - len(value)) <= 1 and _distance(lowered, value) <= 2:  # not `vendor` for `vendored`
            return value
    return None


def _short_typo(word: str, value: str) -> bool:
    """`word` is `value` with one letter doubled, two neighbours swapped, one letter dropped (two letters kept) or one
    letter changed (the first only to its look-alike: `near` has checked it; red team 25: `cl`, `deqs`, `lac`)."""
    doubled = any(word == value[:i + 1] + value[i:] for i in range(len(value)))
    swapped = len(word) == len(value) and sorted(word) == sorted(value) and _distance(word, value) == 1
    dropped = len(word) == len(value) - 1 >= 2 and _distance(word, value) == 1
    changed = len(word) == len(value) and sum(a != b for a, b in zip(word, value, strict=True)) == 1
    return doubled or swapped or dropped or changed


def _look_alike(a: str, b: str) -> bool:
    return a != b and any(a in group and b in group for group in _LOOK_ALIKES)


def _distance(a: str, b: str) -> int:
    """Edits (delete, insert, change, swap of neighbours) from `a` to `b` (optimal string alignment)."""
    if a == b:
        return 0
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        before, previous, row = row, before, [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(before[j] + 1, row[j - 1] + 1, before[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], previous[j - 2] + 1)
    return row[-1]
