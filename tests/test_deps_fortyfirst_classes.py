"""Classes of misses the forty-first blind set of update commits found (bench/deps_bumps_fortyfirst.tsv).

- Terraform's own version, `required_version = ">= 1.7.1"` in a configuration's `terraform {` block
  (vmware-samples/packer-examples-for-vsphere's versions.tf files, "chore(deps): bump terraform from v1.6.0 to v1.7.1"),
  was read by nothing: with `--tree` no change, from the patch a `partial` problem. It is the tool hashicorp/terraform
  at that constraint now, both modes; the same argument in a module block, nested deeper or holding an expression
  names nothing, and from a patch a hunk that shows another block opening above it is refused as before.
- A helm_release's `set { name = "image" value = "…/kube-management-api-aws:v0.0.23" }` (zopdev/opentofu-modules'
  zop-system releases, a person's "update kube-management-api to v0.0.24", 3) was read by nothing with `--tree` and
  refused (`partial`) from the patch. A `set` block of one-line arguments whose `name` is an image key (`image`,
  `controller.image`, `proxy.initImage`) and whose `value` is a whole reference with a tag or digest is that image
  now; from a patch when the hunk shows the block's `set {` and `}` around it. `image.tag`, `image.repository`, a
  value without a tag, a `set_sensitive`/`dynamic` block or a nested block name nothing.
- A Makefile's Go toolchain (`GO_VERSION ?= 1.21`, buildkite/elastic-ci-stack-for-aws' "Update Go to 1.22 in
  Makefile", passed on as `golang:$(GO_VERSION)`) and controller-gen (stefanprodan/timoni's `CONTROLLER_GEN_VERSION ?=
  v0.20.0`, "build: Update controller-gen to v0.21.0" x2; dash0-operator's kubebuilder `CONTROLLER_TOOLS_VERSION`)
  named nothing: a `<TOOL>_VERSION` variable was read only for a tool released on GitHub the delta knew. `GO_VERSION`
  and `GOLANG_VERSION` are the tool `go` now, controller-gen and controller-tools are
  kubernetes-sigs/controller-tools; both modes, with the same rules (set once, a literal version, no annotation).

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and hostile input.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.deps.infra import parse_terraform
from tests.deltas import accuracy_bench, bench_change, each_fast, moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

# vmware-samples/packer-examples-for-vsphere's per-configuration versions.tf: a banner, one provider, the CLI's floor
VERSIONS_TF = """\
##################################################################################
# VERSIONS
##################################################################################

terraform {
  required_providers {
    vsphere = {
      source  = "hashicorp/vsphere"
      version = ">= 2.5.1"
    }
  }
  required_version = ">= 1.6.0"
}
"""

# a module whose input happens to be called required_version, and a variable of that name: neither is Terraform's
MODULE_INPUT = """\
module "runner" {
  source           = "example-org/runner/aws"
  required_version = ">= 1.6.0"
  name             = "ci"
}

variable "required_version" {
  type    = string
  default = "1.6.0"
}
"""

TERRAFORM = ("tool", "hashicorp/terraform")

# stefanprodan/timoni's Makefile head and buildkite/elastic-ci-stack-for-aws' Go line used as an image tag
TIMONI_MAKEFILE = """\
# timoni test, build, install makefile

.ONESHELL:
.SHELLFLAGS += -e

REPOSITORY_ROOT := $(shell git rev-parse --show-toplevel)
BIN_DIR := $(REPOSITORY_ROOT)/bin

# API gen tool
CONTROLLER_GEN_VERSION ?= v0.20.0

# Kubernetes env test
ENVTEST_ARCH?=amd64
ENVTEST_KUBERNETES_VERSION?=1.35

all: test build
"""
BUILDKITE_MAKEFILE = """\
SHELL := /bin/bash -o pipefail

PACKER_VERSION ?= 1.10.2
GO_VERSION ?= 1.21
ARCH ?= amd64

