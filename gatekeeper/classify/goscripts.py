"""The scripts and programs Go's own tools start from Go sources, where CI runs the tool (attack 46).

- `go test` runs each package's tests in the package's folder: a test (a `TestMain` in `main_test.go` as readily)
  that execs `testdata/setup.sh`, `filepath.Join("testdata", "run.sh")` or `../../scripts/it.sh` runs that script in
  the job. The string literals of the `_test.go` files (and the literal parts of each `filepath.Join`/`path.Join`) are
  read for words that name a script of the tree (a script type or an executable) from the test's folder, its
  `testdata/` (a `cmd.Dir = "testdata"`) or the root (fail wide: a test may find the root).
- `go generate` runs the command of each `//go:generate` line from the Go file's folder (red team 37 made the Go file
  `ci`): a word of it that names a script, an executable, a Go file (`go run gen.go`) or a Go package's folder
  (`go run ./tools/gen`: its non-test Go files) is what the job runs; so is the package a `go tool NAME` line runs where
  a go.mod `tool` directive declares it in the tree's own module (gotools.ran; misses 10), past MAX_TOOL_NAMES names
  every package's Go files.

Neither tool's package pattern is narrowed (`go test ./pkg/...`: every package; the safe side); `vendor/` and the
folders the go tool skips (`testdata`, `_x`, `.x`) hold no package `./...` names. Past MAX_GO_READS Go files, every
script and executable of the tree outside `vendor/` counts (fail closed).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

from gatekeeper.classify import gobuilds, gotools, walkpaths
from gatekeeper.classify.gotasks import GO_GENERATE
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.treereads import Read, Tree
from gatekeeper.lazy_pattern import lazy

__all__ = ["GO_TEST", "MAX_GO_READS", "MAX_TOOL_NAMES", "markers", "named", "started", "tool_names"]

# A key of ciwalk.ci_runs' answer no path can be (NUL), as GO_GENERATE: a text the walk read runs `go test`
GO_TEST = "\0go test"
# `go test` (also a Makefile's `$(GO) test`) and the wrappers that run it (gotestsum, richgo, ginkgo, gotest), where a
# command starts (a line, after `;`/`&&`/`run:`/`sh '`, env assignments, `time`): `echo go test` runs nothing
_TESTS = lazy(r"""(?:^|[;&|(`{]|\$\(|\b(?:then|do|run|script|command|sh|time|exec|sudo|xargs|env)\b:?+|-c)[ \t]*+"""
              r"""['"]?+(?:-[ \t]++)?+@?+-?+(?:[A-Za-z_]\w*+=\S*+[ \t]++)*+(?:(?:go|richgo|\$[({]GO[)}])[ \t]++test\b"""
              r"|(?:[\w.-]++/)*+(?:gotestsum|ginkgo|gotest)\b)", re.MULTILINE)
_GENERATE = lazy(r"(?:\bgo|\$[({]GO[)}])[ \t]++generate\b")  # also a Makefile's `$(GO) generate`
MAX_GO_READS = 4096  # Go files read in one tree (then: every script counts)
MAX_TOOL_NAMES = 64  # tools `//go:generate go tool NAME` lines name in one tree (then: every package's Go files)
_DIRECTIVE = lazy(r"(?m)^//go:generate[ \t]++([^\n]{0,4096}+)")
# a Go string: interpreted ("...", escapes) or raw (`...`), each at most 256 characters (longer: not a path)
_LITERAL = lazy(r'"((?:[^"\\\n]|\\.){0,256}+)"|`([^`]{0,256}+)`')
_JOIN = lazy(r"\b(?:filepath|path)\.Join[ \t]*+\(([^()\n]{0,1024}+)\)")
_WORD = lazy(r"[^\s'\"`=,;|&<>()]++")
_SCRIPT = lazy(r"\.(?:sh|bash|zsh|ksh|py|pl|rb|ps1|js|mjs|cjs|ts|php|lua|tcl|bat|cmd)\Z")
_FILE_MODES = ("100644", "100755")


def markers(text: str) -> list[str]:
    """GO_GENERATE and GO_TEST where `text` (a file the walk read) runs `go generate` or `go test`."""
    out = [GO_GENERATE] if "generate" in text and _GENERATE.search(text) is not None else []
    return out + ([GO_TEST] if ("test" in text or "ginkgo" in text) and _TESTS.search(text) is not None else [])


def named(path: str, text: str, *, test: bool, generate: bool) -> list[str]:
    """The words of the Go file at `path` that may name what the go tool runs: its `//go:generate` commands' words
    (`generate`) and, for a `_test.go` file (`test`), its string literals' words and `Join`s of them."""
    words: list[str] = []
    if generate and "//go:generate" in text:
        words += [word for command in _DIRECTIVE.findall(text) for word in _WORD.findall(command)]
    if test and path.endswith("_test.go"):
        for call in _JOIN.findall(text):
            parts = [plain or raw for plain, raw in _LITERAL.findall(call)]
            words += ["/".join(parts)] if parts else []
        words += [word for plain, raw in _LITERAL.findall(text) for word in _WORD.findall(plain or raw)]
    return [word for word in dict.fromkeys(words) if "/" in word or "." in word]


def started(tree: Tree, read_blob: Read, runs: Mapping[str, tuple[str, str]]) -> list[tuple[str, tuple[str, str]]]:
    """The files of `tree` that `go test`'s tests and `go generate`'s directives start where the walk found CI run
    the tool (GO_TEST, GO_GENERATE in `runs`), each with its (rule, evidence)."""
    test, generate = runs.get(GO_TEST), runs.get(GO_GENERATE)
    if test is None and generate is None:
        return []
    sources = [path for path, entry in tree.items() if path.endswith(".go") and entry.mode in _FILE_MODES
               and (generate is not None or path.endswith("_test.go")) and _in_package(path)]
    if len(sources) > MAX_GO_READS:  # not read: any script may be the one a test or directive runs (fail closed)
        rule, evidence = test or generate  # type: ignore[misc]
        return [(path, (rule, f"{evidence}, whose Go files ({len(sources)}, past the {MAX_GO_READS} read) may run "
                              f"{path}")) for path, entry in tree.items() if _runnable(path, entry.mode)
                and not path.startswith("vendor/")]
    packages: dict[str, list[str]] = {}  # a folder: its non-test Go files (what `go run ./folder` builds)
    for path in tree:
        if path.endswith(".go") and not path.endswith("_test.go"):
            packages.setdefault(path.rpartition("/")[0], []).append(path)
    found: list[tuple[str, tuple[str, str]]] = []
    tools = _Tools(tree, read_blob, packages)  # `//go:generate go tool NAME`: go.mod's tool directives, when asked
    for source in sources:
        text = read_blob(tree[source])[:FULL_READ].decode("utf-8", "replace")
        is_test = test is not None and source.endswith("_test.go")
        if not is_test and "//go:generate" not in text:
            continue
        directives = _directive_words(text) if generate is not None and "//go:generate" in text else set()
        for word in named(source, text, test=is_test, generate=generate is not None):
            why = generate if word in directives else test if is_test else None
            found += _hits(tree, packages, source, word, word in directives, why)
        if generate is not None and "tool" in text and "//go:generate" in text:
            found += tools.run(source, text, generate)
        if generate is not None and "go" in directives:  # `go run`'s package past its flags, by its module path
            found += tools.packages(source, text, generate)
    return found


class _Tools:
    """The Go files of the tree's packages the `go tool NAME` commands of `//go:generate` lines run (a go.mod `tool`
    directive's package, gotools.ran; misses 10): each tool name resolved once, past MAX_TOOL_NAMES names every Go file
    of the tree's packages (fail closed, bounded work)."""

    def __init__(self, tree: Tree, read_blob: Read, packages: dict[str, list[str]]) -> None:
        self._tree = tree
        self._mods = gobuilds.Modules(tree, read_blob)
        self._packages = packages
        self._files: dict[str, list[str]] = {}  # by a tool's name: the files `go tool NAME` runs

    def packages(self, source: str, text: str, why: tuple[str, str]) -> list[tuple[str, tuple[str, str]]]:
        """The Go files of the packages `source`'s (`text`'s) directives `go run` (review 70): read as gobuilds reads
        CI's commands, past `go run`'s build flags (`-mod=mod`, `-tags gen`) and by a module path of the tree (its
        go.mod files: a `go.work`'s or a local `replace`'s module too); a fetched `@version` names none."""
        commands = "\n".join(command for command in _DIRECTIVE.findall(text) if "go" in command)
        globs = gobuilds.packages(commands, source, [source.rpartition("/")[0]], self._mods)
        rule, evidence = why
        return [(hit, (rule, f"{evidence}, and a //go:generate line of {source} runs {hit} (go run)"))
                for hit in dict.fromkeys(walkpaths.expanded(self._tree, globs)) if hit in self._tree]

    def run(self, source: str, text: str, why: tuple[str, str]) -> list[tuple[str, tuple[str, str]]]:
        """The files `source`'s (`text`'s) directives run by `go tool`, each with its (rule, evidence)."""
        hits: list[str] = []
        for name in tool_names(text):
            if name not in self._files:
                if len(self._files) >= MAX_TOOL_NAMES:
                    hits += [path for files in self._packages.values() for path in files]
                    break
                globs = gotools.ran(f"go tool {name}", source, [source.rpartition("/")[0]], self._mods)
                self._files[name] = [hit for hit in walkpaths.expanded(self._tree, globs) if hit in self._tree]
            hits += self._files[name]
        rule, evidence = why
        return [(hit, (rule, f"{evidence}, and a //go:generate line of {source} runs {hit} (go tool)"))
                for hit in dict.fromkeys(hits)]


def tool_names(text: str) -> list[str]:
    """The tools the `//go:generate go tool NAME` lines of `text` run (gotools.names; each line at most 4096
    characters, so a line's look-back for a printing command is bounded: linear in the text)."""
    return gotools.names(_DIRECTIVE.findall(text)) if "tool" in text else []


def _hits(tree: Tree, packages: dict[str, list[str]], source: str, word: str, directive: bool,
          why: tuple[str, str] | None) -> list[tuple[str, tuple[str, str]]]:
    """What `word` of the Go file `source` (a directive's or a test's) names that the go tool runs."""
    if why is None:
        return []
    folder, (rule, evidence) = source.rpartition("/")[0], why
    how = "a //go:generate line of" if directive else "a test of"
    out: list[tuple[str, tuple[str, str]]] = []
    for base in [folder, ""] if directive else [folder, posixpath.join(folder, "testdata"), ""]:
        at = posixpath.normpath(posixpath.join(base, word))
        if at.startswith(("../", "/")) or at in ("..", "."):
            continue
        entry = tree.get(at)
        hits = [at] if entry is not None and (_runnable(at, entry.mode) or directive and at.endswith(".go")) \
            else packages.get(at, []) if directive and (word.startswith(".") or "/" in word) else []
        out += [(hit, (rule, f"{evidence}, and {how} {source} runs {hit}")) for hit in hits]
    return out


def _directive_words(text: str) -> set[str]:
    """The words of `text`'s directives that may name what they run: all but a `go run`'s after its first option
    (`go run gen.go -output md5block.go`: the generator runs, its output is written)."""
    words: set[str] = set()
    for command in _DIRECTIVE.findall(text):
        split = _WORD.findall(command)
        ran = split.index("run") + 1 if split[:1] == ["go"] and "run" in split else len(split)
        options = [at for at, word in enumerate(split[ran:], ran) if word.startswith("-") and word != "-"]
        words.update(split[:options[0]] if options and split[:1] == ["go"] else split)
    return words


def _in_package(path: str) -> bool:
    """A Go file of a package `./...` names: not below `vendor/` or a folder the go tool skips (`testdata`, `_x`,
    `.x`)."""
    folders = path.split("/")[:-1]
    return not path.startswith("vendor/") and not any(
        part == "testdata" or part.startswith(("_", ".")) or part == "vendor" for part in folders)


def _runnable(path: str, mode: str) -> bool:
    """A script by its type, or an executable file of no type (an executable `.key` or `.csr` is test data)."""
    name = path.rpartition("/")[2]
    return _SCRIPT.search(name) is not None or mode == "100755" and "." not in name
