"""Content facts per file for policies: base images, workflow actions and their pinning, workflow
permissions and triggers added, Kubernetes kinds. Small and bounded: lists are capped at MAX_ITEMS."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from gatekeeper.deps import actions, docker
from gatekeeper.deps.loaders import load_json, load_yaml, load_yaml_all, text
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.registry import format_for
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import FileChange

MAX_ITEMS = 50
MAX_DOCUMENTS = 1000
# Triggers that run a workflow with secrets or write access on code from outside the repository.
RISKY_TRIGGERS = frozenset({"pull_request_target", "workflow_run", "issue_comment"})


@dataclass(frozen=True, slots=True)
class FileFacts:
    """The facts of one file; `kind` says which fields mean something."""

    kind: str  # "dockerfile" | "workflow" | "kubernetes" | "registries" | "settings"
    images_added: tuple[dict[str, str], ...] = ()  # dockerfile: {"name", "tag", "digest"}
    images_removed: tuple[dict[str, str], ...] = ()
    actions_added: tuple[dict[str, object], ...] = ()  # workflow: {"name", "ref", "pinned"}
    actions_removed: tuple[dict[str, object], ...] = ()
    unpinned_actions: int = 0  # workflow: `uses:` at HEAD whose ref is not a full commit sha
    triggers_added: tuple[str, ...] = ()
    risky_triggers_added: tuple[str, ...] = ()
    permissions_added: tuple[str, ...] = ()  # "scope:level", "write-all"; top level and per job
    kinds_added: tuple[str, ...] = ()  # kubernetes: "apiVersion/kind"
    kinds_removed: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    registries_added: tuple[str, ...] = ()  # registries: package index / registry URLs a config file names
    registries_removed: tuple[str, ...] = ()
    errors: tuple[str, ...] = field(default_factory=tuple)  # a side that did not parse

    def to_dict(self) -> dict[str, object]:
        fields: dict[str, object] = {"kind": self.kind}
        for name in self.__slots__:
            value = getattr(self, name)
            if name != "kind" and value not in ((), 0):
                fields[name] = list(value) if isinstance(value, tuple) else value
        return fields


def _cap(items: list[Any]) -> tuple[Any, ...]:
    return tuple(items[:MAX_ITEMS])


_FACT_FORMATS = frozenset({"requirements", "pyproject.toml", "composer.json", "Dockerfile", "workflow", "action",
                           "pom.xml", "msbuild"})


def wants_facts(path: str) -> bool:
    """Whether `facts_for` may find facts for a file of this path (cheap: the name alone)."""
    fmt = format_for(path)
    name = path.rsplit("/", 1)[-1]
    return (name in _REGISTRY_FILES or path.lower().endswith((".yaml", ".yml"))
            or fmt is not None and fmt.name in _FACT_FORMATS)


def facts_for(change: FileChange, base: bytes | None, head: bytes | None) -> FileFacts | None:
    """The facts of one changed file from its BASE and HEAD content (None for a side that does not
    exist); None when the file is of no kind with facts."""
    fmt = format_for(change.path)
    base_name = change.path.rsplit("/", 1)[-1]
    try:
        if base_name in _REGISTRY_FILES or fmt is not None and fmt.name in ("requirements", "pyproject.toml"):
            return _registries(base_name if base_name in _REGISTRY_FILES else fmt.name if fmt else "", base, head)
        if fmt is not None and fmt.name == "composer.json":
            return _moved("registries", _composer_repositories(base), _composer_repositories(head))
        if fmt is not None and fmt.name in _XML_SOURCES:
            return _moved("registries", _xml_sources(fmt.name, base), _xml_sources(fmt.name, head))
        if fmt is not None and fmt.name == "Dockerfile":
            return _dockerfile(base, head)
        if fmt is not None and fmt.name in ("workflow", "action"):
            return _workflow(base, head)
        if change.path.lower().endswith((".yaml", ".yml")):
            return _kubernetes(base, head)
    except ManifestError as exc:
        kind = "dockerfile" if fmt and fmt.name == "Dockerfile" else "workflow" if fmt else "kubernetes"
        return FileFacts(kind, errors=(str(exc),))
    return None


# Files that name where packages come from; in a requirements file only its options do, in pyproject.toml
# only `url = ...` keys (index and source tables), elsewhere every URL.
_REGISTRY_FILES = frozenset({".npmrc", ".yarnrc", ".yarnrc.yml", "bunfig.toml", "pip.conf", "pip.ini", "uv.toml",
                             "Gemfile", "nuget.config", "NuGet.Config", "NuGet.config", "settings.xml", ".pypirc",
                             "Pipfile", "Pipfile.lock"})
# a URL from the first letter of a run of scheme characters (its group): each run is read once, not once from each
# of its letters (4 KiB of `a` with no `://`: quadratic)
_URL = lazy(r"(?<![a-z0-9+.-])[0-9+.-]*+([a-z][a-z0-9+.-]*+://[^\s\"'<>]+)", re.IGNORECASE)
_LINES = {"requirements": lazy(r"^\s*(?:--(?:extra-)?index-url|-i|--find-links|-f|--trusted-host)\b"),
          "pyproject.toml": lazy(r"^\s*url\s*=")}


def _registries(kind: str, base: bytes | None, head: bytes | None) -> FileFacts | None:
    def urls(data: bytes | None) -> set[str]:
        if data is None:
            return set()
        pattern = _LINES.get(kind)
        lines = [ln for ln in text(data).splitlines() if pattern is None or pattern.match(ln)]
        return {u.rstrip(",;)") for ln in lines for u in _URL.findall(ln)}

    moved = _moved("registries", urls(base), urls(head))
    if moved is not None and kind in _SETTINGS_FILES and _settings(base) != _settings(head):
        # Registries moved and something else too (red team 10: a registry removed beside npm's `node-options`
        # or yarn's `yarnPath` counted as explained by the removal): `settings`, which the deps policy does not
        # take as explained, with the same registries (an added one is still reviewed as new).
        return FileFacts("settings", registries_added=moved.registries_added,
                         registries_removed=moved.registries_removed)
    return moved


# Registry configs whose other lines are settings of the package manager (not Gemfile or Pipfile, read otherwise).
_SETTINGS_FILES = _REGISTRY_FILES - {"Gemfile", "Pipfile", "Pipfile.lock"}
_SETTING_COMMENT = lazy(r"^\s*(?:[#;].*)?$")


def _settings(data: bytes | None) -> list[str]:
    """A config's lines that name no URL (blank lines and comments left out), in any order."""
    if data is None:
        return []
    return sorted(line.strip() for line in text(data).splitlines()
                  if not _SETTING_COMMENT.match(line) and not _URL.search(line))


