"""Renovate settings that merge without review (attack 51; docs/classification.md, "Attack 51").

Renovate merges its own pull requests when its settings say so: `automerge` (at the top, in a `packageRules` entry,
an update type's block, `vulnerabilityAlerts`, `lockFileMaintenance`), `automergeType: branch` (a push to the base
branch, no pull request at all), `platformAutomerge`, `ignoreTests`, `autoApprove`, `gitLabIgnoreApprovals`, or a
preset that automerges (`:automergeAll`, `:automergeMinor`, ...). Such a file is a merge gate, as Mergify's and bors'
are: `ci` (`RULE`), on either side of the change (removing the key or turning it off is a gate change too: the side
that had it counts).

A key whose name holds `automerge` (`assignAutomerge`, `automergeStrategy`, `automergeSchedule` too) counts unless its
value is `false` or `null`: such a value only keeps off what a preset or another key turns on, and those count
themselves. Fail closed: a preset the gate cannot read (`local>`, `github>`, `gitlab>`, ... repository presets, an
npm package, a URL) counts as one that automerges; a file that does not read as JSON5 (Renovate's reader for every
settings name), is nested deeper than MAX_DEPTH or is longer than FULL_READ counts too; so does a symlink at a
settings name (Renovate reads its clone, through the link), and a file a symlink of either tree reaches at such a
name is read as one. From a patch alone, the lines it shows are scanned for the keys and preset names; a file it does
not show whole that shows none of them is `needs-context`. Tokens, not a JSON5 library: bounded, linear.
"""

from __future__ import annotations

import re
from dataclasses import replace

from gatekeeper.classify.contexttypes import Context
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.symlinks import reached_at
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import ClassifiedFile

__all__ = ["RULE", "is_settings", "judged", "merges"]

RULE = "ci.content.renovate-automerge"
NEEDS_CONTEXT = "needs-context"
MAX_DEPTH = 64  # objects and arrays inside each other; deeper is not read (fail closed)
# Every name Renovate reads its settings from (its own order: renovate.json, renovate.json5, .github/, .gitlab/,
# .renovaterc*), at any depth (a preset repository keeps them below the root too), and the JSON presets kept in
# .github/renovate/ that a settings file extends. package.json's `renovate` key is package.json's (not read here).
_NAMES = frozenset({"renovate.json", "renovate.json5", ".renovaterc", ".renovaterc.json", ".renovaterc.json5"})
_PRESETS = ".github/renovate/"
# Keys (lowercase) that decide whether Renovate merges without a person: any holding `automerge`, and these;
# `azureAutoComplete` is migrated to `platformAutomerge` (attack 52). `requiredStatusChecks: null` is migrated to
# `ignoreTests: true`, so its null is no "off".
_KEYS = ("ignoretests", "autoapprove", "gitlabignoreapprovals", "requiredstatuschecks", "azureautocomplete")
_NULL_TURNS_ON = "requiredstatuschecks"
# Built-in presets that merge without review though their name does not say `automerge` (attack 52): Renovate's
# `:skipStatusChecks` sets `ignoreTests: true` ("skip status checks and automerge right away").
_MERGING_BUILT_IN = frozenset({"skipstatuschecks"})
# Renovate's built-in preset namespaces (`config:recommended`, `:semanticCommits`, `group:allNonMajor`): read from
# its documentation, none of their presets automerges but those whose name says `automerge`.
_BUILT_IN = frozenset({"", "config", "default", "group", "packages", "helpers", "schedule", "docker", "npm",
                       "regexmanagers", "custommanagers", "workarounds", "monorepo", "replacements", "security",
                       "abandonments", "mergeconfidence", "preview", "compatibility", "global"})
# possessive runs: a repeated alternation kept a backtracking mark per character (a 1 MiB word or string: 266 MB at
# its peak, cost 44); its branches are disjoint, so giving none back changes no match
_TOKEN = lazy(r"""(?P<space>[\s\ufeff\u200b]+)|(?P<comment>//[^\n\r\u2028\u2029]*|/\*.*?\*/)
    |(?P<string>"(?:[^"\\\n\r]++|\\(?:\r\n|.))*+"|'(?:[^'\\\n\r]++|\\(?:\r\n|.))*+')
    |(?P<punct>[{}\[\]:,])|(?P<word>(?:[\w$+.-]++|\\u[0-9a-fA-F]{4})++)""", re.VERBOSE | re.DOTALL)
_ESCAPE = lazy(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|.)", re.DOTALL)
_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "\n": "", "\r\n": "", "\r": ""}
# From a patch's lines: a word of the keys anywhere, when the lines do not scan as tokens (a hunk opening inside a
# comment or a string).
_WORDS = lazy(r"automerge|ignoretests|autoapprove|gitlabignoreapprovals|requiredstatuschecks|azureautocomplete"
              r"|skipstatuschecks|(?<![a-z-])[a-z-]+>",
             re.IGNORECASE)  # the look-behind: a long run of letters is tried once, not from each of its letters
