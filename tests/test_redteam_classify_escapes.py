"""Red team on the context tiers' newest mechanisms (issue 12): stop files, the function-handler content rule,
test-data folders. Each attack is a change an agent could make that edits or adds real infrastructure; the gate
must not let it through as src or other. Real repositories, classified from their git objects (`--tree`) and
from the patch alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitdiffs import commit_patch
from tables import each_case

from gatekeeper.catfile import shared_processes
from gatekeeper.classify import load_rules
from gatekeeper.classify.context import classify_in_context
from gatekeeper.classify.patchcontext import PatchContext
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.diff import parse_patch
from gatekeeper.revrange import resolve_range
from tests.gitrepo import GitRepo

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")
SENSITIVE = ("ci", "iac")

CDK_JSON = '{"app": "npx ts-node bin/app.ts"}\n'
STACK_BODY = (
    "export class DbStack extends cdk.Stack {\n"
    "  constructor(scope: any, id: string) {\n"
    "    super(scope, id);\n"
    "    new cdk.aws_iam.Role(this, 'Admin', {assumedBy: new cdk.aws_iam.AccountRootPrincipal()});\n"
    "  }\n"
    "}\n"
)
PLAIN_STACK = "import * as cdk from 'aws-cdk-lib';\n" + STACK_BODY
HANDLER = "export const handler = async (event: any) => ({statusCode: 200});\n"
PY_HANDLER = "def handler(event, context):\n    return {'statusCode': 200}\n"
PY_STACK = (
    "class DbStack(cdk.Stack):\n"
    "    def __init__(self, scope, id):\n"
    "        super().__init__(scope, id)\n"
    "        cdk.aws_iam.Role(self, 'Admin', assumed_by=cdk.aws_iam.AccountRootPrincipal())\n"
)

# A CDK stack dressed as a Lambda handler: the IaC library is loaded so that no literal import names it.
DISGUISED = {
    "computed-require.ts": "const cdk = require('aws-' + 'cdk-lib');\n" + HANDLER + STACK_BODY,
    "joined-dynamic-import.ts": "const cdk: any = await import(['aws', 'cdk', 'lib'].join('-'));\n"
                                + HANDLER + STACK_BODY,
    "template-literal-require.js": "const lib = 'cdk-lib';\nconst cdk = require(`aws-${lib}`);\n"
                                   "exports.handler = async (event) => ({});\n" + STACK_BODY,
    "local-reexport.ts": "import * as cdk from './cdk';\n" + HANDLER + STACK_BODY,
    "local-reexport-require.js": "const cdk = require('./cdk');\nexports.handler = async (event) => ({});\n"
                                 + STACK_BODY,
    "importlib.py": "import importlib\ncdk = importlib.import_module('aws_' + 'cdk')\n" + PY_HANDLER + PY_STACK,
    "dunder-import.py": "cdk = __import__('aws' + '_cdk')\n" + PY_HANDLER + PY_STACK,
    "local-module.py": "from . import cdklib as cdk\n" + PY_HANDLER + PY_STACK,
    "crlf-bom.ts": ("\ufeffconst cdk = require('aws-' + 'cdk-lib');\n" + HANDLER + STACK_BODY).replace("\n", "\r\n"),
    "import-after-window.ts": HANDLER + "const PAD = [\n" + "  'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',\n" * 220
                              + "];\nimport * as cdk from 'aws-cdk-lib';\n" + STACK_BODY,
    "require-after-window.js": "exports.handler = async (event) => ({});\n" + "// padding line of the file\n" * 400
                               + "const cdk = require('aws-cdk-lib');\n" + STACK_BODY,
}
# Pulumi-shaped programs (resources built with a name, no `this`/`self` scope) whose library is loaded through an
# alias of the loader, so that neither an import nor a construct scope shows.
PULUMI_BODY = "new aws.s3.Bucket('data', {acl: 'public-read'});\n"
PY_PULUMI_BODY = "aws.s3.Bucket('data', acl='public-read')\n"
DISGUISED |= {
    "aliased-require.js": "const r = require;\nconst aws = r('@pul' + 'umi/aws');\n"
                          "exports.handler = async (event) => ({});\n" + PULUMI_BODY,
    "require-call.js": "const aws = require.call(null, '@pul' + 'umi/aws');\n"
                       "exports.handler = async (event) => ({});\n" + PULUMI_BODY,
    "create-require.mjs": "import { createRequire } from 'module';\nconst load = createRequire(import.meta.url);\n"
                          "const aws = load('@pul' + 'umi/aws');\nexport const handler = async (event) => ({});\n"
                          + PULUMI_BODY,
    "builtins-import.py": "import builtins\naws = getattr(builtins, '__imp' + 'ort__')('pulumi_' + 'aws')\n"
                          + PY_HANDLER + PY_PULUMI_BODY,
    "exec.py": "exec('import pulumi_' + 'aws as aws')\n" + PY_HANDLER + PY_PULUMI_BODY,
    "new-function.js": "const load = new Function('m', 'return req' + 'uire(m)');\n"
                       "const aws = load('@pul' + 'umi/aws');\n"
                       "exports.handler = async (event) => ({});\n" + PULUMI_BODY,
}
# The names that make a folder a separate application below a CDK/Pulumi root (classification-context.yaml).
STOPS = ["package.json", "requirements.txt", "pyproject.toml", "Pipfile", "go.mod", "pom.xml", "build.gradle",
         "build.gradle.kts", "Gemfile", "Cargo.toml", "composer.json", "Dockerfile", "Containerfile"]


def _project(repo: GitRepo) -> None:
    repo.write("billing/cdk.json", CDK_JSON)
    repo.write("billing/package.json", '{"dependencies": {"aws-cdk-lib": "2.150.0"}}\n')
    repo.write("billing/bin/app.ts", "import * as cdk from 'aws-cdk-lib';\nnew cdk.App();\n")
    repo.write("billing/lib/cdk.ts", "export * from 'aws-cdk-lib';\n")
    repo.write("billing/lib/cdklib.py", "from aws_cdk import *\n")
    repo.write("billing/lambda/orders/package.json", '{"name": "orders"}\n')
    repo.write("billing/lambda/orders/index.ts", HANDLER)


def _tree(repo: GitRepo) -> dict[str, tuple[str, str]]:
    with shared_processes(), TreeContext(resolve_range("main~1..main", repo.root), RULES) as context:
        return {f.change.path: (f.bucket, f.rule) for f in classify_in_context(context.changes(), RULES, context)}


def _patch(repo: GitRepo, tmp_path: Path) -> dict[str, tuple[str, str, tuple[str, ...]]]:
    patch = tmp_path / "change.patch"
    patch.write_bytes(commit_patch(repo, "main~1", "main", "--binary", "-M"))
    changes = list(parse_patch(patch))
    context = PatchContext(patch, changes, RULES.context)
    try:
        return {f.change.path: (f.bucket, f.rule, f.tags)
                for f in classify_in_context(changes, RULES, context)}
    finally:
        context.close()


def _reviewed(found: tuple[str, str, tuple[str, ...]]) -> bool:
    return found[0] in SENSITIVE or "needs-context" in found[2]


@each_case("name", sorted(DISGUISED))
def test_a_stack_dressed_as_a_handler_stays_iac(git_repo: GitRepo, name: str) -> None:
    _project(git_repo)
    git_repo.commit("base")
    path = f"billing/lib/{name}"
    git_repo.write(path, DISGUISED[name])
    git_repo.commit("head")
    assert _tree(git_repo)[path][0] == "iac"


@each_case("stop", STOPS)
def test_a_stop_file_added_beside_a_new_stack_does_not_cut_it_out(git_repo: GitRepo, tmp_path: Path,
                                                                    stop: str) -> None:
    _project(git_repo)
    git_repo.commit("base")
    git_repo.write(f"billing/lib/db/{stop}", "x\n")
    git_repo.write("billing/lib/db/db-stack.ts", PLAIN_STACK)
    git_repo.write("billing/cdk.json", CDK_JSON.replace("}", ', "context": {}}'))  # the patch names the marker too
    git_repo.commit("head")
    assert _tree(git_repo)["billing/lib/db/db-stack.ts"][0] == "iac"
    assert _reviewed(_patch(git_repo, tmp_path)["billing/lib/db/db-stack.ts"])


@each_case("name", ["plain.ts", *sorted(DISGUISED)])
def test_a_stack_added_inside_a_function_folder_stays_iac(git_repo: GitRepo, name: str) -> None:
    """The function's own package.json is on both sides, so the stop is real; the file is still a stack."""
    _project(git_repo)
    git_repo.commit("base")
    path = f"billing/lambda/orders/{name}"
    git_repo.write(path, PLAIN_STACK if name == "plain.ts" else DISGUISED[name])
    git_repo.commit("head")
    assert _tree(git_repo)[path][0] == "iac"


