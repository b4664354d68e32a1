"""The one reader of a decision-log line: bounded, strict, and true only for the canonical bytes of a record.

A line is trusted only when it is byte for byte the canonical JSON of the record it parses to. Anything
else (a duplicate key, other white space or key order, another escaping of the same text, `1.0` for `1`,
NaN, a BOM, a CR, a NUL) could make two readers see two different records behind one hash, so it is
tampering. The checks run before `json.loads` wherever the parser itself could be attacked (depth, size).
Stdlib only: the gate reads the last line of the log on every append.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from gatekeeper.lazy_pattern import lazy

# Generous for a record (a few KB; a finding may list thousands of paths), small enough to hold in memory.
MAX_LINE_BYTES = 16 * 1024 * 1024
# A record nests five levels deep; json.loads recurses per level and dies near 1000.
MAX_DEPTH = 32
# I-JSON (RFC 7493): integers beyond 2**53 read differently in other languages, so another verifier's hash would differ.
MAX_SAFE_INT = 2**53 - 1
REQUIRED = ("seq", "time", "outcome", "findings", "policies", "bundle", "prev", "hash")

_STRING = lazy(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")


def canonical(obj: Any) -> bytes:
    """The canonical JSON bytes of `obj`: sorted keys, no white space, ASCII only, no NaN or Infinity."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode("ascii")


@dataclass(frozen=True, slots=True)
class Parsed:
    """A line read strictly: the record, or why the line is not a canonical record (then `record` is None).

    `record` is also set for a canonical object that lacks required fields, so callers can say which.
    """

    record: dict[str, Any] | None
    reason: str | None

    @property
    def ok(self) -> bool:
        return self.reason is None


class _Refused(ValueError):
    pass


def parse_line(raw: bytes) -> Parsed:
    """Read one line (without its newline) as a record; never raises, never recurses without bound."""
    if len(raw) > MAX_LINE_BYTES:
        return Parsed(None, f"longer than {MAX_LINE_BYTES} bytes")
    if not raw.isascii():
        return Parsed(None, "not canonical: bytes outside ASCII (a BOM, raw UTF-8 or binary)")
    depth = _depth(raw)
    if depth > MAX_DEPTH:
        return Parsed(None, f"nested {depth} levels deep (a record has at most {MAX_DEPTH})")
    try:
        value = json.loads(raw.decode("ascii"), object_pairs_hook=_unique_keys, parse_constant=_no_constant,
                           parse_int=_safe_int)
    except _Refused as exc:
        return Parsed(None, f"not canonical: {exc}")
    except (ValueError, RecursionError) as exc:
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
        return Parsed(None, f"not valid JSON ({detail})")
    if not isinstance(value, dict):
        return Parsed(None, "not a JSON object")
    try:
        again = canonical(value)
    except ValueError:  # a float that overflowed to inf (1e999)
        return Parsed(None, "not canonical: a number out of range")
    if again != raw:
        return Parsed(None, f"not canonical: {_first_difference(raw, again)}")
    missing = [key for key in REQUIRED if key not in value]
    if missing:
        return Parsed(value, f"not a decision record: missing {', '.join(missing)}")
    if not isinstance(value["seq"], int) or isinstance(value["seq"], bool) or not isinstance(value["hash"], str):
        return Parsed(value, "not a decision record: seq must be an integer and hash a string")
    return Parsed(value, None)


def _depth(raw: bytes) -> int:
    """The deepest bracket nesting outside strings, computed without recursion (C-speed regex and translate)."""
    brackets = _STRING.sub(b'""', raw).translate(None, _NOT_BRACKET)
    if len(brackets) <= 2 * MAX_DEPTH:  # too few brackets to nest too deep: skip the walk
        return 0
    return max(accumulate(1 if b in b"[{" else -1 for b in brackets), default=0)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(f"duplicate key {key!r}")
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not JSON")


def _safe_int(text: str) -> int:
    value = int(text)
    if abs(value) > MAX_SAFE_INT:
        raise _Refused(f"integer {text[:20]}{'...' if len(text) > 20 else ''} beyond 2**53 (not interoperable)")
    return value


def _first_difference(raw: bytes, again: bytes) -> str:
    at = next((i for i, (a, b) in enumerate(zip(raw, again, strict=False)) if a != b), min(len(raw), len(again)))
    if raw.endswith((b" ", b"\t", b"\r")) and raw.rstrip() == again:
        return "white space at the end of the line"
    shown = raw[max(at - 10, 0):at + 20].decode("ascii", "replace")
    return f"byte {at + 1} differs from the canonical form (near {shown!r})"