_PARAMETER_PARTS = lazy(r"([(),])")  # a preset's parameters, split where Renovate splits them and at nesting
_PRESET_SYNTAX = lazy(r"[\w-]*:\w*(?:automerge|skipstatuschecks)"
                      r"|(?:local|github|gitlab|gitea|forgejo|bitbucket|bitbucket-server)>",
                      re.IGNORECASE)


class _Unread(Exception):
    """The text does not read as JSON5 (or is too deep): it counts as merging."""


class _Found(Exception):
    """The first evidence found: reading stops there (the rest of a long file is not needed)."""


def is_settings(path: str) -> bool:
    """A file Renovate reads its settings from, or a JSON preset in .github/renovate/ (any case, any depth)."""
    if path[-1:] not in "nNcC5":
        return False
    low = path.lower()
    return low.rpartition("/")[2] in _NAMES or (
        (low.startswith(_PRESETS) or f"/{_PRESETS}" in low) and low.endswith((".json", ".json5")))


def judged(item: ClassifiedFile, context: Context) -> ClassifiedFile:
    """`item` raised to ci when a side shows a way Renovate merges without review; from a patch that does not show
    it whole and shows none, tagged `needs-context`. Test data keeps principle 1; ci stays."""
    if item.bucket == "ci" or item.rule.startswith("testdata."):
        return item
    if not _at_settings(item, context):
        return item
    if "symlink" in item.tags:  # Renovate reads its clone: what the link reaches, which the change may not show
        return replace(item, bucket="ci", rule=RULE, ecosystem=None, tier="content",
                       evidence=f"{item.change.path}: a symlink where Renovate reads its settings (not read through)")
    shown = context.content(item.change, every_type=True)
    for side in shown:
        if (found := merges(side.data, side.complete)) is not None:
            return replace(item, bucket="ci", rule=RULE, ecosystem=None, tier="content",
                           evidence=f"{side.path}: {found}")
    if context.kind == "patch" and (not shown or item.change.binary or not all(side.complete for side in shown)):
        return replace(item, tags=tuple(sorted({*item.tags, NEEDS_CONTEXT})))
    return item


def _at_settings(item: ClassifiedFile, context: Context) -> bool:
    """A side of `item` is at a settings name, or a symlink of either tree reaches it at one (Renovate reads its clone
    of the repository, through links; past the links read, context.py made the file ci)."""
    sides = item.change.sides()
    if any(map(is_settings, sides)):
        return True
    links = context.link_targets()
    if not links:
        return False
    return any(is_settings(path) for side in sides for path, _ in reached_at(side, links) or ())


def merges(data: bytes, complete: bool) -> str | None:
    """Evidence that Renovate settings `data` (the whole file when `complete`, else a patch's lines) make Renovate
    merge without review, or None."""
    if complete and len(data) > FULL_READ:
        return f"longer than the {FULL_READ >> 10} KiB read: it may set automerge"
    text = data.decode("utf-8", "replace")
    if complete and b"\0" in data:
        return "holds a NUL byte: it does not read as JSON5 (fail closed)"
    tokens = _tokens(text)
    if tokens is None:
        if complete:
            return "does not read as JSON5 (fail closed)"
        found = _WORDS.search(text)
        return None if found is None else f"line {_line(text, found.start())}: {found.group(0)} (not read as tokens)"
    if complete:
        try:
            return _parsed(text, tokens)
        except _Unread:
            return "does not read as JSON5 (fail closed)"
    return _shown(text, tokens)


_Token = tuple[str, str, int]  # (kind, decoded text, offset)


def _tokens(text: str) -> list[_Token] | None:
    """The JSON5 tokens of `text` (comments and blanks left out), or None when something between them is no token."""
    out: list[_Token] = []
    end = 0
    while end < len(text):  # anchored at each token's start: a search past a failed one could go back over the text
        if (found := _TOKEN.match(text, end)) is None:
            return None
        end = found.end()
        kind = found.lastgroup or ""
        if kind == "string":
            out.append((kind, _ESCAPE.sub(_unescape, found.group(0)[1:-1]), found.start()))
        elif kind == "word":
            out.append((kind, _ESCAPE.sub(_unescape, found.group(0)), found.start()))
        elif kind == "punct":
            out.append((kind, found.group(0), found.start()))
    return out


def _unescape(found: re.Match[str]) -> str:
    code = found.group(1)
    if code[0] in "ux" and len(code) > 1:
        return chr(int(code[1:], 16))
    return _SIMPLE.get(code, code)


