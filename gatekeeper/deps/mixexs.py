"""Elixir packages: `mix.exs`'s dependency list, read by its literal tuples.

mix.exs is an Elixir program, but a project's dependencies are one literal list Renovate and Dependabot edit in
place: `defp deps do [ {:name, "~> 1.2"}, {:name, "~> 1.2", only: :test}, … ] end`, reached from the project's
`deps: deps()` (or written there, `deps: [ … ]`). A library commits no `mix.lock`, so there this file is the only one
naming its dependencies (opentelemetry-erlang-contrib's instrumentation packages).

Each tuple is read only when every field is a literal: the app's atom, an optional requirement string, keyword
options whose values are strings, atoms, booleans or lists of atoms. Named as mix.lock names the package fetched:
`hex: :other` fetches `other`, `organization:`/`repo:` a package of another repository (`repo/name`); a git source
(`github:`, `git:`) or a `path:`/`in_umbrella:` one is named with its source (`name@git+url`, `name@path:…`,
`name@umbrella`), so moving it elsewhere is a new dependency; its `tag:`/`ref:`/`branch:` is its version beside any
requirement. `only:` without `:prod` is the dev scope. Every other option (`only:` too, `override:`, `runtime:`,
`compile:`, `manager:`, …) is the entry's options: a move in it is a change of the entry.

Fail closed: comments, strings, charlists, sigils and heredocs (`@moduledoc \"""…\"""`) are blanked before the
structure is read, so a tuple there is not a dependency; one whose end could differ from Elixir's (heredoc quotes
not first on their line, a literal inside an interpolation) is refused, so no real tuple is blanked as text. Any
use of `deps` other than the project's `deps:` key, its `deps()` call and one `def(p) deps do [ … ] end` (a
`defp deps(:test)` clause, `deps() ++ …`, a list computed by code, a tuple with a non-literal field) makes the file
unreadable (a problem), never skipped. What the reader leaves
(`residue`: the program without the lists it read) is compared between the sides (overrides.py), so build logic
edited beside a bump is a problem, as in Package.swift.
"""

from __future__ import annotations

import re

from gatekeeper.deps.edits import Side, with_options
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError, Scope
from gatekeeper.lazy_pattern import lazy

_SIGIL = lazy(r"~(?:[a-z]|[A-Z][A-Z0-9]*)(\"\"\"|'''|[(\[{<|/\"'])")
_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}
_WORD = lazy(r"\bdeps\b")
_DEF_HEAD = lazy(r"\bdefp?\s++$")
_DEF = lazy(r"deps(?:\s*+\(\s*+\))?\s++do\s++\[")
_KEY_CALL = lazy(r"deps:\s*+deps(?:\s*+\(\s*+\))?\s*+(?=[,\]\n]|$)")
_KEY_LIST = lazy(r"deps:\s*+\[")
_END = lazy(r"\s*+end\b")
_ATOM = lazy(r"^:([a-z_]\w*[?!]?)$")
_OPTION = lazy(r"^([a-z_]\w*):\s++(.+)$", re.DOTALL)
_ATOMS = lazy(r"^\[\s*+(?::[a-z_]\w*\s*+(?:,\s*+:[a-z_]\w*\s*+)*+)?\]$")
_LITERAL = lazy(r'^(?:"\s*+"|:[a-z_]\w*|true|false|nil|\d+)$')
# Phoenix's generator writes `runtime: Mix.env() == :dev` (esbuild, tailwind): which environment starts the app.
_ENV_TEST = lazy(r"^Mix\.env(?:\(\))?+\s*+[!=]=\s*+:[a-z_]\w*$")
# A word list of atoms (`only: ~w(dev test)a`), written as the list it is.
_WORD_ATOMS = lazy(r"^~w(?:\(([a-z_\s]*+)\)|\[([a-z_\s]*+)\])a$")
_LINE = lazy(r"^\s*+(\{.*\})\s*+,?\s*+$", re.DOTALL)
# a one-line deps list of one tuple (httpoison's `defp deps(:prod) do [ { :hackney, github: …, tag: … } ] end`)
_LIST_LINE = lazy(r"^\s*+\[\s*+(\{[^{}]*+\})\s*+,?\s*+\]\s*+,?\s*+$", re.DOTALL)
# a git dependency's options a patch reads beside the plain ones: its one source and one ref, both part of its name
_PATCH_GIT = frozenset({"github", "git", "tag", "ref", "branch"})
_SOURCES = frozenset({"github", "git", "path", "in_umbrella"})
_REFS = {"tag": "", "ref": "", "branch": "branch:"}
_NAMING = frozenset({"hex", "organization", "repo", *_SOURCES, *_REFS})
# The options a changed line of a patch may carry: an override, a compile command or another source is reviewed.
_PATCH_OPTIONS = frozenset({"only", "runtime", "optional", "hex"})


