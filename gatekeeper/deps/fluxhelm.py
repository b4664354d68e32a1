"""Flux's Helm releases: a `HelmRelease` (helm.toolkit.fluxcd.io) and the `OCIRepository` (source.toolkit.fluxcd.io)
a release's chart may come from, in a file named for them (`helmrelease.yaml`, `helm-release.yaml`,
`cert-manager.helmrelease.yml`; `ocirepository.yaml`, `oci-repository.yaml`), as the Flux layouts Renovate's flux
manager is pointed at write them (round 56).

A HelmRelease's `spec.chart.spec` names the chart (`chart`) at its `version` (a version or a range; none is the
latest), from its `sourceRef` (`HelmRepository/NAMESPACE/NAME`, kept as the entry's options, so a chart moved to
another source is a change); a chart that is a path (`./charts/app`, from a GitRepository) is the project's own, and a
release whose chart is `spec.chartRef` names none here (the OCIRepository or HelmChart it refers to holds it). An
OCIRepository is the OCI artifact at its `spec.url` (`oci://ghcr.io/org/charts/app`, named without its scheme, as an
image is) at `spec.ref`'s `tag`, `semver` or `digest`. The images a release's `spec.values` set are named as a chart's
values.yaml names them (helmvalues.py: Renovate's "update image ghcr.io/mastodon/mastodon to v4.7.0" in CloudHub's
releases). Every YAML document is read; other kinds are not dependencies.
A HelmRelease or OCIRepository of another shape (a chart without its name, a URL that is no `oci://`) is a problem.
From a patch (`flux_hunks`): a changed `version:` whose hunk shows its `chart:` beside it under `chart:`/`spec:`, a
changed `tag:`/`semver:`/`digest:` under a `ref:` whose `url:` the hunk shows (`helmrelease_line`), and the values'
images as `helmvalues.values_hunks` reads them; a changed version or ref line it cannot place is `partial`. A version
whose mapping shows a literal `chart:` and a `sourceRef:` under a `spec:` two indentation steps deep that is the highest
line its hunk shows (the release's `chart:` key cut above it, round 59) is named beside that `partial` problem.
"""

from __future__ import annotations

from typing import Any

from gatekeeper.deps import helmvalues, hunks
from gatekeeper.deps.edits import Side
from gatekeeper.deps.loaders import load_yaml_all, mapping, string, text
from gatekeeper.deps.model import Dependency, ManifestError, PartlyRead, PartlyShown
from gatekeeper.lazy_pattern import lazy

NAME = lazy(r"^(?:[\w.-]*[-_.])?(?:helm-?release|oci-?repository)s?\.ya?ml$")
_MAX_DOCUMENTS = 64
_LOCAL = ("./", "../", "/")
_REACH = 64  # lines a hunk is read up and down from a changed line for its mapping: bounded, so linear
_REFS = ("tag", "semver", "digest")
_SCALAR = r"""(?P<q>["']?)(?P<value>[^"'\s#{}\[\],&*!|>]{1,300})(?P=q)\s*(?:#.*)?$"""
_VERSION = lazy(r"^(?P<indent> +)version:\s*" + _SCALAR)
_REF = lazy(r"^(?P<indent> +)(?P<key>tag|semver|digest):\s*" + _SCALAR)
_KEY = lazy(r"^(?P<indent> *)(?P<key>[\w.-]+):(?:\s+" + _SCALAR[:-1] + r"|\s*(?:#.*)?)$")


def is_file(base: str) -> bool:
    return NAME.match(base.lower()) is not None