def _moved(kind: str, old: set[str], new: set[str]) -> FileFacts | None:
    if old == new:
        return None
    return FileFacts(kind, registries_added=_cap(sorted(new - old)), registries_removed=_cap(sorted(old - new)))


# Where a build file sends its package manager (red team 10: a pom.xml `<repository>` or a project's
# `<RestoreSources>` beside an in-level bump was allowed): Maven's repositories and plugin repositories (by their
# `<url>`), MSBuild's restore feeds and folders (each `;`-separated value, a URL or a path).
_POM_REPOSITORY = lazy(r"<((?:plugin)?[Rr]epository)\b[^>]*>(.*?)</\1\s*>", re.DOTALL)
# The url's text, stripped by the caller (`<url>\s*([^<]*?)\s*</url>` split blanks three ways: 1 KiB of them 0.58 CPU-s,
# 4 KiB 34 s)
_POM_URL = lazy(r"<url>([^<]*)</url>")
_MSBUILD_SOURCES = lazy(r"<(Restore(?:Sources|AdditionalProjectSources|FallbackFolders|ConfigFile))\b[^>]*>"
                              r"([^<]*)</\1\s*>")
_XML_SOURCES = frozenset({"pom.xml", "msbuild"})


def _xml_sources(kind: str, data: bytes | None) -> set[str]:
    if data is None:
        return set()
    body = text(data)
    if kind == "pom.xml":
        return {url.strip() for block in _POM_REPOSITORY.finditer(body) for url in _POM_URL.findall(block.group(2))}
    return {value.strip() for m in _MSBUILD_SOURCES.finditer(body) for value in m.group(2).split(";")
            if value.strip()}