def _skip_to(body: str, at: int, close: str, interpolates: bool = True) -> int:
    """The index past the unescaped `close` from `at` (an interpolation `#{…}` skipped by its braces). A quote, a
    sigil or a comment inside an interpolation is refused: skipping it by its braces alone would end the literal
    where Elixir does not (`~c(#{nil && ")"})`), so real code would be read as text or text as code."""
    while at < len(body):
        char = body[at]
        if char == "\\":
            at += 2
            continue
        if char == "#" and body.startswith("#{", at) and interpolates:
            depth, at = 1, at + 2
            while at < len(body) and depth:
                if body[at] in "\"'~#?":
                    raise ManifestError(f"line {body.count(chr(10), 0, at) + 1}: a literal inside an interpolation")
                depth += {"{": 1, "}": -1}.get(body[at], 0)
                at += 1
            continue
        at += 1
        if char == close:
            return at
    raise ManifestError(f"an unclosed {close} literal")


def _heredoc_end(body: str, at: int, start: int, quote: str) -> int:
    """The index of the quotes closing the heredoc opened at `at`: Elixir ends it only at quotes first on their line,
    so three quotes elsewhere in its text (after an escaped quote, say) are refused rather than taken as its end."""
    end = body.find(quote, start)
    if end < 0:
        raise ManifestError(f"line {body.count(chr(10), 0, at) + 1}: an unclosed heredoc")
    if body[body.rfind("\n", 0, end) + 1:end].strip():
        raise ManifestError(f"line {body.count(chr(10), 0, end) + 1}: heredoc quotes that are not first on their line")
    return end


def mask(body: str) -> str:
    """`body` with the inside of every comment, string, charlist, sigil and heredoc blanked (a string keeps its
    quotes, so the reader finds its value at the same offsets); line breaks kept. Linear in the text."""
    out = list(body)
    at = 0

    def blank(start: int, end: int) -> None:
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while at < len(body):
        char = body[at]
        if char == "#":
            end = body.find("\n", at)
            end = len(body) if end < 0 else end
            blank(at, end)
            at = end
        elif char == "?" and (at == 0 or not (body[at - 1].isalnum() or body[at - 1] in "_)]}")):
            at += 3 if body.startswith("?\\", at) else 2  # a character literal (`?"`, `?#`)
        elif body.startswith(('"""', "'''"), at):
            end = _heredoc_end(body, at, at + 3, body[at:at + 3])
            blank(at, end + 3)
            at = end + 3
        elif char in "\"'":
            end = _skip_to(body, at + 1, char)
            blank(at + 1, end - 1)
            at = end
        elif char == "~" and (sigil := _SIGIL.match(body, at)) is not None:
            opening = sigil.group(1)
            if len(opening) == 3:
                end = _heredoc_end(body, at, sigil.end(), opening) + 3
            else:
                end = _skip_to(body, sigil.end(), _CLOSE.get(opening, opening), body[at + 1].islower())
            blank(at, end)
            at = end
        else:
            at += 1
    return "".join(out)


