"""A YAML mapping that gives one key twice (round 58; deps57's and the last note's lead). PyYAML keeps the last value,
while Kubernetes' and Flux's `sigs.k8s.io/yaml`, Helm, Compose and GitHub Actions refuse the file: a change could
show a reviewer `version: 17.1.0` and ship `version: 16.0.0` below it. deps/loaders.py now refuses such a mapping, so
`--tree` reports the file `unparsable` (fail closed) and names neither value. Look-alikes that must not change: a
merge key overridden (`<<: *base` then the key), `1` and `"1"` (two keys), one key in two mappings or documents,
the same scalar twice (`wait: true` twice: a helmfile of round 38's tests).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cpucost import assert_linear, repeated

from gatekeeper.deps.loaders import load_yaml, load_yaml_all
from gatekeeper.deps.model import ManifestError
from tests.deltas import both_edited, moves

# (path, file, the line a bump rewrites, its indentation): each a format read through deps/loaders' YAML reader
FORMATS = {
    "chart": ("charts/app/Chart.yaml",
              "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n  - name: redis\n    version: 17.0.0\n"
              "    repository: https://127.0.0.1:9/charts\n", "version: 17.0.0", "    "),
    "kustomize": ("deploy/kustomization.yaml",
                  "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nimages:\n  - name: nginx\n"
                  "    newTag: 17.0.0\n", "newTag: 17.0.0", "    "),
    "helmrelease": ("clusters/apps/redis/helmrelease.yaml",
                    "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: redis\nspec:\n"
                    "  chart:\n    spec:\n      chart: redis\n      version: 17.0.0\n      sourceRef:\n"
                    "        kind: HelmRepository\n        name: bitnami\n", "version: 17.0.0", "      "),
    "pre-commit": (".pre-commit-config.yaml",
                   "repos:\n  - repo: https://github.com/psf/black\n    rev: 17.0.0\n    hooks:\n      - id: black\n",
                   "rev: 17.0.0", "    "),
    "pubspec": ("pubspec.yaml", "name: app\nenvironment:\n  sdk: '>=3.0.0 <4.0.0'\ndependencies:\n  http: 17.0.0\n",
                "http: 17.0.0", "  "),
}
KEY_OF = {"chart": "version", "kustomize": "newTag", "helmrelease": "version", "pre-commit": "rev", "pubspec": "http"}
# how the second key is written: right below, below another key, quoted
PLACES = {
    "adjacent": "{i}{k}: 17.1.0\n{i}{k}: 16.0.0\n",
    "apart": "{i}{k}: 17.1.0\n{i}x-note: moved\n{i}{k}: 16.0.0\n",
    "quoted": "{i}{k}: 17.1.0\n{i}\"{k}\": 16.0.0\n",
}


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_duplicated_key_is_unparsable_never_the_last_value(tmp_path: Path, fmt: str, place: str) -> None:
    path, body, line, indent = FORMATS[fmt]
    twice = PLACES[place].format(i=indent, k=KEY_OF[fmt])
    tree, _ = both_edited(tmp_path, {path: body}, {path: {indent + line + "\n": twice}})
    assert any(p.manifest == path and p.kind == "unparsable" for p in tree.problems), tree
    assert not any(c.to_version == "16.0.0" for c in tree.changes), tree  # the hidden value is never read as clean


@pytest.mark.parametrize("text", [
    "a: 1\na: 2\n", "x:\n  image: a:1\n  image: a:2\n", "- {v: 1, v: 2}\n", "a: 1\n'a': 2\n",
    "x: &b {c: 1}\ny:\n  <<: *b\n  d: 1\n  d: 2\n",
])
def test_the_reader_refuses_it_with_the_line(text: str) -> None:
    with pytest.raises(ManifestError, match="duplicate key"):
        load_yaml(text.encode())


@pytest.mark.parametrize(("text", "want"), [
    ("base: &b {c: 1, d: 2}\ne:\n  <<: *b\n  c: 3\n", {"base": {"c": 1, "d": 2}, "e": {"c": 3, "d": 2}}),
    ("1: a\n\"1\": b\n", {1: "a", "1": "b"}),
    ("a: {v: 1}\nb: {v: 2}\n", {"a": {"v": 1}, "b": {"v": 2}}),
    ("- {v: 1}\n- {v: 2}\n", [{"v": 1}, {"v": 2}]),
    ("a: &x 1\nb: *x\n", {"a": 1, "b": 1}),
    ("wait: true\nwait: true\n", {"wait": True}),  # the same scalar twice: nothing to disagree on
])
def test_lookalikes_read_as_before(text: str, want: object) -> None:
    assert load_yaml(text.encode()) == want


def test_one_key_in_two_documents() -> None:
    assert load_yaml_all(b"v: 1\n---\nv: 2\n", 4) == [{"v": 1}, {"v": 2}]


def test_a_redefined_anchor_still_reads_and_still_refuses_duplicates() -> None:
    assert load_yaml(b"a: &x 1\nb: &x 2\nc: *x\n") == {"a": 1, "b": 2, "c": 2}
    with pytest.raises(ManifestError, match="duplicate key"):
        load_yaml(b"a: &x 1\nb: &x 2\nc: *x\nc: 3\n")


def test_a_chart_bump_without_a_duplicate_is_named(tmp_path: Path) -> None:
    path, body, line, indent = FORMATS["chart"]
    tree, patch = both_edited(tmp_path, {path: body}, {path: {line: "version: 17.1.0"}})
    assert moves(tree) == {("helm", "redis", "17.0.0", "17.1.0")} and not tree.problems, tree


def test_duplicate_checks_cost_linear() -> None:
    """Every mapping overrides a merged key: the check's slow path runs on each."""
    assert_linear(load_yaml, repeated(b"- {<<: {a: 1, b: 2}, a: 2, c: 3}\n", b"", b""), budget=4.0)
