"""A workflow or composite action whose YAML gives one key two values (round 60; deps58's and deps59's Left lists).
GitHub refuses such a file ("(Line: 160, Col: 9): 'env' is already defined", its runner's YamlDotNet does not allow
duplicate mapping keys), Gitea's and Forgejo's runners read it with Go's yaml.v3, which refuses it too, and PyYAML keeps
the last value: a change could show a reviewer one `uses:` and run the other on a reader that keeps the first or the
last. The workflow reader read both lines and named both values, no problem raised, while the deps loaders call such
YAML `unparsable` (round 58). Now the file is `unparsable` from the whole file, and from a patch (a `partial` problem,
as every hunk a reader refuses is) when one hunk shows the key twice in one mapping (deps/yamlkeys.py); neither value
is named. Look-alikes that must not change: one key in two steps, jobs or `env:` blocks, key-shaped lines inside a
`run: |` block or a quoted string, the same scalar given twice (as the loaders allow it), `uses` beside `Uses`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from cpucost import assert_linear, repeated

from gatekeeper.deps.loaders import load_yaml
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.sources import Delta
from gatekeeper.deps.yamlkeys import refuse_duplicates
from tests.deltas import both_edited

WORKFLOW = ".github/workflows/ci.yml"
ACTION = ".github/actions/setup/action.yml"
FILES = {
    WORKFLOW: """name: CI
on:
  push:
    branches: [main]
  pull_request:
    branches: [main]
permissions:
  contents: read
env:
  NODE_VERSION: "20"
jobs:
  build:
    runs-on: ubuntu-22.04
    timeout-minutes: 15
    steps:
      - uses: actions/checkout@v4.1.1
      - name: Set up node
        uses: actions/setup-node@v4.0.2
        with:
          node-version: 20.11.0
          cache: npm
      - run: |
          npm ci
          npm test
  lint:
    runs-on: ubuntu-22.04
    container:
      image: node:20.11.0
    steps:
      - uses: actions/checkout@v4.1.1
      - run: npm run lint
""",
    ACTION: """name: setup
description: Set up the toolchain
runs:
  using: composite
  steps:
    - uses: actions/setup-go@v5.0.0
      with:
        go-version: 1.22.1
    - run: go version
      shell: bash
""",
}
# (file, the line a change writes twice, the value written the second time, a sibling key line of the same mapping)
TARGETS = {
    "step-uses": (WORKFLOW, "        uses: actions/setup-node@v4.0.2", "actions/setup-node@v3.0.0",
                  "        if: always()"),
    "item-uses": (WORKFLOW, "      - uses: actions/checkout@v4.1.1", "actions/checkout@v2.0.0",
                  "        if: always()"),
    "with-input": (WORKFLOW, "          node-version: 20.11.0", "16.0.0", "          check-latest: true"),
    "container-image": (WORKFLOW, "      image: node:20.11.0", "node:16.0.0", "      options: --cpus 1"),
    "runs-on": (WORKFLOW, "    runs-on: ubuntu-22.04\n    timeout", "ubuntu-20.04", "    continue-on-error: false"),
    "action-uses": (ACTION, "    - uses: actions/setup-go@v5.0.0", "actions/setup-go@v4.0.0", "      if: always()"),
    "action-input": (ACTION, "        go-version: 1.22.1", "1.20.0", "        cache: false"),
}
HIDDEN = {"actions/setup-node@v3.0.0": "v3.0.0", "actions/checkout@v2.0.0": "v2.0.0", "16.0.0": "16.0.0",
          "node:16.0.0": "16.0.0", "ubuntu-20.04": "20.04", "actions/setup-go@v4.0.0": "v4.0.0", "1.20.0": "1.20.0"}


def _second(line: str, value: str, place: str, sibling: str) -> str:
    """`line` written again as its key with `value`, in `place`."""
    first = line.split("\n")[0]
    indent = len(first) - len(first.lstrip(" -"))
    key = first.strip(" -").partition(":")[0]
    pad = " " * indent
    return {
        "adjacent": f"{pad}{key}: {value}\n",
        "apart": f"{sibling}\n{pad}{key}: {value}\n",
        "commented": f"\n{pad}# pinned for the release\n{pad}{key}: {value}\n",
        "double-quoted": f'{pad}"{key}": {value}\n',
        "single-quoted": f"{pad}'{key}': {value}\n",
    }[place]


def _refused(delta: Delta, path: str, mode: str) -> bool:
    """`path` is `unparsable` (`--tree`), or its hunks' reader refused the key (a patch: a `partial` problem, as every
    hunk a reader refuses is)."""
    return any(p.manifest == path and (p.kind == "unparsable" if mode == "tree" else "given twice" in p.msg)
               for p in delta.problems)


PLACES = ("adjacent", "apart", "commented", "double-quoted", "single-quoted")


def _edit(target: str, place: str) -> tuple[str, dict[str, dict[str, str]]]:
    path, line, value, sibling = TARGETS[target]
    first = line.split("\n")[0]
    return path, {path: {first + "\n": first + "\n" + _second(line, value, place, sibling)}}


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_key_given_twice_is_unparsable_in_both_modes(tmp_path: Path, target: str, place: str) -> None:
    path, edits = _edit(target, place)
    tree, patch = both_edited(tmp_path, dict(FILES), edits)
    hidden = HIDDEN[TARGETS[target][2]]
    for mode, delta in (("tree", tree), ("patch", patch)):
        assert _refused(delta, path, mode), (mode, delta)
        assert not any(c.manifest == path and hidden in (c.to_version or "") for c in delta.changes), (mode, delta)


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_the_yaml_reader_agrees(target: str) -> None:
    """What the line scan refuses PyYAML's strict loader refuses too (deps/loaders): the two readers agree."""
    for place in PLACES:
        path, edits = _edit(target, place)
        [(old, new)] = edits[path].items()
        body = FILES[path].replace(old, new, 1)
        with pytest.raises(ManifestError, match="duplicate key"):
            load_yaml(body.encode())
        with pytest.raises(ManifestError, match="given twice"):
            refuse_duplicates(body.splitlines())


