"""Classes of misses the thirty-eighth blind set of update commits found (bench/deps_bumps_thirtyeighth.tsv).

- A Terraform provider whose `required_providers` key is not its source's type (angelnu/k8s-gitops's
  `proxmox-bpg = { source = "bpg/proxmox" }`, 5 commits): Renovate names the update by the key ("update terraform
  proxmox-bpg to 0.111.1"), the delta by the source. The key is the change's `alias` now, with `--tree` and from a
  patch whose hunk shows the key's opening (infra.provider_alias); the name stays the source, which is what is
  installed.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.deps.infra import parse_terraform, provider_alias
from tests.deltas import accuracy_bench, bench_change, moves
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

PROVIDERS = """\
terraform {
  required_version = ">= 1.5"
  required_providers {
    talos = {
      source  = "siderolabs/talos"
      version = "0.9.0"
    }

    proxmox-bpg = {
      source = "bpg/proxmox"
      version = "0.111.0"
    }
    aws = {
      source  = "hashicorp/aws"
      version = "6.2.0"
    }
    Unifi = {
      source  = "paultyng/unifi"
      version = "0.41.0"
    }
  }
}

provider "proxmox-bpg" {
  endpoint = var.endpoint
}
"""


def _bumped(root: Path, old: str, new: str) -> tuple[object, ...]:
    repo, base, head = edited_commits(root, {"infrastructure/provider.tf": PROVIDERS},
                                      {"infrastructure/provider.tf": {old: new}})
    return _tree(repo, base, head), _patch(repo, base, head)


def test_a_provider_is_named_by_its_source_and_called_by_its_key(tmp_path: Path) -> None:
    # angelnu/k8s-gitops 538eb2e: "update terraform proxmox-bpg to 0.111.1"
    tree, patch = _bumped(tmp_path, 'version = "0.111.0"', 'version = "0.111.1"')
    for delta in (tree, patch):
        assert moves(delta) == {("terraform", "bpg/proxmox", "0.111.0", "0.111.1")}, delta
        assert [c.alias for c in delta.changes] == ["proxmox-bpg"], delta.changes
        assert not delta.problems, delta.problems
    bench = accuracy_bench()
    assert bench._same_name("proxmox-bpg", tree.changes[0])
    assert bench._same_name("bpg/proxmox", tree.changes[0])
    assert bench._same_name("proxmox", tree.changes[0])  # the source's type, as `google` for hashicorp/google
    assert not bench._same_name("bpg", tree.changes[0])  # the namespace alone names no provider


def test_a_key_that_is_the_type_adds_no_alias(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, '"6.2.0"', '"6.3.0"')
    for delta in (tree, patch):
        assert moves(delta) == {("terraform", "hashicorp/aws", "6.2.0", "6.3.0")}, delta
        assert [c.alias for c in delta.changes] == [None], delta.changes
    tree, _ = _bumped(tmp_path / "case", '"0.41.0"', '"0.41.1"')
    assert [c.alias for c in tree.changes] == [None]  # `Unifi` is its type but for case


def test_every_entry_keeps_its_own_key() -> None:
    deps = parse_terraform("provider.tf", PROVIDERS.encode())
    assert [(d.name, d.version, d.alias) for d in deps] == [
        ("siderolabs/talos", "0.9.0", ""), ("bpg/proxmox", "0.111.0", "proxmox-bpg"),
        ("hashicorp/aws", "6.2.0", ""), ("paultyng/unifi", "0.41.0", "")]
    # no source: the key is the type under hashicorp/, so there is nothing else to call it
    legacy = parse_terraform("p.tf", b'terraform {\n  required_providers {\n    google = {\n'
                                     b'      version = "5.0.0"\n    }\n  }\n}\n')
    assert [(d.name, d.alias) for d in legacy] == [("hashicorp/google", "")]


@pytest.mark.parametrize(("local", "source", "alias"), [
    ("proxmox-bpg", "bpg/proxmox", "proxmox-bpg"),
    ("google-beta", "hashicorp/google-beta", ""),
    ("aws", "registry.terraform.io/hashicorp/aws", ""),
    ("k8s", "hashicorp/kubernetes", "k8s"),
    ("AWS", "hashicorp/aws", ""),
])
def test_the_alias_is_the_key_only_where_it_differs(local: str, source: str, alias: str) -> None:
    assert provider_alias(local, source) == alias


def test_a_hunk_without_the_key_names_the_source_alone(tmp_path: Path) -> None:
    # the block's opening above the hunk: the version is still the source's (the walk's `top` case), with no key
    body = PROVIDERS.replace('    proxmox-bpg = {\n      source = "bpg/proxmox"\n',
                             '    proxmox-bpg = {\n' + "      # pinned by the home lab\n" * 4
                             + '      source = "bpg/proxmox"\n')
    repo, base, head = edited_commits(tmp_path, {"provider.tf": body},
                                      {"provider.tf": {'version = "0.111.0"': 'version = "0.111.1"'}})
    patch = _patch(repo, base, head)
    assert moves(patch) == {("terraform", "bpg/proxmox", "0.111.0", "0.111.1")}, patch
    assert [c.alias for c in patch.changes] == [None]
    assert [c.alias for c in _tree(repo, base, head).changes] == ["proxmox-bpg"]


def test_a_change_called_by_another_key_is_not_this_provider() -> None:
    bench = accuracy_bench()
    change = bench_change("terraform", "bpg/proxmox", alias="proxmox-bpg")
    assert not bench._same_name("proxmox-telmate", change)
