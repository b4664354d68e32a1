"""A Make variable whose name holds `-` (round 58: 3scale/apicast-operator's "Bump golangci-lint to v2.7.2" set
`GOLANGCI-LINT_VERSION ?= v2.7.2` and passed `$(GOLANGCI-LINT_VERSION)` to golangci-lint's install.sh; the
variable was not read, so the recipe's version was unresolved and the Makefile `unparsable`). GNU Make's variable
names may hold any character but `:`, `#`, `=` and whitespace; `-` is read now in assignments, pins and
references (gatekeeper/deps/makepins.py, makerecipes.py). Look-alikes: a hyphenated variable that pins nothing, a
target whose name holds `-`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deltas import both_edited, moves

INSTALL = ("\tcurl -sSfL https://raw.githubusercontent.com/golangci/golangci-lint/master/install.sh | sh -s -- "
           "-b bin {ref}\n")
GO = "\tgo install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@{ref}\n"


@pytest.mark.parametrize("recipe", ["install", "go"])
@pytest.mark.parametrize("op", ["?=", ":=", "="])
@pytest.mark.parametrize("ref", ["$(GOLANGCI-LINT_VERSION)", "${GOLANGCI-LINT_VERSION}"])
def test_a_hyphenated_version_variable_is_read(tmp_path: Path, recipe: str, op: str, ref: str) -> None:
    line = (INSTALL if recipe == "install" else GO).format(ref=ref)
    body = f"GOLANGCI-LINT_VERSION {op} v2.7.1\n\nlint:\n{line}"
    tree, patch = both_edited(tmp_path, {"Makefile": body}, {"Makefile": {"v2.7.1": "v2.7.2"}})
    assert any(c.to_version == "v2.7.2" and "golangci-lint" in c.name for c in tree.changes), tree
    assert not any(p.kind == "unparsable" for p in tree.problems), tree
    assert moves(patch) == moves(tree), (tree, patch)


def test_apicast_operator_shape(tmp_path: Path) -> None:
    """d75bfefa: the variable is new and the recipe moves from a literal version to it."""
    before = "lint:\n" + INSTALL.format(ref="v1.56.0")
    after = "GOLANGCI-LINT_VERSION ?= v2.7.2\n\nlint:\n" + INSTALL.format(ref="$(GOLANGCI-LINT_VERSION)")
    tree, patch = both_edited(tmp_path, {"Makefile": before}, {"Makefile": {before: after}})
    want = {("tool", "golangci/golangci-lint", "v1.56.0", "v2.7.2")}
    assert moves(tree) == want and not tree.problems, tree


@pytest.mark.parametrize("body", [
    "SOME-FLAGS ?= -v\n\nbuild:\n\tgo build $(SOME-FLAGS) ./...\n",
    "lint-fix:\n\tgolangci-lint run --fix\n",
])
def test_lookalikes_name_nothing(tmp_path: Path, body: str) -> None:
    tree, _ = both_edited(tmp_path, {"Makefile": body}, {"Makefile": {"\n\t": "\n\t@"}})
    assert not tree.changes and not tree.problems, tree
