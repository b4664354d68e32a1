"""The modules a script CI runs imports by a relative name (red team 12, second round; tests/test_redteam12_imports.py).

`run: python scripts/release.py` runs `scripts/release.py`, and with it every module it imports from its own folder:
Python puts the script's folder first on its path, so `import helper` is `scripts/helper.py` and `from lib.publish
import go` is `scripts/lib/publish.py`. Node resolves `require('./lib/util')` and `import … from './util'` by trying
extensions and `index` files; Ruby's `require_relative 'lib/util'` adds `.rb`. An edit of such a module changes what the
job runs as surely as an edit of the script; the reader named none of them (no path word with a script's extension), so
they stayed `src` and `gate --tree` allowed them.

Only names relative to the importing file are taken (a package installed from a registry is not this repository's file,
and a Python import is looked for in the script's own folder, as Python looks, or from the parent of a folder the script
is in that its first name names: pyimports.ancestors), each resolved to the paths it may be; a path the tree lacks names
nothing. A Node or Ruby name that climbs (`../lib/x`) is followed where it stays below a tooling folder the importing
file is in (climbed; misses 10: `scripts/release/a.js` loading `scripts/lib/x.js`). Not followed: the imports of a
package's `__init__.py`, any other climb (`tools/build.js` loading `../src/index`, `src/a/b.js` loading `../c`: the
product; out of the root), and those of a test file (is_test) that only a package.json's
scripts or a test runner run (`npm test`, `pytest tests/test_api.py`: a suite; ciwalk._Imports). CI runs a project's
tests, and the tests import the product: followed, every module of aiohttp, prettier or Rails became `ci` (a human for
every edit of the product), which the label sets call `src`; a helper beside a release script is the road this closes. A
test-named file a CI definition, a shell script or a Makefile runs by its path (`node scripts/test_release.js`, `python
tests/run_e2e.py`) is CI's program, and its imports count (review 55: its module was `src` and allowed).
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify import pyimports
from gatekeeper.classify.markers import MAX_PATH
from gatekeeper.classify.pipinstalls import ANY
from gatekeeper.classify.treereads import PastBound
from gatekeeper.lazy_pattern import lazy

__all__ = ["imported", "inline", "is_test", "json_loads", "passes_runs", "runner_lines", "through_runner",
           "unimported"]

# at a line's start, or after `;` or a compound statement's `:` (`import os; import helper`, `try: import helper`)
_PYTHON = lazy(r"(?:^|[;:])[ \t]*+(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([A-Za-z_][\w.]*"
                     r"(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*))", re.MULTILINE)
# a module loaded by its dotted name at run time (review 70): `importlib.import_module('scripts.lib.x')`, `__import__`,
# `runpy.run_module`, a literal first argument on a line that is no comment before it (a name in a variable: none)
_DYNAMIC = lazy(r"""^[^#\n]*?\b(?:import_module|__import__|run_module)[ \t]*+\([ \t]*+(?:'([A-Za-z_][\w.]{0,255}+)'"""
                r"""|"([A-Za-z_][\w.]{0,255}+)")""", re.MULTILINE)
# a module a script starts in a new interpreter by its dotted name (misses 11): `[sys.executable, "-m", "scripts.x"]`,
# `["python3", "-m", …]`, over lines; found as an import is, and from the root (the working folder the run starts in)
_RUN_MODULE = lazy(r"""^[^#\n]*?['"]-m['"][ \t]*+,\s{0,64}+(?:'([A-Za-z_][\w.]{0,255}+)'|"([A-Za-z_][\w.]{0,255}+)")""",
                   re.MULTILINE)
# `require('./x')`, `import('./x')`, `import … from './x'`, `export … from './x'`, `import './x'`
_NODE = lazy(r"""(?:\brequire[ \t]*\(|\bimport[ \t]*\(|\bfrom|^[ \t]*import)[ \t]*"""
                   r"""['"](\.{1,2}/[^'"\n]*)['"]""", re.MULTILINE)
