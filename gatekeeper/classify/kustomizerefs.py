"""The files a kustomization names by a path (`patches: - path: ../../ops/fix.json`, `configMapGenerator: files:`,
`replacements:`, `helmCharts: valuesFile:`, ...): kustomize puts their content into what it applies, so each is
infrastructure whatever its name, type or place.

A kustomization's own folder is covered by its marker (markers.below_kustomization); what this adds is a file
outside that folder (Flux and Argo CD build with `LoadRestrictionsNone`, so `../` paths load), and a file of a
type the marker leaves alone (a `script.py` a generator reads). Every string of every document counts as a path
relative to the kustomization's folder (fail closed: kustomize has many fields that name files, and a string
that names no file of the tree matches nothing); `key=path` (a generator's `files: [name=path]`) names `path`.
URLs and absolute paths are not this repository's files.
"""

from __future__ import annotations

import posixpath

from gatekeeper.classify.yamlnodes import Node, documents

MAX_FILES = 2000  # kustomizations read per tree pair; past it every changed file counts as named (fail closed)
_MAX_PATH = 4096


def referenced(kustomization: str, text: str) -> list[str]:
    """The repository paths the strings of the kustomization at path `kustomization` name (normalised, relative
    to its folder, never above the repository's root)."""
    folder = kustomization.rpartition("/")[0]
    found: list[str] = []
    seen: set[int] = set()
    stack: list[Node] = list(documents(text))
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            for value in (node, node.partition("=")[2]):
                if (path := _resolve(folder, value.strip())) is not None:
                    found.append(path)
            continue
        if not isinstance(node, dict | list) or id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(v for vs in node.values() for v in vs) if isinstance(node, dict) else stack.extend(node)
    return found


def _resolve(folder: str, value: str) -> str | None:
    if not value or len(value) > _MAX_PATH or value.startswith("/") or "://" in value or "\n" in value:
        return None
    path = posixpath.normpath(posixpath.join(folder, value))
    return None if path in (".", "..") or path.startswith("../") else path
