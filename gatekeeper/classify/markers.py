"""Tier 2: ancestor markers. Which project roots (a chart, a kustomization, an Ansible project, ...)
hold a path, found through a set of root folders built once from the tree listings.

The index is built from every path of BASE and HEAD (or, without a repository, of the patch), so
a marker present on either side counts: a change cannot delete its own Chart.yaml to escape.
Looking a path up walks its ancestor folders, one dictionary lookup each.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass

from gatekeeper.classify.contextrules import MarkerRule
from gatekeeper.lazy_pattern import lazy

# File types a `config` claim covers (lower-case extensions; files without one are covered too).
CONFIG_EXTENSIONS = frozenset({
    "yaml", "yml", "json", "jsonc", "json5", "toml", "ini", "cfg", "conf", "j2", "jinja", "jinja2", "tpl",
    "tmpl", "gotmpl", "template", "txt", "properties", "env", "jsonnet", "libsonnet", "cue", "xml",
    "crt", "pem", "cer",  # certificates a playbook or kustomization installs
    "pub", "key", "asc",  # and keys: SSH public keys, private keys, armoured signing keys (over-reads 3)
})
# What a `program` claim leaves out: anything below a test folder of the project, and test files named as
# their language's test runner finds them (`*_test.go`, `*.test.ts`, `test_*.py`, `*_test.rego`).
_TEST_FOLDERS = frozenset({"test", "tests", "__tests__", "spec", "specs", "testing", "__snapshots__"})
_TEST_NAME = lazy(
    r"(?:^test_.+\.py|.+_test\.(?:go|py|rego)|.+\.(?:test|spec)\.[cm]?[jt]sx?|.+Tests?\.(?:cs|java|kt))\Z",
    re.IGNORECASE)


# The names kustomize reads a kustomization from.
KUSTOMIZATIONS = frozenset({"kustomization.yaml", "kustomization.yml", "Kustomization"})
# Names without an extension that a `config` or `manifests` claim still leaves alone: build files, notices and
# placeholders, which no deployment tool reads as configuration.
_NOT_CONFIG = frozenset({
    "makefile", "gnumakefile", "license", "licence", "copying", "notice", "authors", "owners", "version",
    "changelog", "readme", ".gitkeep", ".keep", ".gitignore", ".gitattributes", "rakefile", "justfile",
})
# Build files beside a project: no deployment tool reads them, even from a project it otherwise reads every file of
# (a chart kept at a repository's root, an Ansible role's repository) unless the folder is one it reads whole, or
# one an `under` names (a Jenkins shared library's resources/, which a pipeline loads and runs).
_BUILD_FILES = frozenset({"makefile", "gnumakefile", "rakefile", "justfile"})
# Suffixes of a copy of a settings file kept to fill in (`hosts.example`): a `config` claim reads the type before them.
_COPY_SUFFIXES = frozenset({"example", "sample", "dist", "template"})
# Documents no claim covers outside the folders a tool reads whole (a chart's README is documentation).
_DOC_NAMES = ("README", "CHANGELOG", "CHANGES", "LICENSE", "LICENCE", "CONTRIBUTING", "HISTORY")
_DOCUMENT_EXTENSIONS = frozenset({"md", "markdown", "rst", "adoc", "asciidoc"})
# What a `manifests` claim covers: the file types deployment tools read as manifests, values and templates.
_MANIFEST_EXTENSIONS = frozenset({"yaml", "yml", "gotmpl", "tpl", "tmpl", "j2", "jsonnet", "libsonnet", "cue"})
# A template's own type is the one before its template extension: `values.yaml.gotmpl` and `_helpers.tpl` (none) are
# what helmfile, skaffold and Tilt render; `vector.wxs.tmpl` (a WiX installer, the twenty-eighth set) is not.
_TEMPLATE_EXTENSIONS = frozenset({"gotmpl", "tpl", "tmpl", "j2"})
_TEMPLATED_MANIFESTS = frozenset({"", "yaml", "yml", "json"})
_NOT_MANIFEST_FOLDERS = frozenset({"src", "docs", "doc", "test", "tests", "hack", "scripts", "testdata"})
# What a `program` claim covers: source code of the languages IaC programs are written in.
_PROGRAM_EXTENSIONS = frozenset({
    "ts", "mts", "cts", "js", "mjs", "cjs", "py", "go", "cs", "fs", "vb", "java", "kt", "kts", "scala", "rego",
    "cel", "yaml", "yml",
})
# Source code and documents: not what a kustomization lists, wherever they sit (a program that prints a manifest).
NOT_LISTED = frozenset({
    *(_PROGRAM_EXTENSIONS - {"yaml", "yml"}), *_DOCUMENT_EXTENSIONS, "sh", "bash", "rb", "rs", "c", "h", "cc", "cpp",
    "php", "pl", "lua", "swift", "tsx", "jsx", "vue", "svelte", "html", "css", "scss", "sql", "ipynb",
})


@dataclass(frozen=True, slots=True)
class MarkerHit:
    """A marker claiming a path: the rule, the marker's path (the evidence), and whether the path lies in a
    folder the marker's tool reads whole (then even a file a specific path rule named is claimed)."""

    rule: MarkerRule
    marker: str  # "charts/web/Chart.yaml", or "ops/group_vars/" for a folder marker
    whole: bool = False
    stopped: bool = False  # a `stop` file below the root cut the claim: the file's content decides (context.py)