@each_case("name", sorted(DISGUISED))
def test_a_stack_added_with_its_own_stop_file_and_disguised_import_is_reviewed_in_patch_mode(
        git_repo: GitRepo, tmp_path: Path, name: str) -> None:
    _project(git_repo)
    git_repo.commit("base")
    path = f"billing/lib/db/{name}"
    git_repo.write("billing/lib/db/package.json", "{}\n")
    git_repo.write(path, DISGUISED[name])
    git_repo.write("billing/cdk.json", CDK_JSON.replace("}", ', "context": {}}'))
    git_repo.commit("head")
    assert _reviewed(_patch(git_repo, tmp_path)[path])


MANIFEST = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n"
            "  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n")
TEST_DATA = ["testdata/deploy.yaml", "tests/fixtures/deploy.yaml", "src/__fixtures__/deploy.yaml",
             "test/fixtures/expected/deploy.yaml", "spec/fixtures/k8s/deploy.yaml"]


@each_case("target", TEST_DATA)
def test_moving_a_manifest_into_test_data_is_still_an_infrastructure_change(
        git_repo: GitRepo, tmp_path: Path, target: str) -> None:
    """The deployment leaves the folder the cluster is applied from: a reviewer calls that an iac change."""
    git_repo.write("web/web.yaml", MANIFEST)
    git_repo.write("charts/web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 1.0.0\n")
    git_repo.write("charts/web/templates/svc.yaml", "kind: Service\n{{ .Values.x }}\n")
    git_repo.commit("base")
    git_repo.move("web/web.yaml", target)
    git_repo.move("charts/web/templates/svc.yaml", target.replace("deploy.yaml", "svc.yaml"))
    git_repo.commit("head")
    found = _tree(git_repo)
    assert found[target][0] == "iac"
    assert found[target.replace("deploy.yaml", "svc.yaml")][0] == "iac"
    patched = _patch(git_repo, tmp_path)
    assert _reviewed(patched[target])


