"""The one reader for JSON and YAML documents: size, value count and nesting depth capped, with clear errors.

Every JSON or YAML document the tool reads (packet, `gatekeeper.yaml`, the bundle's manifest and
classification rules, `# METADATA`, a fixture's `expect.yaml` and `packet.json`, the run state, the
CI event payload) goes through here, so a hostile document is refused with `LimitError` (exit 2,
one line naming file and line) before a parser, a validator or a `repr` can recurse without
bound (RecursionError), allocate without bound (MemoryError) or spend quadratic time.
Size is checked before parsing, and so is the number of values (a C-speed count that never
undercounts), so parsing never allocates without bound. JSON depth: the C decoder's own recursion
guard stops at ~1,000 levels with a clean error, and the exact depth is measured (iteratively)
before the value is returned. YAML is checked on its event stream before it is composed
(iterative in both libyaml and PyYAML): an alias counts as everything it expands to ("billion
laughs") and an alias to an unfinished collection (a cycle) is refused.
Syntax errors are left to the callers, which already report them with their own wording.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gatekeeper.errors import LimitError, where
from gatekeeper.lazy_pattern import lazy


@dataclass(frozen=True, slots=True)
class Limits:
    """Caps on one document: bytes of text, nesting depth of arrays/objects, and values (after alias expansion)."""

    max_bytes: int
    max_depth: int
    max_values: int


# JSON (manifest, run state, CI event payload, decision): the biggest real ones are a few KB, a GitHub
# event payload can reach ~1 MB; 16 MiB, depth 64 and a million values leave an order of magnitude.
DEFAULT = Limits(max_bytes=16 << 20, max_depth=64, max_values=1_000_000)
# YAML (gatekeeper.yaml, classification rules, `# METADATA`, expect.yaml): the shipped rules are 57 KB and
# ~2,900 values. YAML parses ~50x slower than JSON (libyaml: ~4 us a value), so its caps are lower:
# 250,000 values take ~1 s to refuse.
YAML = Limits(max_bytes=4 << 20, max_depth=64, max_values=250_000)
_HINT = "inputs are capped, see docs/packet.md#limits; check that this is the file you meant"

# A JSON string (possessive quantifiers: an unterminated one costs one linear pass, no backtracking).
_JSON_STRING = lazy(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_JSON_SPACE = lazy(r"[ \t\r\n]*")  # JSON's own white space, no other
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_JSON_TOKEN = lazy(r'"(?:[^"\\]++|\\.)*+"|[\[\]{}]', re.DOTALL)
_SAFE_LOADER: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_bytes(path: Path, limits: Limits = DEFAULT) -> bytes:
    """The bytes of the regular file `path`, read no further than the size cap.

    OSError passes through (callers word it); LimitError when the file is too big."""
    # O_NONBLOCK: opening a FIFO without a writer must not block before fstat can refuse it.
    with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb") as handle:
        status = os.fstat(handle.fileno())
        if not stat.S_ISREG(status.st_mode):
            # A FIFO or device may never end; refuse it instead of blocking the gate.
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        # One read of the size fstat says and a byte more: a read of the whole cap allocates it (16 MiB) first, ~0.12
        # ms a call for the 250 KB rules file (6 times a plain read). A file that grew since reads on, to the cap.
        wanted = min(status.st_size, limits.max_bytes) + 1
        data = handle.read(wanted)
        if len(data) == wanted <= limits.max_bytes:
            data += handle.read(limits.max_bytes + 1 - wanted)
    _check_bytes(len(data), str(path), limits)
    return data


def read_text(path: Path, limits: Limits = DEFAULT) -> str:
    """`read_bytes` decoded as UTF-8 (UnicodeDecodeError passes through)."""
    return read_bytes(path, limits).decode("utf-8")


def load_json(text: str | bytes, source: str, limits: Limits = DEFAULT, **options: Any) -> Any:
    """`json.loads(text, **options)` within `limits` (LimitError naming `source` otherwise).

    `options` must keep JSON objects as dicts and arrays as lists (the depth is measured on them)."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    _check_bytes(len(data), source, limits)
    _check_json_values(data, source, limits)
    if isinstance(text, bytes):
        text = text.decode("utf-8")  # UnicodeDecodeError is a ValueError, as json.loads would raise
    try:
        value = json.loads(text, **options)
    except RecursionError:
        # The C decoder guards its own recursion (about 1,000 levels): a clean error, never a crash.
        value = None
        deepest = limits.max_depth + 1
    else:
        deepest = depth_of(value)
    if deepest > limits.max_depth:
        raise LimitError(
            f"nested deeper than {limits.max_depth} levels",
            where=where(source, _json_line_of_depth(text, limits.max_depth)),
            hint=_HINT,
        )
    return value