# `require(__dirname + '/x')`, `require(path.join(__dirname, 'lib', 'x'))`, `path.resolve(__dirname, './x')`, also in
# `import(...)`: the script's own folder spelt out (the sixty-fifth set's DezyneSamples generator, whose AppVeyor build
# runs it: `require(__dirname + '/parse.js')`, and that module's `require (__dirname + '/ast')`)
_NODE_DIRNAME = lazy(r"""\b(?:require|import)[ \t]*\([ \t]*(?:__dirname[ \t]*\+[ \t]*['"](/[^'"\n]*)['"]"""
                           r"""|(?:path\.)?(?:join|resolve)[ \t]*\([ \t]*__dirname"""
                           r"""((?:[ \t]*,[ \t]*['"][^'"\n]*['"]){1,8})[ \t]*\))""")
_NODE_PART = lazy(r"""['"]([^'"\n]*)['"]""")
# a template literal's relative name with a substitution (highlight.js' tools/build.js: `require(`./build_${target}`)`,
# which its release workflow runs): the substitution is any part; a part that is all substitution names nothing
# (every module or folder of the folder). Misses 6.
_NODE_TEMPLATE = lazy(r"""\b(?:require|import)[ \t]*+\([ \t]*+`(\.{1,2}/[^`\n$]{0,256}+"""
                      r"""(?:\$\{[^`}\n]{0,128}+\}[^`\n$]{0,256}+)*+)`""")
_SUBSTITUTION = lazy(r"\$\{[^}\n]*\}")
_EXTENSION = lazy(r"\.\w*\Z")
_RUBY = lazy(r"""\b(?:require_relative[ \t(]*['"]([^'"\n]+)['"]|(?:require|load)[ \t(]*['"](\.{1,2}/[^'"\n]+)"""
                   r"""['"])""")
_NODE_TYPES = ("", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".json", "/index.js", "/index.mjs",
               "/index.cjs", "/index.ts", "/index.tsx", "/package.json")
_NODE_TYPES_AFTER_JSON = tuple(suffix for suffix in _NODE_TYPES if suffix not in ("", ".json"))
# a Rust module's file by `#[path = "…"]`, or a file `include!` compiles in (misses 7): at a line's or item's start
_RUST = lazy(r'(?:^|[;}\]])[ \t]*+(?:#\[[ \t]*+path[ \t]*+=[ \t]*+"([^"\n]{1,512}+)"[ \t]*+\]'
             r'|include![ \t]*+[(\[{][ \t]*+"([^"\n]{1,512}+)")', re.MULTILINE)
_NODE_FILES = frozenset({"js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx"})
# a module that lists its own folder and loads the names a prefix picks (npm's template-oss `.eslintrc.js`:
# `readdir(__dirname).filter((file) => file.startsWith('.eslintrc.local.'))` into `extends`; over-reads 5)
_LISTS_OWN = lazy(r"\breaddir(?:Sync)?+[ \t]*+\([ \t]*+__dirname[ \t]*+\)")
_PREFIX = lazy(r"""\.startsWith[ \t]*+\([ \t]*+['"]([^'"/*\n]++)['"]""")
# a test file by its runner's conventions, or a file in a test folder
_TEST = lazy(r"(?:^|/)(?:tests?|__tests__|spec|specs|testing)/|(?:^|/)(?:test_[^/]*|conftest\.py|[^/]*_test\.py"
                   r"|[^/]*\.(?:test|spec)\.[cm]?[jt]sx?|[^/]*_(?:test|spec)\.rb)$")
# a test runner's command, before the test file it is handed (review 55)
_RUNNER = lazy(r"(?:^|[\s/'\"])(?:py\.?test|pytest|jest|mocha|vitest|ava|tape|tap|rspec|unittest|nose2|nosetests"
                     r"|jasmine|karma|playwright|cypress|minitest|phpunit|(?:bun|deno|go)[ \t]+test)(?=\s)|--test\b")
_PROGRAMS = frozenset({"py", "pyw", "rb", "php", "lua", "pl", "r", "go", "java", "swift", "dart", *_NODE_FILES})
MAX_IMPORTS = 128  # names read from one file; a bundle's past it are not followed (a Python script's: all may be)


def is_test(path: str) -> bool:
    """A test file by its runner's conventions or its folder: its imports count only when CI runs it by path
    (ciwalk._Imports; review 55), not as a suite a package.json's scripts run."""
    return _TEST.search(path) is not None


