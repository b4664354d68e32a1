"""Classes of the recall misses left across the 30 labelled sets (the sweep13 round), each with the look-alikes it
must leave alone:

- Terraform in a test suite's `test/fixtures/` is the root module the suite applies (Kitchen-Terraform's
  `root_module_directory: test/fixtures/<name>`, Google's Terraform modules with their blueprint tests, Terratest's own
  fixtures with a `local-exec` provisioner): `iac`, not test data — test-data context never lowers iac. A parser's
  fixtures (`test-fixtures/`, `testdata/`) and the fixture folder's other files stay test data.
- The fixtures and testdata folders of end-to-end and acceptance suites hold what the suites apply to real clusters
  (Consul's acceptance fixtures deployed with kustomize, kops' and Kargo's e2e objects), as Cluster API's
  `test/e2e/data/` does: not final test data, content decides (a Kubernetes object is iac, a golden text output stays
  src), and a kustomization is iac by its name. A unit test's `testdata/` stays final test data.
- A committed Flutter web build bundles each dependency package's assets under `assets/packages/<package>/`, and
  NuGetForUnity installs NuGet packages into a Unity project's `Assets/Packages/`: `deps`, where a font, an image or a
  licence was `other` and a JSON file `src`; the app's own assets (`assets/assets/`) are not.

The real repository below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # Terraform root modules a test suite applies
    ("test/fixtures/secure_cloud_run/harness.tf", "iac", "iac.terraform-test-fixtures"),
    ("test/fixtures/ilb_routing/outputs.tf", "iac", "iac.terraform-test-fixtures"),
    ("test/fixtures/minimal/terraform.tfvars", "iac", "iac.terraform-test-fixtures"),
    ("test/fixtures/terraform-parallelism/main.tf", "iac", "iac.terraform-test-fixtures"),
    ("tests/fixtures/moved_resources/pre_0_7/storage/main.tf.json", "iac", "iac.terraform-test-fixtures"),
    ("modules/net/test/fixtures/shared/variables.tf", "iac", "iac.terraform-test-fixtures"),
    # look-alikes: the fixture folder's other files, parsers' fixtures and test data stay src
    ("test/fixtures/minimal/README.md", "src", None),
    ("test/fixtures/catalog/app/.gitkeep", "src", "testdata.test-trees"),
    ("test/fixtures/copy-folder-contents/foo.txt", "src", "testdata.test-trees"),
    ("test/fixtures/sample/config.json", "src", "testdata.test-trees"),
    ("terraform/test-fixtures/invalid_module_attribute/module/resource.tf", "iac", None),
    ("modules/terragrunt/testdata/terragrunt-multi-plan/foo/main.tf", "iac", None),
    ("internal/fixtures/main.tf", "iac", "iac.terraform"),  # not a test tree: Terraform, as before
    # end-to-end and acceptance suites' data: content decides, a kustomization by its name
    ("test/acceptance/tests/fixtures/bases/static-metrics-app/deployment.yaml", "src", "src.e2e-data"),
    ("test/acceptance/tests/fixtures/bases/static-metrics-app/kustomization.yaml", "iac", "iac.e2e-kustomizations"),
    ("acceptance/tests/fixtures/cases/static-client-inject/kustomization.yaml", "iac", "iac.e2e-kustomizations"),
    ("tests/e2e/scenarios/ai-conformance/validators/dra/testdata/cuda-smoketest.yaml", "src", "src.e2e-data"),
    ("hack/test/e2e/suites/promotion/testdata/kargo/0_project.yaml", "src", "src.e2e-data"),
    ("test/e2e/data/infrastructure-docker/main/cluster-template/kustomization.yaml", "iac", "iac.e2e-kustomizations"),
    # look-alikes: unit tests' test data and an acceptance suite's testdata stay final test data
    ("pkg/applier/testdata/manager_test/stack2/deploy.yaml", "src", "testdata.folders"),
    ("test/unit/testdata/kustomization.yaml", "iac", "iac.kubernetes"),
    ("manifest/test/acceptance/testdata/Deployment/deployment.tf", "iac", "iac.terraform"),
    ("e2e/scenarios/fixtures/02_step_failure.yaml", "src", None),  # a root e2e/ folder is not a test tree
    # dependency packages' assets in a committed Flutter web build
    ("public/assets/packages/font_awesome_flutter/lib/fonts/fa-brands-400.ttf", "deps",
     "deps.installed-asset-packages"),
    ("public/assets/packages/intl_phone_field/assets/flags/ad.png", "deps", "deps.installed-asset-packages"),
    ("build/web/assets/packages/window_manager/images/ic_chrome_close.png", "deps", "deps.installed-asset-packages"),
    ("src/Game.Unity/Assets/Packages/Microsoft.Bcl.AsyncInterfaces.8.0.0/LICENSE.TXT", "deps",
     "deps.installed-asset-packages"),
    ("src/Game.Unity/Assets/Packages/System.Text.Json.8.0.0/lib/netstandard2.0/System.Text.Json.dll", "deps",
     "deps.installed-asset-packages"),
    # look-alikes: the app's own assets, a file named packages, a CI folder's and a test tree's copies keep theirs
    ("public/assets/assets/images/icon.png", "other", "other.binary-assets"),
    ("public/assets/FontManifest.json", "src", None),
    ("assets/packages.json", "src", None),
    ("web/assets/packages/README.md", "src", "docs.readme"),
    (".github/workflows/assets/packages/lint/check.yml", "ci", None),
    ("deploy/assets/packages/web/values.yaml", "iac", None),
    ("test/fixtures/assets/packages/icons/logo.png", "src", None),
])
def test_path_rules_of_the_sweep13_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


HARNESS_TF = """module "cloud_run" {
  source     = "../../../modules/secure-cloud-run"
  project_id = var.project_id
  region     = "us-central1"
}