build/fix-perms: go.mod go.sum
\tdocker run --rm -v "$(PWD):/work" -w /work golang:$(GO_VERSION) \\
\t\tgo build -o build/fix-perms ./internal/fix-perms
"""

# zopdev/opentofu-modules' zop-system/aws/main.tf: the service chart, its name and the image it runs passed by `set`
ZOP_SYSTEM = """\
locals {
  cluster_name = var.app_env != "" ? "${var.app_name}-${var.app_env}" : var.app_name
}

resource "helm_release" "service_helm"{
  name        = "kube-management-api"
  namespace   = "zop-system"
  repository  = "https://helm.zop.dev"
  version     = "v0.0.18"
  chart       = "service"

  set {
    name  = "name"
    value = "kube-management-api"
  }

  set {
    name  = "image"
    value = "us-central1-docker.pkg.dev/raramuri-tech/kops-dev/kube-management-api-aws:v0.0.23"
  }

  set_list {
    name  = "command"
    value = ["./main"]
  }
}
"""
ZOP_IMAGE = "us-central1-docker.pkg.dev/raramuri-tech/kops-dev/kube-management-api-aws"


def _bumped(root: Path, name: str, body: str, edits: dict[str, str]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, {name: body}, {name: edits})
    return _tree(repo, base, head), _patch(repo, base, head)


def _terraform(body: str) -> list[str]:
    deps = parse_terraform("versions.tf", body.encode())
    return [d.version or "" for d in deps if (d.ecosystem, d.name) == TERRAFORM]


def test_vmware_required_version_bump_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, "terraform/vsphere-role/versions.tf", VERSIONS_TF,
                          {'required_version = ">= 1.6.0"': 'required_version = ">= 1.7.1"'})
    want = {(*TERRAFORM, ">= 1.6.0", ">= 1.7.1")}
    assert moves(tree) == moves(patch) == want, (tree, patch)  # type: ignore[arg-type]
    assert not tree.problems and not patch.problems, (tree, patch)  # type: ignore[attr-defined]


def test_the_bench_names_terraform_by_its_short_name() -> None:
    bench = accuracy_bench()
    assert bench._same_name("Terraform", bench_change("tool", "hashicorp/terraform"))
    assert bench._same_version("1.7.1", ">= 1.7.1")
    assert not bench._same_version("1.7.1", ">= 1.6.0")


@each_case("constraint", ["1.7.1", "~> 1.5", ">= 1.3, < 2.0", "v1.9.0", "= 1.5.7"])
def test_literal_constraints_are_read(constraint: str) -> None:
    assert _terraform(VERSIONS_TF.replace(">= 1.6.0", constraint)) == [constraint]


@each_case("value", ['"${var.tf}"', "var.required", '""', '"latest"', '">= "', '">= 1.0 || 2"'])
def test_expressions_and_non_versions_name_nothing(value: str) -> None:
    assert _terraform(VERSIONS_TF.replace('">= 1.6.0"', value)) == []


def test_a_module_input_or_variable_of_that_name_is_not_terraform(tmp_path: Path) -> None:
    assert _terraform(MODULE_INPUT) == []
    # nested one level deeper inside the terraform block (a `cloud {}` block's argument) is not the CLI's floor
    nested = VERSIONS_TF.replace("  required_version", "  cloud {\n    required_version = \">= 9.0\"\n  }\n"
                                                       "  required_version")
    assert _terraform(nested) == [">= 1.6.0"]
    # from a patch: the hunk shows the module's opening above the line, so it is refused, not read as Terraform
    tree, patch = _bumped(tmp_path, "main.tf", MODULE_INPUT,
                          {'required_version = ">= 1.6.0"': 'required_version = ">= 1.7.0"'})
    assert not any(c.name == "hashicorp/terraform" for c in tree.changes), tree  # type: ignore[attr-defined]
    assert not any(c.name == "hashicorp/terraform" for c in patch.changes), patch  # type: ignore[attr-defined]
    assert partial(patch, "main.tf"), patch  # type: ignore[arg-type]


def test_a_terraform_block_not_at_the_top_level_is_not_read() -> None:
    # `terraform {` indented inside a heredoc-free wrapper block is another block's content
    body = 'locals {\n  terraform {\n    required_version = ">= 1.0"\n  }\n}\n'
    assert _terraform(body) == []


def test_many_blocks_are_read_in_linear_time() -> None:
    block = 'terraform {\n  required_version = ">= 1.6.0"\n}\nmodule "m" {\n  required_version = "1.0"\n}\n'
    for copies in (2_000, 8_000):
        body = block * copies
        each_fast([(lambda body=body: parse_terraform("versions.tf", body.encode()), "versions.tf")], 5.0)
        assert len(_terraform(body)) == copies
    # an unbalanced file (more closers than openers) neither crashes nor reads a later block's nested line
    assert _terraform("}\n}\n" + VERSIONS_TF) == [">= 1.6.0"]


def _images(body: str) -> set[tuple[str, str]]:
    return {(d.name, d.version or "") for d in parse_terraform("main.tf", body.encode()) if d.ecosystem == "docker"}


def test_zopdev_set_image_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, "zop-system/aws/main.tf", ZOP_SYSTEM, {"aws:v0.0.23": "aws:v0.0.24"})
    want = {("docker", ZOP_IMAGE, "v0.0.23", "v0.0.24")}
    assert moves(tree) == moves(patch) == want, (tree, patch)  # type: ignore[arg-type]
    assert not tree.problems and not patch.problems, (tree, patch)  # type: ignore[attr-defined]


@each_case(("name", "value", "named"), [
    ("image", "nginx:1.27.0", ("nginx", "1.27.0")),
    ("controller.image", "ghcr.io/o/app@sha256:" + "a" * 64, ("ghcr.io/o/app", "@sha256:" + "a" * 64)),
    ("proxy.initImage", "busybox:1.36", ("busybox", "1.36")),
    ("sidecar_image", "quay.io/o/s:v2", ("quay.io/o/s", "v2")),
    ("image.tag", "v0.0.24", None), ("image.repository", "nginx:1.27.0", None), ("imagePullPolicy", "Always", None),
    ("myimage", "nginx:1.27.0", None), ("image", "nginx", None), ("image", "${var.image}", None),
    ("image", "localhost:5000/app", None),
])
def test_set_image_keys_and_look_alikes(name: str, value: str, named: tuple[str, str] | None) -> None:
    body = ZOP_SYSTEM.replace('name  = "image"', f'name  = "{name}"').replace(
        f'"{ZOP_IMAGE}:v0.0.23"', f'"{value}"')
    images = _images(body)
    assert images == ({named} if named else set()), images


def test_other_blocks_holding_an_image_setting_name_nothing(tmp_path: Path) -> None:
    for opener in ("set_sensitive {", 'dynamic "set" {', "set_list {"):
        assert _images(ZOP_SYSTEM.replace("set {\n    name  = \"image\"", f"{opener}\n    name  = \"image\"")) \
            == set(), opener
    nested = ZOP_SYSTEM.replace('    name  = "image"\n', '    name  = "image"\n    x = {\n      y = 1\n    }\n')
    assert _images(nested) == set()
    # from a patch, a value line whose `set {` opening the hunk does not show is refused as before
    far = ZOP_SYSTEM.replace('    name  = "image"\n', '    name  = "image"\n' + "    # note\n" * 6)
    _, patch = _bumped(tmp_path, "main.tf", far, {"aws:v0.0.23": "aws:v0.0.24"})
    assert not patch.changes and partial(patch, "main.tf"), patch  # type: ignore[attr-defined, arg-type]


def test_many_set_blocks_are_read_in_linear_time() -> None:
    block = 'set {\n  name = "image"\n  value = "app:1.0"\n}\nset {\n' + "  a = 1\n" * 9
    for copies in (2_000, 8_000):
        body = block * copies
        each_fast([(lambda body=body: parse_terraform("main.tf", body.encode()), "main.tf")], 5.0)
        assert _images(body) == {("app", "1.0")}


def test_timoni_controller_gen_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, "Makefile", TIMONI_MAKEFILE, {"v0.20.0": "v0.21.0"})
    want = {("tool", "kubernetes-sigs/controller-tools", "v0.20.0", "v0.21.0")}
    assert moves(tree) == moves(patch) == want, (tree, patch)  # type: ignore[arg-type]
    assert accuracy_bench()._same_name("controller-gen", bench_change("tool", "kubernetes-sigs/controller-tools"))
    kubebuilder = TIMONI_MAKEFILE.replace("CONTROLLER_GEN_VERSION", "CONTROLLER_TOOLS_VERSION")
    tree, patch = _bumped(tmp_path / "b", "Makefile", kubebuilder, {"v0.20.0": "v0.21.0"})
    assert moves(tree) == moves(patch) == want, (tree, patch)  # type: ignore[arg-type]


def test_buildkite_go_version_is_go_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, "Makefile", BUILDKITE_MAKEFILE, {"GO_VERSION ?= 1.21": "GO_VERSION ?= 1.22"})
    want = {("tool", "go", "1.21", "1.22")}
    assert moves(tree) == moves(patch) == want, (tree, patch)  # type: ignore[arg-type]
    golang = BUILDKITE_MAKEFILE.replace("GO_VERSION", "GOLANG_VERSION")
    tree, _ = _bumped(tmp_path / "b", "Makefile", golang, {"GOLANG_VERSION ?= 1.21": "GOLANG_VERSION ?= 1.22"})
    assert moves(tree) == want, tree  # type: ignore[arg-type]


@each_case("line", [
    "GO_VERSION ?= $(shell go env GOVERSION)",  # computed
    "GO_VERSION ?= stable",  # a channel, no version
    "GOPROXY_VERSION ?= 1.21",  # another word
    "MY_GO_VERSION ?= 1.21",  # a prefix makes it another variable
    "CONTROLLER_GEN ?= v0.20.0",  # no _VERSION
])
def test_makefile_look_alikes_name_nothing(tmp_path: Path, line: str) -> None:
    body = BUILDKITE_MAKEFILE.replace("GO_VERSION ?= 1.21", line)
    new = line.replace("1.21", "1.22").replace("v0.20.0", "v0.21.0").replace("stable", "oldstable")
    tree, _ = _bumped(tmp_path, "Makefile", body, {line: new})
    assert not any(c.name in ("go", "kubernetes-sigs/controller-tools") for c in tree.changes), tree  # type: ignore


def test_a_go_version_set_twice_or_annotated_is_not_the_toolchain(tmp_path: Path) -> None:
    twice = BUILDKITE_MAKEFILE.replace("ARCH ?= amd64", "ARCH ?= amd64\nifeq ($(CI),true)\nGO_VERSION := 1.20\nendif")
    tree, _ = _bumped(tmp_path, "Makefile", twice, {"GO_VERSION ?= 1.21": "GO_VERSION ?= 1.22"})
    assert not any(c.name == "go" for c in tree.changes), tree  # type: ignore[attr-defined]
    annotated = BUILDKITE_MAKEFILE.replace("GO_VERSION ?= 1.21",
                                           "# renovate: datasource=golang-version depName=golang\nGO_VERSION ?= 1.21")
    tree, _ = _bumped(tmp_path / "b", "Makefile", annotated, {"GO_VERSION ?= 1.21": "GO_VERSION ?= 1.22"})
    assert [c.name for c in tree.changes] == ["golang"], tree  # type: ignore[attr-defined]
