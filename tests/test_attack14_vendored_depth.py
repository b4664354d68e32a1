"""Attack 14: the twenty-sixth and twenty-seventh sets' new path rules must not lower CI or infrastructure.

d650397 read `third_party/` as vendored code only at the root; the twenty-sixth set widened it to any depth (a Go
plugin's `box2d/third_party/`) and added web apps' `assets/vendors/`, `static/vendors/`, ... . The vendored rule
comes before the CI and IaC rules, so on the trial merge (5f409af) a nested one outranked them: a deployment's
`deploy/third_party/cert-manager/kustomization.yaml`, a service's `services/api/third_party/main.tf`, `Chart.yaml`,
`Dockerfile`, `Jenkinsfile`, `action.yml` went from ci/iac to deps (34 of 34 such variants lowered, by path and in a
real repository). Vendored code there stays deps; a file the CI and IaC rules name keeps their bucket.

GitLab Duo's review instructions and chat rules (`.gitlab/duo/`), ci on d650397, became `other` beside Copilot's
instructions, but unlike those carried no `guardrail` tag: an edit of what the review agent is told passed
`--enable guardrails` unseen.
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.ruleset import load_rules
from tests.conftest import REPO_ROOT
from tests.gitrepo import GIT_ENV, GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files

# The commit whose bundle the buckets below were read on (the trial merge's base).
BASE = "d65039725f88f63f041d9dcf2f383d6b2acfe280"
GIT = {**os.environ, **GIT_ENV}

FOLDERS = ["deploy/third_party", "services/api/third_party", "infra/third-party", "a/b/c/third_party",
           "web/assets/vendors", "app/static/vendors", "site/public/vendors", "x/resources/vendors"]
# file: (bucket on d650397 at any of FOLDERS)
NAMED = {
    "main.tf": "iac", "prod.tfvars": "iac", "terragrunt.hcl": "iac", "Chart.yaml": "iac", "values.yaml": "iac",
    "Dockerfile": "iac", "kustomization.yaml": "iac", "skaffold.yaml": "iac", "ansible.cfg": "iac",
    "playbook.yml": "iac", "k8s/deployment.yaml": "iac", "Jenkinsfile": "ci", "action.yml": "ci",
    "azure-pipelines.yml": "ci", "buildspec.yml": "ci", "cloudbuild.yaml": "ci", ".gitlab-ci.yml": "ci",
    ".pre-commit-config.yaml": "ci",
}
VARIANTS = [(f"{folder}/{name}", bucket) for folder in FOLDERS for name, bucket in NAMED.items()]


@each_case(("path", "bucket"), VARIANTS)
def test_a_nested_vendored_folder_never_lowers_ci_or_iac_by_path(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket


@each_case("path", [
    "plugins/physics/third_party/box2d/src/collision.c", "a/b/third-party/zlib/inflate.c",
    "web/assets/vendors/jquery/jquery.min.js", "app/static/vendors/bootstrap/css/bootstrap.css",
    "third_party/protobuf/src/message.cc", "vendor/github.com/x/y/z.go",
])
def test_vendored_code_stays_deps(path: str) -> None:
    assert RULES.match(path).rule == "deps.vendored" or RULES.match(path).rule == "deps.vendored-nested"
    assert RULES.match(path).bucket == "deps"


def test_nested_vendored_infrastructure_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# platform\n")
    git_repo.commit("base")
    texts = {
        "deploy/third_party/cert-manager/kustomization.yaml":
            "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - cert-manager.yaml\n",
        "services/api/third_party/main.tf": 'module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n'
                                            '  version = "5.8.1"\n}\n',
        "services/api/third_party/Dockerfile": "FROM golang:1.22-alpine\nRUN go build ./...\n",
        "plugins/physics/third_party/box2d/src/collision.c": "int b2_collide(void) { return 0; }\n",
        "web/assets/vendors/jquery/jquery.min.js": "/*! jQuery v3.7.1 */\n!function(e){}(window);\n",
    }
    want = {"deploy/third_party/cert-manager/kustomization.yaml": "iac", "services/api/third_party/main.tf": "iac",
            "services/api/third_party/Dockerfile": "iac", "plugins/physics/third_party/box2d/src/collision.c": "deps",
            "web/assets/vendors/jquery/jquery.min.js": "deps"}
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    assert {path: item.bucket for path, item in tree_files(git_repo).items() if path in want} == want
    assert {path: item.bucket for path, item in patch_files(git_repo, tmp_path).items() if path in want} == want


@each_case("path", [".gitlab/duo/mr-review-instructions.yaml", ".gitlab/duo/mr-review-instructions.yml",
                                  ".gitlab/duo/chat-rules.md", ".gitlab/duo/agent-config.yml",
                                  ".github/skills/release/SKILL.md"])
def test_agent_instructions_in_forge_folders_are_guardrails(path: str) -> None:
    """Copilot's skills (`.github/skills/`, `other` on d650397 too) had the same gap."""
    assert RULES.match(path).bucket in ("other", "ci")
    assert "guardrail" in {tag for hit in RULES.tag_hits(path) for tag in hit.rule.tags}


def test_the_base_bundle_agreed(tmp_path: Path) -> None:
    """The buckets above are d650397's own: its classification rules, read from this repository's history (a
    shallow clone without that commit skips)."""
    if subprocess.run(["git", "cat-file", "-e", f"{BASE}^{{commit}}"], cwd=REPO_ROOT, env=GIT, capture_output=True,
                      check=False).returncode != 0:
        pytest.skip(f"commit {BASE[:7]} is not in this clone's history (a shallow clone)")
    archive = subprocess.run(["git", "archive", "--format=tar", BASE, "policies"], cwd=REPO_ROOT, env=GIT,
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tmp_path, filter="data")
    rules = load_rules(tmp_path / "policies")
    assert rules.sources and all(Path(source).is_relative_to(tmp_path) for source in rules.sources)
    assert {path: rules.match(path).bucket for path, _ in VARIANTS if "third_party" in path
            and not path.startswith("a/b/c")} == {path: bucket for path, bucket in VARIANTS if "third_party" in path
                                                  and not path.startswith("a/b/c")}
