"""Classes of misses the eighth blind set of bot update commits found (bench/deps_bumps_eighth.tsv): a Terraform
variable's value under a Renovate annotation (also the repository's own `# renovate-helm:` prefix), Terraform
`module` blocks as use sites, kustomize's remote resources on GitHub, kustomize `images:` entries and PEP 735
groups written on one line, read from a patch's hunks. Each is fed the shape of the real file
(aws-samples/eks-workshop-v2's `vars.tf`, ministryofjustice/cloud-platform-infrastructure's modules,
onedr0p/home-ops' kustomizations, psf/black's pyproject.toml) through a real git repository, with the hostile
variants beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import kustomize, tools
from tests.deltas import moves as _moves
from tests.deltas import partial as _partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

# A Terraform variable whose default a Renovate annotation names (eks-workshop-v2's regex managers)

VARS_TF = """\
variable "eks_cluster_id" {
  description = "EKS cluster name"
  type        = string
}

variable "kro_version" {
  description = "The version of Kro to use"
  type        = string
  # renovate: datasource=github-releases depName=kro-run/kro
  default = "0.4.1"
}

variable "keda_chart_version" {
  description = "The chart version of keda to use"
  type        = string
  # renovate-helm: depName=keda registryUrl=https://kedacore.github.io/charts
  default = "2.18.3"
}
"""
VARS = "manifests/modules/kro/.workshop/terraform/vars.tf"


@pytest.mark.parametrize(("old", "new", "moved"), [
    ('default = "0.4.1"', 'default = "0.8.4"', ("tool", "kro-run/kro", "0.4.1", "0.8.4")),
    ('default = "2.18.3"', 'default = "2.19.0"', ("helm", "keda", "2.18.3", "2.19.0")),
])
def test_terraform_annotated_default_tree_and_patch(tmp_path: Path, old: str, new: str,
                                                     moved: tuple[str, str, str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {VARS: VARS_TF}, {VARS: {old: new}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == {moved}, delta
        assert not delta.problems
        assert delta.changes[0].change == "upgraded"


def test_renovate_prefix_names_its_datasource() -> None:
    assert tools.annotation("  # renovate-helm: depName=keda registryUrl=https://kedacore.github.io/charts") \
        == ("helm", "keda")
    assert tools.annotation("# renovate-docker: depName=nginx") == ("docker", "nginx")
    # the datasource the pairs name wins over the prefix; a prefix of an unknown source is a tool
    assert tools.annotation("# renovate-helm: datasource=docker depName=nginx") == ("docker", "nginx")
    assert tools.annotation("# renovate-endoflife: depName=amazon-rds-mysql") == ("tool", "amazon-rds-mysql")
    for line in ("# renovatehelm: depName=keda", "# renovate-: depName=keda", "# renovate-helm depName=keda",
                 "# renovate-helm: registryUrl=https://x", "# not-renovate: depName=keda"):
        assert tools.annotation(line) is None, line


def test_terraform_annotation_over_a_module_version_adds_and_does_not_hide(tmp_path: Path) -> None:
    """A patch whose hunk shows an annotation over a module's `version` but not the module's `source`: the
    annotation names one package, the line is still a module's version no hunk ties to its module, so the
    file fails closed (a module could move under a name an annotation chose)."""
    body = 'module "eks" {\n  source = "terraform-aws-modules/eks/aws"\n' + "\n".join(
        f"  input_{n} = {n}" for n in range(8)) + '\n  # renovate: datasource=github-releases depName=a/b\n' \
        '  version = "20.1.0"\n}\n'
    repo, base, head = edited_commits(tmp_path, {"main.tf": body}, {"main.tf": {'"20.1.0"': '"20.2.0"'}})
    tree = _tree(repo, base, head)
    assert _moves(tree) == {("terraform", "terraform-aws-modules/eks/aws", "20.1.0", "20.2.0"),
                            ("tool", "a/b", "20.1.0", "20.2.0")}
    patch = _patch(repo, base, head)
    assert _partial(patch, "main.tf") and not patch.changes
    # with the module's source in the hunk, both are read
    assert _moves(_patch(repo, base, head, "-U12")) == _moves(tree)


def test_terraform_annotation_must_be_directly_above(tmp_path: Path) -> None:
    body = 'variable "v" {\n  # renovate: datasource=github-releases depName=a/b\n  type = string\n' \
           '  default = "1.0.0"\n}\n'
    repo, base, head = edited_commits(tmp_path, {"vars.tf": body}, {"vars.tf": {'"1.0.0"': '"1.1.0"'}})
    assert not _tree(repo, base, head).changes  # the annotated line is `type = string`, no version
    assert _partial(_patch(repo, base, head), "vars.tf")


# Terraform module blocks are use sites: one block moved to the version another block already uses

MODULES_TF = """\
module "s3_bucket_velero" {
  source  = "terraform-aws-modules/s3-bucket/aws"
  version = "4.3.0"