@each_case("name", ["plain.ts", *sorted(DISGUISED)])
def test_a_function_turned_into_a_stack_in_place_stays_iac(git_repo: GitRepo, tmp_path: Path, name: str) -> None:
    """The function's folder keeps its package.json on both sides; its index file becomes a stack. (A patch
    alone that names no marker cannot tell a CDK project's function from any other source file whose import
    is hidden: that is what --tree is for; here the patch also touches cdk.json.)"""
    _project(git_repo)
    git_repo.commit("base")
    git_repo.write("billing/lambda/orders/index.ts", PLAIN_STACK if name == "plain.ts" else DISGUISED[name])
    git_repo.write("billing/cdk.json", CDK_JSON.replace("}", ', "context": {}}'))
    git_repo.commit("head")
    assert _tree(git_repo)["billing/lambda/orders/index.ts"][0] == "iac"
    assert _reviewed(_patch(git_repo, tmp_path)["billing/lambda/orders/index.ts"])


def test_a_symlink_past_a_stop_file_is_not_read_as_application_code(git_repo: GitRepo) -> None:
    _project(git_repo)
    git_repo.commit("base")
    git_repo.write("docs/notes.ts", PLAIN_STACK)
    git_repo.symlink("billing/lambda/orders/stack.ts", "../../../docs/notes.ts")
    git_repo.commit("head")
    assert _tree(git_repo)["billing/lambda/orders/stack.ts"][0] == "iac"


