"""Classes of misses the twenty-ninth blind set of bot update commits found (bench/deps_bumps_twentyninth.tsv).

- A Terraform module pinned by a git tag written `?ref=tags/0.31.0` (cloudposse/terraform-aws-components: Dependabot's
  "Bump subnets from 0.3.6 to 0.31.0", 7 commits, both modes): the delta named the module by its source at
  `tags/0.31.0`, and Dependabot names a git-sourced module by its block's label (`module "subnets" {`). Now the ref
  drops a `tags/` or `refs/tags/` prefix, the ref is found among the query's other git arguments (`depth`), and the
  block's label is the change's alias (tfsource.py; infra.parse_terraform and hcllines read a `source` through it).
- A requirements file holding a local project by its path (pylint-dev/pylint's `requirements_test_min.txt` opening
  with `.[testutils,spelling]`, 1 from the patch; with --tree the same bump was named from pyproject.toml): the whole
  file was refused ("not a requirement"). pip reads a line starting with `.` or `/` as a path: it is named by its
  path, as `-e .` is, at `local`.
- A pre-commit.ci autoupdate that moves a hook repository (`- repo: https://github.com/psf/black` to
  `…/black-pre-commit-mirror`, pylint, 1 from the patch): the changed `- repo:` line refused its hunk, and the rev
  bump of the repository above it in the same hunk went unnamed. Now a moved `- repo:` line names that repository at
  the `rev:` the hunk shows as the item's next key, as the whole file reads it (removed, added).

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.hunklines import precommit_line
from gatekeeper.deps.infra import parse_terraform
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.pypi import parse_requirements
from gatekeeper.deps.tfsource import module_label, module_source
from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


# --- 1. a Terraform module's git tag ref, named by its block ----------------------------------------------------------

EKS = """\
module "label" {
  source     = "git::https://github.com/cloudposse/terraform-null-label.git?ref=tags/0.16.0"
  namespace  = var.namespace
  stage      = var.stage
  name       = var.name
  delimiter  = var.delimiter
  attributes = compact(concat(var.attributes, list("cluster")))
  tags       = var.tags
}

module "vpc" {
  source     = "git::https://github.com/cloudposse/terraform-aws-vpc.git?ref=tags/0.3.4"
  namespace  = var.namespace
  stage      = var.stage
  name       = var.name
  attributes = var.attributes
  tags       = local.tags
  cidr_block = "172.30.0.0/16"
}

module "subnets" {
  source              = "git::https://github.com/cloudposse/terraform-aws-dynamic-subnets.git?ref=tags/0.3.6"
  availability_zones  = data.aws_availability_zones.available.names
  namespace           = var.namespace
  stage               = var.stage
  name                = var.name
  attributes          = var.attributes
  tags                = local.tags
  region              = var.region
  vpc_id              = module.vpc.vpc_id
  igw_id              = module.vpc.igw_id
  cidr_block          = module.vpc.vpc_cidr_block
  nat_gateway_enabled = "true"
}

module "shallow" {
  source = "git::https://example.com/infra/network.git//modules/edge?depth=1&ref=v1.4.0"
}

