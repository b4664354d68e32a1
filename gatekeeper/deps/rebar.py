"""Erlang packages (rebar3): `rebar.config` and `rebar.lock`, files of Erlang terms (what `file:consult/1` reads).

Both are data, not programs (`rebar.config.script`, which is one, is not read). rebar.config's dependency lists are
`{deps, [...]}`, `{plugins, [...]}` and `{project_plugins, [...]}` at the top and inside `{profiles, [{Name, [...]}]}`;
an entry is an app's atom alone, `{app, "Req"}`, `{app, "Req", {pkg, package}}`, `{app, {pkg, package}}` (Hex: named
by the package fetched, as mix.lock names it) or `{app, {git | git_subdir | hg, "Url", {tag | ref | branch, "X"}}}`
(named by the app, at the tag, ref or branch; an older form puts a version regex before the source). Any other entry
is a problem, never skipped. What the file says besides those lists (hooks that run commands, overrides, compiler
options) is its `residue`, compared between the sides (residue.py), so an edit of it beside a bump is reviewed.

rebar.lock: `{"1.2.0", [Entries]}.` then the hashes (older locks: `[Entries].`), an entry `{<<"app">>, {pkg,
<<"package">>, <<"Version">>}, Level}`, `{<<"app">>, {git, "Url", {ref, "Commit"}}, Level}` or, since round 56,
`{<<"app">>, {git_subdir, "Url", {ref, "Commit"}, "Folder"}, Level}` (the folder fetched with it); level 0 is a direct
dependency. From a patch the config's changed lines are read when each is one whole entry of a top-level list the
hunk shows (`rebar_config_line`), the lock's when each is one whole Hex entry (`rebar_lock_line`); anything else
(a lock's hashes, which every bump moves, a git entry) is `partial` (pass --tree).
"""

from __future__ import annotations

import re
from typing import Any

from gatekeeper.deps.edits import with_options
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError, Scope
from gatekeeper.lazy_pattern import lazy

MAX_DEPTH = 64
MAX_TERMS = 200_000


class Atom(str):
    """An Erlang atom (a string is a plain str, a binary a Binary)."""


class Binary(str):
    """An Erlang binary written as `<<"text">>`."""


_TOKEN = lazy(r"""
    (?P<ws>\s+|%[^\n]*)
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<qatom>'(?:[^'\\]|\\.)*')
  | (?P<atom>[a-z][A-Za-z0-9_@]*)
  | (?P<num>-?(?:\d+\#[0-9A-Za-z]+|\d+(?:\.\d+(?:[eE][-+]?\d+)?)?))
  | (?P<char>\$(?:\\.|[^\\]))
  | (?P<punct><<|>>|\#\{|=>|[{}\[\],|]|\.(?=\s|%|\Z))
""", re.VERBOSE | re.DOTALL)
# Erlang's escapes (erl_scan): octal of one to three digits, `\xXY`, `\x{X...}`, `\^C` (a control character), these
# letters, any other character itself. Read otherwise, `"team\101"` (Erlang's `teamA`) would be the base's `team101`:
# a git dependency moved to another owner unseen (attack 27). An `\x` Erlang refuses is a ManifestError.
_ESCAPES = {"b": "\b", "d": "\x7f", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "s": " ", "t": "\t", "v": "\v"}
_ESCAPE = lazy(r"\\(?:([0-7]{1,3})|x\{([0-9A-Fa-f]+)\}|x([0-9A-Fa-f]{2})|\^(.)|(x)|(.))", re.DOTALL)


def _escaped(match: re.Match[str]) -> str:
    octal, braced, two, control, bad, other = match.groups()
    if bad is not None:
        raise ManifestError("an \\x escape without its hexadecimal digits")
    if control is not None:
        return chr(ord(control) & 31)
    if other is not None:
        return _ESCAPES.get(other, other)
    code = int(octal, 8) if octal is not None else int(braced or two, 16)
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        raise ManifestError(f"an escape of no character: {match.group()[:20]!r}")
    return chr(code)


def _unquote(raw: str) -> str:
    return _ESCAPE.sub(_escaped, raw[1:-1])


