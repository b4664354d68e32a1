"""helmfile's `helmfile.yaml` (`.yml`): the charts its `releases` install, each at its `version`.

A release's `chart` is `REPO/NAME` (a repository the file declares under `repositories`), `oci://HOST/PATH/NAME` or a
local path. The chart is named by NAME, as Renovate's helmfile manager and a chart's own `dependencies` name it; where
it comes from (`REPO` or the OCI path) is the entry's options, so a chart moved to another source is a change, never
a rider on a bump. A local chart (`./charts/x`, `../x`) is the project's own. Every YAML document of the file is read
(helmfile splits `bases`/`environments` from `releases` with `---`); a document that is not YAML — helmfile's Go
templates can make one — leaves the file `unparsable`, never read in part.
"""

from __future__ import annotations

from typing import Any

from gatekeeper.deps.edits import Side
from gatekeeper.deps.loaders import listing, load_yaml_all, mapping, string
from gatekeeper.deps.model import Dependency, ManifestError
from gatekeeper.lazy_pattern import lazy

NAMES = ("helmfile.yaml", "helmfile.yml")
_MAX_DOCUMENTS = 32
_LOCAL = ("./", "../", "/")
_VERSION_LINE = lazy(r"""^(?P<indent>\s*)version:\s*(?P<q>["']?)(?P<version>v?\d[\w.+-]*)(?P=q)\s*(?:#.*)?$""")
_CHART_LINE = lazy(r"""^(?P<indent>\s*)(?P<dash>-\s+)?chart:\s*(?P<q>["']?)(?P<chart>[\w.:/@-]+)(?P=q)\s*(?:#.*)?$""")
_KEY_LINE = lazy(r"^(?P<indent>\s*)(?P<dash>-\s+)?[\w.-]+:(?:\s|$)")


def _documents(data: bytes) -> list[Any]:
    docs = load_yaml_all(data, _MAX_DOCUMENTS + 1)
    if len(docs) > _MAX_DOCUMENTS:
        raise ManifestError(f"more than {_MAX_DOCUMENTS} YAML documents")  # never a file read in part
    return docs


def chart_name(chart: str) -> tuple[str, str] | None:
    """(name, source) of a release's `chart`; None for a local chart."""
    if not chart or chart in (".", "..") or chart.startswith(_LOCAL) or "{{" in chart:
        return None
    source, _, name = chart.rpartition("/")
    if not source or not name:
        raise ManifestError(f"chart {chart[:80]!r} names no repository")
    return name, source


def parse_helmfile(path: str, data: bytes) -> list[Dependency]:
    out: list[Dependency] = []
    for doc in _documents(data):
        if doc is None:
            continue
        for release in listing(mapping(doc, "a helmfile document").get("releases"), "releases"):
            entry = mapping(release, "a release")
            chart = string(entry.get("chart"))
            if (named := chart_name(chart)) is not None:
                out.append(Dependency("helm", named[0], string(entry.get("version")), path, True, "runtime",
                                      options=f"from {named[1]}"))
    return out


def residue(data: bytes) -> list[Any]:
    """The documents with each release's `version` taken out: what else the file says (its repositories, values,
    hooks — which run commands — and the releases' other keys) stays, so an edit of it beside a bump is seen."""
    docs = _documents(data)
    for doc in docs:
        for release in listing(doc.get("releases"), "releases") if isinstance(doc, dict) else ():
            if isinstance(release, dict):
                release.pop("version", None)
    return docs


def _chart_of_item(side: Side, index: int, indent: int) -> str | None:
    """The `chart:` of the list item holding the key at `index` (at `indent`), read up to the item's `- ` opening over
    its other keys and their deeper values, then down to the item's end; None when the hunk does not show the item's
    opening or shows no chart."""
    chart, at = None, index - 1
    while True:
        if at < 0:
            return None  # the item opens above the hunk
        line = side[at][0]
        at -= 1
        depth = len(line) - len(line.lstrip())
        if not line.strip() or line.lstrip().startswith("#") or depth > indent:
            continue  # a value of one of the item's keys (`values:`, `set:`)
        key = _KEY_LINE.match(line)
        if key is None:
            return None
        if (found := _CHART_LINE.match(line)) is not None:
            chart = found.group("chart")
        if key.group("dash") and depth + len(key.group("dash")) == indent:
            break  # the item's `- name:` opening
        if key.group("dash") or depth != indent:
            return None
    for line, _ in side[index + 1:]:
        depth = len(line) - len(line.lstrip())
        if not line.strip() or line.lstrip().startswith("#") or depth > indent:
            continue
        key = _KEY_LINE.match(line)
        if key is None or key.group("dash") or depth != indent:
            break
        if (found := _CHART_LINE.match(line)) is not None:
            chart = found.group("chart")
    return chart


def helmfile_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """A changed release `version:` line whose item (its `- ` opening and `chart:`) the hunk shows; anything else
    changed (a chart, values, a repository) is refused, so the file's other edits keep it reviewed."""
    line = side[index][0]
    if not line.strip():
        return []
    version = _VERSION_LINE.match(line)
    if version is None:
        raise ManifestError(f"not a release's version line: {line.strip()[:80]!r}")
    chart = _chart_of_item(side, index, len(version.group("indent")))
    named = chart_name(chart) if chart is not None else None
    if named is None:
        raise ManifestError("the hunk does not show whose version this is")
    return [(named[0], version.group("version"), "helm", "", "", f"from {named[1]}")]
