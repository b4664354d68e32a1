"""Classes of misses a thirteenth label set found (bench/classify_accuracy/thirteenth.tsv: 63 repositories chosen for
breadth, as the held-out sets are), measured blind first, each with the look-alikes it must leave alone: test data
under names the rules did not know (Kotlin's `src/jvmTest/resources/`,
golden `input/`/`output/` folders, Verify's `*.verified.*` snapshots, syntax-test inputs), a workspace-prefixed
Terraform lock file, a deploy ignore file of Teams Toolkit, a code generator's Go template that names `.Values`, a kind
cluster configuration kept as `.config`, tests named after a Dockerfile, agent skills and issue-body templates in
`.github/`, and the settings of Transifex and New Relic.
The real repositories below check them with the commits and, where a patch can show it, from the patch alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.sniff import is_candidate, sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # test data beside the code it tests, and test source sets of Gradle and Kotlin Multiplatform
    # (a fixtures/ folder outside test trees is not: see test_classify_paths.py)
    ("fixtures/Dockerfile", "iac"), ("pkg/provider/kubernetes/ingress/fixtures/ingress.yml", "iac"),
    ("okhttp/src/jvmTest/resources/okhttp3/internal/publicsuffix/NOTICE", "src"),
    ("lib/src/commonTest/resources/data.json", "src"), ("lib/src/testFixtures/resources/app.yaml", "src"),
    ("tests/translator/input/api_with_auth.yaml", "src"), ("tests/translator/output/api_with_auth.json", "src"),
    ("test/parser/input/Dockerfile", "iac"),
    ("tests/Docker.Tests/Snapshots/PublishAsync.verified.env", "src"),
    # ... but an open-ended name yields to a ci/iac name pattern it also fits (Helm's `values.*.yaml`: classes52,
    # tests/test_classes52_open_names.py; and test data lowers deps only, item 6)
    ("tests/Kubernetes.Tests/Snapshots/env2/values.verified.yaml", "iac"),
    ("tests/Kubernetes.Tests/Snapshots/env2/Deployment.verified.yaml", "src"),
    ("tests/Snapshots/Chart.received.yaml", "src"),
    ("tests/syntax-tests/source/Terraform/main.tf", "iac"),
    ("tests/syntax-tests/source/TOML/Cargo.toml", "src"), ("tests/syntax-tests/source/XML/console.csproj", "src"),
    # a Sublime syntax test named *.tf is loaded by Terraform if it ever runs there: a name cannot make a .tf file test
    # data (iac.open-names-terraform; tests/test_lead51_open_names.py), the label's src is the price
    ("Packages/HCL/syntax_test_terraform.tf", "iac"),
    # ... and what stays what it is: CI folders keep their fixtures, live files keep their kind
    (".github/fixtures/changelog.md", "ci"), ("ci/fixtures/pipeline.yml", "ci"),
    ("src/main/resources/application.yaml", "src"), ("deploy/output.tf", "iac"), ("input/main.tf", "iac"),
    ("charts/app/values.yaml", "iac"), ("Cargo.toml", "deps"), ("Dockerfile", "iac"),
    # a workspace-prefixed Terraform lock file (Atmos and Terragrunt keep one per workspace)
    (".plat-ue2-dev-dynamodb-table.terraform.lock.hcl", "deps"), (".terraform.lock.hcl", "deps"),
    ("terraform.lock.hcl.md", "src"),
    # the file Teams Toolkit's web app deploy leaves out, as the other deploy ignore files
    ("extensions/teams/.webappignore", "iac"), (".funcignore", "iac"),
    # tests named after a Dockerfile; Dockerfiles named after a language stay Dockerfiles
    ("pkg/parser/dockerfile/dockerfile_test.go", "src"), ("src/Dockerfile.test.ts", "src"),
    ("spec/dockerfile_spec.rb", "src"), ("Dockerfile.test", "iac"), ("Dockerfile_prod", "iac"),
    ("build/Dockerfile.go", "iac"),
    # agent skills and issue-body templates in .github/; workflows and actions beside them stay ci
    (".github/skills/perf/scripts/BuildAndProfile.ps1", "other"), (".github/skills/perf/SKILL.md", "other"),
    (".github/templates/dependency-issue.md", "other"), (".github/templates/release.yml", "ci"),
    (".github/workflows/skills.yml", "ci"), (".github/actions/templates/body.md", "ci"),
    # settings of outside apps
    (".tx/config", "other"), ("newrelic.ini", "other"), ("app/web/newrelic.yml", "other"),
    ("docs/.tx/config", "src"), ("src/newrelic.py", "src"),
])
def test_path_rules_of_the_thirteenth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


GO_CODEGEN_TEMPLATE = """\
// Code generated from fastpath.go.tmpl - DO NOT EDIT.
package codec

