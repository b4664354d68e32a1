"""Tier 2: ancestor markers. Which project roots (a chart, a kustomization, an Ansible project, ...)
hold a path, found through a set of root folders built once from the tree listings.

The index is built from every path of BASE and HEAD (or, without a repository, of the patch), so
a marker present on either side counts: a change cannot delete its own Chart.yaml to escape.
Looking a path up walks its ancestor folders, one dictionary lookup each.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass

from gatekeeper.classify.contextrules import MarkerRule

# File types a `config` claim covers (lower-case extensions; files without one are covered too).
CONFIG_EXTENSIONS = frozenset({
    "yaml", "yml", "json", "jsonc", "json5", "toml", "ini", "cfg", "conf", "j2", "jinja", "jinja2", "tpl",
    "tmpl", "gotmpl", "template", "txt", "properties", "env", "jsonnet", "libsonnet", "cue", "xml",
})
# What a `program` claim leaves out: docs, and anything below a test folder of the project.
_DOC_EXTENSIONS = frozenset({"md", "rst", "txt", "adoc"})
_TEST_FOLDERS = frozenset({"test", "tests", "__tests__", "spec", "specs", "testing", "__snapshots__"})


@dataclass(frozen=True, slots=True)
class MarkerHit:
    """A marker claiming a path: the rule and the marker's path (the evidence)."""

    rule: MarkerRule
    marker: str  # "charts/web/Chart.yaml", or "ops/group_vars/" for a folder marker


def extension(name: str) -> str:
    """The lower-case extension of a file name ('' when it has none; a leading dot is not one)."""
    stem, dot, ext = name.rpartition(".")
    return ext.lower() if dot and stem else ""


class MarkerIndex:
    """Project roots by folder ('' is the repository root), from the paths of one or more trees."""

    __slots__ = ("_roots",)

    def __init__(self, paths: Iterable[str], markers: Iterable[MarkerRule]) -> None:
        files: dict[str, list[MarkerRule]] = {}
        nested: dict[str, list[tuple[str, MarkerRule]]] = {}  # "meta/main.yml": by its file name, with its path
        folders: list[tuple[tuple[str, ...], MarkerRule]] = []  # folder shapes, last segment first
        for rule in markers:
            for name in rule.names:
                if name.endswith("/"):
                    folders.append((tuple(reversed(name.rstrip("/").split("/"))), rule))
                elif "/" in name:
                    nested.setdefault(name.rpartition("/")[2], []).append((name, rule))
                else:
                    files.setdefault(name, []).append(rule)
        roots: dict[str, list[MarkerHit]] = {}
        dirs: set[str] = set()
        for path in paths:
            folder, _, name = path.rpartition("/")
            for rule in files.get(name, ()):
                roots.setdefault(folder, []).append(MarkerHit(rule, path))
            for suffix, rule in nested.get(name, ()):
                if path == suffix or path.endswith(f"/{suffix}"):
                    roots.setdefault(path[: -len(suffix)].rstrip("/"), []).append(MarkerHit(rule, path))
            # Every folder once: stop at the first ancestor already seen.
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
        self._roots = roots

    def __bool__(self) -> bool:
        return bool(self._roots)

    def claim(self, path: str) -> MarkerHit | None:
        """The nearest marker whose claim covers `path`, or None."""
        roots = self._roots
        if not roots:
            return None
        name = path.rpartition("/")[2]
        folder = path.rpartition("/")[0]
        while True:
            hits = roots.get(folder)
            if hits:
                rel = path[len(folder) + 1:] if folder else path
                for hit in hits:
                    if _claims(hit.rule, rel, name):
                        return hit
            if not folder:
                return None
            folder = folder.rpartition("/")[0]


def _claims(rule: MarkerRule, rel: str, name: str) -> bool:
    """Whether `rule`'s claim covers the file at `rel` (relative to the marker's folder)."""
    if rule.under and not any(rel.startswith(f"{sub}/") for sub in rule.under):
        return False
    if rule.claims == "all":
        return True
    ext = extension(name)
    if rule.claims == "config":
        return not ext or ext in CONFIG_EXTENSIONS
    # program: not docs, not licences, not below a test folder of the project
    if ext in _DOC_EXTENSIONS or name.upper().startswith(("LICENSE", "LICENCE", "README")):
        return False
    return not any(part.lower() in _TEST_FOLDERS for part in rel.split("/")[:-1])
