"""Classes of misses the twenty-fifth label set found (bench/classify_accuracy/twentyfifth.tsv: 60 repositories weighted
to CI and infrastructure, measured blind first), each with the look-alikes it must leave alone: a Buildkite plugin's
definition (`plugin.yml` with the schema of its configuration: ci by content; a Bukkit or Helm plugin file is not),
Cluster API's end-to-end data that the
suites apply to real clusters (content decides: a Kubernetes object is iac), the settings of hadolint, hindent and
REUSE, a `.git_hooks/` folder (other), code named like a governance file in more languages (`maintainers.nix`:
src), and the script a legacy Packer JSON template (`packer.json`) provisions (iac). The real repository below checks
them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.sniff import sniff
from gatekeeper.classify.tfrefs import is_configuration
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # linters' and formatters' settings, git hooks under another spelling of the folder
    (".hadolint.yml", "other"), (".hadolint.yaml", "other"), (".hindent.yaml", "other"), (".hlint.yaml", "other"),
    (".stylish-haskell.yaml", "other"), (".git_hooks/prepare-commit-msg", "other"), ("git_hooks/pre-push", "other"),
    ("src/git_hooks/install.py", "src"),
    # REUSE's machine-readable copyright file
    (".reuse/dep5", "other"), ("docs/.reuse/dep5", "src"),
    # code named like a governance file, in more languages; the governance files stay other
    ("modules/lib/maintainers.nix", "src"), ("scripts/license.sh", "src"), ("tools/AUTHORS.pl", "src"),
    ("MAINTAINERS", "other"), ("MAINTAINERS.md", "other"), ("LICENSE.txt", "other"),
    # Cluster API's end-to-end data is not test data (content decides); other test data folders still are
    ("test/e2e/data/cni/calico.yaml", "src"), ("test/e2e/data/infrastructure-azure/cluster-template.yaml", "src"),
    ("test/unit/data/deployment.yaml", "src"),
])
def test_path_rules_of_the_twenty_fifth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


def test_e2e_data_is_not_final_but_test_data_is() -> None:
    assert RULES.match("test/e2e/data/cni/calico.yaml").rule == "src.e2e-data"
    assert RULES.match("test/unit/data/deployment.yaml").rule.startswith("testdata.")


BUILDKITE_PLUGIN = """name: Cache
description: Restores and saves build caches in S3
author: https://github.com/example
requirements:
  - aws
configuration:
  properties:
    key:
      type: string
    paths:
      type: [string, array]
  required: [key]
  additionalProperties: false
"""
MINIMAL_PLUGIN = "name: Lint\nconfiguration:\n  type: object\n"
BUKKIT_PLUGIN = """name: WorldGuard
main: com.example.worldguard.WorldGuardPlugin
version: 7.0.9
configuration:
  properties: none
commands:
  region:
    description: Manage regions
"""
HELM_PLUGIN = """name: diff
version: 3.9.4
usage: Preview helm upgrade changes as a diff
description: Preview helm upgrade changes as a diff
command: $HELM_PLUGIN_DIR/bin/diff
"""
APP_SETTINGS = "name: exporter\nconfiguration:\n  port: 9100\n  properties:\n    labels: true\n"


@each_case(("name", "text", "ci"), [
    ("plugin.yml", BUILDKITE_PLUGIN, True), ("plugin.yaml", MINIMAL_PLUGIN, True),
    ("plugin.yml", BUKKIT_PLUGIN, False), ("plugin.yaml", HELM_PLUGIN, False),
    ("settings.yml", BUILDKITE_PLUGIN, False),  # the schema alone, under another name: an app's settings
    ("plugin.yml", APP_SETTINGS.replace("  properties", "properties"), False),
])
def test_buildkite_plugin_definitions_by_content(name: str, text: str, ci: bool) -> None:
    signal = sniff(name, text.encode(), RULES.context)
    assert (signal is not None and signal.rule == "ci.content.buildkite-plugin") == ci, (name, signal)


CAPZ_TEMPLATE = """---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: cluster-autoscaler
  namespace: {{.Namespace}}
spec:
  replicas: 1
  template:
    spec:
      containers:
        - image: registry.k8s.io/autoscaling/cluster-autoscaler:v1.30.0
          name: cluster-autoscaler
"""


PACKER_TEMPLATE = """{
  "provisioners": [{"type": "shell", "script": "database.sh", "environment_vars": ["HELLO=world"]}],
  "builders": [{"type": "amazon-ebs", "region": "us-west-2", "instance_type": "m5.xlarge", "ssh_username": "ubuntu"}]
}
"""


@each_case(("path", "read"), [
    ("ami/db/packer.json", True), ("packer.json", True), ("images/ubuntu.packer.json", True),
    ("packer-base.json", True), ("packer_windows.json", True), ("package.json", False), ("packer.jsonc", False),
    ("src/packers.json", False),
])
def test_legacy_packer_json_templates_are_read_by_their_names(path: str, read: bool) -> None:
    assert is_configuration(path) is read


def test_the_twenty_fifth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# cache plugin\n")
    git_repo.commit("base")
    texts = {
        "plugin.yml": BUILDKITE_PLUGIN,
        "test/e2e/data/autoscaler/deployment.yaml.tmpl": CAPZ_TEMPLATE,
        "test/e2e/data/shared/metadata.json": '{"releaseSeries": [{"major": 1, "minor": 17}]}\n',
        "test/unit/data/deployment.yaml": CAPZ_TEMPLATE,
        ".hadolint.yml": "ignored:\n  - DL3018\n",
        "modules/lib/maintainers.nix": "{\n  alice = { name = \"Alice\"; github = \"alice\"; };\n}\n",
        "server/plugin.yml": BUKKIT_PLUGIN,
        # a legacy Packer JSON template's provisioner script, and a package manifest's script beside it (not Packer)
        "ami/db/packer.json": PACKER_TEMPLATE,
        "ami/db/database.sh": "#!/bin/sh\nsudo -u postgres psql -f /var/data/db.sql\n",
        "web/package.json": '{"name": "web", "scripts": {"build": "sh build.sh"}}\n',
        "web/build.sh": "#!/bin/sh\nvite build\n",
    }
    want = {
        "plugin.yml": "ci", "test/e2e/data/autoscaler/deployment.yaml.tmpl": "iac",
        "test/e2e/data/shared/metadata.json": "src", "test/unit/data/deployment.yaml": "iac", ".hadolint.yml": "other",
        "modules/lib/maintainers.nix": "src", "server/plugin.yml": "src", "ami/db/database.sh": "iac",
        "web/build.sh": "src",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["plugin.yml"].rule == "ci.content.buildkite-plugin" and "configuration" in files["plugin.yml"].evidence
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
