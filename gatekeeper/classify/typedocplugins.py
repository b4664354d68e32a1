"""The local plugins TypeDoc loads from its options file when CI runs it (misses 8).

`npx typedoc` reads `typedoc.json` (or `typedoc.jsonc`, `.config/typedoc.json`, or the file `--options` names) and
imports each `plugin` entry before it documents a line: a relative one (`./tools/typedoc-plugin.mjs`) is the
repository's code run in the CI job, with Node's other names for it (`./x`: `x.js`, `x/index.js`). So is a
`--plugin ./x` on the command line. A package's name (`typedoc-plugin-markdown`) is a dependency: nothing here. An
options file that cannot be read is named itself (fail closed: its edit is reviewed). TypeDoc's settings modules
(`typedoc.config.mjs`) are code nodeconfigs.py names already.

Review 68a: TypeDoc merges in the options files an options file `extends` (a relative one, in turn: a chain that
loops ends, one past _MAX_EXTENDS files names the next itself) and the `typedocOptions` of tsconfig.json and
package.json (one that names the key and does not parse, tsconfig.json's comments, is named itself); a plugin
`../x` from an options file in a folder is `x` from the root.
Review 68b: each file an `extends` reaches is named itself (its edit changes what loads), and so is a tsconfig.json or
package.json that holds `typedocOptions`; JSONC comments and trailing commas are read as TypeDoc reads them
(autorun.plain_json).
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from gatekeeper.bounded import load_json
from gatekeeper.classify import ciimports, gobuilds
from gatekeeper.classify.autorun import plain_json
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treereads import Read
from gatekeeper.errors import LimitError
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["OPTIONS", "plugins"]

OPTIONS = ("typedoc.json", "typedoc.jsonc", ".config/typedoc.json", ".config/typedoc.jsonc")
_RUN = lazy(r"(?:(?<![\w./@-])|(?<=node_modules/\.bin/))typedoc(?![\w.-])([^\n;&|`)]*+)")
_MAX_PLUGINS = 64  # plugin entries read of one options file
_MAX_EXTENDS = 8  # options files one `extends` chain reads; past it the next is named itself (fail closed)
_SETTINGS = ("tsconfig.json", "package.json")  # TypeDoc reads their `typedocOptions` key too


def plugins(text: str, tree: Mapping[str, TreeEntry], read_blob: Read) -> list[str]:
    """The paths (from the root) of the local plugins the TypeDoc runs of `text` load (their options files' `plugin`
    and `--plugin` entries, the files those `extends`, tsconfig.json's and package.json's `typedocOptions`)."""
    if "typedoc" not in text:
        return []
    found: list[str] = []
    read: dict[tuple[bool, str], list[str]] = {}  # each file read and parsed once per text, however many runs name it
    for match in _RUN.finditer(text):
        if gobuilds.quiet(text, match.start()):
            continue
        words = gobuilds.command_words(match.group(1))
        given = [value for flag, value in zip(words, words[1:], strict=False) if flag == "--options"]
        given += [word.partition("=")[2] for word in words if word.startswith("--options=")]
        found += _loaded("", [value for flag, value in zip(words, words[1:], strict=False) if flag == "--plugin"])
        for options in given or OPTIONS:
            path = options.removeprefix("./")
            if (True, path) not in read:
                read[True, path] = _options(path, tree, read_blob, set())
                found += read[True, path]
        for settings in _SETTINGS:
            if (False, settings) not in read:
                read[False, settings] = _typedoc_key(settings, tree, read_blob)
                found += read[False, settings]
    return list(dict.fromkeys(found))


def _options(path: str, tree: Mapping[str, TreeEntry], read_blob: Read, seen: set[str]) -> list[str]:
    """The local plugins of the options file at `path` and of those it `extends` (relative ones, in turn); the file
    itself when it cannot be read or is past _MAX_EXTENDS. `seen`: the chain's files read (a loop ends there)."""
    entry = tree.get(path)
    if entry is None or path in seen:
        return []
    if len(seen) >= _MAX_EXTENDS:
        return [path]
    seen.add(path)
    options = _json(read_blob(entry), path)
    if not isinstance(options, dict):
        return [path]
    folder = path.rpartition("/")[0]
    bases = _strings(options.get("extends"))
    extended = [posixpath.normpath(posixpath.join(folder, base)) for base in bases if base.startswith(("./", "../"))]
    return _plugins(folder, options) + [found for at in extended
                                        for found in [at, *_options(at, tree, read_blob, seen)]]


def _typedoc_key(path: str, tree: Mapping[str, TreeEntry], read_blob: Read) -> list[str]:
    """The local plugins of the `typedocOptions` of tsconfig.json or package.json at `path`; the file itself when it
    names the key (an edit of it changes what loads; unreadable: fail closed)."""
    entry = tree.get(path)
    data = read_blob(entry) if entry is not None else b""
    if b"typedocOptions" not in data:
        return []
    settings = _json(data, path)
    options = settings.get("typedocOptions") if isinstance(settings, dict) else None
    return [path, *(_plugins(path.rpartition("/")[0], options) if isinstance(options, dict) else [])]


def _json(data: bytes, path: str) -> object:
    """The JSON document `data` (of the file at `path`), or None: past FULL_READ, or not JSON."""
    try:
        text = plain_json(data[:FULL_READ].decode("utf-8", "replace"))  # JSONC, as TypeDoc reads it (review 68b)
        return load_json(text, path) if len(data) <= FULL_READ else None
    except (ValueError, LimitError):
        return None


def _strings(value: object) -> list[str]:
    """An option's string or list of strings, as a list (the first _MAX_PLUGINS)."""
    listed = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [item for item in listed[:_MAX_PLUGINS] if isinstance(item, str)]


def _plugins(folder: str, options: dict[str, object]) -> list[str]:
    """The files Node may load for the relative `plugin` entries of `options`, given in `folder`."""
    return _loaded(folder, _strings(options.get("plugin")))


def _loaded(folder: str, specs: list[str]) -> list[str]:
    """What Node may load for the relative names `specs` given in `folder` (`../x` from `docs/`: `x`; one that leaves
    the tree names nothing)."""
    joined = [posixpath.normpath(posixpath.join(folder, spec)) for spec in specs if spec.startswith(("./", "../"))]
    return ciimports.node_candidates("", [f"./{path}" for path in joined if not path.startswith(("../", "/"))
                                          and path not in ("..", ".")])
