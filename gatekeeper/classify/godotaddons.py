"""Plugins vendored into a Godot project's `addons/` folder (the thirty-sixth and thirty-eighth sets).

Godot loads editor and game plugins from `res://addons/<plugin>/`, and the Asset Library installs third-party plugins
there by copying them in: Dialogic in a role-playing game, gdUnit4 in a plugin's own repository, a GIF exporter in a
pixel-art editor. Those copies are dependency code (`deps`), as `vendor/` is. A plugin's own repository keeps the
plugin it develops in the same folder, beside a demo project (Pandora's `addons/pandora`, Escoria's
`addons/escoria-core` in the Escoria project): that one is the project's source.

The project names itself in `project.godot` (`config/name="Pandora"`). A file below `<root>/addons/<plugin>/`, where
`<root>/project.godot` exists in either tree, is `deps` (`deps.context.godot-addon`) when the plugin's folder name and
the project's name share no word; a word of three letters or more counts (`escoria-core` and "Escoria" share one,
`gdUnit4` and "Pandora" none). Only src and other are raised: a workflow, chart or Dockerfile there keeps its bucket.
*Limits:* with the commits only (a patch does not show `project.godot`); a project named unlike the plugin it develops
(a demo named "Demo" beside `addons/fancy_tool/`) reads that plugin as vendored.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["RULE", "Addons"]

RULE = "deps.context.godot-addon"
_READ = 64 * 1024  # project.godot's [application] section comes first
_NAME = lazy(rb'^config/name[ \t]*=[ \t]*"([^"\r\n]{0,200})"', re.MULTILINE)
_WORD = lazy(r"[a-z0-9]+")
_GENERIC = frozenset({"godot", "addon", "addons", "plugin", "plugins", "the", "and", "for"})
Tree = dict[str, TreeEntry]


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower().replace("'", "")) if len(w) >= 3 and w not in _GENERIC}


class Addons:
    """The Godot projects of `trees` and their names, read on first use; `evidence` says whether a path is a plugin
    vendored into one of them."""

    def __init__(self, trees: tuple[Tree, ...], read: Callable[[TreeEntry], bytes]) -> None:
        self._trees = trees
        self._read = read
        self._names: dict[str, set[str] | None] = {}  # a project's root: the words of its name (None: no project)

    def evidence(self, path: str) -> str | None:
        """`ADDON is a plugin of the Godot project ROOT/project.godot ("NAME")`, or None."""
        if "addons/" not in path:  # no folder of it is an addons/ (most paths: at once)
            return None
        parts = path.split("/")
        for i, part in enumerate(parts[:-2]):
            if part != "addons":
                continue
            root = "/".join(parts[:i])
            project = f"{root}/project.godot" if root else "project.godot"
            words = self._project_words(project)
            if words is None:
                continue
            plugin = parts[i + 1]
            if not _words(plugin) & words:
                named = " ".join(sorted(words)) or "no name"
                return f"{plugin} is a plugin in the addons/ of the Godot project {project} ({named}), not named " \
                       "after it: a vendored plugin"
            return None
        return None

    def _project_words(self, project: str) -> set[str] | None:
        if project not in self._names:
            self._names[project] = None
            for tree in self._trees:
                if (entry := tree.get(project)) is not None:
                    found = _NAME.search(self._read(entry)[:_READ])
                    self._names[project] = _words(found.group(1).decode("utf-8", "replace")) if found else set()
                    break
        return self._names[project]