resource "null_resource" "wait_for_service" {
  provisioner "local-exec" {
    command = "gcloud run services describe ${module.cloud_run.service_name} --region us-central1"
  }
}
"""

VARIABLES_TF = """variable "project_id" {
  description = "The project the fixture deploys into"
  type        = string
}
"""

KITCHEN = """driver:
  name: terraform
provisioner:
  name: terraform
verifier:
  name: terraform
platforms:
  - name: default
suites:
  - name: secure_cloud_run
    driver:
      root_module_directory: test/fixtures/secure_cloud_run
"""

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: static-metrics-app
spec:
  replicas: 1
  selector:
    matchLabels:
      app: static-metrics-app
  template:
    metadata:
      labels:
        app: static-metrics-app
    spec:
      containers:
        - name: static-metrics-app
          image: docker.mirror.hashicorp.services/hashicorpdev/static-metrics:latest
          ports:
            - containerPort: 9090
"""

KUSTOMIZATION = "resources:\n  - deployment.yaml\n"

GOLDEN = "kind create cluster --config ./kind.yaml --name kwok-test\nkubectl apply -f ./kwok.yaml\n"

FONT = b"\x00\x01\x00\x00\x00\x0f\x00\x80\x00\x03\x00pFFTM\x8a\x9b\xc3\x1d"


def test_the_sweep13_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a Cloud Run module with its integration tests and a committed web client\n")
    git_repo.write("kitchen.yml", KITCHEN)
    git_repo.write("main.tf", 'resource "google_cloud_run_service" "main" {\n  name = var.name\n}\n')
    git_repo.commit("base")
    git_repo.write("test/acceptance/tests/fixtures/bases/static-metrics-app/deployment.yaml", DEPLOYMENT)
    git_repo.write("test/acceptance/tests/fixtures/bases/static-metrics-app/kustomization.yaml", KUSTOMIZATION)
    git_repo.write("test/e2e/kwokctl/dryrun/testdata/kind/create_cluster.txt", GOLDEN)
    git_repo.write("pkg/applier/testdata/stack/deploy.yaml", DEPLOYMENT)
    git_repo.write("test/fixtures/secure_cloud_run/harness.tf", HARNESS_TF)
    git_repo.write("test/fixtures/secure_cloud_run/variables.tf", VARIABLES_TF)
    git_repo.write("test/fixtures/secure_cloud_run/expected.json", '{"service": "hello"}\n')
    git_repo.write("terraform/test-fixtures/parse/resource.tf", VARIABLES_TF)
    git_repo.write("public/assets/packages/font_awesome_flutter/lib/fonts/fa-brands-400.ttf", FONT)
    git_repo.write("public/assets/packages/intl_phone_field/assets/countries.json", '[{"code": "AD"}]\n')
    git_repo.write("public/assets/assets/images/icon.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    git_repo.commit("head")
    want = {
        "test/acceptance/tests/fixtures/bases/static-metrics-app/deployment.yaml": "iac",
        "test/acceptance/tests/fixtures/bases/static-metrics-app/kustomization.yaml": "iac",
        "test/e2e/kwokctl/dryrun/testdata/kind/create_cluster.txt": "src",
        "pkg/applier/testdata/stack/deploy.yaml": "iac",  # an object in test data: deps only are lowered
        "test/fixtures/secure_cloud_run/harness.tf": "iac",
        "test/fixtures/secure_cloud_run/variables.tf": "iac",
        "test/fixtures/secure_cloud_run/expected.json": "src",
        "terraform/test-fixtures/parse/resource.tf": "iac",  # a .tf file: test data lowers deps only
        "public/assets/packages/font_awesome_flutter/lib/fonts/fa-brands-400.ttf": "deps",
        "public/assets/packages/intl_phone_field/assets/countries.json": "deps",
        "public/assets/assets/images/icon.png": "other",
    }
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["test/fixtures/secure_cloud_run/harness.tf"].rule == "iac.terraform-test-fixtures"
    assert files["test/acceptance/tests/fixtures/bases/static-metrics-app/deployment.yaml"].rule == \
        "iac.content.kubernetes"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