  bucket = "cloud-platform-velero-backups"
}

module "s3_bucket_kubeconfigs" {
  source  = "terraform-aws-modules/s3-bucket/aws"
  version = "3.15.1"

  bucket = "cloud-platform-concourse-kubeconfig"
  acl    = "private"
}
"""


def test_terraform_module_block_moves_to_a_version_another_block_uses(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"account/main.tf": MODULES_TF},
                                      {"account/main.tf": {'"3.15.1"': '"4.3.0"'}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == {("terraform", "terraform-aws-modules/s3-bucket/aws", "3.15.1", "4.3.0")}, delta
        assert delta.changes[0].change == "upgraded" and delta.changes[0].level == "major"


def test_terraform_version_with_a_trailing_comment_from_a_patch(tmp_path: Path) -> None:
    body = MODULES_TF.replace('"3.15.1"', '"3.15.1" # 3.16 needs a state import')
    repo, base, head = edited_commits(tmp_path, {"main.tf": body}, {"main.tf": {'"3.15.1"': '"4.3.0"'}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == {("terraform", "terraform-aws-modules/s3-bucket/aws", "3.15.1", "4.3.0")}, delta
    # a second quoted value after the comment mark is still the comment's, never the version
    hostile = MODULES_TF.replace('"3.15.1"', '"3.15.1" // "9.9.9"')
    repo, base, head = edited_commits(tmp_path / "c", {"main.tf": hostile}, {"main.tf": {'"3.15.1"': '"3.16.0"'}})
    assert _moves(_patch(repo, base, head)) == {("terraform", "terraform-aws-modules/s3-bucket/aws", "3.15.1",
                                                 "3.16.0")}


def test_terraform_module_block_removed_beside_a_kept_one_and_a_new_source(tmp_path: Path) -> None:
    """A block removed at a version another block keeps moved nothing; a block of a new source is added."""
    second = MODULES_TF.split("\n\n", 2)[2]
    repo, base, head = edited_commits(tmp_path, {"main.tf": MODULES_TF.replace('"3.15.1"', '"4.3.0"')}, {
        "main.tf": {second.replace('"3.15.1"', '"4.3.0"'): second.replace(
            "terraform-aws-modules/s3-bucket/aws", "evil/s3-bucket/aws")}})
    delta = _tree(repo, base, head)
    assert {(c.name, c.change) for c in delta.changes} == {("evil/s3-bucket/aws", "added")}


# kustomize: remote resources on GitHub, and `images:` entries from a patch (onedr0p/home-ops)

KUSTOMIZATION = """\
---
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  # renovate: registryUrl=https://charts.jetstack.io chart=cert-manager
  - https://github.com/jetstack/cert-manager/releases/download/v1.6.0/cert-manager.crds.yaml
  - github.com/rancher/system-upgrade-controller?ref=v0.8.0
  - plans