def _split(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    """The (start, end) of each top-level comma-separated field of masked[start:end], blanks trimmed."""
    fields, depth, first = [], 0, start
    for at in range(start, end + 1):
        char = masked[at] if at < end else ","
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            left = len(masked[first:at]) - len(masked[first:at].lstrip())
            right = len(masked[first:at].rstrip())
            if right > left:
                fields.append((first + left, first + right))
            elif at < end:
                raise ManifestError("an empty element in a deps list")
            first = at + 1
    return fields


def _value(body: str, masked: str, start: int, end: int, key: str = "") -> str:
    """A literal option value as written (`runtime:` also a test of Mix.env); ManifestError for anything computed."""
    shown = masked[start:end]
    if (words := _WORD_ATOMS.match(body[start:end])) is not None:
        return "[" + ", ".join(f":{word}" for word in (words.group(1) or words.group(2) or "").split()) + "]"
    if not (_LITERAL.match(shown) or _ATOMS.match(shown) or key == "runtime" and _ENV_TEST.match(shown)):
        raise ManifestError(f"a deps option that is not a literal: {body[start:end][:80]!r}")
    value = body[start:end]
    if shown.startswith('"'):
        value = value[1:-1]
        if "#{" in value or "\\" in value:
            raise ManifestError(f"an interpolated or escaped string in a deps tuple: {value[:80]!r}")
    return " ".join(value.split())


def _tuple(path: str, body: str, masked: str, start: int, end: int) -> Dependency:
    """The dependency of the tuple at body[start:end] (`{` to `}`)."""
    where = f"{body[start:end][:80]!r}"
    if masked[start] != "{" or masked[end - 1] != "}":
        raise ManifestError(f"a deps element that is not a literal tuple: {where}")
    fields = _split(masked, start + 1, end - 1)
    app = _ATOM.match(masked[fields[0][0]:fields[0][1]]) if fields else None
    if app is None:
        raise ManifestError(f"a deps tuple without its app's atom first: {where}")
    requirement, options = "", {}
    for index, (s, e) in enumerate(fields[1:]):
        if index == 0 and masked[s] == '"':
            requirement = _value(body, masked, s, e)
            continue
        option = _OPTION.match(body[s:e])  # the text as written: a sigil's blanks are not the option's spacing
        if option is None or option.group(1) in options or not masked.startswith(option.group(1) + ":", s):
            raise ManifestError(f"a deps tuple field that is not one keyword option: {where}")
        options[option.group(1)] = _value(body, masked, s + option.start(2), e, option.group(1))
    return _dependency(path, app.group(1), requirement, options)


def _dependency(path: str, app: str, requirement: str, options: dict[str, str]) -> Dependency:
    sources = [key for key in options if key in _SOURCES]
    refs = [f"{_REFS[key]}{options[key]}" for key in _REFS if key in options]
    if len(sources) > 1 or len(refs) > 1 or refs and options.keys() & {"path", "in_umbrella"} or \
            (sources or refs) and options.keys() & {"hex", "organization", "repo"}:
        raise ManifestError(f"{app}: a deps tuple naming more than one source")
    name = options.get("hex", ":" + app)[1:] if options.get("hex", ":").startswith(":") else ""
    if not name:
        raise ManifestError(f"{app}: a `hex:` option that is not an atom")
    if "organization" in options and "repo" in options:
        raise ManifestError(f"{app}: a deps tuple naming an organization and a repository")
    repo = f"hexpm:{options['organization']}" if "organization" in options else options.get("repo", "hexpm")
    name = name if repo == "hexpm" else f"{repo}/{name}"
    if sources:
        source = sources[0]
        value = options[source]
        name = {"github": f"{app}@git+https://github.com/{value}.git", "git": f"{app}@git+{value}",
                "path": f"{app}@path:{value}", "in_umbrella": f"{app}@umbrella"}[source]
        if source == "in_umbrella" and value != "true":
            raise ManifestError(f"{app}: `in_umbrella:` that is not true")
    version = " ".join(part for part in (requirement, *refs) if part)
    only = options.get("only", ":prod").strip("[]").replace(" ", "").split(",")
    scope: Scope = "runtime" if ":prod" in only else "dev"
    rest = ";".join(f"{key}={options[key]}" for key in sorted(options) if key not in _NAMING)
    return Dependency("hex", name, version, path, True, scope, options=rest)


def _close(masked: str, opening: int) -> int:
    """The index past the `]` that closes the `[` at `opening` (strings and comments are blank in `masked`)."""
    depth = 0
    for at in range(opening, len(masked)):
        depth += {"[": 1, "]": -1}.get(masked[at], 0)
        if depth == 0:
            return at + 1
    raise ManifestError("an unclosed deps list")


def _lists(masked: str) -> list[tuple[int, int]]:
    """The (start, end) of each literal deps list: the `[`…`]` span; ManifestError for any other use of `deps`."""
    spans: list[tuple[int, int]] = []
    called = defined = False
    skip = -1  # the `deps` of a `deps: deps()` key, read with its key
    for word in _WORD.finditer(masked):
        at = word.start()
        if at == skip:
            continue
        if spans and at < spans[-1][1]:  # each list is scanned once: a `deps` inside one is no dependency tuple
            raise ManifestError(f"line {masked.count(chr(10), 0, at) + 1}: `deps` inside a deps list")
        if _DEF_HEAD.search(masked, max(0, at - 12), at) is not None:
            found = _DEF.match(masked, at)
            if found is None or defined:
                line = masked.count("\n", 0, at) + 1
                raise ManifestError(f"line {line}: a deps function that is not one literal list")
            end = _close(masked, found.end() - 1)
            if _END.match(masked, end) is None:
                raise ManifestError("a deps function that is more than one literal list")
            defined = True
            spans.append((found.end() - 1, end))
        elif (found := _KEY_CALL.match(masked, at)) is not None:
            called, skip = True, masked.index("deps", at + 5)
        elif (found := _KEY_LIST.match(masked, at)) is not None:
            spans.append((found.end() - 1, _close(masked, found.end() - 1)))
        else:
            line = masked.count("\n", 0, at) + 1
            raise ManifestError(f"line {line}: `deps` used other than as one literal list")
    if called and not defined:
        raise ManifestError("`deps: deps()` without a deps function of one literal list")
    return spans


def _read(path: str, body: str) -> tuple[list[Dependency], list[tuple[int, int]]]:
    masked = mask(body)
    spans = _lists(masked)
    deps = [_tuple(path, body, masked, s, e) for start, end in spans for s, e in _split(masked, start + 1, end - 1)]
    return deps, spans


def parse_mix_exs(path: str, data: bytes) -> list[Dependency]:
    """Every tuple of the literal deps list, named as mix.lock names the package."""
    return _read(path, text(data))[0]


def residue(data: bytes) -> str:
    """The program without the deps lists parse_mix_exs reads, blanks collapsed: anything else edited beside a
    bump (an alias, a compiler option, `elixirc_paths`) must not ride on the bump's explanation."""
    body = text(data)
    kept, at = [], 0
    for start, end in _read("", body)[1]:
        kept.append(body[at:start])
        at = end
    kept.append(body[at:])
    return " ".join("".join(kept).split())


def mix_exs_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A changed line that is one whole tuple with the app's atom and a requirement string (a trailing comma and
    comment allowed), its options among `only:`, `runtime:`, `optional:`, `hex:`; any other changed line, or one
    below a heredoc's quotes in its hunk, is refused."""
    line = side[index][0]
    k = index
    while k >= 0 and (k == index or not (side[k][1] and side[k][0].strip())):
        if '"""' in side[k][0] or "'''" in side[k][0]:
            raise ManifestError("a hunk holding a heredoc: read the whole file (--tree)")
        k -= 1
    masked = mask(line)
    shape = _LIST_LINE.match(masked) or _LINE.match(masked)
    if shape is None:
        raise ManifestError(f"not one whole deps tuple: {line.strip()[:80]!r}")
    dep = _tuple("", line, masked, shape.start(1), shape.end(1))
    fields = _split(masked, shape.start(1) + 1, shape.end(1) - 1)
    if len(fields) >= 2 and masked[fields[1][0]] != '"':  # no requirement: a git source and its ref (round 59)
        named = [masked[s:e].split(":", 1)[0].strip() for s, e in fields[1:]]
        if set(named) & {"github", "git"} and set(named) <= _PATCH_OPTIONS | _PATCH_GIT:
            return [with_options((dep.name, dep.version), "hex", dep.options)]
    named = [masked[s:e].split(":", 1)[0] for s, e in fields[2:]]
    if len(fields) < 2 or masked[fields[1][0]] != '"' or not set(named) <= _PATCH_OPTIONS:
        raise ManifestError(f"not a deps tuple of a requirement and plain options: {line.strip()[:80]!r}")
    return [with_options((dep.name, dep.version), "hex", dep.options)]
