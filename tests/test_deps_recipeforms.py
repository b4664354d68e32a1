"""The recipe forms the Makefile reader left (makerecipes.py, runlines.releases, heldvars.py; issue 14): a release
installer script piped to a shell with its tag (argoproj-labs/argocd-autopilot's golangci-lint line), kubebuilder's
`$(call go-install-tool,…,pkg@v0.14.0)` (OT-CONTAINER-KIT/redis-operator's controller-gen), `$(GO_CMD) install`
whose setting a patch's hunk does not show, and a module moved to its next major's path behind `GOBIN=$(PROJECT_DIR)`
(kubernetes-sigs/jobset's kind and golangci-lint v1 → v2). Before, each named nothing in one mode or both. Attack
cases first (hostile lines: bounded, no traceback; a tag or package the reader does not resolve names nothing and is
never read as a removal), then the classes and their look-alikes, through real git repositories (--tree and the
patch)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from cpucost import within_cpu
from deltas import both_edited

from gatekeeper.deps.makerecipes import parse_recipes
from gatekeeper.deps.model import Dependency
from gatekeeper.deps.runlines import releases
from gatekeeper.deps.sources import Delta

SCRIPT = "https://raw.githubusercontent.com/golangci/golangci-lint/master/install.sh"
AUTOPILOT = f"""GOBIN=$(shell go env GOPATH)/bin

.PHONY: lint
lint: $(GOBIN)/golangci-lint
\t@$(GOBIN)/golangci-lint run --fix --timeout 3m

$(GOBIN)/golangci-lint:
\t@mkdir dist || true
\t@echo installing: golangci-lint
\t@curl -sSfL {SCRIPT} | sh -s -- -b $(GOBIN) v1.61.0
"""
OPERATOR = """CONTROLLER_GEN = $(shell pwd)/bin/controller-gen
.PHONY: controller-gen
controller-gen: ## Download controller-gen locally if necessary.
\t$(call go-install-tool,$(CONTROLLER_GEN),sigs.k8s.io/controller-tools/cmd/controller-gen@v0.4.1)

KUSTOMIZE = $(shell pwd)/bin/kustomize
KUSTOMIZE_VERSION ?= v5.4.3
.PHONY: kustomize
kustomize:
\t$(call go-install-tool,$(KUSTOMIZE),sigs.k8s.io/kustomize/kustomize/v5,$(KUSTOMIZE_VERSION))

define go-install-tool
@[ -f $(1) ] || { \\
set -e ;\\
GOBIN=$(PROJECT_DIR)/bin go install $(2) ;\\
}
endef
"""
JOBSET = """PROJECT_DIR := $(shell dirname $(abspath $(lastword $(MAKEFILE_LIST))))
GO_CMD ?= go

GOLANGCI_LINT = $(PROJECT_DIR)/bin/golangci-lint
.PHONY: golangci-lint
golangci-lint:
\t@GOBIN=$(PROJECT_DIR)/bin GO111MODULE=on $(GO_CMD) install github.com/golangci/golangci-lint/cmd/golangci-lint@v1.64.5

.PHONY: kind
kind:
\t@GOBIN=$(PROJECT_DIR)/bin GO111MODULE=on $(GO_CMD) install sigs.k8s.io/kind@v0.29.0