def test_a_block_given_twice(tmp_path: Path) -> None:
    """A step's `with:` written again below with the old input (Systemorph/MeshWeaver#3579's shape): the second block
    wins where the last value is kept."""
    old = "          cache: npm\n"
    new = old + "        with:\n          node-version: 16.0.0\n"
    tree, patch = both_edited(tmp_path, dict(FILES), {WORKFLOW: {old: new}})
    for mode, delta in (("tree", tree), ("patch", patch)):
        assert _refused(delta, WORKFLOW, mode), delta


def test_a_top_level_env_given_twice(tmp_path: Path) -> None:
    old = "permissions:\n"
    new = "env:\n  NODE_VERSION: \"16\"\n" + old
    tree, patch = both_edited(tmp_path, dict(FILES), {WORKFLOW: {old: new}})
    for mode, delta in (("tree", tree), ("patch", patch)):
        assert _refused(delta, WORKFLOW, mode), delta


# Edits that must read as before: (old, new, a move the delta names)
LOOKALIKES = {
    "third-step": ("      - run: npm run lint\n",
                   "      - run: npm run lint\n      - uses: actions/setup-node@v4.0.3\n",
                   ("actions/setup-node", "v4.0.3")),
    "run-block": ("          npm test\n",
                  "          npm test\n          uses: a\n          uses: b\n", ("actions/checkout", None)),
    "step-env": ("          cache: npm\n",
                 "          cache: npm\n        env:\n          NODE_VERSION: \"18\"\n", ("actions/checkout", None)),
    "same-scalar": ("    timeout-minutes: 15\n", "    timeout-minutes: 15\n    runs-on: ubuntu-22.04\n",
                    ("actions/checkout", None)),
    "case": ("        uses: actions/setup-node@v4.0.2\n",
             "        uses: actions/setup-node@v4.0.3\n        Uses: x\n", ("actions/setup-node", "v4.0.3")),
    "quoted-text": ("      - run: npm run lint\n",
                    "      - run: \"npm run lint\n          if: a\n          if: b\"\n", ("actions/checkout", None)),
    # a step's `-` alone on its line, its keys below (fourmolu's release.yml): each `-` opens its own mapping
    "bare-dash": ("      - run: npm run lint\n",
                  "      - run: npm run lint\n      -\n        uses: actions/setup-node@v4.0.3\n      -\n"
                  "        uses: actions/cache@v4.0.0\n", ("actions/setup-node", "v4.0.3")),
    "two-jobs-with": ("      - run: npm run lint\n",
                      "      - run: npm run lint\n      - uses: actions/setup-node@v4.0.3\n        with:\n"
                      "          node-version: 20.11.1\n", ("actions/setup-node", "v4.0.3")),
}


