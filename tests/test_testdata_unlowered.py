"""Issue 12 item 6: test-data context may lower `deps` to `src`, never `ci` or `iac`.

A Kubernetes object in `testdata/`, a CloudFormation template in `tests/fixtures/`, an ansible-test target's playbook, a
workflow or a Compose file kept as a test's data were `src` whatever they held (the test-data path rules decided before
any ci or iac rule, and no tier read their content): an edit of any of them was allowed by the default gate on 53a70ac
(every case below, exit 0). Now a ci or iac path rule below the test-data rules decides (tests/test_classify_paths.py),
and their content is read with tier 3's patterns, with the commits and from a patch: the same file anywhere else is
ci or iac, so it is here. What test data still lowers: dependency manifests and lock files (a package.json under test
assets, a Cargo.toml in an expected output), and data that shows neither.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import reviewed_paths, run_cli, tree_classify, tree_gate
from tables import each_case

DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: {n}\n"
BINDING = ("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: all{n}\nroleRef:\n"
           "  kind: ClusterRole\n  name: cluster-admin\n")
STACK = 'AWSTemplateFormatVersion: "2010-09-09"\nResources:\n  Bucket{n}:\n    Type: AWS::S3::Bucket\n'
STACK_JSON = ('{{\n  "AWSTemplateFormatVersion": "2010-09-09",\n'
              '  "Resources": {{"B{n}": {{"Type": "AWS::S3::Bucket"}}}}\n}}\n')
WORKFLOW = "on: push\njobs:\n  build{n}:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n"
PLAY = "- hosts: all\n  tasks:\n    - name: step {n}\n      ansible.builtin.shell: make\n"
COMPOSE = "services:\n  web{n}:\n    image: nginx:1.{n}\n    privileged: true\n"
FROM = "FROM alpine:3.{n}\nRUN apk add curl\n"

# (a test-data path whatever rule names it, the content, the bucket)
CASES = [
    ("pkg/testdata/deployment.yaml", DEPLOYMENT, "iac"),
    ("tests/fixtures/rbac.yml", BINDING, "iac"),
    ("internal/render/testdata/golden/out.json", '{{"apiVersion": "v1", "kind": "Secret", "n": {n}}}\n', "iac"),
    ("src/test/resources/stack.yaml", STACK, "iac"),
    ("test/fixtures/template.json", STACK_JSON, "iac"),
    ("__fixtures__/pipeline.yml", WORKFLOW, "ci"),
    ("test/e2e/cases/setup/play.yml", PLAY, "iac"),
    ("test_data/services.yaml", COMPOSE, "iac"),
    ("testdata/images/base", FROM, "iac"),
]
IDS = [path for path, _, _ in CASES]


def _repo(tmp_path: Path) -> tuple[Path, str, str]:
    base = {path: text.format(n=1) for path, text, _ in CASES} | {"README.md": "x\n"}
    head = {path: text.format(n=2) for path, text, _ in CASES}
    repo, first, last = two_commits(tmp_path / "r", base, head)
    return repo.root, first, last


def test_test_data_showing_ci_or_infrastructure_is_that_with_the_commits(tmp_path: Path) -> None:
    root, first, last = _repo(tmp_path)
    found = tree_classify(root, first, last)
    assert {path: found[path]["bucket"] for path in IDS} == {path: bucket for path, _, bucket in CASES}
    assert all(found[path]["tier"] == "content" and "test data never lowers" in found[path]["evidence"] for path in IDS)


@each_case(("path", "text", "bucket"), CASES, ids=IDS)
def test_the_default_gate_reviews_an_edit_of_each(tmp_path: Path, path: str, text: str, bucket: str) -> None:
    repo, base, head = two_commits(tmp_path / "r", {path: text.format(n=1)}, {path: text.format(n=2)})
    code, decision = tree_gate(repo.root, base, head)
    assert (code, decision["outcome"]) == (3, "review"), path  # allowed (exit 0) on 53a70ac
    assert reviewed_paths(decision, f"core.{bucket}") == {path}


def test_from_a_patch_what_it_shows_decides(tmp_path: Path) -> None:
    """New files show their whole content: the same buckets from the patch alone."""
    repo, _, _ = two_commits(tmp_path / "r", {"README.md": "x\n"}, {})
    for path, text, _ in CASES:
        repo.write(path, text.format(n=2))
    patch = repo.save_patch(tmp_path / "change.patch")
    done = run_cli(["classify", str(patch), "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    found = {f["path"]: f["bucket"] for f in json.loads(str(done.stdout))["files"]}
    assert found == {path: bucket for path, _, bucket in CASES}


LOWERED = {
    "test_assets/app/package.json": '{"name": "app", "dependencies": {"left-pad": "1.3.0"}}\n',  # deps lowered
    "testdata/expected/Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
    "tests/fixtures/config.yaml": "retries: 3\nendpoints:\n  - name: kind\n    url: http://localhost\n",  # data
    "pkg/testdata/values.json": '{"kind": "fruit", "apiVersion": 2}\n',  # keys, not a Kubernetes object's values
    "test/fixtures/notes.md": "apiVersion: v1\nkind: Pod\n",  # a document: not a type tier 3 reads
}


def test_what_test_data_still_lowers(tmp_path: Path) -> None:
    repo, first, last = two_commits(tmp_path / "r", {"README.md": "x\n"}, LOWERED)
    found = tree_classify(repo.root, first, last)
    assert {path: found[path]["bucket"] for path in LOWERED} == dict.fromkeys(LOWERED, "src")
    assert all(found[path]["rule"].startswith("testdata.") for path in LOWERED)


@pytest.mark.parametrize("path", ["pkg/testdata/deployment.yaml", "tests/fixtures/rbac.yml"])
def test_a_manifest_moved_into_test_data_stays_iac(tmp_path: Path, path: str) -> None:
    repo, first, _ = two_commits(tmp_path / "r", {"deploy/web.yaml": DEPLOYMENT.format(n=1)}, {})
    repo.move("deploy/web.yaml", path)
    found = tree_classify(repo.root, first, repo.commit("move"))
    assert found[path]["bucket"] == "iac"
