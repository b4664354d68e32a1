"""Package URLs (https://github.com/package-url/purl-spec) for the delta's changes.

Types: npm, pypi, golang, cargo, gem, composer, maven, nuget, docker, cocoapods, githubactions (as GitHub's
dependency graph writes actions), deb and apk (a Dockerfile's system packages; the distribution, which the line does
not name, is left out), and helm / terraform / pecl, which the spec does not define yet.
"""

from __future__ import annotations

import re
from urllib.parse import quote

_TYPES = {"npm": "npm", "pip": "pypi", "go": "golang", "cargo": "cargo", "bundler": "gem", "composer": "composer",
          "maven": "maven", "nuget": "nuget", "docker": "docker", "github-actions": "githubactions",
          "helm": "helm", "terraform": "terraform", "cocoapods": "cocoapods", "deb": "deb", "apk": "apk",
          "pecl": "pecl"}


def _enc(part: str) -> str:
    return quote(part, safe=".-_~")


def purl(ecosystem: str, name: str, version: str | None) -> str:
    """The purl of `name` at `version` (no version part when None)."""
    kind = _TYPES.get(ecosystem, "generic")
    subpath = qualifiers = ""
    if kind == "pypi":
        name = re.sub(r"[-_.]+", "-", name).lower()
    elif kind == "maven":
        name = name.replace(":", "/", 1)
    elif kind == "githubactions":
        owner_repo = name.split("/")
        name, subpath = "/".join(owner_repo[:2]), "/".join(owner_repo[2:])
    elif kind == "docker":
        registry, _, rest = name.partition("/")
        if rest and registry in ("docker.io", "index.docker.io"):
            name = rest
        elif rest and ("." in registry or ":" in registry or registry == "localhost"):
            name, qualifiers = rest, f"?repository_url={_enc(registry)}"
        if "/" not in name and not qualifiers:
            name = f"library/{name}"  # Docker Hub's official images
    namespace, _, leaf = name.rpartition("/")
    parts = [_enc(p) for p in namespace.split("/") if p] + [_enc(leaf)]
    text = f"pkg:{kind}/{'/'.join(parts)}"
    if version:
        text += f"@{_enc(version)}"
    text += qualifiers
    if subpath:
        text += "#" + "/".join(_enc(p) for p in subpath.split("/") if p not in ("", ".", ".."))
    return text
