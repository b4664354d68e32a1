"""In-tree PEP 517 build backends: the code a build frontend imports from the project's own folders (issue 12: the
seventy-eighth set).

`[build-system] backend-path = ["build_backend"]` puts that folder first on the path of every build of the project
(`pip install .`, `python -m build`, a CI job's wheel build) and `build-backend = "cython_backend"` imports a module
from it, which may import the folder's other modules (psycopg_c's `build_backend/psycopg_build_ext.py`, named by
`[tool.setuptools.cmdclass]`). They are build hooks, as `setup.py` is (red team 37's `deps.build-hooks`), and were
`src`. `included(trees, read_blob)`: {every `.py` file below a backend folder of a pyproject.toml: "PYPROJECT:LINE"};
for the project's own folder (`backend-path = ["."]`, flit_core's) or a folder that is a package of the product
(`backend-path = ["maturin"]`, whose `__init__.py` is maturin's) only the backend module, so that the product's code
stays what it is. False past MAX_PROJECTS pyproject files or at one longer than is read (every changed file counts).
"""

from __future__ import annotations

import posixpath
import tomllib
from typing import Any

from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treereads import Read, Tree

__all__ = ["MAX_PROJECTS", "included"]

MAX_PROJECTS = 2_000  # pyproject.toml files read a tree; past it every changed file counts as read (fail closed)


def included(trees: tuple[Tree, ...], read_blob: Read) -> dict[str, str] | bool:
    """{a backend module or a file of a backend folder: "pyproject.toml:LINE"} of either tree; False past the bounds."""
    found: dict[str, str] = {}
    for tree in trees:
        projects = [path for path in tree if path == "pyproject.toml" or path.endswith("/pyproject.toml")]
        if len(projects) > MAX_PROJECTS:
            return False
        for path in projects:
            entry = tree[path]
            if not entry.mode.startswith("10"):
                continue
            data = read_blob(entry)
            if len(data) > FULL_READ:
                return False
            text = data.decode("utf-8", "replace")
            if "backend-path" in text:
                for name in _backend_files(tree, path, text):
                    found.setdefault(name, f"{path}:{_line(text)}")
    return found


def _backend_files(tree: Tree, path: str, text: str) -> list[str]:
    try:
        system: Any = tomllib.loads(text).get("build-system")
    except (tomllib.TOMLDecodeError, ValueError):
        return []
    folders = system.get("backend-path") if isinstance(system, dict) else None
    backend = system.get("build-backend") if isinstance(system, dict) else None
    if not isinstance(folders, list):
        return []
    module = backend.partition(":")[0].strip().replace(".", "/") if isinstance(backend, str) else ""
    base = path.rpartition("/")[0]
    out: list[str] = []
    for value in folders[:16]:
        if not isinstance(value, str):
            continue
        folder = posixpath.normpath(posixpath.join(base, value))
        if folder.startswith("..") or folder.startswith("/"):
            continue
        folder = "" if folder == "." else folder
        prefix = f"{folder}/" if folder else ""
        if folder == base or f"{prefix}__init__.py" in tree:
            # the project's own folder, or a package of the product (maturin's `maturin/`): only the backend module
            names = (f"{prefix}{module}.py", f"{prefix}{module}/__init__.py") if module else ()
            out += [name for name in names if name in tree]
        else:
            out += [name for name in tree if name.startswith(f"{folder}/") and name.endswith(".py")]
    return out


def _line(text: str) -> int:
    return next((number for number, line in enumerate(text.splitlines(), 1) if "backend-path" in line), 1)
