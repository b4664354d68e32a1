"""A HelmRelease chart version whose `chart:` key the hunk cuts (round 59's patch misses, issue 14: dfroberg/cluster's
"Update Helm release kube-prometheus-stack to 65.4.0" and grafana 8.5.8). A line between `spec:` and the chart's
`version:` (Renovate's `# renovate: registryUrl=…` comment, an `interval:` key) puts the release's `chart:` key four
lines above the version, out of git's three context lines: the hunk shows `spec:` with `chart:`, `version:` and
`sourceRef:` below it, and the file was a `partial` problem naming nothing (`--tree` named the chart).

Now a `version:` whose mapping shows a literal `chart:` and a `sourceRef:` (a chart template's spec: a HelmRelease's
`spec.chart.spec`), under a `spec:` that is the highest key the hunk shows, is named beside a `partial` problem (the
key above `spec:` is not in the patch). Look-alikes that name nothing and stay `partial`: no `sourceRef:` shown, a
`spec:` under another key the hunk shows (`values:`), the project's own chart (a path), a chart that is no literal.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cpucost import assert_linear, repeated
from deltas import both_edited, partial, refused

from gatekeeper.deps.fluxhelm import flux_hunks

PATH = "cluster/core/monitoring/grafana/helm-release.yaml"


def _release(between: str, chart: str = "grafana", order: str = "chart", indent: int = 2, quote: str = "",
             source: str = "HelmRepository") -> str:
    """A HelmRelease at version 6.40.4 with `between` lines (already indented by one level under `spec:`) above the
    chart's keys; `order` puts `chart:` before or after `version:`; `indent` is the file's indentation step."""
    i = " " * indent
    keys = [f"{i * 3}chart: {chart}", f"{i * 3}version: {quote}6.40.4{quote}"]
    if order == "version":
        keys.reverse()
    lines = [
        "---", "apiVersion: helm.toolkit.fluxcd.io/v2beta1", "kind: HelmRelease", "metadata:", f"{i}name: grafana",
        f"{i}namespace: monitoring", "spec:", f"{i}interval: 5m", f"{i}chart:", f"{i * 2}spec:",
        *[f"{i * 3}{line}" for line in between.splitlines()], *keys,
        f"{i * 3}sourceRef:", f"{i * 4}kind: {source}", f"{i * 4}name: grafana-charts",
        f"{i * 4}namespace: flux-system", f"{i}install:", f"{i * 2}remediation:",
        f"{i * 3}retries: 3", f"{i}values:", f"{i * 2}replicas: 1", "",
    ]
    return "\n".join(lines)


BETWEEN = {
    "renovate comment": "# renovate: registryUrl=https://127.0.0.1:9/helm-charts",
    "interval key": "interval: 10m",
    "strategy key": "reconcileStrategy: ChartVersion",
}


@pytest.mark.parametrize("between", sorted(BETWEEN))
@pytest.mark.parametrize("order", ["chart", "version"])
@pytest.mark.parametrize("indent", [2, 4])
@pytest.mark.parametrize("quote", ["", '"'])
@pytest.mark.parametrize("source", ["HelmRepository", "GitRepository"])
def test_a_chart_version_whose_chart_key_the_hunk_cuts(tmp_path: Path, between: str, order: str, indent: int,
                                                        quote: str, source: str) -> None:
    body = _release(BETWEEN[between], order=order, indent=indent, quote=quote, source=source)
    old, new = f"version: {quote}6.40.4{quote}", f"version: {quote}8.5.8{quote}"
    tree, patch = both_edited(tmp_path, {PATH: body}, {PATH: {old: new}})
    want = {("helm", "grafana", "6.40.4", "8.5.8")}
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in tree.changes} == want
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in patch.changes} == want
    # `chart:` first puts the version four lines below the release's `chart:` key (cut: named beside `partial`);
    # `version:` first puts it three lines below (shown: read whole, as before)
    assert partial(patch, PATH) is (order == "chart"), patch.problems
    assert all("chart" in p.msg for p in patch.problems)


def test_dfroberg_shape(tmp_path: Path) -> None:
    body = _release("# renovate: registryUrl=https://127.0.0.1:9/helm-charts", chart="kube-prometheus-stack")
    tree, patch = both_edited(tmp_path, {PATH: body}, {PATH: {"version: 6.40.4": "version: 65.4.0"}})
    want = {("helm", "kube-prometheus-stack", "6.40.4", "65.4.0")}
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in patch.changes} == want
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in tree.changes} == want


# --- look-alikes: nothing named from the patch, the file stays `partial` ---

def _values_spec(between: str) -> str:
    """A `spec:` with chart/version/sourceRef keys inside the release's values, under a key the hunk shows."""
    return ("---\napiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: x\nspec:\n"
            "  chart:\n    spec:\n      chart: app\n      version: 1.0.0\n      sourceRef:\n"
            "        kind: HelmRepository\n"
            "        name: r\n  values:\n    sub:\n      spec:\n" + f"        {between}\n"
            "        chart: grafana\n        version: 6.40.4\n        sourceRef:\n          kind: HelmRepository\n")


LOOKALIKES = {
    "no sourceRef shown": _release("# renovate").replace("      sourceRef:\n", "      source:\n"),
    "values spec": _values_spec("# renovate"),
    "own chart": _release("# renovate", chart="./charts/grafana"),
    "chart no literal": _release("# renovate", chart="'{{ .chart }}'"),
}


@pytest.mark.parametrize("case", sorted(LOOKALIKES))
def test_lookalikes_name_nothing_from_the_patch(tmp_path: Path, case: str) -> None:
    body = LOOKALIKES[case]
    assert "version: 6.40.4" in body
    _, patch = both_edited(tmp_path, {PATH: body}, {PATH: {"version: 6.40.4": "version: 8.5.8"}})
    assert not [c for c in patch.changes if c.to_version == "8.5.8"], (case, patch.changes)
    assert partial(patch, PATH), case


@pytest.mark.parametrize("unit", [
    "    spec:\n      # c\n      chart: x\n\0      version: 1.0.0\n      sourceRef:\n        kind: HelmRepository\n",
    "\n" * 8 + "    spec:\n      chart: x\n\0      version: 1.0.0\n      sourceRef:\n        kind: HelmRepository\n",
])
def test_a_side_of_cut_charts_is_read_in_linear_time(unit: str) -> None:
    assert_linear(lambda text: refused(lambda: flux_hunks(PATH, text.encode())), repeated(unit, "@@\n", ""),
                  budget=4.0)
