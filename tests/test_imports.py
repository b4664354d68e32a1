"""Imports: every module imports on its own, no module imports another in a cycle, and imports sit at the top;
and no module grows past the house's size.

House rule (docs/STYLE 13): imports at the top of the module; only heavy third-party libraries that a fast
path skips may be imported inside a function, each with a comment saying so.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gatekeeper"

# Third-party libraries heavy enough to import only where they are used (measured import cost, 2 cores):
# jsonschema ~0.25 s, cryptography + securesystemslib ~0.2 s, regopy and opa_bindings load native libraries.
# One standard library module joins them: urllib.request loads http.client and ssl (~40 ms), which only a
# decision-log delivery (--log-url) needs.
HEAVY_THIRD_PARTY = frozenset({"jsonschema", "regopy", "opa_bindings", "cryptography", "securesystemslib", "urllib",
                               "packaging"})

def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


@functools.cache
def _imports(path: Path) -> tuple[tuple[tuple[int, str], ...], tuple[ast.Import | ast.ImportFrom, ...]]:
    """(every import inside a function as (line, module), the import statements the top level runs) of a module,
    parsed once a worker: three tests read every module's (~0.4 CPU-s a reading). Only these are kept, not the
    trees (~60 MB for the package, which would slow every later fork of the worker and its garbage collections)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[tuple[int, str]] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Import):
                found += [(node.lineno, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                found.append((node.lineno, "." * node.level + (node.module or "")))
    return tuple(sorted(set(found))), tuple(_executed_imports(tree.body))


def _deferred_imports(path: Path) -> list[tuple[int, str]]:
    """(line, imported module) of every import statement inside a function of `path`."""
    return list(_imports(path)[0])


def _violations(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    bad = []
    for line, module in _deferred_imports(path):
        if module.split(".")[0] not in HEAVY_THIRD_PARTY:
            bad.append(f"{line}: {module}")
        elif not _says_deferred(lines, line):
            bad.append(f"{line}: {module} (deferred without a comment saying why)")
    return bad


def _says_deferred(lines: list[str], line: int) -> bool:
    """Whether the import on `line` (1-based), the imports and comments right above it, say it is deferred."""
    block = [lines[line - 1].partition("#")[2]]
    above = line - 2
    while above >= 0 and lines[above].strip().startswith(("#", "from ", "import ")):
        block.append(lines[above].partition("#")[2])
        above -= 1
    return any("defer" in text.lower() for text in block)


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def test_imports_sit_at_the_top_of_every_module() -> None:
    found = {
        _relative(path): bad
        for path in MODULES.values()
        if (bad := _violations(path))
    }
    assert found == {}, "import at the top of the module (only heavy third-party imports may be deferred)"


def test_the_checker_sees_a_deferred_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(textwrap.dedent("""\
        import os


        def f():
            from gatekeeper import errors

            class Inner:
                def g(self):
                    import json

            # deferred: heavy
            import jsonschema

            import regopy
            return errors, Inner, jsonschema, regopy
        """), encoding="utf-8")
    assert _violations(sample) == ["5: gatekeeper", "9: json", "14: regopy (deferred without a comment saying why)"]


def _top_level_imports(name: str, path: Path) -> set[str]:
    """The gatekeeper modules `name` imports when it is executed (TYPE_CHECKING blocks and functions aside)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _imports(path)[1]:
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in MODULES else base)
    return {target for target in targets if target in MODULES and target != name}


def _executed_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements a module's top level runs: inside `if`/`try` too, not under `if TYPE_CHECKING`
    (its `else` yes), not in functions or classes."""
    for node in body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from _executed_imports(node.orelse)
        elif isinstance(node, ast.If | ast.Try):
            yield from _executed_imports(node.body)
            yield from _executed_imports(node.orelse)
            for handler in getattr(node, "handlers", []):
                yield from _executed_imports(handler.body)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def test_no_import_cycles() -> None:
    graph = {name: _top_level_imports(name, path) for name, path in MODULES.items()}
    assert sum(len(targets) for targets in graph.values()) > len(graph)  # the graph was read at all
    assert _cycles(graph) == []


def test_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _cycles(graph) == [["a", "b", "c"]]


def _external_top_level_imports(names: list[str]) -> set[str]:
    """The standard-library and third-party modules the modules `names` import at their top (as
    `_top_level_imports` reads them): for `from a.b import c`, both `a.b` and `a.b.c` (which may be a name)."""
    found: set[str] = set()
    for name in names:
        path = MODULES[name]
        for node in _imports(path)[1]:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif not node.level and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] not in ("gatekeeper", "__future__")}


# Each module is imported first, alone, in a child forked from an interpreter that has loaded no gatekeeper
# module: an order-dependent cycle or a missing import fails there even when the test suite's import order
# hides it. The standard-library and third-party modules our modules import at their top (and the heavy
# libraries some defer) are loaded once before forking, so each child pays only for our code (~1 s less of
# the ~6 s these 200 children cost; the garbage collector, off in a child, saves as much again).
# Of what is left, each child spent ~30% compiling the same regular expressions and ~25% compiling the same
# source of dataclasses' generated methods (`__init__`, `__eq__`, ...) as its siblings. A scout child imports every
# module once and hands back those inputs: the patterns are compiled into `re`'s cache and the methods' code kept
# by their source (dataclasses calls `exec` on it; given the code compiled from that source, it runs the same
# code), before the forks. Each child still runs every statement of its module and of what that imports, in its
# own order; only the compiler's work on text its siblings compiled too is done once. So is the loader's: the parent
# reads each module's code object (SourceFileLoader.get_code: the bytecode read, checked against its source and
# unmarshalled, or the source compiled) and the children's loader hands them that object (children: ~3.8 -> ~2.9
# CPU-s of user time, 2026-12-06).
_PROBE = """
import dataclasses, importlib, marshal, os, re, sys, traceback, gc
for heavy in ("click", "yaml", "jsonschema", "packaging.specifiers", "securesystemslib.signer"):
    importlib.import_module(heavy)
for name in sys.argv[1].split(","):
    try:
        importlib.import_module(name)
    except ModuleNotFoundError:  # `from a.b import c` where c is a name in a.b, not a module
        if name.rpartition(".")[0] not in sys.modules:
            raise
assert not any(name.startswith("gatekeeper") for name in sys.modules)

codes = {}
def exec_compiled(text, scope, names):  # dataclasses' `exec(txt, globals, ns)`, compiling each text once
    code = codes.get(text)
    if code is None:
        code = codes[text] = compile(text, "<string>", "exec")
    exec(code, scope, names)
dataclasses.exec = exec_compiled
re._MAXCACHE = max(re._MAXCACHE, 1 << 16)
read_end, write_end = os.pipe()
scout = os.fork()
if scout == 0:  # imports everything once; a module that fails here fails in its own child below
    os.close(read_end)
    gc.disable()
    for name in sys.argv[2:]:
        try:
            importlib.import_module(name)
        except BaseException:
            pass
    with os.fdopen(write_end, "wb") as out:
        out.write(marshal.dumps(([(pattern, flags) for _, pattern, flags in re._cache], codes)))
    os._exit(0)
os.close(write_end)
with os.fdopen(read_end, "rb") as answer:
    patterns, codes = marshal.loads(answer.read())
os.waitpid(scout, 0)
for pattern, flags in patterns:
    re.compile(pattern, flags)

# Each module's code as its child's own loader would read it (the same loader, the same file), read once here:
# a child runs the code, it does not read, check and unmarshal the bytecode its siblings read too.
from importlib.machinery import SourceFileLoader
loaded = {}
for name in sys.argv[2:]:
    base = os.path.abspath(name.replace(".", os.sep))
    path = os.path.join(base, "__init__.py") if os.path.isdir(base) else base + ".py"
    try:
        loaded[path] = SourceFileLoader(name, path).get_code(name)
    except Exception:  # the child's own loader meets it and fails that module
        pass
own_code = SourceFileLoader.get_code
def get_code(self, fullname):
    code = loaded.get(os.path.abspath(self.path))
    return code if code is not None else own_code(self, fullname)
SourceFileLoader.get_code = get_code

failed = []
for name in sys.argv[2:]:
    pid = os.fork()
    if pid == 0:
        gc.disable()  # a short-lived child: collecting would only copy the parent's pages it walks
        try:
            importlib.import_module(name)
        except BaseException:
            traceback.print_exc()
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if status != 0:
        failed.append(name)
print("\\n".join(failed))
"""


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_every_module_imports_first_in_a_fresh_interpreter() -> None:
    # demo_agent is a script the sandbox runs; it imports the anthropic SDK (a test extra, ~3 s to import).
    names = [name for name in MODULES if name != "gatekeeper.demo_agent"]
    preload = ",".join(sorted(_external_top_level_imports(names)))
    done = subprocess.run([sys.executable, "-c", _PROBE, preload, *names], capture_output=True, text=True, timeout=300,
                          cwd=PACKAGE.parent, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == [], done.stderr[-3000:]


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_the_probe_fails_a_module_that_imports_only_after_another(tmp_path: Path) -> None:
    # `reader` reads a sibling as an attribute of the package without importing it: it imports only when `table` was
    # imported before it, as in the scout and in any one interpreter that imports them in this order. Its own forked
    # child, with no gatekeeper module loaded, must fail it, and only it.
    package = tmp_path / "gatekeeper"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "table.py").write_text("ROWS = 3\n", encoding="utf-8")
    (package / "reader.py").write_text("import gatekeeper\n\nROWS = gatekeeper.table.ROWS\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _PROBE, "json", "gatekeeper.table", "gatekeeper.reader"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["gatekeeper.reader"], done.stderr[-3000:]
    assert "has no attribute 'table'" in done.stderr, done.stderr[-3000:]



@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_the_probe_fails_a_module_whose_code_cannot_be_read_and_runs_the_others_own_code(tmp_path: Path) -> None:
    # The probe reads every module's code once before forking; a module that does not compile gets no code there, and
    # its own child's loader must still meet the error and fail it, and only it. A sibling runs its own code, not a
    # neighbour's: each prints its name when run.
    package = tmp_path / "gatekeeper"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "broken.py").write_text("def broken(:\n    pass\n", encoding="utf-8")
    (package / "one.py").write_text("import sys\n\nsys.stderr.write('ran one\\n')\n", encoding="utf-8")
    (package / "two.py").write_text("import sys\n\nsys.stderr.write('ran two\\n')\n", encoding="utf-8")
    names = ["gatekeeper.one", "gatekeeper.broken", "gatekeeper.two"]
    done = subprocess.run([sys.executable, "-c", _PROBE, "json", *names],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["gatekeeper.broken"], done.stderr[-3000:]
    assert "SyntaxError" in done.stderr, done.stderr[-3000:]
    assert done.stderr.count("ran one") == 2 and done.stderr.count("ran two") == 2, done.stderr  # scout, own child

# STYLE: no module past its purpose, 400 lines (issue 13). A module at the limit is doing more than one thing: move a
# cohesive piece with one purpose (a reader, a family of patterns and their one user, a table and its lookups) into a
# module named for it, rather than squeezing lines.
MAX_MODULE_LINES = 400


def test_no_module_grows_past_400_lines() -> None:
    long = {name: n for name, path in MODULES.items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}, (f"modules over {MAX_MODULE_LINES} lines: move a cohesive piece of each (a reader, a family of "
                        "patterns and their user, a table and its lookups) into a new module named for its purpose "
                        "and import it from there; do not join lines or drop comments")


def test_packaging_requirements_is_imported_for_a_requirement_only() -> None:
    """packaging's requirement parser (its markers, tokenizer and grammar: 10-20 ms of CPU at every gate's start) is
    imported when a requirement line is read, not with the gate's modules."""
    code = ("import sys, gatekeeper.cli, gatekeeper.gate_command, gatekeeper.deps.registry, gatekeeper.deps.edits\n"
            "assert 'packaging.requirements' not in sys.modules, 'imported with the modules'\n"
            "from gatekeeper.deps.pypi import parse_requirements\n"
            "assert [d.name for d in parse_requirements('r.txt', b'requests[socks]==2.31.0\\n')] == ['requests']\n"
            "assert 'packaging.requirements' in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=PACKAGE.parent, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
