"""Red team 12, left undone 1: infrastructure in a YAML file named like a dependency manifest.

`infra/stack.yaml` is Haskell Stack's manifest by name, `environment.yml` conda's, `requirements.yml` Ansible
Galaxy's, `aqua.yaml` aqua's. A CloudFormation template or Kubernetes object kept under such a name was `deps`:
- from packet + patch, an edit whose hunks did not show `Resources:`/`apiVersion:` stayed `deps` with no
  `needs-context` tag, so `gate PACKET --patch` said allow (exit 0);
- with the commits, a flow-style or JSON form of the object stayed `deps` (the YAML reader ran for src/other only).
Now such a file is settled from a patch only when the patch shows its ecosystem's own top-level keys or all of the
file, and the content tier reads it as YAML in every form (iac over deps)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import two_commits
from incli import run_cli, tree_gate
from tables import each_case

_FILLER = "".join(f"  Queue{n}:\n    Type: AWS::SQS::Queue\n    Properties:\n      DelaySeconds: {n}\n"
                  for n in range(12))
CFN = f"AWSTemplateFormatVersion: '2010-09-09'\nResources:\n{_FILLER}  Fn:\n    Properties:\n      Timeout: 30\n"
_PODS = "".join(f"        - name: side{n}\n          image: example/side:{n}\n" for n in range(12))
K8S = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
       f"      containers:\n{_PODS}        - name: web\n          image: example/web:1.0\n")
# (path, base, head): an edit deep inside the object, whose hunk shows none of its top-level keys.
HIDDEN = [
    ("infra/stack.yaml", CFN, CFN.replace("Timeout: 30", "Timeout: 900")),
    ("deploy/environment.yml", K8S, K8S.replace("example/web:1.0", "attacker/web:1.0")),
    ("ops/requirements.yml", CFN, CFN.replace("Timeout: 30", "Timeout: 900")),
    ("aqua.yaml", K8S, K8S.replace("example/web:1.0", "attacker/web:1.0")),
]
STACK = "resolver: lts-22.6\npackages:\n  - .\nextra-deps:\n  - acme-1.2.0\n"
CONDA = ("name: app\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.11\n  - numpy=1.26\n"
         "  - pip:\n    - requests==2.31.0\n")
GALAXY = "collections:\n  - name: community.general\n    version: 8.1.0\n"
_PINS = "".join(f"- pkg{n}-1.{n}.0@sha256:{n:064x},{100 + n}\n" for n in range(12))
DEEP_STACK = f"resolver: lts-22.6\nextra-deps:\n{_PINS}- acme-1.2.0\n"
_CHARTS = "".join(f"  - name: chart{n}\n    version: 1.{n}.0\n    repository: https://charts.example.org\n"
                  for n in range(8))
DEEP_HELM = f"dependencies:\n{_CHARTS}  - name: last\n    version: ~2.0.1\n    condition: last.enabled\n"
_SPECS = "".join(f"  - lib{n}=1.{n}\n" for n in range(12))
DEEP_CONDA = f"name: app\nchannels:\n  - conda-forge\ndependencies:\n{_SPECS}  - numpy=1.26\n"
# ordinary bumps: the hunk shows the ecosystem's own keys, or only entries of its dependency list with a version
BUMPS = [
    ("stack.yaml", STACK, STACK.replace("lts-22.6", "lts-22.7")),
    ("environment.yml", CONDA, CONDA.replace("numpy=1.26", "numpy=1.27")),
    ("requirements.yml", GALAXY, GALAXY.replace("8.1.0", "8.2.0")),
    ("stack.yaml", DEEP_STACK, DEEP_STACK.replace("acme-1.2.0", "acme-1.3.0@sha256:" + "ab" * 32 + ",120")),
    ("charts/web/requirements.yaml", DEEP_HELM, DEEP_HELM.replace("~2.0.1", "~2.1.0")),
    ("environment.yaml", DEEP_CONDA, DEEP_CONDA.replace("numpy=1.26", "numpy >=1.27")),
]


def _patch_gate(tmp_path: Path, path: str, base: str | None, head: str,
                *options: str) -> tuple[int, dict[str, object], dict[str, object]]:
    before = {"README.md": "x\n"} | ({path: base} if base is not None else {})
    repo, first, second = two_commits(tmp_path / "repo", before, {path: head})
    patch, packet = tmp_path / "change.diff", tmp_path / "packet.json"
    patch.write_bytes(repo.git("diff", *options, first, second))
    done = run_cli(["packet", patch, "--out", packet, "--policy", POLICY_DIR])
    assert done.returncode == 0, done.stderr
    gated = run_cli(["gate", packet, "--patch", patch, "--policy", POLICY_DIR, "--format", "json"], text=True)
    classified = run_cli(["classify", patch, "--policy", POLICY_DIR, "--format", "json"], text=True)
    files = {f["path"]: f for f in json.loads(str(classified.stdout))["files"]}
    return gated.returncode, json.loads(str(gated.stdout)), files[path]


@each_case(("path", "base", "head"), HIDDEN, ids=[case[0] for case in HIDDEN])
def test_hidden_infrastructure_in_a_deps_named_yaml_needs_context(tmp_path: Path, path: str, base: str,
                                                                   head: str) -> None:
    code, decision, found = _patch_gate(tmp_path, path, base, head)
    assert found["bucket"] == "deps" and "needs-context" in found["tags"], found
    assert code == 3, decision


@each_case(("path", "base", "head"), BUMPS, ids=[f"{n}-{case[0]}" for n, case in enumerate(BUMPS)])
def test_an_ordinary_bump_stays_settled(tmp_path: Path, path: str, base: str, head: str) -> None:
    code, decision, found = _patch_gate(tmp_path, path, base, head)
    assert found["bucket"] == "deps" and "needs-context" not in found["tags"], found
    assert code == 0, decision


@each_case(("path", "base", "head"), HIDDEN, ids=[case[0] for case in HIDDEN])
def test_a_hunk_without_context_lines_is_not_proof(tmp_path: Path, path: str, base: str, head: str) -> None:
    """`git diff -U0` shows the changed line alone: neither the template's keys nor the ecosystem's."""
    code, decision, found = _patch_gate(tmp_path, path, base, head, "-U0")
    assert "needs-context" in found["tags"], found
    assert code == 3, decision


def test_list_entries_without_a_version_are_not_proof(tmp_path: Path) -> None:
    """RBAC verbs look like a list of package names: with no version among the lines shown, nothing is settled."""
    rbac = ("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: ops\nrules:\n"
            "  - apiGroups: ['']\n    resources: [pods]\n    verbs:\n")
    rbac += "".join(f"      - verb{n}\n" for n in range(9))
    code, decision, found = _patch_gate(tmp_path, "deploy/environment.yml", rbac,
                                        rbac.replace("      - verb4\n", "      - verb4\n      - impersonate\n"))
    assert "needs-context" in found["tags"], found
    assert code == 3, decision


def test_a_template_renamed_to_a_manifest_name_needs_context(tmp_path: Path) -> None:
    repo, first, _ = two_commits(tmp_path / "repo", {"app/template.yaml": CFN}, {})
    repo.move("app/template.yaml", "app/stack.yaml")
    second = repo.commit("move")
    patch = tmp_path / "change.diff"
    patch.write_bytes(repo.git("diff", "-M", first, second))
    classified = run_cli(["classify", patch, "--policy", POLICY_DIR, "--format", "json"], text=True)
    files = {f["path"]: f for f in json.loads(str(classified.stdout))["files"]}
    assert "needs-context" in files["app/stack.yaml"]["tags"], files


def test_a_new_file_is_judged_by_its_whole_content(tmp_path: Path) -> None:
    flow = '{"AWSTemplateFormatVersion": "2010-09-09", "Resources": {"B": {"Type": "AWS::S3::Bucket"}}}\n'
    code, decision, found = _patch_gate(tmp_path, "infra/stack.yaml", None, flow)
    assert found["bucket"] == "iac", found
    assert code == 3, decision


FLOW = [
    ("infra/stack.yaml", '{"AWSTemplateFormatVersion": "2010-09-09", "Resources": {"B": {"Type": "AWS::S3::Bucket"'
                         ', "Properties": {"BucketName": "%s"}}}}\n'),
    ("deploy/environment.yml", '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web"}, '
                               '"data": {"mode": "%s"}}\n'),
    ("roles/requirements.yml", "{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRoleBinding, "
                               "metadata: {name: %s}, roleRef: {kind: ClusterRole, name: cluster-admin}}\n"),
]


@pytest.mark.parametrize(("path", "text"), FLOW, ids=[case[0] for case in FLOW])
def test_flow_style_infrastructure_in_a_deps_named_yaml_is_iac_with_the_commits(tmp_path: Path, path: str,
                                                                                 text: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {path: text % "a", "README.md": "x\n"}, {path: text % "b"})
    code, decision = tree_gate(repo.root, base, head, POLICY_DIR)
    assert code == 3, decision
    assert any(path in reason.get("paths", ()) and reason["rule"] == "core.iac" for reason in decision["reasons"]), \
        decision["reasons"]
