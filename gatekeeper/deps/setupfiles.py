"""setuptools' `setup.py` and `setup.cfg`: the requirements a package declares there (round 48).

`setup.py` is code: it is parsed (Python's `ast`, never run) and the keywords `install_requires` (runtime),
`setup_requires` (build), `tests_require` (dev) and `extras_require` (runtime) of each `setup(...)` call are read when
their value is a literal — a list or tuple of strings, one string of lines, a dict of those — or a module-level name
assigned such a literal once and used nowhere but in `setup(...)`'s keywords. Anything else (a list built by code, a
file read at run time, `**kwargs`, an `exec` that may rebind names) is named as far as its literals go beside a
`partial` problem (PartlyRead): never silent. `setup.cfg` is read as setuptools reads it (configparser, its `%`
interpolation, a key or section twice refused): `[options]`'s three keys and `[options.extras_require]`, a value of
lines or of `;`-separated items; a `file:` directive is `partial`. A file that does not parse is a problem. Whether a
`setup.py` is packaging at all is the classifier's one answer (classify/sniff.setup_py_code, round 49): a module it
lowers to src is code, names nothing and has no residue; every other one is read.

Their residue (residue.py) is the rest: the syntax tree with the literals read blanked, and the configuration without
the keys read, so code or settings changed beside a bump are a `partial` problem.
"""

from __future__ import annotations

import ast
import configparser
from collections import Counter
from collections.abc import Iterator

from gatekeeper.classify.sniff import setup_py_code
from gatekeeper.deps import pypi
from gatekeeper.deps.loaders import text
from gatekeeper.deps.model import Dependency, ManifestError, PartlyRead, Scope
from gatekeeper.lazy_pattern import lazy

_MAX_BYTES = 1 << 20
_MAX_DEPTH = 120  # syntax tree levels: real setup.py files reach ~15
KEYWORDS: dict[str, Scope] = {"install_requires": "runtime", "setup_requires": "build", "tests_require": "dev",
                              "extras_require": "runtime"}
# Calls that can rebind a module's names behind the syntax tree's back: a name is then not taken as its literal.
_REBINDING = frozenset({"exec", "eval", "globals", "locals", "vars", "setattr", "__import__", "execfile"})
# Attributes that reach a module's namespace: `sys.modules[__name__].__dict__`, a frame's or function's globals.
_NAMESPACES = frozenset({"__dict__", "modules", "f_globals", "f_locals", "__globals__", "__builtins__"})
_CFG_KEYS = {"install_requires": "runtime", "setup_requires": "build", "tests_require": "dev"}
_EXTRAS = "options.extras_require"
_READ_MARK = "\0read"
_COMMENT = lazy(r"(?:^|\s)#.*$")  # pip's and pkg_resources' rule: `#egg=` in a URL is no comment


def _module(path: str, data: bytes) -> ast.Module | None:
    """The syntax tree; None for a module the classifier proves no packaging (classify/sniff.setup_py_code: the one
    answer), which is code even in a syntax this Python cannot parse. Any other setup.py is packaging: one that does
    not parse is a problem."""
    if len(data) > _MAX_BYTES:
        raise ManifestError(f"larger than {_MAX_BYTES >> 20} MiB: not read")
    if setup_py_code(path, data):
        return None
    try:
        tree = ast.parse(data, "setup.py")  # bytes: Python's own BOM and coding-declaration rules
    except (SyntaxError, ValueError, UnicodeDecodeError) as exc:
        raise ManifestError(f"not Python this reader parses: {str(exc).splitlines()[0][:120]}") from None
    except (MemoryError, RecursionError):  # CPython's parser says so of a deeply nested expression
        raise ManifestError("nested too deeply") from None
    # the residue's walk (ast.dump, a NodeTransformer) recurses: a tree deeper than this is refused, not half read
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > _MAX_DEPTH:
            raise ManifestError(f"nested deeper than {_MAX_DEPTH} levels")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return tree


def _setup_names(tree: ast.Module) -> set[str]:
    """The names `setup` is called by: `setup` and what `from setuptools import setup as s` binds."""
    names = {"setup"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names.update(a.asname for a in node.names if a.name == "setup" and a.asname)
    return names


def _calls(tree: ast.Module) -> list[ast.Call]:
    names = _setup_names(tree)
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call) and (
        isinstance(node.func, ast.Name) and node.func.id in names
        or isinstance(node.func, ast.Attribute) and node.func.attr == "setup")]


