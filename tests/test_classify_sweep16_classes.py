"""Classes of the recall misses left across the 34 labelled sets (the sweep16 round), each with the look-alikes it
must leave alone:

- A per-file checksum pins a download (`deps.checksum-pins`): `<archive>.sha256` (Argo CD's
  `hack/installers/checksums/kustomize_<version>_<os>_<arch>.tar.gz.sha256`, which its install scripts check with
  `sha256sum -c`), a tool's checksums beside the script that downloads it (LocalAI's `fizzbee.sha256`, which the
  install script and the workflow's cache key read), Netdata's `packaging/dag/files/cmake-<machine>.sha256` and the
  `packaging/vendor/<component>.sha256` CMake reads as EXPECTED_HASH. Changing one changes what the build runs, as a
  lock file's hash does. Release checksum lists (`SHA256SUMS`, `sha256sum.txt`, `SHASUMS256.txt`: what a project
  publishes of its own artefacts, jq's `sig/v1.7/sha256sum.txt`) stay data (`other`), and per-file checksums inside
  test trees and the Maven Invoker's `src/it/` projects (fake repositories' `*.jar.sha1`) are test data
  (`src.test-checksums`). Earlier rules still win: vendored code, CI folders, test-data folders.

- PowerShell DSC configuration packages (`iac.dsc-packages`): `Publish-AzVMDscConfiguration` packs `<name>.ps1` and
  the modules it imports into `<name>.ps1.zip` (its documented `-OutputArchivePath`), and the DSC extension of an
  ARM or Bicep template's VM downloads and applies it (`Set-AzVMDscExtension -ArchiveBlobName <name>.ps1.zip`): what
  the VM becomes. Mission LZ's `extensions/dnsForwarding.ps1.zip` and arm_demo's `CreateADPDC.ps1.zip`, both labelled
  `iac`, were `other`. A test tree's archive stays test data, a vendored one deps, other archives `other`.

The real repositories below check them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # per-file checksums pinning a downloaded tool or archive
    ("hack/installers/checksums/kustomize_5.4.2_linux_amd64.tar.gz.sha256", "deps", "deps.checksum-pins"),
    ("hack/installers/checksums/helm-v3.15.2-darwin-arm64.tar.gz.sha256", "deps", "deps.checksum-pins"),
    ("formal-verification/fizzbee.sha256", "deps", "deps.checksum-pins"),
    ("packaging/dag/files/cmake-aarch64.sha256", "deps", "deps.checksum-pins"),
    ("build/protoc-25.1-linux-x86_64.zip.sha512", "deps", "deps.checksum-pins"),
    ("third-party/protoc-25.1-linux-x86_64.zip.sha512", "deps", "deps.vendored"),
    ("tools/gradle-8.7-bin.zip.sha1", "deps", "deps.checksum-pins"),
    ("models/weights.bin.md5", "deps", "deps.checksum-pins"),
    # look-alikes: release checksum lists are data
    ("sig/v1.7/sha256sum.txt", "other", "other.data"),
    ("dist/SHA256SUMS", "other", "other.data"),
    ("release/SHASUMS256.txt", "other", "other.data"),
    ("SHA512SUMS", "other", "other.data"),
    # test trees, test-data folders and the Maven Invoker's integration projects: test data
    ("test/mbedtls/dummy_file.sha256", "src", "src.test-checksums"),
    ("tests/downloads/archive.tar.gz.sha256", "src", "src.test-checksums"),
    ("spec/fixtures/files/report.pdf.md5", "src", None),
    ("src/it/projects/basic/repository/org/acme/lib/maven-metadata.xml.sha1", "src", "src.test-checksums"),
    ("src/it/projects/basic/repository/org/acme/lib/1.0/lib-1.0.jar.md5", "src", "src.test-checksums"),
    ("cmd/bisync/testdata/golden/filtersfile.txt.md5", "src", "testdata.folders"),
    ("core/src/test/resources/repo/a/a/1.0/a-1.0.pom.sha1", "src", None),
    # earlier rules still win: vendored code, CI folders and files CI systems read
    ("vendor/github.com/acme/tool/tool.sha256", "deps", "deps.vendored"),
    ("node_modules/esbuild/bin/esbuild.sha256", "deps", None),
    (".github/workflows/tools.sha256", "ci", None),
    ("ci/tools/yq.sha256", "ci", None),
    # not checksums by their names
    ("go.sum", "deps", None),
    ("docs/sha256.md", "src", None),
    ("src/hash/sha256.go", "src", "src.default"),
    # PowerShell DSC configuration packages an ARM/Bicep template's DSC extension applies
    ("CreateADPDC.ps1.zip", "iac", "iac.dsc-packages"),
    ("src/add-ons/iaas-dns-forwarders/extensions/dnsForwarding.ps1.zip", "iac", "iac.dsc-packages"),
    ("DSC/ConfigureSqlServer.ps1.zip", "iac", "iac.dsc-packages"),
    # look-alikes: other archives, a test's archive, vendored code, the script itself
    ("release/tool-windows.zip", "other", "other.binary-assets"),
    ("tests/assets/Configure.ps1.zip", "src", None),
    ("test/fixtures/Configure.ps1.zip", "iac", None),
    ("vendor/acme/dsc/Configure.ps1.zip", "deps", "deps.vendored"),
    ("docs/Configure.ps1.zip.md", "src", None),
])
def test_path_rules_of_the_sweep16_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


INSTALL_TOOL = """#!/usr/bin/env bash
# Installs the pinned model checker; a download whose digest is not in the pin file fails the job.
set -euo pipefail
VERSION=v0.5.2
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHA_FILE="$ROOT/verification/checker.sha256"
asset="checker-${VERSION}-linux_x86.tar.gz"
curl -fsSLO "https://downloads.example.invalid/checker/${VERSION}/${asset}"
grep " ${asset}\\$" "$SHA_FILE" | sha256sum -c -
tar -xzf "$asset" -C "$HOME/.local/bin"
"""

PINS = """\
3c1e9a7f0b52d6e48a1f2c9d7e6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b  checker-v0.5.2-linux_x86.tar.gz
9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e  checker-v0.5.2-macos_arm.tar.gz
"""

BUMPED = PINS.replace("v0.5.2", "v0.5.3").replace("3c1e", "4d2f").replace("9f8e", "0a1b")

RELEASE_SUMS = """\
1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f809  mytool-1.4.0-linux-amd64
2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a  mytool-1.4.0-windows-amd64.exe
"""


def test_a_checksum_pin_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a service with a formally verified protocol\n")
    git_repo.write("scripts/install-checker.sh", INSTALL_TOOL)
    git_repo.write("verification/checker.sha256", PINS)
    git_repo.write("verification/session.fizz", "action Init:\n  state = 'idle'\n")
    git_repo.commit("base")
    git_repo.write("verification/checker.sha256", BUMPED)  # the bump an agent might slip in
    git_repo.write("sig/v1.4.0/sha256sum.txt", RELEASE_SUMS)  # the project's own release checksums
    git_repo.write("test/assets/sample.bin.sha256", PINS)  # what a test compares against
    git_repo.commit("head")
    want = {
        "verification/checker.sha256": "deps",
        "sig/v1.4.0/sha256sum.txt": "other",
        "test/assets/sample.bin.sha256": "src",
    }
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in files} == want
    assert files["verification/checker.sha256"].rule == "deps.checksum-pins"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in patched} == want


def test_a_renamed_pin_keeps_deps_on_both_sides(git_repo: GitRepo, tmp_path: Path) -> None:
    # Moving the pin into a test tree does not hide the old path: both sides of a rename are classified.
    git_repo.write("verification/checker.sha256", PINS)
    git_repo.commit("base")
    git_repo.move("verification/checker.sha256", "tests/checker.sha256")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["tests/checker.sha256"].bucket == "deps", files["tests/checker.sha256"]


CHART = "apiVersion: v2\nname: web\nversion: 1.0.0\n"
ROLE_TASKS = """- name: Download the pinned tool
  ansible.builtin.get_url:
    url: https://downloads.example.invalid/tool/1.2.0/tool.tgz
    dest: /opt/tool.tgz
    checksum: "sha256:{{ lookup('file', 'tool.tgz.sha256').split()[0] }}"
