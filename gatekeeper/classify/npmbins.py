"""The program of a tree's own npm package that CI runs: by its folder, installed or linked, or by its `bin` name
(attack 48).

`npx ./tools/x` (and `pnpm dlx`, `yarn dlx`, `bunx`, `npm exec`, `npx -p ./tools/js t`) runs the `bin` of the package
in that folder; `npm install -g ./tools/js`, `npm link` (in a folder, or of one) and `yarn global add file:./tools/js`
put its `bin` on the PATH, to run by name; and a package of the tree (a workspace's member) has its `bin` linked into
`node_modules/.bin` by the install, so `npx ptool`, `yarn ptool`, `pnpm exec ptool` and a package.json script
`"lint": "ptool check"` run its code. None of these named a file, and an edit of the program was exit 0. Named: the
package's `bin` files and its folder's script files (`*.js`, `*.mjs`, `*.ts`, ...). Not named: the root package (the
product, as `go run .` is), a spec npm reads as a registry name or a GitHub shorthand (`tools/x`: the deps reader's),
and `node_modules/`. Fail closed: a folder a command names whose package.json cannot be read is named whole. A
package.json that is a symlink is read where it points, and a symlinked folder's program is named under both names.
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.bounded import load_json
from gatekeeper.classify import ciruns, gobuilds
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.symlinks import folder_at, opened
from gatekeeper.classify.treereads import Read, Tree
from gatekeeper.errors import LimitError
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["Packages", "named"]

MAX_DEPTH = 4  # package.json files read this many folders deep
_FILES = ("100644", "100755", "120000")  # a package.json a checkout opens (a link: where it points)
_MAX_PACKAGES = 512  # package.json files read per tree (past it: the first ones, in the tree's order)
_MARKERS = ("npx", "npm", "pnpm", "yarn", "bun", "node_modules", '"scripts"')  # a text that may run a package's bin

# the commands that run or install a package spec: `npx`, `pnpm dlx`, `npm install -g`, `yarn global add`, `npm link`
_HEAD = lazy(r"(?<![\w./-])(npx|bunx|(?:npm|pnpm|yarn|bun)[ \t]++(?:exec|dlx|x)|yarn[ \t]++global[ \t]++add"
             r"|(?:npm|pnpm|yarn|bun)[ \t]++(?:install|isntall|i|add|link|ln))(?![\w-])([^\n;&|`)]*+)")
# a word where a command starts (a line, a `;`/`&&`/`|`/`(`, a YAML `run:`/`- `, a package.json script's value),
# after `npx`/`yarn`/`pnpm exec`/... when there: a bin name, or a path to `node_modules/.bin/NAME`
_STARTS = lazy(r"(?:^|[;&|(`]|\"[ \t]*+:[ \t]*+\")[ \t]*+(?:-[ \t]++)?(?:[\w-]++:[ \t]++)?(?:\w++=[^\s;&|]*+[ \t]++)*+"
               r"(?:(?:(?:npm|pnpm|yarn|bun)[ \t]++exec|npx|bunx|yarn|pnpm)[ \t]++(?:-[^\s;&|]*+[ \t]++)*+)?"
               r"(?:\./)?(?:node_modules/\.bin/)?([\w@.+-]++)(?=[\s;&|)`\"]|\Z)", re.MULTILINE)
_SCRIPTS = ("*.js", "*.mjs", "*.cjs", "*.ts", "*.mts", "*.cts", "*.jsx", "*.tsx")


class Packages:
    """The npm packages of a tree below its root (MAX_DEPTH folders deep, not `node_modules/`), read only when a text
    may run one; its repr is their blob ids (a cache key of what the walk reads)."""

    def __init__(self, tree: Tree, read_blob: Read) -> None:
        self._tree = tree
        self._read_blob = read_blob
        self._files = [path for path in tree if path.endswith("/package.json") and path.count("/") <= MAX_DEPTH
                       and "node_modules/" not in path and tree[path].mode in _FILES][:_MAX_PACKAGES]
        self._bins: dict[str, list[str]] | None = None

    def __repr__(self) -> str:
        return repr([(path, self._tree[path].oid) for path in self._files])

    def bins(self) -> dict[str, list[str]]:
        """{a bin name: the globs of the program of each package that declares it}."""
        if self._bins is None:
            self._bins = {}
            for path in self._files:
                for name, _ in _declared(self._manifest(path)) or []:
                    self._bins.setdefault(name, []).extend(self.program(path.rpartition("/")[0]))
        return self._bins

    def program(self, folder: str) -> list[str]:
        """The globs of the program of the package in `folder`: its bin files and script files; the whole folder
        when its package.json cannot be read (fail closed). A symlinked folder: under its name and its target's."""
        declared = _declared(self._manifest(f"{folder}/package.json"))
        physical = folder_at(self._tree, folder, self._text)
        out: list[str] = []
        for at in dict.fromkeys((folder, physical or folder)):
            out += [f"{at}/{ciruns.ANY}"] if declared is None else \
                [posixpath.normpath(posixpath.join(at, file)) for _, file in declared] \
                + [f"{at}/{script}".replace("*", ciruns.ANY) for script in _SCRIPTS]
        return out

    def _text(self, entry: TreeEntry) -> str:
        return self._read_blob(entry)[:FULL_READ].decode("utf-8", "replace")

    def _manifest(self, path: str) -> object:
        entry = opened(self._tree, path, self._text)  # a link: read where it points (review 67b)
        if entry is None:
            return None
        data = self._read_blob(entry)
        try:
            return load_json(data[:FULL_READ], path) if len(data) <= FULL_READ else None
        except (ValueError, LimitError):
            return None


