"""The classes of misses the sixty-eighth label set found (bench/classify_accuracy/sixtyeighth.tsv: 24 ordinary
repositories fetched for it, weighted toward infrastructure, measured blind first), with the look-alikes they must
leave alone. Both are path rules: with a patch or the commits, content and markers already found every file.

- The Kubernetes layout kubebuilder and operator-sdk scaffold into an operator's `config/` folder. Its `rbac/`,
  `crd/`, `manager/`, `webhook/`, `certmanager/`, `network-policy/` and `scorecard/` folders hold the objects kustomize
  applies (ClusterRoles, the manager's Deployment, webhook configurations, cert-manager Certificates, NetworkPolicies)
  and the kustomize patches and transformer configurations (`kustomizeconfig.yaml`) that shape them; the code index
  holds `config/rbac/role.yaml` in 6,005+ repositories and `config/manager/manager.yaml` in 6,611+. From the paths
  alone they were `src` (kube-green's `config/rbac/sleepinfo_editor_role.yaml`; 24 more rows of the other sets), and
  from a patch the patches and `kustomizeconfig.yaml` were `src` with `needs-context`. Now that YAML is
  `iac.kubebuilder-config`, at any depth (monorepos keep `operator/config/rbac/`), and `kustomizeconfig.yaml` anywhere.
  Not taken: kubebuilder's `config/prometheus/` (`config/prometheus/prometheus.yml` is an application's Prometheus
  settings in 2,111+ repositories), `config/default/` (`config/default/config.yaml` is an application's default
  settings in about half of its 46 repositories) and `config/samples/` (application sample settings too); their
  Kubernetes objects are found by content from a patch. Nor any file that is not YAML (`config/rbac/model.conf`,
  Casbin's, `config/webhook/index.js`).
- Machine user data templates named `userdata_<variant>` or `userdata-<variant>` (Cloud Posse's EKS node group module
  renders `userdata_al2023.tpl` and `userdata_nt.tpl` with `templatefile`): the rule knew `userdata.tpl`,
  `user-data-*` and `user_data_*`, not the unseparated word with a variant. Same extensions as the family (script and
  template types; `.tftpl` was `iac` already as a Terraform template); `userdata_test.go`, `userdata_model.py` and
  `userdata.json` stay what they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify import RuleSet, load_rules

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


# Real-shaped: kubebuilder v4's and operator-sdk's scaffold, as the labelled operators keep it (kube-green, Solr's,
# OpenKruise's, Flux's controllers, Cluster API providers), and in monorepos.
KUBEBUILDER_REAL = [
    "config/rbac/sleepinfo_editor_role.yaml",
    "config/rbac/role.yaml",
    "config/rbac/role_binding.yaml",
    "config/rbac/leader_election_role.yaml",
    "config/rbac/leader_election_role_binding.yaml",
    "config/rbac/service_account.yaml",
    "config/rbac/metrics_auth_role.yaml",
    "config/rbac/cluster/role.yaml",
    "config/rbac/secret.yaml",
    "config/crd/kustomizeconfig.yaml",
    "config/crd/patches/webhook_in_widgets.yaml",
    "config/crd/patches/cainjection_in_widgets.yaml",
    "config/manager/manager.yaml",
    "config/manager/controller_manager_config.yaml",
    "config/manager/solr_operator_config.yaml",
    "config/webhook/manifests.yaml",
    "config/webhook/service.yaml",
    "config/certmanager/certificate.yaml",
    "config/certmanager/issuer.yaml",
    "config/network-policy/allow-metrics-traffic.yaml",
    "config/scorecard/patches/olm.config.yaml",
    "config/default/kustomizeconfig.yaml",
    "bootstrap/config/certmanager/kustomizeconfig.yaml",
    "executor/config/rbac/leader_election_role_binding.yaml",
    "operator/config/rbac/leader_election_role_binding.yaml",
    "legacy/traits/metrichpatrait/config/rbac/metrichpatrait_viewer_role.yaml",
]
KUBEBUILDER_GENERATED = [f"{root}config/{folder}/{name}.{ext}"
                         for root in ("", "operator/", "test/e2e/")
                         for folder in ("rbac", "crd", "crd/patches", "manager", "webhook", "certmanager",
                                        "network-policy", "scorecard/patches")
                         for name in ("role", "widget_viewer_role", "manager_webhook_patch")
                         for ext in ("yaml", "yml")]
KUBEBUILDER_GENERATED += [f"{root}kustomizeconfig.{ext}" for root in ("", "config/default/", "app/", "a/b/")
                          for ext in ("yaml", "yml")]


@each_case("path", sorted(set(KUBEBUILDER_REAL + KUBEBUILDER_GENERATED)))
def test_the_kubebuilder_config_layout_is_iac(rules: RuleSet, path: str) -> None:
    match = rules.match(path)
    assert (match.bucket, match.rule) == ("iac", "iac.kubebuilder-config"), (path, match)


@each_case(("path", "bucket"), [
    ("config/prometheus/prometheus.yml", "src"),            # an application's Prometheus settings (2,111+ repositories)
    ("config/prometheus/alerts.yml", "src"),
    ("config/default/config.yaml", "src"),                  # an application's default settings
    ("config/default/settings.yml", "src"),
    ("config/samples/config.yaml", "src"),                  # sample settings of an application
    ("config/rbac/model.conf", "src"),                      # Casbin's model: not YAML
    ("config/rbac/policy.csv", "other"),                    # data
    ("config/rbac/README.md", "src"),
    ("config/webhook/index.js", "src"),
    ("config/manager/main.go", "src"),
    ("src/config/crd.yaml", "src"),                         # a file named crd, not the folder
    ("docs/config/rbac.md", "src"),
    ("config/rbac-roles.yaml", "src"),                      # not the folder
    ("config/crd/bases/example.com_widgets.yaml", "iac"),   # already iac (bases/), unchanged
    ("config/scorecard/bases/config.yaml", "iac"),
    ("config/default/kustomization.yaml", "iac"),
    (".github/config/rbac/role.yaml", "ci"),                # a CI folder decides first
    ("ci/config/rbac/role.yaml", "ci"),
])
def test_kubebuilder_look_alikes_keep_their_bucket(rules: RuleSet, path: str, bucket: str) -> None:
    match = rules.match(path)
    assert match.bucket == bucket and match.rule != "iac.kubebuilder-config", (path, match)


def test_test_data_never_lowers_the_kubebuilder_layout(rules: RuleSet) -> None:
    # kubebuilder's own testdata projects (testdata/project-v4/config/rbac/role.yaml): test data lowers deps only.
    for path in ("testdata/project-v4/config/rbac/role.yaml", "test/fixtures/op/config/manager/manager.yaml"):
        match = rules.match(path)
        assert match.bucket == "iac", (path, match)


USERDATA_REAL = [
    "userdata_al2023.tpl",
    "userdata_nt.tpl",
    "modules/node-group/userdata_bottlerocket.tpl",
]
USERDATA_GENERATED = [f"{root}userdata{sep}{variant}.{ext}"
                      for root in ("", "modules/eks/")
                      for sep in ("_", "-")
                      for variant in ("al2023", "windows", "worker-node")
                      for ext in ("sh", "bash", "ps1", "tpl", "tmpl")]  # .tftpl is iac.terraform already


@each_case("path", sorted(set(USERDATA_REAL + USERDATA_GENERATED)))
def test_user_data_variants_are_iac(rules: RuleSet, path: str) -> None:
    match = rules.match(path)
    assert (match.bucket, match.rule) == ("iac", "iac.user-data"), (path, match)


@each_case(("path", "bucket"), [
    ("pkg/userdata_test.go", "src"),
    ("app/models/userdata_model.py", "src"),
    ("src/userdata_store.ts", "src"),
    ("userdata.json", "src"),
    ("docs/userdata_al2023.md", "src"),
    ("tests/userdata_fixture.yaml", "src"),
])
def test_user_data_look_alikes_keep_their_bucket(rules: RuleSet, path: str, bucket: str) -> None:
    match = rules.match(path)
    assert match.bucket == bucket and match.rule != "iac.user-data", (path, match)
