"""Classes of misses the sweep of the mirrored repositories found (bench/classify_sweep.py: every file of ~600
repositories classified with the commits and compared with scanners' and Renovate's cheap evidence; no labels), each
with the look-alikes it must leave alone: a templated YAML stream whose first line is a template statement or comment
(a Jinja `{% for %}`, a Go `{{- /* */ -}}`) read as YAML, not as JSON (iac by its Kubernetes objects); the scripts a
pipeline runs whose name only the path rules know (`azure-pipelines-pr.yml`, Arcade's `eng/common/` templates,
`cloudbuild-tf-apply.yaml`, GoReleaser's hooks, a `.gitlab-ci/` folder: ci with the commits; not Arcade's shared
`eng/common/` templates); the Ruby fastlane loads beside a Fastfile (ci);
Terraform in a folder named `pods` (iac, not CocoaPods). The real repository below checks them with the commits and
from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.ciruns import is_definition, is_yaml
from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files

# A bootstrap template rendered with Jinja before `kubectl apply` (a home-ops repository's shape).
JINJA_BOOTSTRAP = """{% for namespace in ["flux-system", "monitoring"] %}
---
apiVersion: v1
kind: Namespace
metadata:
  name: {{ namespace }}
{% endfor %}
---
apiVersion: v1
kind: Secret
metadata:
  name: onepassword-secret
  namespace: kube-system
stringData:
  token: op://vault/item/credential
"""
# Talos machine configuration documents behind a Go-template comment (talhelper/talosctl patches).
TALOS_TEMPLATE = """{{- /*
Node networking as typed network documents.
*/ -}}
{{- $octet := last (splitList "." (printf "%s" .Node.IP)) }}
---
apiVersion: v1alpha1
kind: LinkAliasConfig
name: ethSel0
selector:
  match: glob("{{ .Node.Data.macAddr }}", mac(link.hardware_addr))
"""
# A Jinja statement inside one document, before its keys (no `---` between them)
JINJA_INSIDE = """{% if cluster.ingress %}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
{% endif %}
"""
# Look-alikes: JSON manifests stay JSON; a template of an application's settings, or of an HTML page, names no
# Kubernetes object; a Jinja document template quoting a manifest is prose.
JSON_MANIFEST = '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}\n'
JINJA_SETTINGS = """{% set port = 8080 %}
---
server:
  port: {{ port }}
  kind: http
"""
HTML_TEMPLATE = """{{ define "page" }}
<html><body>apiVersion: v1
kind: Pod</body></html>
{{ end }}
"""


@each_case(("path", "text", "rule"), [
    ("setup/bootstrap/templates/resources.yaml.j2", JINJA_BOOTSTRAP, "iac.content.kubernetes"),
    ("talos/all/20-network-links.yaml.tpl", TALOS_TEMPLATE, "iac.content.kubernetes"),
    ("deploy/ingress.yaml.j2", JINJA_INSIDE, "iac.content.kubernetes"),
    ("deploy/configmap.json", JSON_MANIFEST, "iac.content.kubernetes"),
    ("config/app.yaml.j2", JINJA_SETTINGS, None),
    ("web/page.tmpl", HTML_TEMPLATE, None),
])
def test_templated_yaml_is_read_as_yaml(path: str, text: str, rule: str | None) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert (signal.rule if signal is not None else None) == rule, (path, signal)


@each_case(("path", "bucket", "rule"), [
    # the Ruby a Fastfile loads
    ("fastlane/actions/extract_xcresult_images.rb", "ci", "ci.fastlane-code"),
    ("fastlane/lanes/ios.rb", "ci", "ci.fastlane-code"), ("ios/fastlane/api_diff_helper.rb", "ci", "ci.fastlane-code"),
    ("fastlane/patches/supply_custom_promote.rb", "ci", "ci.fastlane-code"), ("fastlane/Fastfile", "ci", "ci.mobile"),
    # ... not fastlane's own source or its plugin gems, its specs, docs or a test's fixture
    ("fastlane/lib/fastlane/actions/gym.rb", "src", "src.fastlane-gem-source"),
    ("fastlane-plugin-sentry/lib/fastlane/plugin/sentry/actions/sentry_upload.rb", "src", "src.fastlane-gem-source"),
    ("fastlane/spec/runner_spec.rb", "src", "src.dev-scripts"), ("fastlane/README.md", "src", "docs.readme"),
    ("test/fixtures/fastlane/actions/x.rb", "ci", "ci.fastlane-code"),
    ("fastlane/Pluginfile", "deps", "deps.bundler.manifest"),
    # Terraform in a Kubernetes module's pods folder; CocoaPods' Pods/ stays installed code
    ("manifests/modules/logging/pods/.workshop/terraform/main.tf", "iac", "iac.terraform-in-pods-folders"),
    ("platform/pods/prod.tfvars", "iac", "iac.terraform-in-pods-folders"),
    ("k8s/pods/prod.tfvars", "iac", "iac.folders-installed-code"),  # any file there (red team 22: k8s/pods/web.yaml)
    ("Pods/Alamofire/Source/Session.swift", "deps", "deps.cocoapods.installed"),
    ("ios/Pods/Target Support Files/Pods-App/Pods-App-frameworks.sh", "deps", "deps.cocoapods.installed"),
    ("pkg/clients/kube/corev1/pods/list.go", "src", "src.go-in-pods-folders"),
    ("test/data/pods/main.tf", "iac", "iac.terraform-in-pods-folders"),  # test data lowers deps only (issue 12 item 6)
])
def test_path_rules_of_the_sweep(path: str, bucket: str, rule: str) -> None:
    got = RULES.match(path)
    assert (got.bucket, got.rule) == (bucket, rule), got


def test_pipelines_whose_names_only_the_path_rules_know() -> None:
    # what the walk adds through the path rules, and why it must: the fixed names and folders leave these out
    for path in ("azure-pipelines-pr.yml", ".gitlab-ci/packet.yml",
                 "build/cloudbuild-tf-apply.yaml", ".goreleaser.yaml", ".config/goreleaser.yaml"):
        assert not is_definition(path) and is_yaml(path) and RULES.match(path).bucket == "ci", path
    assert not is_yaml("azure-pipelines.yml.md") and not is_yaml("build.sh") and is_yaml("X.YAML")


AZURE_PR = """trigger: none
pr: [main]
jobs:
- job: Linux
  pool:
    vmImage: ubuntu-latest
  steps:
  - script: eng/common/cibuild.sh --configuration Release