def _gate_key(name: str) -> bool:
    low = name.lower()
    return "automerge" in low or low in _KEYS


def _off(tokens: list[_Token], at: int) -> bool:
    """The value at `tokens[at]` is `false` or `null`: the key turns nothing on (what it keeps off, a preset or
    another key turns on, and those count themselves)."""
    return at < len(tokens) and tokens[at][0] == "word" and (tokens[at][1] == "false" or tokens[at][1] == "null"
                                                             and tokens[at - 2][1].lower() != _NULL_TURNS_ON)


def _preset(name: str) -> str | None:
    """Why the preset `name` may merge without review, or None for a built-in preset that does not."""
    low = name.strip().lower()
    if "automerge" in low:
        return "a preset that automerges"
    name, _, arguments = low.partition("(")
    if (why := _one_preset(name)) is not None:
        return why
    # a built-in preset's parameters may name presets it extends (`:group(github>org/cfg, deps)`: group's first is
    # one, whatever its spelling): each piece between `(`, `,` and `)` that may be one is read as a name, at any depth
    # (`:group(:group(github>x, y), z)`: Renovate splits parameters at commas; one level was read: review 69a)
    parts = _PARAMETER_PARTS.split(arguments)  # pieces, and the delimiter after each
    for at in range(0, len(parts), 2):
        argument = parts[at].strip()
        opener = name if at == 0 else parts[at - 2].strip() if parts[at - 1] == "(" else ""
        first = opener.endswith(":group")  # group's first parameter, at whatever depth
        if (argument.startswith("@") or ">" in argument or ":" in argument or first) \
                and (why := _one_preset(argument)) is not None:
            return f"{why}, in a built-in preset's parameters"
    return None


def _one_preset(name: str) -> str | None:
    """_preset of a name without its parameters (lowercase)."""
    namespace, colon, rest = name.strip().partition(":")
    if not colon or namespace not in _BUILT_IN:
        return "a preset the gate cannot read (it may automerge)"
    return "a built-in preset that merges without status checks" if rest.strip() in _MERGING_BUILT_IN else None


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _parsed(text: str, tokens: list[_Token]) -> str | None:
    """The first gate key or merging preset of a whole file read as one JSON5 value; _Unread if it is none."""
    if not tokens:
        return None  # an empty file sets nothing
    if tokens[0][1] != "{":
        raise _Unread  # Renovate's settings are an object
    try:
        end = _value(text, tokens, 0, 0, "")
    except _Found as found:
        return str(found)
    if end != len(tokens):
        raise _Unread
    return None


def _value(text: str, tokens: list[_Token], at: int, depth: int, key: str) -> int:
    """Read one value from `tokens[at]` (under `key`); the index past it. _Found at the first evidence."""
    if depth > MAX_DEPTH or at >= len(tokens):
        raise _Unread
    kind, value, offset = tokens[at]
    if kind == "string" or kind == "word":
        if key == "extends" and kind == "string" and (why := _preset(value)) is not None:
            raise _Found(f"line {_line(text, offset)}: extends {value!r}: {why}")
        return at + 1
    if value not in "{[":
        raise _Unread
    close, at = ("}" if value == "{" else "]"), at + 1
    while at < len(tokens) and tokens[at][1] != close:
        inner = key
        if close == "}":
            name_kind, name, where = tokens[at]
            if name_kind not in ("string", "word") or at + 1 >= len(tokens) or tokens[at + 1][1] != ":":
                raise _Unread
            if _gate_key(name) and not _off(tokens, at + 2):
                raise _Found(f"line {_line(text, where)}: {name!r}: Renovate merges its pull requests without review")
            inner, at = name.lower(), at + 2
        at = _value(text, tokens, at, depth + 1, inner)
        if at < len(tokens) and tokens[at][1] == ",":
            at += 1
        elif at >= len(tokens) or tokens[at][1] != close:
            raise _Unread
    if at >= len(tokens):
        raise _Unread
    return at + 1


def _shown(text: str, tokens: list[_Token]) -> str | None:
    """The first gate key, merging preset or preset syntax among a patch's lines (tokens of part of a file)."""
    extends = False  # inside the array an `extends` key the lines show opened
    for index, (kind, value, offset) in enumerate(tokens):
        following = tokens[index + 1][1] if index + 1 < len(tokens) else ""
        if kind in ("string", "word") and following == ":":
            if _gate_key(value) and not _off(tokens, index + 2):
                return f"line {_line(text, offset)}: {value!r}: Renovate merges its pull requests without review"
            extends = value.lower() == "extends"
            continue
        if kind == "punct" and value in "]}":
            extends = False
        elif kind == "string" and (extends or _PRESET_SYNTAX.search(value)) and (why := _preset(value)) is not None:
            return f"line {_line(text, offset)}: extends {value!r}: {why}"
    return None
