"""The PHP classes a Composer script CI runs calls (misses 7).

`composer run-script ci` (`composer ci`, `composer run ci`, and the event scripts `composer install` fires) runs
`scripts.ci` of composer.json. A value that is a static method, `Vendor\\Ns\\Class::method`, is a PHP callback:
Composer loads the class through the project's autoload map and calls it, so the class's file is the job's code,
as a `php tools/x.php` command's file is. The class's file is found as Composer finds it: `psr-4` (the namespace
prefix's folders, then the rest of the name's parts), `psr-0` (the folder, then the whole name's parts, `_` a
folder too), in `autoload` and `autoload-dev`. A class no prefix maps, or a manifest that cannot be read, is named
by its short name anywhere (`*/Class.php`: a `classmap` folder, or a dependency's own, fail closed). The walk
reads every script of a composer.json CI reaches (tasktexts.restricted keeps package.json's only), so its callbacks
too.
"""

from __future__ import annotations

import posixpath

from gatekeeper.bounded import load_json
from gatekeeper.classify.pipinstalls import ANY
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_CLASSES", "class_files", "classes"]

MAX_CLASSES = 64  # callbacks read of one manifest; past it the rest name nothing (a real one has a few)
# a JSON string that is all a static method: `"App\\Ci::run"` (JSON doubles the backslash)
_CALLBACK = lazy(r'"((?:[A-Za-z_]\w{0,255}+\\\\){0,32}+[A-Za-z_]\w{0,255}+)::[A-Za-z_]\w{0,255}+"')


def classes(path: str, text: str, manifest: str | bytes) -> list[str]:
    """The paths (or patterns) of the PHP files of the classes whose static methods `text`, the scripts of the
    composer.json at `path` a caller runs, names; `manifest` is that file's whole text (its autoload map)."""
    if path.rpartition("/")[2] != "composer.json" or "::" not in text:
        return []
    names = [hit.replace("\\\\", "\\") for hit in _CALLBACK.findall(text)[:MAX_CLASSES]]
    if not names:
        return []
    found: list[str] = []
    for name, files in class_files(path.rpartition("/")[0], names, manifest):
        short = name.rpartition("\\")[2]
        found += files or [f"{ANY}/{short}.php", f"{short}.php"]
    return list(dict.fromkeys(found))


def class_files(folder: str, names: list[str], manifest: str | bytes) -> list[tuple[str, list[str] | None]]:
    """[(a class name of `names`, the files the autoload map of the composer.json in `folder`, `manifest`, gives it:
    none when no prefix maps it; None when the manifest cannot be read)]."""
    prefixes = _prefixes(manifest)
    if prefixes is None:
        return [(name, None) for name in dict.fromkeys(names)]
    return [(name, [file for kind, prefix, base in prefixes if name.startswith(prefix)
                    and (file := _file(folder, base, name[len(prefix):] if kind == "psr-4" else name, kind))])
            for name in dict.fromkeys(names)]


def _prefixes(manifest: str | bytes) -> list[tuple[str, str, str]] | None:
    """(psr-4 or psr-0, a namespace prefix, a folder) of the manifest's autoload maps; None when unreadable."""
    try:
        data = load_json(manifest, "composer.json")
    except (LimitError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    found = []
    for section in ("autoload", "autoload-dev"):
        mapping = data.get(section) if isinstance(data, dict) else None
        for kind in ("psr-4", "psr-0"):
            table = mapping.get(kind) if isinstance(mapping, dict) else None
            for prefix, folders in (table.items() if isinstance(table, dict) else ()):
                for base in folders if isinstance(folders, list) else [folders]:
                    if isinstance(prefix, str) and isinstance(base, str):
                        found.append((kind, prefix, base))
    return found


def _file(folder: str, base: str, rest: str, kind: str) -> str:
    """The file of class part `rest` below `base` (from the manifest's folder), or "" above the root."""
    parts = rest.split("\\")
    if kind == "psr-0":
        parts[-1] = parts[-1].replace("_", "/")
    joined = posixpath.normpath(posixpath.join(folder, base.replace("\\", "/"), "/".join(parts) + ".php"))
    return "" if joined.startswith(("../", "/")) or base.startswith("/") else joined
