"""The folders lefthook runs a command in: a hook's command's `root:` (misses 10).

lefthook runs a command with `root: frontend/` from that folder (a monorepo's package), so `run: ./scripts/lint.sh`
is `frontend/scripts/lint.sh`. The walk reads a settings file's `run:` commands as any CI text (taskrunners.py names
the file where CI runs `lefthook run`); these folders join the ones its commands `cd` to (ciruns.bases), for YAML
(`root: web`), TOML (`root = "web"`) and JSON (`"root": "web"`) settings alike, and a list item's (lefthook 1.10's
`jobs:` list, `- root: web`; review 70); also in a file lefthook's `extends:` pulls in, whatever its name, read as
lefthook's by its text (a hook's name as a top-level key, `commands:`/`jobs:`/`scripts:` below: misses 11). A root
out of the tree (`/x`, `../x`) or with a variable part names nothing more; past MAX_ROOTS the rest are not read (each
is only one more base of the same words: the root and the file's folder stay bases).
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify import taskrunners
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_ROOTS", "roots"]

_ROOT = lazy(r"""(?:^|[{,])[ \t]*+(?:-[ \t]++)?+["']?+root["']?+[ \t]*+[:=][ \t]*+"""
             r"""(?:"([^"\n]{1,256}+)"|'([^'\n]{1,256}+)'"""
             r"""|([^\s"'#,{}\[\]][^\s#,{}\[\]]{0,255}+))""", re.MULTILINE)
MAX_ROOTS = 64
# lefthook's settings by their text (misses 11: a file `extends:` pulls in, any name): a git hook's name as a top-level
# key, and a hook's `commands:`, `jobs:` or `scripts:`
_HOOK = lazy(r"^(?:pre-commit|pre-push|commit-msg|prepare-commit-msg|post-commit|post-checkout|post-merge|pre-rebase"
             r"|post-rewrite|pre-merge-commit|pre-auto-gc|applypatch-msg|pre-applypatch|post-applypatch)[ \t]*+:",
             re.MULTILINE)
_JOBS = lazy(r"^[ \t]++(?:commands|jobs|scripts)[ \t]*+:", re.MULTILINE)


def roots(path: str, text: str) -> list[str]:
    """The folders (from the settings file's folder) the commands of `text`, lefthook's settings at `path`, run in."""
    if "root" not in text or not taskrunners.is_lefthook(path.rpartition("/")[2]) and (
            _HOOK.search(text) is None or _JOBS.search(text) is None):
        return []
    found: list[str] = []
    for hit in _ROOT.finditer(text):
        folder = posixpath.normpath((hit[1] or hit[2] or hit[3]).strip())
        if not folder.startswith(("../", "/", "$", "{")) and folder not in (".", "..") and "{" not in folder:
            found.append(folder)
        if len(found) >= MAX_ROOTS:
            break
    return list(dict.fromkeys(found))
