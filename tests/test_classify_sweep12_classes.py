"""Classes of the recall misses left across the 29 labelled sets (the sweep12 round), each with the look-alikes it
must leave alone: a committed patch file (`*.patch`) is a change a build applies to a dependency's sources — pnpm's
and Yarn's patchedDependencies, patch-package, vcpkg's and Conan's PATCHES, Bazel's http_archive patches, a Nix
derivation's patches — so it is `deps` wherever it sits (a patch of a nix dependency at the root, patches of a vendored
llama.cpp), after every ci and iac rule (a CI folder's patch stays ci, an Ansible role's `files/` patch stays iac) and
after test data (a diff tool's test inputs, a test tree's expected output stay src). The name is a weak rule
(gatekeeper/classify/weakrules.py): a patch that a Terraform module applies, that a Helm chart or a Salt state holds,
or that a kustomization names is what that project deploys, iac, as it was before the rule. The real repositories
below check them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # patches a build applies to a dependency's sources
    ("nix-eval-jobs-unstable.patch", "deps", "deps.patch-files"),
    ("llama/compat/models/003-llama-cpp-metal-kernels.patch", "deps", "deps.patch-files"),
    ("build/openresty/patches/LuaJIT-2.1-pass-cc-env.patch", "deps", "deps.patch-files"),
    ("res/vcpkg/ffmpeg/patch/0001-avcodec-amf-hevc.patch", "deps", "deps.patch-files"),
    ("config/patches/ruby/thread-memory-allocations.patch", "deps", "deps.patch-files"),
    ("tools/vendoring/patches/urllib3.patch", "deps", "deps.patch-files"),
    # look-alikes: what an earlier rule names keeps its bucket
    (".github/scripts/skew-patches/0001-remove-test.patch", "ci", None),  # a CI folder keeps everything
    ("ci/patches/runner.patch", "ci", None),
    ("deploy/patches/ingress.patch", "iac", "iac.folders"),  # the deploy folder stays iac
    ("apps/frontend/deployment.patch.yaml", "src", None),  # a kustomize patch is YAML, read by its context
    ("diff/testdata/addeofnewline.patch", "src", None),  # test data
    ("pkg/patching/__fixtures__/applicable.patch", "src", None),
    ("tests/print_schema/postgres/schema.patch", "src", "src.own-patch-files"),  # a test's expected output
    ("cabal-testsuite/PackageTests/SDist/cabal.sub-rs.patch", "src", "src.own-patch-files"),
    ("debian/patches/01-fix-build.patch", "src", "src.own-patch-files"),  # a Debian series patches its own source
    ("patches/fix-build.patch", "deps", "deps.patch-files"),  # no package name and version: still a committed patch
    ("etc/examples/125-merge-conflict-1.diff", "src", None),  # .diff files are left out
    ("docs/patching.md", "src", None),
    ("src/patch.go", "src", None), ("lib/patches.rb", "src", None),
])
def test_path_rules_of_the_sweep12_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


NIX_PATCH = """diff --git a/src/nix-eval-jobs.cc b/src/nix-eval-jobs.cc
index 3b1c2a4..9f0e7d1 100644
--- a/src/nix-eval-jobs.cc
+++ b/src/nix-eval-jobs.cc
@@ -212,7 +212,7 @@ static void worker(ref<EvalState> state, Bindings &autoArgs)
-            auto drvPath = drv->queryDrvPath();
+            auto drvPath = drv->requireDrvPath();
             reply["drvPath"] = state->store->printStorePath(drvPath);
"""

ROLE_PATCH = """--- a/usr/lib/python3/dist-packages/cloudinit/features.py
+++ b/usr/lib/python3/dist-packages/cloudinit/features.py
@@ -59,7 +59,7 @@
-NETPLAN_CONFIG_ROOT_READ_ONLY = True
+NETPLAN_CONFIG_ROOT_READ_ONLY = False
"""

ROLE_TASKS = """- name: Patch cloud-init feature flags
  ansible.posix.patch:
    src: cloud-init-features.patch
    basedir: /
    strip: 0
"""


def test_the_sweep12_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a deployment tool with its patched dependencies\n")
    git_repo.write("roles/providers/meta/main.yml", "galaxy_info:\n  role_name: providers\n  author: ops\n")
    git_repo.write("roles/providers/tasks/main.yml", ROLE_TASKS)
    git_repo.commit("base")
    texts = {
        "nix-eval-jobs-unstable.patch": NIX_PATCH,
        "roles/providers/files/cloud-init-features.patch": ROLE_PATCH,
        "tests/expected/schema.patch": NIX_PATCH,
        "src/patch.go": "package patch\n\nfunc Apply() error { return nil }\n",
    }
    want = {
        "nix-eval-jobs-unstable.patch": "deps",
        "roles/providers/files/cloud-init-features.patch": "iac",  # the role copies its files/ as they are
        "tests/expected/schema.patch": "src",
        "src/patch.go": "src",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["nix-eval-jobs-unstable.patch"].rule == "deps.patch-files"
    patched = patch_files(git_repo, tmp_path)
    assert patched["nix-eval-jobs-unstable.patch"].bucket == "deps"
    assert patched["tests/expected/schema.patch"].bucket == "src"


MODULE_TF = """resource "null_resource" "kernel" {
  triggers = { patch = filemd5("${path.module}/sysctl.patch") }

  provisioner "local-exec" {
    command = "patch -p1 -d /etc < ${path.module}/sysctl.patch"
  }
}
"""

SALT_STATE = """nginx:
  pkg.installed: []

/etc/nginx/nginx.conf:
  file.patch:
    - source: salt://nginx/files/worker-limits.patch
    - require:
      - pkg: nginx
"""


def test_a_patch_a_deployment_applies_stays_iac(git_repo: GitRepo, tmp_path: Path) -> None:
    # deps.patch-files is weak: the readers and markers that made such a patch iac before the rule still do.
    git_repo.write("README.md", "# hosts and their patched settings\n")
    git_repo.write("modules/host/main.tf", MODULE_TF)
    git_repo.write("web/chart/Chart.yaml", "apiVersion: v2\nname: web\nversion: 0.3.1\n")
    git_repo.write("salt/nginx/init.sls", SALT_STATE)
    git_repo.commit("base")
    for path in ("modules/host/sysctl.patch", "web/chart/patches/upstream-probe.patch",
                 "salt/nginx/files/worker-limits.patch", "third_party/zlib-cve.patch"):
        git_repo.write(path, ROLE_PATCH)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: (f.bucket, f.rule) for path, f in files.items() if path.endswith(".patch")} == {
        "modules/host/sysctl.patch": ("iac", "iac.context.terraform-file"),
        "web/chart/patches/upstream-probe.patch": ("iac", "iac.marker.helm-chart"),
        "salt/nginx/files/worker-limits.patch": ("iac", "iac.config-management"),
        "third_party/zlib-cve.patch": ("deps", "deps.vendored"),
    }
    # A patch alone shows neither the Terraform file nor the Chart.yaml: the name's deps, more than the src of before.
    patched = patch_files(git_repo, tmp_path)
    assert patched["modules/host/sysctl.patch"].bucket == "deps"
    assert patched["web/chart/patches/upstream-probe.patch"].bucket == "deps"
