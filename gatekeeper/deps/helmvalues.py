"""Helm chart values (`values.yaml`): the container images a chart deploys.

Charts name their images in two shapes, which Renovate's helm-values manager reads too:
`image: {registry?, repository, tag, digest?}` (any mapping holding `repository` and `tag`) and
`image: "registry/name:tag"` (an `image` key whose string has a tag or digest; also a key whose last word is
`image`, `kubectlImage`, `SYSTEM_UPGRADE_JOB_KUBECTL_IMAGE`, round 40), and the Argo CD Helm sources an apps
chart templates (`repoURL`, `chart`, `targetRevision`: the chart at that revision; from a patch when the hunk shows
the `chart:` line of the changed revision's mapping, else nothing, as before; round 40), and the older charts'
`image: "daskdev/dask"` with the tag in a sibling `imageTag: "0.17.0"` (round 42; from a patch when the hunk shows
the untagged `image:` line above the `imageTag:` line, in the same mapping) — in helm/charts' oldest charts
capitalized, `Image: "consul"` beside `ImageTag: "1.0.0"` (round 49). An empty tag (the
chart's `appVersion` is used) names no version and is skipped; so are commented-out examples, which
YAML does not read. Renovate annotations (`# renovate: ...`) above a value are read as in workflows.

From a patch, hunks are read by `values_hunks`: an `image:` line stands alone; a changed `tag:` line
pairs with the `repository:` (and `registry:`) lines of its own mapping in the same hunk, and fails
closed (ManifestError, a `partial` problem) when the hunk does not show them. A mapping that shows no `registry:`
and opens above the hunk (its `image:` line out of sight) may have one there (renovatebot/helm-charts' `registry:
ghcr.io` above `repository: renovatebot/renovate`): its image is named as shown beside a `partial` problem (PartlyRead).
"""

from __future__ import annotations

from typing import Any

from gatekeeper.deps import hunks
from gatekeeper.deps.docker import image_version, split_image
from gatekeeper.deps.loaders import MAX_ENTRIES, load_yaml, text
from gatekeeper.deps.model import Dependency, ManifestError, PartlyRead
from gatekeeper.deps.tools import read_annotations
from gatekeeper.lazy_pattern import lazy

_IMAGE_REF = lazy(r"^[\w][\w.\-/:@]*$")
# A key naming an image by its last word: `image`, an environment variable a chart passes on
# (`SYSTEM_UPGRADE_JOB_KUBECTL_IMAGE: registry.k8s.io/kubectl:v1.36.4@sha256:…`, damacus/home-ops), `kubectlImage`,
# `init-image`; its string is read as an `image:` string is (a tag or digest, else nothing). `imagePullPolicy` is not.
_IMAGE_KEY = lazy(r"^(?:image|[\w.\-]*[_.\-](?:image|IMAGE|Image)|[a-z][A-Za-z0-9]*Image)$")


def _scalar(value: Any) -> str:
    """A tag as YAML gives it: `tag: 16` is an int, `tag: 1.10` a float (its text is what was meant)."""
    if isinstance(value, bool) or value is None:
        return ""
    return str(value) if isinstance(value, (str, int, float)) else ""


def _image(node: dict[Any, Any]) -> tuple[str, str] | None:
    repository, tag = _scalar(node.get("repository")), _scalar(node.get("tag"))
    digest = _scalar(node.get("digest"))
    if not repository or not (tag or digest) or not _IMAGE_REF.match(repository):
        return None
    registry = _scalar(node.get("registry"))
    name = f"{registry.rstrip('/')}/{repository}" if registry and _IMAGE_REF.match(registry) else repository
    return name, image_version(tag, digest)


# An image tagged apart from its name, `image: "daskdev/dask"` beside `imageTag: "0.17.0"` in one mapping (the older
# charts' shape: dask/helm-chart, elastic/helm-charts); the tag one Docker accepts, at most 128 characters.
_TAG = lazy(r"^\w[\w.\-]{0,127}$")


def _tagged_apart(image: str, tag: str) -> tuple[str, str] | None:
    if not _IMAGE_REF.match(image) or "://" in image or ":" in image.rpartition("/")[2] or "@" in image \
            or not _TAG.match(tag):
        return None
    return image, tag


