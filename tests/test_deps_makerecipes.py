"""What a Makefile's recipes install at a version (makerecipes.py): jenkinsci/kubernetes-operator's lint targets
(`GOBIN=$(PROJECT_DIR)/bin go install github.com/golangci/golangci-lint/cmd/golangci-lint@v1.62.0`, a `wget` of
staticcheck's release by its tag), Kong's bazelisk release fetched at `v$(BAZLISK_VERSION)`. Before, neither mode
named these moves. Attack cases first (hostile Makefiles: bounded, no traceback; a version the reader does not
resolve names nothing and is never read as a removal), then the classes and their look-alikes, through real git
repositories (--tree and the patch)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from cpucost import within_cpu
from deltas import both_edited

from gatekeeper.deps.makerecipes import parse_recipes
from gatekeeper.deps.sources import Delta

LINT = """PROJECT_DIR := $(shell dirname $(abspath $(lastword $(MAKEFILE_LIST))))
HAS_GOLINT := $(shell which $(PROJECT_DIR)/bin/golangci-lint)

.PHONY: lint
lint: ## Verifies `golint` passes
\t@echo "+ $@"
ifndef HAS_GOLINT
\tGOBIN=$(PROJECT_DIR)/bin go install github.com/golangci/golangci-lint/cmd/golangci-lint@v1.55.0
endif
\t@bin/golangci-lint run

staticcheck: ## Verifies `staticcheck` passes
\t@echo "+ $@"
ifndef HAS_STATICCHECK
\t$(eval TMP_DIR := $(shell mktemp -d))
\twget -O $(TMP_DIR)/staticcheck_$(PLATFORM)_amd64.tar.gz \\
\t  https://github.com/dominikh/go-tools/releases/download/2023.1.7/staticcheck_$(PLATFORM)_amd64.tar.gz
\ttar zxvf $(TMP_DIR)/staticcheck_$(PLATFORM)_amd64.tar.gz -C $(TMP_DIR)
endif
"""
BAZELISK = """ROOT_DIR:=$(shell dirname $(realpath $(lastword $(MAKEFILE_LIST))))
GRPCURL_VERSION ?= 1.8.5
BAZLISK_VERSION ?= 1.19.0
H2CLIENT_VERSION ?= 0.4.4
OS ?= linux
MACHINE ?= amd64

