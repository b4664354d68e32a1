"""A workflow's `env:` entry pinning a tool under a lower-case key (round 57): `racket_version: "8.14"`,
`ormolu_version: 0.7.2.0`, `python_version: "3.9"` (unisonweb/unison, kevinheavey/pyheck) are read as `GO_VERSION:`
is, as the tool at that value, when the line sits right under an `env:` key (workflow, job or step). Elsewhere a
lower-case key is a step's input or a job's output and stays its action's (look-alikes)."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.deps.tools import WorkflowTools
from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

WF = ".github/workflows/ci.yml"


def _workflow(where: str, key: str, value: str) -> str:
    entry = f"{key}: {value}"
    top = f"env:\n  {entry}\n" if where == "workflow" else ""
    job = f"    env:\n      {entry}\n" if where == "job" else ""
    step = f"        env:\n          {entry}\n" if where == "step" else ""
    pad = "".join(f"      - run: echo {i}\n" for i in range(6))
    return (f"name: ci\non: [push]\n{top}jobs:\n  build:\n    runs-on: ubuntu-22.04\n{job}    steps:\n{pad}"
            f"      - name: build\n        run: make\n{step}{pad}")


_KEYS = [("racket_version", "racket"), ("ormolu_version", "ormolu"), ("python_version", "python"),
         ("kubectl_version", "kubectl"), ("helm_version", "helm/helm")]
_VALUES = [('"8.14"', '"8.15"'), ("0.7.2.0", "0.7.3.0"), ("'v1.30.2'", "'v1.31.0'")]


@each_case("where", ["workflow", "job", "step"])
@each_case("key,tool", _KEYS)
@each_case("old,new", _VALUES)
def test_a_lower_case_env_key_is_the_tool(tmp_path: Path, where: str, key: str, tool: str, old: str,
                                          new: str) -> None:
    repo, base, head = edited_commits(tmp_path, {WF: _workflow(where, key, old)},
                                      {WF: {f"{key}: {old}": f"{key}: {new}"}})
    want = ("tool", tool, old.strip("\"'"), new.strip("\"'"))
    tree, patch = _tree(repo, base, head), _patch(repo, base, head)
    assert want in moves(tree), tree
    assert want in moves(patch) and not partial(patch, WF), patch


# --- look-alikes ---------------------------------------------------------------------------------------------------

def _named(lines: list[str]) -> list[tuple[str, str]]:
    tools = WorkflowTools(WF)
    return [(d.name, d.version) for line in lines for d in tools.line(line)]


_ALIKES = {
    "a step input": ["    steps:", "      - uses: acme/setup@v1", "        with:", "          cache_version: 2"],
    "an output": ["    outputs:", "      schema_version: 3"],
    "an input default": ["on:", "  workflow_call:", "    inputs:", "      db_version:", "        default: 15"],
    "below the env block": ["    env:", "      A: b", "    steps:", "      - run: x", "        bundle_version: 4"],
    "a value that is no version": ["env:", "  python_version: ${{ matrix.py }}", "  node_version: lts"],
    "a key deeper than an entry": ["env:", "  A: |", "    foo_version: 1.2"],
    "the project's own version": ["env:", "  app_version: 2.0.0", "  RELEASE_VERSION: 1.2.3", "  build_version: 7"],
    "the env key of a step's with": ["      - uses: acme/x@v1", "        with:", "          env: prod",
                                     "          cache_version: 2"],
}


@each_case("case", sorted(_ALIKES))
def test_lower_case_keys_elsewhere_name_no_tool(case: str) -> None:
    assert _named(_ALIKES[case]) == [], case


def test_an_upper_case_key_is_read_as_before() -> None:
    assert _named(["env:", "  GO_VERSION: 1.22.5", "  golangci_version: 1.61.0"]) == [
        ("go", "1.22.5"), ("golangci/golangci-lint", "1.61.0")]