def through_runner(text: str, path: str) -> bool:
    """Whether a line of `text` names the file at `path` after a test runner's command (`pytest tests/test_api.py`,
    `npx jest test/a.test.js`, `node --test test/index.js`): a test CI reaches through its runner, not its program."""
    name = path.rpartition("/")[2]
    return any(_RUNNER.search(line[:line.index(name)]) is not None for line in text.splitlines() if name in line)


def runner_lines(text: str) -> str:
    """The lines of `text` that start a test runner (what through_runner reads, kept with a file's reading)."""
    return "\n".join(line for line in text.splitlines() if _RUNNER.search(line) is not None)


def passes_runs(path: str) -> bool:
    """Whether the files `path` names are run (a CI definition's, a shell script's, a Makefile's or package.json's
    commands), not merely named by a program (a bundler's `rollup.config.js` naming its input `index.js`: the input's
    imports are the product's modules, bundled, not run by the job)."""
    name = path.rpartition("/")[2]
    return "." not in name or name.rpartition(".")[2].lower() not in _PROGRAMS


def imported(path: str, text: str) -> list[str]:
    """The paths (from the root) the modules `text`, the file at `path`, imports by a relative name may be; a pattern
    (ANY: any part) past MAX_IMPORTS of a Python script's. Raises PastBound at a path longer than MAX_PATH: each name
    is joined to bases as long as its folder (a 1 MiB folder: 2 GB of paths, cost 44), and no checkout holds one."""
    if len(path) > MAX_PATH:
        raise PastBound
    folder, _, name = path.rpartition("/")
    if name == "__init__.py":
        return []
    kind = name.rpartition(".")[2].lower() if "." in name else ""
    if kind in ("py", "pyw"):
        started = [a or b for a, b in _RUN_MODULE.findall(text)[:MAX_IMPORTS]] if "-m" in text else []
        modules = list(dict.fromkeys([*(module.strip() for match in _PYTHON.finditer(text)
                                        for module in (match[1] or match[2]).split(",")),
                                      *(a or b for a, b in (_DYNAMIC.findall(text) if "_module" in text
                                                            or "__import__" in text else ())), *started]))
        # past the bound (a script padded with imports before its helper's, review12): every module below its folder
        rest = [f"{ANY}.py"] if len(modules) > MAX_IMPORTS else []
        names = [p for module in modules[:MAX_IMPORTS] for p in _python(module)] + rest
        # a `from` import's submodules and relative modules, a conftest.py's names from the root too (attack 46)
        froms = pyimports.loaded(path, text, is_test)
        # (from the root: a test folder's helpers only; the product a conftest imports stays what it is, review 55)
        # a module under a folder the script is in, from that folder's parent (pyimports.ancestors; misses 10)
        above = [p for module in modules[:MAX_IMPORTS] for base in pyimports.ancestors(folder, module)
                 for p in _joined(base, _python(module))]
        return list(dict.fromkeys([*(p for base in pyimports.roots(path) for p in _joined(base, names)
                                     if base == folder or is_test(p)), *above,
                                   *(froms if froms is not None else _joined(folder, [f"{ANY}.py"])),
                                   *(p for module in started for p in _python(module, True))]))
    if kind in _NODE_FILES:
        names = [spec.rstrip("/") for spec in [*_NODE.findall(text), *_dirname_specs(text), *_templates(text)]
                 [:MAX_IMPORTS]]
        listed = [f"./{prefix}{ANY}" for prefix in _PREFIX.findall(text)[:8]] if _LISTS_OWN.search(text) else []
        return _joined(folder, [name + suffix for name in names for suffix in _suffixes(name)] + listed, climbs=True)
    if kind == "rs":
        return _rust(path, text)
    if kind == "rb":
        names = [relative or dotted for relative, dotted in _RUBY.findall(text)[:MAX_IMPORTS]]
        return _joined(folder, [name if name.endswith(".rb") else f"{name}.rb" for name in names], climbs=True)
    return []


