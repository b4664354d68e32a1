"""Dev Container features: `devcontainer.json` (JSON with comments) and `devcontainer-lock.json`.

A feature is an OCI artifact whose install script runs as root while the container is built, so each is
a dependency: named by its reference without the tag (`ghcr.io/devcontainers/features/node`), at the tag
the manifest asks for (`1`, `1.6`) or the version the lock resolved (`1.6.3`). The container `image` of a
`devcontainer.json` is a docker image (`docker` ecosystem). Features given by a local path are skipped;
one given by a tarball URL is named by its URL; any other form is a problem.

From a patch's hunks alone (`devcontainer_line`, `lock_hunks`): a changed feature key (`"…/node:1": {`) or `image`
line of a devcontainer.json, and a lock entry whose key and `version` line the hunk shows; any other changed line
that may name one, a `resolved` reference of another feature, or a digest that moved under a version the hunk does
not move, fails closed (ManifestError, then a `partial` problem).
"""

from __future__ import annotations

import re

from gatekeeper.deps.docker import image_version, split_image
from gatekeeper.deps.edits import Side
from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.loaders import load_json, mapping, string, text
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

# JSONC: `//` and `/* */` comments and trailing commas, outside strings.
_JSONC_TOKEN = lazy(r'(?P<string>"(?:[^"\\\n]|\\.)*")|(?P<comment>//[^\n]*|/\*.*?\*/)'
                          r'|(?P<trailing>,(?=\s*[\]}]))|[^"/,]+|.', re.DOTALL)
# A feature reference: `registry/path/name`, then `:tag` (empty in `…/terraform:`, which Dependabot writes for the
# latest) or `@sha256:digest`.
_FEATURE = lazy(r"^([^\s@:]+(?::\d+)?/[^\s@:]+?)(?::([\w.+-]*)|@(sha256:[0-9a-f]{64}))?$")


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


# A feature's key opening its options (`"ghcr.io/devcontainers/features/node:1": {` or `…: {},`) and the image line.
_FEATURE_KEY = lazy(r'^\s*"([^"\\]+)"\s*:\s*\{\s*(?:\}\s*)?,?\s*$')
_IMAGE_LINE = lazy(r'^\s*"image"\s*:\s*"([^"\\$]+)"\s*,?\s*$')


def devcontainer_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A devcontainer.json line a patch changes: a feature key, named and tagged as the whole-file reader names it,
    or the container `image`; a local feature's key names nothing. Any other line (a feature's option, a setting)
    is refused: the hunk alone cannot say it names no dependency."""
    line = side[index][0]
    if (image := _IMAGE_LINE.match(line)) is not None:
        name, tag, digest = split_image(image.group(1))
        return [(name, image_version(tag, digest), "docker")]
    key = _FEATURE_KEY.match(line)
    if key is None or "/" not in key.group(1):
        raise ManifestError(f"not a feature or image line: {line.strip()[:80]!r}")
    dep = _feature("", key.group(1), "")
    return [] if dep is None else [(dep.name, dep.version)]


_LOCK_KEY = lazy(r'^ {4}"([^"\\]+)"\s*:\s*\{\s*$')
_LOCK_FIELD = lazy(r'^ {6}"(version|resolved|integrity)"\s*:\s*"([^"\\]*)"\s*,?\s*$')
_LOCK_LOOSE = lazy(r'"(?:version|resolved|integrity)"\s*:')


def lock_hunks(path: str, data: bytes) -> list[Dependency]:
    """Each lock entry a hunk shows with its key and `version` (hunks.sides' lines), named as the whole-file
    reader names it; a changed field whose entry the hunk does not show, a `resolved` reference of another
    feature than the key's, or a changed digest beside a version the hunk does not change is a ManifestError."""
    out: list[Dependency] = []
    key: str | None = None
    moved = False  # the entry's version line is a changed one
    for raw in text(data).splitlines():
        changed = raw.startswith(CHANGED)
        line = raw.lstrip(CHANGED)
        if raw == HUNK or line.strip().startswith("}"):
            key = None
            continue
        if (opened := _LOCK_KEY.match(line)) is not None:
            key, moved = opened.group(1), changed
            continue
        field = _LOCK_FIELD.match(line)
        if field is None:
            if changed and _LOCK_LOOSE.search(line):
                raise ManifestError(f"a lock line in a form not read from hunks: {line.strip()[:80]!r}")
            continue
        if key is None:
            if changed:
                raise ManifestError("a changed lock field whose feature the hunk does not show")
            continue
        if field.group(1) == "version":
            moved = moved or changed
            if (dep := _feature(path, key, field.group(2))) is not None:
                out.append(Dependency(dep.ecosystem, dep.name, field.group(2), path, True, "build"))
            continue
        if changed and not moved:
            raise ManifestError(f"the digest of {key[:80]!r} moved under a version the hunk does not move")
        pulled = field.group(2).rpartition("@")[0] if field.group(1) == "resolved" else ""
        wanted = _feature(path, key, "")
        if pulled and (wanted is None or (_feature(path, pulled, "") or wanted).name != wanted.name):
            raise ManifestError(f"{key[:80]!r} resolves to another feature: {pulled[:80]!r}")
    return out