def _rebinds(tree: ast.Module) -> bool:
    """Whether code may rebind the module's names behind the syntax tree's back: a call of `_REBINDING`, a module's
    `__dict__` or `sys.modules` reached — except an exec/eval given a namespace of its own (a dict display, `dict()`, or
    a name bound only to those: setuptools' `exec(init_file.read(), command_ns)`) and a function's own `locals()`,
    or one formatting reads."""
    harmless = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                    for n in ast.walk(f)}
    # `"…" % locals()`: formatting reads the mapping (a module-level comprehension's locals() is the module's since
    # Python 3.12 inlines comprehensions, so `[locals().update(...) …]` would rebind)
    harmless |= {id(n.right) for n in ast.walk(tree) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in _NAMESPACES:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _REBINDING \
                and not (node.func.id in ("exec", "eval", "execfile") and _own_namespace(tree, node)) \
                and not (node.func.id in ("locals", "vars") and not node.args and id(node) in harmless):
            return True  # (a function's own locals() is no module name's)
    return False


def _own_namespace(tree: ast.Module, call: ast.Call) -> bool:
    given = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "globals"), None)
    if not isinstance(given, ast.Name):
        return given is not None and _fresh_dict(given)
    name = given.id
    stores = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
              or isinstance(n, ast.arg) and n.arg == name]  # a parameter may be handed anything
    values = [a.value for a in ast.walk(tree) if isinstance(a, ast.Assign)
              for t in a.targets if isinstance(t, ast.Name) and t.id == name]
    return bool(values) and len(values) == len(stores) and all(_fresh_dict(v) for v in values)


def _fresh_dict(value: ast.expr) -> bool:
    return isinstance(value, ast.Dict) and not value.keys or isinstance(value, ast.Call) and isinstance(
        value.func, ast.Name) and value.func.id == "dict" and not value.args and not value.keywords


def _literals(tree: ast.Module, calls: list[ast.Call]) -> dict[str, ast.expr]:
    """Module-level names bound once to a value and used only as a keyword's value of a setup call: their values."""
    if _rebinds(tree):
        return {}
    stores: Counter[str] = Counter()
    loads: Counter[str] = Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else stores)[node.id] += 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            stores.update({n: 2 for n in node.names})
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stores[node.name] += 1
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            stores.update((a.asname or a.name).partition(".")[0] for a in node.names)
    bound = {node.targets[0].id: node.value for node in tree.body
             if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)}
    used: Counter[str] = Counter()
    for call in calls:
        for keyword in call.keywords:
            if keyword.arg is None:  # setup(**params): the name spread, and the names its literal mapping uses
                spread = keyword.value
                if isinstance(spread, ast.Name):
                    used[spread.id] += 1
                    spread = bound.get(spread.id, spread)
                for item in spread_keywords(spread) or ():
                    if item.arg in KEYWORDS:
                        used.update(_names_in(item.value))
            elif keyword.arg in KEYWORDS:
                used.update(_names_in(keyword.value))
    return {name: value for name, value in bound.items() if stores[name] == 1 and loads[name] == used[name]}