CODEGEN_VERSION := $(shell $(GO_CMD) list -m -f '{{.Version}}' k8s.io/code-generator)
.PHONY: client-gen
client-gen:
\t@GOBIN=$(PROJECT_DIR)/bin $(GO_CMD) install k8s.io/code-generator/cmd/client-gen@$(CODEGEN_VERSION)
"""


def _rows(delta: Delta) -> set[tuple[object, ...]]:
    return {(c.ecosystem, c.name, c.from_version, c.to_version, c.change) for c in delta.changes}


def _read(body: str) -> list[tuple[str, str, str]]:
    return sorted((d.ecosystem, d.name, d.version or "") for d in parse_recipes("Makefile", body.splitlines()))


def _both(body: str) -> list[Dependency]:
    return releases("Makefile", body) + parse_recipes("Makefile", body.splitlines())


# --- attack cases ---

def test_hostile_script_and_macro_lines_are_read_in_linear_time() -> None:
    for body in ("\tcurl " + f"{SCRIPT} | sh -s -- " * 2_000 + "\n",  # a line past the reader's bound
                 f"\tcurl {SCRIPT} | sh -s --" + " -b x" * 1_500 + "\n",
                 "\tcurl https://raw.githubusercontent.com/o/r/" + "a/" * 3_000 + "install.sh | sh -s -- v1\n",
                 "\t" + "$(call go-install-tool," * 1_000 + "\n",
                 "\t$(call go-install-tool,x," + "a" * 7_000 + "\n",
                 "\tA=" + "$(X)" * 1_500 + " " + "B=1 " * 300 + "go install a.b/c@v1.0.0\n",
                 f"\tcurl {SCRIPT} | sh -s -- v1.0.0\n" * 20_000):
        found = within_cpu(5, partial(_both, body))
        assert len({(d.name, d.version) for d in found}) <= 1


def test_a_script_tag_or_macro_package_not_read_names_nothing() -> None:
    for line in (f"curl -sSfL {SCRIPT} | sh -s -- -b bin $(shell cat .lint-version)",  # a tag not resolved
                 f"curl -sSfL {SCRIPT} | sh -s -- -b bin latest", f"curl -sSfL {SCRIPT} | sh -s -- -b v1.62.0",
                 f"curl -sSfL {SCRIPT} -o install.sh", f"curl -sSfL {SCRIPT} | sh -s v1.62.0",
                 "curl -sSfL https://example.com/golangci/golangci-lint/master/install.sh | sh -s -- v1.62.0",
                 "$(call go-install-tool,$(X),sigs.k8s.io/kind@latest)", "$(call go-install-tool,$(X),a.b/c,$(V))",
                 "$(call my-tool,$(X),sigs.k8s.io/kind@v0.29.0)", "$(GOPATH) install sigs.k8s.io/kind@v0.29.0"):
        assert _read(f"V := $(shell cat .v)\nlint:\n\t{line}\n") == [], line


def test_a_script_tag_moved_behind_an_unresolved_variable_is_no_removal(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"Makefile": AUTOPILOT}, {"Makefile": {" v1.61.0": " $(LINT_VERSION)"}})
    for delta in (tree, patch):
        assert not any(c.change == "removed" for c in delta.changes), delta.changes
        assert [p.kind for p in delta.problems] in (["unparsable"], ["partial"]), delta.problems


def test_an_assignment_before_an_install_not_read_still_holds_it(tmp_path: Path) -> None:
    # `VERSION=$(V) ./install.sh` installs what the variable says: the literal `go install` it replaces is no removal
    body = "lint:\n\tGOBIN=$(PWD)/bin go install github.com/o/lint/cmd/lint@v1.2.0\n"
    tree, patch = both_edited(tmp_path, {"Makefile": body}, {"Makefile": {
        "GOBIN=$(PWD)/bin go install github.com/o/lint/cmd/lint@v1.2.0": "VERSION=$(V) ./hack/install.sh"}})
    for delta in (tree, patch):
        assert delta.changes == (), delta.changes
        assert [p.kind for p in delta.problems] in (["unparsable"], ["partial"]), delta.problems


# --- the classes ---

def test_an_installer_script_tag_moves(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"Makefile": AUTOPILOT}, {"Makefile": {" v1.61.0": " v1.62.0"}})
    want = {("tool", "golangci/golangci-lint", "v1.61.0", "v1.62.0", "upgraded")}
    assert _rows(tree) == want and tree.problems == ()
    assert _rows(patch) == want and patch.problems == ()


def test_the_script_form_of_a_dockerfile_run_line_and_a_workflow_shell() -> None:
    line = f"curl -sSfL {SCRIPT} | sh -s -- -b $(go env GOPATH)/bin v2.1.6"
    assert [(d.name, d.version) for d in releases("Dockerfile", line)] == [("golangci/golangci-lint", "v2.1.6")]
    syft = "curl -sSfL https://raw.githubusercontent.com/anchore/syft/main/install.sh | sudo sh -s -- -b /x v0.90.0"
    assert [(d.name, d.version) for d in releases("Dockerfile", syft)] == [("anchore/syft", "v0.90.0")]


def test_kubebuilder_go_install_tool_calls_move(tmp_path: Path) -> None:
    assert _read(OPERATOR) == [("go", "sigs.k8s.io/controller-tools/cmd/controller-gen", "v0.4.1"),
                               ("go", "sigs.k8s.io/kustomize/kustomize/v5", "v5.4.3")]
    tree, patch = both_edited(tmp_path, {"Makefile": OPERATOR}, {"Makefile": {"@v0.4.1": "@v0.14.0"}})
    want = {("go", "sigs.k8s.io/controller-tools/cmd/controller-gen", "v0.4.1", "v0.14.0", "upgraded")}
    assert _rows(tree) == want and tree.problems == ()
    assert _rows(patch) == want and patch.problems == ()


def test_a_go_cmd_install_moves_from_the_patch_too(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"Makefile": JOBSET}, {"Makefile": {"@v0.29.0": "@v0.32.0"}})
    want = {("go", "sigs.k8s.io/kind", "v0.29.0", "v0.32.0", "upgraded")}
    assert _rows(tree) == want and tree.problems == ()
    # the hunk shows `$(GO_CMD)` but not `GO_CMD ?= go`: before, the line was held unresolved and named nothing
    assert _rows(patch) == want and patch.problems == ()


def test_a_module_moved_to_its_next_major_path_is_one_upgrade(tmp_path: Path) -> None:
    # both sides hold an install not resolved (client-gen's version from the shell): the move is still named
    tree, patch = both_edited(tmp_path, {"Makefile": JOBSET}, {"Makefile": {
        "golangci-lint/cmd/golangci-lint@v1.64.5": "golangci-lint/v2/cmd/golangci-lint@v2.1.5"}})
    for delta in (tree, patch):
        assert _rows(delta) == {("go", "github.com/golangci/golangci-lint/v2", "v1.64.5", "v2.1.5", "upgraded")}
        assert delta.changes[0].from_name == "github.com/golangci/golangci-lint" and delta.problems == ()


# --- look-alikes ---

def test_a_mention_of_the_old_module_beside_the_new_one_is_still_held(tmp_path: Path) -> None:
    # the head still runs the v1 module in a form not read (`sh -c`): its v1 dependency is no removal
    tree, _ = both_edited(tmp_path, {"Makefile": JOBSET}, {"Makefile": {
        "golangci-lint/cmd/golangci-lint@v1.64.5": "golangci-lint/v2/cmd/golangci-lint@v2.1.5\n"
                                                   "\tsh -c 'go run github.com/golangci/golangci-lint/cmd/x@v1'"}})
    assert not any(c.change == "removed" for c in tree.changes), tree.changes
    assert "unparsable" in [p.kind for p in tree.problems]


def test_a_go_variable_of_other_names_or_values_reads_as_before() -> None:
    body = "GO = go1.22.1\nGOBIN := $(shell pwd)/bin\nt:\n\t$(GO) install a.b/c@v1.0.0\n" \
           "\t$(GOBIN) install a.b/d@v1.0.0\n"
    assert _read(body) == []  # `GO` set to a literal is that literal; `$(GOBIN)` is no command
