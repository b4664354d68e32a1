"""Review 67b: gobuilds.py's `go.mod` reader under spellings Go reads. A `module` directive in its block form
(`module (` newline path newline `)`) or a raw-string path (`` module `example.com/x` ``) read as the module path
`(` or `` `example.com/x` ``: a package of the module named nothing (exit 0); and a `go.mod` that is a symlink was left
out, so `go run example.com/x/cmd/tool` named the folder of another module of that path, or nothing. A `go.mod` whose
module line Go would refuse, or that holds two, is unreadable: each tail of the path (fail closed)."""

from __future__ import annotations

from collections.abc import Callable

from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import gobuilds
from gatekeeper.gitobjects import TreeEntry

RUN = "go run example.com/x/cmd/tool"
TARGET = "cmd/tool/*.go"


def _modules(files: dict[str, str], links: dict[str, str] | None = None) -> gobuilds.Modules:
    tree: dict[str, TreeEntry] = {}
    blobs: dict[str, bytes] = {}
    for path, text in {**files, **(links or {})}.items():
        tree[path] = TreeEntry("120000" if path in (links or {}) else "100644", f"oid:{path}")
        blobs[f"oid:{path}"] = text.encode("utf-8", "surrogateescape")
    read: Callable[[TreeEntry], bytes] = lambda entry: blobs[entry.oid]  # noqa: E731
    return gobuilds.Modules(tree, read)


def _named(files: dict[str, str], links: dict[str, str] | None = None, run: str = RUN) -> list[str]:
    return gobuilds.packages(run, ".github/workflows/ci.yml", [""], _modules({"cmd/tool/main.go": "x", **files}, links))


_PATHS = ["example.com/x", '"example.com/x"', "`example.com/x`"]
_LINES = [*(f"module {path}\n" for path in _PATHS), *(f"module\t{path} // the product\n" for path in _PATHS),
          *(f"module {path}\r\n" for path in _PATHS), *(f"module (\n\t{path}\n)\n" for path in _PATHS),
          *(f"module (\r\n    {path} // c\r\n)\r\n" for path in _PATHS), *(f"module ({path})\n" for path in _PATHS)]


@each_case("gomod", [f"{head}{line}go 1.22\n" for line in _LINES for head in ("", "// c\n\n")])
def test_each_spelling_of_the_module_directive_names_the_package(gomod: str) -> None:
    assert TARGET in _named({"go.mod": gomod})


@each_case(("files", "links"), [
    ({"conf/go.mod": "module example.com/x\n"}, {"go.mod": "conf/go.mod"}),
    ({"conf/go.mod": "module example.com/x\n"}, {"go.mod": "l1", "l1": "conf/go.mod"}),
    ({"conf/real.mod": "module example.com/x\n", "conf/go.mod": "module example.com/x\n"}, {"go.mod": "conf/real.mod"}),
    ({}, {"go.mod": "../outside/go.mod"}),  # leaves the tree: unreadable, each tail (fail closed)
    ({}, {"go.mod": "go.mod"}),  # a loop: the same
])
def test_a_symlinked_go_mod_is_read_where_it_points(files: dict[str, str], links: dict[str, str]) -> None:
    assert TARGET in _named(files, links)


@each_case("gomod", ["module example.com/x\nmodule example.com/y\n", "module (\n)\n", "module\n",
                     "module (\n\ta\n\tb\n)\n",
                     "module example.com/x extra\n", "module \"example.com/x\n", "module (example.com/x\n",
                     "\ufeffmodule example.com/x\n", "\x00\udcff\n"])
def test_a_module_directive_go_refuses_is_unreadable(gomod: str) -> None:
    assert [module.path for module in _modules({"go.mod": gomod}).read()] == [None]
    assert TARGET in _named({"go.mod": gomod})


@each_case(("gomod", "path"), [("module example.com/y\n", "example.com/y"),
                               ("// module example.com/x\nmodule example.com/y\n", "example.com/y"),
                               ("module example.com/y\nrequire (\n\tmodule.example/z v1\n)\n", "example.com/y"),
                               ("module example.com/y // module example.com/x\n", "example.com/y")])
def test_another_module_names_nothing_of_this_path(gomod: str, path: str) -> None:
    assert [module.path for module in _modules({"go.mod": gomod}).read()] == [path]
    assert _named({"go.mod": gomod}) == []


@each_case("text", [repeated("module " + " " * 30 + "x\n", "", ""), repeated(" " * 40 + "a\n", "module (\n", ""),
                    repeated("module" + " " * 60, "", "x"), repeated("//" * 20 + "\n", "module example.com/x\n", "")])
def test_a_go_mod_is_read_in_linear_time(text: object) -> None:
    assert_linear(gobuilds.module_path, text, budget=1.0)  # type: ignore[arg-type]