@pytest.mark.parametrize("marker", ["billing/cdk.json", "billing/lambda/orders/package.json"])
def test_removing_the_marker_or_the_stop_file_in_the_same_change_does_not_lower(git_repo: GitRepo, marker: str) -> None:
    _project(git_repo)
    git_repo.commit("base")
    (git_repo.root / marker).unlink()
    git_repo.write("billing/lib/db-stack.ts", PLAIN_STACK)
    git_repo.write("billing/lambda/orders/index.ts", DISGUISED["computed-require.ts"])
    git_repo.commit("head")
    found = _tree(git_repo)
    assert found["billing/lib/db-stack.ts"][0] == "iac"
    assert found["billing/lambda/orders/index.ts"][0] == "iac"


@each_case("suffix", ["example", "sample", "dist"])
def test_a_manifest_renamed_to_or_added_as_a_copy_stays_iac(git_repo: GitRepo, tmp_path: Path, suffix: str) -> None:
    git_repo.write("web/web.yaml", MANIFEST)
    git_repo.write(".github/workflows/ci.yml", "on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps: []\n")
    git_repo.commit("base")
    git_repo.move("web/web.yaml", f"web/web.yaml.{suffix}")
    git_repo.move(".github/workflows/ci.yml", f".github/workflows/ci.yml.{suffix}")
    git_repo.write(f"ops/hosts.{suffix}", "[web]\nweb1.example.com ansible_user=deploy\n")
    git_repo.commit("head")
    tree, patched = _tree(git_repo), _patch(git_repo, tmp_path)
    assert tree[f"web/web.yaml.{suffix}"][0] == "iac"
    assert _reviewed(patched[f"web/web.yaml.{suffix}"])  # a pure rename shows no content: needs-context
    assert tree[f".github/workflows/ci.yml.{suffix}"][0] == patched[f".github/workflows/ci.yml.{suffix}"][0] == "ci"
    assert tree[f"ops/hosts.{suffix}"][0] == patched[f"ops/hosts.{suffix}"][0] == "iac"


def test_a_jenkins_library_step_stays_ci_when_its_vars_folder_goes(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("vars/deploy.groovy", "def call(Map args) { sh 'kubectl apply -f k8s/' }\n")
    git_repo.write("src/org/acme/Deploy.groovy", "package org.acme\nclass Deploy { def run() {} }\n")
    git_repo.write("resources/org/acme/pod.yaml", "a: 1\n")
    git_repo.commit("base")
    git_repo.move("vars/deploy.groovy", "vars/deploy.groovy.txt")
    git_repo.write("src/org/acme/Deploy.groovy", "package org.acme\nclass Deploy { def run() { 'rm -rf /' } }\n")
    git_repo.write("resources/org/acme/pod.yaml", "a: 2\n")
    git_repo.commit("head")
    found = _tree(git_repo)
    assert found["vars/deploy.groovy.txt"][0] == "ci"
    assert found["src/org/acme/Deploy.groovy"][0] == "ci"
    assert found["resources/org/acme/pod.yaml"][0] == "ci"


HONEST = {
    "index.ts": "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { table } from './db';\n"
                "const mod = await import('./lazy.js');\n" + HANDLER,
    "app.js": "const util = require('./util');\nconst re = /x/;\nre.exec('x');\n"
              "exports.handler = async (event) => util.ok(event);\n",
    "main.py": "import json\nfrom .util import respond\n\n\ndef lambda_handler(event, context):\n"
               "    return respond(json.dumps(event))\n",
}


@each_case("name", sorted(HONEST))
def test_real_function_code_stays_src(git_repo: GitRepo, name: str) -> None:
    """The fixes must not raise what they were built for: a function's own code, beside its manifest or not."""
    _project(git_repo)
    git_repo.commit("base")
    git_repo.write(f"billing/lambda/orders/{name}", HONEST[name])
    git_repo.write(f"billing/lib/handlers/{name}", HONEST[name])
    git_repo.write("billing/lambda/payments/package.json", '{"name": "payments"}\n')
    git_repo.write(f"billing/lambda/payments/{name}", HONEST[name])
    git_repo.commit("head")
    found = _tree(git_repo)
    assert found[f"billing/lambda/orders/{name}"][0] == "src"
    assert found[f"billing/lib/handlers/{name}"] == ("src", "src.content.function-handler")
    assert found[f"billing/lambda/payments/{name}"][0] == "src"