def _tokens(body: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    at = 0
    while at < len(body):
        m = _TOKEN.match(body, at)
        if m is None:
            raise ManifestError(f"not an Erlang term at offset {at}: {body[at:at + 30]!r}")
        at = m.end()
        kind = m.lastgroup or ""
        if kind != "ws":
            out.append((kind, m.group()))
            if len(out) > MAX_TERMS:
                raise ManifestError("too many terms")
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens, self.at = tokens, 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.at] if self.at < len(self.tokens) else ("end", "")

    def take(self, value: str) -> None:
        if self.peek()[1] != value or self.peek()[0] not in ("punct",):
            raise ManifestError(f"expected {value!r}, found {self.peek()[1]!r}")
        self.at += 1

    def items(self, close: str, depth: int) -> list[Any]:
        out: list[Any] = []
        if self.peek() == ("punct", close):
            self.at += 1
            return out
        while True:
            out.append(self.term(depth + 1))
            if self.peek() == ("punct", ","):
                self.at += 1
                continue
            self.take(close)  # an improper list's `|` is refused here: no rebar file writes one
            return out

    def term(self, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise ManifestError("terms nested too deep")
        kind, value = self.peek()
        self.at += 1
        if kind == "str":
            parts = [_unquote(value)]
            while self.peek()[0] == "str":  # adjacent strings are one
                parts.append(_unquote(self.peek()[1]))
                self.at += 1
            return "".join(parts)
        if kind in ("atom", "qatom"):
            return Atom(value if kind == "atom" else _unquote(value))
        if kind == "num":
            return ("num", value)
        if kind == "char":
            return ("char", value)
        if value == "{":
            return tuple(self.items("}", depth))
        if value == "[":
            return self.items("]", depth)
        if value == "#{":
            pairs = []
            if self.peek() == ("punct", "}"):
                self.at += 1
                return ("map", ())
            while True:
                key = self.term(depth + 1)
                self.take("=>")
                pairs.append((key, self.term(depth + 1)))
                if self.peek() == ("punct", ","):
                    self.at += 1
                    continue
                self.take("}")
                return ("map", tuple(pairs))
        if value == "<<":
            if self.peek() == ("punct", ">>"):
                self.at += 1
                return Binary("")
            if self.peek()[0] != "str":
                raise ManifestError("a binary that is not a string")
            inner = self.term(depth + 1)
            self.take(">>")
            return Binary(inner)
        raise ManifestError(f"not an Erlang term: {value!r}")


def consult(data: bytes) -> list[Any]:
    """The file's terms, each ended by a full stop, as `file:consult/1` reads them."""
    parser = _Parser(_tokens(text(data)))
    out = []
    while parser.peek()[0] != "end":
        out.append(parser.term())
        parser.take(".")
    return out


_LISTS = ("deps", "plugins", "project_plugins")
_SOURCES = frozenset({"git", "git_subdir", "hg"})  # rebar3's source kinds (a set: no command line)


def _pairs(value: Any, where: str) -> list[tuple[Atom, Any]]:
    if not isinstance(value, list) or not all(isinstance(t, tuple) and len(t) == 2 and isinstance(t[0], Atom)
                                              for t in value if not isinstance(t, Atom)):
        raise ManifestError(f"{where} is not a list of options")
    return [(t, Atom("true")) if isinstance(t, Atom) else t for t in value]


def _lists(terms: list[Any]) -> list[tuple[str, Any]]:
    """(where, entries) of every dependency list: top-level and each profile's."""
    found = []
    for term in terms:
        if isinstance(term, tuple) and len(term) == 2 and term[0] in _LISTS:
            found.append((str(term[0]), term[1]))
        elif isinstance(term, tuple) and len(term) == 2 and term[0] == "profiles":
            for name, options in _pairs(term[1], "profiles"):
                for key, value in _pairs(options, f"profile {name}"):
                    if key in _LISTS:
                        found.append((f"{name}/{key}", value))
    return found


def _entry(item: Any, path: str, where: str) -> Dependency:
    # the top-level `deps` (and a `prod` profile's) are what the release runs; plugins and other profiles build/test
    scope: Scope = "runtime" if where in ("deps", "prod/deps") else "build"
    if isinstance(item, Atom):
        return Dependency("hex", item, "", path, True, scope)
    if not (isinstance(item, tuple) and 2 <= len(item) <= 4 and isinstance(item[0], Atom)):
        raise ManifestError(f"a dependency in a form this reader does not know: {item!r}"[:160])
    app, rest = item[0], list(item[1:])
    version = ""
    if rest and isinstance(rest[0], str) and not isinstance(rest[0], (Atom, Binary)):
        version = rest.pop(0)
    if not rest:
        return Dependency("hex", app, version, path, True, scope)
    source = rest.pop(0)
    if rest and not (len(rest) == 1 and isinstance(rest[0], list)):  # only an option list may follow
        raise ManifestError(f"a dependency in a form this reader does not know: {item!r}"[:160])
    if isinstance(source, tuple) and len(source) == 2 and source[0] == "pkg" and isinstance(source[1], Atom):
        return Dependency("hex", source[1], version, path, True, scope, alias=app, options=repr(rest) if rest else "")
    if isinstance(source, tuple) and 3 <= len(source) <= 4 and source[0] in _SOURCES \
            and isinstance(source[1], str) and isinstance(source[2], tuple) and len(source[2]) == 2 \
            and source[2][0] in ("tag", "ref", "branch") and isinstance(source[2][1], str):
        # the url and the kind of ref are part of what is fetched: a move of either is a change of the entry
        return Dependency("hex", app, source[2][1], path, True, scope,
                          options=f"{source[0]} {source[1]} {source[2][0]} {source[3:]!r} {rest!r}")
    raise ManifestError(f"a dependency in a form this reader does not know: {item!r}"[:160])


def parse_rebar_config(path: str, data: bytes) -> list[Dependency]:
    """Every entry of the config's dependency and plugin lists (top-level and per profile)."""
    out = []
    for where, entries in _lists(consult(data)):
        if not isinstance(entries, list):
            raise ManifestError(f"{where} is not a list")
        out += [_entry(item, path, where) for item in entries]
    return out


def residue(data: bytes) -> object:
    """The config without its dependency lists' entries: hooks, overrides and every other option stay."""
    kept: list[Any] = []
    for term in consult(data):
        if isinstance(term, tuple) and len(term) == 2 and term[0] in _LISTS:
            kept.append((term[0], "LIST"))
        elif isinstance(term, tuple) and len(term) == 2 and term[0] == "profiles" and isinstance(term[1], list):
            profiles = []
            for profile in term[1]:
                if isinstance(profile, tuple) and len(profile) == 2 and isinstance(profile[1], list):
                    profile = (profile[0], [(o[0], "LIST") if isinstance(o, tuple) and len(o) == 2
                                            and o[0] in _LISTS else o for o in profile[1]])
                profiles.append(profile)
            kept.append((term[0], profiles))
        else:
            kept.append(term)
    return repr(kept)


def _plain(value: Any) -> bool:
    """An Erlang string ("…"), not an atom or binary (both str subclasses here)."""
    return isinstance(value, str) and not isinstance(value, (Atom, Binary))


def parse_rebar_lock(path: str, data: bytes) -> list[Dependency]:
    """Every locked app: Hex packages by the package at its version, git sources by the app at their commit."""
    terms = consult(data)
    if not terms:
        return []
    first = terms[0]
    if isinstance(first, tuple) and len(first) == 2 and type(first[0]) is str and isinstance(first[1], list):
        entries = first[1]  # `{"1.2.0", [...]}` (the format's version, then the entries)
    elif isinstance(first, list):
        entries = first
    else:
        raise ManifestError("not a rebar.lock: its first term is neither a versioned lock nor a list")
    out = []
    for entry in entries:
        if not (isinstance(entry, tuple) and len(entry) == 3 and isinstance(entry[0], Binary)
                and isinstance(entry[2], tuple) and entry[2][0] == "num"):
            raise ManifestError(f"a lock entry in a form this reader does not know: {entry!r}"[:160])
        app, source, level = entry
        direct = level[1] == "0"
        if isinstance(source, tuple) and len(source) in (3, 5) and source[0] == "pkg" \
                and isinstance(source[1], Binary) and isinstance(source[2], Binary):
            out.append(Dependency("hex", str(source[1]), str(source[2]), path, direct, None,
                                  alias=str(app) if app != source[1] else ""))
        elif isinstance(source, tuple) and len(source) in (3, 4) and source[0] in _SOURCES \
                and _plain(source[1]) and isinstance(source[2], tuple) and len(source[2]) == 2 \
                and source[2][0] == "ref" and _plain(source[2][1]) \
                and (len(source) == 3 or (source[0] == "git_subdir" and _plain(source[3]))):
            # a git_subdir source names the repository's folder the app is built from (round 56): fetched with it
            out.append(Dependency("hex", str(app), source[2][1], path, direct, None,
                                  options=" ".join(str(part) for part in (source[0], source[1], *source[3:]))))
        else:
            raise ManifestError(f"a lock entry in a form this reader does not know: {entry!r}"[:160])
    return out


def moved_hashes(base: bytes, head: bytes) -> list[str]:
    """Locked apps whose version stays but whose `pkg_hash`/`pkg_hash_ext` changed: another tarball under the same
    version (a bump changes both, and is the delta's)."""
    sides = []
    for data in (base, head):
        terms = consult(data)
        versions = {str(e[0]): e[1] for e in (terms[0][1] if terms and isinstance(terms[0], tuple) else [])
                    if isinstance(e, tuple) and len(e) == 3}
        hashes: dict[tuple[str, str], object] = {}
        for section in (terms[1] if len(terms) > 1 and isinstance(terms[1], list) else []):
            if isinstance(section, tuple) and len(section) == 2 and isinstance(section[1], list):
                hashes.update({(str(section[0]), str(p[0])): p[1] for p in section[1]
                               if isinstance(p, tuple) and len(p) == 2})
        sides.append((versions, hashes))
    (old_versions, old_hashes), (new_versions, new_hashes) = sides
    moved = {app for kind, app in old_hashes.keys() | new_hashes.keys()
             if old_hashes.get((kind, app)) != new_hashes.get((kind, app))
             and app in old_versions and old_versions.get(app) == new_versions.get(app)}
    return [f"{app} (its locked hash, at the same version)" for app in sorted(moved)]


# From a patch: a changed line that is one whole entry (`{app, "Req"}`, `{app, {git, "Url", {tag, "X"}}}`; a leading or
# trailing comma and a comment allowed), in a top-level `{deps, [` / `{plugins, [` / `{project_plugins, [` list the hunk
# shows opening at the start of a line, every line between them one whole entry or a comment; or a whole top-level
# list on one line. Anything else (a profile's list, an entry over several lines, an option shaped like an entry, a
# list the hunk does not show) is refused: `partial`, read with --tree.
_OPENER = lazy(r"^\{\s*(?:deps|plugins|project_plugins)\s*,\s*\[(.*)$")
_ONE_LINE = lazy(r"^\{\s*(?:deps|plugins|project_plugins)\s*,.*\}\s*\.\s*(?:%.*)?$")
_STRING = lazy(r'"(?:[^"\\\n]|\\.)*"')


def _code(line: str) -> str:
    """The line without its comment (a `%` outside strings)."""
    masked = _STRING.sub(lambda m: "S" * len(m.group()), line)
    cut = masked.find("%")
    return line if cut < 0 else line[:cut]


def _one_entry(line: str) -> Dependency | None:
    """The entry a line holds whole, or None; ManifestError for an entry in a form the reader does not know."""
    core = _code(line).strip().removeprefix(",").strip().removesuffix(",").strip()
    bare = _STRING.sub("S", core)
    if not (core.startswith("{") and core.endswith("}")) or '"' in bare or "'" in bare \
            or bare.count("{") != bare.count("}") or bare.count("[") != bare.count("]"):
        return None
    found = parse_rebar_config("", f"{{deps, [{core}]}}.".encode())
    return found[0] if len(found) == 1 else None


def _pair(dep: Dependency) -> tuple[str, ...]:
    return with_options((dep.name, dep.version, "hex", "", dep.alias), "hex", dep.options)


def rebar_config_line(side: list[tuple[str, bool]], index: int) -> list[tuple[str, ...]]:
    """The (app, requirement) a changed line of a patch's hunk shows, or ManifestError (above)."""
    line = side[index][0]
    if _ONE_LINE.match(line):  # a whole top-level term: read as the file would be
        return [_pair(d) for d in parse_rebar_config("", line.encode())]
    opener = _OPENER.match(line)
    entry = _one_entry(opener.group(1) if opener else line)
    if entry is None:
        raise ManifestError(f"not one whole dependency entry: {line.strip()[:80]!r}")
    if opener:
        return [_pair(entry)]
    for k in range(index - 1, -1, -1):
        above = side[k][0]
        if (top := _OPENER.match(above)) is not None and (not _code(top.group(1)).strip()
                                                           or _one_entry(top.group(1)) is not None):
            return [_pair(entry)]
        if _code(above).strip() and _one_entry(above) is None:
            break
    raise ManifestError("an entry whose top-level dependency list the hunk does not show: read with --tree")


# rebar.lock from a patch: a changed line that is one whole Hex entry, `{<<"app">>,{pkg,<<"package">>,<<"1.2.3">>},0},`
# (rebar3 writes each on one line; a list's `[` or closing `]}.` may share it). Any other changed line (a git entry's
# ref, a hash, the header) is refused: a bump's hash lines are always, so the file stays `partial` beside the names.
_LOCK_LINE = lazy(r'^\s*\[?\{<<"([\w.\-]+)">>\s*,\s*\{pkg\s*,\s*<<"([\w.\-]+)">>\s*,\s*<<"([^"\\\s]+)">>'
                        r'(?:\s*,\s*<<"[0-9A-Fa-f]*">>){0,2}\s*\}\s*,\s*(\d+)\s*\}\s*(?:,|\]\s*\}\s*\.)?\s*$')


def rebar_lock_line(side: list[tuple[str, bool]], index: int) -> list[tuple[str, ...]]:
    """The (package, version) a changed line of a rebar.lock hunk shows, or ManifestError."""
    if (entry := _LOCK_LINE.match(side[index][0])) is None:
        raise ManifestError(f"not one whole Hex entry of rebar.lock: {side[index][0].strip()[:80]!r}")
    app, package, version = entry.group(1), entry.group(2), entry.group(3)
    return [(package, version, "hex", "", app if app != package else "")]
