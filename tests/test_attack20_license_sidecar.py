"""Red team 20: a `*.license` file holding infrastructure was `other` (other.reuse-sidecars, label round 33).

The rule lowers every `*.license` from iac.folders (deploy/, k8s/, roles/...) to other, and the content tier read no
file of that type, so a Kubernetes Deployment, a CloudFormation stack or a GitLab pipeline written as
`deploy/app.yaml.license` or `k8s/web.license` was `other` and the default gate allowed it. kustomize loads whatever a
`resources:` entry names and `kubectl apply -f` takes any file named on the command line, so the name is no
guarantee. Now the content tier reads a sidecar as the type before its suffix (as `hosts.example`): a real REUSE
sidecar (SPDX lines) stays other.reuse-sidecars, infrastructure under that name is raised by content.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_classify, tree_gate

DEPLOYMENT = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
              "      containers:\n        - name: web\n          image: registry.example.net/web:1.4.2\n")
STACK = ('{\n  "AWSTemplateFormatVersion": "2010-09-09",\n  "Resources": {\n    "Role": {\n'
         '      "Type": "AWS::IAM::Role",\n      "Properties": {}\n    }\n  }\n}\n')
PIPELINE = "stages:\n  - deploy\n\ndeploy:\n  stage: deploy\n  script:\n    - ./deploy.sh production\n"
SIDECAR = "SPDX-FileCopyrightText: 2024 The Example Authors\n\nSPDX-License-Identifier: Apache-2.0\n"


@each_case(("path", "body"), [
    ("deploy/app.yaml.license", DEPLOYMENT),
    ("k8s/web.license", DEPLOYMENT),
    ("manifests/base/web.yml.license", DEPLOYMENT),
    ("infra/stack.json.license", STACK),
    ("ci/deploy.yml.license", PIPELINE),
])
def test_infrastructure_under_a_sidecar_name_is_not_other(tmp_path: Path, path: str, body: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {"README.md": "app\n"}, {path: body})
    entry = tree_classify(repo.root, base, head)[path]
    assert entry["bucket"] in ("iac", "ci"), entry
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3 and path in reviewed_paths(decision, f"core.{entry['bucket']}")


@pytest.mark.parametrize("path", ["deploy/app.yaml.license", "k8s/web.license", "group_vars/all.license"])
def test_a_real_sidecar_stays_other(tmp_path: Path, path: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {"README.md": "app\n"}, {path: SIDECAR})
    entry = tree_classify(repo.root, base, head)[path]
    assert (entry["bucket"], entry["rule"]) == ("other", "other.reuse-sidecars")
