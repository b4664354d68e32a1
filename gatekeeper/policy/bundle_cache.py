"""Bundles already loaded in this process, by the folder and every byte under it.

Loading a bundle parses the manifest, lints every Rego module, reads each policy's `# METADATA` and builds the
classification rules: ~2 ms for the shipped one, paid by every gate. A process that gates many times (the test suite's
in-process gates, `audit replay`) loaded the same bytes again each time. The key is the content, never a path or an
mtime: one walk reads every file and the held load's bytes are compared with them whole (memcmp: 0.23 ms for the
shipped bundle where hashing them for its digest cost 0.42 ms a load), and a changed, added, removed or renamed byte
or file is loaded and checked in full. A bundle past HELD_BYTES is not held (its bytes would stay in memory). A folder
whose contents the walk cannot vouch for is never held: any symbolic link (the loader reads through it, the digest
does not), a `.git` or `__pycache__` folder (the digest skips it, the loader's globs may not), anything but plain
files and folders, or an error reading. A load that fails is never held: its error comes again; nor one whose
parsed Rego texts and rules are not the walk's bytes (`parsed_from`: a file changed and changed back meanwhile).
A folder's first load in a process is the plain one (no walk for a key): a one-gate process (the CLI) pays nothing
for it, and gains nothing."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from gatekeeper.bounded import load_json
from gatekeeper.classify.contextrules import CONTEXT_FILE
from gatekeeper.classify.rules import OVERLAY_DIR, RULES_FILE, bytes_digest
from gatekeeper.classify.ruleset import combined_digest
from gatekeeper.errors import GatekeeperError
from gatekeeper.policy_dir import MANIFEST

T = TypeVar("T")

SKIPPED_DIRS = frozenset({".git", "__pycache__"})  # what bundle_digest leaves out


HELD_BYTES = 4 << 20  # a bundle's files' bytes past which it is not held (the shipped one: ~0.3 MB)

Contents = tuple[tuple[str, bytes], ...]  # (relative path, bytes) of every file, sorted by path


def contents(folder: Path) -> Contents | None:
    """Every file under `folder` with its bytes, when every entry is a plain file or folder, none is a skipped folder
    and they hold no more than HELD_BYTES; None when not, or when anything cannot be read (the caller then loads as
    always)."""
    entries: list[tuple[str, bytes]] = []
    pending = [("", os.fspath(folder))]
    total = 0
    try:
        while pending:
            relative, path = pending.pop()
            with os.scandir(path) as found:
                for entry in found:
                    if entry.is_symlink():
                        return None
                    name = relative + entry.name
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name in SKIPPED_DIRS:
                            return None
                        pending.append((name + "/", entry.path))
                    elif entry.is_file(follow_symlinks=False):
                        with open(entry.path, "rb") as handle:
                            data = handle.read()  # sized by fstat: a read of the cap would allocate it first
                        total += len(data)
                        if total > HELD_BYTES:
                            return None
                        entries.append((name, data))
                    else:  # a socket, a pipe, a device: the plain load decides what it is
                        return None
    except OSError:
        return None
    return tuple(sorted(entries))


def contents_digest(folder: Path) -> str | None:
    """`bundle.bundle_digest(folder)` when `contents` reads the folder; None when it does not."""
    found = contents(folder)
    return None if found is None else digest_of(found)


def digest_of(found: Contents) -> str:
    """The bundle's digest of what `contents` read."""
    return fold([(name, hashlib.sha256(data).hexdigest()) for name, data in found])


def fold(entries: list[tuple[str, str]]) -> str:
    """sha256 over `<relative path>\\0<sha256 of content>\\n` for every (path, content digest), sorted by path: the
    bundle's digest, whichever walk listed its files."""
    outer = hashlib.sha256()
    for relative, inner in sorted(entries):
        outer.update(relative.encode("utf-8", "surrogateescape") + b"\0" + inner.encode("ascii") + b"\n")
    return outer.hexdigest()


class _Digested(Protocol):
    @property
    def digest(self) -> str: ...


class _Listed(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def default(self) -> bool: ...


class Parsed(Protocol):
    """What a bundle load parsed: the manifest's fields, the Rego texts, the rule set (its digest is of its bytes)."""

    @property
    def name(self) -> str: ...
    @property
    def revision(self) -> str: ...
    @property
    def params(self) -> dict[str, Any]: ...
    @property
    def policies(self) -> tuple[_Listed, ...]: ...
    @property
    def modules(self) -> dict[str, str]: ...
    @property
    def rules(self) -> _Digested: ...


def parsed_from(found: Contents, folder: Path, loaded: Parsed) -> bool:
    """Whether what a load parsed (the manifest's fields, each Rego text as read_text read it, the rule set) is
    `found`'s bytes. A walk before and a digest after the load both see A when a file read B in between and A again
    (A-B-A): held, the bundle would give B for the folder's A ever after; this compares what was parsed itself."""
    held = dict(found)
    try:
        manifest = load_json(held.get(MANIFEST, b""), MANIFEST)
        meta = manifest["metadata"]
        listed = {name: bool(entry["default"]) for name, entry in meta["policies"].items()}
        if (meta["name"], manifest["revision"], meta.get("params", {}), listed) != (
                loaded.name, loaded.revision, loaded.params, {p.name: p.default for p in loaded.policies}):
            return False
    except (ValueError, LookupError, TypeError, AttributeError, GatekeeperError):
        return False
    prefix = os.path.join(os.fspath(folder), "")
    for path, source in loaded.modules.items():
        data = held.get(path[len(prefix):].replace(os.sep, "/")) if path.startswith(prefix) else None
        try:
            text = None if data is None else data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError:
            return False
        if text != source:  # read_text's universal newlines, as the loader read it
            return False
    overlays = sorted(name for name in held if name.startswith(f"{OVERLAY_DIR}/") and name.count("/") == 1
                      and not name.rpartition("/")[2].startswith("."))
    if RULES_FILE not in held:
        return False
    files = tuple((name, held[name]) for name in (RULES_FILE, *overlays))
    return loaded.rules.digest == combined_digest(bytes_digest(files), held.get(CONTEXT_FILE))


class Held(Generic[T]):
    """Loaded values by (the folder as named, the folder absolute, the load's options), each with the bytes it was
    loaded from (`contents`): a value is given back only for the very same bytes.

    A folder's first load in a process is not held, nor walked for a key (`seen` says False): a one-gate process
    (the CLI) loads once and would only read every file twice. From its second load on, it is."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._values: dict[tuple[str, str, str], tuple[Contents, T]] = {}
        self._seen: set[tuple[str, str, str]] = set()

    @staticmethod
    def place(folder: Path, options: str) -> tuple[str, str, str]:
        # The folder as named appears in the loaded value (module paths); relative, it depends on the working folder.
        return os.fspath(folder), os.path.abspath(folder), options

    def seen(self, place: tuple[str, str, str]) -> bool:
        """Whether `place` was loaded before in this process (and from now on, it was)."""
        if place in self._seen:
            return True
        if len(self._seen) >= 4 * self._limit:
            self._seen.clear()
        self._seen.add(place)
        return False

    def get(self, place: tuple[str, str, str], found: Contents) -> T | None:
        held = self._values.get(place)
        return held[1] if held is not None and held[0] == found else None

    def put(self, place: tuple[str, str, str], found: Contents, value: T) -> None:
        if len(self._values) >= self._limit and place not in self._values:
            self._values.clear()
        self._values[place] = (found, value)
