"""The local plugins TypeDoc loads from its options file when CI runs it (misses 8).

`npx typedoc` reads `typedoc.json` (or `typedoc.jsonc`, `.config/typedoc.json`, or the file `--options` names) and
imports each `plugin` entry before it documents a line: a relative one (`./tools/typedoc-plugin.mjs`) is the
repository's code run in the CI job, with Node's other names for it (`./x`: `x.js`, `x/index.js`). So is a
`--plugin ./x` on the command line. A package's name (`typedoc-plugin-markdown`) is a dependency: nothing here. An
options file that cannot be read is named itself (fail closed: its edit is reviewed). TypeDoc's settings modules
(`typedoc.config.mjs`) are code nodeconfigs.py names already. Review 68b: the options files an options file
`extends` (`"./typedoc.base.json"`, followed up to 8 deep, each named itself), and the `typedocOptions` of tsconfig.json
and package.json; JSONC comments and trailing commas are read as TypeDoc reads them.
"""

from __future__ import annotations

import posixpath

from gatekeeper.bounded import load_json
from gatekeeper.classify import ciimports, gobuilds
from gatekeeper.classify.autorun import plain_json
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treereads import Read, Tree
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

__all__ = ["OPTIONS", "plugins"]

OPTIONS = ("typedoc.json", "typedoc.jsonc", ".config/typedoc.json", ".config/typedoc.jsonc")
HOSTS = ("tsconfig.json", "package.json")  # files whose `typedocOptions` TypeDoc reads too
_MAX_EXTENDS = 8  # `extends` followed from one options file (past it: the file itself, fail closed)
_RUN = lazy(r"(?:(?<![\w./@-])|(?<=node_modules/\.bin/))typedoc(?![\w.-])([^\n;&|`)]*+)")
_MAX_PLUGINS = 64  # plugin entries read of one options file


def plugins(text: str, tree: Tree, read_blob: Read) -> list[str]:
    """The paths (from the root) of the local plugins the TypeDoc runs of `text` load (their options files' `plugin`
    and `--plugin` entries)."""
    if "typedoc" not in text:
        return []
    found: list[str] = []
    for match in _RUN.finditer(text):
        if gobuilds.quiet(text, match.start()):
            continue
        words = gobuilds.command_words(match.group(1))
        given = [value for flag, value in zip(words, words[1:], strict=False) if flag == "--options"]
        given += [word.partition("=")[2] for word in words if word.startswith("--options=")]
        specs = [value for flag, value in zip(words, words[1:], strict=False) if flag == "--plugin"]
        found += ciimports.node_candidates("", [spec for spec in specs if spec.startswith(("./", "../"))])
        for options in given or OPTIONS:
            found += _options(options.removeprefix("./"), tree, read_blob)
        for host in () if given else HOSTS:  # `typedocOptions` of tsconfig.json and package.json (review 68b)
            found += _options(host, tree, read_blob, "typedocOptions")
    return list(dict.fromkeys(found))


def _options(path: str, tree: Tree, read_blob: Read, key: str = "", depth: int = 0) -> list[str]:
    """The local plugins of the options file at `path` (of its `key` object when given) and of the files it
    `extends` (named themselves: their edit changes what loads); the file itself when it cannot be read."""
    entry = tree.get(path)
    if entry is None or depth > _MAX_EXTENDS:
        return [path] if entry is not None else []
    data = read_blob(entry)
    try:
        text = data[:FULL_READ].decode("utf-8", "replace")
        options = load_json(plain_json(text), path) if len(data) <= FULL_READ else None
    except (ValueError, LimitError):
        options = None
    options = options.get(key) if key and isinstance(options, dict) else options
    if not isinstance(options, dict):
        return [] if key else [path]  # a tsconfig.json TypeDoc cannot read is tsc's to refuse: no TypeDoc file
    folder = path.rpartition("/")[0]
    listed = options.get("plugin")
    listed = [listed] if isinstance(listed, str) else listed if isinstance(listed, list) else []
    specs = [spec for spec in listed[:_MAX_PLUGINS] if isinstance(spec, str) and spec.startswith(("./", "../"))]
    found = ciimports.node_candidates(folder, specs)
    extends = options.get("extends")
    extends = [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []
    for base in extends[:_MAX_PLUGINS]:
        if isinstance(base, str) and base.startswith(("./", "../")):
            at = posixpath.normpath(posixpath.join(folder, base))
            found += [at, *_options(at, tree, read_blob, "", depth + 1)]
    return found
