"""Patch files a JavaScript package manager applies to an installed package, whatever their names and folders (issues
12 and 14, docs review 52).

- pnpm: every value of `patchedDependencies` (package.json's `pnpm` key, or pnpm-workspace.yaml), relative to the
  manifest's folder: pnpm applies the file to the package on each install.
- Bun: a top-level `patchedDependencies` in package.json, the same way.
- Yarn: a `patch:` descriptor in any dependency map or `resolutions` (`patch:left-pad@npm%3A1.3.0#./fix.patch`): the
  paths after `#` (several joined by `&`, parameters after `::`; `~/` is the project's root, taken as the repository's;
  `optional!builtin<...>` names no file).
- vcpkg: a port's `portfile.cmake` applies the files its `PATCHES` list names, from the port's folder, `.diff` ones
  too (`deps.patch-files` leaves `.diff` out: 557 of them in microsoft/vcpkg's ports were `src`); every `.patch` or
  `.diff` name outside a comment counts.
- Bazel: a quoted `.patch`/`.diff` label in a `MODULE.bazel`, `WORKSPACE` or `.bzl` file (`patches = [...]` of
  http_archive, single_version_override: bazel-gazelle's `tests/bcr/go_mod/patches/testify.patch`, once `src`).
- Nix: a path literal `./fix.patch` in a `.nix` file (`patches = [ ./fix.patch ]`).

Such a file is what an install runs into a dependency's code, so it is `deps` (`deps.context.applied-patch`, evidence
`MANIFEST:LINE applies PATH`), though its path says test data (`tests/x.patch`, `src.own-patch-files`) or nothing.
Both trees are read (a change cannot drop the naming line to escape), only manifests that mention `patch` and that
the rule set does not call test data (a fixture's package.json). A manifest
that does not parse (a patch's hunk, broken JSON) is read line by line, failing closed: a quoted value on a line whose
key is `name@version`, a path after a `patch:` descriptor's `#`, and any value ending in `.patch` or `.diff`. Past
MAX_READ manifests a tree, or at one longer than is read, every changed `.patch` or `.diff` file counts as applied
(*limit:* a patch of another name in such a tree is not found).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator
from typing import Any

import yaml

from gatekeeper.bounded import load_json, load_yaml
from gatekeeper.classify.change import folded
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treepaths import where
from gatekeeper.classify.treereads import Read, Tree
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import Match

__all__ = ["MAX_READ", "RULE", "Applied", "is_manifest", "named"]

RULE = "deps.context.applied-patch"
MAX_READ = 5_000  # package.json and pnpm-workspace.yaml files read per tree

_MANIFESTS = frozenset({"package.json", "pnpm-workspace.yaml", "pnpm-workspace.yml"})
_PATCHING = frozenset({"portfile.cmake", "module.bazel", "workspace", "workspace.bazel", "workspace.bzlmod"})
_BAZEL_PATCH = lazy(r"""["']([^"'\s]+\.(?:patch|diff))["']""", re.IGNORECASE)
_NIX_PATCH = lazy(r"""(?<![\w/.])(\.{1,2}/[^\s;\])}"']+\.(?:patch|diff))(?![\w.])""", re.IGNORECASE)
_DEPENDENCY_MAPS = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "resolutions",
                    "overrides")
_QUOTED = lazy(r"""["']([^"'\n]+)["']""")
_KEYED = lazy(r"""^\s*["']?(@?[\w.-]+(?:/[\w.-]+)?@[^"':\s]+)["']?\s*:\s*["']?([^"'\s,#]+)""")
_PATCH_ENDINGS = (".patch", ".diff")
# A vcpkg port's patch: a `.patch` or `.diff` name (its folder's, or `${CMAKE_CURRENT_LIST_DIR}/...`) anywhere in it.
# A name starts a word (or follows the folder variable): tried at every character of a long word, the name's run
# was read to the word's end each time (quadratic).
_PORT_PATCH = lazy(r"""(?:\$\{CMAKE_CURRENT_LIST_DIR\}/|(?<![^\s"'()$;]))"""
                         r"""([^\s"'()$;]+\.(?:patch|diff))(?![\w.])""",
                         re.IGNORECASE)


