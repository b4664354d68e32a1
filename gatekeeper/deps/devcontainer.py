"""Dev Container features: `devcontainer.json` (JSON with comments) and `devcontainer-lock.json`.

A feature is an OCI artifact whose install script runs as root while the container is built, so each is
a dependency: named by its reference without the tag (`ghcr.io/devcontainers/features/node`), at the tag
the manifest asks for (`1`, `1.6`) or the version the lock resolved (`1.6.3`). The container `image` of a
`devcontainer.json` is a docker image (`docker` ecosystem). Features given by a local path are skipped;
one given by a tarball URL is named by its URL; any other form is a problem.
"""

from __future__ import annotations

import re

from gatekeeper.deps.docker import image_version, split_image
from gatekeeper.deps.loaders import load_json, mapping, string, text
from gatekeeper.deps.model import Dependency, ManifestError

# JSONC: `//` and `/* */` comments and trailing commas, outside strings.
_JSONC_TOKEN = re.compile(r'(?P<string>"(?:[^"\\\n]|\\.)*")|(?P<comment>//[^\n]*|/\*.*?\*/)'
                          r'|(?P<trailing>,(?=\s*[\]}]))|[^"/,]+|.', re.DOTALL)
_FEATURE = re.compile(r"^([^\s@:]+(?::\d+)?/[^\s@:]+?)(?::([\w.+-]+)|@(sha256:[0-9a-f]{64}))?$")


def jsonc(data: bytes) -> object:
    """A JSON-with-comments document as JSON: comments, then trailing commas dropped (a comment may sit
    between a comma and its bracket), strings kept as written."""
    source = text(data)
    for drop in ("comment", "trailing"):
        source = "".join(" " if m.group(drop) is not None else m.group(0) for m in _JSONC_TOKEN.finditer(source))
    return load_json(source)


def _feature(path: str, reference: str, version: str) -> Dependency | None:
    if reference.startswith((".", "/")):
        return None  # a local feature (`./my-feature`) is the repository's own code
    if re.match(r"^https?://", reference, re.IGNORECASE):
        # a tarball feature runs as root at build as an OCI one does: named by its URL
        return Dependency("devcontainer", reference, version, path, True, "build")
    m = _FEATURE.match(reference)
    if m is None:
        raise ManifestError(f"a feature reference in a form this reader does not know: {reference[:100]!r}")
    return Dependency("devcontainer", m.group(1), version or m.group(2) or m.group(3) or "", path, True, "build")


def parse_devcontainer(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(jsonc(data), "devcontainer.json")
    out: list[Dependency] = []
    image = string(doc.get("image"))
    if image and "$" not in image:
        name, tag, digest = split_image(image)
        out.append(Dependency("docker", name, image_version(tag, digest), path, True, "build"))
    for reference in mapping(doc.get("features"), "features"):
        if (dep := _feature(path, str(reference), "")) is not None:
            out.append(dep)
    return out


def _locked(data: bytes) -> dict[str, tuple[str, str, str]]:
    """Each locked feature's reference: (version, resolved, integrity)."""
    doc = mapping(load_json(data), "devcontainer-lock.json")
    out: dict[str, tuple[str, str, str]] = {}
    for reference, entry in mapping(doc.get("features"), "features").items():
        entry = mapping(entry, f"feature {reference}")
        out[str(reference)] = (string(entry.get("version")), string(entry.get("resolved")),
                               string(entry.get("integrity")))
    return out


def parse_devcontainer_lock(path: str, data: bytes) -> list[Dependency]:
    """Each locked feature at its resolved version, named by what the CLI pulls: the `resolved` reference
    (without its digest) when there is one, so a digest from another repository is another feature."""
    out: list[Dependency] = []
    for reference, (version, resolved, _) in _locked(data).items():
        pulled = resolved.rpartition("@")[0] if "@" in resolved else reference
        if (dep := _feature(path, pulled, version)) is not None:
            out.append(dep)
    return out


def moved_digests(base: bytes, head: bytes) -> list[str]:
    """Locked features whose digest or integrity moved under the same version: other code, old label."""
    before, after = _locked(base), _locked(head)
    return sorted(f"the digest of {ref} {after[ref][0]}" for ref in before.keys() & after.keys()
                  if before[ref][0] == after[ref][0] and before[ref][1:] != after[ref][1:])