def _named(ref: str) -> tuple[str, str] | None:
    if not _IMAGE_REF.match(ref) or not (":" in ref.rpartition("/")[2] or "@" in ref):
        return None
    name, tag, digest = split_image(ref)
    return name, image_version(tag, digest)


# An Argo CD application's Helm source an apps chart templates (adfinis/helm-charts' infra-apps: `repoURL:`,
# `chart: cert-manager`, `targetRevision: 1.20.3` under one key): the chart at that version. A source without `chart:`
# (a git path at a revision) names nothing.
_CHART_NAME = lazy(r"^[A-Za-z0-9][\w.\-]{0,200}$")


def _argo_source(node: dict[Any, Any]) -> tuple[str, str] | None:
    chart, revision = _scalar(node.get("chart")), _scalar(node.get("targetRevision"))
    if not _scalar(node.get("repoURL")) or not _CHART_NAME.match(chart) or not revision[:1].isdigit():
        return None
    return chart, revision


def parse_values(path: str, data: bytes) -> list[Dependency]:
    body = text(data)
    return read_annotations(path, body.splitlines(), "runtime") + images(path, load_yaml(data))


def images(path: str, doc: Any) -> list[Dependency]:
    """The images (and Argo CD chart sources) a values tree names: a values.yaml's document, a Flux HelmRelease's
    `spec.values` (fluxhelm.py)."""
    out: list[Dependency] = []
    stack: list[Any] = [doc]
    visited = 0
    while stack:
        node = stack.pop()
        visited += 1
        if visited > MAX_ENTRIES:  # aliases may share one structure many times over
            raise ManifestError(f"more than {MAX_ENTRIES} YAML nodes")
        if isinstance(node, dict):
            found = _image(node)
            if found is None and isinstance(node.get("image"), str):
                found = _named(node["image"]) or _tagged_apart(node["image"], _scalar(node.get("imageTag")))
            if found is None and isinstance(node.get("Image"), str):  # helm/charts' older `Image:`, `ImageTag:`
                found = _tagged_apart(node["Image"], _scalar(node.get("ImageTag")))
            if found is not None:
                out.append(Dependency("docker", found[0], found[1], path, True, "runtime"))
            if (source := _argo_source(node)) is not None:
                out.append(Dependency("helm", source[0], source[1], path, True, "runtime"))
            for key, value in node.items():
                if key != "image" and isinstance(key, str) and isinstance(value, str) and _IMAGE_KEY.match(key) \
                        and (named := _named(value)) is not None:
                    out.append(Dependency("docker", named[0], named[1], path, True, "runtime"))
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))
    return out


_KEY = lazy(r"""^(?P<indent>\s*)(?:-\s+)?(?P<key>[\w.-]+)\s*:\s*(?P<q>["']?)(?P<value>[^"'\s#]*)(?P=q)"""
            r"""\s*(?:#.*)?$""")
_IMAGE_KEYS = frozenset({"repository", "tag", "registry", "digest"})


def untagged_images(data: bytes) -> set[str]:
    """The images a chart's values name with no tag and no digest (`tag: ""`): those the chart's templates
    tag with its `appVersion` (`{{ .Values.image.tag | default .Chart.AppVersion }}`, as `helm create` writes)."""
    out: set[str] = set()
    stack: list[Any] = [load_yaml(data)]
    visited = 0
    while stack and visited <= MAX_ENTRIES:  # aliases may share one structure many times over
        node = stack.pop()
        visited += 1
        if isinstance(node, dict):
            repository, registry = _scalar(node.get("repository")), _scalar(node.get("registry"))
            if repository and _IMAGE_REF.match(repository) and "://" not in repository \
                    and not _scalar(node.get("tag")) and not _scalar(node.get("digest")):
                out.add(f"{registry.rstrip('/')}/{repository}" if registry and _IMAGE_REF.match(registry)
                        else repository)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return out


