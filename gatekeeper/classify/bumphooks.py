"""The hooks bump-my-version runs from a shared manifest (misses 7).

bump-my-version (also run as `bumpversion` and `bump2version`, its older names) runs the shell commands of its
`setup_hooks`, `pre_commit_hooks` and `post_commit_hooks`. Review 66a names the tool's own files
(`.bumpversion.cfg`, `.bumpversion.toml`: toolreads.settings_code) as code; the same keys in `pyproject.toml`'s
`[tool.bumpversion]` or `setup.cfg`'s `[bumpversion]` stay in a manifest that is not CI's, so the commands are read
out of the section and what they run is named, from the root (the tool runs there). The section's text is read
with a pattern, not a TOML/INI parser: a manifest one of them refuses still runs its hooks in a lenient reader, and
a value's quotes and brackets are no path (fail closed: every word of the value is read as a command's).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TypeVar

from gatekeeper.classify import ciruns
from gatekeeper.lazy_pattern import lazy

__all__ = ["MANIFESTS", "hook_commands", "hook_scripts"]

Entry = TypeVar("Entry")  # a tree's entry, which `read` reads

MANIFESTS = ("pyproject.toml", "setup.cfg")
_READ = 1 << 20  # of a manifest: its first MiB (a larger one is past the walk's reads too)
_RUNS = lazy(r"(?<![\w./-])(?:bump-my-version|bumpversion|bump2version)(?=[ \t;&|)'\"]|$)", re.MULTILINE)
_SECTION = lazy(r"^[ \t]*+\[[ \t]*+(?:tool[ \t]*+\.[ \t]*+bumpversion|bumpversion)[ \t]*+\][ \t]*+$", re.MULTILINE)
_HEADER = lazy(r"^[ \t]*+\[", re.MULTILINE)
_KEY = lazy(r"^[ \t]*+([\w.-]++)[ \t]*+[=:]", re.MULTILINE)
_HOOKS = frozenset({"setup_hooks", "pre_commit_hooks", "post_commit_hooks"})
_NOT_A_PATH = lazy(r"[\[\],\"']")


def hook_commands(text: str, manifests: Mapping[str, str]) -> list[str]:
    """The hook values of the bump-my-version sections of `manifests` ({name: text}) when `text` runs the tool."""
    if "bump" not in text or not _RUNS.search(text):
        return []
    found: list[str] = []
    for manifest in manifests.values():
        for section in _SECTION.finditer(manifest):
            following = _HEADER.search(manifest, section.end())
            body = manifest[section.end():following.start() if following else len(manifest)]
            keys = list(_KEY.finditer(body))
            for key, after in zip(keys, [*keys[1:], None], strict=False):
                if key[1] in _HOOKS:
                    found.append(_NOT_A_PATH.sub("\n", body[key.end():after.start() if after else len(body)]))
    return found


def hook_scripts(text: str, tree: Mapping[str, Entry], read: Callable[[Entry], bytes]) -> list[str]:
    """The patterns of what the hooks of the root manifests of `tree` run when `text` runs bump-my-version."""
    if "bump" not in text or not _RUNS.search(text):
        return []
    manifests = {name: read(tree[name])[:_READ].decode("utf-8", "replace") for name in MANIFESTS if name in tree}
    commands = hook_commands(text, manifests)
    return ciruns.named("\n".join(commands))[0] if commands else []
