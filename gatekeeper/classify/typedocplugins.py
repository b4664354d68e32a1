"""The local plugins TypeDoc loads from its options file when CI runs it (misses 8).

`npx typedoc` reads `typedoc.json` (or `typedoc.jsonc`, `.config/typedoc.json`, or the file `--options` names) and
imports each `plugin` entry before it documents a line: a relative one (`./tools/typedoc-plugin.mjs`) is the
repository's code run in the CI job, with Node's other names for it (`./x`: `x.js`, `x/index.js`). So is a
`--plugin ./x` on the command line. A package's name (`typedoc-plugin-markdown`) is a dependency: nothing here. An
options file that cannot be read is named itself (fail closed: its edit is reviewed). TypeDoc's settings modules
(`typedoc.config.mjs`) are code nodeconfigs.py names already.
"""

from __future__ import annotations

from collections.abc import Mapping

from gatekeeper.bounded import load_json
from gatekeeper.classify import ciimports, gobuilds
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treereads import Read
from gatekeeper.errors import LimitError
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["OPTIONS", "plugins"]

OPTIONS = ("typedoc.json", "typedoc.jsonc", ".config/typedoc.json", ".config/typedoc.jsonc")
_RUN = lazy(r"(?:(?<![\w./@-])|(?<=node_modules/\.bin/))typedoc(?![\w.-])([^\n;&|`)]*+)")
_MAX_PLUGINS = 64  # plugin entries read of one options file


def plugins(text: str, tree: Mapping[str, TreeEntry], read_blob: Read) -> list[str]:
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
    return list(dict.fromkeys(found))


def _options(path: str, tree: Mapping[str, TreeEntry], read_blob: Read) -> list[str]:
    """The local plugins of the options file at `path`; the file itself when it cannot be read."""
    entry = tree.get(path)
    if entry is None:
        return []
    data = read_blob(entry)
    try:
        options = load_json(data[:FULL_READ], path) if len(data) <= FULL_READ else None
    except (ValueError, LimitError):
        options = None
    if not isinstance(options, dict):
        return [path]
    listed = options.get("plugin")
    listed = [listed] if isinstance(listed, str) else listed if isinstance(listed, list) else []
    specs = [spec for spec in listed[:_MAX_PLUGINS] if isinstance(spec, str) and spec.startswith(("./", "../"))]
    return ciimports.node_candidates(path.rpartition("/")[0], specs)
