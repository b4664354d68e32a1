"""A chart's application named by its image: `--tree` reads the chart's `values.yaml` beside its `Chart.yaml`.

A chart made by `helm create` deploys `{{ .Values.image.repository }}:{{ .Values.image.tag | default
.Chart.AppVersion }}` with `tag: ""` in its values, so a bump of `appVersion` moves that image, and the bots
name it so ("update ghcr.io/cloudnative-pg/cloudnative-pg docker tag to v1.30.0"). When the chart names no
`sources:` repository of its own name (which names the application first: argo-helm's bots name the GitHub
release) and its values name exactly one untagged image, the application (infra.parse_chart) is named by
that image; otherwise by the chart's label (several untagged images, none, or values that do not parse:
which one the templates tag with appVersion would take reading them, which the delta does not do). The
name is a label: the version and its order are what the delta judges either way.
"""

from __future__ import annotations

from collections.abc import Callable

from gatekeeper.deps.helmvalues import untagged_images
from gatekeeper.deps.infra import parse_chart
from gatekeeper.deps.model import Change, Dependency, ManifestError, Problem
from gatekeeper.deps.treeblobs import sibling_blob
from gatekeeper.gitobjects import GitObjects


def app_image(values: bytes | None) -> str:
    """The one image `values` leave untagged; "" when there is none, several, or the values do not parse."""
    if values is None:
        return ""
    try:
        images = untagged_images(values)
    except (ManifestError, RecursionError):
        return ""
    return next(iter(images)) if len(images) == 1 else ""


def chart_parser(git: GitObjects, commit: str) -> Callable[[str, bytes], list[Dependency]]:
    """A Chart.yaml parser that names the chart's application by the image its values (at `commit`) tag
    with `appVersion`."""

    def parse(path: str, data: bytes) -> list[Dependency]:
        folder = path[: path.rfind("/") + 1]
        return parse_chart(path, data, app_image(sibling_blob(git, commit, f"{folder}values.yaml")))

    return parse


def chart_moves(git: GitObjects, base: str, head: str,
                touched: dict[str, tuple[bytes | None, bytes | None]]) -> tuple[list[Change], list[Problem]]:
    """Nothing moves in untouched files when a Chart.yaml changes: no other file reads its appVersion."""
    return [], []
