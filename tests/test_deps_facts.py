"""Per-file content facts: base images, workflow actions and pinning, permissions and triggers, Kubernetes kinds."""

from __future__ import annotations

from gatekeeper.deps.facts import MAX_ITEMS, facts_for
from gatekeeper.model import FileChange

SHA = "b4ffde65f46336ab88eb53be808477a3936bae11"


def _change(path: str, status: str = "modified") -> FileChange:
    return FileChange(path=path, old_path=None, status=status)  # type: ignore[arg-type]


def test_dockerfile_base_image_swap() -> None:
    facts = facts_for(_change("Dockerfile"), b"FROM python:3.12-slim\n", b"FROM 127.0.0.1:9/python:3.12-slim\n")
    assert facts is not None and facts.to_dict() == {
        "kind": "dockerfile",
        "images_added": [{"name": "127.0.0.1:9/python", "tag": "3.12-slim", "digest": ""}],
        "images_removed": [{"name": "python", "tag": "3.12-slim", "digest": ""}],
    }


def test_new_dockerfile_has_no_removals() -> None:
    facts = facts_for(_change("svc/Dockerfile.prod", "added"), None, b"FROM alpine@sha256:" + b"a" * 64 + b"\n")
    assert facts is not None and facts.images_removed == () and facts.images_added[0]["digest"].startswith("sha256:")


BASE_WF = f"""name: ci
on:
  push:
    branches: [main]
permissions:
  contents: read
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@{SHA}
""".encode()

HEAD_WF = b"""name: ci
on:
  push:
    branches: [main]
  pull_request_target:
permissions:
  contents: read
jobs:
  test:
    runs-on: ubuntu-latest
    permissions:
      id-token: write
      contents: write
    steps:
      - uses: actions/checkout@main
      - uses: some/action@v1
"""


def test_workflow_facts() -> None:
    facts = facts_for(_change(".github/workflows/ci.yml"), BASE_WF, HEAD_WF)
    assert facts is not None
    assert facts.to_dict() == {
        "kind": "workflow",
        "actions_added": [{"name": "actions/checkout", "ref": "main", "pinned": False},
                          {"name": "some/action", "ref": "v1", "pinned": False}],
        "actions_removed": [{"name": "actions/checkout", "ref": SHA, "pinned": True}],
        "unpinned_actions": 2,
        "triggers_added": ["pull_request_target"],
        "risky_triggers_added": ["pull_request_target"],
        "permissions_added": ["contents:write", "id-token:write"],
    }


def test_workflow_write_all_and_string_trigger() -> None:
    facts = facts_for(_change(".github/workflows/x.yaml", "added"), None,
                      b"on: workflow_run\npermissions: write-all\njobs: {}\n")
    assert facts is not None and facts.permissions_added == ("write-all",)
    assert facts.risky_triggers_added == ("workflow_run",)


def test_workflow_that_does_not_parse_is_an_error_fact() -> None:
    facts = facts_for(_change(".github/workflows/x.yml"), BASE_WF, b"on: [push\n")
    assert facts is not None and facts.kind == "workflow" and "not valid YAML" in facts.errors[0]


def test_kubernetes_kinds() -> None:
    base = b"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n"
    head = base + b"---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: b}\n"
    facts = facts_for(_change("deploy/app.yaml"), base, head)
    assert facts is not None and facts.kinds_added == ("rbac.authorization.k8s.io/v1/ClusterRoleBinding",)
    assert facts.kinds == ("apps/v1/Deployment", "rbac.authorization.k8s.io/v1/ClusterRoleBinding")


def test_no_facts_for_other_files() -> None:
    assert facts_for(_change("src/a.py"), b"x", b"y") is None
    assert facts_for(_change("config.yaml"), b"a: 1\n", b"a: 2\n") is None


def test_facts_are_capped() -> None:
    head = b"jobs:\n  a:\n    steps:\n" + b"".join(b"      - uses: o/a%d@v1\n" % i for i in range(500))
    facts = facts_for(_change(".github/workflows/big.yml", "added"), None, head)
    assert facts is not None and len(facts.actions_added) == MAX_ITEMS and facts.unpinned_actions == 500


def test_new_package_index_urls() -> None:
    facts = facts_for(_change("requirements.txt"), b"requests==2.31.0\n",
                      b"--extra-index-url https://127.0.0.1:9/simple\nrequests==2.31.0\n# https://docs.example\n")
    assert facts is not None and facts.registries_added == ("https://127.0.0.1:9/simple",)
    npmrc = facts_for(_change(".npmrc", "added"), None, b"@acme:registry=https://npm.acme.example/\n")
    assert npmrc is not None and npmrc.to_dict() == {"kind": "registries",
                                                     "registries_added": ["https://npm.acme.example/"]}
    pyproject = b'[project]\nname = "x"\n[project.urls]\nHomepage = "https://x.example"\n'
    moved = pyproject + b'[[tool.uv.index]]\nname = "corp"\nurl = "https://pypi.corp.example/simple"\n'
    facts = facts_for(_change("pyproject.toml"), pyproject, moved)
    assert facts is not None and facts.registries_added == ("https://pypi.corp.example/simple",)
    assert facts_for(_change("pyproject.toml"), pyproject, pyproject + b"# x\n") is None
