"""A part of a policy input that the gate is still computing when the engine child starts.

Handing a 10,000-file input to the engine is C work in the child (~1 s of CPU: every JSON node is a call),
while the gate still has work of its own (re-deriving a patch-only packet's claims, comparing them). A `Late`
stands in the input for the value that work yields: the child builds everything before it (the `files`
array) and then waits for the value on a pipe; the parent computes it meanwhile and `put`s it. The parent's
own copy of the input gets the value too (`Late.fill`), so what it digests and reports is the same document.

The child stops waiting when the pipe closes (the parent failed or died: the evaluation is cancelled anyway) and
under the same time limit as the whole evaluation.
"""

from __future__ import annotations

import os
import pickle
import struct
import threading
from typing import Any

_LENGTH = struct.Struct("<Q")


class LateValueMissing(Exception):
    """The parent closed the pipe without a value (it failed before computing it)."""


class Late:
    """A value the parent `put`s after forking the child that `get`s it (once each)."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        self._parent_read_open = True

    def forked(self) -> None:
        """In the parent, once the child exists (or none will): the parent never reads, so a `put` to a child
        that is gone ends with a broken pipe instead of blocking."""
        if self._parent_read_open:
            self._parent_read_open = False
            os.close(self._read)

    def put(self, value: Any) -> None:
        """In the parent: send `value` to the child (a thread writes it: a large value never blocks the gate)."""
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        fd, self._write = self._write, -1
        self.forked()
        threading.Thread(target=_write_all, args=(fd, _LENGTH.pack(len(data)) + data), daemon=True,
                         name="gatekeeper-late-input").start()

    def close(self) -> None:
        """In the parent, when no value will come: the child's read ends (LateValueMissing there)."""
        self.forked()
        if self._write >= 0:
            os.close(self._write)
            self._write = -1

    def get(self) -> Any:
        """In the child: wait for the parent's value."""
        if self._write >= 0:
            os.close(self._write)  # our copy of the write end: the pipe must close when the parent's does
            self._write = -1
        data = bytearray()
        size: int | None = None
        while size is None or len(data) < _LENGTH.size + size:  # exactly one value: other children may hold the pipe
            chunk = os.read(self._read, 1 << 16)
            if not chunk:
                os.close(self._read)
                raise LateValueMissing("the gate did not hand over the rest of the policy input")
            data += chunk
            if size is None and len(data) >= _LENGTH.size:
                (size,) = _LENGTH.unpack_from(data)
        os.close(self._read)
        return pickle.loads(data[_LENGTH.size:])


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view):]
    except OSError:  # the child is gone: its evaluation reports that, not this thread
        pass
    finally:
        os.close(fd)
