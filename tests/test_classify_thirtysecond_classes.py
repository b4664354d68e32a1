"""Classes of misses the thirty-second label set found (bench/classify_accuracy/thirtysecond.tsv: 62 repositories in
fifteen languages, many repositories and few files each, measured blind first), each with the look-alikes it must
leave alone: vcpkg's port recipes and a registry's version database (deps), CI definitions that generate or run
pipelines (mono_repo's `mono_repo.yaml`/`mono_pkg.yaml`, a folder named `azure-pipelines/` below the root with its
build-machine scripts and images), charts in `helm-chart/` and `helm-charts/<name>/`, Kubernetes objects in a
course's `kube-manifests*/` folders, compose environment files (`docker-compose-*.env`) and Dockerfiles named
`*-dockerfile`, SeedFarmer's `deployspec.yaml`, compose files an
end-to-end module's tests start from `src/test/resources/` (the test-tree rule must not lower them), and three
`other` kinds (an extension-less pull request template, Dart DevTools settings, GIMP images). The real repository
below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # vcpkg: port recipes (the registry's ports/ and a project's overlay ports) and the registry's version database
    ("ports/kubernetes/portfile.cmake", "deps", "deps.vcpkg.manifest"),
    ("cmake/overlay-ports/libfoo/portfile.cmake", "deps", "deps.vcpkg.manifest"),
    ("versions/k-/kubernetes.json", "deps", "deps.vcpkg.manifest"),
    ("versions/baseline.json", "deps", "deps.vcpkg.manifest"),
    ("versions/1.2/notes.json", "src", None), ("docs/versions/k-/list.json", "src", None),
    ("cmake/portfile.md", "src", None),
    ("vcpkg/overlays/libfoo/portfile.cmake", "deps", "deps.vcpkg.manifest"),
    # a portfile outside a ports or overlays folder is CMake code like any other (attack 19: a workflow's
    # `cmake -P .github/workflows/portfile.cmake` was deps, so the default gate allowed editing it)
    (".github/workflows/portfile.cmake", "ci", "ci.github-actions"),
    ("cmake/portfile.cmake", "src", None),
    # CI: mono_repo generates the GitHub workflows; an azure-pipelines/ folder at any depth
    ("mono_repo.yaml", "ci", "ci.other-systems"),
    ("pkgs/http/mono_pkg.yaml", "ci", "ci.other-systems"),
    ("docs/mono_repo.md", "src", None),
    ("scripts/azure-pipelines/linux/provision-image.sh", "ci", "ci.system-folders"),
    ("scripts/azure-pipelines/android/Dockerfile", "ci", "ci.system-folders"),
    ("docs/azure-pipelines.md", "src", None),
    # charts in helm-chart/ and helm-charts/<name>/
    ("helm-chart/templates/02-cluster-role.yaml", "iac", "iac.chart-templates"),
    ("helm-charts/app/templates/_helpers.tpl", "iac", "iac.chart-templates"),
    ("src/helm-chart.go", "src", None), ("docs/helm-chart/templates.md", "src", None),
    # Kubernetes objects in kube-manifests*/ (a course's lessons), k8s-manifests/
    ("05-Secrets/kube-manifests/05-mysql-clusterip-service.yml", "iac", "iac.kubernetes"),
    ("09-Fargate/kube-manifests-old/02-nginx-deployment.yml", "iac", "iac.kubernetes"),
    ("demo/k8s-manifests/app.yaml", "iac", "iac.kubernetes"),
    ("kube-manifests/README.md", "src", None),
    # compose environment files and Dockerfiles under another name
    ("scripts/docker/docker-compose-smp.env", "iac", "iac.containers"),
    ("deploy/docker-compose.env", "iac", "iac.containers"),
    ("lib/shared/web-crawler-dockerfile", "iac", "iac.containers"),
    (".env", "src", None), ("config/app.env", "src", None), ("docs/write-a-dockerfile.md", "src", None),
    # SeedFarmer's deployspec: the commands that deploy a module
    ("modules/chatbot/deployspec.yaml", "iac", "iac.aws"),
    ("modules/chatbot/spec.yaml", "src", None),
    # compose files and Dockerfiles an end-to-end module's tests start
    ("seatunnel-e2e/connector-druid-e2e/src/test/resources/docker-compose.yml", "iac", "iac.e2e-module-containers"),
    ("app-e2e/src/test/resources/compose.yaml", "iac", "iac.e2e-module-containers"),
    ("app-e2e/src/test/resources/images/Dockerfile", "iac", "iac.e2e-module-containers"),
    ("app-e2e/src/test/resources/config.yaml", "src", None),
    ("core/src/test/resources/docker-compose.yml", "iac", "iac.containers"),  # test data lowers deps only
    # other: an extension-less PR template, Dart DevTools settings, GIMP images
    (".github/PULL_REQUEST_TEMPLATE", "other", "other.github-community"),
    ("example/devtools_options.yaml", "other", "other.editor"),
    ("artwork/sticker.xcf", "other", "other.binary-assets"),
    ("src/devtools_options.dart", "src", None),
])
def test_path_rules_of_the_thirty_second_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


PORTFILE = """vcpkg_from_github(
    OUT_SOURCE_PATH SOURCE_PATH
    REPO example/libfoo
    REF "v${VERSION}"
    SHA512 0
    HEAD_REF main
)
vcpkg_cmake_configure(SOURCE_PATH "${SOURCE_PATH}")
vcpkg_cmake_install()
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
"""
MONO_REPO = """self_validate: analyze_and_format
github:
  on:
    push:
      branches: [main]
  cron: "0 0 * * 0"
merge_stages:
- analyze_and_format
"""
COMPOSE_ENV = """# Mandatory
ADDR=your.server.example
# Optional
#PASS=change-me
"""
E2E_COMPOSE = """services:
  broker:
    image: example/broker:2.1
    ports:
      - "8082:8082"
"""
PR_TEMPLATE = """### Why are the changes needed?

### How was this patch tested?
"""


def test_the_thirty_second_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a library with vcpkg ports, a compose deployment and an e2e module\n")
    git_repo.commit("base")
    texts = {
        "ports/libfoo/portfile.cmake": PORTFILE,
        "mono_repo.yaml": MONO_REPO,
        "scripts/docker/docker-compose-smp.env": COMPOSE_ENV,
        "shop-e2e/src/test/resources/docker-compose.yml": E2E_COMPOSE,
        "core/src/test/resources/docker-compose.yml": E2E_COMPOSE,
        ".github/PULL_REQUEST_TEMPLATE": PR_TEMPLATE,
    }
    want = {
        "ports/libfoo/portfile.cmake": "deps", "mono_repo.yaml": "ci",
        "scripts/docker/docker-compose-smp.env": "iac",
        "shop-e2e/src/test/resources/docker-compose.yml": "iac",
        "core/src/test/resources/docker-compose.yml": "iac",  # test data lowers deps only
        ".github/PULL_REQUEST_TEMPLATE": "other",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["shop-e2e/src/test/resources/docker-compose.yml"].rule == "iac.e2e-module-containers"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