func init() {
	i := 0
	{{range .Values}}{{if not .Primitive}}{{if not .MapKey -}}
	fn([]{{ .Elem }}(nil), (*Encoder).{{ .MethodNamePfx "fastpathEnc" false }}R)
	{{end}}{{end}}{{end}}
}
"""
HELM_TEMPLATE = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "app.fullname" . }}
data:
  level: {{ .Values.logLevel | quote }}
"""
KIND_CLUSTER = """\
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
networking:
  ipFamily: "ipv6"
nodes:
  - role: control-plane
"""
WEB_CONFIG = """\
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <system.webServer>
    <handlers><add name="aspNetCore" path="*" verb="*" modules="AspNetCoreModuleV2" /></handlers>
  </system.webServer>
</configuration>
"""


def test_a_source_template_is_no_helm_template() -> None:
    assert sniff("vendor/github.com/ugorji/go/codec/fastpath.go.tmpl", GO_CODEGEN_TEMPLATE.encode(),
                 RULES.context) is None
    assert sniff("gen/handlers.py.tpl", GO_CODEGEN_TEMPLATE.encode(), RULES.context) is None
    # a Helm template under any other name still is one
    for name in ("deploy/configmap.yaml.tpl", "deploy/configmap.tmpl", "deploy/configmap.gotmpl"):
        found = sniff(name, HELM_TEMPLATE.encode(), RULES.context)
        assert found is not None and found.bucket == "iac", name


def test_config_files_are_read() -> None:
    assert is_candidate("acceptance/framework/environment/kind/kind-ipv6.config")
    found = sniff("kind-ipv6.config", KIND_CLUSTER.encode(), RULES.context)
    assert found is not None and found.bucket == "iac"
    assert sniff("src/Web/web.config", WEB_CONFIG.encode(), RULES.context) is None


