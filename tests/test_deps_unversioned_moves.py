"""An action (or a pre-commit hook) moved onto a bare commit sha, no version comment beside it (round 60; deps59's Left
list: 15 of the 86 patch misses, 16 of the `--tree` ones): no file names the version it runs, only the action's own
repository could. The delta named the action and both shas, `change: changed`, and nothing said that no version is
named: a policy could not tell it from a move between two versioned refs. Now such a change carries `unversioned:
true` (from a patch and with `--tree`), and the JSON the gate reads holds it (the input schema allows it). Look-alikes
that must not carry it: a sha whose comment names its version, a move between tags, an action added or removed at a
bare sha, a short sha, an image's digest.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest

from gatekeeper.bounded import load_json
from gatekeeper.deps.model import Change
from tests.deltas import both_edited, cli_json

A, B, C = "a" * 40, "b" * 40, "c" * 40
ACTIONS = ("actions/checkout", "github/codeql-action/init", "docker/build-push-action", "aws-actions/configure-aws"
           "-credentials")
WORKFLOW = ".github/workflows/ci.yml"
ACTION = ".github/actions/setup/action.yml"
STEP_FORMS = {
    "item": "      - uses: {ref}\n",
    "key": "      - name: step\n        uses: {ref}\n",
    "quoted": "      - uses: \"{ref}\"\n",
    "single": "      - uses: '{ref}'\n",
}


def _workflow(step: str) -> str:
    return f"name: CI\non: push\njobs:\n  build:\n    runs-on: ubuntu-22.04\n    steps:\n{step}      - run: make\n"


def _action(step: str) -> str:
    return f"name: setup\nruns:\n  using: composite\n  steps:\n{step.replace('      ', '    ')}"


def _change(changes: tuple[Change, ...], name: str) -> Change:
    [change] = [c for c in changes if c.name == name]
    return change


@pytest.mark.parametrize("kind", ["workflow", "action"])
@pytest.mark.parametrize("form", sorted(STEP_FORMS))
@pytest.mark.parametrize("action", ACTIONS)
def test_a_move_between_bare_shas_is_unversioned(tmp_path: Path, action: str, form: str, kind: str) -> None:
    path, build = (WORKFLOW, _workflow) if kind == "workflow" else (ACTION, _action)
    step = STEP_FORMS[form]
    old = build(step.format(ref=f"{action}@{A}"))
    tree, patch = both_edited(tmp_path, {path: old}, {path: {f"@{A}": f"@{B}"}})
    name = "/".join(action.split("/")[:2])
    for delta in (tree, patch):
        change = _change(delta.changes, name)
        assert (change.from_version, change.to_version, change.change) == (A, B, "changed"), change
        assert change.unversioned is True and change.to_dict()["unversioned"] is True, change
        assert change.pinned is True, change


@pytest.mark.parametrize(("old", "new"), [
    (f"@{A} # v4.1.1", f"@{B} # v4.1.1"),  # a stale comment names neither side
    (f"@{A} # v4.1.1", f"@{B}"),  # the comment dropped: what runs now is named nowhere
    ("@v4.1.1", f"@{B}"),  # a tag left for a bare sha
    (f"@{A}", f"@{B}  # pinned by the bot"),  # a comment naming no version
])
def test_moves_onto_an_unnamed_sha_are_unversioned(tmp_path: Path, old: str, new: str) -> None:
    body = _workflow(f"      - uses: actions/checkout{old}\n")
    tree, patch = both_edited(tmp_path, {WORKFLOW: body}, {WORKFLOW: {old: new}})
    for delta in (tree, patch):
        change = _change(delta.changes, "actions/checkout")
        assert change.to_version == B and change.unversioned is True, change


def test_a_pre_commit_hook_between_bare_shas(tmp_path: Path) -> None:
    body = f"repos:\n  - repo: https://github.com/psf/black\n    rev: {A}\n    hooks:\n      - id: black\n"
    tree, patch = both_edited(tmp_path, {".pre-commit-config.yaml": body},
                              {".pre-commit-config.yaml": {A: B}})
    for delta in (tree, patch):
        [change] = delta.changes
        assert (change.from_version, change.to_version, change.unversioned) == (A, B, True), change


@pytest.mark.parametrize(("old", "new"), [
    (f"@{A} # v4.1.1", f"@{B} # v4.2.0"),  # named on both sides
    (f"@{A}", f"@{B} # v4.2.0"),  # the new sha named
    ("@v4.1.1", "@v4.2.0"),
    ("@v4", f"@{B[:7]}"),  # a short sha: not a commit pin at all (pinned is false)
    (f"@{A} # v4.1.1", f"@{A} # v4.2.0"),  # a comment moved on the same sha
])
def test_named_moves_carry_no_such_fact(tmp_path: Path, old: str, new: str) -> None:
    body = _workflow(f"      - uses: actions/checkout{old}\n")
    tree, patch = both_edited(tmp_path, {WORKFLOW: body}, {WORKFLOW: {old: new}})
    for delta in (tree, patch):
        change = _change(delta.changes, "actions/checkout")
        assert change.unversioned is False and "unversioned" not in change.to_dict(), change


def test_added_removed_and_images_carry_no_such_fact(tmp_path: Path) -> None:
    body = _workflow(f"      - uses: actions/checkout@{A}\n      - uses: actions/cache@{C}\n") + \
        f"  other:\n    runs-on: ubuntu-22.04\n    container:\n      image: node:20@sha256:{'1' * 64}\n" \
        "    steps:\n      - run: make\n"
    edits = {f"      - uses: actions/cache@{C}\n": f"      - uses: actions/setup-go@{B}\n", "1" * 64: "2" * 64}
    tree, patch = both_edited(tmp_path, {WORKFLOW: body}, {WORKFLOW: edits})
    for delta in (tree, patch):
        assert {c.name for c in delta.changes} == {"actions/cache", "actions/setup-go", "node"}, delta
        assert not any(c.unversioned for c in delta.changes), delta


@pytest.mark.parametrize("tree", [True, False])
def test_the_json_holds_it(tmp_path: Path, capsys: pytest.CaptureFixture[str], tree: bool) -> None:
    base = {WORKFLOW: _workflow(f"      - uses: actions/checkout@{A}\n")}
    head = {WORKFLOW: _workflow(f"      - uses: actions/checkout@{B}\n")}
    out = cli_json(tmp_path, capsys, base, head, tree=tree)
    [change] = out["changes"]
    assert change["unversioned"] is True, change


def test_the_gate_input_schema_allows_it(tmp_path: Path) -> None:
    """The policy input's schema lists every field a change may hold (additionalProperties false): the fact reaches
    the policies only if it is allowed there."""
    schema = load_json((Path(__file__).resolve().parent.parent / "gatekeeper" / "schemas" / "input-v1.schema.json")
                       .read_text(), "the input schema")
    item = _find(schema, "dependencies")["properties"]["changes"]["items"]
    body = _workflow(f"      - uses: actions/checkout@{A}\n")
    tree, _ = both_edited(tmp_path, {WORKFLOW: body}, {WORKFLOW: {A: B}})
    jsonschema.validate(_change(tree.changes, "actions/checkout").to_dict(), item)
    assert item["properties"]["unversioned"]["enum"] == [True]


def _find(node: object, key: str) -> dict[str, Any]:
    """The first mapping under `key` anywhere in `node`."""
    if isinstance(node, dict):
        if isinstance(node.get(key), dict) and "properties" in node[key]:
            return node[key]
        for value in node.values():
            if (found := _find(value, key)):
                return found
    elif isinstance(node, list):
        for value in node:
            if (found := _find(value, key)):
                return found
    return {}