def spread_keywords(value: ast.expr) -> list[ast.keyword] | None:
    """The keywords a literal mapping spread into setup(**…) holds — a dict display of string keys or a `dict(k=v)`
    call of keywords only —, None for any other value (a computed key, a merged mapping, a call of anything else)."""
    if isinstance(value, ast.Dict):
        keys = [k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        return [ast.keyword(arg=k, value=v) for k, v in zip(keys, value.values, strict=True)] \
            if len(keys) == len(value.keys) else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict" \
            and not value.args and all(k.arg is not None for k in value.keywords):
        return list(value.keywords)
    return None


def _names_in(value: ast.expr) -> Iterator[str]:
    """The names a keyword's value uses where a literal may stand: itself, or an extras dict's values."""
    if isinstance(value, ast.Name):
        yield value.id
    elif isinstance(value, ast.Dict):
        yield from (v.id for v in value.values if isinstance(v, ast.Name))


class _Reader:
    """The requirements of one setup.py's setup calls, and what could not be read (`unread`)."""

    def __init__(self, path: str, names: dict[str, ast.expr]) -> None:
        self.path, self.names = path, names
        self.found: list[Dependency] = []
        self.unread: list[str] = []
        self.read: list[ast.expr] = []  # the literal nodes read (blanked in the residue)

    def keyword(self, keyword: ast.keyword) -> None:
        if keyword.arg is None:
            spread = self.resolve(keyword.value)
            items = spread_keywords(spread) if spread is not None else None
            if items is None:
                self.unread.append("setup(**…) passes keywords this reader cannot see")
            for item in items or ():
                self.keyword(item)
        elif keyword.arg == "extras_require":
            self.extras(keyword.value)
        elif keyword.arg in KEYWORDS:
            self.requirements(keyword.value, keyword.arg, KEYWORDS[keyword.arg])

    def resolve(self, value: ast.expr) -> ast.expr | None:
        if isinstance(value, ast.Name):
            return self.names.get(value.id)
        return value

    def extras(self, value: ast.expr) -> None:
        table = self.resolve(value)
        if not isinstance(table, ast.Dict):
            self.unread.append("extras_require is computed")
            return
        for key, item in zip(table.keys, table.values, strict=True):
            if key is None:
                self.unread.append("extras_require merges a computed mapping (**)")
            elif not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                self.unread.append("an extras_require key is computed")
            else:
                self.requirements(item, f"extras_require[{key.value[:40]!r}]", "runtime")
        self.read.append(table)

    def requirements(self, value: ast.expr, what: str, scope: Scope) -> None:
        items = self.resolve(value)
        if isinstance(items, ast.Constant) and isinstance(items.value, str):
            lines = [_COMMENT.sub("", line).strip() for line in items.value.splitlines()]
            self.found += [pypi.pep508(line, self.path, scope) for line in lines if line]
            self.read.append(items)
        elif isinstance(items, (ast.List, ast.Tuple)):
            for item in items.elts:
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    self.found.append(pypi.pep508(item.value.strip(), self.path, scope))
                else:
                    self.unread.append(f"an item of {what} is computed")
            self.read.append(items)
        else:
            self.unread.append(f"{what} is computed")


def _read_setup_py(path: str, data: bytes) -> tuple[ast.Module | None, _Reader]:
    tree = _module(path, data)
    if tree is None:
        return None, _Reader(path, {})
    calls = _calls(tree)
    reader = _Reader(path, _literals(tree, calls))
    for call in calls:
        for keyword in call.keywords:
            reader.keyword(keyword)
    return tree, reader


def parse_setup_py(path: str, data: bytes) -> list[Dependency]:
    """The requirements a setup.py's setup calls declare as literals (module docstring); PartlyRead beside others."""
    _, reader = _read_setup_py(path, data)
    if reader.unread:
        said = sorted(set(reader.unread))
        raise PartlyRead("; ".join(said[:3]) + ("; …" if len(said) > 3 else "") + " (review it by hand)",
                         reader.found)
    return reader.found


def setup_py_residue(path: str, data: bytes) -> str:
    """The syntax tree with the literals read blanked: comments and layout are none of it, any other code is."""
    tree, reader = _read_setup_py(path, data)
    if tree is None:
        return ""  # no packaging: code, as any other module is
    blank = {id(node) for node in reader.read}

    class _Blank(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> ast.AST:
            return ast.Constant(_READ_MARK) if id(node) in blank else super().visit(node)

    return ast.dump(_Blank().visit(tree))


def _config(data: bytes) -> configparser.ConfigParser:
    if len(data) > _MAX_BYTES:
        raise ManifestError(f"larger than {_MAX_BYTES >> 20} MiB: not read")
    parser = configparser.ConfigParser()  # as setuptools reads it: its interpolation, strict, keys as written
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    try:
        parser.read_string(text(data))
    except configparser.Error as exc:
        raise ManifestError(f"not read as setuptools reads setup.cfg: {str(exc).splitlines()[0][:120]}") from None
    return parser


def _value(parser: configparser.ConfigParser, section: str, key: str) -> str:
    try:
        return parser.get(section, key)
    except configparser.Error as exc:
        raise ManifestError(f"[{section}] {key}: {str(exc).splitlines()[0][:120]}") from None


def parse_setup_cfg(path: str, data: bytes) -> list[Dependency]:
    """`[options]`'s requirement keys and `[options.extras_require]` (module docstring); PartlyRead for `file:`."""
    parser = _config(data)
    wanted = [("options", key, scope) for key, scope in _CFG_KEYS.items() if parser.has_option("options", key)]
    if parser.has_section(_EXTRAS):
        wanted += [(_EXTRAS, key, "runtime") for key in parser.options(_EXTRAS)]
    found: list[Dependency] = []
    unread: list[str] = []
    for section, key, scope in wanted:
        value = _value(parser, section, key)
        if value.strip().startswith("file:"):  # setuptools reads the files named: the patch or tree's other files
            unread.append(f"[{section}] {key} reads {value.strip()[5:].strip()[:80]!r}")
            continue
        # setuptools' rule: a value over lines is a line an item (a marker's `;` in it), one line `;`-separated items
        items = value.splitlines() if "\n" in value else value.split(";")
        found += [pypi.pep508(item.strip(), path, scope) for item in items  # type: ignore[arg-type]
                  if item.strip() and not item.strip().startswith("#")]
    if unread:
        raise PartlyRead("; ".join(unread[:3]) + " (review those files by hand)", found)
    return found


def setup_cfg_residue(data: bytes) -> list[tuple[str, str, str]]:
    """Every (section, key, raw value) but the keys read."""
    parser = _config(data)
    return [(section, key, parser.get(section, key, raw=True)) for section in parser.sections()
            for key in parser.options(section)
            if section != _EXTRAS and not (section == "options" and key in _CFG_KEYS)]
