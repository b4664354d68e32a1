"""Move values across the Rego engine's C boundary: the input going in, results coming out.

regopy's C library keeps strings in an inconsistent half-escaped form: an input string holding
`"` comes back unescaped in the result JSON (invalid JSON), and some built-ins unescape what
others keep escaped. So strings holding `"`, `\\` or control characters are percent-encoded on
the way in (`"` → `%22`), and restored on the way out when a result string equals one of them
(paths in findings); a result whose JSON is still unreadable is read node by node instead.
These functions take the loaded C library as a parameter: only `engine` imports regopy.
"""

from __future__ import annotations

import ctypes
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from gatekeeper.errors import PolicyError
from gatekeeper.lazy_pattern import lazy

_INT64 = 1 << 63
# `"`, `\\`, control characters, and lone surrogates (the bytes of a non-UTF-8 path).
_UNSAFE = lazy('["\\\\\x00-\x1f\x7f\udc80-\udcff]')

# NodeKind values of the C API
ARRAY, SET, OBJECT, OBJECT_ITEM = 1004, 1005, 1006, 1007
INT, FLOAT, STRING, TRUE, FALSE, NULL = 1008, 1009, 1010, 1011, 1012, 1013
BINDING, TERM, SCALAR = 1000, 1002, 1003


def encode_text(value: str) -> str:
    """`value` with the characters the engine mishandles percent-encoded (a non-UTF-8 byte as itself)."""
    return _UNSAFE.sub(_percent, value)


