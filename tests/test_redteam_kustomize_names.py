"""Red team: a manifest named anything, in a kustomization's folder.

kustomize reads every file its kustomization lists (`resources: [deploy.k8s]`, `patches: - path: fix.patch`),
whatever its name, from its folder and below (its load restrictor keeps files within the root). The kustomize
marker claimed configuration types only (`.yaml`, `.json`, ...), and the content tier read candidates by their
extension, so a Deployment in `deploy.k8s` that a reviewed kustomization already lists came out `src` when the
change rewrote it, and `gate --tree` said allow. A file below a kustomization is now read for its content whatever
its extension (source code and documents aside).
"""

from __future__ import annotations

import pytest
from gitrepo import GitRepo
from tables import each_case
from test_classify_context import tree_files

from gatekeeper.cli import main

NAMES = ["deploy.k8s", "deploy.manifest", "deploy.yaml.bak", "deploy.yaml~", "deploy.kube", "deploy.out", "d.YAML1",
         "overlays/prod/patch.k8s", "base/web.resource"]
DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: {n}\n"


def _repo(repo: GitRepo, marker: str = "kustomization.yaml") -> None:
    repo.write("README.md", "x\n")
    repo.write(f"app/web/{marker}", "resources:\n" + "".join(f"- {name}\n" for name in NAMES))
    for name in NAMES:
        repo.write(f"app/web/{name}", DEPLOYMENT.format(n=1))
    repo.write("app/web/tool.py", 'print({"apiVersion": "apps/v1", "kind": "Deployment"})\n')
    repo.write("app/web/NOTES.md", "```yaml\napiVersion: apps/v1\nkind: Deployment\n```\n")
    repo.commit("base")


@each_case("marker", ["kustomization.yaml", "kustomization.yml", "Kustomization"])
def test_a_listed_manifest_of_any_name_is_iac(git_repo: GitRepo, marker: str) -> None:
    _repo(git_repo, marker)
    for name in NAMES:
        git_repo.write(f"app/web/{name}", DEPLOYMENT.format(n=5))
    git_repo.write("app/web/tool.py", 'print({"apiVersion": "apps/v1", "kind": "Deployment", "n": 2})\n')
    git_repo.write("app/web/NOTES.md", "```yaml\napiVersion: apps/v1\nkind: Deployment\nx: 1\n```\n")
    git_repo.commit("head")
    found = tree_files(git_repo)
    assert {name: found[f"app/web/{name}"].bucket for name in NAMES} == dict.fromkeys(NAMES, "iac")
    # Source code and documents keep their path's bucket (a program printing a manifest is not one).
    assert (found["app/web/tool.py"].bucket, found["app/web/NOTES.md"].bucket) == ("src", "src")


def test_outside_a_kustomization_an_unknown_type_is_not_read(git_repo: GitRepo) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("app/deploy.k8s", DEPLOYMENT.format(n=1))
    git_repo.commit("head")
    assert tree_files(git_repo)["app/deploy.k8s"].bucket == "src"


def test_the_gate_asks_for_review(git_repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    _repo(git_repo)
    git_repo.git("checkout", "-q", "-b", "pr")
    git_repo.write("app/web/deploy.k8s", DEPLOYMENT.format(n=50))
    git_repo.commit("pr")
    assert main(["gate", "--tree", "main..pr", "--repo", str(git_repo.root)]) == 3
    assert "app/web/deploy.k8s" in capsys.readouterr().out