def test_the_thirteenth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("go.mod", "module example.invalid/edge\n\ngo 1.22\n")
    git_repo.write("vendor/github.com/ugorji/go/codec/fastpath.go.tmpl", GO_CODEGEN_TEMPLATE)
    git_repo.write("acceptance/framework/environment/kind/kind-ipv6.config", KIND_CLUSTER)
    git_repo.write("src/Web/web.config", WEB_CONFIG)
    git_repo.write("tests/translator/input/api.yaml", "Transform: AWS::Serverless-2016-10-31\nResources: {}\n")
    git_repo.write("components/vpc/.plat-ue2-dev-vpc.terraform.lock.hcl", "# tofu init\n")
    git_repo.commit("base")
    git_repo.write("vendor/github.com/ugorji/go/codec/fastpath.go.tmpl", GO_CODEGEN_TEMPLATE + "// more\n")
    git_repo.write("acceptance/framework/environment/kind/kind-ipv6.config", KIND_CLUSTER + "  - role: worker\n")
    git_repo.write("src/Web/web.config", WEB_CONFIG.replace("V2", "V3"))
    git_repo.write("tests/translator/input/api.yaml", "Transform: AWS::Serverless-2016-10-31\nResources: {a: 1}\n")
    git_repo.write("components/vpc/.plat-ue2-dev-vpc.terraform.lock.hcl", "# tofu init\n# again\n")
    git_repo.commit("head")
    want = {"vendor/github.com/ugorji/go/codec/fastpath.go.tmpl": "deps",
            "acceptance/framework/environment/kind/kind-ipv6.config": "iac",
            "src/Web/web.config": "src",
            "tests/translator/input/api.yaml": "iac",  # a SAM template as a test's input: test data lowers deps only
            "components/vpc/.plat-ue2-dev-vpc.terraform.lock.hcl": "deps"}
    tree = tree_files(git_repo)
    assert {p: tree[p].bucket for p in want} == want
    # from the patch alone: a hunk that does not show `kind:` and `apiVersion:` leaves the file unsettled, never lowered
    patch = patch_files(git_repo, tmp_path)
    kind = "acceptance/framework/environment/kind/kind-ipv6.config"
    assert "needs-context" in patch[kind].tags, patch[kind]
    assert {p: patch[p].bucket for p in want if p != kind} == {p: b for p, b in want.items() if p != kind}


PROMETHEUS_CONFIG = """\
global:
  scrape_interval:     15s # By default, scrape targets every 15 seconds.

scrape_configs:
  - job_name: 'meilisearch'
    scrape_interval: 5s
    static_configs:
      - targets: ['localhost:7700']
"""
OTEL_COLLECTOR = """\
receivers:
  otlp:
    protocols:
      grpc:
processors:
  batch:
exporters:
  debug:
service:
  telemetry:
    logs:
      level: info
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [debug]
"""
APP_SETTINGS = """\
# An application's own settings that share a word with them
receivers:
  - email: ops@example.invalid
exporters: [csv, json]
service:
  name: billing
scrape_configs: see docs/scraping.md
"""


@pytest.mark.parametrize(("name", "text", "rule"), [
    ("assets/prometheus-basic-scraper.yml", PROMETHEUS_CONFIG, "other.content.prometheus-config"),
    ("src/otel-collector/otelcol-ebpf-profiling.yml", OTEL_COLLECTOR, "other.content.otel-collector-config"),
])
def test_collector_settings_are_settings_of_an_outside_app(name: str, text: str, rule: str) -> None:
    found = sniff(name, text.encode(), RULES.context)
    assert found is not None and (found.bucket, found.rule) == ("other", rule), found


def test_their_look_alikes_stay_src() -> None:
    assert sniff("config/app.yaml", APP_SETTINGS.encode(), RULES.context) is None
    assert sniff("config/otel.yaml", OTEL_COLLECTOR.replace("  pipelines:", "  extensions:").encode(),
                 RULES.context) is None


def test_collector_settings_a_kustomization_generates_stay_iac(git_repo: GitRepo) -> None:
    git_repo.write("deploy/kustomization.yaml",
                   "configMapGenerator:\n  - name: prometheus\n    files: [prometheus.yml]\n")
    git_repo.write("deploy/prometheus.yml", PROMETHEUS_CONFIG)
    git_repo.write("monitoring/prometheus.yml", PROMETHEUS_CONFIG)
    git_repo.commit("base")
    git_repo.write("deploy/prometheus.yml", PROMETHEUS_CONFIG.replace("5s", "10s"))
    git_repo.write("monitoring/prometheus.yml", PROMETHEUS_CONFIG.replace("5s", "10s"))
    git_repo.commit("head")
    tree = tree_files(git_repo)
    assert tree["deploy/prometheus.yml"].bucket == "iac", tree["deploy/prometheus.yml"]
    assert (tree["monitoring/prometheus.yml"].bucket, tree["monitoring/prometheus.yml"].rule) == (
        "other", "other.content.prometheus-config")