def _declared(manifest: object) -> list[tuple[str, str]] | None:
    """[(bin name, its file)] of a package.json's `bin` (a string: the package's name without its scope); None when
    it is no JSON object."""
    if not isinstance(manifest, dict):
        return None
    declared = manifest.get("bin")
    if isinstance(declared, str) and isinstance(manifest.get("name"), str):
        return [(manifest["name"].rpartition("/")[2], declared)]
    if isinstance(declared, dict):
        return [(name, file) for name, file in declared.items() if isinstance(file, str)]
    return []


def named(text: str, definition: str, folders: list[str], packages: Packages) -> list[str]:
    """The globs of the programs of the tree's packages `text`'s commands run: by a local spec (resolved as
    `definition`'s paths are; a bare `npm link` in each folder the commands `cd` to), or by a bin name."""
    # a package.json's scripts (one a line: tasktexts.command_text) run with its bins on PATH, whatever they hold
    if definition.rpartition("/")[2] != "package.json" and not any(marker in text for marker in _MARKERS):
        return []
    specs: list[str] = []
    for match in _HEAD.finditer(text):
        if gobuilds.quiet(text, match.start()):
            continue
        verb, words = match.group(1).split()[-1], gobuilds.command_words(match.group(2))
        values = [word.partition("=")[2] for word in words if word.startswith(("--package=", "-p="))] \
            + [value for flag, value in zip(words, words[1:], strict=False) if flag in ("-p", "--package")]
        given = [word for word in words if not word.startswith("-") and word not in values]
        if verb in ("link", "ln"):  # `cd tools/js && npm link`: the folder it runs in
            specs += [word for word in given if _local(word)] or ([] if given else [f"./{f}" for f in folders])
        elif verb in ("install", "isntall", "i", "add"):  # a dependency's install: its bin runs by name (below)
            global_ = "global" in match.group(1) or bool({"-g", "--global", "--location=global"} & set(words))
            specs += [word for word in given if _local(word)] if global_ else []
        else:  # the spec it runs: `-p`'s, or the first word (the rest are the program's arguments)
            specs += [word for word in values if _local(word)] or [word for word in given[:1] if _local(word)]
    found = [glob for spec in specs
             for folder in ciruns.resolved(spec.removeprefix("file:").rstrip("/") or ".", definition, folders)
             if folder not in ("", ".") for glob in packages.program(folder)]
    bins = packages.bins()
    found += [glob for name in _STARTS.findall(text) if name in bins for glob in bins[name]]
    return list(dict.fromkeys(found))


def _local(spec: str) -> bool:
    """Whether npm reads `spec` as a folder (not a registry name, nor `tools/x`: a GitHub shorthand)."""
    return spec.startswith(("./", "../", "file:"))
