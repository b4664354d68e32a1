"""Tier 2 claims in detail, with real repositories: what each claim kind covers and leaves out (docs,
build files, tests), folders a tool reads whole, skipped folders, `stop` files that end a program claim
(and why a change cannot add one to escape), and a marker that makes files ci."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from gitdiffs import commit_patch
from tables import each_case

from gatekeeper.catfile import shared_processes
from gatekeeper.classify import load_rules
from gatekeeper.classify.context import classify_in_context
from gatekeeper.classify.contextrules import read_context_rules
from gatekeeper.classify.markers import MarkerIndex
from gatekeeper.classify.patchcontext import PatchContext
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.diff import parse_patch
from gatekeeper.errors import RulesError
from gatekeeper.model import ClassifiedFile
from gatekeeper.revrange import resolve_range
from tests.gitrepo import GitRepo

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")

SHARED_STEP = "def call(Map config = [:]) {\n  node('linux') {\n    sh 'make'\n  }\n}\n"
CDK_STACK = ("import { Stack } from 'aws-cdk-lib';\nimport * as lambda from 'aws-cdk-lib/aws-lambda';\n"
             "export class ApiStack extends Stack {}\n")
HANDLER = "exports.handler = async (event) => ({ statusCode: 200, body: JSON.stringify(event) });\n"


def tree_files(repo: GitRepo) -> dict[str, ClassifiedFile]:
    with shared_processes(), TreeContext(resolve_range("main~1..main", repo.root), RULES) as context:
        files = classify_in_context(context.changes(), RULES, context)
    return {f.change.path: f for f in files}


def patch_files(repo: GitRepo, tmp: Path) -> dict[str, ClassifiedFile]:
    patch = tmp / "change.diff"
    patch.write_bytes(commit_patch(repo, "main~1", "main", "--binary", "-M"))
    changes = list(parse_patch(patch))
    files = classify_in_context(changes, RULES, PatchContext(patch, changes, RULES.context))
    return {f.change.path: f for f in files}


@each_case(("marker", "inside", "bucket"), [
    # documentation is never claimed, build files and placeholders are not configuration
    ("Chart.yaml", "README.md", "src"),
    ("Chart.yaml", "CHANGELOG.md", "src"),
    ("Chart.yaml", "templates/NOTES.txt", "iac"),
    ("kustomization.yml", "Makefile", "src"),
    ("ansible.cfg", "playbooks/.gitkeep", "src"),
    # Gatekeeper library entries: the Rego and CEL beside constraint.tmpl, not their tests
    ("constraint.tmpl", "src.rego", "iac"),
    ("constraint.tmpl", "src.cel", "iac"),
    ("constraint.tmpl", "lib_exempt_container.rego", "iac"),
    ("constraint.tmpl", "src_test.rego", "src"),
    # Chef: node attributes and roles beside solo.rb; everything of a cookbook
    ("solo.rb", "node.json", "iac"),
    ("solo.rb", "roles/web.json", "iac"),
    ("recipes/default.rb", "attributes/default.rb", "iac"),
    ("recipes/default.rb", "templates/default/nginx.conf.erb", "iac"),
    # a Jenkins shared library: src/ and resources/ beside vars/*.groovy are ci; its tests are not
    ("vars/buildPlugin.groovy", "src/io/jenkins/infra/InfraConfig.groovy", "ci"),
    ("vars/buildPlugin.groovy", "resources/settings.xml", "ci"),
    ("vars/buildPlugin.groovy", "resources/scripts/sign.sh", "ci"),
    ("vars/buildPlugin.groovy", "test/groovy/BuildPluginStepTests.groovy", "src"),
    # skaffold/helmfile/Tilt: manifests and values, not the application's own settings
    ("skaffold.yaml", "kubernetes-manifests/frontend.yaml", "iac"),
    ("skaffold.yaml", "src/main/resources/log4j2.xml", "src"),
    ("skaffold.yaml", "src/frontend/config.yaml", "src"),
    ("skaffold.yaml", "hack/nsswitch.conf", "src"),
    # Puppet: Hiera data and settings, not the control repository's scripts
    ("hiera.yaml", "data/common.yaml", "iac"),
    ("hiera.yaml", "scripts/config_version.rb", "src"),
    # programs: source files of the program, not its tests, web assets or compiler settings
    ("cdk.json", "lib/api-stack.ts", "iac"),
    ("cdk.json", "lib/api-stack.test.ts", "src"),
    ("cdk.json", "www/index.html", "src"),
    ("Pulumi.yaml", "tsconfig.json", "src"),
    ("Pulumi.yaml", "__main__.py", "iac"),
    ("Pulumi.yaml", "test_stack.py", "src"),
    # an Ansible role: files/ and templates/ whatever their type, not module and plugin code
    ("meta/main.yml", "files/Preferences.sublime-settings", "iac"),
    ("meta/main.yml", "files/logo.png", "iac"),
    ("meta/main.yml", "library/my_module.py", "src"),
    ("meta/main.yml", "filter_plugins/cpu.py", "src"),
    ("ansible.cfg", "files/terminal/Solarized.terminal", "iac"),
    # a playbook by its conventional name marks its project as ansible.cfg does (no ansible.cfg needed)
    ("playbook.yml", "www/index.py.j2", "iac"),
    ("site.yml", "group_settings/web.conf", "iac"),
    ("playbook.yml", "files/elk-example.crt", "iac"),
    ("playbook.yml", "library/my_module.py", "src"),
    ("site.yaml", "README.md", "src"),
    # a Terraform module: the templates it renders with templatefile(), nothing else
    ("main.tf", "templates/al2023_user_data.tpl", "iac"),
    ("versions.tf", "user-data/linux.tftpl", "iac"),
    ("main.tf", "scripts/bootstrap.sh", "src"),
    ("main.tf", "policy.json", "src"),
])
def test_each_claim_covers_what_it_says(git_repo: GitRepo, marker: str, inside: str, bucket: str) -> None:
    """At three depths: the marker's folder, one below the repository root, and two below."""
    for depth, root in enumerate(("", "infra-x/", "a/b/")):
        git_repo.write(f"{root}{marker}", SHARED_STEP if marker.endswith(".groovy") else "name: x\n")
        git_repo.write(f"{root}{inside}", f"value: {depth}\n")
    git_repo.commit("base")
    for root in ("", "infra-x/", "a/b/"):
        git_repo.write(f"{root}{inside}", "value: 9\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    for root in ("", "infra-x/", "a/b/"):
        got = files[f"{root}{inside}"]
        assert got.bucket == bucket, (root, got.rule, got.evidence)


def test_a_jenkins_library_marker_raises_iac_to_ci_and_needs_groovy_in_vars(git_repo: GitRepo) -> None:
    git_repo.write("vars/buildPlugin.groovy", SHARED_STEP)
    git_repo.write("resources/io/jenkins/infra/docker/bake.hcl", 'target "default" {}\n')
    git_repo.write("tools/vars/settings.txt", "packages: git\n")  # a vars/ folder without Groovy: no library
    git_repo.write("tools/src/helper.sh", "echo 1\n")
    git_repo.commit("base")
    git_repo.write("resources/io/jenkins/infra/docker/bake.hcl", 'target "default" { tags = ["x"] }\n')
    git_repo.write("tools/src/helper.sh", "echo 2\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    bake = files["resources/io/jenkins/infra/docker/bake.hcl"]
    assert (bake.bucket, bake.rule, bake.evidence) == ("ci", "ci.marker.jenkins-shared-library",
                                                       "vars/buildPlugin.groovy")
    assert files["tools/src/helper.sh"].bucket == "src"


def test_a_program_claim_stops_at_a_function_with_its_own_manifest(git_repo: GitRepo) -> None:
    git_repo.write("cdk.json", '{"app": "npx ts-node bin/app.ts"}\n')
    git_repo.write("package.json", '{"name": "api", "dependencies": {"aws-cdk-lib": "2.150.0"}}\n')
    git_repo.write("lib/api-stack.ts", CDK_STACK)
    git_repo.write("functions/orders/package.json", '{"name": "orders", "dependencies": {}}\n')
    git_repo.write("functions/orders/index.js", HANDLER)
    git_repo.write("functions/shared/util.js", "module.exports = {};\n")
    git_repo.commit("base")
    git_repo.write("lib/api-stack.ts", CDK_STACK + "// v2\n")
    git_repo.write("functions/orders/index.js", HANDLER + "// v2\n")
    git_repo.write("functions/shared/util.js", "module.exports = { v: 2 };\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["lib/api-stack.ts"].bucket == "iac"
    assert files["functions/orders/index.js"].bucket == "src"  # the function's own package, deployed as code
    assert files["functions/shared/util.js"].bucket == "iac"  # no manifest of its own: part of the program


def test_a_change_cannot_add_a_manifest_to_cut_its_program_out(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("cdk.json", '{"app": "npx ts-node bin/app.ts"}\n')
    git_repo.write("lib/api-stack.ts", CDK_STACK)
    git_repo.commit("base")
    git_repo.write("lib/package.json", '{"name": "not-really-a-function"}\n')
    git_repo.write("lib/api-stack.ts", CDK_STACK + "// opens port 22 to the world\n")
    git_repo.write("lib/new-function/package.json", '{"name": "new"}\n')
    git_repo.write("lib/new-function/index.js", HANDLER)
    git_repo.write("cdk.json", '{"app": "npx ts-node bin/app.ts", "context": {}}\n')  # so the patch shows it
    git_repo.commit("head")
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert files["lib/api-stack.ts"].bucket == "iac"  # existing program file: the stop must be on both sides
        assert files["lib/new-function/index.js"].bucket == "src"  # a new function arrives with its manifest


def test_patch_mode_never_cuts_an_existing_file_out_of_a_program(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("Pulumi.yaml", "name: web\nruntime: nodejs\n")
    git_repo.write("app/package.json", '{"name": "app"}\n')
    git_repo.write("app/server.js", "require('http').createServer().listen(8080);\n")
    git_repo.commit("base")
    git_repo.write("app/server.js", "require('http').createServer().listen(8081);\n")
    git_repo.write("Pulumi.yaml", "name: web\nruntime: nodejs\ndescription: the web tier\n")
    git_repo.commit("head")
    assert tree_files(git_repo)["app/server.js"].bucket == "src"
    # The patch does not show app/package.json: a patch cannot prove the folder is a separate application.
    assert patch_files(git_repo, tmp_path)["app/server.js"].bucket == "iac"


PY_HANDLER = "import json\n\n\ndef lambda_handler(event, context):\n    return {'body': json.dumps(event)}\n"
CF_FUNCTION = "function handler(event) {\n    var response = event.response;\n    return response;\n}\n"
FAKE_HANDLER_STACK = CDK_STACK + "export const handler = async () => 'not really';\n"


def test_function_code_inside_a_program_stays_src_with_proof_on_every_side(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("cdk.json", '{"app": "python3 app.py"}\n')
    git_repo.write("app.py", "import aws_cdk as cdk\napp = cdk.App()\n")
    git_repo.write("lambda/orders.py", PY_HANDLER)
    git_repo.write("lib/helpers.ts", CDK_STACK)  # a stack file that will pretend to be a handler
    git_repo.commit("base")
    git_repo.write("lambda/orders.py", PY_HANDLER + "# v2\n")
    git_repo.write("functions/viewer-response.js", CF_FUNCTION)
    git_repo.write("lib/helpers.ts", "export const handler = async () => 'now a function';\n")
    git_repo.write("lib/fake.ts", FAKE_HANDLER_STACK)
    git_repo.write("cdk.json", '{"app": "python3 app.py", "context": {}}\n')
    git_repo.commit("head")
    files = tree_files(git_repo)
    orders = files["lambda/orders.py"]
    assert (orders.bucket, orders.rule, orders.tier) == ("src", "src.content.function-handler", "content")
    assert "def lambda_handler(event, context):" in (orders.evidence or "")
    assert files["functions/viewer-response.js"].bucket == "src"
    assert files["lib/helpers.ts"].bucket == "iac"  # the base blob is a stack: no proof on that side
    assert files["lib/fake.ts"].bucket == "iac"  # imports the CDK: a program, whatever else it exports
    patched = patch_files(git_repo, tmp_path)
    assert patched["functions/viewer-response.js"].bucket == "src"  # added: the patch shows it whole
    assert patched["lambda/orders.py"].bucket == "iac"  # modified: a hunk is never proof


def test_shipped_templates_stay_src_whatever_their_content(git_repo: GitRepo) -> None:
    """Principle 2: a cookiecutter skeleton's template.yaml and Dockerfile are text the product emits."""
    skeleton = "python3.12/hello/{{cookiecutter.project_name}}"
    git_repo.write("README.md", "# templates\n")
    git_repo.commit("base")
    git_repo.write(f"{skeleton}/template.yaml", "AWSTemplateFormatVersion: '2010-09-09'\nResources: {}\n")
    git_repo.write(f"{skeleton}/app/Dockerfile", "FROM public.ecr.aws/lambda/python:3.12\n")
    git_repo.write("deploy/template.yaml", "AWSTemplateFormatVersion: '2010-09-09'\nResources: {}\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files[f"{skeleton}/template.yaml"].bucket == "src"
    assert files[f"{skeleton}/app/Dockerfile"].bucket == "src"
    assert files["deploy/template.yaml"].bucket == "iac"


@each_case(("marker", "message"), [
    ("bucket: src", "a marker's 'bucket' must be ci or iac"),
    ("claims: types", "'types' goes with 'claims: types'"),
    ("claims: config\n    types: [tpl]", "'types' goes with 'claims: types'"),
    ("claims: config\n    stop: package.json", "'stop' must be a list"),
    ("claims: config\n    whole: [files, 3]", "'whole' must be a list of strings"),
])
def test_marker_keys_are_validated(tmp_path: Path, marker: str, message: str) -> None:
    lines = marker if marker.startswith("claims") else f"claims: all\n    {marker}"
    (tmp_path / "classification-context.yaml").write_text(
        f"version: 1\nmarkers:\n  - id: x.marker\n    description: d\n    names: [x.cfg]\n    {lines}\n")
    with pytest.raises(RulesError, match=re.escape(message)):
        read_context_rules(tmp_path)



# -- the evidence a claim names does not depend on the order the paths come in -----------------------------------------


@pytest.mark.parametrize(("paths", "evidence"), [
    # a Puppet module: several manifests mark the module (gatepath22 saw the evidence change from run to run: the
    # trees' paths come as a set, whose order differs between processes)
    (["mod/manifests/zeta.pp", "mod/manifests/alpha.pp", "mod/manifests/init.pp", "mod/templates/site.conf.erb"],
     "mod/manifests/alpha.pp"),
    # a marker by extension: the first .tf file met marked the folder
    (["infra/zz.tf", "infra/aa.tf", "infra/main.tf", "infra/templates/user-data.tftpl"], "infra/aa.tf"),
], ids=["named-pattern", "by-extension"])
def test_the_claims_evidence_is_the_same_whatever_order_the_paths_come_in(paths: list[str], evidence: str) -> None:
    answers = set()
    for order in itertools.permutations(paths):
        index = MarkerIndex(order, RULES.context.markers, order, order)
        answers.add(tuple((path, hit.rule.id, hit.marker) if (hit := index.claim(path)) else (path,)
                          for path in paths))
    assert len(answers) == 1, answers
    assert answers.pop()[-1][2] == evidence  # the first marker path in byte order, whatever the order met
