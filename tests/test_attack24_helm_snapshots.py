"""Attack 24: the helm-unittest snapshot rule (src.helm-unittest, `**/tests/**/__snapshot__/*.snap`) as a hiding place.

The rule lowers a `.snap` file below a top-level infrastructure folder (deploy/, k8s/, charts/, helm/) from iac to
src: a chart's snapshot is the rendered output a suite compares with. But a `.snap` name says nothing of what the
file holds, and Kustomize reads any file its kustomization names as a resource (`resources: [tests/__snapshot__/
pod.snap]`). The rule's own comment promises that a suite holding a Kubernetes object at its root is still raised by
its content; `.snap` files were never read by the content tier, so a bare Pod saved as a snapshot was allowed (from
the patch always, with the commits unless a kustomization named it). On d4d5a22 each variant was iac by its folder.
A real helm-unittest snapshot (test names mapping to the rendered documents as strings) stays src."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated
from tables import each_case

POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  hostNetwork: true\n  containers:\n"
       "    - name: web\n      image: registry.example/web:1\n      securityContext:\n        privileged: {on}\n")
KUSTOMIZATION = ("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n"
                 "  - tests/__snapshot__/pod.snap\n")
CHART = "apiVersion: v2\nname: app\nversion: 1.0.0\n"
# name: (BASE's files, HEAD's files, the path that must be named by a review finding)
VARIANTS: dict[str, tuple[dict[str, str], dict[str, str], str]] = {
    "kustomize-resource-edited": (
        {"deploy/kustomization.yaml": KUSTOMIZATION, "deploy/tests/__snapshot__/pod.snap": POD.format(on="false")},
        {"deploy/tests/__snapshot__/pod.snap": POD.format(on="true")}, "deploy/tests/__snapshot__/pod.snap"),
    "k8s-folder-added": ({}, {"k8s/app/tests/__snapshot__/pod.snap": POD.format(on="true")},
                         "k8s/app/tests/__snapshot__/pod.snap"),
    "chart-tests-added": ({"charts/app/Chart.yaml": CHART},
                          {"charts/app/tests/__snapshot__/pod.snap": POD.format(on="true")},
                          "charts/app/tests/__snapshot__/pod.snap"),
    "helm-nested-multidoc": ({"helm/app/Chart.yaml": CHART}, {"helm/app/tests/unit/__snapshot__/web.snap":
                                                              "---\n" + POD.format(on="true")},
                             "helm/app/tests/unit/__snapshot__/web.snap"),
}
# What helm-unittest writes: each test's name, each rendered document by number, as a string.
REAL_SNAPSHOT = "manifest should match snapshot:\n  1: |\n" + "".join(
    f"    {line}\n" for line in POD.format(on="{on}").splitlines())


@each_case("name", sorted(VARIANTS))
def test_a_kubernetes_object_saved_as_a_snapshot_is_reviewed(tmp_path: Path, name: str) -> None:
    base, head, path = VARIANTS[name]
    case = committed(tmp_path, base, head)
    for tree in (False, True):
        code, decision = gated(case, tree, deps=False)
        named = {p for reason in decision["reasons"] for p in reason.get("paths", ())}
        assert code == 3 and path in named, (name, tree, decision)


def test_a_real_helm_unittest_snapshot_stays_allowed_with_thecommitted(tmp_path: Path) -> None:
    """With the commits a real snapshot is src (allowed); from the patch a snapshot the hunks show only in part is
    needs-context, as an edited suite (`tests/d_test.yaml`) already was on b7942c9."""
    path, suite = "charts/app/tests/__snapshot__/pod_test.yaml.snap", "charts/app/tests/pod_test.yaml"
    asserts = "".join(f"      - equal:\n          path: a{n}\n          value: {n}\n" for n in range(12))
    case = committed(tmp_path, {"charts/app/Chart.yaml": CHART, path: REAL_SNAPSHOT.format(on="false"),
                               suite: "suite: t\ntests:\n  - it: works\n    asserts:\n" + asserts},
                    {path: REAL_SNAPSHOT.format(on="true"), suite: "suite: t\ntests:\n  - it: works\n    asserts:\n"
                     + asserts.replace("value: 7", "value: 8")})
    code, decision = gated(case, True, deps=False)
    assert code == 0, decision
    code, decision = gated(case, False, deps=False)
    assert code == 3 and [r["rule"] for r in decision["reasons"]] == ["core.needs_context"], decision
    assert set(decision["reasons"][0]["paths"]) == {path, suite}, decision