def load_json_stream(text: str, source: str, limits: Limits = DEFAULT, **options: Any) -> tuple[list[Any], int]:
    """The JSON values `text` starts with, one after another (`{...}{...}`, as Go's json.Decoder reads a stream),
    up to the first that does not parse, within `limits` (for the whole text); and where reading stopped."""
    _check_bytes(len(text.encode("utf-8", "surrogatepass")), source, limits)
    _check_json_values(text.encode("utf-8", "surrogatepass"), source, limits)
    decoder = json.JSONDecoder(**options)
    found: list[Any] = []
    at = 0
    while (at := _JSON_SPACE.match(text, at).end()) < len(text):  # type: ignore[union-attr]  # `*` always matches
        try:
            value, end = decoder.raw_decode(text, at)
        except RecursionError:
            raise LimitError(f"nested deeper than {limits.max_depth} levels", where=source, hint=_HINT) from None
        except ValueError:
            break
        if depth_of(value) > limits.max_depth:
            raise LimitError(f"nested deeper than {limits.max_depth} levels",
                             where=where(source, _json_line_of_depth(text[at:end], limits.max_depth)), hint=_HINT)
        found.append(value)
        at = end
    return found, at


def _check_json_values(data: bytes, source: str, limits: Limits) -> None:
    """Refuse JSON holding more values than `limits`, before parsing allocates them.

    Counted on the raw bytes first (C speed), where commas and brackets inside strings count too, so
    the estimate is never below the truth; only a document it puts over the cap is counted exactly."""
    # Every value but the first in a container follows a comma; a container is a value itself.
    if data.count(b",") + data.count(b"[") + data.count(b"{") + 1 <= limits.max_values:
        return
    skeleton = _JSON_STRING.sub("", data.decode("utf-8", "replace"))
    if skeleton.count(",") + skeleton.count("[") + skeleton.count("{") + 1 > limits.max_values:
        raise LimitError(f"more than {limits.max_values:,} values", where=source, hint=_HINT)


