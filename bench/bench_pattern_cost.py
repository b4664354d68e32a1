"""Census: every regular expression of the gatekeeper package against lines built to make it backtrack.

Run: .venv/bin/python bench/bench_pattern_cost.py [--size N] [--limit-ms MS] [--format text|json] [--only a,b]

A reader's pattern that backtracks on a hostile line costs the gate seconds per line: two runs of the same
characters with only optional items between them (`\\s*\\(?\\s*`), a run before a `.*` the match then leaves, a
`^\\s*` in front of alternatives that all fail. Red teams found such lines one by one (attack 34, redos); this
script looks for them in every pattern at once, from the pattern itself:

- each module-level pattern of every `gatekeeper` module (compiled or `lazy`, also inside module-level tuples,
  lists and dicts) is parsed with CPython's own parser;
- a *prefix* is a shortest text the pattern reads up to one point of its sequence (through groups, repeats and
  each alternative, the points inside them too); a *filler* is a character or a repeat's shortest text that some
  repeat of the pattern reads;
- each prefix + filler * n + one character no filler is ("\\x01"), and the same without it, is matched and
  searched at n ~ SIZE/4 and SIZE; a pattern whose cost grows more than 6 times for 4 times the line, and that
  costs over LIMIT ms at SIZE, is listed with the line's shape.

It proves nothing about lines it does not build, and it is slow: each pattern is tried with up to 40 prefixes, 8
fillers, 2 tails and each way the module calls it (a first run with 120 prefixes and 16 fillers took ~60 minutes
for the modules from `attest` to `gitlabincludes` on the loaded 2-core VM). `tests/test_redos_line_cost.py` keeps
each shape it found, with the readers around the pattern, and checks the linear pattern against the old one.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import gatekeeper  # noqa: E402
from gatekeeper.lazy_pattern import _Lazy  # noqa: E402

# Characters tried for a class, in this order: the first the class admits is its shortest text.
_CANDIDATES = " a0x-./,:_=#\"'|()[]{}@$\\*+?!;<>%&~^`\tAZ\n"
_MAX_PREFIXES = 40
_TAIL = "\x01"


_SEARCHING = ("search", "finditer", "findall", "sub", "subn", "split")


def _calls(module_source: str, name: str) -> tuple[str, ...]:
    """How the module calls the pattern held by `name`: `match`, `fullmatch` and/or `search` (every method that
    tries each position: finditer, findall, sub, split); all three when it is handed on or called another way."""
    listed = re.findall(rf"\b{re.escape(name)}\.(\w+)\(", module_source)
    used = set(listed)
    calls = {"search" if method in _SEARCHING else method for method in used} & {"match", "fullmatch", "search"}
    named = len(re.findall(rf"\b{re.escape(name)}\b", module_source))
    return tuple(sorted(calls)) if calls and named == len(listed) + 1 else ("fullmatch", "match", "search")


def _patterns(only: frozenset[str] = frozenset()) -> Iterator[tuple[str, str, int, tuple[str, ...]]]:
    """(where, source, flags, calls) of every str pattern held at module level in the gatekeeper package (in the
    modules named in `only`, by their last name, when it is given)."""
    seen: set[tuple[str, int]] = set()
    for info in pkgutil.walk_packages(gatekeeper.__path__, "gatekeeper."):
        if info.name.endswith("__main__") or (only and info.name.rpartition(".")[2] not in only):
            continue  # __main__ runs the command line when imported
        try:
            module = importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 - a module that needs what this machine lacks is left out, said below
            print(f"note: {info.name} not imported", file=sys.stderr)
            continue
        module_source = Path(module.__file__ or "").read_text(encoding="utf-8")
        for name, value in list(vars(module).items()):
            values = value.values() if isinstance(value, dict) else value if isinstance(value, (tuple, list)) else [
                value]
            for one in values:
                if isinstance(one, _Lazy):
                    source, flags = one._source, one._flags  # noqa: SLF001 - the census reads the stand-in's text
                elif isinstance(one, re.Pattern):
                    source, flags = one.pattern, one.flags
                else:
                    continue
                if isinstance(source, str) and (source, flags) not in seen:
                    seen.add((source, flags))
                    calls = _calls(module_source, name) if one is value else ("fullmatch", "match", "search")
                    yield f"{info.name}.{name}", source, flags, calls


def _admits(items: list[tuple[Any, Any]], char: str) -> bool:
    """Whether an IN class's items admit `char` (NEGATE first when negated)."""
    code = ord(char)
    negate = bool(items) and items[0][0] is sre.NEGATE
    hit = False
    for op, arg in items[1:] if negate else items:
        if op is sre.LITERAL:
            hit = code == arg
        elif op is sre.RANGE:
            hit = arg[0] <= code <= arg[1]
        elif op is sre.CATEGORY:
            hit = bool(re.fullmatch(_CATEGORY[arg], char))
        if hit:
            break
    return hit != negate


_CATEGORY = {sre.CATEGORY_SPACE: r"\s", sre.CATEGORY_NOT_SPACE: r"\S", sre.CATEGORY_DIGIT: r"\d",
             sre.CATEGORY_NOT_DIGIT: r"\D", sre.CATEGORY_WORD: r"\w", sre.CATEGORY_NOT_WORD: r"\W",
             sre.CATEGORY_LINEBREAK: r"\n", sre.CATEGORY_NOT_LINEBREAK: r"[^\n]"}


