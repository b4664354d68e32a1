"""pre-commit hooks: `.pre-commit-config.yaml`, each `repos:` entry a repository at a `rev`.

A hook repository is code that runs on every developer's machine and in CI, so each is a dependency:
named by its repository (`astral-sh/ruff-pre-commit` for `https://github.com/astral-sh/ruff-pre-commit`,
the URL without scheme elsewhere), at its `rev`. `rev: <sha>  # frozen: v0.15.22` (pre-commit's
`autoupdate --freeze`, and Renovate's) keeps the version in a comment, read as an action's version comment is
(beside a full commit sha only): a claim that orders and names the version, never more. `local` and `meta`
repositories are the project's own.
"""

from __future__ import annotations

import re

from gatekeeper.deps.loaders import listing, load_yaml, mapping, string, text
from gatekeeper.deps.model import Dependency

# Only a full commit sha carries its comment: a comment beside a branch or tag (`rev: main  # frozen: v1.2.4`)
# would let a claim order a move to a ref that names no fixed code.
REV_COMMENT = re.compile(r"^\s*(?:-\s+)?rev:\s*['\"]?([0-9a-f]{40})['\"]?\s+#\s*(?:frozen:\s*)?(v?\d[\w.+-]*)\s*$")


def repo_name(url: str) -> str:
    url = re.sub(r"\.git/*$|/+$", "", url.strip())
    github = re.match(r"^(?:https?://|git@)github\.com[/:]([^/]+/[^/]+)$", url)
    return github.group(1) if github else re.sub(r"^[a-z+]+://", "", url)


def parse_pre_commit(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_yaml(data), ".pre-commit-config.yaml")
    comments = {m.group(1): m.group(2) for line in text(data).splitlines() if (m := REV_COMMENT.match(line))}
    out: list[Dependency] = []
    for entry in listing(doc.get("repos"), "repos"):
        entry = mapping(entry, "a repos entry")
        url = string(entry.get("repo"))
        if not url or url in ("local", "meta"):
            continue
        rev = string(entry.get("rev"))
        out.append(Dependency("pre-commit", repo_name(url), rev, path, True, "dev", comments.get(rev, "")))
    return out
