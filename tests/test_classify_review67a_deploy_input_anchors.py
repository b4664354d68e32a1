"""Review 67a: a deploy action's input behind a YAML anchor, tag or alias is still a list of deployed paths (issue 12).

The eighty-fourth set made `deployruns._inputs` skip a mapping below an input's name (a CI job whose id is
`manifests:`). A real input's value may carry a YAML anchor or tag before its block scalar (`manifests: &m |`,
`manifests: !!str |`, both) or be an alias of a value anchored elsewhere (`manifests: *m`); each read as an inline value
of no path, and the manifests it deploys stayed `src` (exit 0 on b493f73c). PyYAML is the truth for what the value is.
Look-alikes: a job named `manifests:` with an anchor on its mapping stays no list of paths."""

from __future__ import annotations

import itertools

import yaml
from citools import one_tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import deployruns

HEAD = ("on: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
        "      - uses: azure/k8s-deploy@v5\n        with:\n          namespace: web\n")
PATHS = ["ops/web.yaml", "ops/worker.yaml"]
PREFIXES = ["&m ", "!!str ", "&m !!str ", "!!str &m ", "&manifests-list "]
SCALARS = ["|\n            {a}\n            {b}\n", "|-\n            {a}\n            {b}\n",
           ">\n            {a}\n            {b}\n", "{a},{b}\n", "'{a}'\n"]
KEYS = ["manifests", "chart-path", "value-files"]


def _workflow(key: str, prefix: str, scalar: str) -> str:
    return HEAD + f"          {key}: {prefix}" + scalar.format(a=PATHS[0], b=PATHS[1])


CASES = [(key, prefix, scalar) for key, prefix, scalar in itertools.product(KEYS, PREFIXES, SCALARS)]
ALIASED = [
    "env:\n  MANIFESTS: &m |\n    ops/web.yaml\n    ops/worker.yaml\n" + HEAD + "          manifests: *m\n",
    "x-files: &m ops/web.yaml,ops/worker.yaml\n" + HEAD + "          manifests: *m\n",
    HEAD + "          images: &m |\n            ops/web.yaml\n            ops/worker.yaml\n          manifests: *m\n",
]


def _runs(workflow: str) -> set[str]:
    files = {path: "kind: ConfigMap\nmetadata:\n  name: x\n" for path in PATHS} | {
        "ops/other.yaml": "kind: ConfigMap\n", ".github/workflows/cd.yml": workflow}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return set(runs)


@each_case("key, prefix, scalar", CASES)
def test_an_anchored_or_tagged_input_names_its_paths(key: str, prefix: str, scalar: str) -> None:
    workflow = _workflow(key, prefix, scalar)
    value = yaml.safe_load(workflow)["jobs"]["deploy"]["steps"][1]["with"][key]
    assert PATHS[0] in value  # what the value is (PyYAML)
    runs = _runs(workflow)
    assert PATHS[0] in runs, (key, prefix, scalar, sorted(runs))
    assert "ops/other.yaml" not in runs


@each_case("workflow", ALIASED)
def test_an_aliased_input_names_the_anchored_value(workflow: str) -> None:
    loaded = yaml.safe_load(workflow)
    assert PATHS[0] in loaded["jobs"]["deploy"]["steps"][1]["with"]["manifests"]
    assert PATHS[0] in _runs(workflow), workflow


JOB_LOOK_ALIKE = ("on: push\njobs:\n  manifests: &job\n    runs-on: ubuntu-latest\n    steps:\n"
                  "      - run: echo ops/web.yaml\n")


def test_a_job_named_like_an_input_with_an_anchor_is_no_list() -> None:
    assert PATHS[1] not in _runs(JOB_LOOK_ALIKE)


def test_many_aliases_are_read_in_linear_time() -> None:
    assert_linear(deployruns._inputs, repeated("  manifests: *m\n", head="x: &m |\n  a.yaml\n"), budget=0.5)