def extension(name: str) -> str:
    """The lower-case extension of a file name ('' when it has none; a leading dot is not one)."""
    stem, dot, ext = name.rpartition(".")
    return ext.lower() if dot and stem else ""


# PATH_MAX: no checkout holds a longer path (Linux refuses to open one), and what is read per folder above a path
# grows with its length times its depth; past it a path is not read (cost 44: context.py, ciimports.imported)
MAX_PATH = 4096


def ancestors(path: str) -> list[str]:
    """The folders holding `path`, nearest first ('' is the repository root); none longer than MAX_PATH (they hold only
    files no checkout opens, ci unread: context.refine; a path of a million folders asked for terabytes, cost 44)."""
    out = []
    folder = path.rpartition("/")[0]
    if len(folder) > MAX_PATH:
        folder = folder[:max(folder.rfind("/", 0, MAX_PATH + 1), 0)]
    while True:
        out.append(folder)
        if not folder:
            return out
        folder = folder.rpartition("/")[0]


def against_ancestors(path: str, word: str) -> list[str]:
    """`word`, a relative path a file at `path` names, resolved against each folder holding `path`, nearest first;
    those that leave the repository are dropped."""
    out = []
    for base in ancestors(path):
        found = posixpath.normpath(posixpath.join(base, word)) if base else posixpath.normpath(word)
        if found not in (".", "..") and not found.startswith("../"):
            out.append(found)
    return out


