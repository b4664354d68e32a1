"""Kustomize: `kustomization.yaml` — the images it sets, the Helm charts it inflates, the images its patches write.

- `images:` entries (`{name, newName?, newTag?, digest?}`, the image transformer): the image that runs is
  `newName` (else `name`) at `newTag` / `digest`; an entry that sets neither only renames and names no version.
- `helmCharts:` entries (`{name, repo, version}`) are Helm charts, as a `Chart.yaml` dependency is.
- `image:` lines anywhere in the file (inline `patches:` are YAML strings inside YAML, so their lines are read
  as lines, as Compose files are).
- remote `resources:` / `components:` / `bases:` on GitHub, which the build fetches: a remote target
  (`github.com/o/r/deploy?ref=v0.8.1`) at its `ref`, a release asset
  (`https://github.com/o/r/releases/download/v1.6.1/crds.yaml`) at its tag; ecosystem `kustomize`, named
  `github.com/o/r` (Renovate's kustomize manager and its annotated regex managers bump both); a file served raw
  (`https://raw.githubusercontent.com/o/r/v1.9.8/deploy/crds.yaml`) at its ref, there and as a generator's file
  (`configMapGenerator`'s `files:`, `key=URL` too).
The file must be YAML (a problem otherwise), whichever of these it holds.
"""

from __future__ import annotations

from gatekeeper.deps.docker import image_version
from gatekeeper.deps.loaders import listing, load_yaml, mapping, string
from gatekeeper.deps.model import Dependency
from gatekeeper.deps.toolfiles import parse_compose
from gatekeeper.lazy_pattern import lazy

_REMOTE = lazy(r"^(?:https://|git::https://|ssh://git@)?github\.com[/:]([\w.-]+/[\w.-]+?)(?:\.git)?(?:/[^?\s]*)?"
               r"\?(?:[^\s]*&)?ref=([^&\s]+)$")
_RELEASE = lazy(r"^https://github\.com/([\w.-]+/[\w.-]+)/releases/download/([^/\s]+)/[^\s]+$")
# A file of a repository at a ref, as GitHub serves it raw (budimanjojo/home-cluster's
# `https://raw.githubusercontent.com/rook/rook/v1.9.8/deploy/examples/crds.yaml`, which Renovate moves)
_RAW = lazy(r"^https://raw\.githubusercontent\.com/([\w.-]+/[\w.-]+)/([^/\s]+)/[^\s]+$")
_GENERATORS = ("configMapGenerator", "secretGenerator")
_REMOTE_LISTS = ("resources", "components", "bases")


def remote(entry: str) -> tuple[str, str] | None:
    """(`github.com/o/r`, ref) of a remote kustomize resource on GitHub; None for a local path or anything else."""
    m = _REMOTE.match(entry) or _RELEASE.match(entry) or _RAW.match(entry)
    return (f"github.com/{m.group(1)}", m.group(2)) if m is not None else None


def parse_kustomization(path: str, data: bytes) -> list[Dependency]:
    doc = mapping(load_yaml(data), "kustomization.yaml")
    out: list[Dependency] = []
    for entry in listing(doc.get("images"), "images"):
        entry = mapping(entry, "an images entry")
        name = string(entry.get("newName")) or string(entry.get("name"))
        tag, digest = string(entry.get("newTag")), string(entry.get("digest")).removeprefix("sha256:")
        if name and (tag or digest):
            out.append(Dependency("docker", name, image_version(tag, f"sha256:{digest}" if digest else ""), path,
                                  True, "runtime"))
    for entry in listing(doc.get("helmCharts"), "helmCharts"):
        entry = mapping(entry, "a helmCharts entry")
        if string(entry.get("name")):
            out.append(Dependency("helm", string(entry["name"]), string(entry.get("version")), path, True, "runtime"))
    for key in _REMOTE_LISTS:
        for entry in listing(doc.get(key), key):
            if isinstance(entry, str) and (found := remote(entry.strip())) is not None:
                out.append(Dependency("kustomize", found[0], found[1], path, True, "runtime"))
    for key in _GENERATORS:
        for generator in listing(doc.get(key), key):
            for entry in listing(mapping(generator, f"a {key} entry").get("files"), "files"):
                if isinstance(entry, str) and (found := remote(entry.strip().partition("=")[2] or entry.strip())):
                    out.append(Dependency("kustomize", found[0], found[1], path, True, "runtime"))
    return out + parse_compose(path, data)