"""
GITLAB_FOLDER_JOB = """packet_ubuntu:
  stage: deploy-part1
  script:
    - make -C test-infra/image-builder
"""
ARCADE_TEMPLATE = """parameters:
  enabled: true
steps:
- task: PowerShell@2
  inputs:
    filePath: eng/common/retain-build.ps1
"""
GORELEASER = """version: 2
before:
  hooks:
    - ./scripts/completions.sh
    - sh .config/goreleaser/render-manifest.sh {{ .Version }}
builds:
  - main: ./cmd/tool
"""
# a YAML file the path rules do not call ci, naming a script: an application's task list
APP_TASKS = """tasks:
  - name: migrate
    command: scripts/migrate.sh
"""


def test_the_sweep_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# home operations\n")
    git_repo.commit("base")
    texts = {
        "setup/bootstrap/templates/resources.yaml.j2": JINJA_BOOTSTRAP,
        "talos/all/20-network-links.yaml.tpl": TALOS_TEMPLATE,
        "config/app.yaml.j2": JINJA_SETTINGS,
        # scripts pipelines run, under names only the path rules know
        "azure-pipelines-pr.yml": AZURE_PR,
        "eng/common/cibuild.sh": "#!/usr/bin/env bash\n./build.sh --ci \"$@\"\n",
        ".gitlab-ci/packet.yml": GITLAB_FOLDER_JOB,
        "test-infra/image-builder/Makefile": "all:\n\tpacker build .\n",
        # Arcade's shared templates, which its dependency flow rewrites: what they name stays as the path rules say
        "eng/common/core-templates/steps/retain-build.yml": ARCADE_TEMPLATE,
        "eng/common/retain-build.ps1": "Write-Host 'retain'\n",
        ".goreleaser.yaml": GORELEASER,
        "scripts/completions.sh": "#!/bin/sh\nmkdir -p completions\n",
        ".config/goreleaser/render-manifest.sh": "#!/bin/sh\nsed s/x/y/ kured.yaml\n",
        "config/tasks.yml": APP_TASKS,
        "scripts/migrate.sh": "#!/bin/sh\nrails db:migrate\n",
        "scripts/unnamed.sh": "#!/bin/sh\necho hi\n",
        # fastlane's lanes and a Terraform module in a pods folder
        "fastlane/Fastfile": 'import "lanes/ios.rb"\n',
        "fastlane/lanes/ios.rb": "lane :beta do\n  build_app\nend\n",
        "k8s/pods/terraform/main.tf": 'resource "kubernetes_pod" "web" {}\n',
    }
    want = {"setup/bootstrap/templates/resources.yaml.j2": "iac", "talos/all/20-network-links.yaml.tpl": "iac",
            "config/app.yaml.j2": "src", "eng/common/cibuild.sh": "ci", "eng/common/retain-build.ps1": "src",
            "test-infra/image-builder/Makefile": "ci",
            "scripts/completions.sh": "ci", ".config/goreleaser/render-manifest.sh": "ci",
            "scripts/migrate.sh": "src", "scripts/unnamed.sh": "src", "fastlane/lanes/ios.rb": "ci",
            "k8s/pods/terraform/main.tf": "iac"}
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    bootstrap = files["setup/bootstrap/templates/resources.yaml.j2"]
    assert (bootstrap.rule, bootstrap.tier) == ("iac.content.kubernetes", "content")
    assert bootstrap.evidence is not None and "kind: Namespace" in bootstrap.evidence
    run = files["eng/common/cibuild.sh"]
    assert run.rule == "ci.context.ci-run" and run.evidence == "azure-pipelines-pr.yml runs eng/common/cibuild.sh"
    assert files["scripts/completions.sh"].evidence == ".goreleaser.yaml runs scripts/completions.sh"
    # from the patch: the path rules and the content; a patch shows no pipeline's runs (docs: pass --tree)
    patched = patch_files(git_repo, tmp_path)
    from_patch = {**want, "eng/common/cibuild.sh": "src", "test-infra/image-builder/Makefile": "src",
                  "scripts/completions.sh": "src", ".config/goreleaser/render-manifest.sh": "src"}
    assert {path: patched[path].bucket for path in want} == from_patch
