"""No `str` or `bytes` grown by `+=` in a loop (cost 44; tests/test_imports.py's style: the AST of every module).

Growing an immutable string a piece at a time copies every piece before it at each step unless CPython can extend it
in place, which a profile or trace function or a fragmented heap stops (cost 43: `docker.instructions` cost 1.95 CPU-s
at 1 MiB in a long process, 0.34 in a fresh one; the cost helper's 16/64 KiB texts never show it). Cost 43 fixed 9 such
loops by hand; this test keeps them out. A name counts as a string where the function (or module) binds it to a
string or bytes literal, an f-string, or annotates it `str`/`bytes`; it is grown in a loop by `name += …` or
`name = name + …` inside a `for`/`while` (a comprehension is no statement loop). Gather the pieces in a list and join
them once, or grow a `bytearray` (amortized in place). ALLOWED holds only what is proven bounded, with the reason.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gatekeeper"

# (module path from the package, function, name): why it stays bounded
ALLOWED: dict[tuple[str, str, str], str] = {
    ("diff/lines.py", "read_lines", "pending"): "cut to MAX_KEPT (4 KiB) after each piece: a bounded line's copies",
    ("runner/relay_bridge.py", "read_secret", "data"): "the loop ends past SECRET_MAX (128 bytes)",
}

_STRING_TYPES = frozenset({"str", "bytes"})


def _is_string(value: ast.expr | None) -> bool:
    return isinstance(value, ast.JoinedStr) or isinstance(value, ast.Constant) and isinstance(value.value, str | bytes)


def _string_names(body: list[ast.stmt]) -> set[str]:
    """The names a scope binds to a string or bytes (a literal, an f-string, an annotation), tuples unpacked."""
    names: set[str] = set()
    for node in _own_nodes(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and (
                isinstance(node.annotation, ast.Name) and node.annotation.id in _STRING_TYPES):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and _is_string(node.value):
                    names.add(target.id)
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    names.update(element.id for element, value in zip(target.elts, node.value.elts, strict=False)
                                 if isinstance(element, ast.Name) and _is_string(value))
    return names


def _own_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of `body`, not those of the functions and classes defined in it (their own scopes)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _grown(node: ast.AST, names: set[str]) -> str | None:
    """The string name `node` grows (`name += …`, `name = name + …`), if any."""
    if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and isinstance(node.target, ast.Name):
        return node.target.id if node.target.id in names else None
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
            and isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.Add) \
            and isinstance(node.value.left, ast.Name) and node.value.left.id == node.targets[0].id:
        return node.targets[0].id if node.targets[0].id in names else None
    return None


def grown_in_loops(source: str) -> list[tuple[str, str, int]]:
    """(scope, name, line) of each string or bytes name grown by `+=` (or `x = x + …`) in a loop of `source`."""
    tree = ast.parse(source)
    scopes: list[tuple[str, list[ast.stmt]]] = [("<module>", tree.body)]
    scopes += [(node.name, node.body) for node in ast.walk(tree)
               if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
    found = []
    for scope, body in scopes:
        names = _string_names(body)
        stack: list[tuple[ast.AST, bool]] = [(node, False) for node in body]  # (node, whether inside a loop)
        while stack:
            node, looped = stack.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                continue
            if looped and (name := _grown(node, names)) is not None:
                found.append((scope, name, node.lineno))
            looped = looped or isinstance(node, ast.For | ast.AsyncFor | ast.While)
            stack.extend((child, looped) for child in ast.iter_child_nodes(node))
    return sorted(set(found), key=lambda row: row[2])


def test_no_string_is_grown_in_a_loop() -> None:
    found = [(str(path.relative_to(PACKAGE)), scope, name, line) for path in sorted(PACKAGE.rglob("*.py"))
             for scope, name, line in grown_in_loops(path.read_text(encoding="utf-8"))]
    unproven = [row for row in found if row[:3] not in ALLOWED]
    assert not unproven, "join a list of the pieces once, or grow a bytearray: " + ", ".join(
        f"{path}:{line} {scope}.{name}" for path, scope, name, line in unproven)
    assert {row[:3] for row in found} >= ALLOWED.keys(), "an allowed name that no longer grows: drop it"


def test_the_checker_sees_each_form_and_its_look_alikes() -> None:
    source = textwrap.dedent("""
        TOTAL = ""
        for piece in PIECES:
            TOTAL += piece
        def text(lines):
            out = ""
            for line in lines:
                out += line
            return out
        def data(sock):
            data, fds = b"", []
            while True:
                data = data + sock.recv(4)
        def typed(parts):
            kept: str
            kept = parts[0]
            for part in parts:
                if part:
                    kept += f"/{part}"
        def fstring(parts):
            out = f"{parts[0]}"
            while parts:
                out += parts.pop()
        def fine(lines, count):
            buffer = bytearray()
            total = 0
            pieces = []
            joined = ""
            for line in lines:
                buffer += line
                total += len(line)
                pieces += [line]
            joined += "once"
            def inner():
                for line in lines:
                    joined += line
            return [x + "a" for x in lines]
    """)
    assert [(scope, name) for scope, name, _ in grown_in_loops(source)] == [
        ("<module>", "TOTAL"), ("text", "out"), ("data", "data"), ("typed", "kept"), ("fstring", "out")]
