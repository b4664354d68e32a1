"""The Go files CI runs without naming them: the `//go:generate` lines `go generate` runs (go_generated, red team 37,
moved here from ciwalk.py) and the task packages a Go program CI runs imports from its own module (task_files, the
seventieth set; tests/test_classify_seventieth_classes.py).

goyek/workflow's workflow runs `./goyek.sh all` → `go run ./build`, and `build/main.go` imports
`github.com/goyek/workflow`, the module's root package, whose files define the goyek tasks the job runs. The Go reader
(gorun.py, ciruns.py) made the program's files `ci`; nothing read what the program imports, so an edit of a task
(`go-lint.go`: what `go vet` and golangci-lint run with) stayed `src` and was allowed.

Taken: every non-test Go file of a package of the module (its import path: the `module` line of the nearest `go.mod`
joined with the folder below it) that a Go file the walk found CI runs imports by an import line, when a non-test file
of the package imports a Go task runner (`github.com/goyek/goyek`, mage's `github.com/magefile/mage/mg`) by an import
line. Not taken: a product package the program imports (no task runner: following a program's imports wherever they
lead reaches the product, as ciimports.py says of Python), a task package nothing CI runs imports, `_test.go` files, a
package of a nested module the outer path does not name, a runner named in a comment. Bounds (each read once a walk):
past MAX_PROGRAMS programs every package counts as imported, past MAX_PACKAGE_FILES files a package counts as a task
package (the safe side, still only Go files); each line is matched by possessive patterns, linear in its length.

mage_files (cileft67): mage compiles and runs the Go files of the folder it runs in that carry a `mage` build tag
(`//go:build mage`, `// +build mage`), or the `magefiles/` folder there; taskrunners.py named only `magefile.go`
and `magefiles/`. The folder is where the walk found `mage` run (it names `magefile.go` there) or where a Go program
CI runs imports `github.com/magefile/mage/mage` (the zero-install `go run mage.go`). Past MAX_PACKAGE_FILES Go files in
such a folder, every one counts (fail closed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from gatekeeper.classify.treereads import Read, Tree
from gatekeeper.lazy_pattern import lazy

__all__ = ["GO_GENERATE", "MAX_PACKAGE_FILES", "MAX_PROGRAMS", "go_generated", "mage_files", "task_files"]

# A key of ciwalk.ci_runs' answer no path can be (NUL): a text the walk read runs `go generate`, which runs the command
# of every `//go:generate` line of the Go files of the packages it names (red team 37; go_generated reads changed ones).
GO_GENERATE = "\0go generate"
_DIRECTIVE = lazy(rb"(?m)^//go:generate[ \t]")

MAX_PROGRAMS = 64  # Go files CI runs, read for their imports
MAX_PACKAGE_FILES = 512  # files of one package read for a task runner's import (64 counted Vikunja's 91-file models)
_FILE_MODES = ("100644", "100755")
# an import line: `import "x"`, `\t"x"`, `\tgoyek "x"`, `_ "x"`, a trailing comment; possessive: linear per line
_IMPORT = lazy(r'^[ \t]*+(?:import[ \t]++)?+(?:[\w.]++[ \t]++)?+"([^"\s]++)"[ \t]*+(?://[^\n]*+)?+$',
                     re.MULTILINE)
_RUNNER = lazy(r"github\.com/(?:goyek/goyek(?:/v\d++)?+|magefile/mage/mg)")
_MAGE_MAIN = "github.com/magefile/mage/mage"  # the package whose Main() a zero-install `mage.go` calls
# a build constraint line naming the `mage` tag, before the package clause (mage's own test: the tag's presence)
_MAGE_TAG = lazy(r"^//[ \t]*+(?:go:build|\+build)[ \t][^\n]*?(?<![\w.-])mage(?![\w.-])", re.MULTILINE)
_MAGE_HEADER = 4096  # bytes of a Go file read for its build constraints (they stand before `package`)
_MODULE = lazy(r'^[ \t]*+module[ \t]++"?+([^\s"]++)"?+[ \t]*+(?://[^\n]*+)?+$', re.MULTILINE)


def go_generated(runs: Mapping[str, tuple[str, str]], sides: Iterable[str], trees: tuple[Tree, ...],
                 read_blob: Read) -> tuple[str, str] | None:
    """(rule, evidence) when the walk saw `go generate` run (GO_GENERATE in `runs`) and a side of a change is a Go file
    holding a `//go:generate` line in a tree (its command runs in that job; the package pattern is not narrowed)."""
    if GO_GENERATE not in runs:
        return None
    rule, evidence = runs[GO_GENERATE]
    for side in sides:
        if side.endswith(".go") and any(_DIRECTIVE.search(read_blob(tree[side])) for tree in trees
                                        if side in tree and tree[side].mode in _FILE_MODES):
            return rule, f"{evidence}, which runs the //go:generate lines of {side}"
    return None


def task_files(tree: Tree, read_blob: Read, runs: Mapping[str, tuple[str, str]]) -> list[tuple[str, tuple[str, str]]]:
    """The non-test Go files of `tree`'s task packages the Go files in `runs` (what CI runs) import, each with its
    (rule, evidence)."""
    programs = sorted(path for path, (rule, _) in runs.items() if path.endswith(".go") and rule.startswith("ci.")
                      and path in tree and tree[path].mode in _FILE_MODES)
    if not programs:
        return []
    imported: dict[str, str] = {}  # import path -> the first program importing it
    for program in programs[:MAX_PROGRAMS]:
        for name in _IMPORT.findall(read_blob(tree[program]).decode("utf-8", "replace")):
            imported.setdefault(name, program)
    past = f"one of the {len(programs)} Go files CI runs (past the {MAX_PROGRAMS} read)" \
        if len(programs) > MAX_PROGRAMS else ""
    packages: dict[str, list[str]] = {}  # folder -> its non-test Go files
    for path, entry in tree.items():
        if path.endswith(".go") and not path.endswith("_test.go") and entry.mode in _FILE_MODES:
            packages.setdefault(path.rpartition("/")[0], []).append(path)
    modules: dict[str, tuple[str, str] | None] = {}
    found = []
    for folder, files in packages.items():
        if (module := _module(tree, read_blob, folder, modules)) is None:
            continue
        root, path = module
        below = folder[len(root) + 1:] if root else folder
        package = f"{path}/{below}" if below else path
        if (program := imported.get(package) or past) and (runner := _runner(tree, read_blob, files)):
            evidence = f"{program} (a Go program CI runs) imports {package}, a package of Go tasks ({runner})"
            found += [(name, ("ci.context.ci-run", evidence)) for name in files]
    return found


def mage_files(tree: Tree, read_blob: Read,
               runs: Mapping[str, tuple[str, str]]) -> list[tuple[str, tuple[str, str]]]:
    """The Go files mage runs in the folders the walk found it run (`mage`, `go run mage.go`), each with its (rule,
    evidence): the folder's files with the `mage` build tag and its `magefiles/` folder's."""
    folders: dict[str, str] = {}
    for path, (rule, evidence) in runs.items():
        if rule.startswith("ci.") and path.rpartition("/")[2] == "magefile.go":
            folders.setdefault(path.rpartition("/")[0], evidence.replace(path, "mage"))
    programs = [path for path, (rule, _) in runs.items() if path.endswith(".go") and rule.startswith("ci.")
                and path in tree and tree[path].mode in _FILE_MODES]
    for program in programs[:MAX_PROGRAMS]:
        if _MAGE_MAIN in _IMPORT.findall(read_blob(tree[program]).decode("utf-8", "replace")):
            folders.setdefault(program.rpartition("/")[0], f"{runs[program][1]}, which runs mage")
    if len(programs) > MAX_PROGRAMS:
        folders.update(dict.fromkeys((path.rpartition("/")[0] for path in programs), "a Go program CI runs (past the "
                                     f"{MAX_PROGRAMS} read) may run mage"))
    if not folders:
        return []
    by_folder: dict[str, list[str]] = {}  # folder -> its non-test Go files (one pass over the tree)
    for path, entry in tree.items():
        if path.endswith(".go") and not path.endswith("_test.go") and entry.mode in _FILE_MODES:
            by_folder.setdefault(path.rpartition("/")[0], []).append(path)
    found = []
    for folder, evidence in folders.items():
        own = by_folder.get(folder, [])
        tasks = by_folder.get(f"{folder}/magefiles" if folder else "magefiles", [])
        if len(own) <= MAX_PACKAGE_FILES:
            own = [path for path in own if _MAGE_TAG.search(
                read_blob(tree[path])[:_MAGE_HEADER].decode("utf-8", "replace").partition("\npackage ")[0])]
        found += [(path, ("ci.context.ci-run", f"{evidence}: mage runs {path}")) for path in (*own, *tasks)]
    return found


def _module(tree: Tree, read_blob: Read, folder: str,
            seen: dict[str, tuple[str, str] | None]) -> tuple[str, str] | None:
    """The nearest go.mod's folder and module path, from `folder` up (None: no module, or no module line)."""
    if folder not in seen:
        name = f"{folder}/go.mod" if folder else "go.mod"
        if name in tree and tree[name].mode in _FILE_MODES:
            found = _MODULE.search(read_blob(tree[name]).decode("utf-8", "replace"))
            seen[folder] = (folder, found.group(1)) if found else None
        else:
            seen[folder] = _module(tree, read_blob, folder.rpartition("/")[0], seen) if folder else None
    return seen[folder]


def _runner(tree: Tree, read_blob: Read, files: list[str]) -> str | None:
    """The task runner one of a package's `files` imports (past MAX_PACKAGE_FILES: counted as one, the safe side)."""
    if len(files) > MAX_PACKAGE_FILES:
        return f"one of {len(files)} files, past the {MAX_PACKAGE_FILES} read"
    for path in files:
        text = read_blob(tree[path]).decode("utf-8", "replace")
        if (runner := next((name for name in _IMPORT.findall(text) if _RUNNER.fullmatch(name)), None)):
            return f"it imports {runner}"
    return None
