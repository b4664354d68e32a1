"""The project code a linter or type checker CI runs loads from its settings (attack 48).

pylint imports the modules of `load-plugins` and runs `init-hook` (Python code in the settings); mypy imports its
`plugins` (a module, or a file path from the settings' folder); flake8 imports a `[flake8:local-plugins]` entry point's
module from `paths`; RuboCop requires the relative paths of `require:`/`plugins:`, and reads the settings files of
`inherit_from:` as its own; coverage.py (`coverage`, pytest-cov's `--cov`) imports the modules of its `[run] plugins`
(misses 7); `golangci-lint custom` builds the Go files of each local `path:` of `.custom-gcl.yml`'s `plugins` into the
linter the job runs (misses 7). Each runs that code in the CI job before it reads a line of the product, and none of it
was named: an edit of a plugin was exit 0. Read where a text runs the tool (by name, `python -m`, a `bin/` stub): the
settings file its flag names (`--rcfile`, `--config-file`, `--config`, `-c`), else the tool's documented ones at the
root. A module is named with each package `__init__.py` on its way; a settings file with an `init-hook` is named itself
(its code runs). Section headers and keys are read by lines, so a settings file TOML or INI refuses (an unclosed header)
is still read; a bare plugin name (`pydantic.mypy`, `rubocop-rails`) with no file in the tree names nothing.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping

from gatekeeper.classify import composerscripts, gobuilds
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.classify.symlinks import folder_at, physical_target
from gatekeeper.classify.treereads import Read
from gatekeeper.gitobjects import TreeEntry
from gatekeeper.lazy_pattern import lazy

__all__ = ["Settings", "loaded", "settings_loads"]

_DEFAULTS = {"pylint": ("pylintrc", ".pylintrc", "pyproject.toml", "setup.cfg", "tox.ini"),
             "coverage": (".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml"),
             "mypy": ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"),
             "flake8": (".flake8", "setup.cfg", "tox.ini"), "rubocop": (".rubocop.yml",),
             "golangci-lint": (".custom-gcl.yml", ".custom-gcl.yaml"),
             "phpstan": ("phpstan.neon", "phpstan.neon.dist", "phpstan.dist.neon")}
_FLAGS = {"pylint": ("--rcfile",), "coverage": ("--rcfile", "--cov-config"),
          "mypy": ("--config-file",), "flake8": ("--config",), "rubocop": ("-c", "--config"), "golangci-lint": (),
          "phpstan": ("-c", "--configuration")}
_KEYS = {"pylint": ("load-plugins", "init-hook"), "coverage": ("plugins",),
         "mypy": ("plugins",), "flake8": ("extension", "report", "paths"),
         "rubocop": ("require", "plugins", "inherit_from"), "golangci-lint": ("plugins",), "phpstan": ()}
_TOOL = lazy(r"(?<![\w./-])(?:[\w.-]*+/)*+(pylint|d?mypy|flake8|rubocop|coverage|--cov|golangci-lint|phpstan)(?![\w.-])"
             r"([^\n;&|`)]*+)")
_PLUGIN_PATH = lazy(r"(?<![\w-])path[ \t]*+:[ \t]*+['\"]?+([^\s'\"]++)")
_GO_FILES = (".go", "go.mod", "go.sum")
_CUSTOM = lazy(r"(?:@[^\s]*+)?+[ \t]++custom(?![\w-])")
_HEADER = lazy(r"[ \t]*+\[([^\]\n]*+)\]?")
_KEY = lazy(r"([ \t]*+)([\w.-]++)[ \t]*+[=:][ \t]*+(.*+)")
_MODULE = lazy(r"[A-Za-z_]\w*+(?:\.[A-Za-z_]\w*+)*+")
_IMPORT = lazy(r"\b(?:import|from)[ \t]++([\w.]++)")
_STRING = lazy(r"""["']([\w./-]++)["']""")
_SPLIT = lazy(r"[\s,\[\]\"'()]++")
_SHARED = ("pyproject.toml", "setup.cfg", "tox.ini")  # settings files the tools share (and `.flake8`: "flake8")
_MAX_LINKS = 40  # links followed to a settings file (the kernel's bound, ELOOP)
_REGULAR = ("100644", "100755")
_LINK = "120000"


class Settings:
    """A tree's settings files a linter may read (by name: a tool's name in the path, or a shared settings file); its
    repr is their blob ids, a cache key of what the walk reads (BASE's reading of a text is no answer for HEAD's
    settings)."""

    def __init__(self, tree: Mapping[str, TreeEntry], read_blob: Read) -> None:
        self.tree = tree
        self.read_blob = read_blob
        self.keyed = frozenset(path for path in tree if "pylint" in path or "mypy" in path or "flake8" in path
                               or "rubocop" in path or "coverage" in path or "custom-gcl" in path
                               or "phpstan" in path or path.endswith(_SHARED)
                               or path.rpartition("/")[2] == "composer.json")  # PHPStan's classes' map (misses 8)

    def __repr__(self) -> str:
        return repr(sorted((path, self.tree[path].oid) for path in self.keyed))


def loaded(text: str, settings: Settings) -> list[str]:
    """The files (from the root) the linters `text` runs load as code from their settings; and a settings file read
    whose name the cache key leaves out (`--rcfile ci/lint.cfg`), itself (fail closed: its edit is reviewed)."""
    if not any(tool in text for tool in ("pylint", "mypy", "flake8", "rubocop", "coverage", "--cov", "golangci",
                                         "phpstan")):
        return []
    found: list[str] = []
    done: set[tuple[str, str]] = set()  # (tool, file): each settings file read once, however often it is named
    for match in _TOOL.finditer(text):
        if gobuilds.quiet(text, match.start()):
            continue
        tool = "coverage" if match.group(1) == "--cov" else match.group(1).removeprefix("d")
        if tool == "golangci-lint" and _CUSTOM.match(match.group(2)) is None:
            continue  # only `golangci-lint custom` builds the module plugins into a linter (misses 7)
        flagged = re.search(rf"(?:{'|'.join(_FLAGS[tool])})(?:=|[ \t]++)['\"]?([^\s'\"]++)", match.group(2)) \
            if _FLAGS[tool] else None
        files = [posixpath.normpath(flagged.group(1))] if flagged else list(_DEFAULTS[tool])
        found += _read(tool, files, settings, done)
    return list(dict.fromkeys(path for path in found if path in settings.tree))


def _read(tool: str, files: list[str], settings: Settings, done: set[tuple[str, str]]) -> list[str]:
    """What the settings `files` (and the ones they inherit, to the chain's end) load; a file read through a symlink
    is read where it points, its relative paths resolved from both folders (review 67b)."""
    found: list[str] = []
    queue = list(reversed(files))
    while queue:
        path = queue.pop()
        physical = _opened(settings, path)
        if physical is None or (tool, physical) in done:
            continue
        done.add((tool, physical))
        found += [file for file in dict.fromkeys((path, physical)) if file not in settings.keyed]
        data = settings.read_blob(settings.tree[physical])
        found += [physical] if len(data) > FULL_READ else []  # past the read: the file itself (fail closed)
        name = path.rpartition("/")[2]
        folders = list(dict.fromkeys((path.rpartition("/")[0], physical.rpartition("/")[0])))
        whole = "pylintrc" in name or name.endswith((".yml", ".yaml", ".flake8", "mypy.ini", ".coveragerc")) \
            or (tool == "coverage" and not name.endswith(_SHARED))  # `--rcfile ci/cov.ini`: its `[run]`
        bases = [""]
        text = data[:FULL_READ].decode("utf-8", "replace")
        if tool == "phpstan":
            found += [p for folder in folders for p in _phpstan(folder, text, settings, done)]
            continue
        loads = [(key, value) for key, section, value in settings_loads(text)
                 if key in _KEYS[tool] and (whole or tool in section.lower())
                 and (tool != "flake8" or section.lower() == "flake8:local-plugins")]
        bases += [posixpath.normpath(posixpath.join(folder, word)).removeprefix(".") for folder in folders
                  for key, value in loads if key == "paths" for word in _SPLIT.split(value) if word]
        for key, value in loads:
            if key == "init-hook":
                found.append(physical)  # its code runs: the settings file is a program
                hooked = [*bases, *(posixpath.normpath(posixpath.join(folder, at)) for folder in folders
                                    for at in _STRING.findall(value))]
                found += [p for module in _IMPORT.findall(value) for base in hooked for p in _module(module, base)]
                continue
            if tool == "golangci-lint":  # each module plugin's local folder: its Go files and go.mod
                below = [posixpath.normpath(posixpath.join(folder, at)) + "/" for folder in folders
                         for at in _PLUGIN_PATH.findall(value)]
                found += [p for p in settings.tree if p.startswith(tuple(below)) and p.endswith(_GO_FILES)]
                continue
            for word in _SPLIT.split(value):
                word = word.removeprefix("-") if tool == "rubocop" else word
                if not word or key == "paths":
                    continue
                relative = [posixpath.normpath(posixpath.join(folder, word)) for folder in folders]
                if key == "inherit_from" and word.endswith((".yml", ".yaml")) and "://" not in word:
                    queue += reversed(relative)
                elif tool == "rubocop" and word.startswith("."):  # a relative require; a bare name is a gem
                    found += [file if file.endswith(".rb") else f"{file}.rb" for file in relative]
                elif tool == "mypy" and (word.endswith(".py") or "/" in word):
                    found += relative
                elif tool != "rubocop":  # a module, `mod.path:entry` or `X = mod.path:Class`
                    module = word.partition("=")[2] or word
                    if _MODULE.fullmatch(module := module.partition(":")[0]):
                        found += [p for base in bases for p in _module(module, base)]
    return found


# review 67a: PHPStan runs the PHP files of `parameters: bootstrapFiles:` (and the old `bootstrap:`) before it analyses,
# and reads the settings files `includes:` lists as its own; a NEON list, block or flow, a value read to its line's end
_NEON_KEY = lazy(r"^([ \t]*+)(bootstrapFiles|bootstrap|includes)[ \t]*+:[ \t]*+([^\n#]*+)", re.MULTILINE)
_NEON_ITEM = lazy(r"[^\s'\"\[\],]++")
_NEON_ROOTS = ("%currentWorkingDirectory%/", "%rootDir%/../../../")


def _phpstan(folder: str, text: str, settings: Settings, done: set[tuple[str, str]]) -> list[str]:
    """The bootstrap files (from the root) a PHPStan settings text and the settings files it includes name."""
    found: list[str] = []
    lines = text.splitlines()
    for key in _NEON_KEY.finditer(text):
        words = _NEON_ITEM.findall(key.group(3))
        at = text.count("\n", 0, key.start()) + 1
        while not words and at < len(lines) and lines[at].strip().startswith("-"):  # a block list below the key
            words += _NEON_ITEM.findall(lines[at].strip()[1:])
            at += 1
        for word in words:
            rooted = next((word.removeprefix(root) for root in _NEON_ROOTS if word.startswith(root)), None)
            if rooted is None and word.startswith("%"):
                continue  # another parameter's value
            path = posixpath.normpath(rooted if rooted is not None else posixpath.join(folder, word))
            if key.group(2) == "includes":
                found += _read("phpstan", [path], settings, done)
            else:
                found.append(path)
    return found + _phpstan_classes(folder, text, settings)


# misses 8: PHPStan builds the classes of `rules:`, `services:` (`class:`, `factory:`, a bare item) and (review 68b)
# `conditionalTags:` (its keys) from the project's autoload map and runs them on every file it reads: their files are
# the job's code. A class no prefix of the root's or the settings folder's composer.json maps is a dependency's
# (PHPStan's own rules), named by nothing.
_NEON_SECTIONS = ("rules", "services", "conditionalTags")
_NEON_TOP = lazy(r"^([A-Za-z_][\w-]*+)[ \t]*+:", re.MULTILINE)
_NEON_CLASS = lazy(r"(?<![\w\\'\"])\\?+((?:[A-Za-z_]\w{0,255}+\\){1,32}+[A-Za-z_]\w{0,255}+)(?![\w\\])")


def _phpstan_classes(folder: str, text: str, settings: Settings) -> list[str]:
    """The files of the project classes a PHPStan settings text's `rules:` and `services:` name."""
    tops = list(_NEON_TOP.finditer(text))
    ends = [top.start() for top in tops[1:]] + [len(text)]
    names = [name for top, end in zip(tops, ends, strict=True) if top.group(1) in _NEON_SECTIONS
             for name in _NEON_CLASS.findall(text, top.end(), end)]
    found: list[str] = []
    unmapped: set[str] = set()  # the file names of the classes of a manifest that cannot be read
    for manifest in dict.fromkeys(["composer.json", posixpath.join(folder, "composer.json")]) if names else ():
        entry = settings.tree.get(manifest)
        if entry is None:
            continue
        data = settings.read_blob(entry) if entry.mode in _REGULAR else b""
        for name, files in composerscripts.class_files(manifest.rpartition("/")[0], names[:composerscripts.MAX_CLASSES],
                                                       data if len(data) <= FULL_READ else b""):
            found += files or []
            unmapped |= {name.rpartition("\\")[2] + ".php"} if files is None else set()
    # one past what is read, a link, or not JSON: each class's file anywhere in the tree (review 68a; fail closed)
    return found + [path for path in settings.tree if path.rpartition("/")[2] in unmapped] if unmapped else found


def _opened(settings: Settings, path: str) -> str | None:
    """The path of the regular file a checkout opens at `path` (a symlinked folder on the way, a chain of links at
    its end: followed as the kernel does); None when there is none, or the walk leaves the tree or loops."""
    text = _text(settings.read_blob)
    folder, _, name = path.rpartition("/")
    folder = (folder_at(settings.tree, folder, text) or folder) if folder else ""
    path = f"{folder}/{name}" if folder else name
    for _ in range(_MAX_LINKS):
        entry = settings.tree.get(path)
        if entry is None or entry.mode in _REGULAR:
            return path if entry is not None else None
        target = physical_target(path, text(entry), settings.tree, text) if entry.mode == _LINK else None
        if target is None:
            return None
        path = target
    return None


def _text(read_blob: Read) -> Callable[[TreeEntry], str]:
    return lambda entry: read_blob(entry)[:FULL_READ].decode("utf-8", "replace")


def _module(module: str, base: str) -> list[str]:
    """The files Python imports for `module` from the folder `base`: each package's `__init__.py`, then the module."""
    parts = module.split(".")
    packages = [posixpath.join(base, *parts[:at], "__init__.py") for at in range(1, len(parts) + 1)]
    return [*packages, posixpath.join(base, *parts) + ".py"]


def settings_loads(text: str) -> list[tuple[str, str, str]]:
    """[(key, section, value)] of a settings text read by lines: INI and TOML `key = value` (a value continued on
    the more indented lines below, a TOML list), YAML `key: value` with its list items; `#`/`;` lines are comments."""
    out: list[tuple[str, str, str]] = []
    section = ""
    lines = text.splitlines()
    at = 0
    while at < len(lines):
        line = lines[at]
        at += 1
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        if stripped[0] == "[" and (header := _HEADER.match(line)) is not None:
            section = header.group(1).strip().strip('"')
            continue
        if (key := _KEY.match(line)) is None:
            continue
        indent, value = len(key.group(1)), [key.group(3)]
        while at < len(lines) and (not lines[at].strip() or len(lines[at]) - len(lines[at].lstrip()) > indent
                                   or lines[at].lstrip().startswith(("- ", "]"))):
            if lines[at].strip() and lines[at].lstrip()[0] not in "#;":
                value.append(lines[at].strip())
            at += 1
        out.append((key.group(2), section, " ".join(value)))
    return out