"""
MODULE = """resource "local_file" "pin" {
  content  = file("${path.module}/files/tool.sha256")
  filename = "/etc/tool/pin"
}
"""
KUSTOMIZATION = """apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
configMapGenerator:
  - name: tool-pins
    files:
      - yq.sha256
"""
WORKFLOW = """on: push
jobs:
  verify:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: bash ci-tools/verify.sha256
"""


def test_a_pin_that_a_chart_a_role_terraform_kustomize_or_ci_uses_stays_what_they_make_it(
        git_repo: GitRepo, tmp_path: Path) -> None:
    # The checksum rule is weak (weakrules.py): with context the file is refined as the catch-all's would be and a ci or
    # iac answer wins. Without that, the path rule lowered the chart's and the ci-run file from iac/ci to deps.
    git_repo.write("README.md", "# platform\n")
    git_repo.commit("base")
    git_repo.write("charts/web/Chart.yaml", CHART)
    git_repo.write("charts/web/files/tool.sha256", PINS)
    git_repo.write("roles/tool/tasks/main.yml", ROLE_TASKS)
    git_repo.write("roles/tool/files/tool.tgz.sha256", PINS)
    git_repo.write("modules/tool/main.tf", MODULE)
    git_repo.write("modules/tool/files/tool.sha256", PINS)
    git_repo.write("k8s/base/kustomization.yaml", KUSTOMIZATION)
    git_repo.write("k8s/base/yq.sha256", PINS)
    git_repo.write(".github/workflows/verify.yml", WORKFLOW)
    git_repo.write("ci-tools/verify.sha256", "#!/bin/sh\nsha256sum -c tools.sha256\n")  # a script CI runs by path
    git_repo.write("tools/yq.sha256", PINS)  # named by nothing: the path rule's deps
    git_repo.commit("head")
    files = tree_files(git_repo)
    got = {path: files[path].bucket for path in files if path.endswith(".sha256")}
    assert got == {
        "charts/web/files/tool.sha256": "iac",
        "roles/tool/files/tool.tgz.sha256": "iac",
        "modules/tool/files/tool.sha256": "iac",
        "k8s/base/yq.sha256": "iac",
        "ci-tools/verify.sha256": "ci",
        "tools/yq.sha256": "deps",
    }
    patched = patch_files(git_repo, tmp_path)
    assert patched["charts/web/files/tool.sha256"].bucket == "iac"
    assert patched["roles/tool/files/tool.tgz.sha256"].bucket == "iac"
    assert patched["tools/yq.sha256"].bucket == "deps"


ARM_WITH_DSC = """{
  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  "contentVersion": "1.0.0.0",
  "parameters": {"_artifactsLocation": {"type": "string"}, "vmName": {"type": "string"}},
  "resources": [
    {
      "type": "Microsoft.Compute/virtualMachines/extensions",
      "apiVersion": "2023-03-01",
      "name": "[concat(parameters('vmName'), '/CreateADForest')]",
      "location": "[resourceGroup().location]",
      "properties": {
        "publisher": "Microsoft.Powershell",
        "type": "DSC",
        "typeHandlerVersion": "2.77",
        "settings": {
          "ModulesUrl": "[concat(parameters('_artifactsLocation'), '/CreateForest.ps1.zip')]",
          "ConfigurationFunction": "CreateForest.ps1\\\\CreateForest"
        }
      }
    }
  ]
}
"""

DSC_CONFIG = """Configuration CreateForest {
    Import-DscResource -ModuleName ActiveDirectoryDsc
    Node localhost {
        WindowsFeature ADDS { Ensure = 'Present'; Name = 'AD-Domain-Services' }
    }
}
"""


def test_a_dsc_package_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a domain controller on Azure\n")
    git_repo.write("azuredeploy.json", ARM_WITH_DSC)
    git_repo.commit("base")
    # Zip bytes as Publish-AzVMDscConfiguration writes them: the configuration script and its modules.
    package = b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + b"CreateForest.ps1" + bytes(range(256))
    git_repo.write("CreateForest.ps1.zip", package)
    git_repo.write("docs/images/topology.zip", b"PK\x03\x04" + bytes(64))  # an ordinary archive
    git_repo.commit("head")
    want = {"CreateForest.ps1.zip": "iac", "docs/images/topology.zip": "other"}
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in files} == want
    assert files["CreateForest.ps1.zip"].rule == "iac.dsc-packages"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in patched} == want