def is_manifest(path: str) -> bool:
    """Whether `path` is a manifest this module reads (package.json, pnpm-workspace.yaml, a vcpkg portfile, a Bazel
    module, workspace or .bzl file, a Nix file)."""
    name = path.rpartition("/")[2].lower()
    return name in _MANIFESTS or _is_port(path)


def named(path: str, text: str) -> list[tuple[str, int]]:
    """(repository path, line number) of each file the manifest at `path` (its `text`) has a package manager apply as
    a patch; URLs, absolute paths and paths above the root name nothing."""
    folder = path.rpartition("/")[0]
    if _is_port(path):
        name = path.rpartition("/")[2].lower()
        root = folder if name in _PATCHING or name.endswith(".module.bazel") else ""  # a module's `//` is its folder
        pattern, resolve = (_PORT_PATCH, _resolved) if name.endswith(".cmake") else (_NIX_PATCH, _resolved) \
            if name.endswith(".nix") else (_BAZEL_PATCH, lambda here, value: _label(here, value, root))
        return [(resolved, number) for number, line in enumerate(text.splitlines(), 1) if (".patch" in line.lower() or
                ".diff" in line.lower()) and not line.lstrip().startswith("#") for value in pattern.findall(line)
                if (resolved := resolve(folder, value)) is not None]
    try:
        data = load_yaml(text, path) if path.lower().endswith((".yaml", ".yml")) else load_json(text, path)
        values = list(_values(data)) if isinstance(data, dict) else None
    except (ValueError, yaml.YAMLError, LimitError, RecursionError):
        values = None  # read line by line (fail closed)
    out: list[tuple[str, int]] = []
    lines = text.splitlines()
    for value in values if values is not None else _line_values(lines):
        for relative in _paths(value):
            base = "" if relative.startswith("~/") else folder
            resolved = _resolved(base, relative.removeprefix("~/"))
            if resolved is not None:
                number = next((n for n, line in enumerate(lines, 1) if relative in line), 1)
                out.append((resolved, number))
    return list(dict.fromkeys(out))


def _values(data: dict[str, Any]) -> Iterator[str]:
    """The patch values of a parsed manifest: `patchedDependencies` (top level or under `pnpm`), `patch:` specs."""
    pnpm = data.get("pnpm")
    for patched in (data.get("patchedDependencies"), pnpm.get("patchedDependencies") if isinstance(pnpm, dict) else 0):
        if isinstance(patched, dict):
            yield from (f"#{value}" for value in patched.values() if isinstance(value, str))
    maps = [data.get(key) for key in _DEPENDENCY_MAPS] + [pnpm.get("overrides") if isinstance(pnpm, dict) else None]
    for spec_map in maps:
        if isinstance(spec_map, dict):
            yield from (value for value in spec_map.values() if isinstance(value, str) and value.startswith("patch:"))


def _line_values(lines: list[str]) -> Iterator[str]:
    for line in lines:
        if (keyed := _KEYED.match(line)) is not None and not keyed.group(2).startswith("patch:"):
            yield f"#{keyed.group(2)}"
        for value in _QUOTED.findall(line) or line.split():
            if "patch:" in value:
                yield value[value.index("patch:"):]
            elif value.lower().endswith(_PATCH_ENDINGS):
                yield f"#{value}"


def _paths(value: str) -> list[str]:
    """The file paths of a `patch:` spec or of a `#PATH` value (a patchedDependencies entry)."""
    _source, hash_mark, rest = value.partition("#")
    if not hash_mark:
        return []
    rest = rest.partition("::")[0]
    return [part.replace("%3A", ":").replace("%3a", ":") for part in rest.split("&")
            if part and "!" not in part and "<" not in part]


def _resolved(folder: str, value: str) -> str | None:
    value = value.strip()
    if not value or "://" in value or value.startswith(("/", "~")) or any(c in value for c in "\\$*?{}"):
        return None
    joined = posixpath.normpath(posixpath.join(folder, value))
    return None if joined.startswith("..") or joined in (".", "") else joined


