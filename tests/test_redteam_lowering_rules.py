"""Red team: today's path rules that lower a file (nested editor folders, reno release notes) from a patch alone.

With the commits a Kubernetes Deployment kept in `app/.vscode/web.yaml` or `releasenotes/notes/web.yaml` (a
kustomization of the base lists it) is read for its content and comes out iac. From a patch that shows only
its hunks, the catch-all and the src.* convention rules tag such a file needs-context (core sends it to a
human); these two rules did not, so the same change came out other/src, untagged: the patch-only gate allowed
what --tree reviews. A YAML/JSON-typed file they name now needs context like the catch-all's."""

from __future__ import annotations

from pathlib import Path

from gitrepo import GitRepo
from tables import each_case
from test_classify_context import patch_files, tree_files

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: web
          image: nginx:1.25
          args: ["--one", "--two", "--three", "--four", "--five", "--six", "--seven"]
"""
PLACES = ["app/.vscode/web.yaml", "app/.idea/web.yaml", "releasenotes/notes/web.yaml"]


@each_case("place", PLACES)
def test_a_manifest_under_a_lowering_rule_needs_context_from_a_patch(git_repo: GitRepo, tmp_path: Path,
                                                                    place: str) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.write(place, DEPLOYMENT + "\n" * 12 + "# end\n")
    folder = place.rpartition("/")[0]
    git_repo.write("kustomization.yaml", f"resources:\n  - {place}\n")
    git_repo.commit("base")
    git_repo.write(place, (DEPLOYMENT + "\n" * 12 + "# end\n").replace("nginx:1.25", "evil/miner:1"))
    git_repo.commit("head")
    found = patch_files(git_repo, tmp_path)[place]
    assert found.bucket in ("ci", "iac") or "needs-context" in found.tags, (folder, found)
    assert tree_files(git_repo)[place].bucket == "iac"


@each_case("place", [".vscode/extensions.json", "deploy/.vscode/launch.md", "releasenotes/README.md"])
def test_the_rules_still_settle_what_no_content_can_raise(git_repo: GitRepo, tmp_path: Path, place: str) -> None:
    git_repo.write(place, "{}\n" + "\n" * 12 + "x\n")
    git_repo.commit("base")
    git_repo.write(place, "{}\n" + "\n" * 12 + "y\n")
    git_repo.commit("head")
    assert "needs-context" not in patch_files(git_repo, tmp_path)[place].tags