bin/bazel:
\t@curl -s -S -L \\
\t\thttps://github.com/bazelbuild/bazelisk/releases/download/v$(BAZLISK_VERSION)/bazelisk-$(OS)-$(MACHINE) -o \\
\t\tbin/bazel
\t@chmod +x bin/bazel
"""


def _rows(delta: Delta) -> set[tuple[object, ...]]:
    return {(c.ecosystem, c.name, c.from_version, c.to_version, c.change) for c in delta.changes}


def _read(body: str) -> list[tuple[str, str, str]]:
    return [(d.ecosystem, d.name, d.version or "") for d in parse_recipes("Makefile", body.splitlines())]


# --- attack cases ---

def test_a_long_recipe_line_and_many_references_are_read_in_linear_time() -> None:
    for body in ("X = go\n" + "\t$(X) install a.b/c@v1 " + "$(X) " * 200_000 + "\n",  # one line past MAX_LINE
                 "".join(f"V{n} = {n}.0\n" for n in range(20_000))
                 + "".join(f"\tpip install p{n}==$(V{n})\n" for n in range(20_000)),
                 "\tgo install x.y/z@v1 \\\n" * 100_000,  # a continuation that never ends
                 "\t" + "$(" * 100_000 + "\n" + "\tcurl https://github.com/o/r/releases/download/" * 5_000 + "\n"):
        found = within_cpu(5, partial(_read, body))
        assert len(found) <= 20_000


def test_a_version_the_file_sets_twice_or_from_the_shell_names_nothing() -> None:
    for setting in ("LINT_VERSION = v1.2.0\nLINT_VERSION += x\n", "LINT_VERSION := $(shell cat .v)\n",
                    "override LINT_VERSION = v1.2.0\n", "include versions.mk\n",
                    "LINT_VERSION = v1.2.0\nlint: LINT_VERSION = v9.9.9\n"):
        body = setting + "lint:\n\tgo install github.com/o/lint/cmd/lint@$(LINT_VERSION)\n"
        assert _read(body) == []


def test_a_version_held_unresolved_on_one_side_is_no_removal(tmp_path: Path) -> None:
    body = "LINT_VERSION = v1.2.0\nlint:\n\tgo install github.com/o/lint/cmd/lint@$(LINT_VERSION)\n"
    for swap in ("LINT_VERSION = v1.2.0\nLINT_VERSION ?= v1.3.0\n", "LINT_VERSION = $(shell cat .lint)\n"):
        tree, patch = both_edited(tmp_path / str(len(swap)), {"Makefile": body},
                                  {"Makefile": {"LINT_VERSION = v1.2.0\n": swap}})
        for delta in (tree, patch):
            assert not any(c.change == "removed" for c in delta.changes), delta.changes
            assert [p.kind for p in delta.problems] in (["unparsable"], ["partial"]), delta.problems


def test_a_literal_install_line_moved_behind_an_unresolved_variable_is_no_removal(tmp_path: Path) -> None:
    body = "lint:\n\tgo install github.com/o/lint/cmd/lint@v1.2.0\n"
    tree, _ = both_edited(tmp_path, {"Makefile": body}, {"Makefile": {"@v1.2.0": "@$(shell cat .v)"}})
    assert tree.changes == ()
    assert [p.kind for p in tree.problems] == ["unparsable"]


# --- the classes ---

def test_a_go_install_in_a_recipe_moves(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"Makefile": LINT}, {"Makefile": {"@v1.55.0": "@v1.62.0"}})
    want = {("go", "github.com/golangci/golangci-lint", "v1.55.0", "v1.62.0", "upgraded")}
    assert _rows(tree) == want and tree.problems == ()
    assert _rows(patch) == want  # the recipe line is the hunk's own line


def test_a_release_a_recipe_downloads_by_its_tag(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"Makefile": LINT}, {"Makefile": {"/2023.1.7/": "/2025.1.1/"}})
    want = {("tool", "dominikh/go-tools", "2023.1.7", "2025.1.1", "upgraded")}
    assert _rows(tree) == want and _rows(patch) == want


def test_a_release_version_handed_to_the_recipe_by_a_variable(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"Makefile": BAZELISK}, {"Makefile": {"?= 1.19.0": "?= 1.20.0"}})
    assert _rows(tree) == {("tool", "bazelbuild/bazelisk", "v1.19.0", "v1.20.0", "upgraded")}
    assert tree.problems == ()
    # from a patch the recipe that uses the variable is out of the hunk: what it downloads is not knowable there
    assert patch.changes == ()


def test_the_install_commands_of_a_workflow_are_read_in_recipes() -> None:
    body = "PIP = pip3\nNPM_BIN ?= npm\n\ntools:\n\t@$(PIP) install --user tox==4.11.0\n" \
           "\t-$(NPM_BIN) i -g pnpm@9.1.0\n\t+cargo install cargo-wix --version 0.3.9\n"
    assert sorted(_read(body)) == [("cargo", "cargo-wix", "0.3.9"), ("npm", "pnpm", "9.1.0"), ("pip", "tox", "4.11.0")]


# --- look-alikes ---

def test_lines_that_are_no_recipe_or_no_exact_version_name_nothing() -> None:
    assert _read("# go install github.com/o/r/cmd/x@v1.2.0\nX := go install github.com/o/r/cmd/x@v1.2.0\n") == []
    assert _read("a:\n\tgo install github.com/o/r/cmd/x@latest\n\tpip install 'tox>=4'\n") == []
    assert _read("a:\n\tcurl -L https://github.com/o/r/releases/download/nightly/x.tgz\n") == []


def test_a_makefile_without_recipe_installs_reads_as_before(tmp_path: Path) -> None:
    body = "GOLANGCI_VERSION = 2.12.2\n\nlint:\n\tbin/golangci-lint run\n"
    tree, patch = both_edited(tmp_path, {"Makefile": body}, {"Makefile": {"2.12.2": "2.12.3"}})
    want = {("tool", "golangci/golangci-lint", "2.12.2", "2.12.3", "upgraded")}
    assert _rows(tree) == want and _rows(patch) == want