def applied(trees: tuple[Tree, ...], read_blob: Read, match: Callable[[str], Match] | None = None,
            ports: bool = False) -> dict[str, str] | bool:
    """{path a manifest of either tree has applied as a patch: "MANIFEST:LINE"}; False past the bounds. With `match`
    (the rule set's), a manifest it calls test data (`testdata.*`) does not count, nor what it names (pnpm's own
    `test/fixtures/simple-with-patch/`). `ports`: the files that name only `.patch`/`.diff` files (vcpkg, Bazel, Nix),
    else the JavaScript ones."""
    found: dict[str, str] = {}
    read: set[tuple[str, str]] = set()  # (path, blob): the trees share most manifests, each is read once
    counts: dict[str, bool] = {}  # by path: does the rule set call the manifest deps (asked only of one naming patches)
    for tree in trees:
        manifests = where(trees, tree, _is_port if ports else _is_package)
        if len(manifests) > MAX_READ:
            return False
        for path in manifests:
            entry = tree[path]
            if not entry.mode.startswith("10") or (path, entry.oid) in read:
                continue  # a symlink or submodule (*limit*: not followed), or read in another tree
            read.add((path, entry.oid))
            data = read_blob(entry)
            if b"patch" not in data and b"PATCH" not in data:
                continue
            if match is not None and path not in counts:
                counts[path] = not match(path).rule.startswith("testdata.")
            if match is not None and not counts[path]:
                continue
            if len(data) > FULL_READ:
                return False
            for target, number in named(path, data.decode("utf-8", "replace")):
                found.setdefault(target, f"{path}:{number}")
    return found


class Applied:
    """What the manifests of a TreeContext's trees have applied as patches (`applied`), read on first use (vcpkg's
    portfiles, which name only `.patch` and `.diff` files, at the first such file asked about: microsoft/vcpkg's ~2,700
    cost 0.11 s of CPU for two trees); looked up under any spelling a folding checkout opens (change.folded)."""

    def __init__(self, trees: tuple[Tree, ...], read_blob: Read, match: Callable[[str], Match] | None) -> None:
        self._trees, self._read_blob, self._match = trees, read_blob, match
        self._found: dict[bool, dict[str, str] | bool] = {}  # by `ports`
        self._folded: dict[bool, dict[str, str]] = {}

    def evidence(self, sides: list[str]) -> str | None:
        """"MANIFEST:LINE applies PATH" for the first of `sides` a manifest applies; past the bounds, a .patch/.diff."""
        for ports in (False, True) if any(side.lower().endswith(_PATCH_ENDINGS) for side in sides) else (False,):
            if ports not in self._found:
                found = self._found[ports] = applied(self._trees, self._read_blob, self._match, ports)
                self._folded[ports] = {folded(path): path for path in found} if isinstance(found, dict) else {}
            found = self._found[ports]
            for side in sides:
                if not isinstance(found, dict):
                    if side.lower().endswith(_PATCH_ENDINGS):
                        return f"more than {MAX_READ} manifests (or a longer one): any may be what applies {side}"
                elif found and (spelled := self._folded[ports].get(folded(side))) is not None:  # none: no fold
                    return f"{found[spelled]} applies {spelled}"
        return None


def _is_port(path: str) -> bool:
    """A file that names patches by a `.patch` or `.diff` name: a vcpkg portfile, a Bazel module, workspace or .bzl
    file (`patches = ["//third_party:fix.patch"]` of http_archive, single_version_override, ...), a Nix file
    (`patches = [ ./fix.patch ]`)."""
    name = path.rpartition("/")[2].lower()
    return name in _PATCHING or name.endswith((".bzl", ".module.bazel", ".nix"))


def _label(folder: str, value: str, root: str) -> str | None:
    """The repository path of a Bazel label (`//pkg:f.patch` below `root`, `@//pkg:f.patch`, `:f.patch`, `f.patch`:
    the file's package taken as the folder of the file naming it); another repository's (`@name//...`) is none."""
    value = value.removeprefix("@@").removeprefix("@") if value.startswith(("@//", "@@//")) else value
    if value.startswith("@"):
        return None
    if value.startswith("//"):
        package, _, name = value[2:].partition(":")
        return _resolved(root, posixpath.join(package, name) if name else package)
    return _resolved(folder, value.removeprefix(":"))


def _is_package(path: str) -> bool:
    return is_manifest(path) and not _is_port(path)
