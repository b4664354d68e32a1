"""The Python modules a file's `from` imports load that ciimports' names-from-its-folder reading missed (attack 46).

- `from tools import noxhelp` loads the submodule `tools/noxhelp.py` where it is one (a name of the module otherwise:
  a path the tree lacks names nothing);
- a relative import (`from .helpers import make`, `from ..shared import db`, `from . import fixtures`) of a
  `conftest.py`, which pytest imports as its package's module, loads its module from that package, where that lands
  in a test folder (a conftest inside the product's package importing the product: the product stays what it is; another
  file's relative import is a package's module's, the product's: redteam12's `package-relative` stays what it is);
  so does a test folder's module's (one a conftest imports, read in turn: `from .factories import make` in
  `tests/helpers/db.py`; attack 48);
- a `conftest.py` is imported with the root on `sys.path` (`python -m pytest`; rootdir-based insertion), so its
  absolute imports resolve from the root as well as from its folder (`import tests.helpers` in `tests/conftest.py`);
- an absolute import whose first name is a folder the file is in (`from scripts.lib import x` in `scripts/release.py`,
  run as `python -m scripts.release` or with `PYTHONPATH=.`) resolves from that folder's parent (ancestors; misses 10);
- a relative import of a module in a tooling folder (is_tooling: `from .lib import notes` in `scripts/release.py`, run
  as `python -m scripts.release`) loads its package's module where that stays in a tooling folder (misses 11; a
  product package's relative imports, and one that climbs out of the tooling folders, stay unread).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_FROMS", "TOOL_FOLDERS", "ancestors", "is_tooling", "loaded", "roots"]

# `from [dots][module] import names`: the names to the line's end, or within parentheses over lines
_FROM = lazy(r"^[ \t]*+from[ \t]++(\.*+)([A-Za-z_][\w.]{0,255}+)?[ \t]++import[ \t]*+"
             r"(\([^)]{0,4096}+|[^\n#;]{0,1024}+)", re.MULTILINE)
_NAME = lazy(r"([A-Za-z_]\w{0,255}+)(?:[ \t\n]++as[ \t\n]++\w++)?+")
MAX_FROMS = 256  # `from` statements read of one file (then: any module below its folder, ciimports.ANY)
# the folders of a project's tooling, not its product (misses 10: a module found from one of them, or a climb that stays
# below one, is the tooling's helper; `octobot/cli.py` importing `octobot.api`, `src/server.js` loading
# `../components/app`, are the product's)
TOOL_FOLDERS = frozenset({"scripts", "script", "tools", "tool", "tooling", "ci", ".ci", "build", "dev", "devtools",
                          "dev-tools", "hack", "tasks", "bin", "release", "releng", "automation", ".github",
                          ".circleci", ".buildkite", ".gitlab"})


def is_tooling(folder: str) -> bool:
    """Whether a part of `folder` is a tooling folder's name (TOOL_FOLDERS, any case)."""
    return any(part.lower() in TOOL_FOLDERS for part in folder.split("/")) if folder else False


def _tooling_package(folder: str) -> bool:
    """Whether a part of `folder` is a tooling folder's name as written (`scripts`, `tools`): a package spelt `Build`
    (Cython's `Cython/Build/`) is the product's (misses 11: over the mirrors, its relative imports read as `ci`)."""
    return any(part in TOOL_FOLDERS for part in folder.split("/")) if folder else False


def roots(path: str) -> list[str]:
    """The folders the absolute imports of the Python file at `path` resolve from: its own, and the root for a
    `conftest.py` (pytest imports it with the root on `sys.path`)."""
    folder, _, name = path.rpartition("/")
    return [folder, ""] if name == "conftest.py" and folder else [folder]


MAX_ANCESTORS = 8  # bases one import resolves from (ancestors)


def ancestors(folder: str, module: str) -> list[str]:
    """The folders an absolute import `module` of a file in `folder` resolves from when its first name is a folder
    the file is in (`from scripts.lib import x` in `scripts/release.py`: run from the root with it on `sys.path`,
    `python -m scripts.release` or `PYTHONPATH=.`; misses 10): that folder's parent, for each such folder that is or
    is below a tooling folder (is_tooling; a product package's script importing the package is the product's). At most
    MAX_ANCESTORS, the outermost and innermost: one walk of the folder's parts (review 69b)."""
    first = module.partition(".")[0]
    parts = folder.split("/") if folder and first else []
    found: list[int] = []
    tooling = False  # whether a part so far is a tooling folder's name: one walk, not a prefix built at each part
    for at, part in enumerate(parts):
        tooling = tooling or part.lower() in TOOL_FOLDERS
        if part == first and tooling:
            found.append(at)
    # a folder spelling the name at every depth (a hostile tree: quadratic, review 69b): the outermost and innermost
    half = MAX_ANCESTORS // 2
    kept = found if len(found) <= MAX_ANCESTORS else [*found[:half], *found[-half:]]
    return ["/".join(parts[:at]) for at in kept]


def loaded(path: str, text: str, from_root: Callable[[str], bool]) -> list[str] | None:
    """The paths (from the root) the `from` imports of the Python file at `path` may load as submodules or relative
    modules (a conftest.py's resolved from the root or relative: where `from_root` keeps them, a test folder's); None
    past MAX_FROMS (fail wide: the caller names any module)."""
    if "from" not in text:
        return []
    folder = path.rpartition("/")[0]
    out: list[str] = []
    for count, (dots, module, names) in enumerate(_FROM.findall(text)):
        if count >= MAX_FROMS:
            return None
        stem = module.replace(".", "/")
        targets = ([stem] if stem and dots else []) + [f"{stem}/{name}" if stem else name
                                                       for name in _NAME.findall(names.lstrip("("))]
        if dots and not (path.endswith("conftest.py") or from_root(folder + "/") or _tooling_package(folder)):
            continue  # a product script's relative import: a package's module, the product (redteam12's LEFT); a
            # test folder's module (one a conftest imports, in turn) loads its package's helpers (attack 48)
        if dots:  # `.`: the file's own package; each further dot one folder up
            parts = folder.split("/") if folder else []
            if len(dots) - 1 > len(parts):
                continue
            bases = ["/".join(parts[:len(parts) - (len(dots) - 1)])]
        else:  # from the root (a conftest.py's): a test folder's helpers only (the product stays what it is)
            bases = roots(path)
        above = [] if dots else ancestors(folder, module)  # a folder the file is in, from its parent
        for base in [*bases, *above]:
            for target in targets:
                at = posixpath.normpath(posixpath.join(base, target))
                if not at.startswith(("../", "/")) and at not in (".", "..") and (
                        base == folder and not dots or not folder and not dots or base in above
                        or from_root(at + "/") or dots and _tooling_package(posixpath.dirname(at))):
                    out += [f"{at}.py", f"{at}/__init__.py"]
    return list(dict.fromkeys(out))