images:
  - name: rancher/system-upgrade-controller
    newTag: v0.8.0
  - name: busybox
    newName: docker.io/library/busybox
    newTag: "1.36"
namespace: system-upgrade
"""
KPATH = "cluster/core/system-upgrade/kustomization.yaml"


def test_kustomize_remote_resources_tree_and_patch(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {KPATH: KUSTOMIZATION}, {KPATH: {
        "download/v1.6.0/": "download/v1.6.1/", "?ref=v0.8.0": "?ref=v0.8.1", "newTag: v0.8.0": "newTag: v0.8.1"}})
    expected = {("kustomize", "github.com/jetstack/cert-manager", "v1.6.0", "v1.6.1"),
                ("kustomize", "github.com/rancher/system-upgrade-controller", "v0.8.0", "v0.8.1"),
                ("docker", "rancher/system-upgrade-controller", "v0.8.0", "v0.8.1")}
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == expected, delta
        assert not delta.problems


@each_case(("entry", "found"), [
    ("github.com/o/r?ref=v1.2.0", ("github.com/o/r", "v1.2.0")),
    ("github.com/o/r/config/default?ref=v1.2.0", ("github.com/o/r", "v1.2.0")),
    ("https://github.com/o/r.git/deploy?ref=v1.2.0", ("github.com/o/r", "v1.2.0")),
    ("https://github.com/o/r//deploy?timeout=90s&ref=v1.2.0", ("github.com/o/r", "v1.2.0")),
    ("git::https://github.com/o/r?ref=abc1234", ("github.com/o/r", "abc1234")),
    ("ssh://git@github.com/o/r?ref=v1", ("github.com/o/r", "v1")),
    ("https://github.com/o/r/releases/download/v1.6.1/crds.yaml", ("github.com/o/r", "v1.6.1")),
    # not GitHub, not remote, or no ref: not read (a remote without a ref is its default branch: no version)
    ("github.com.evil.example/o/r?ref=v1", None), ("https://127.0.0.1:9/github.com/o/r?ref=v1", None),
    ("github.com/o/r", None), ("../base", None), ("plans", None),
    ("https://github.com/o/r/releases/latest/download/crds.yaml", None),
    ("github.com/o/r?ref=v1 extra", None),
    # a file GitHub serves raw at a ref: read since the fifteenth set (budimanjojo/home-cluster's rook manifests)
    ("https://raw.githubusercontent.com/o/r/v1/x.yaml", ("github.com/o/r", "v1")),
])
def test_kustomize_remote_shapes(entry: str, found: tuple[str, str] | None) -> None:
    assert kustomize.remote(entry) == found


def test_kustomize_images_entry_from_a_patch_needs_the_whole_entry(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {KPATH: KUSTOMIZATION}, {KPATH: {'newTag: "1.36"': 'newTag: "1.37"'}})
    assert _moves(_patch(repo, base, head, "-U6")) == {("docker", "docker.io/library/busybox", "1.36", "1.37")}
    # three lines of context do not reach `images:` (the keys could be another list's): fail closed
    assert _partial(_patch(repo, base, head), KPATH)
    # -U0 hides the entry's `- name:` line and its `newName:` that renames the image: fail closed
    assert _partial(_patch(repo, base, head, "-U0"), KPATH)
    # the last entry of a file: a hunk with fewer context lines after its change than before it ends where the file
    # does (git writes it so, `git apply` holds it there: hunkends.py), so no `newName:` can follow (refused before
    # the sweep of round 22); one line of context does not show the entry's `- name:` line: fail closed
    last = KUSTOMIZATION.replace("namespace: system-upgrade\n", "")
    repo2, base2, head2 = edited_commits(tmp_path / "last", {KPATH: last}, {KPATH: {'"1.36"': '"1.37"'}})
    assert _moves(_tree(repo2, base2, head2)) == {("docker", "docker.io/library/busybox", "1.36", "1.37")}
    assert _moves(_patch(repo2, base2, head2, "-U6")) == {("docker", "docker.io/library/busybox", "1.36", "1.37")}
    assert _partial(_patch(repo2, base2, head2, "-U1"), KPATH)


def test_kustomize_images_entry_outside_images_is_not_read(tmp_path: Path) -> None:
    """The same keys under another list (a patch's `name:`/`newTag:` strings of a transformer config) are no
    image the hunk proves: the file fails closed."""
    body = "configurations:\n  - name: a\n    newTag: v1\n    newName: b\nnamespace: x\n"
    repo, base, head = edited_commits(tmp_path, {"kustomization.yaml": body},
                                      {"kustomization.yaml": {"newTag: v1": "newTag: v2"}})
    assert _partial(_patch(repo, base, head), "kustomization.yaml")


def test_kustomize_hostile_shapes_are_problems_not_crashes(tmp_path: Path) -> None:
    cases = {"resources: github.com/o/r?ref=v1\n": "unparsable", "resources: [\n": "unparsable",
             "resources:\n  - {a: github.com/o/r?ref=v1}\n  - 7\n": None}
    for n, (body, kind) in enumerate(cases.items()):
        repo, base, head = edited_commits(tmp_path / str(n), {"kustomization.yaml": "resources: []\n"},
                                          {"kustomization.yaml": {"resources: []\n": body}})
        delta = _tree(repo, base, head)
        assert not delta.changes
        assert [p.kind for p in delta.problems] == ([kind] if kind else []), body


# A PEP 735 group on one line, from a patch (psf/black's `hatch = ["hatch==1.15.1", …]`)

PYPROJECT = """\
[project]
name = "black"
dependencies = ["click>=8.0.0"]

[dependency-groups]
hatch = ["hatch==1.15.1", "hatch-fancy-pypi-readme", "hatch-vcs", "virtualenv<21.0.0"]
cibw = ["cibuildwheel==3.4.0", "pypyp"]
"""


def test_pyproject_dependency_group_on_one_line_from_a_patch(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"pyproject.toml": PYPROJECT}, {"pyproject.toml": {
        '"hatch==1.15.1", "hatch-fancy-pypi-readme", "hatch-vcs", "virtualenv<21.0.0"':
            '"hatch==1.17.0", "hatch-fancy-pypi-readme", "hatch-vcs"'}})
    tree, patch = _tree(repo, base, head), _patch(repo, base, head)
    assert ("pip", "hatch", "1.15.1", "1.17.0") in _moves(tree)
    assert _moves(patch) == {("pip", "hatch", "1.15.1", "1.17.0"), ("pip", "virtualenv", "<21.0.0", None)}
    assert not patch.problems


@pytest.mark.parametrize("edit", [
    {'"hatch==1.15.1"': '{include-group = "cibw"}'},  # PEP 735's include: no requirement
    {'"hatch==1.15.1"': '"hatch @ https://127.0.0.1:9/hatch.whl"'},  # a URL
    {'"pypyp"]': '"pypyp", "hatch==1.15.1"]', '"hatch==1.15.1", ': ""},  # moved between groups
])
def test_pyproject_dependency_group_hostile_lines_fail_closed(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"pyproject.toml": PYPROJECT}, {"pyproject.toml": edit})
    assert _partial(_patch(repo, base, head), "pyproject.toml")


def test_pyproject_group_without_its_header_in_the_hunk_fails_closed(tmp_path: Path) -> None:
    body = PYPROJECT.replace("[dependency-groups]\n", "[dependency-groups]\n" + "".join(
        f'g{n} = ["a{n}"]\n' for n in range(8)))
    repo, base, head = edited_commits(tmp_path, {"pyproject.toml": body},
                                      {"pyproject.toml": {'"cibuildwheel==3.4.0"': '"cibuildwheel==3.5.0"'}})
    assert _partial(_patch(repo, base, head), "pyproject.toml")
    assert _moves(_tree(repo, base, head)) == {("pip", "cibuildwheel", "3.4.0", "3.5.0")}