def _release(doc: dict[str, Any], path: str) -> Dependency | None:
    spec = mapping(doc.get("spec", {}), "a HelmRelease's spec")
    if spec.get("chart") is None:
        return None  # spec.chartRef: the source it refers to holds the chart and its version
    chart = mapping(mapping(spec["chart"], "a HelmRelease's chart").get("spec"), "a HelmRelease's chart spec")
    name = string(chart.get("chart"))
    if not name:
        raise ManifestError("a HelmRelease chart without its name")
    if name.startswith(_LOCAL) or name in (".", ".."):
        return None
    source = mapping(chart.get("sourceRef", {}), "a HelmRelease's sourceRef")
    where = "/".join(string(source.get(k)) for k in ("kind", "namespace", "name"))
    alias = string(mapping(doc.get("metadata", {}), "metadata").get("name"))
    return Dependency("helm", name, string(chart.get("version")), path, True, "runtime", alias=alias,
                      options=f"from {where}")


def _oci(doc: dict[str, Any], path: str) -> Dependency:
    spec = mapping(doc.get("spec"), "an OCIRepository's spec")
    url = string(spec.get("url"))
    if not url.startswith("oci://") or len(url) <= len("oci://"):
        raise ManifestError(f"an OCIRepository url that is no oci:// address: {url[:80]!r}")
    ref = mapping(spec.get("ref", {}), "an OCIRepository's ref")
    version = next((string(ref.get(k)) for k in _REFS if string(ref.get(k))), "")
    return Dependency("docker", url.removeprefix("oci://"), version, path, True, "runtime")


def parse_flux_helm(path: str, data: bytes) -> list[Dependency]:
    """Each HelmRelease's chart and each OCIRepository's artifact the file's documents declare (module doc)."""
    docs = load_yaml_all(data, _MAX_DOCUMENTS + 1)
    if len(docs) > _MAX_DOCUMENTS:
        raise ManifestError(f"more than {_MAX_DOCUMENTS} YAML documents")  # never a file read in part
    out: list[Dependency] = []
    for doc in docs:
        if doc is None:
            continue
        doc = mapping(doc, "a YAML document")
        api, kind = string(doc.get("apiVersion")), doc.get("kind")
        if kind == "HelmRelease" and api.startswith("helm.toolkit.fluxcd.io/"):
            if (release := _release(doc, path)) is not None:
                out.append(release)
            # the images its values set, as a chart's values.yaml names them (Renovate's "update image X to vY")
            out += helmvalues.images(path, mapping(doc.get("spec", {}), "a HelmRelease's spec").get("values"))
        elif kind == "OCIRepository" and api.startswith("source.toolkit.fluxcd.io/"):
            out.append(_oci(doc, path))
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block(side: Side, index: int) -> tuple[dict[str, str], list[tuple[str, int]]]:
    """The keys beside line `index` in its mapping (plain scalars by value, blocks as ""), and its parents' keys and
    lines up the hunk (nearest first), as far as the hunk shows them."""
    indent = level = _indent(side[index][0])
    keys: dict[str, str] = {}
    parents: list[tuple[str, int]] = []
    for at in range(index - 1, max(index - _REACH, 0) - 1, -1):
        line = side[at][0]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        depth, m = _indent(line), _KEY.match(line)
        if depth > level:
            continue  # a value nested under a key at this level
        if depth == level:
            if m is None:
                break  # a list item or another shape: not a mapping's key
            if level == indent:
                keys.setdefault(m.group("key"), m.group("value") or "")
            continue
        if m is None or m.group("value"):
            break
        parents.append((m.group("key"), at))
        level = depth
    for at in range(index + 1, min(index + _REACH, len(side))):
        line = side[at][0]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        depth, m = _indent(line), _KEY.match(line)
        if depth > indent:
            continue
        if depth < indent or m is None:
            break
        keys.setdefault(m.group("key"), m.group("value") or "")
    return keys, parents