def _composer_repositories(data: bytes | None) -> set[str]:
    """The `repositories` of a composer.json (a VCS fork, a path, a private Packagist, `packagist.org: false`):
    where Composer looks for packages before packagist.org, so a new one can serve any package under its
    name. Each entry by its `url`, else by the whole entry."""
    doc = load_json(data) if data is not None else None
    repositories = doc.get("repositories") if isinstance(doc, dict) else None
    entries = list(repositories.items()) if isinstance(repositories, dict) else \
        list(enumerate(repositories)) if isinstance(repositories, list) else []
    found = set()
    for key, entry in entries:
        url = entry.get("url") if isinstance(entry, dict) else None
        found.add(url if isinstance(url, str) else json.dumps({str(key): entry}, sort_keys=True)[:200])
    return found


def _dockerfile(base: bytes | None, head: bytes | None) -> FileFacts:
    def images(data: bytes | None) -> list[dict[str, str]]:
        found = docker.from_images(text(data)) if data is not None else []
        return [{"name": n, "tag": t, "digest": d} for n, t, d in found]

    old, new = images(base), images(head)
    return FileFacts("dockerfile", images_added=_cap([i for i in new if i not in old]),
                     images_removed=_cap([i for i in old if i not in new]))


def _uses(data: bytes | None) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for dep in actions.parse_workflow("", data) if data is not None else []:
        if dep.ecosystem == "maven":
            continue  # the Scala versions a build matrix lists (scalamatrix.py): no step the workflow runs
        docker_image = dep.ecosystem == "docker"
        pinned = "@sha256:" in dep.version if docker_image else bool(actions.FULL_SHA.match(dep.version))
        out.append({"name": dep.name, "ref": dep.version, "pinned": pinned})
    return out


def _doc(data: bytes | None) -> dict[Any, Any]:
    doc = load_yaml(data) if data is not None else None
    return doc if isinstance(doc, dict) else {}


def _triggers(doc: dict[Any, Any]) -> set[str]:
    on = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on:` key as true
    if isinstance(on, str):
        return {on}
    if isinstance(on, (list, dict)):
        return {str(t) for t in on}
    return set()


def _permissions(doc: dict[Any, Any]) -> set[str]:
    found: set[str] = set()
    blocks = [doc.get("permissions")]
    jobs = doc.get("jobs")
    if isinstance(jobs, dict):
        blocks += [job.get("permissions") for job in list(jobs.values())[:1000] if isinstance(job, dict)]
    for block in blocks:
        if isinstance(block, str):
            found.add(block)
        elif isinstance(block, dict):
            found |= {f"{scope}:{level}" for scope, level in block.items() if level in ("write", "read", "none")}
    return found


def _workflow(base: bytes | None, head: bytes | None) -> FileFacts:
    old_uses, new_uses = _uses(base), _uses(head)
    old_doc, new_doc = _doc(base), _doc(head)
    triggers = sorted(_triggers(new_doc) - _triggers(old_doc))
    return FileFacts(
        "workflow",
        actions_added=_cap([u for u in new_uses if u not in old_uses]),
        actions_removed=_cap([u for u in old_uses if u not in new_uses]),
        unpinned_actions=sum(1 for u in new_uses if not u["pinned"]),
        triggers_added=_cap(triggers),
        risky_triggers_added=_cap([t for t in triggers if t in RISKY_TRIGGERS]),
        permissions_added=_cap(sorted(p for p in _permissions(new_doc) - _permissions(old_doc)
                                      if p.endswith(":write") or p == "write-all")),
    )


def _kinds(data: bytes | None) -> list[str]:
    if data is None:
        return []
    body = text(data)
    if "apiVersion" not in body or "kind" not in body:
        return []
    kinds: list[str] = []
    for doc in load_yaml_all(data, MAX_DOCUMENTS):
        if isinstance(doc, dict) and isinstance(doc.get("kind"), str) and isinstance(doc.get("apiVersion"), str):
            kinds.append(f"{doc['apiVersion']}/{doc['kind']}")
    return kinds


def _kubernetes(base: bytes | None, head: bytes | None) -> FileFacts | None:
    old, new = _kinds(base), _kinds(head)
    if not old and not new:
        return None
    return FileFacts("kubernetes", kinds_added=_cap(sorted(set(new) - set(old))),
                     kinds_removed=_cap(sorted(set(old) - set(new))), kinds=_cap(sorted(set(new))))