def depth_of(value: object) -> int:
    """How deeply arrays and objects nest in `value` (0 for a scalar), measured without recursion."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(value, 1)] if type(value) in (list, dict) else []
    while todo:
        node, level = todo.pop()
        if level > deepest:
            deepest = level
        for child in node.values() if type(node) is dict else node:
            if type(child) in (list, dict):
                todo.append((child, level + 1))
    return deepest


def _json_line_of_depth(text: str, max_depth: int) -> int | None:
    # Only on the error path: find where the nesting first goes too deep, for the message.
    depth = 0
    for match in _JSON_TOKEN.finditer(text):
        step = _STEP.get(match.group())
        if step is None:
            continue
        depth += step
        if depth > max_depth:
            return text.count("\n", 0, match.start()) + 1
    return None


def compose_yaml(text: str, source: str, limits: Limits = YAML, loader: type[Any] = _SAFE_LOADER) -> Any:
    """`yaml.compose(text)` (the root node, or None) once the document is within `limits`.

    yaml.YAMLError passes through for syntax errors; LimitError for a document over a cap."""
    check_yaml_shape(text, source, limits, loader)
    return yaml.compose(text, Loader=loader)


def load_yaml(
    text: str, source: str, limits: Limits = YAML, loader: type[Any] = _SAFE_LOADER, *, first_line: int = 1
) -> Any:
    """`yaml.safe_load(text)` once the document is within `limits` (yaml.YAMLError / LimitError otherwise).

    `first_line` is the line of `source` where `text` starts (for YAML embedded in another file)."""
    check_yaml_shape(text, source, limits, loader, first_line=first_line)
    return yaml.load(text, Loader=loader)  # noqa: S506 - only SafeLoader / CSafeLoader are passed


def duplicate_key(node: Any) -> Any:
    """The first key node of a composed YAML document that repeats a key of its mapping (None when there is none): a
    parser keeps the last silently, so the gate's own settings refuse it (red team 25). A merge key (`<<`) may repeat
    what it merges; each node is visited once (aliases)."""
    seen: set[int] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, yaml.MappingNode):
            keys: set[str] = set()
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                    if key.value in keys:
                        return key
                    keys.add(key.value)
                stack += [key, value]
        elif isinstance(current, yaml.SequenceNode):
            stack += current.value
    return None


def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON `object_pairs_hook` that refuses a key given twice in one object (ValueError), as duplicate_key does."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"`{key}` given twice in one object")
            seen.add(key)
    return obj


def construct_yaml(node: Any) -> Any:
    """The Python value of a node from `compose_yaml` (safe constructors only; None for no node)."""
    if node is None:
        return None
    loader = _SAFE_LOADER("")
    try:
        return loader.construct_document(node)
    finally:
        loader.dispose()


def check_yaml_shape(
    text: str, source: str, limits: Limits, loader: type[Any] = _SAFE_LOADER, *, first_line: int = 1
) -> None:
    """Walk the YAML event stream; refuse a document over `limits`, counting every alias as its expansion."""
    _check_bytes(len(text), source, limits)
    if len(text) * 4 > limits.max_bytes:
        _check_bytes(len(text.encode("utf-8", "surrogatepass")), source, limits)
    # Per open collection: [anchor, values before it, deepest level reached inside it].
    stack: list[list[Any]] = []
    done: dict[str, tuple[int, int, int]] = {}  # anchor -> (values, height, characters) it expands to
    values = chars = depth = 0
    for event in yaml.parse(text, Loader=loader):
        line = event.start_mark.line + first_line if event.start_mark else None
        if isinstance(event, yaml.DocumentStartEvent):
            done.clear()
        elif isinstance(event, yaml.CollectionStartEvent):
            values += 1
            depth += 1
            stack.append([event.anchor, values - 1, depth, chars])
            if depth > limits.max_depth:
                raise LimitError(f"nested deeper than {limits.max_depth} levels", where=where(source, line), hint=_HINT)
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, before, deepest, chars_before = stack.pop()
            if anchor is not None:
                done[anchor] = (values - before, deepest - depth + 1, chars - chars_before)
            depth -= 1
            if stack:
                stack[-1][2] = max(stack[-1][2], deepest)
        elif isinstance(event, yaml.ScalarEvent):
            values += 1
            chars += len(event.value)
            if event.anchor is not None:
                done[event.anchor] = (1, 0, len(event.value))
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor not in done:
                if any(open_[0] == event.anchor for open_ in stack):
                    raise LimitError(
                        f"alias *{event.anchor} refers to a collection that contains it (a cycle)",
                        where=where(source, line),
                        hint="a YAML alias may only repeat a finished node",
                    )
                continue  # an undefined alias: the composer reports it in its own words
            size, height, length = done[event.anchor]
            values += size
            chars += length
            if depth + height > limits.max_depth:
                raise LimitError(
                    f"nested deeper than {limits.max_depth} levels (alias *{event.anchor} expanded)",
                    where=where(source, line),
                    hint=_HINT,
                )
            if stack:
                stack[-1][2] = max(stack[-1][2], depth + height)
        else:
            continue
        if values > limits.max_values:
            raise LimitError(
                f"more than {limits.max_values:,} values (aliases counted as what they expand to)",
                where=where(source, line),
                hint=_HINT,
            )
        if chars > limits.max_bytes:
            raise LimitError(
                f"expands to more than {limits.max_bytes:,} characters of text through aliases",
                where=where(source, line),
                hint=_HINT,
            )


def _check_bytes(size: int, source: str, limits: Limits) -> None:
    if size > limits.max_bytes:
        raise LimitError(f"larger than {_size(limits.max_bytes)}", where=source, hint=_HINT)


def _size(count: int) -> str:
    return f"{count >> 20} MiB" if count >= 1 << 20 and count % (1 << 20) == 0 else f"{count:,} bytes"
