"""Node run on a folder: `node tools/release` runs the folder's `index.js` (the eighty-seventh set), or the file
`tools/release.js`, which Node's lookup tries first (review 68a).

Node's module lookup takes a folder operand as a module: it runs the folder's `package.json` `main`, else its
`index.js`, `index.mjs` or `index.cjs`. cafe24.js's release workflow runs `node ./tools/use-workspace-protocol`; the
walk looked for a file of the folder's name and found none. The indexes are named, and (mains, from toolloads: review
68b) the code the folder's package.json `main` names, read through the walk's recording tree (treeconsults.py); a
script operand with a type (`node tools/gen.js`), Node's code options (`-e`, `-p`) and its informational ones
(`--version`) name no folder. taskrunners.side_files calls this.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from gatekeeper.bounded import load_json
from gatekeeper.classify import ciimports
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.symlinks import opened
from gatekeeper.classify.treereads import Read
from gatekeeper.errors import LimitError
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["line_files", "mains"]

# `node` at a command's start (a line's, after `;`, `&&`, `|`, `(`, `$(`, a YAML `run:`/`script:` key or a Jenkins
# `sh '…'`), after the shell's assignments (`NODE_OPTIONS=… node x`); its words up to the command's end. Possessive
# quantifiers: a run of blanks or assignments is taken once.
_NODE = lazy(r"(?:^|[;&|(`!]|\$\(|\b(?:then|do|run|script|sh|command|if|elif|while|until|else)\b:?+[ \t]*+['\"]?+)"
             r"[ \t]*+(?:-[ \t]++)?+"
             r"(?:[A-Za-z_]\w*+=[^\s;&|]*+[ \t]++|(?:npx|exec|env|time|nice|nohup|command)[ \t]++)*+"
             r"(?:/usr/(?:local/)?bin/)?+node(?:js)?+[ \t]++([^;&|\n]*+)")
_NO_FILE = frozenset({"-e", "--eval", "-p", "--print", "-v", "--version", "-h", "--help", "-i", "--interactive",
                      "--test", "--run", "--check", "-c"})
# options whose value is the next word (`-r dotenv/config`, `--import ./x.mjs`)
_VALUED = frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions",
                     "--env-file", "--input-type", "--title", "--inspect-port", "--redirect-warnings", "--watch-path"})
_INDEXES = ("index.js", "index.mjs", "index.cjs")
# a name's types Node runs as a file (`node tools/gen.mjs`); another dot is a folder's name or a file Node tries with
# `.js` (`node tools/gen.d`, `node scripts/release.v2`; review 68a)
_SCRIPT_TYPES = frozenset({"js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx", "json", "node", "wasm", "coffee"})
_WORDS = 64  # words of a command read for its operand


def line_files(line: str) -> list[str]:
    """The index files of the folders `node` runs in `line` (`node tools/gen`: `tools/gen/index.js`, ...)."""
    if "node" not in line:
        return []
    found: list[str] = []
    for rest in _NODE.findall(line):
        folder = _folder(rest.split()[:_WORDS])
        if folder is not None:
            # Node's lookup: the operand with `.js` first, then the folder (review 68a: `tools/gen.js`)
            found += [f"{folder}.js", *(f"{folder}/{index}" for index in _INDEXES)] if folder else list(_INDEXES)
    return found


def mains(path: str, text: str, folders: list[str], tree: Mapping[str, TreeEntry], read_blob: Read) -> list[str]:
    """The files the package.json `main` of each folder `node` runs in `text` (the file at `path`; a package.json's
    scripts one a line: tasktexts.command_text) names, from the root, run from each of `folders` (review 68b: `"main":
    "lib/run.js"` runs before any index); the package.json itself when it cannot be read (fail closed).
    toolloads.loaded calls this."""
    if "node" not in text:
        return []
    found: list[str] = []
    hits = (rest for line in text.splitlines() if "node" in line for rest in _NODE.findall(line))  # `^`: a line's
    for rest in itertools.islice(hits, _WORDS):
        folder = _folder(rest.split()[:_WORDS])
        for base in ([] if folder is None else list(dict.fromkeys(["", *folders])))[:_WORDS]:
            at = "/".join(part for part in (base.strip("/"), folder) if part and part != ".")
            found += _main(at, tree, read_blob)
    return list(dict.fromkeys(found))


def _main(folder: str, tree: Mapping[str, TreeEntry], read_blob: Read) -> list[str]:
    """What the package.json of `folder` names as its `main` (Node's names for it); itself when unreadable."""
    path = f"{folder}/package.json" if folder else "package.json"
    entry = opened(tree, path, lambda e: read_blob(e)[:FULL_READ].decode("utf-8", "replace"))
    if entry is None:
        return []
    data = read_blob(entry)
    try:
        manifest = load_json(data[:FULL_READ], path) if len(data) <= FULL_READ else None
    except (ValueError, LimitError):
        manifest = None
    if not isinstance(manifest, dict):
        return [path]
    main = manifest.get("main")
    if not isinstance(main, str) or not main.strip("./") or main.startswith("/") or "\n" in main:
        return []
    return ciimports.node_candidates(folder, ["./" + main.removeprefix("./")])


def _folder(words: list[str]) -> str | None:
    """The folder operand of a `node` command's words ("" the working folder), or None: a file, code, or none."""
    skip = False
    for at, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word == "--":
            return _operand(words[at + 1]) if at + 1 < len(words) else None
        if word.startswith("-"):
            if word in _NO_FILE:
                return None
            skip = word in _VALUED
            continue
        return _operand(word)
    return None


def _operand(word: str) -> str | None:
    """A folder the operand `word` names, or None (a script with a type, a variable, a URL)."""
    word = word.strip("'\"")
    if not word or any(mark in word for mark in ("$", "{", "}", "*", "?", "://", "\\", "`")):
        return None
    folder = word.rstrip("/").removeprefix("./")
    name = folder.rpartition("/")[2]
    if folder in ("", "."):
        return ""
    if name.lstrip(".").rpartition(".")[2].lower() in _SCRIPT_TYPES and "." in name.lstrip(".") \
            or folder.startswith(("/", "../")) or ".." in folder.split("/"):
        return None
    return folder