def _chars(op: Any, arg: Any) -> list[str]:
    """The candidate characters one single-character item admits."""
    if op is sre.LITERAL:
        return [chr(arg)]
    if op is sre.NOT_LITERAL:
        return [c for c in _CANDIDATES if ord(c) != arg]
    if op is sre.ANY:
        return [c for c in _CANDIDATES if c != "\n"]
    if op is sre.IN:
        return [c for c in _CANDIDATES if _admits(list(arg), c)]
    return []


class _Walk:
    """Shortest texts up to every point of a parsed pattern (`prefixes`), and what its repeats read (`fillers`)."""

    def __init__(self) -> None:
        self.prefixes: list[str] = []
        self.fillers: set[str] = set()
        self.groups: dict[int, str] = {}

    def seq(self, items: list[Any], bases: list[str]) -> list[str]:
        """Every text of `bases` followed by a shortest text of `items`; records the prefix at each point."""
        for op, arg in items:
            bases = self.item(op, arg, bases)[:8]
            if len(self.prefixes) < _MAX_PREFIXES:
                self.prefixes.extend(bases)
        return bases

    def item(self, op: Any, arg: Any, bases: list[str]) -> list[str]:
        if op in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN):
            chars = _chars(op, arg)
            return [b + chars[0] for b in bases] if chars else bases
        if op is sre.SUBPATTERN:
            out = self.seq(list(arg[3]), bases)
            if arg[0] is not None and out:
                self.groups[arg[0]] = out[0][len(bases[0]):] if bases else out[0]
            return out
        if op is sre.ATOMIC_GROUP:
            return self.seq(list(arg), bases)
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, high, body = arg[0], arg[1], list(arg[2])
            once = self.seq(body, bases)  # the prefixes inside the body, entered once
            if high > 1 or high is sre.MAXREPEAT:
                self._fill(body)
            if low == 0:
                return bases + once
            return once if low == 1 else [t + t[len(b):] * (low - 1) for b, t in zip(bases, once, strict=False)]
        if op is sre.BRANCH:
            return [t for option in arg[1] for t in self.seq(list(option), bases)]
        if op is sre.GROUPREF:
            return [b + self.groups.get(arg, "") for b in bases]
        if op is sre.GROUPREF_EXISTS:
            return self.seq(list(arg[1]), bases)
        return bases  # anchors, lookarounds: no text

    def _fill(self, body: list[Any]) -> None:
        if len(body) == 1 and body[0][0] in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN):
            self.fillers.update(_chars(*body[0])[:6])
            return
        inner = _Walk()
        inner.groups = dict(self.groups)
        for text in inner.seq(body, [""])[:4]:
            if text:
                self.fillers.add(text)


def _cost(call: Any, text: str) -> float:
    started = time.process_time()
    call(text)
    return time.process_time() - started


def census(size: int, limit: float, only: frozenset[str] = frozenset()) -> list[dict[str, object]]:
    found = []
    for where, source, flags, calls in _patterns(only):
        try:
            parsed = sre_parse.parse(source, flags)
        except re.error:
            continue
        walk = _Walk()
        walk.seq(list(parsed), [""])
        compiled = re.compile(source, flags)
        worst: dict[str, object] | None = None
        worst_cost = 0.0
        fillers = sorted(walk.fillers, key=len)[:8]
        for prefix in list(dict.fromkeys(["", *walk.prefixes]))[:_MAX_PREFIXES]:
            for filler in fillers:
                for tail in (_TAIL, ""):
                    for method in calls:
                        call = getattr(compiled, method)

                        def line(n: int, prefix: str = prefix, filler: str = filler, tail: str = tail) -> str:
                            return prefix + filler * max(n // len(filler), 1) + tail

                        # a linear pattern reads 256 characters in microseconds: only the slow ones go on
                        if _cost(call, line(256)) < 5e-5:
                            continue
                        small, large = _cost(call, line(size // 4)), _cost(call, line(size))
                        if large * 1000 < limit or large < 6 * max(small, 1e-5):
                            continue
                        if large > worst_cost:
                            worst_cost = large
                            worst = {"pattern": where, "method": method, "prefix": prefix, "filler": filler,
                                     "tail": tail, "ms": round(large * 1000, 1), "ms_quarter": round(small * 1000, 1)}
        if worst is not None:
            found.append(worst)
            print(f"{worst['pattern']}\t{worst['ms']} ms", file=sys.stderr, flush=True)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4096, help="characters of filler in the large line")
    parser.add_argument("--limit-ms", type=float, default=5.0, help="list a pattern costing more at --size")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--only", default="", help="comma-separated module names (`runvars,cienv`): only these")
    args = parser.parse_args()
    began = time.process_time()
    found = census(args.size, args.limit_ms, frozenset(filter(None, args.only.split(","))))
    if args.format == "json":
        print(json.dumps({"size": args.size, "found": found}, indent=1))
    else:
        for one in found:
            print(f"{one['pattern']}\t{one['method']}\t{one['ms']} ms (quarter {one['ms_quarter']})\t"
                  f"{one['prefix']!r} + {one['filler']!r} * n + {one['tail']!r}")
        print(f"{len(found)} pattern(s) super-linear at {args.size} characters ({time.process_time() - began:.1f} "
              "CPU-s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