module "registry" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.8"
}
"""

_SUBNETS = "git::https://github.com/cloudposse/terraform-aws-dynamic-subnets.git"


@each_case(("old", "new", "name", "before", "after", "label"), [
    ("dynamic-subnets.git?ref=tags/0.3.6", "dynamic-subnets.git?ref=tags/0.31.0", _SUBNETS, "0.3.6", "0.31.0",
     "subnets"),  # cloudposse 380dce4dbc43
    ("terraform-aws-vpc.git?ref=tags/0.3.4", "terraform-aws-vpc.git?ref=refs/tags/0.18.0",
     "git::https://github.com/cloudposse/terraform-aws-vpc.git", "0.3.4", "0.18.0", "vpc"),
    ("depth=1&ref=v1.4.0", "depth=1&ref=v1.5.0", "git::https://example.com/infra/network.git//modules/edge",
     "v1.4.0", "v1.5.0", "shallow"),
    ('version = "~> 20.8"', 'version = "~> 21.0"', "terraform-aws-modules/eks/aws", "~> 20.8", "~> 21.0",
     "registry"),
])
def test_a_git_tag_ref_is_the_version_and_the_block_names_the_module(tmp_path: Path, old: str, new: str, name: str,
                                                                    before: str, after: str, label: str) -> None:
    tree, patch = _bumped(tmp_path, {"aws/eks/eks.tf": EKS}, {"aws/eks/eks.tf": {old: new}})
    assert moves(tree) == moves(patch) == {("terraform", name, before, after)}, (tree, patch)
    assert {c.alias for c in tree.changes} == {c.alias for c in patch.changes} == {label}
    assert not tree.problems and not patch.problems


def test_the_whole_file_names_every_module_by_its_source_and_label() -> None:
    read = {(d.name, d.version, d.alias) for d in parse_terraform("eks.tf", EKS.encode())}
    assert read == {("git::https://github.com/cloudposse/terraform-null-label.git", "0.16.0", "label"),
                    ("git::https://github.com/cloudposse/terraform-aws-vpc.git", "0.3.4", "vpc"),
                    (_SUBNETS, "0.3.6", "subnets"),
                    ("git::https://example.com/infra/network.git//modules/edge", "v1.4.0", "shallow"),
                    ("terraform-aws-modules/eks/aws", "~> 20.8", "registry")}


@each_case(("source", "read"), [
    ("git::https://h/o/r.git?ref=tags/0.31.0", ("git::https://h/o/r.git", "0.31.0")),
    ("git::https://h/o/r.git?ref=refs/tags/v2.0.1", ("git::https://h/o/r.git", "v2.0.1")),
    ("github.com/o/r?ref=v1.2.0&depth=1", ("github.com/o/r", "v1.2.0")),
    ("github.com/o/r//sub?depth=1&ref=v1.2.0", ("github.com/o/r//sub", "v1.2.0")),
    ("terraform-aws-modules/vpc/aws", ("terraform-aws-modules/vpc/aws", "")),
    # look-alikes: a branch or a tag path that is not one tag, a ref under another namespace
    ("git::https://h/o/r.git?ref=tags/release/1.0", ("git::https://h/o/r.git", "tags/release/1.0")),
    ("git::https://h/o/r.git?ref=heads/main", ("git::https://h/o/r.git", "heads/main")),
    ("git::https://h/o/r.git?ref=mytags/1.0", ("git::https://h/o/r.git", "mytags/1.0")),
    # any other argument may select content: the address keeps its query, as it always did
    ("https://h/x.zip?archive=zip", ("https://h/x.zip?archive=zip", "")),
    ("git::https://h/o/r.git?sshkey=abc&ref=v1", ("git::https://h/o/r.git?sshkey=abc&ref=v1", "")),
    ("git::https://h/o/r.git?ref=v1&sshkey=abc", ("git::https://h/o/r.git", "v1&sshkey=abc")),
    # malformed: two refs, an empty query
    ("git::https://h/o/r.git?ref=v1&ref=v2", ("git::https://h/o/r.git", "v1&ref=v2")),
    ("git::https://h/o/r.git?", ("git::https://h/o/r.git?", "")),
])
def test_module_source_reads_the_ref_among_git_arguments(source: str, read: tuple[str, str]) -> None:
    assert module_source(source) == read


@each_case(("line", "label"), [
    ('module "subnets" {', "subnets"), ('  module "a-b_c" {  ', "a-b_c"), ('module "" {', ""),
    ('resource "aws_vpc" "x" {', ""), ("module subnets {", ""), ('# module "x" {', ""),
])
def test_module_label(line: str, label: str) -> None:
    assert module_label(line) == label


def test_a_tag_ref_whose_block_the_hunk_does_not_show_stays_refused(tmp_path: Path) -> None:
    body = "module \"far\" {\n" + "".join(f"  a{i} = {i}\n" for i in range(8)) + \
        '  source = "git::https://h/o/r.git?ref=tags/1.0.0"\n}\n'
    _, patch = _bumped(tmp_path, {"main.tf": body}, {"main.tf": {"tags/1.0.0": "tags/1.1.0"}})
    assert moves(patch) == set() and partial(patch, "main.tf")


# --- 2. a local project by its path in a requirements file ------------------------------------------------------------

REQUIREMENTS_MIN = """\
.[testutils,spelling]
# astroid dependency is also defined in pyproject.toml
astroid==4.2.0b1   # Pinned to a specific version for tests
typing-extensions~=4.15
py~=1.11.0
pytest>=8.4,<10.0
pytest-benchmark~=5.1
pytest-timeout~=2.4
"""


def test_a_local_project_line_no_longer_refuses_the_file(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"requirements_test_min.txt": REQUIREMENTS_MIN},
                          {"requirements_test_min.txt": {"astroid==4.2.0b1": "astroid==4.2.0b3"}})
    assert moves(tree) == moves(patch) == {("pip", "astroid", "4.2.0b1", "4.2.0b3")}, (tree, patch)
    assert not tree.problems and not patch.problems


def test_a_local_project_moved_is_a_change(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {"requirements_test_min.txt": REQUIREMENTS_MIN},
                          {"requirements_test_min.txt": {".[testutils,spelling]": "./tools/lint[all]"}})
    assert moves(tree) == moves(patch) == {("pip", ".[testutils,spelling]", "local", None),
                                           ("pip", "./tools/lint[all]", None, "local")}, (tree, patch)


@each_case("line", [
    ".", "..", "./", ".[dev]", ".[testutils, spelling]", "./packages/core", "../dist/x-1.0-py3-none-any.whl",
    "/opt/wheels/pkg-2.0.tar.gz", "./libs/a.b+c@d[extra]",
])
def test_a_path_is_a_local_requirement(line: str) -> None:
    (dep,) = parse_requirements("requirements-dev.txt", f"{line}\n".encode())
    assert (dep.name, dep.version, dep.scope) == (line, "local", "dev")


@each_case("line", [
    ".hidden", ".[", ".[dev", "./a b", "...", "./x;python_version<'3'", "~/pkg", ".|x",
])
def test_a_look_alike_path_is_still_refused(line: str) -> None:
    with pytest.raises(ManifestError):
        parse_requirements("requirements.txt", f"{line}\n".encode())


# --- 3. a pre-commit hook repository moved --------------------------------------------------------------------------

PRE_COMMIT = """\
ci:
  skip: [pylint]

repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: "v0.13.2"
    hooks:
      - id: ruff-check
        args: ["--fix"]
  - repo: https://github.com/PyCQA/isort
    rev: 6.0.1
    hooks:
      - id: isort
        exclude: doc/data/messages/
  - repo: https://github.com/psf/black
    rev: 25.9.0
    hooks:
      - id: black
        args: [--safe, --quiet]
  - repo: local
    hooks:
      - id: pylint
        name: pylint
        entry: pylint
        language: system
"""


def test_a_moved_repository_beside_a_rev_bump_is_read_from_the_patch(tmp_path: Path) -> None:  # pylint 5f0298dcf642
    edits = {"rev: 6.0.1": "rev: 6.1.0", "psf/black\n": "psf/black-pre-commit-mirror\n"}
    tree, patch = _bumped(tmp_path, {".pre-commit-config.yaml": PRE_COMMIT}, {".pre-commit-config.yaml": edits})
    assert moves(tree) == moves(patch) == {("pre-commit", "PyCQA/isort", "6.0.1", "6.1.0"),
                                           ("pre-commit", "psf/black", "25.9.0", None),
                                           ("pre-commit", "psf/black-pre-commit-mirror", None, "25.9.0")}
    assert not tree.problems and not patch.problems, (tree, patch)


def test_a_moved_repository_with_its_rev_moved_too(tmp_path: Path) -> None:
    edits = {"psf/black\n    rev: 25.9.0": "psf/black-pre-commit-mirror\n    rev: 25.11.0"}
    tree, patch = _bumped(tmp_path, {".pre-commit-config.yaml": PRE_COMMIT}, {".pre-commit-config.yaml": edits})
    assert moves(tree) == moves(patch) == {("pre-commit", "psf/black", "25.9.0", None),
                                           ("pre-commit", "psf/black-pre-commit-mirror", None, "25.11.0")}


def _read(*lines: str) -> object:
    side = [(line.removeprefix("+"), line.startswith("+")) for line in lines]
    index = next(i for i, (_, changed) in enumerate(side) if changed)
    try:
        return precommit_line(side, index)
    except ManifestError:
        return "refused"


@each_case(("lines", "read"), [
    (("+  - repo: https://github.com/psf/black-pre-commit-mirror", "    rev: 25.9.0", "    hooks:"),
     [("psf/black-pre-commit-mirror", "25.9.0", "pre-commit", "")]),
    (("+- repo: https://github.com/o/r", "  # pinned", "  rev: 'v1.0.0'"), [("o/r", "v1.0.0", "pre-commit", "")]),
    (("+  - repo: https://github.com/o/r", f"    rev: {'a' * 40}  # frozen: v2.1.0"),
     [("o/r", "a" * 40, "pre-commit", "v2.1.0")]),
    # the rev line changed too names it itself; a local or meta repository has no rev: refused as before
    (("+  - repo: https://github.com/o/r", "+    rev: v2"), []),
    (("+  - repo: meta", "    rev: v1"), "refused"),
    # look-alikes and malformed: no rev shown, a rev of another item or nested deeper, hooks first, a rev with a block
    (("+  - repo: https://github.com/o/r",), "refused"),
    (("+  - repo: https://github.com/o/r", "    hooks:", "      - id: x", "    rev: v1"), "refused"),
    (("+  - repo: https://github.com/o/r", "  - rev: v1"), "refused"),
    (("+  - repo: https://github.com/o/r", "      rev: v1"), "refused"),
    (("+  - repo: https://github.com/o/r", "    rev: v1", "      nested: x"), "refused"),
    (("+  - repo: local",), "refused"),
])
def test_a_repo_line_reads_the_rev_below_it(lines: tuple[str, ...], read: object) -> None:
    assert _read(*lines) == read


DNS = "".join(f"""\
module "{label}" {{
  source      = "terraform-google-modules/cloud-dns/google"
  version     = "~> 6.0"
  project_id  = var.project_id
  type        = "private"
  name        = "${{local.dns_code}}{label}"
  domain      = "{label}.example.com."
  labels      = var.labels
}}

""" for label in ("googleapis", "gcr", "pkg_dev"))


def test_one_source_moved_in_several_blocks_is_one_move_named_by_the_first_block(tmp_path: Path) -> None:
    # terraform-google-modules/terraform-google-network 2027d0885f3f (fourteenth set): three blocks, one module
    tree, patch = _bumped(tmp_path, {"dns.tf": DNS}, {"dns.tf": {'"~> 6.0"': '"~> 7.0"'}})
    assert moves(tree) == moves(patch) == {("terraform", "terraform-google-modules/cloud-dns/google", "~> 6.0",
                                            "~> 7.0")}, (tree, patch)
    assert [c.alias for c in tree.changes] == [c.alias for c in patch.changes] == ["googleapis"]
    assert not patch.problems
    # two blocks moved to different versions are two edits: the patch leaves the name to the whole file, as before
    body = DNS.replace('"~> 6.0"', '"~> 6.1"', 1)
    _, patch = _bumped(tmp_path / "b", {"dns.tf": body}, {"dns.tf": {'"~> 6.1"': '"~> 7.1"', '"~> 6.0"': '"~> 7.0"'}})
    assert moves(patch) == set() and partial(patch, "dns.tf")
