"""The fast matcher: which globs match a path, as a bit set, without trying every glob.

Glob number i is bit i. A path's directory and its basename are looked up separately, in
dictionaries keyed by exact name, suffix, prefix and folder segment; only globs no key can
describe go through a (short) list of regexes. Results are cached per directory and per
basename, which real trees share heavily; the path's answer is the AND of the two.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from gatekeeper.classify.glob import ANY, Glob, base_regex, dir_regex, is_literal

_CACHE_LIMIT = 200_000  # entries per cache; cleared when full, so memory stays bounded
_WILD = "*?[]\\"

Checks = list[tuple[int, re.Pattern[str]]]


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


def _add(table: dict[str, int], key: str, bit: int) -> None:
    table[key] = table.get(key, 0) | bit


@dataclass(slots=True)
class _DirIndex:
    any: int = 0
    exact: dict[str, int] = field(default_factory=dict)  # "a/b" (or "" for the root)
    prefix: dict[str, int] = field(default_factory=dict)  # "a/b/**": the folder or below it
    suffix: dict[str, int] = field(default_factory=dict)  # "**/a/b": a folder ending so
    segment: dict[str, int] = field(default_factory=dict)  # "**/a/**": a folder named a, at any depth
    prefix_checks: dict[str, Checks] = field(default_factory=dict)
    segment_checks: dict[str, Checks] = field(default_factory=dict)
    fallback: Checks = field(default_factory=list)

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
        elif segments.count(ANY) == 1 and segments[0] == ANY:
            _add(self.suffix, "/".join(segments[1:]), bit)
        elif len(segments) == 3 and segments[0] == ANY and segments[2] == ANY:
            _add(self.segment, segments[1], bit)
        else:
            self._add_checked(segments, bit)

    def _add_checked(self, segments: tuple[str, ...], bit: int) -> None:
        check = (bit, dir_regex(segments))
        lead: list[str] = []
        for seg in segments:
            if seg == ANY or not is_literal(seg):
                break
            lead.append(seg)
        if lead:
            self.prefix_checks.setdefault("/".join(lead), []).append(check)
            return
        anchor = next((s for s in segments if s != ANY and is_literal(s)), None)
        if anchor is not None and segments[0] == ANY:
            self.segment_checks.setdefault(anchor, []).append(check)
            return
        self.fallback.append(check)

    def mask(self, dirname: str) -> int:
        mask = self.any | self.exact.get(dirname, 0)
        checks: list[Checks] = []
        if dirname:
            segs = dirname.split("/")
            prefix = ""
            for seg in segs:
                prefix = f"{prefix}/{seg}" if prefix else seg
                mask |= self.prefix.get(prefix, 0)
                found = self.prefix_checks.get(prefix)
                if found:
                    checks.append(found)
            if self.suffix:
                tail = ""
                for seg in reversed(segs):
                    tail = f"{seg}/{tail}" if tail else seg
                    mask |= self.suffix.get(tail, 0)
            for seg in set(segs):
                mask |= self.segment.get(seg, 0)
                found = self.segment_checks.get(seg)
                if found:
                    checks.append(found)
        if self.fallback:
            checks.append(self.fallback)
        if checks:
            subject = f"{dirname}/" if dirname else ""
            for group in checks:
                for bit, regex in group:
                    if not mask & bit and regex.fullmatch(subject):
                        mask |= bit
        return mask


@dataclass(slots=True)
class _BaseIndex:
    any: int = 0
    exact: dict[str, int] = field(default_factory=dict)
    suffix: dict[int, dict[str, int]] = field(default_factory=dict)  # by length: "*.tf" -> {3: {".tf"}}
    prefix: dict[int, dict[str, int]] = field(default_factory=dict)  # "Dockerfile.*" -> {11: {...}}
    suffix_checks: dict[int, dict[str, Checks]] = field(default_factory=dict)
    prefix_checks: dict[int, dict[str, Checks]] = field(default_factory=dict)
    fallback: Checks = field(default_factory=list)

    def add(self, base: str, bit: int) -> None:
        if base in (ANY, "*"):
            self.any |= bit
        elif is_literal(base):
            _add(self.exact, base, bit)
        elif base.startswith("*") and is_literal(base[1:]):
            _add(self.suffix.setdefault(len(base) - 1, {}), base[1:], bit)
        elif base.endswith("*") and is_literal(base[:-1]):
            _add(self.prefix.setdefault(len(base) - 1, {}), base[:-1], bit)
        else:
            check = (bit, base_regex(base))
            lead, tail = _literal_prefix(base), _literal_suffix(base)
            if lead and len(lead) >= len(tail):
                self.prefix_checks.setdefault(len(lead), {}).setdefault(lead, []).append(check)
            elif tail:
                self.suffix_checks.setdefault(len(tail), {}).setdefault(tail, []).append(check)
            else:
                self.fallback.append(check)

    def mask(self, name: str) -> int:
        mask = self.any | self.exact.get(name, 0)
        size = len(name)
        for length, table in self.suffix.items():
            if length <= size:
                mask |= table.get(name[-length:], 0)
        for length, table in self.prefix.items():
            if length <= size:
                mask |= table.get(name[:length], 0)
        checks: list[Checks] = []
        for length, groups in self.suffix_checks.items():
            if length <= size and (found := groups.get(name[-length:])):
                checks.append(found)
        for length, groups in self.prefix_checks.items():
            if length <= size and (found := groups.get(name[:length])):
                checks.append(found)
        if self.fallback:
            checks.append(self.fallback)
        for group in checks:
            for bit, regex in group:
                if not mask & bit and regex.fullmatch(name):
                    mask |= bit
        return mask


class GlobIndex:
    """Bit set of the globs matching a path; glob i of the sequence given is bit i."""

    __slots__ = ("_dirs", "_bases", "_dir_cache", "_base_cache", "size")

    def __init__(self, globs: Sequence[Glob]) -> None:
        self._dirs = _DirIndex()
        self._bases = _BaseIndex()
        for i, glob in enumerate(globs):
            self._dirs.add(glob.dir_segments, 1 << i)
            self._bases.add(glob.base, 1 << i)
        self._dir_cache: dict[str, int] = {}
        self._base_cache: dict[str, int] = {}
        self.size = len(globs)

    def mask(self, path: str) -> int:
        """Bits of every glob matching `path` (repository-relative, '/'-separated)."""
        lowered = path.lower()
        dirname, _, name = lowered.rpartition("/")
        dmask = self._dir_cache.get(dirname)
        if dmask is None:
            if len(self._dir_cache) >= _CACHE_LIMIT:
                self._dir_cache.clear()
            dmask = self._dir_cache[dirname] = self._dirs.mask(dirname)
        bmask = self._base_cache.get(name)
        if bmask is None:
            if len(self._base_cache) >= _CACHE_LIMIT:
                self._base_cache.clear()
            bmask = self._base_cache[name] = self._bases.mask(name)
        return dmask & bmask

    def uncached_mask(self, path: str) -> int:
        """Same as `mask`, bypassing the caches (benchmarks measure the cold path with it)."""
        dirname, _, name = path.lower().rpartition("/")
        return self._dirs.mask(dirname) & self._bases.mask(name)