def _percent(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"%{code - 0xDC00 if code >= 0xDC80 else code:02X}"


class _Untyped:
    """The input builder's calls of the C library that take a pointer, bytes or a count, without declared argument
    types: `lib[name]` is a new function object, the library's own (`lib.name`, typed) is left as it is."""

    __slots__ = ("typed", "regoInputString", "regoInputNull", "regoInputObjectItem", "regoInputObject",
                 "regoInputArray")

    def __init__(self, lib: Any) -> None:
        self.typed = lib
        self.regoInputString, self.regoInputNull = _untyped(lib, "regoInputString"), _untyped(lib, "regoInputNull")
        self.regoInputObjectItem = _untyped(lib, "regoInputObjectItem")
        self.regoInputObject, self.regoInputArray = _untyped(lib, "regoInputObject"), _untyped(lib, "regoInputArray")


def _untyped(lib: Any, name: str) -> Any:
    func = lib[name]  # a new function object: the library's own (`lib.name`) keeps its declared types
    func.restype = ctypes.c_uint32
    return func


class InputBuilder:
    """Build an input document on a C input handle piece by piece (a stack machine, like the C API).

    `value` pushes a whole JSON value; `key` + `value` + `item` make an object entry; `array(n)` and
    `object(n)` fold the last n values / entries.
    This is the gate's hot path (a 10,000-file change is ~500,000 C calls), hence the inlined scalar
    cases and the byte cache; only the object/array constructors' return codes are checked, as they
    are the calls that fail on a malformed stack. The calls that take only the handle, bytes and a
    count go through the library's functions without declared argument types (`_untyped`): ctypes
    then passes the handle (a `c_void_p`) and the bytes as they are instead of converting each
    argument through its declared type (a 10,000-file input: 363 -> 341 ms); numbers keep their
    declared C types (int64, double, bool).
    """

    __slots__ = ("_lib", "_handle", "_cache", "restore", "failed", "value")

    def __init__(self, lib: Any, handle: int) -> None:
        self._lib, self._handle = _Untyped(lib), ctypes.c_void_p(handle)
        self._cache: dict[str, bytes] = {}
        self.restore: dict[str, str] = {}  # {encoded: original} of every string that needed encoding
        self.failed = 0
        self.value = self._pusher()

    def key(self, name: str) -> None:
        """Push an object key (follow with `value` and `item`)."""
        self._lib.regoInputString(self._handle, self._encode(name))

    def item(self) -> None:
        """Fold the last key and value into an object entry."""
        self._lib.regoInputObjectItem(self._handle)

    def array(self, size: int) -> None:
        """Fold the last `size` values into an array."""
        self.failed |= self._lib.regoInputArray(self._handle, size)

    def object(self, size: int) -> None:
        """Fold the last `size` entries into an object."""
        self.failed |= self._lib.regoInputObject(self._handle, size)

    def _encode(self, value: str) -> bytes:
        if _UNSAFE.search(value):
            shown = encode_text(value)
            self.restore[shown] = value
            value = shown
        # Lone surrogates (non-UTF-8 path bytes) become `\udcXX` text rather than an error.
        return value.encode("utf-8", "backslashreplace")

    def _pusher(self) -> Any:
        lib, handle, cache, encode = self._lib, self._handle, self._cache, self._encode
        push_str, push_int, push_float = lib.regoInputString, lib.typed.regoInputInt, lib.typed.regoInputFloat
        push_bool, push_null, item = lib.typed.regoInputBoolean, lib.regoInputNull, lib.regoInputObjectItem
        make_object, make_array = lib.regoInputObject, lib.regoInputArray

        def scalar(value: Any) -> None:
            kind = type(value)
            if kind is str:
                push_str(handle, cache.get(value) or encode(value))
            elif value is None:
                push_null(handle)
            elif kind is bool:
                push_bool(handle, value)
            elif kind is int:
                if not -_INT64 <= value < _INT64:
                    # The C API takes int64 and would wrap silently (2**70 → 0).
                    raise PolicyError(f"a number in the policy input is out of the engine's range: {value}",
                                      hint="validate the packet against its schema")
                push_int(handle, value)
            elif kind is float:
                push_float(handle, value)
            elif isinstance(value, Mapping):
                push(dict(value))
            elif isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
                push(list(value))
            else:
                raise PolicyError(f"the policy input holds a {kind.__name__}, which is not JSON",
                                  hint="this is a bug in gatekeeper")

        def push(value: Any) -> None:
            kind = type(value)
            if kind is dict:
                for key, inner in value.items():
                    data = cache.get(key)
                    if data is None:
                        data = cache[key] = encode(key)
                    push_str(handle, data)
                    inner_kind = type(inner)
                    if inner_kind is str:
                        data = cache.get(inner)
                        if data is None:
                            data = encode(inner)
                            if len(inner) <= 48:
                                cache[inner] = data
                        push_str(handle, data)
                    elif inner is None:
                        push_null(handle)
                    elif inner_kind is dict or inner_kind is list:
                        push(inner)
                    else:
                        scalar(inner)
                    item(handle)
                self.failed |= make_object(handle, len(value))
            elif kind is list or kind is tuple:
                for inner in value:
                    push(inner)
                self.failed |= make_array(handle, len(value))
            else:
                scalar(value)

        return push


def restore_strings(value: Any, restore: Mapping[str, str]) -> Any:
    """`value` with every string that is an encoded input string replaced by the original."""
    if not restore:
        return value
    if isinstance(value, str):
        return restore.get(value, value)
    if isinstance(value, list):
        return [restore_strings(v, restore) for v in value]
    if isinstance(value, dict):
        return {restore_strings(k, restore): restore_strings(v, restore) for k, v in value.items()}
    return value


def read_node(lib: Any, node: int) -> Any:
    """A result node as a Python value, without trusting the engine's JSON text."""
    kind = lib.regoNodeType(node)
    if kind == BINDING:  # (var, value)
        return read_node(lib, lib.regoNodeGet(node, 1))
    if kind in (TERM, SCALAR):
        return read_node(lib, lib.regoNodeGet(node, 0))
    if kind in (ARRAY, SET):
        return [read_node(lib, lib.regoNodeGet(node, i)) for i in range(lib.regoNodeSize(node))]
    if kind == OBJECT:
        out = {}
        for i in range(lib.regoNodeSize(node)):
            pair = lib.regoNodeGet(node, i)
            key = read_node(lib, lib.regoNodeGet(pair, 0))
            out[key if isinstance(key, str) else json.dumps(key)] = read_node(lib, lib.regoNodeGet(pair, 1))
        return out
    if kind == TRUE:
        return True
    if kind == FALSE:
        return False
    if kind == NULL:
        return None
    text = _value(lib, node)
    if kind == INT:
        return int(text)
    if kind == FLOAT:
        return float(text)
    if kind == STRING:
        if text.startswith('"') and text.endswith('"') and len(text) >= 2:
            text = text[1:-1]
        if "\\" in text:
            try:
                return json.loads(f'"{text}"')
            except ValueError:
                return text
        return text
    raise PolicyError(f"the engine returned a result node of kind {kind}", hint="this is a bug in gatekeeper")


def _value(lib: Any, node: int) -> str:
    size = lib.regoNodeValueSize(node)
    buffer = ctypes.create_string_buffer(size)
    if lib.regoNodeValue(node, buffer, size) != 0:
        raise PolicyError("cannot read a result value from the engine", hint="this is a bug in gatekeeper")
    return buffer.value.decode("utf-8", "surrogateescape")


def output_text(lib: Any, output: int) -> str:
    """The output's JSON text; bytes that are not UTF-8 kept as surrogate escapes, never an exception."""
    size = lib.regoOutputJSONSize(output)
    buffer = ctypes.create_string_buffer(size)
    if lib.regoOutputJSON(output, buffer, size) != 0:
        raise PolicyError("cannot read the result from the engine", hint="this is a bug in gatekeeper")
    return buffer.value.decode("utf-8", "surrogateescape")
