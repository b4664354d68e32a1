"""Kustomize: `kustomization.yaml` — the images it sets, the Helm charts it inflates, the images its patches write.

- `images:` entries (`{name, newName?, newTag?, digest?}`, the image transformer): the image that runs is
  `newName` (else `name`) at `newTag` / `digest`; an entry that sets neither only renames and names no version.
- `helmCharts:` entries (`{name, repo, version}`) are Helm charts, as a `Chart.yaml` dependency is.
- `image:` lines anywhere in the file (inline `patches:` are YAML strings inside YAML, so their lines are read
  as lines, as Compose files are).
The file must be YAML (a problem otherwise), whichever of these it holds.
"""

from __future__ import annotations

from gatekeeper.deps.docker import image_version
from gatekeeper.deps.loaders import listing, load_yaml, mapping, string
from gatekeeper.deps.model import Dependency
from gatekeeper.deps.toolfiles import parse_compose


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
    return out + parse_compose(path, data)