def helmrelease_line(side: Side, index: int) -> list[tuple[str, ...]]:
    """From a patch: a chart's `version:` beside its `chart:` under `chart:`/`spec:`, or an OCIRepository ref's
    `tag:`/`semver:`/`digest:` under `ref:` beside a `url:` the hunk shows (module doc)."""
    line = side[index][0]
    if (m := _VERSION.match(line)) is not None:
        keys, parents = _block(side, index)
        chart = keys.get("chart", "")
        if [key for key, _ in parents[:2]] == ["spec", "chart"] and chart and not chart.startswith(_LOCAL):
            return [(chart, m.group("value"))]
        if _cut_chart(side, index, keys, parents) and not chart.startswith(_LOCAL):
            raise PartlyShown("the hunk does not show the release's `chart:` key above its chart spec", [
                (chart, m.group("value"))])
    elif (m := _REF.match(line)) is not None:
        _, parents = _block(side, index)
        if parents and parents[0][0] == "ref":
            keys, _ = _block(side, parents[0][1])
            if keys.get("url", "").startswith("oci://"):
                return [(keys["url"].removeprefix("oci://"), m.group("value"), "docker")]
    raise ManifestError(f"not a chart's version or an OCI ref the hunk shows whole: {line.strip()[:80]!r}")


def _cut_chart(side: Side, index: int, keys: dict[str, str], parents: list[tuple[str, int]]) -> bool:
    """Whether line `index` is a chart template's version whose `chart:` key above the hunk cuts: its mapping shows a
    literal `chart:` and a `sourceRef:` block, under a `spec:` two indentation steps deep (its children one step below
    it: a HelmRelease's `spec.chart.spec`), the highest line the hunk shows."""
    if not keys.get("chart") or keys.get("sourceRef") != "" or [key for key, _ in parents] != ["spec"]:
        return False
    at = parents[0][1]
    if at >= _REACH:
        return False  # the hunk shows lines above it (bounded: a hunk's top only)
    step = _indent(side[index][0]) - _indent(side[at][0])
    shown_above = any(line.strip() and not line.lstrip().startswith("#") for line, _ in side[:at])
    return step > 0 and _indent(side[at][0]) == 2 * step and not shown_above


def _in_values(side: Side, index: int) -> bool:
    """Whether the hunk shows line `index` inside a release's `values:` (a key at two spaces, under `spec:`)."""
    return any(key == "values" and _indent(side[at][0]) == 2 for key, at in _block(side, index)[1])


def flux_hunks(path: str, data: bytes) -> list[Dependency]:
    """From a patch's one side (hunks.sides): each chart version or OCI ref `helmrelease_line` reads, and the images
    the release's values show (helmvalues.values_hunks, on the lines left). A changed line that is neither and that
    the hunk does not show inside `values:` (a source, a chart's name, an install option) raises PartlyRead."""
    out: list[Dependency] = []
    left: list[str] = []
    unplaced = ""
    for chunk in text(data).split("\n" + hunks.HUNK + "\n"):
        raws = [raw for raw in chunk.splitlines() if raw != hunks.HUNK]
        side: Side = [(raw.lstrip(hunks.CHANGED), raw.startswith(hunks.CHANGED)) for raw in raws]
        for index, (line, changed) in enumerate(side):
            if _VERSION.match(line) is not None or _REF.match(line) is not None:
                try:
                    pairs = helmrelease_line(side, index)
                except PartlyShown as cut:  # named as shown; the rest is reviewed
                    pairs = [(str(pair[0]), str(pair[1])) for pair in cut.pairs]
                    unplaced = unplaced or str(cut)
                except ManifestError:
                    pairs = []
                if pairs:
                    out += [Dependency(pair[2] if len(pair) > 2 else "helm", pair[0], pair[1], path, True, "runtime")
                            for pair in pairs]
                    raws[index] = ""  # read: not an image's tag for values_hunks
                    continue
            if changed and line.strip() and not line.lstrip().startswith("#") and not unplaced \
                    and not _in_values(side, index):
                unplaced = f"a changed line the hunk does not show inside the release's values: {line.strip()[:80]!r}"
        left += [hunks.HUNK, *raws]
    try:
        out += helmvalues.values_hunks(path, "\n".join(left).encode())
    except PartlyRead as exc:
        raise PartlyRead(str(exc) + (f"; {unplaced}" if unplaced else ""), out + exc.found) from None
    if unplaced:
        raise PartlyRead(unplaced, out)  # what the hunks show is named; the rest is reviewed
    return out
