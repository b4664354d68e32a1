"""Red team 23: from a patch, a dot-named tool-settings name exempted a Kubernetes manifest in installed code.

Installed code's YAML that a patch shows in part needs context (red team 22), except a vendored module's own tool
settings, which attack 19 kept by name (`.travis.yml`, `.golangci.yml`, ...). The name alone proves nothing:
`kubectl apply -f manifests/pods/` applies `manifests/pods/.travis.yml` holding a Deployment as any other YAML file
there, and an edit to its image that the patch shows in part was `deps` with no `needs-context`, so the default gate
allowed what the commits call iac. A module keeps its settings in its own folder below the installed folder
(`vendor/github.com/acme/lib/.travis.yml`, `node_modules/left-pad/.travis.yml`), never in the installed folder itself
or a package scope, and CocoaPods cleans every pod of the files its podspec does not list. Now the name is exempt only
at a module's place and outside `Pods/`: on the 909 mirrored repositories' HEAD trees all 611 installed settings files
keep the exemption. Left: a manifest under a settings name at a module's place (`node_modules/x/.travis.yml`) is
found with the commits only (its content), as the module's real settings file would be.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import two_commits
from tests.incli import run_cli
from tests.test_classify_context import patch_files, tree_files

DEPLOYMENT = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
              + "".join(f"      # rollout note {i}\n" for i in range(30))
              + "      containers:\n        - name: web\n          image: registry.example.net/web:1.0\n")
TRAVIS = ("language: go\ngo:\n  - 1.21.x\n" + "".join(f"# matrix note {i}\n" for i in range(30))
          + "script:\n  - go test ./...\n")
ATTACKS = ("manifests/pods/.travis.yml", "pods/.golangci.yml", "Pods/.codecov.yml", "pods/web/.travis.yml",
           "apps/Pods/web/.drone.yml", "vendor/.travis.yml", "node_modules/.golangci.yml",
           "bower_components/.travis.yml", "deploy2/vendor/.gitlab-ci.yml", "node_modules/@acme/.travis.yml",
           "third_party/.goreleaser.yaml", "vendor_charts/.codecov.yml")
SETTINGS = ("vendor/github.com/acme/lib/.travis.yml", "vendor/gopkg.in/yaml.v2/.travis.yml",
            "vendor/github.com/acme/pods-client/.golangci.yml", "node_modules/left-pad/.travis.yml",
            "node_modules/@acme/widget/.travis.yml", "bower_components/jquery/.travis.yml",
            "vendor/symfony/console/.travis.yml", "Carthage/Checkouts/Alamofire/.travis.yml")


@each_case("path", ATTACKS)
def test_a_manifest_under_a_settings_name_in_an_installed_folder_needs_context(tmp_path: Path, path: str) -> None:
    repo, _, _ = two_commits(tmp_path / "repo", {path: DEPLOYMENT},
                             {path: DEPLOYMENT.replace("web:1.0", "web:1.0-debug")})
    assert tree_files(repo)[path].bucket == "iac"
    patch = patch_files(repo, tmp_path)[path]
    assert patch.bucket == "iac" or "needs-context" in patch.tags, patch


@each_case("path", SETTINGS)
def test_a_module_s_own_settings_at_its_place_stay_settled(tmp_path: Path, path: str) -> None:
    repo, _, _ = two_commits(tmp_path / "repo", {path: TRAVIS}, {path: TRAVIS.replace("go test", "go test -race")})
    patch = patch_files(repo, tmp_path)[path]
    assert (patch.bucket, "needs-context" in patch.tags) == ("deps", False), patch


def test_the_default_gate_reviews_the_edit_from_a_patch(tmp_path: Path) -> None:
    path = "manifests/pods/.travis.yml"
    repo, base, head = two_commits(tmp_path / "repo", {path: DEPLOYMENT},
                                   {path: DEPLOYMENT.replace("web:1.0", "web:1.0-debug")})
    patch = tmp_path / "change.diff"
    patch.write_bytes(repo.git("diff", "--binary", base, head))
    packet = tmp_path / "packet.json"
    assert run_cli(["packet", patch, "--out", packet]).returncode == 0
    done = run_cli(["gate", packet, "--patch", patch, "--format", "json"], text=True)
    assert done.returncode == 3 and '"core.needs_context"' in done.stdout, done.stdout
