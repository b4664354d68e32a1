"""The fast matcher: which globs match a path, as a bit set, without trying every glob.

Glob number i is bit i. A path's folder and its file name are looked up separately:
- folders in dictionaries keyed by exact folder, anchored prefix and segment name, built up
  from the parent folder's answer (so a new folder costs a few lookups, whatever its depth);
- file names in dictionaries keyed by exact name and by the first or last two characters of
  a literal prefix or suffix (`Dockerfile.*`, `*.tf`), then confirmed with startswith/endswith.
Only globs no key can describe go through a regex, and only when a key says they might match.
Answers are cached per folder and per file name, which real trees share heavily; a path's
answer is the AND of the two.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from gatekeeper.classify.glob import ANY, Glob, base_regex, dir_regex, is_literal

_CACHE_LIMIT = 200_000  # entries per cache; cleared when full, so memory stays bounded
_WILD = "*?[]\\"

Check = tuple[int, re.Pattern[str]]
Affix = tuple[str, int, "re.Pattern[str] | None"]  # a literal prefix or suffix, its bit, a regex to confirm


def _add(table: dict[str, int], key: str, bit: int) -> None:
    table[key] = table.get(key, 0) | bit


def _literal_prefix(text: str) -> str:
    for i, ch in enumerate(text):
        if ch in _WILD:
            return text[:i]
    return text


def _literal_suffix(text: str) -> str:
    for i in range(len(text) - 1, -1, -1):
        if text[i] in _WILD:
            return text[i + 1 :]
    return text


# What a folder passes on to its subfolders: the bits of globs that hold below it, and the
# regex checks still to run (globs some ancestor's name made possible).
_DirState = tuple[int, tuple[Check, ...]]
_ROOT: _DirState = (0, ())


@dataclass(slots=True)
class _DirIndex:
    any: int = 0
    exact: dict[str, int] = field(default_factory=dict)  # "a/b" (or "" for the root)
    prefix: dict[str, int] = field(default_factory=dict)  # "a/b/**": the folder and all below it
    last: dict[str, int] = field(default_factory=dict)  # "**/a": a folder named a, at any depth
    segment: dict[str, int] = field(default_factory=dict)  # "**/a/**": a, or anything below a folder named a
    last_checks: dict[str, list[Check]] = field(default_factory=dict)  # the folder's name is the glob's last literal
    inherited_checks: dict[str, list[Check]] = field(default_factory=dict)  # by a segment or anchored prefix
    nested_keys: bool = False  # some inherited_checks key is an anchored "a/b": look folders up whole too
    fallback: list[tuple[int, re.Pattern[str], str]] = field(default_factory=list)  # with a substring it needs
    states: dict[str, _DirState] = field(default_factory=dict)

    def add(self, segments: tuple[str, ...], bit: int) -> None:
        literal = [s for s in segments if s != ANY]
        if not all(is_literal(s) for s in literal):
            self._add_checked(segments, bit)
        elif ANY not in segments:
            _add(self.exact, "/".join(segments), bit)
        elif segments == (ANY,):
            self.any |= bit
        elif segments.count(ANY) == 1 and segments[-1] == ANY:
            _add(self.prefix, "/".join(segments[:-1]), bit)
        elif segments == (ANY, segments[1]):
            _add(self.last, segments[1], bit)
        elif len(segments) == 3 and segments[0] == ANY and segments[2] == ANY:
            _add(self.segment, segments[1], bit)
        else:
            self._add_checked(segments, bit)

    def _add_checked(self, segments: tuple[str, ...], bit: int) -> None:
        check = (bit, dir_regex(segments))
        literals = [s for s in segments if s != ANY and is_literal(s)]
        if segments[-1] != ANY and is_literal(segments[-1]):
            self.last_checks.setdefault(segments[-1], []).append(check)
        elif segments[0] != ANY and literals and segments[0] == literals[0]:
            lead = []
            for seg in segments:
                if seg == ANY or not is_literal(seg):
                    break
                lead.append(seg)
            self.inherited_checks.setdefault("/".join(lead), []).append(check)
            self.nested_keys |= len(lead) > 1
        elif literals:
            # Any literal folder must appear in the path; the last one is usually the rarest.
            self.inherited_checks.setdefault(literals[-1], []).append(check)
        else:
            runs = [run for seg in segments for run in re.split(r"[*?\\]|\[[^]]*\]", seg) if seg != ANY]
            self.fallback.append((bit, check[1], max(runs, key=len, default="")))

    def _state(self, dirname: str) -> _DirState:
        state = self.states.get(dirname)
        if state is not None:
            return state
        # Walk up to the nearest known ancestor (iteratively: paths can be thousands of folders deep),
        # then build each folder's state from its parent's on the way down.
        missing = [dirname]
        parent = dirname.rpartition("/")[0]
        while parent and (state := self.states.get(parent)) is None:
            missing.append(parent)
            parent = parent.rpartition("/")[0]
        if not parent:
            state = _ROOT
        if len(self.states) + len(missing) >= _CACHE_LIMIT:
            self.states.clear()
        assert state is not None
        for folder in reversed(missing):
            state = self.states[folder] = self._child(state, folder, folder.rpartition("/")[2])
        return state

    def _child(self, up: _DirState, folder: str, name: str) -> _DirState:
        inherited = up[0] | self.prefix.get(folder, 0) | self.segment.get(name, 0)
        checks = up[1]
        if extra := self.inherited_checks.get(name):
            checks += tuple(extra)
        if self.nested_keys and "/" in folder and (extra := self.inherited_checks.get(folder)):
            checks += tuple(extra)
        return (inherited, checks)

    def mask(self, dirname: str) -> int:
        parent, _, name = dirname.rpartition("/")
        state = self.states.get(dirname)
        if state is None:
            # Usually the parent is known already (its files came first): one step, no walk.
            up = self.states.get(parent) if parent else _ROOT
            state = self._state(dirname) if up is None else self._child(up, dirname, name)
            if len(self.states) >= _CACHE_LIMIT:
                self.states.clear()
            self.states[dirname] = state
        mask = self.any | state[0] | self.exact.get(dirname, 0) | self.last.get(name, 0)
        checks: Sequence[Check] = state[1]
        found = self.last_checks.get(name)
        if found:
            checks = (*checks, *found)
        if checks or self.fallback:
            subject = f"{dirname}/" if dirname else ""
            for bit, regex in checks:
                if not mask & bit and regex.fullmatch(subject):
                    mask |= bit
            for bit, regex, needle in self.fallback:
                if not mask & bit and needle in subject and regex.fullmatch(subject):
                    mask |= bit
        return mask


@dataclass(slots=True)
class _Affixes:
    """Literal prefixes (or suffixes) keyed by their first (or last) two characters.

    An entry with a regex is a glob that needs more than the affix (`requirements*.txt`).
    """

    suffix: bool
    by_key: dict[str, list[Affix]] = field(default_factory=dict)
    short: list[Affix] = field(default_factory=list)  # one character: too short to key; rare

    def add(self, text: str, bit: int, regex: re.Pattern[str] | None) -> None:
        if len(text) < 2:
            self.short.append((text, bit, regex))
        else:
            self.by_key.setdefault(text[-2:] if self.suffix else text[:2], []).append((text, bit, regex))

    def short_mask(self, name: str, mask: int) -> int:
        test = name.endswith if self.suffix else name.startswith
        for text, bit, regex in self.short:
            if test(text) and (regex is None or (not mask & bit and regex.fullmatch(name))):
                mask |= bit
        return mask


@dataclass(slots=True)
class _BaseIndex:
    any: int = 0
    exact: dict[str, int] = field(default_factory=dict)
    # "*.tf", "*.gitlab-ci.yml": looked up once per dot in the name, as name[dot:]; the checks are
    # globs a regex must confirm, found through the extension they require ("*.[1-9].md").
    extension: dict[str, int] = field(default_factory=dict)
    extension_checks: dict[str, list[Check]] = field(default_factory=dict)
    suffixes: _Affixes = field(default_factory=lambda: _Affixes(suffix=True))  # "*_install.json"
    prefixes: _Affixes = field(default_factory=lambda: _Affixes(suffix=False))  # "Dockerfile.*"
    fallback: list[Check] = field(default_factory=list)
    # "*.verified.*", "*-license.*": an ASCII text anywhere in the name, found by a substring test in an ASCII name
    # without a `/` (what the regex, kept for any other name, answers there: it ignores ASCII case only)
    infixes: list[tuple[str, int, re.Pattern[str]]] = field(default_factory=list)
    # The same by text, every glob of it: the rules name a few texts many times (`*.verified.*` in five rules).
    infix_bits: dict[str, int] = field(default_factory=dict)

    def add(self, base: str, bit: int) -> None:
        if base in (ANY, "*"):
            self.any |= bit
        elif is_literal(base):
            _add(self.exact, base, bit)
        elif base.startswith("*.") and is_literal(base[1:]):
            _add(self.extension, base[1:], bit)
        elif base.startswith("*") and is_literal(base[1:]):
            self.suffixes.add(base[1:], bit, None)
        elif base.endswith("*") and is_literal(base[:-1]):
            self.prefixes.add(base[:-1], bit, None)
        elif base.startswith("*") and base.endswith("*") and is_literal(core := base.strip("*")) and core.isascii():
            self.infixes.append((core.lower(), bit, base_regex(base)))
            _add(self.infix_bits, core.lower(), bit)
        else:
            regex = base_regex(base)
            lead, tail = _literal_prefix(base), _literal_suffix(base)
            if lead and len(lead) >= len(tail):
                self.prefixes.add(lead, bit, regex)
            elif tail.startswith("."):
                self.extension_checks.setdefault(tail[tail.rindex(".") :], []).append((bit, regex))
            elif tail:
                self.suffixes.add(tail, bit, regex)
            else:
                self.fallback.append((bit, regex))

    def mask(self, name: str) -> int:
        mask = self.any | self.exact.get(name, 0)
        extension, checks = self.extension, self.extension_checks
        dot = name.find(".")
        while dot != -1:
            tail = name[dot:]
            mask |= extension.get(tail, 0)
            if checks and tail in checks:
                for bit, regex in checks[tail]:
                    if not mask & bit and regex.fullmatch(name):
                        mask |= bit
            dot = name.find(".", dot + 1)
        found = self.prefixes.by_key.get(name[:2])
        if found:
            for text, bit, needs in found:
                if name.startswith(text) and (needs is None or (not mask & bit and needs.fullmatch(name))):
                    mask |= bit
        found = self.suffixes.by_key.get(name[-2:])
        if found:
            for text, bit, needs in found:
                if name.endswith(text) and (needs is None or (not mask & bit and needs.fullmatch(name))):
                    mask |= bit
        if self.prefixes.short or self.suffixes.short:
            mask = self.suffixes.short_mask(name, self.prefixes.short_mask(name, mask))
        for bit, regex in self.fallback:
            if not mask & bit and regex.fullmatch(name):
                mask |= bit
        if self.infixes:
            if name.isascii() and "/" not in name:
                plain = name.lower()
                for text, bits in self.infix_bits.items():
                    if text in plain:
                        mask |= bits
            else:
                for _, bit, regex in self.infixes:
                    if not mask & bit and regex.fullmatch(name) is not None:
                        mask |= bit
        return mask


class GlobIndex:
    """Bit set of the globs matching a path; glob i of the sequence given is bit i."""

    __slots__ = ("_dirs", "_bases", "dir_cache", "base_cache")

    def __init__(self, globs: Sequence[Glob]) -> None:
        self._dirs = _DirIndex()
        self._bases = _BaseIndex()
        for i, glob in enumerate(globs):
            self._dirs.add(glob.dir_segments, 1 << i)
            self._bases.add(glob.base, 1 << i)
        # Public so that RuleSet.match can read them without a call per path.
        self.dir_cache: dict[str, int] = {}
        self.base_cache: dict[str, int] = {}

    def mask(self, path: str) -> int:
        """Bits of every glob matching `path` (repository-relative, '/'-separated)."""
        dirname, _, name = path.lower().rpartition("/")
        dmask = self.dir_cache.get(dirname)
        if dmask is None:
            dmask = self.dir_mask(dirname)
        bmask = self.base_cache.get(name)
        if bmask is None:
            bmask = self.base_mask(name)
        return dmask & bmask

    def dir_mask(self, dirname: str) -> int:
        """Bits of the globs whose folder part matches `dirname` (lower-cased), cached."""
        if len(self.dir_cache) >= _CACHE_LIMIT:
            self.dir_cache.clear()
        mask = self.dir_cache[dirname] = self._dirs.mask(dirname)
        return mask

    def base_mask(self, name: str) -> int:
        """Bits of the globs whose file-name part matches `name` (lower-cased), cached."""
        if len(self.base_cache) >= _CACHE_LIMIT:
            self.base_cache.clear()
        mask = self.base_cache[name] = self._bases.mask(name)
        return mask

    def uncached_mask(self, path: str) -> int:
        """Same as `mask`, bypassing the per-folder and per-name result caches (for tests)."""
        dirname, _, name = path.lower().rpartition("/")
        return self._dirs.mask(dirname) & self._bases.mask(name)
