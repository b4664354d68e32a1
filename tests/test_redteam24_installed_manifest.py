"""Red team 24, decided: a Kubernetes manifest under a tool-settings name at a module's place, from a patch alone.

`node_modules/x/.travis.yml` holding a Deployment that a kustomization lists is `iac` with the commits (the marker and
the content). From a patch alone a module's own settings name keeps red team 23's exemption from `needs-context`,
unless the patch shows what decides: the object's `apiVersion`/`kind` (content tier: iac) or the kustomization. Left
as `deps` only: a hunk deep in the file, under a kustomization BASE already had listing an installed folder's file.
Evidence (mirrored repositories' HEAD trees and histories, 2026-12-05): of 3,327 kustomization files in 76
repositories, none lists a resource in `node_modules/`, `vendor/`, `bower_components/` or `third_party/` (setting
one up is itself an iac change: reviewed); 743 settings files sit at a module's place in 25 repositories, and 363
commits of theirs modify one (vendored-module updates): each would be a review by the default policy if the name no
longer exempted. `gate --tree` decides it from the commits.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.gitrepo import GitRepo, two_commits
from tests.test_classify_context import patch_files, tree_files

KUSTOMIZATION = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - {path}\n"
DEPLOYMENT = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
              + "".join(f"      # rollout note {i}\n" for i in range(30))
              + "      containers:\n        - name: web\n          image: registry.example.net/web:1.0\n")
PLACES = ("node_modules/x/.travis.yml", "web/node_modules/left-pad/.golangci.yml", "vendor/github.com/a/b/.drone.yml")


def _repo(tmp_path: Path, path: str) -> tuple[GitRepo, str, str]:
    folder, _, name = path.rpartition("/")
    root = folder.split("/node_modules")[0] if "/node_modules" in folder else ""
    listing = {f"{root}/kustomization.yaml".lstrip("/"): KUSTOMIZATION.format(path=path[len(root):].lstrip("/"))}
    return two_commits(tmp_path / "repo", {**listing, path: DEPLOYMENT},
                       {path: DEPLOYMENT.replace("web:1.0", "web:6.6.6-miner")})


@pytest.mark.parametrize("path", PLACES)
def test_with_the_commits_the_manifest_is_iac(tmp_path: Path, path: str) -> None:
    repo, base, head = _repo(tmp_path, path)
    assert tree_files(repo, f"{base}..{head}")[path].bucket == "iac"


@pytest.mark.parametrize("path", PLACES)
def test_from_a_patch_showing_the_object_s_kind_it_is_iac(tmp_path: Path, path: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {path: DEPLOYMENT},
                                   {path: DEPLOYMENT.replace("name: web\nspec", "name: web2\nspec")})
    assert patch_files(repo, tmp_path, f"{base}..{head}")[path].bucket == "iac"


@pytest.mark.parametrize("path", PLACES)
def test_from_a_patch_a_deep_hunk_keeps_the_module_settings_exemption(tmp_path: Path, path: str) -> None:
    """The decision above: a module's settings file edited deep inside stays deps, untagged, from a patch alone."""
    repo, base, head = _repo(tmp_path, path)
    found = patch_files(repo, tmp_path, f"{base}..{head}")[path]
    assert (found.bucket, "needs-context" in found.tags) == ("deps", False)
