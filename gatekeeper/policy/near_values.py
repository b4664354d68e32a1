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
                issue: Callable[[int, str], CompileIssue]) -> Iterator[CompileIssue]:
    """The literals of one module (`text`, `code` its blanked form) one typo away from a value they are not."""
    key = tuple(sorted(fields.items()))
    values = vocabulary(key)
    hits = list(_STRING.finditer(code))
    starts = [hit.start() for hit in hits]
    # A mark counts in a comment only: not inside a string literal (a raw string's text: attack 22)
    intended = {m.group(1) for m in _INTENDED.finditer(text)
                if not (at := bisect.bisect_right(starts, m.start())) or hits[at - 1].end() <= m.start()}
    for hit in hits:
        literal = text[hit.start() + 1:hit.end() - 1]
        if literal in values or literal in intended or literal in known or _FREE_TEXT.search(literal.strip()):
            continue
        if _PATTERN.search(literal):
            words = [(m.start(), m.group()) for m in _WORD.finditer(literal)]
        elif _WORD.fullmatch(literal.strip()):
            words = [(0, literal)]
        else:
            continue  # a path, a file's name, a rule id: no value has a `.` or a `/`
        folded = "(?i)" in literal  # a case-blind pattern: `CI` is `ci`
        # A pattern's word, or a string builtin's argument, may be part of a value (`contains(f.bucket, "ac")`).
        fragment = len(words) > 1 or _FRAGMENT_CALL.search(code, max(0, hit.start() - 200), hit.start()) is not None
        for at, word in words:
            if (word.lower() if folded else word) in values or word in intended or word in known \
                    or word.strip() in _OUTCOMES or fragment and any(word in value for value in values):
                continue
            meant = _nearest(word, key)
            if meant is not None:
                yield issue(hit.start() + 1 + at, f'"{word}" is no value of {values[meant]}: "{meant}" misspelt? (a '
                                                  f'literal meant otherwise: `# gatekeeper: intended "{word}"`)')


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
        return None
    lowered = stripped.lower()
    if lowered != stripped and lowered in values:
        return lowered
    for value in sorted(values):
        # A typo keeps the first letter or swaps the first two; another first letter makes another word, a package's
        # name a policy compares with `name` (`hatch`, `raven`, `mocker`, `rc`, `ip`: attack 22).
        if value in _WORD_NEIGHBOURS or abs(len(value) - len(lowered)) > 2 or not (lowered[0] == value[0] or (
                len(lowered) == len(value) and lowered[:2] == value[1::-1])):
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
    """`word` is `value` with one letter doubled, two neighbours swapped or one letter dropped (two letters kept)."""
    doubled = any(word == value[:i + 1] + value[i:] for i in range(len(value)))
    swapped = len(word) == len(value) and sorted(word) == sorted(value) and _distance(word, value) == 1
    dropped = len(word) == len(value) - 1 >= 2 and _distance(word, value) == 1
    return doubled or swapped or dropped


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
