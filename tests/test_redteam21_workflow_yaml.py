"""Red team 21: an action or image a workflow runs, written in a YAML form no `uses:` line shows, moved unseen.

The workflow reader read lines (`uses: actions/checkout@v4`, `image: node:20`). GitHub reads YAML: a step as a
flow mapping (`- {uses: actions/checkout@v4}`), a quoted key (`"uses":`, also a whole workflow in JSON), a tag
(`!!str`), a folded scalar (`uses: >-`), the value on the next line, an anchor and its alias (`x: &co
actions/checkout@v4` ... `uses: *co`), a merge key, runs the same action. Swapping it for `evil/checkout@v4` gave
`gatekeeper deps` no change and the facts no `actions_added`, with `--tree` and from a patch (deps.new_direct and
deps.unpinned_action never fired; core reviewed the file as `ci`). Now such a file is also read as YAML (every
`uses`, `image`, `container` value) and, from a patch, a changed line in such a form is a `partial` problem.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deltas import cli_json
from tables import each_case

from gatekeeper.deps.facts import facts_for
from gatekeeper.model import FileChange

HEAD = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
STEP_FORMS = {  # a step running actions/checkout@v4 (swapped for evil/checkout@v4)
    "flow step": "      - {uses: actions/checkout@v4}\n",
    "flow step, two keys": "      - {name: co, uses: actions/checkout@v4}\n",
    "quoted key": "      - \"uses\": actions/checkout@v4\n",
    "single-quoted key": "      - 'uses': actions/checkout@v4\n",
    "tag": "      - uses: !!str actions/checkout@v4\n",
    "folded scalar": "      - uses: >-\n          actions/checkout@v4\n",
    "literal scalar": "      - uses: |-\n          actions/checkout@v4\n",
    "value on the next line": "      - uses:\n          actions/checkout@v4\n",
    "merge key": "      - name: co\n        <<: {uses: actions/checkout@v4}\n",
}
WORKFLOWS = {f"step: {form}": HEAD + step for form, step in STEP_FORMS.items()}
WORKFLOWS.update({
    "anchor in an extension key": "x-co: &co actions/checkout@v4\n" + HEAD + "      - uses: *co\n",
    "alias of a step": HEAD + "      - &co {uses: actions/checkout@v4}\n  b:\n    runs-on: ubuntu-latest\n"
                              "    steps:\n      - *co\n",
    "json": '{"on": "push", "jobs": {"a": {"runs-on": "ubuntu-latest", "steps": [{"uses": "actions/checkout@v4"}]}}}\n',
    "reusable workflow, flow job": "on: push\njobs:\n  call: {uses: actions/checkout/.github/workflows/x.yml@v4}\n",
    "docker action, quoted key": HEAD + "      - \"uses\": docker://actions/checkout:v4\n",
    "job container, flow": "on: push\njobs:\n  a: {runs-on: ubuntu-latest, container: {image: actions/checkout:v4},"
                           " steps: [{run: 'true'}]}\n",
})
OLD, NEW = "actions/checkout", "evil/checkout"




@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
def test_an_action_swapped_in_any_yaml_form_is_a_change_or_a_problem(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str],
                                                                     tree: bool) -> None:
    """One repository: a workflow per form, and the same steps as a composite action (action.yml)."""
    base, head = {}, {}
    for index, (form, text) in enumerate(sorted(WORKFLOWS.items())):
        assert OLD in text, form
        base[f".github/workflows/w{index:02d}.yml"] = text
        if form.startswith("step: "):
            step = "".join(line[2:] + "\n" for line in STEP_FORMS[form[6:]].splitlines())
            action = "runs:\n  using: composite\n  steps:\n" + step
            base[f"tools/a{index:02d}/action.yml"] = action
    head = {path: text.replace(OLD, NEW) for path, text in base.items()}
    found = cli_json(tmp_path, capsys, base, head, tree=tree)
    moved = {c["manifest"] for c in found["changes"] if c["name"].startswith(NEW) and c["change"] == "added"}
    refused = {p["manifest"] for p in found["problems"]}
    assert len(head) == 24 and moved | refused == set(head), sorted(set(head) - moved - refused)  # base: 0 of 24
    if tree:
        assert moved == set(head)


@each_case("form", sorted(WORKFLOWS))
def test_the_facts_name_the_swapped_action(form: str) -> None:
    text = WORKFLOWS[form]
    change = FileChange(path=".github/workflows/ci.yml", old_path=None, status="modified")
    facts = facts_for(change, text.encode(), text.replace(OLD, NEW).encode())
    assert facts is not None
    added = facts.actions_added
    assert [a["name"] for a in added] and all(str(a["name"]).startswith(NEW) for a in added), (form, added)


def test_expressions_globs_and_plain_lines_stay_line_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No false problem: `${{ matrix.image }}`, `&&`, a glob, and a plain `uses:` line."""
    text = (HEAD + "      - uses: actions/checkout@v4\n      - run: ls *.txt && echo ok\n"
            "    container:\n      image: ${{ matrix.image }}\n")
    found = cli_json(tmp_path, capsys, {".github/workflows/ci.yml": text},
                  {".github/workflows/ci.yml": text.replace(OLD, NEW)}, tree=False)
    assert found["problems"] == []
    assert {(c["name"], c["change"]) for c in found["changes"]} == {(OLD, "removed"), (NEW, "added")}