def inline(text: str) -> list[str]:
    """The modules the Node code inline in a definition or a command loads by a relative name, relative to where it
    runs: `actions/github-script`'s `require('./scripts/label')`, `node -e "require('./x')"` (red team 12, second
    round: an extension-less name was no path word, and the file stayed `src`). Not `python -c 'import pkg'`: an import
    check of the product (`python -c "import pyarrow"` in Arrow's CI) would make the package's modules `ci`."""
    names = [name + suffix for name in [spec.rstrip("/") for spec in _NODE.findall(text)[:MAX_IMPORTS]]
             for suffix in _suffixes(name)] if "./" in text else []
    return [name for name in dict.fromkeys(names) if not name.startswith("../")]


_JS_TYPES = frozenset({"js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx"})
_JS_COMMENT_LINE = lazy(r"^[ \t]*+(?://|/?\*)[^\n]*+$", re.MULTILINE)


def unimported(path: str, text: str) -> str:
    """`text`, a test file's Node or Ruby code, without the relative names its imports take (`import './compile.js'`,
    `require_relative 'helper.rb'`): imported() follows none of a test's imports, and the word scan of what a file CI
    runs names took them for scripts it runs (the fifty-eighth set: a workspace's test entry `test/index.js` that CI
    runs made every test module it imports `ci`). A name in any other place (`spawn('node', ['./x.js'])`) stays."""
    name = path.rpartition("/")[2]
    kind = name.rpartition(".")[2].lower() if "." in name else ""
    if _TEST.search(path) is None or (kind not in _NODE_FILES and kind != "rb"):
        return text
    return _RUBY.sub(" ", _NODE_DIRNAME.sub(" ", _NODE.sub(" ", text)))


def uncommented(name: str, text: str) -> str:
    """`text` without its whole comment lines when `name` is a JavaScript or TypeScript file (`//`, `/*`, a JSDoc
    block's `*` lines): they run nothing (over-reads 3). A line inside a block that starts otherwise stays (in a
    template literal a shell would run it), and so does a comment after code."""
    kind = name.rpartition(".")[2].lower() if "." in name else ""
    return _JS_COMMENT_LINE.sub("", text) if kind in _JS_TYPES else text


def node_candidates(folder: str, specs: list[str]) -> list[str]:
    """The paths (from the root) Node may load for the relative names `specs` (`./tools/x`) given in `folder`."""
    return _joined(folder, [spec.rstrip("/") + suffix for spec in specs for suffix in _suffixes(spec.rstrip("/"))])


def json_loads(path: str, text: str) -> list[str]:
    """The `.json` files (from the root) Node loads by a relative name in `text`, the file at `path`: a Node module's
    names from its folder, a definition's or script's inline ones (`node -p "require('./x.json')"`) from the root and
    its own folder. The walk names those that are symlinks: Node picks the loader by the link's target (`x.json ->
    gen.js` runs gen.js; attack 43)."""
    if ".json" not in text:
        return []
    folder, _, name = path.rpartition("/")
    specs = [spec.rstrip("/") for spec in _NODE.findall(text)[:MAX_IMPORTS]]
    specs = [spec for spec in specs if spec.endswith(".json")]
    node = (name.rpartition(".")[2].lower() if "." in name else "") in _NODE_FILES
    return _joined(folder, specs) if node else list(dict.fromkeys(
        joined for base in ("", folder) for joined in _joined(base, specs)))


def _templates(text: str) -> list[str]:
    """The relative names of template literals with substitutions a module requires or imports, each substitution
    any part (ANY); none with a part that is all substitution (the last one but its extension: `./${name}.js`,
    `./${rule}/index.mjs`: every rule module of stylelint's `lib/rules/`, the product's)."""
    if "`" not in text:
        return []
    specs = [_SUBSTITUTION.sub(ANY, spec) for spec in _NODE_TEMPLATE.findall(text)[:MAX_IMPORTS]]
    return [spec for spec in specs if _named_parts(spec.rstrip("/").split("/"))]


def _named_parts(parts: list[str]) -> bool:
    """Whether each part holding a substitution keeps a literal of its own (the last one besides its extension)."""
    last = len(parts) - 1
    return all(_EXTENSION.sub("", part.replace(ANY, "")) if at == last else part.replace(ANY, "")
               for at, part in enumerate(parts) if ANY in part)