class MarkerIndex:
    """Project roots by folder ('' is the repository root), from the paths of one or more trees."""

    __slots__ = ("_roots", "_stops_head", "_stops_kept")

    def __init__(self, paths: Iterable[str], markers: Iterable[MarkerRule], head: Iterable[str] = (),
                 kept: Iterable[str] = ()) -> None:
        """`paths`: every path of every tree (a marker on any side counts). `head`: the paths of the new side;
        `kept`: the paths present on every side. A `stop` file ends a claim for a file the change adds when the
        new side holds it, for any other file only when every side does: a change cannot add a manifest beside
        an existing program file to cut it out."""
        files: dict[str, list[MarkerRule]] = {}
        nested: dict[str, list[tuple[str, MarkerRule]]] = {}  # "meta/main.yml": by its file name, with its path
        # "vars/*.groovy": a file-name pattern in a folder, by the folder's name and with the folders above it
        patterned: dict[str, list[tuple[str, str, MarkerRule]]] = {}
        wild_rules: list[tuple[tuple[str, ...], str, MarkerRule]] = []  # the same with a `*` among the folders
        folders: list[tuple[tuple[str, ...], MarkerRule]] = []  # folder shapes, last segment first
        by_extension: dict[str, list[MarkerRule]] = {}  # "*.tf": any file of that type marks its folder
        marked: dict[tuple[str, str], str] = {}  # (folder, rule id): the first file of that type in byte order
        for rule in markers:
            for name in rule.names:
                if name.endswith("/"):
                    folders.append((tuple(reversed(name.rstrip("/").split("/"))), rule))
                elif "/" in name and "*" in name.rpartition("/")[2]:
                    above, _, pattern = name.rpartition("/")
                    if "*" in above:  # "manifests/*/*.pp": any folder at that place, matched segment by segment
                        wild_rules.append((tuple(above.split("/")), pattern, rule))
                    else:
                        patterned.setdefault(above.rpartition("/")[2], []).append((above, pattern, rule))
                elif "/" in name:
                    nested.setdefault(name.rpartition("/")[2], []).append((name, rule))
                elif name.startswith("*."):
                    by_extension.setdefault(name[2:].lower(), []).append(rule)
                else:
                    files.setdefault(name, []).append(rule)
        # fnmatchcase's own test, compiled once: it is asked of every path of both trees
        wild = [(shape, re.compile(fnmatch.translate(pattern)).match, rule) for shape, pattern, rule in wild_rules]
        roots: dict[str, list[MarkerHit]] = {}
        dirs: set[str] = set()
        # The last part of every key (`hcl` of `pkr.hcl`): a name whose own last part is none of them has none.
        endings = {key.rpartition(".")[2] for key in by_extension}
        for path in paths:
            folder, _, name = path.rpartition("/")
            for rule in files.get(name, ()):
                roots.setdefault(folder, []).append(MarkerHit(rule, path))
            for suffix, rule in nested.get(name, ()):
                if path == suffix or path.endswith(f"/{suffix}"):
                    roots.setdefault(path[: -len(suffix)].rstrip("/"), []).append(MarkerHit(rule, path))
            if name.rpartition(".")[2].lower() in endings and (ext := _marker_extension(name, by_extension)):
                for rule in by_extension[ext]:
                    if path < marked.get((folder, rule.id), "\U0010ffff"):
                        marked[(folder, rule.id)] = path
            if patterned:
                for above, pattern, rule in patterned.get(folder.rpartition("/")[2], ()):
                    if (folder == above or folder.endswith(f"/{above}")) and fnmatch.fnmatchcase(name, pattern):
                        roots.setdefault(folder[: -len(above)].rstrip("/"), []).append(MarkerHit(rule, path))
            for shape, named, rule in wild:
                if named(name) is None:
                    continue
                parts = folder.split("/")
                if len(parts) >= len(shape) and all(
                        fnmatch.fnmatchcase(part, want) for part, want in zip(parts[-len(shape):], shape, strict=True)):
                    roots.setdefault("/".join(parts[:-len(shape)]), []).append(MarkerHit(rule, path))
            # Every folder once: stop at the first ancestor already seen. A folder past MAX_PATH holds only files that
            # are ci unread (context.refine): skipped whole, not walked a part at a time (a copy each: cost 44)
            if len(folder) > MAX_PATH:
                folder = folder[:max(folder.rfind("/", 0, MAX_PATH + 1), 0)]
            while folder not in dirs:
                dirs.add(folder)
                if not folder:
                    break
                folder = folder.rpartition("/")[0]
        if folders:
            for folder in dirs:
                segments = folder.split("/")[::-1] if folder else []
                for shape, rule in folders:
                    if len(segments) >= len(shape) and all(
                        fnmatch.fnmatchcase(seg, want) for seg, want in zip(segments, shape, strict=False)
                    ):
                        root = "/".join(reversed(segments[len(shape):]))
                        roots.setdefault(root, []).append(MarkerHit(rule, f"{folder}/"))
        rules = {rule.id: rule for rule in markers}
        for (folder, rule_id), path in marked.items():
            roots.setdefault(folder, []).append(MarkerHit(rules[rule_id], path))
        # Two markers in one folder (a role's meta/main.yml and tasks/main.yml): the one listed first in the rules
        # decides, then the first marker path in byte order, not the order a set of paths happens to iterate in (str
        # hashes differ between processes; the evidence a decision records must replay alike).
        order = {rule.id: i for i, rule in enumerate(markers)}
        for hits in roots.values():
            hits.sort(key=lambda hit: (order[hit.rule.id], hit.marker))
        self._roots = roots
        stop_names = {name for rule in markers for name in rule.stop}
        self._stops_head = _folders_holding(head, stop_names)
        self._stops_kept = _folders_holding(kept, stop_names)

    def __bool__(self) -> bool:
        return bool(self._roots)

    def claim(self, path: str, added: bool = False) -> MarkerHit | None:
        """The nearest marker whose claim covers `path` (`added`: a file the change adds), or None. A claim a
        `stop` file cut is returned (`stopped`) when no other marker claims the path: a stop file does not prove
        that what sits beside it is application code (a stack added beside a function's package.json)."""
        roots = self._roots
        if not roots:
            return None
        name = path.rpartition("/")[2]
        folder = path.rpartition("/")[0]
        stops = self._stops_head if added else self._stops_kept
        stopped = False  # passed a folder below the root that holds a separate application (a `stop` name)
        cut: MarkerHit | None = None
        while True:
            hits = roots.get(folder)
            if hits:
                rel = path[len(folder) + 1:] if folder else path
                for hit in hits:
                    whole = _in_whole(hit.rule, rel)
                    if not (whole or _claims(hit.rule, rel, name)):
                        continue
                    if stopped and hit.rule.stop:
                        cut = cut or MarkerHit(hit.rule, hit.marker, stopped=True)
                        continue
                    return MarkerHit(hit.rule, hit.marker, whole) if whole else hit
            if not folder:
                return cut
            stopped = stopped or folder in stops
            folder = folder.rpartition("/")[0]


    def below_kustomization(self, path: str) -> bool:
        """Whether a folder above `path` holds a kustomization: kustomize reads every file it lists, whatever its
        name (`resources: [deploy.k8s]`), from its folder and below (its load restrictor keeps files there)."""
        folder = path.rpartition("/")[0]
        while True:
            if any(hit.marker.rpartition("/")[2] in KUSTOMIZATIONS for hit in self._roots.get(folder, ())):
                return True
            if not folder:
                return False
            folder = folder.rpartition("/")[0]