@pytest.mark.parametrize("case", sorted(LOOKALIKES))
def test_lookalikes_read_as_before(tmp_path: Path, case: str) -> None:
    old, new, (name, version) = LOOKALIKES[case]
    tree, patch = both_edited(tmp_path, dict(FILES), {WORKFLOW: {old: new}})
    for delta in (tree, patch):
        assert not any(p.kind == "unparsable" for p in delta.problems), delta
        if version is not None:
            assert any(c.name == name and c.to_version == version for c in delta.changes), delta
    assert not tree.problems, tree


@pytest.mark.parametrize("case", sorted(LOOKALIKES))
def test_the_yaml_reader_agrees_on_lookalikes(case: str) -> None:
    old, new, _ = LOOKALIKES[case]
    body = FILES[WORKFLOW].replace(old, new, 1)
    load_yaml(body.encode())  # PyYAML's strict loader reads it
    refuse_duplicates(body.splitlines())


@pytest.mark.parametrize("text", [
    "a: [1,\n", "- - - x: 1\n    x: 2\n", "a: |\n\n  b: 1\n  b: 2\nc: 1\n", "\"a\": 1\n'a': 2\n", "a: 'x\n  y: 1\n",
    "  \t- x: 1\n", ":\n:\n", "- : 1\n  : 2\n", "a: \"x\\\"\n  a: 1\n  a: 2\"\n",
])
def test_malformed_text_never_crashes(text: str) -> None:
    try:
        refuse_duplicates(text.splitlines())
    except ManifestError:
        pass


def test_a_nested_sequence_item_opens_its_own_mapping() -> None:
    refuse_duplicates(["- - x: 1", "  - x: 2", "- x: 3"])  # three mappings
    with pytest.raises(ManifestError):
        refuse_duplicates(["- - x: 1", "    x: 2"])


def test_real_workflows_agree_with_the_loader() -> None:
    """Each file read with PyYAML's strict loader and the line scan: a file the loader reads, the scan never refuses."""
    for body in FILES.values():
        assert yaml.safe_load(body) is not None
        refuse_duplicates(body.splitlines())


def test_the_scan_is_linear() -> None:
    step = "      - uses: actions/checkout@v4.1.1\n        with:\n          a: 1\n"
    assert_linear(lambda t: refuse_duplicates(t.splitlines()), repeated(step, "jobs:\n  b:\n    steps:\n"),
                  budget=0.5)
    for unit, head, tail in [("  x: 1\n" + " " * 40 + "y: 2\n", None, None), (" ", "a: x", " #\n"),
                             (" ", "a: [", "\n"), ("''", "a: '", "\nb: 1\n"), ("\\\"", 'a: "', "\n"),
                             ("- ", "", "a: 1\n"), (" ", "-", "a: 1\n"), ("a", "", ": 1\n")]:
        assert_linear(lambda t: refuse_duplicates(t.splitlines()), repeated(unit, head, tail), budget=0.5)


# --- Compose files: read line by line as workflows are; Compose (compose-go, Go's yaml.v3) refuses a key given twice -

COMPOSE = "compose.yaml"
COMPOSE_FILE = """services:
  web:
    image: nginx:1.27.0
    ports:
      - "8080:80"
  db:
    image: postgres:16.3
    environment:
      POSTGRES_PASSWORD: example
"""


@pytest.mark.parametrize("second", [
    "    image: nginx:1.20.0\n", "    ports:\n      - \"9090:80\"\n    image: nginx:1.20.0\n",
    "    \"image\": nginx:1.20.0\n", "\n    # the old one\n    image: nginx:1.20.0\n",
])
def test_a_compose_service_giving_image_twice_is_refused(tmp_path: Path, second: str) -> None:
    old = "    image: nginx:1.27.0\n"
    tree, patch = both_edited(tmp_path, {COMPOSE: COMPOSE_FILE}, {COMPOSE: {old: old + second}})
    for mode, delta in (("tree", tree), ("patch", patch)):
        assert _refused(delta, COMPOSE, mode), (mode, delta)
        assert not any(c.to_version == "1.20.0" for c in delta.changes), (mode, delta)


def test_compose_lookalikes_read_as_before(tmp_path: Path) -> None:
    """An image in each of two services, an image moved, a service added at an image another has."""
    edits = {"postgres:16.3": "postgres:16.4", "  db:\n": "  cache:\n    image: nginx:1.27.0\n  db:\n"}
    tree, patch = both_edited(tmp_path, {COMPOSE: COMPOSE_FILE}, {COMPOSE: edits})
    for delta in (tree, patch):
        assert not delta.problems, delta
        assert ("postgres", "16.3", "16.4") in {(c.name, c.from_version, c.to_version) for c in delta.changes}, delta