def _suffixes(spec: str) -> tuple[str, ...]:
    """What Node may load for the relative name `spec`: the file, then a module under its other names. A JSON file
    (`./package.json`) is parsed and runs nothing, whatever the line does with it (`node -p
    "require('./pkg/package.json').version"`: its scripts are not run; cileft69): not named itself; where it is no
    file, Node tries `gen.json.js` and `gen.json/index.js`, which stay named. The extension as spelled: Node has no
    loader for `.JSON` and runs `./data/site.JSON` as JavaScript (attack 43)."""
    if spec.endswith(".json") and spec.rpartition("/")[2][:-5] not in ("", "."):
        return _NODE_TYPES_AFTER_JSON
    return _NODE_TYPES


def _dirname_specs(text: str) -> list[str]:
    """The relative names of _NODE_DIRNAME's imports (`./x`), when the text holds `__dirname` at all."""
    if "__dirname" not in text:
        return []
    out = []
    for plus, parts in _NODE_DIRNAME.findall(text):
        joined = plus or "/".join(_NODE_PART.findall(parts))
        out.append("./" + joined.lstrip("/"))
    return out


def _python(module: str, run: bool = False) -> list[str]:
    """`a.b`: `a/b.py`, `a/b/__init__.py`, `a/__init__.py`. Not a relative import (`from .x import y`): a script run
    by its path has no package, so only a package's modules (imported, not run) hold one."""
    parts = module.strip().split(".")
    stem = "/".join(parts)
    return [f"{stem}.py", f"{stem}/__init__.py", *([f"{parts[0]}/__init__.py"] if len(parts) > 1 else []),
            *([f"{stem}/__main__.py"] if run else [])]  # a package `-m` runs: its `__main__.py`


def _rust(path: str, text: str) -> list[str]:
    """The files `#[path]` and `include!` of the Rust file at `path` name, from the root: from its folder, and a
    `#[path]` of a file that is no `main.rs`/`lib.rs`/`mod.rs` from its module's folder too (either may be meant)."""
    folder, _, name = path.rpartition("/")
    found = []
    for attribute, included in _RUST.findall(text)[:MAX_IMPORTS]:
        named = attribute or included
        bases = [folder]
        if attribute and name not in ("main.rs", "lib.rs", "mod.rs"):
            bases.append(posixpath.join(folder, name.removesuffix(".rs")))
        for base in bases:
            joined = posixpath.normpath(posixpath.join(base, named))
            if not joined.startswith(("../", "/")) and joined != ".." and not named.startswith("/"):
                found.append(joined)
    return list(dict.fromkeys(found))


def _joined(folder: str, names: list[str], climbs: bool = False) -> list[str]:
    """The names below `folder`, from the root; with `climbs`, a name that leaves it (`../lib/x`) too where it stays
    below a tooling folder the importing file is in (climbed)."""
    out = []
    for name in names:
        below = posixpath.normpath(name)
        if not below.startswith(("../", "/")) and below not in (".", ".."):
            out.append(posixpath.join(folder, below))
        elif climbs and (at := climbed(folder, name)) is not None:
            out.append(at)
    return list(dict.fromkeys(out))


def climbed(folder: str, name: str) -> str | None:
    """Where the relative `name` (`../lib/x.js`) given in `folder` lands, from the root, when it climbs and stays below
    a tooling folder `folder` is in (pyimports.is_tooling: `scripts/release/a.js` loading `../lib/x.js`:
    `scripts/lib/x.js`, a helper of the same tool tree; misses 10); None for a climb out of the root, to the root's
    own files, or whose landing and `folder` share no tooling folder (`tools/build.js` loading `../app/server`, red
    team 12's line; `src/server/a.js` loading `../components/app`, `packages/p/scripts/a.js` loading `../src/x`: the
    product)."""
    if not posixpath.normpath(name).startswith("../") or not folder:
        return None
    at = posixpath.normpath(posixpath.join(folder, name))
    if at.startswith("../") or at == ".." or "/" not in at:
        return None
    shared = posixpath.commonpath([folder, at.rpartition("/")[0]])
    return at if pyimports.is_tooling(shared) else None