def test_file(path: str) -> bool:
    """A test by its name (`*_test.go`, `*.test.ts`, `test_*.py`) or its folder (`test/`, `__tests__/`, ...)."""
    folder, _, name = path.rpartition("/")
    return bool(_TEST_NAME.match(name)) or any(part.lower() in _TEST_FOLDERS for part in folder.split("/"))


def _marker_extension(name: str, by_extension: dict[str, list[MarkerRule]]) -> str:
    """The key of `by_extension` that `name` ends with: its extension (`tf`), or its last two (`pkr.hcl`)."""
    ext = extension(name)
    if not ext:
        return ""
    if ext in by_extension:
        return ext
    stem = name[: -len(ext) - 1]
    double = f"{extension(stem)}.{ext}" if extension(stem) else ""
    return double if double in by_extension else ""


def _folders_holding(paths: Iterable[str], names: set[str]) -> frozenset[str]:
    if not names:
        return frozenset()
    return frozenset(path.rpartition("/")[0] for path in paths if path.rpartition("/")[2] in names)


def _in_whole(rule: MarkerRule, rel: str) -> bool:
    """Whether `rel` lies in a folder the marker's tool reads whole (a chart's templates/, a role's files/)."""
    if not rule.whole:
        return False
    folders = rel.lower().split("/")[:-1]
    return any(folder in rule.whole for folder in folders) and not _skipped(rule, folders)


def _skipped(rule: MarkerRule, folders: list[str]) -> bool:
    """Whether a folder on the way from the root is one the marker never claims (`skip`, shell patterns; one that
    starts with `/` names a folder right below the root only: a chart's `/tests`, not its `templates/tests/` hooks)."""
    if not rule.skip:
        return False
    return any(fnmatch.fnmatchcase(folders[0], pattern[1:]) if pattern.startswith("/")
               else any(fnmatch.fnmatchcase(folder, pattern) for folder in folders)
               for pattern in rule.skip if folders)


def _claims(rule: MarkerRule, rel: str, name: str) -> bool:
    """Whether `rule`'s claim covers the file at `rel` (relative to the marker's folder)."""
    if rule.under and not any(rel == sub or rel.startswith(f"{sub}/") for sub in rule.under):
        return False  # `under` names sub-folders of the root, or a file at it (a cookbook's metadata.rb)
    folders = [part.lower() for part in rel.split("/")[:-1]]
    if _skipped(rule, folders):
        return False
    ext = extension(name)
    if ext in _DOCUMENT_EXTENSIONS or name.upper().startswith(_DOC_NAMES):
        return False  # documentation, wherever a marker sits
    if rule.claims == "all":
        # what a tool reads of a chart, role or cookbook: not the build file beside it; a claim limited to sub-folders
        # (`under`: a shared library's resources/, an orb's scripts/) covers every file there, a Makefile included
        return bool(rule.under) or name.lower() not in _BUILD_FILES
    if rule.claims == "config":
        if ext in _COPY_SUFFIXES and extension(name[: -len(ext) - 1]):
            ext = extension(name[: -len(ext) - 1])  # a copy to fill in (`cloud.conf.example`) is its type
        return ext in CONFIG_EXTENSIONS if ext else name.lower() not in _NOT_CONFIG
    if rule.claims == "types":
        return ext in rule.types
    if rule.claims == "manifests":
        if ext in _TEMPLATE_EXTENSIONS and extension(name[: -len(ext) - 1]) not in _TEMPLATED_MANIFESTS:
            return False  # a template of another type (an installer's `vector.wxs.tmpl`): no deployment tool reads it
        return ext in _MANIFEST_EXTENSIONS and not any(folder in _NOT_MANIFEST_FOLDERS for folder in folders)
    # program: the program's source files, not its tests (test folders, test files by their runner's names)
    if ext not in _PROGRAM_EXTENSIONS or _TEST_NAME.match(name):
        return False
    return not any(folder in _TEST_FOLDERS for folder in folders)