def values_hunks(path: str, data: bytes) -> list[Dependency]:
    """The images hunk lines of a values.yaml show (data: `hunks.sides` of one side)."""
    out: list[Dependency] = []
    block: dict[str, str] = {}  # the repository/tag/registry/digest lines of the mapping being read
    indent = -1
    changed = opened = False
    shown: list[str] = []  # the lines of the hunk being read, up to the line being read
    unshown: list[str] = []  # the images named whose mapping's opening is above their hunk
    chart: tuple[int, str] = (-1, "")  # the column and name of the last `chart:` line of the hunk's mapping
    # the column and name of the last untagged `image:` (`Image:`) line of the hunk's mapping, and its tag's key
    bare: tuple[int, str, str] = (-1, "", "")

    def close() -> None:
        nonlocal changed
        if block.get("repository") and (block.get("tag") or block.get("digest")):
            found = _image(block)
            if found is not None:
                out.append(Dependency("docker", found[0], found[1], path, True, "runtime"))
                if changed and not opened and "registry" not in block and not _hosted(block["repository"]):
                    unshown.append(found[0])  # a `registry:` could be above, out of sight
        elif changed:
            raise ManifestError("a changed image line whose repository or tag the hunk does not show")
        block.clear()
        changed = False

    for raw in text(data).splitlines():
        if raw == hunks.HUNK:
            close()
            indent = -1
            chart, bare = (-1, ""), (-1, "", "")
            shown.clear()
            continue
        line = raw.lstrip(hunks.CHANGED)
        shown.append(line)
        m = _KEY.match(line)
        if m is None:
            continue  # a list item, a block scalar's text, a comment: no key of an image
        key, value, column = m.group("key"), m.group("value"), m.start("key")
        if column < chart[0] or column == chart[0] and line.lstrip().startswith("- "):
            chart = (-1, "")  # the mapping the chart: line was in ended
        if column < bare[0] or column == bare[0] and line.lstrip().startswith("- "):
            bare = (-1, "", "")
        if indent != -1 and (column < indent or column == indent and line.lstrip().startswith("- ")):
            close()  # a shallower key, or the next item of a list: the mapping being read ended
            indent = -1
        if key == "chart":
            chart = (column, value) if _CHART_NAME.match(value) else (-1, "")
        elif key == "targetRevision" and chart[0] == column and value[:1].isdigit():
            out.append(Dependency("helm", chart[1], value, path, True, "runtime"))  # Argo CD's source (above)
        elif key == bare[2] and bare[0] == column and (found := _tagged_apart(bare[1], value)) is not None:
            out.append(Dependency("docker", found[0], found[1], path, True, "runtime"))  # `image:` above, untagged
        if key == "Image" and value:
            bare = (column, value, "ImageTag")
        elif _IMAGE_KEY.match(key) and value:
            if (found := _named(value)) is not None:
                out.append(Dependency("docker", found[0], found[1], path, True, "runtime"))
            elif key == "image":
                bare = (column, value, "imageTag")
        elif key in _IMAGE_KEYS and indent in (-1, column):
            if indent == -1:
                opened = line.lstrip().startswith("- ") or _opening_shown(shown, column)
            indent = column
            block[key] = value
            changed |= raw.startswith(hunks.CHANGED)
    close()
    if unshown:
        raise PartlyRead(f"the hunk does not show where the mapping of {', '.join(unshown[:3])[:160]} opens (a "
                         "`registry:` above it would name another image): named as shown", out)
    return out


def _hosted(repository: str) -> bool:
    """Whether the repository names its registry (`ghcr.io/maxmind/geoipupdate`): its first component holds a dot or
    a port's colon or is `localhost`, as Docker tells a registry host from a Docker Hub namespace; a `registry:` key
    would not be joined to it."""
    first, slash, _ = repository.partition("/")
    return bool(slash) and ("." in first or ":" in first or first == "localhost")


_OPENING_REACH = 400  # lines an image's mapping may hold above its first image key; a longer walk is refused


def _opening_shown(shown: list[str], column: int) -> bool:
    """Whether the hunk lines above the last one (the first image key of a mapping, at `column`) show the line that
    opens the mapping (`image:`, shallower), across its other keys, deeper lines, comments and blank lines only."""
    for line in reversed(shown[max(len(shown) - 1 - _OPENING_REACH, 0):-1]):
        body = line.lstrip(" ")
        if body and not body.startswith("#") and len(line) - len(body) < column:
            return True
    return False
