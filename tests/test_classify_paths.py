"""The shipped rules on realistic paths: each principle, each ecosystem, each CI system, each tag."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify import RuleSet, load_rules

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


def check(rules: RuleSet, path: str, bucket: str, rule: str | None = None) -> None:
    match = rules.match(path)
    assert match.bucket == bucket, f"{path}: {match.bucket} by {match.rule}, expected {bucket}"
    if rule is not None:
        assert match.rule == rule, f"{path}: decided by {match.rule}, expected {rule}"


# -- the proposal's three mistakes --------------------------------------------------------------


@each_case(
    ("path", "bucket"),
    [("src/k8sclient.go", "src"), ("Jenkinsfile", "ci"), (".circleci/config.yml", "ci")],
)
def test_the_proposals_mistakes(rules: RuleSet, path: str, bucket: str) -> None:
    check(rules, path, bucket)


# -- 1. test data is not live ------------------------------------------------------------------

TEST_DATA = [
    "require-labels/.chainsaw-test/chainsaw-test.yaml",
    "crates/oxc_linter/fixtures/import/node_modules/acorn/acorn.mjs",  # a linter's import fixture package
    "tests/Aspire.Hosting.Kubernetes.Tests/Snapshots/env2/Deployment.verified.yaml",  # Verify's snapshot of a test
    "tests/integration/targets/setup_docker/files/daemon.json",
    "pkg/parser/testdata/.github/workflows/ci.yml",  # GitHub runs only the root's workflows: its content decides
    "src/__fixtures__/package.json",
    "tests/fixtures/projects/app/Cargo.lock",
    "spec/fixtures/files/Gemfile.lock",
    "tests/cases/circleci/.circleci/config.yml",
    "lib/rules/__testfixtures__/package.json",
    "test-cases/ci/params.json",
    "src/Api.Tests/Snapshots/OrderTests.Renders.verified.txt",  # Verify's snapshot of a test's output
    "tests/testthat/dummy_packages/a/DESCRIPTION", "test/pkgs/PkgChange_v1/Project.toml",  # the eighty-fifth set
    "spec/samples/bad.rockspec",
]


@each_case("path", TEST_DATA)
def test_test_data_is_src(rules: RuleSet, path: str) -> None:
    match = rules.match(path)
    assert match.bucket == "src" and match.rule.startswith("testdata."), (path, match)
    assert "lockfile" not in match.tags and "manifest" not in match.tags


# Test-data context lowers deps, never ci or iac (issue 12 item 6): where a ci or iac rule below the test-data rules
# also names the file, it decides (a Dockerfile, a Terraform file, a playbook's tasks, Helm values in a test's data).
TEST_DATA_CI_IAC = [
    ("tests/Aspire.Hosting.Kubernetes.Tests/Snapshots/env2/values.verified.yaml", "iac.helm"),  # Verify's snapshot
    ("openshift/check-routes/.kyverno-test/resources.yaml", "iac.kubernetes"),
    ("test/integration/targets/copy/tasks/main.yml", "iac.ansible"),  # ansible-test runs the target's tasks
    ("testdata/Dockerfile", "iac.containers"),
    ("internal/hcl/testdata/main.tf", "iac.terraform"),
    ("packages/cli/src/__tests__/fixtures/Jenkinsfile", "ci.jenkins"),
    ("test/fixtures/.gitlab-ci.yml", "ci.gitlab"),
    ("tests/data/docker-compose.yml", "iac.containers"),
    ("test/integration/data/values.yaml", "iac.helm"),
    ("src/test/resources/k8s/deployment.yaml", "iac.kubernetes"),
    ("test-cases/terraform/main.tf", "iac.terraform"),
    ("web/__snapshots__/Dockerfile.snap", "iac.containers"),  # a Dockerfile's snapshot: the safe side
]


@each_case(("path", "rule"), TEST_DATA_CI_IAC)
def test_test_data_never_lowers_a_ci_or_iac_rule(rules: RuleSet, path: str, rule: str) -> None:
    match = rules.match(path)
    assert (match.bucket, match.rule) == (rule.partition(".")[0], rule), (path, match)
    hits = rules.explain(path)  # --explain agrees: the ci/iac rule decides, the test-data rule is shown below it
    assert hits[0].rule.id == rule and hits[0].decides and not any(hit.decides for hit in hits[1:]), path
    assert any(hit.rule.id.startswith("testdata.") for hit in hits[1:]), path


VENDORED = [
    "vendor/github.com/pkg/errors/errors.go",
    "third_party/zlib/inflate.c",
    "services/api/vendor/github.com/pkg/errors/errors.go",  # vendored code is deps wherever it sits
    "vendor/bundle/ruby/3.3.0/gems/rake-13.1.0/lib/rake.rb",
    "vendor/github.com/x/y/Dockerfile",  # part of a vendored module, not an image we build
    "vendor/github.com/x/y/go.mod",  # a vendored module's manifest is not one of ours: no manifest tag
    "app/assets/vendor/leaflet/leaflet.js",
    "src/Web/wwwroot/lib/jquery/dist/jquery.min.js",  # LibMan and Bower client libraries
    "timoni/podinfo/cue.mod/gen/k8s.io/api/core/v1/types_go_gen.cue",
    "cue.mod/pkg/github.com/x/schema/schema.cue",
]


@each_case("path", VENDORED)
def test_vendored_code_is_deps(rules: RuleSet, path: str) -> None:
    match = rules.match(path)
    assert (match.bucket, match.rule, match.ecosystem) == ("deps", "deps.vendored", "vendored"), (path, match)
    assert not match.tags & {"manifest", "lockfile"}, (path, match)


# A nested third_party/ and a web app's vendors/ folder: deps after the CI and IaC rules (attack 14: a deployment's
# `deploy/third_party/cert-manager/kustomization.yaml` is iac; tests/test_attack14_vendored_depth.py).
VENDORED_NESTED = ["pkg/plugin/physics/third_party/box2d/src/contact.c", "web/static/vendors/jquery/jquery.min.js",
                   "3rdparty/dawn/src/tint/tint.h", "test/googletest-1.16.0/LICENSE",
                   "wp-includes/js/jquery/jquery.min9d52.js"]  # jQuery by its name (misses 6)


@each_case("path", VENDORED_NESTED)
def test_nested_vendored_code_is_deps(rules: RuleSet, path: str) -> None:
    match = rules.match(path)
    assert (match.bucket, match.rule, match.ecosystem) == ("deps", "deps.vendored-nested", "vendored"), (path, match)


# A framework an application copies in under its own name (CodeIgniter's system/; the sixty-third set).
VENDORED_FRAMEWORKS = ["system/libraries/Parser.php", "system/helpers/url_helper.php"]


@each_case("path", VENDORED_FRAMEWORKS)
def test_copied_frameworks_are_deps(rules: RuleSet, path: str) -> None:
    match = rules.match(path)
    expected = ("deps", "deps.vendored-codeigniter", "vendored")
    assert (match.bucket, match.rule, match.ecosystem) == expected, (path, match)


INSTALLED = [
    ("node_modules/left-pad/index.js", "npm", "deps.npm.installed"),
    ("node_modules/left-pad/package.json", "npm", "deps.npm.installed"),  # not one of our manifests
    ("web/node_modules/.package-lock.json", "npm", "deps.npm.installed"),
    ("packages/ui/node_modules/react/cjs/react.production.min.js", "npm", "deps.npm.installed"),
    (".yarn/cache/lodash-npm-4.17.21-6382451519-eb835a2e51.zip", "npm", "deps.npm.installed"),
    (".yarn/unplugged/esbuild-npm-0.20.0-abc/node_modules/esbuild/bin/esbuild", "npm", "deps.npm.installed"),
    (".pnp.loader.mjs", "npm", "deps.npm.installed"),
    ("Pods/Alamofire/Source/Session.swift", "cocoapods", "deps.cocoapods.installed"),
    ("ios/Pods/Manifest.lock", "cocoapods", "deps.cocoapods.installed"),
    ("Carthage/Checkouts/Alamofire/Source/Session.swift", "carthage", "deps.carthage.installed"),
    ("node_modules/resolve/test/resolver/node_modules/dep/index.js", "vendored", "deps.vendored-test-data"),
]


@each_case(("path", "ecosystem", "rule"), INSTALLED)
def test_committed_dependency_code_is_deps(rules: RuleSet, path: str, ecosystem: str, rule: str) -> None:
    match = rules.match(path)
    assert (match.bucket, match.rule, match.ecosystem) == ("deps", rule, ecosystem), (path, match)
    assert not match.tags & {"manifest", "lockfile"}, (path, match)


def test_a_fixtures_folder_outside_test_trees_is_not_test_data(rules: RuleSet) -> None:
    check(rules, "fixtures/Dockerfile", "iac")
    check(rules, "app/fixtures/package.json", "deps")


# -- 2. shipped templates and docs are src ----------------------------------------------------


DOCS = [
    "www/content/resources/cookbooks/release-a-library.md",
    "docs/README.tmpl",  # the template a README is generated from (fourteenth label set)
    "conf/base/catalog.yml",  # a Kedro project's data catalog (src.kedro-config, thirty-fourth label set)
    "pkg/clients/kube/corev1/pods/resource.generated.go",  # Go code in a pods/ package (eighteenth label set)
    ".github/workflows/README.md",
    ".circleci/README.md",
    "ci/README",
    "charts/web/README.md",
    "deploy/readme.txt",
    "railties/lib/rails/generators/rails/app/templates/Dockerfile.tt",
    "railties/lib/rails/generators/rails/app/templates/github/ci.yml.tt",
    "lib/generators/templates/Gemfile.tt",
    "_templates/service/new/Dockerfile.ejs.t",  # Hygen's generator templates (seventy-ninth label set)
    "priv/templates/phx.gen.release/Dockerfile.eex",
    "installer/templates/phx_single/config/dev.exs.eex",
    "template/{{cookiecutter.project_slug}}/.github/workflows/ci.yml",
    "man/gatekeeper.1",
    "docs/man/git-gate.1.md",
    "docs/ci.md",
    "docs/deploy/kubernetes.md",
    # README documents stay src even in CI and IaC folders: no CI system loads them
    ".gitlab/ci/README.md",
    ".woodpecker/README.rst",
    ".github/actions/setup/README.md",
    ".buildkite/README.adoc",
    "ci/README.txt",
    "charts/web/templates/README.md",
    "README.zh-CN.md",
    "docs/README-deploy.md",
    "man/man1/gatekeeper.1",
]


@each_case("path", DOCS)
def test_templates_and_docs_are_src(rules: RuleSet, path: str) -> None:
    check(rules, path, "src")


# -- 3. dependencies, every major ecosystem ----------------------------------------------------

DEPS = [
    ("vendor/github.com/onsi/gomega/matchers/test_data/xml/sample_02.xml", "vendored", None),  # vendored test data
    ("chef/Cheffile", "chef", "manifest"),
    ("public/assets/packages/font_awesome_flutter/lib/fonts/fa-solid-900.ttf", "vendored", None),  # Flutter web build
    ("firmware/platformio.ini", "other", "manifest"),
    ("west.yml", "other", "manifest"),
    ("symfony.lock", "other", "lockfile"), ("zig.mod", "other", "manifest"),
    ("nix-eval-jobs-unstable.patch", "vendored", None),  # a patch a build applies to a dependency's sources
    ("formal-verification/fizzbee.sha256", "other", None),  # the checksum pin of a downloaded tool
    ("gradle/publishing.gradle", "gradle", "manifest"),
    ("settings-docker.gradle", "gradle", "manifest"),
    ("tests/XHarness/XHarness.TestApks.proj", "nuget", "manifest"),
    ("db/Warehouse.sqlproj", "nuget", "manifest"),
    ("chef/Cheffile.lock", "chef", "lockfile"),
    # (path, ecosystem, tag)
    ("package.json", "npm", "manifest"),
    ("packages/web/package.json", "npm", "manifest"),
    (".github/actions/setup/package.json", "npm", "manifest"),
    ("package-lock.json", "npm", "lockfile"),
    ("npm-shrinkwrap.json", "npm", "lockfile"),
    ("yarn.lock", "npm", "lockfile"),
    (".yarnrc.yml", "npm", None),
    (".yarn/releases/yarn-4.1.0.cjs", "npm", "toolchain"),
    ("pnpm-lock.yaml", "npm", "lockfile"),
    ("common/config/rush/shrinkwrap.yaml", "npm", "lockfile"),
    ("pnpm-workspace.yaml", "npm", "manifest"),
    ("bun.lockb", "npm", "lockfile"),
    ("bun.lock", "npm", "lockfile"),
    (".npmrc", "npm", None),
    ("provision/playbooks/templates/.npmrc", "other", None),  # a playbook installs it (weak, seventy-second set)
    (".nvmrc", "npm", "toolchain"),
    (".node-version", "npm", "toolchain"),
    ("deno.lock", "deno", "lockfile"),
    ("requirements.txt", "pip", "manifest"),
    ("requirements-dev.txt", "pip", "manifest"),
    ("requirements/base.txt", "pip", "manifest"),
    ("docs/requirements.txt", "pip", "manifest"),
    (".github/workflows/requirements.txt", "pip", "manifest"),
    ("requirements.in", "pip", "manifest"),
    ("constraints.txt", "pip", "manifest"),
    ("Pipfile", "pip", "manifest"),
    ("Pipfile.lock", "pip", "lockfile"),
    ("pyproject.toml", "pip", "manifest"),
    ("poetry.lock", "pip", "lockfile"),
    ("uv.lock", "pip", "lockfile"),
    ("pdm.lock", "pip", "lockfile"),
    ("setup.py", "pip", "manifest"),
    ("setup.cfg", "pip", "manifest"),
    (".python-version", "pip", "toolchain"),
    ("go.mod", "go", "manifest"),
    ("tools/go.mod", "go", "manifest"),
    ("go.sum", "go", "lockfile"),
    ("go.work", "go", "manifest"),
    ("go.work.sum", "go", "lockfile"),
    ("vendor/modules.txt", "go", "lockfile"),
    ("Cargo.toml", "cargo", "manifest"),
    ("crates/core/Cargo.toml", "cargo", "manifest"),
    ("Cargo.lock", "cargo", "lockfile"),
    ("rust-toolchain", "cargo", "toolchain"),
    ("rust-toolchain.toml", "cargo", "toolchain"),
    (".cargo/config.toml", "cargo", None),
    ("supply-chain/imports.lock", "cargo", None),  # cargo-vet's store: which versions pass `cargo vet`
    ("build.rs", "other", None),  # deps.build-hooks, weak (red team 37): the code cargo runs before the build
    ("crates/core/build.rs", "other", None),
    ("native/css/build.zig", "other", None),
    ("Setup.hs", "other", None),
    ("ext/fast/extconf.rb", "other", None),
    ("binding.gyp", "other", None),
    ("pdm_build.py", "other", None),
    ("config.nims", "other", None),
    ("Gemfile", "bundler", "manifest"),
    ("Gemfile-ci.yml", "bundler", "manifest"),  # deps.bundler.fragments, weak (attack 30)
    ("Gemfile.lock", "bundler", "lockfile"),
    ("gatekeeper.gemspec", "bundler", "manifest"),
    (".ruby-version", "bundler", "toolchain"),
    ("pom.xml", "maven", "manifest"),
    ("services/api/pom.xml", "maven", "manifest"),
    (".mvn/wrapper/maven-wrapper.properties", "maven", "toolchain"),
    ("mvnw", "maven", "toolchain"),
    ("build.gradle", "gradle", "manifest"),
    ("app/build.gradle.kts", "gradle", "manifest"),
    ("settings.gradle.kts", "gradle", "manifest"),
    ("gradle.properties", "gradle", None),
    ("app/dependencies/releaseRuntimeClasspath.txt", "gradle", None),  # dependency-guard's baseline (weak: attack 34)
    ("gradle/libs.versions.toml", "gradle", "manifest"),
    ("gradle/wrapper/gradle-wrapper.properties", "gradle", "toolchain"),
    ("gradle/wrapper/gradle-wrapper.jar", "gradle", "toolchain"),
    ("gradlew", "gradle", "toolchain"),
    ("gradle.lockfile", "gradle", "lockfile"),
    ("gradle/verification-metadata.xml", "gradle", "lockfile"),
    ("composer.json", "composer", "manifest"),
    ("composer.lock", "composer", "lockfile"),
    ("src/App/App.csproj", "nuget", "manifest"),
    ("Directory.Packages.props", "nuget", "manifest"),
    ("Directory.Build.props", "nuget", "manifest"),
    ("NuGet.Config", "nuget", None),
    ("packages.config", "nuget", "manifest"),
    ("packages.lock.json", "nuget", "lockfile"),
    ("paket.lock", "nuget", "lockfile"),
    ("global.json", "nuget", "toolchain"),
    (".config/dotnet-tools.json", "nuget", "manifest"),
    ("mix.exs", "mix", "manifest"),
    ("mix.lock", "mix", "lockfile"),
    ("apps/web/mix.exs", "mix", "manifest"),
    ("Package.swift", "swiftpm", "manifest"),
    ("Package.resolved", "swiftpm", "lockfile"),
    ("App.xcworkspace/xcshareddata/swiftpm/Package.resolved", "swiftpm", "lockfile"),
    ("Podfile", "cocoapods", "manifest"),
    ("ios/Podfile.lock", "cocoapods", "lockfile"),
    ("MyLib.podspec", "cocoapods", "manifest"),
    ("Cartfile", "carthage", "manifest"),
    ("Cartfile.resolved", "carthage", "lockfile"),
    ("pubspec.yaml", "pub", "manifest"),
    ("pubspec.lock", "pub", "lockfile"),
    (".fvmrc", "pub", "toolchain"),
    ("vcpkg.json", "vcpkg", "manifest"),
    ("vcpkg-configuration.json", "vcpkg", "manifest"),
    ("triplets/community/x64-linux-dynamic.cmake", "vcpkg", None),
    ("dep/vcpkg-overlay-triplets/x86-windows-static.cmake", "vcpkg", None),
    ("renv/activate.R", "other", None),
    ("conanfile.txt", "conan", "manifest"),
    ("conanfile.py", "conan", "manifest"),
    ("conan.lock", "conan", "lockfile"),
    ("flake.nix", "nix", "manifest"),
    ("flake.lock", "nix", "lockfile"),
    ("MODULE.bazel", "bazel", "manifest"),
    ("MODULE.bazel.lock", "bazel", "lockfile"),
    ("subprojects/zlib.wrap", "meson", "manifest"),
    ("WORKSPACE", "bazel", "manifest"),
    (".bazelversion", "bazel", "toolchain"),
    ("pants.toml", "other", "toolchain"),
    ("maven_install.json", "bazel", "lockfile"),
    ("charts/web/Chart.lock", "helm", "lockfile"),
    (".terraform.lock.hcl", "terraform", "lockfile"),
    ("infra/prod/.terraform.lock.hcl", "terraform", "lockfile"),
    (".terraform-version", "terraform", "toolchain"),
    ("requirements.yml", "ansible", "manifest"),
    ("ansible/roles/requirements.yml", "ansible", "manifest"),
    ("collections/requirements.yml", "ansible", "manifest"),
    ("galaxy.yml", "ansible", "manifest"),
    ("stack.yaml.lock", "haskell", "lockfile"),
    (".tool-versions", "toolchain", "toolchain"),
    ("mise.toml", "toolchain", "toolchain"),
    ("bin/hermit.hcl", "toolchain", "toolchain"),
    ("bin/.go-1.26.5.pkg", "toolchain", "toolchain"),
    (".gitmodules", "git-submodule", "manifest"),
    ("deno.json", "deno", "manifest"),
    (".go-version", "go", "toolchain"),
    (".java-version", "jvm", "toolchain"),
    (".swift-version", "swiftpm", "toolchain"),
    (".swiftpm/configuration/mirrors.json", "swiftpm", None),
    ("charts/legacy/requirements.yaml", "helm", "manifest"),
    ("cookbooks/web/Berksfile", "chef", "manifest"),
    ("Policyfile.lock.json", "chef", "lockfile"),
    ("app.cabal", "haskell", "manifest"),
    ("stack.yaml", "haskell", "manifest"),
    ("stack-9.10.yaml", "haskell", "manifest"),
    ("stack-9.10.yaml.lock", "haskell", "lockfile"),
    ("Project.toml", "other", "manifest"),
    ("Manifest.toml", "other", "lockfile"),
    ("cpanfile", "other", "manifest"),
    ("build.zig.zon", "other", "manifest"),
    (".bundle/config", "bundler", None),
    # committed and nested dependency files (review of issue 3)
    (".pnp.cjs", "npm", "lockfile"),
    (".yarnrc", "npm", None),
    ("bunfig.toml", "npm", None),
    ("jsr.json", "deno", "manifest"),
    ("deno.jsonc", "deno", "manifest"),
    ("dev-requirements.txt", "pip", "manifest"),
    ("test-requirements.txt", "pip", "manifest"),
    ("docs_requirements.txt", "pip", "manifest"),
    ("requirements_dev.txt", "pip", "manifest"),
    ("requirements/test.txt", "pip", "manifest"),
    ("services/api/requirements/prod.txt", "pip", "manifest"),
    ("dev-requirements.in", "pip", "manifest"),
    ("backend/constraints.txt", "pip", "manifest"),
    ("pip.conf", "pip", None),
    ("pip.ini", "pip", None),
    (".condarc", "pip", None),
    ("poetry.toml", "pip", None),
    ("uv.toml", "pip", None),
    ("build.sbt", "sbt", "manifest"),
    ("project/plugins.sbt", "sbt", "manifest"),
    ("modules/core/build.sbt", "sbt", "manifest"),
    ("build.sbt.lock", "sbt", "lockfile"),
    ("project/build.properties", "sbt", "toolchain"),
    ("Gopkg.toml", "go", "manifest"),
    ("Gopkg.lock", "go", "lockfile"),
    ("glide.yaml", "go", "manifest"),
    ("glide.lock", "go", "lockfile"),
    ("gleam.toml", "other", "manifest"),
    ("manifest.toml", "other", "lockfile"),  # Gleam's lock; the same name as Julia's Manifest.toml
    ("dune-project", "other", "manifest"),
    ("gatekeeper.opam", "other", "manifest"),
    ("gatekeeper.opam.locked", "other", "lockfile"),
    (".mvn/maven.config", "maven", None),
    # issue 12, item 5: the renovate managers and infrastructure ecosystems the rules missed
    ("Puppetfile", "puppet", "manifest"),
    ("Puppetfile.lock", "puppet", "lockfile"),
    ("kcl.mod", "kcl", "manifest"),
    ("kcl.mod.lock", "kcl", "lockfile"),
    ("jsonnetfile.json", "jsonnet", "manifest"),
    ("jsonnetfile.lock.json", "jsonnet", "lockfile"),
    ("vendir.yml", "vendir", "manifest"),
    ("vendir.lock.yml", "vendir", "lockfile"),
    ("helmfile.lock", "helmfile", "lockfile"),
    ("requirements.ansible.yml", "ansible", "manifest"),
    ("requirements-test.pip", "pip", "manifest"),
    (".github/cibuildwheel-requirement.txt", "pip", "manifest"),  # the singular (seventy-eighth set)
    ("runtime.txt", "pip", "toolchain"),
    ("services/api/pom.template.xml", "maven", "manifest"),
    ("src/main/features/app.json", "maven", "manifest"),
    ("settings.xml", "maven", None),
    ("gradle/deps.toml", "gradle", "manifest"),
    ("buildSrc/src/main/kotlin/Dependencies.kt", "gradle", "manifest"),
    ("versions.lock", "gradle", "lockfile"),
    ("project/Dependencies.scala", "sbt", "manifest"),
    ("dotnet-tools.json", "nuget", "manifest"),
    ("src/Lib/Lib.nuspec", "nuget", "manifest"),
    ("build.cake", "nuget", "manifest"),
    ("pubspec.yml", "pub", "manifest"),
    ("devenv.nix", "nix", "manifest"),
    ("shell.nix", "nix", "manifest"),
    ("devenv.lock", "nix", "lockfile"),
    ("gomod2nix.toml", "nix", "lockfile"),
    ("bazel/deps.bzl", "bazel", "manifest"),
    ("bb.edn", "other", "manifest"),
    ("bower.json", "other", "manifest"),
    ("Mintfile", "other", "manifest"),
    ("smithy-build.json", "other", "manifest"),
    ("batect-bundle.yml", "other", "manifest"),
    (".copier-answers.yml", "other", "manifest"),
    ("build.xml", "other", "manifest"),
    (".bun-version", "npm", "toolchain"),
    ("backstage.json", "npm", "toolchain"),
    ("mise.local.toml", "toolchain", "toolchain"),
    (".config/mise/conf.d/node.toml", "toolchain", "toolchain"),
    ("mise.lock", "toolchain", "toolchain"),
    ("batect", "toolchain", "toolchain"),
    ("ProjectSettings/ProjectVersion.txt", "toolchain", "toolchain"),
    ("eng/Version.Details.xml", "nuget", "manifest"),
    ("src/Web/libman.json", "nuget", "manifest"),
    ("timoni/podinfo/cue.mod/module.cue", "other", "manifest"),
    ("integration/lib/junit-3.8.1.jar", "vendored", None),  # a package archive a build loads (misses 6)
    ("app/libs/play-services.aar", "vendored", None), ("wheels/numpy-1.26.0-cp311-none-any.whl", "vendored", None),
    ("LocalPreferences.toml", "other", None), ("Artifacts.toml", "other", None),  # Julia (misses 6)
]


@each_case(("path", "ecosystem", "tag"), DEPS)
def test_dependency_files_are_deps(rules: RuleSet, path: str, ecosystem: str, tag: str | None) -> None:
    match = rules.match(path)
    assert (match.bucket, match.ecosystem) == ("deps", ecosystem), (path, match)
    if tag is None:  # package-manager settings declare no dependency: no manifest/lockfile tag
        assert not match.tags & {"manifest", "lockfile", "toolchain"}, (path, match)
    else:
        assert tag in match.tags, (path, match)


# -- 4. CI, every system ------------------------------------------------------------------------

CI = [
    "contrib/ci.sh", "hack/ci.ps1",  # a script named ci in a root helper folder (ci.script-folders, the eightieth set)
    ".ci-mgmt.yaml",
    "pr_check.sh", "build_deploy.sh",  # AppSRE's Jenkins jobs (over-reads 3)
    "taskcluster/kinds/build/kind.yml", ".obs/workflows.yml", "GitReleaseManager.yaml",  # the thirty-sixth set
    "hack/.ci/verify-commits.sh", "mise-tasks/ci/detect.py",  # the thirty-eighth set
    ".packit.yaml", "plans/main.fmf", "tests/tmt/sanity/main.fmf", "rpm/gating.yaml",  # the seventy-eighth set
    "kokoro/presubmit.cfg", "contrib/cirrus/runner.sh", "hack/cirrus/setup.sh",
    ".github/actions/setup/icon.svg",
    "fastlane/lanes/ios.rb",  # the Ruby a Fastfile loads (the sweep of the mirrored repositories)
    ".bazelci/presubmit.yml",
    ".bazelci/android.yml",
    ".release-it.json",
    ".release.json",
    ".config/1espt/PipelineAutobaseliningConfig.yml",
    "eng/common/BuildConfiguration/build-configuration.json",
    ".github/workflows/ci.yml",
    ".github/workflows/release.yaml",
    ".github/workflows/triage.md",  # a GitHub agentic workflow, not a README
    ".github/workflow-templates/go.yml",
    ".github/actions/setup/action.yml",
    ".github/actions/setup/Dockerfile",  # builds the action's image: CI, not IaC
    ".github/actions/setup/entrypoint.sh",
    "action.yml",
    ".github/dependabot.yml",
    ".github/labeler.yml",
    ".github/codeql/codeql-config.yml",
    ".github/matchers/eslint.json",
    ".github/problem-matchers/gcc.json",
    ".github/actionlint.yml",
    ".github/env",
    ".github/scripts/release.sh",
    ".github/docker/Dockerfile",
    ".gitea/workflows/build.yaml",
    ".gitea/scripts/build.sh",  # ci.gitea-forgejo: the rest of the folder (its workflows: ci.workflows-folder)
    ".gitea/actions/lint/action.yml",
    ".forgejo/workflows/test.yml",
    ".gitlab-ci.yml",
    ".gitlab/ci/build.gitlab-ci.yml",
    "ci/templates/deploy.gitlab-ci.yml",
    "templates/lint.gitlab-ci.yml",
    ".gitlab/agents/prod/config.yaml",
    "Jenkinsfile",
    "jenkins/Jenkinsfile.release",
    "Jenkinsfile-nightly",
    "deploy.Jenkinsfile",
    ".jenkins/pipeline.groovy",
    ".circleci/config.yml",
    ".circleci/images/primary/Dockerfile",
    ".circleci/scripts/setup.sh",
    "azure-pipelines.yml",
    "azure-pipelines-release.yml",
    ".azure-pipelines/build.yml",
    ".travis.yml",
    "bitbucket-pipelines.yml",
    ".buildkite/pipeline.yml",
    "buildkite.yml",
    ".buildkite/hooks/pre-command",
    ".nx/workflows/agents.yaml",
    ".drone.yml",
    ".drone.star",
    ".woodpecker.yml",
    ".woodpecker/test.yaml",
    "appveyor.yml",
    ".appveyor.yml",
    ".cirrus.yml",
    ".cirrus.star",
    ".semaphore/semaphore.yml",
    "cloudbuild.yaml",
    ".pulumi/ci.json",  # Pulumi's GitHub Action: the branch-to-stack map (the seventy-sixth set)
    "cloudbuild-release.yaml",
    "buildspec.yml",
    "buildspec-test.yml",
    ".tekton/pull-request.yaml",
    "codemagic.yaml",
    "bitrise.yml",
    ".builds/alpine.yml",
    ".zuul.yaml",
    ".teamcity/settings.kts",
    ".kokoro/build.sh",
    "ci/build.sh",
    "ci/Dockerfile",
    ".ci/run-tests.sh",
    "scripts/ci/lint.sh",
    ".pre-commit-config.yaml",
    # review of issue 3: a docs-like or dependency-like name inside a CI folder is still CI
    ".github/workflows/README.yml",
    ".github/workflows/readme.yaml",
    ".github/workflows/README-deploy.yml",
    ".gitea/workflows/README.yml",
    ".forgejo/workflows/Readme.yaml",
    ".woodpecker/readme.yaml",
    ".gitlab/ci/README.yml",
    ".circleci/README.json",
    "ci/README.jsonnet",
    ".github/workflows/pnpm-lock.yaml",
    ".github/workflows/requirements.yml",
    ".github/workflows/environment.yaml",
    ".github/workflows/release.1.md",
    ".github/workflows/deploy.yml.tt",
    ".github/workflows/notes.txt",
    ".github/workflows/scripts/run.sh",
    ".github/workflows/testdata/event.json",
    ".github/actions/testdata/action.yml",
    ".github/actions/setup/testdata/action.yml",
    ".github/actions/setup/__fixtures__/event.json",
    ".github/actions/setup/tests/fixtures/package.json",
    ".github/actions/setup/node_modules/@actions/core/lib/core.js",
    ".github/actions/setup/vendor/lib.sh",
    ".github/actions/setup/.yarn/releases/yarn-4.1.0.cjs",
    ".github/actions/setup/.pnp.cjs",
    ".github/actions/setup/templates/comment.md.tt",
    ".github/actions/setup/man/setup.1",
    ".gitea/actions/lint/testdata/action.yml",
    ".forgejo/actions/build/node_modules/x/index.js",
    ".circleci/testdata/config.yml",
    ".circleci/requirements.txt",  # a CI system's own folder only feeds CI jobs
    ".gitlab/ci/templates/deploy.yml.eex",
    ".buildkite/man/pipeline.yml",
    "ci/testdata/run.sh",
    "ci/requirements.txt",
    "ci/package.json",
    "ci/Dockerfile.tt",
    ".ci/__snapshots__/pipeline.yml",
    "scripts/ci/fixtures/Jenkinsfile",
    ".tekton/testdata/pipeline.yaml",
    ".semaphore/README.yml",
    # bots and settings that act like CI
    ".github/settings.yml",
    ".github/mergify.yml",
    ".mergify.yml",
    ".mergify/config.yml",
    "bors.toml",
    ".kodiak.toml",
    ".github/kodiak.toml",
    ".github/auto-merge.yml",
    ".policy.yml", ".pullapprove.yml", ".allstar/allstar.yaml",  # attack 50: merge gates read by their own name
    ".prow.yaml", ".prow/presubmits.yaml", ".ci-operator.yaml", ".space.kts", "codeship-steps.yml",  # attack 50
    # issue 12, item 5: CI systems and release tools the rules missed
    "Earthfile",
    "services/api/Earthfile",
    "codefresh.yml",
    ".codefresh/build.yaml",
    ".gocd.yaml",
    "ci.gocd.yaml",
    "bamboo-specs/bamboo.yml",
    "bamboo-specs/src/main/java/PlanSpec.java",
    ".codecatalyst/workflows/build.yaml",
    "atlantis.yaml",
    ".spacelift/config.yml",
    "eng/pipelines/ci.yml",
    "eng/common/templates/jobs/jobs.yml",
    "eng/common/core-templates/steps/publish-logs.yml",
    ".azure/pipelines/ci.yml",
    ".azdo/pipelines/azure-dev.yml",
    "build/azure-pipelines.pr.yml",
    "vars/buildPlugin.groovy",
    "pipeline.buildkite.yml",
    "deploy-pipelines.yml",
    "workflow-templates/go.yml",
    ".vela.yml",
    ".crow.yml",
    ".crow/build.yaml",
    ".taskcluster.yml",
    ".dependabot/config.yml",
    ".goreleaser.yaml",
    "goreleaser-canary.yml",
    "gon.hcl",
    ".releaserc.json",
    "release-plz.toml",
    "release-please-config.json",
    ".clusterfuzzlite/build.sh", ".clusterfuzzlite/project.yaml", "cabal.haskell-ci",  # the eighty-ninth set
]


@each_case("path", CI)
def test_ci_is_ci(rules: RuleSet, path: str) -> None:
    check(rules, path, "ci")


def _file_names_the_rules_know(rules: RuleSet, tails: tuple[str, ...] = ()) -> set[str]:
    """One concrete file name for every basename pattern of every rule (wildcards filled in); with `tails`, a name
    whose pattern ends open (`*.verified.*`, `Gemfile-*`) also ends in each tail (`x.verified.yml`, `Gemfile-x.tf`):
    an open end claims every file type, including the ones a folder runs or loads by extension."""
    names = set()
    for rule in rules.rules:
        for glob in rule.globs:
            if glob.base == "**":
                continue
            base = re.sub(r"\[!?[^\]]*\]", "1", glob.base).replace("\\", "")
            names.add(base.replace("*", "x").replace("?", "x"))
            if base.endswith("*"):
                stem = base[:-1].replace("*", "x").replace("?", "x")
                names |= {stem + middle + tail for tail in tails for middle in ("", "x.")}
    return names


DOCUMENT_EXTENSIONS = {"md", "markdown", "rst", "txt", "adoc", "asciidoc"}


def _is_readme_document(name: str) -> bool:
    lower = name.lower()
    return lower == "readme" or (lower.startswith("readme") and lower.rsplit(".", 1)[-1] in DOCUMENT_EXTENSIONS)


@each_case("folder", [".github/workflows", ".gitea/workflows", ".forgejo/workflows"])
def test_every_yaml_file_name_in_a_workflows_folder_is_ci(rules: RuleSet, folder: str) -> None:
    # The forge runs every .yml/.yaml there, whatever its name: no dependency, docs or test-data
    # rule may claim one. Derived from the rules, so a new deps rule with a YAML name fails here.
    names = {n for n in _file_names_the_rules_know(rules, ("yml", "yaml")) if n.lower().endswith((".yml", ".yaml"))}
    names |= {"README.yml", "readme.yaml", "README-deploy.yml", "README.md.yml", "x.verified.yml", "Gemfile-ci.yml"}
    wrong = {n: rules.match(f"{folder}/{n}").rule for n in names if rules.match(f"{folder}/{n}").bucket != "ci"}
    assert wrong == {}


@each_case(
    "folder", [".circleci", ".gitlab/ci", ".woodpecker", ".buildkite", "ci", ".ci", ".tekton", ".semaphore",
               ".jenkins", ".azure-pipelines", ".builds", ".travis", "scripts/ci",
               ".prow", ".workflow", ".cds", ".agola", ".werft", ".mint", ".rwx", ".cloudbees", ".brigade", ".bluemix",
               ".copr", ".space", ".allstar"])
def test_every_file_name_in_a_single_system_ci_folder_is_ci(rules: RuleSet, folder: str) -> None:
    # Whatever the name (a lock file, a Dockerfile, a template, a README.yml), and in a test-data
    # folder too; only README documents are src.
    names = _file_names_the_rules_know(rules)
    paths = [f"{folder}/{n}" for n in names] + [f"{folder}/testdata/{n}" for n in names]
    wrong = {}
    for path in paths:
        match = rules.match(path)
        expected = "src" if _is_readme_document(path.rsplit("/", 1)[1]) else "ci"
        if match.bucket != expected:
            wrong[path] = match.rule
    assert wrong == {}


REVIEWED = {"ci", "iac"}  # what the default policy reviews
TERRAFORM_TAILS = ("tf", "tf.json", "tofu", "tofu.json", "pkr.hcl", "pkr.json", "pkrvars.hcl", "pkrvars.json")


@each_case("folder", ["infra/prod", "terraform", "deploy/packer"])
def test_every_open_name_with_a_terraform_extension_is_reviewed(rules: RuleSet, folder: str) -> None:
    # Terraform, OpenTofu and Packer load every file of their extensions in the folder they run in: a snapshot-test,
    # syntax-test or dependency rule's open-ended name (`backdoor.verified.tf`, `Gemfile-x.tf`) must not make one src
    # or deps (the default policy would let it through). Derived from the rules, so a new open-ended name rule fails.
    dotted = tuple(f".{tail}" for tail in TERRAFORM_TAILS)
    names = {n for n in _file_names_the_rules_know(rules, TERRAFORM_TAILS) if n.lower().endswith(dotted)}
    names |= {"backdoor.verified.tf", "main.received.tf.json", "syntax_test_x.tofu", "Gemfile-x.tf", "a.verified.b.tf"}
    wrong = {n: rules.match(f"{folder}/{n}").rule for n in names if rules.match(f"{folder}/{n}").bucket not in REVIEWED}
    assert wrong == {}


LOADED_TAILS = {  # the folders a tool loads by extension, with those extensions
    "infra/tests": ("tftest.hcl",), "infra": ("tfquery.hcl",),
    "stack": ("tfstack.hcl", "tfdeploy.hcl", "tfcomponent.hcl"),
    "packer": ("auto.pkrvars.hcl",), "nomad": ("nomad.hcl", "nomad"), "manifests": ("pp",),
    "environments/production/manifests": ("pp",)}


@each_case("folder", sorted(LOADED_TAILS))
def test_every_open_name_with_a_type_its_folder_loads_is_reviewed(rules: RuleSet, folder: str) -> None:
    # Attack 30: Terraform stacks, tests and queries, Packer's auto-loaded variables and a Puppet environment's
    # manifests/ are loaded by folder and extension too; an open-ended name must not make one src or deps.
    tails = LOADED_TAILS[folder]
    dotted = tuple(f".{tail}" for tail in tails)
    names = {n for n in _file_names_the_rules_know(rules, tails) if n.lower().endswith(dotted)}
    stems = ("x.verified", "a.received.b", "syntax_test_x", "Gemfile-x")
    names |= {f"{stem}.{tail}" for stem in stems for tail in tails}
    wrong = {n: rules.match(f"{folder}/{n}").rule for n in names if rules.match(f"{folder}/{n}").bucket not in REVIEWED}
    assert wrong == {}


@each_case("folder", ["group_vars/all", "inventory/group_vars/web", "host_vars/web1", "inventory/prod"])
def test_every_open_name_in_an_ansible_variables_folder_is_reviewed(rules: RuleSet, folder: str) -> None:
    # Ansible reads every file of a group's or host's variables folder and of an inventory folder.
    names = {n for n in _file_names_the_rules_know(rules, ("yml", "yaml")) if n.lower().endswith((".yml", ".yaml"))}
    names |= {"Gemfile-x.yml", "x.verified.yaml", "syntax_test_x.yml"}
    wrong = {n: rules.match(f"{folder}/{n}").rule for n in names if rules.match(f"{folder}/{n}").bucket not in REVIEWED}
    assert wrong == {}


FORGE_OTHER = [
    "phpstan/php-below-8.2.neon",  # PHPStan settings in their own folder (the eighty-fifth set)
    "config/php/no-exec.ini", "tsconfig.tsbuildinfo",  # server settings, committed tool state (the otherdata1 round)
    "docs/lcov-report/index.html", "docs/clover.xml",  # a committed coverage report (the eighty-fourth set)
    ".mux/mcp.jsonc", ".cmux/init",  # Coder mux's agent settings and init hook (the eighty-fourth set)
    "migrations/alembic.ini", "parts/tray.f3d",  # tool settings and models (other.tool-settings-and-models, 72nd set)
    ".cmake-format", ".codacy.yml", "dynamic_theme/idx-template.nix",  # thirty-sixth set
    "site-modules/.DS_Store",  # desktop folder metadata (other.os-metadata)
    ".gitlab/duo/mr-review-instructions.yaml",  # GitLab Duo's review instructions (the twenty-seventh set)
    ".github/ISSUE_TEMPLATE/bug_report.md",
    ".github/ISSUE_TEMPLATE.txt",
    ".github/readme-images/jetbrains.svg",
    ".github/ISSUE_TEMPLATE/config.yml",
    ".github/PULL_REQUEST_TEMPLATE.md",
    ".github/pull_request_template.md",
    "ISSUE_TEMPLATE.md", "docs/pull_request_template.md",  # GitHub reads them here too (the eighty-fifth set)
    ".github/FUNDING.yml",
    ".github/release.yml",
    ".github/CODEOWNERS",
    ".github/logo.png",
    ".github/images/screenshot.png",
    ".github/copilot-instructions.md",
    ".github/instructions/python.instructions.md",
    ".github/renovate.json",
    ".gitlab/issue_templates/Bug.md",
    ".gitlab/merge_request_templates/Default.md",
    ".gitea/ISSUE_TEMPLATE/bug.yaml",
]


@each_case("path", FORGE_OTHER)
def test_forge_community_files_are_other(rules: RuleSet, path: str) -> None:
    check(rules, path, "other")


# -- 5. infrastructure ----------------------------------------------------------------------


IAC = [
    "infra/backdoor.verified.tf",  # iac.open-names-terraform: an open-ended name does not make a .tf file test data
    "stack/Gemfile-x.tfdeploy.hcl",  # iac.open-names-loaded (attack 30)
    "inventory/group_vars/all/requirements.yml",  # iac.ansible-variable-folders (attack 30)
    "samples/ServiceFabric/App/AppPkg/ServiceManifest.xml",  # iac.service-fabric (thirty-sixth set)
    "ServiceFabric/App/ApplicationPackageRoot/ApplicationManifest.xml",  # iac.service-fabric (label36)
    "deploy/chart/vendor/boot/boot.sh",  # installed code in an infrastructure folder (iac.folders-installed-code)
    "vendor/modules/net/main.tf",  # a vendored Terraform module (iac.terraform-vendored)
    "env/test/hub/forms/projects/intake/terragrunt.hcl",  # an environment named test (iac.test-environments)
    "test/fixtures/simple_cloud_run/main.tf",  # a root module the test suite applies (iac.terraform-test-fixtures)
    "test/acceptance/tests/fixtures/bases/static-server/kustomization.yaml",  # kustomize reads it by name (sweep13)
    "connector-e2e/src/test/resources/docker-compose.yml",  # an e2e module's containers (iac.e2e-module-containers)
    "deploy/assets/packages/app/files/app.conf",  # an infra folder's asset packages (iac.folders-asset-packages)
    "infra/Signing.framework/bootstrap.sh",  # a *.framework/ in an infra folder (iac.folders-framework-bundles)
    "backend/k8s/deployment.yaml.in",  # a manifest a workflow fills in with envsubst (iac.kubernetes; label89)
    "manifests/modules/logging/pods/.workshop/terraform/main.tf",  # not CocoaPods' Pods/ (the sweep)
    "vendor/charts/web/templates/tests/test-connection.yaml",  # a vendored chart's test hook: Helm renders it
    "plugins/kasane/Kasanefile",
    "modules/asg-alb-service/user-data.sh",
    "packer/http/user-data",
    "packer/http/meta-data",
    "windows/answer_files/2022/Autounattend.xml",
    "modules/aft-customizations/states/invoke_customizations.asl.json",
    "templates/user_data.tftpl",
    "cloud-init.yaml",
    "conf-mgmt/chef/solo.rb",
    ".chef/knife.rb",
    "main.tf",
    "modules/vpc/variables.tf",
    "envs/prod/terraform.tfvars",
    "stack/main.tf.json",
    "live/prod/terragrunt.hcl",
    "images/ubuntu.pkr.hcl",
    "jobs/web.nomad.hcl",
    "jobs/web.nomad",
    "main.tofu",
    "Pulumi.yaml",
    "Pulumi.prod.yaml",
    "template.yaml",
    "samconfig.toml",
    "cdk.json",
    "test/integ.bucket-policy.ts",  # a CDK integration test: integ-runner deploys it as a real stack
    "test/integ.bucket-policy.js.snapshot/BucketPolicyStack.template.json",  # the template integ-runner keeps of it
    "CreateADPDC.ps1.zip",  # a DSC configuration package a VM's DSC extension applies (the sweep16 round)
    "cloudformation/network.yaml",
    "infra/stack.cfn.yaml",
    "main.bicep",
    "azuredeploy.json",
    "k8s/deployment.yaml",
    "deploy/k8s/base/service.yaml",
    "services/api/manifests/deployment.yml",
    "kustomization.yaml",
    "overlays/prod/kustomization.yaml",
    "conf/base/parameters/kustomization.yml",  # kustomize reads it by name inside a Kedro folder (red team 20)
    "config/rbac/role.yaml",  # kubebuilder's and operator-sdk's config/ layout (the sixty-eighth set)
    "charts/web/Chart.yaml",
    "charts/web/values.yaml",
    "charts/web/values-prod.yaml",
    "charts/web/templates/deployment.yaml",
    "charts/web/templates/_helpers.tpl",
    "charts/web/templates/NOTES.txt",
    "charts/web/.helmignore",
    "helmfile.yaml",
    "clusters/prod/flux-system/gotk-sync.yaml",
    "gitops/argocd/apps/web.yaml",
    "ansible.cfg",
    "playbooks/site.yml",
    "ansible/roles/web/tasks/main.yml",
    "roles/db/handlers/main.yml",
    "inventory/hosts.ini",
    "group_vars/all.yml",
    "Vagrantfile",
    "Vagrantfile.remotetest",
    "contrib/terraform/aws/terraform.tfvars.example",
    "envs/prod/terraform.tfvars.sample",
    "atmos.yaml",
    ".vault-config/product-builds-engkeyvault.yaml",
    "skaffold.yaml",
    "werf.yaml",
    "werf-giterminism.yaml",
    "Dockerrun.aws.json",
    "Tiltfile",
    "Dockerfile",
    "services/api/Dockerfile",
    "Dockerfile.dev",
    "build/prod.Dockerfile",
    "Containerfile",
    ".s2i/bin/assemble", "app/.s2i/environment",  # attack 50: Source-to-Image builds and starts the image
    "apprunner.yaml", ".deployment", "staticwebapp.config.json", "zbpack.json",  # attack 50
    "Capfile", "config/deploy.rb", "config/deploy/production.rb", "lib/capistrano/tasks/db.rake",  # attack 51
    ".dockerignore",
    "docker-compose.yml",
    "docker-compose.override.yml",
    "compose.yaml",
    "docker-bake.hcl",
    "serverless.yml",
    "fly.toml",
    "Procfile",
    "infra/lambda/handler.ts",  # an infra/ tree at the root deploys, whatever its language
    "terraform/modules/net/outputs.tf",
    ".devcontainer/Dockerfile",  # a Dockerfile is IaC even for a devcontainer (more sensitive wins)
    "fixtures/Dockerfile",  # not inside a test tree
    # docs-like names and template extensions in IaC locations
    "charts/web/templates/README.yaml",
    "charts/web/templates/deployment.yaml.tt",  # Helm renders every file in templates/
    "k8s/README.yaml",
    "deploy/man/job.yaml",  # a man/ folder is not a manual unless it holds man pages
    "terraform/README.tf",
    # issue 12, item 5: infrastructure the rules missed
    "apps/base/podinfo/release.yaml",  # kustomize base/
    "sock-shop/base/carts-dep.yaml",
    "deploy/bases/frontend/deployment.yml",
    "overlays/prod/patch.yml",
    "cluster/crds/apiextensions.crossplane.io_compositions.yaml",
    "fleet.yaml",
    "apps/redis/fleet.yml",
    "clusters/x/gotk-components.yaml",
    "gitops/gotk-sync.yaml",
    ".sourceignore",
    "heroku.yml",
    "app.json",  # Heroku reads the root one only
    ".ebextensions/options.config",
    "app/.ebextensions/01-packages.config",
    "appspec.yml",
    "bundle/appspec.yaml",
    "wrangler.toml",
    "workers/api/wrangler.jsonc",
    "firebase.json",
    ".firebaserc",
    "firestore.rules",
    "database.rules.json",
    ".do/app.yaml",
    ".do/deploy.template.yaml",
    "azure.yaml",
    "copilot/api/manifest.yml",
    "railway.toml",
    "site.yml",
    "ansible/site.yaml",
    "provisioning/tasks/setup.yml",
    "handlers/main.yml",
    "defaults/main.yml",
    "meta/main.yml",
    "inventory",
    "hosts",
    "inventories/prod/hosts.yml",
    "molecule/default/converge.yml",
    "execution-environment.yml",
    "_helpers.tpl",
    "deploy/chart/templates/NOTES.txt",
    "cdktf.json",
    "PulumiPolicy.yaml",
    "Pulumi.json",
    "stack.cf.yaml",
    "cloudformation.json",
    "template.sam.yaml",
    "serverless.template",
    "modules/vm/user_data.tftpl",
    "policies/restrict-instance-type.sentinel",
    "compose-dev.yaml",
    "systemd/web.container",
    "devspace.yaml",
    "okteto.yml",
    "k3d.yaml",
    "hiera.yaml",
    "site-modules/profile/manifests/base.pp",
    "models/kube/frontend/server.k",
    "jsonnet/kube-prometheus/main.libsonnet",
    "guestbook-ui.jsonnet",
]


@each_case("path", IAC)
def test_infrastructure_is_iac(rules: RuleSet, path: str) -> None:
    check(rules, path, "iac")


# -- 6. examples are what they are; 7. names are not signals -----------------------------------


EXAMPLES = [
    ("examples/x/main.tf", "iac"),
    ("examples/aws/lambda/Dockerfile", "iac"),
    ("samples/node/package.json", "deps"),
    ("examples/basic/main.go", "src"),
    ("examples/k8s/deployment.yaml", "iac"),
]


@each_case(("path", "bucket"), EXAMPLES)
def test_examples_are_labelled_by_what_they_are(rules: RuleSet, path: str, bucket: str) -> None:
    check(rules, path, bucket)


NOT_SIGNALS = [
    "tests/nginx/site.conf",  # a server's settings in a test tree: a test's input (src.test-settings, otherdata1)
    "src/k8sclient.go",
    "src/NzbDrone.Core.Test/Files/TestArchive.zip",  # an archive a .NET test project unpacks (the twenty-seventh set)
    "src/Foo.Tests/Images/logo.png",  # a .NET test image outside Resources/ and Files/ (src.test-assets-dotnet)
    "test/mbedtls/dummy_file.sha256",  # a checksum a test compares against, not a pin (the sweep16 round)
    "fastlane/lib/fastlane/actions/gym.rb",  # fastlane's own source, not a project's lanes (the sweep)
    "pkg/parser/dockerfile/dockerfile_test.go",  # a Dockerfile parser's test, named like a Dockerfile variant
    "pkg/handlers/license.go",  # a governance name, but code (matching ignores case)
    "internal/plugins/helm/v1/scaffolds/internal/templates/gitignore.go",  # a scaffolder's code, no chart template
    "charts/web/tests/service_test.yaml",  # a helm-unittest suite beside the chart's templates/
    "cdk/test/app.test.ts",  # a CDK app's unit test in its cdk/ folder (the forty-first set)
    "test-resources/lib_tests/me/raynes/archive.zip",  # an archive a test unpacks: test data, not an asset
    "charts/web/hack/sync_dashboards.py",  # a chart's developer script
    "hack/migrate/sample-v40-values.yaml",  # a developer script's sample values, not a release's
    "tests/test-cluster/main.k",  # a KCL composition test
    "app/models/user_data.py",
    "src/user-data.ts",
    "bazelci/presubmit.go",
    "tools/release.json",
    "pkg/terraform/parser.go",
    "docs/ci.md",
    "lib/ci_helpers.py",
    "deploy_utils.py",
    "src/k8s/client.go",
    "internal/helm/install.go",
    "src/components/charts/LineChart.tsx",
    "app/models/roles/admin.rb",
    "pkg/cloudformation/parse.go",
    "lib/jenkins_client.rb",
    "src/docker/compose_parser.py",
    "config/settings.template.json",
    "cmd/deploy/main.go",
    "pkg/ci/ci.go",
    # look-alikes of the issue-12 additions: a word in a name or a folder outside its convention
    "src/inventory/models.py",
    "app/tasks/cleanup.py",
    "lib/site.rb",
    "nested/vars/helpers.groovy",  # only the root vars/ of a shared library
    "src/base/config.go",
    "web/app.json/readme.txt",
    "docs/goreleaser.md",
    "src/appspec.py",
    "src/.vault-config/secrets.yaml",  # only the root folder .NET's secret manager reads
    "docs/Vagrantfile-guide.txt",
    "tests/print_schema/postgres/schema.patch",  # a test's expected output, not a dependency's patch
]


@each_case("path", NOT_SIGNALS)
def test_a_name_is_not_a_signal(rules: RuleSet, path: str) -> None:
    check(rules, path, "src")


# -- 8. other -----------------------------------------------------------------------------------


OTHER = [
    "docs/architecture.drawio", "images/deploy.cast",  # diagrams and recordings (other.diagrams, classes53)
    ".cmake-format.yaml", ".codacy.yml", ".idx/dev.nix",  # label36's other rules
    "checkstyle-strict.xml", "licenserc.toml", "CodeQL.yml", "azurepipelines-coverage.yml",  # the eightieth set
    ".gitreview", ".envrc.example", "gnome-calculator.doap",  # the eightieth set
    "tmux.conf", "git_template/hooks/post-rewrite",  # dotfiles kept without their dot (other.dotfiles, fifty-sixth set)
    "group_vars/web.license",  # a REUSE licence sidecar (other.reuse-sidecars, thirty-fourth label set)
    "src/AdapterTestUtilities/.github/FUNDING.yml",  # a split package's funding links (other.nested-github-community)
    "examples/Caddyfile",  # a server application's settings (other.app-server-settings)
    "Dockerfiles/snmptraps/alpine/conf/etc/snmp/snmptrapd.conf",  # other.image-server-settings, the sixty-ninth set
    "src/CsvHelper/CsvHelper.net5.0.v3.ncrunchproject",  # other.dotnet-ide-settings, the seventy-first set
    "mixin/prometheus_rules_out/prometheus_alerts.yaml",
    ".trunk/configs/.checkov.yaml",  # trunk's linters' settings (other.dev-tool-settings, the thirty-third set)
    ".github/snippet-bot.yml",
    ".copywrite.hcl",
    ".tflint.hcl",  # a linter's settings in HCL (other.tflint, before the HCL rule)
    "services/api/.vscode/launch.json",
    ".config/ansible-lint.yml",
    ".ansible-lint.yaml",
    ".husky/pre-commit",
    ".husky/install.mjs",
    "git-hooks/hooks/pre-push",
    "git-hooks/.gitleaksignore",
    ".githooks/commit-msg",
    "devTools/pre-push",  # a git hook by its name, at any depth (over-reads 6)
    "lib/git/commit-msg.hook",
    ".project/golangci-lint.yml",  # settings named for the one tool that reads them (over-reads 6)
    "bundlewatch.config.json",
    "typedoc.config.mjs",
    ".svu.yml",
    ".ctags.d/exclusion.ctags",
    "cypress.config.js",
    "playwright.config.ts",
    "frontend/.bazelignore",
    ".github_changelog_generator",
    ".bk.yaml",
    "docs/CNAME",
    "CODE-OF-CONDUCT.md",
    "OWNERS.md",
    "EMERITUS.md",
    "security-insights.yml",
    ".clomonitor.yml",
    "scripts/release-analysis/.mega-linter.yaml",
    ".actionlint.yml",
    "infra-app/jest.config.js",
    "web/karma.conf.js",
    "eng/common/PSScriptAnalyzerSettings.psd1",
    "lambda/.npmignore",
    "assets/logo.png",
    "static/fonts/Inter.woff2",
    "docs/diagram.svg",
    "data/cities.csv",
    "models/weights.safetensors",
    ".vscode/settings.json",
    ".idea/workspace.xml",
    ".devcontainer/devcontainer.json",
    ".editorconfig",
    "CODEOWNERS",
    "docs/CODEOWNERS",
    ".gitattributes",
    "LICENSE",
    "LICENSE-APACHE",
    "COPYING",
    "renovate.json",
    "codecov.yml",
    ".codecov.yml",
    ".golangci.yml",
    "ruff.toml",
    ".eslintrc.json",
    "eslint.config.mjs",
    "eslint-suppressions.json",
    "packages/firebase-auth/eslint-suppressions.json",
    ".prettierrc",
    "AGENTS.md",
    "CLAUDE.md",
    ".cursorrules",
    ".cursor/rules/python.mdc",
    ".windsurfrules",
    ".squad/agents/lead/charter.md",
    "funding.json",
    "CONTRIBUTING.md",
    "SECURITY.md",
    "crates/cli/UNLICENSE",
    "static/jquery/MIT-LICENSE.txt",
    "THIRD-PARTY-NOTICES.txt",
    "DCO",
    "SECURITY_CONTACTS",
    ".licenses/npm/undici.dep.yml",
    "policies/require-labels/artifacthub-pkg.yml",
    ".clippy.toml",
    "deny.toml",
    ".vale/styles/House/Repetition.yml",
    "knip.json",
    # issue 12, fourth label set: tool settings by name, and every tool's run-control file (.*rc)
    ".renovaterc.json5",
    "updatecli/values.d/scm.yaml",
    "updatecli/values.yaml",  # the update bot's values, not a chart's (fourteenth label set)
    "updatecli.yaml",
    ".web-docs/metadata.hcl",  # HashiCorp's integration metadata for its developer portal
    ".trivyignore.yaml",
    ".helmdocsignore",
    "web/.yamlignore",
    "ct.yaml",
    ".lefthook.toml",
    "lefthook.yml",
    ".oxfmtrc.json",
    ".mdlrc",
    ".md_style.rb",
    ".babelrc",
    "web/.mocharc.yml",
    "packages/ui/.swcrc",
    "charts/web/.prettierrc",  # settings, as .gitignore is, even in an infrastructure folder
]


# Run-control files that another rule names keep that rule: the generic `.*rc` rule comes after them.
RC_NAMED_ELSEWHERE = [
    (".npmrc", "deps"), (".yarnrc", "deps"), (".bowerrc", "deps"), (".nvmrc", "deps"), (".pypirc", "deps"),
    (".condarc", "deps"), (".gemrc", "deps"), (".sdkmanrc", "deps"), (".releaserc", "ci"),
    (".github/.prettierrc", "ci"), ("ci/.babelrc", "ci"), (".firebaserc", "iac"), (".terraformrc", "iac"),
]


@each_case(("path", "bucket"), RC_NAMED_ELSEWHERE)
def test_run_control_files_another_rule_names_keep_it(rules: RuleSet, path: str, bucket: str) -> None:
    check(rules, path, bucket)


@each_case("path", OTHER)
def test_other(rules: RuleSet, path: str) -> None:
    check(rules, path, "other")


# -- 9. the fallback -------------------------------------------------------------------------


FALLBACK = ["src/main.go", "Makefile", "scripts/release.sh", "index.html"]

# Documentation has a rule so that the top-level infrastructure folders (and the context tiers' markers)
# do not claim it; earlier rules still win. Path, bucket.
DOC_FILES = [
    ("MonoGame.Framework/Utilities/Quaternion.cs", "src"),  # src.dotnet-framework-projects (thirty-sixth set)
    ("3rdparty/jvm/default.lock", "src"),  # src.pants-third-party: content raises it (thirty-sixth set)
    ("test/node_modules/dep/index.js", "src"),  # src.test-packages (attack 22)
    ("CHANGELOG.md", "src"),
    ("web/public/locales/hu/config/global.json", "src"),  # src.locale-catalogues: an i18n namespace (sixty-sixth set)
    ("docs/blog/authors.yml", "src"),  # a docs site's blog authors, not the governance AUTHORS file
    ("test/e2e/data/cni/calico.yaml", "src"),  # Cluster API's end-to-end data: not test data, content decides
    ("releasenotes/notes/fix-octavia-1234.yaml", "src"),
    ("deploy/RUNBOOK.md", "src"),
    ("charts/web/CHANGELOG.md", "src"),
    ("charts/web/README.md.gotmpl", "src"),
    ("infra/docs/architecture.rst", "src"),
    ("cdk/docs/architecture.md", "src"),  # cdk/ is an infrastructure folder (iac.folders, seventy-ninth set)
    ("mkdocs.yml", "src"),
    ("docs/license-scanning.md", "src"),
    # look-alikes: what an earlier rule claims, and the other-rules that now also win in infra folders
    (".github/workflows/triage.md", "ci"),
    ("charts/web/templates/NOTES.md", "iac"),
    ("charts/web/LICENSE", "other"),
    ("deploy/.gitignore", "other"),
    ("charts/web/.editorconfig", "other"),
    ("deploy/app.yaml", "iac"),
    ("charts/web/charts/redis-17.3.0.tgz", "iac"),
]


@each_case(("path", "bucket"), DOC_FILES)
def test_docs_have_their_rule_and_infra_folders_come_after_it(rules: RuleSet, path: str, bucket: str) -> None:
    check(rules, path, bucket)


@each_case("path", FALLBACK)
def test_everything_else_is_src(rules: RuleSet, path: str) -> None:
    check(rules, path, "src", "src.default")


# -- tags ----------------------------------------------------------------------------------------


GUARDRAIL = [
    "policies/core/policy.rego",
    "policies/classification.yaml",
    "policies/classification.d/10-site.yaml",
    ".gatekeeper/config.yaml",
    "gatekeeper.yaml",
    "CODEOWNERS",
    ".github/CODEOWNERS",
    "AGENTS.md",
    "services/api/AGENTS.md",
    "CLAUDE.md",
    ".claude/settings.json",
    ".squad/routing.md",
    ".cursorrules",
    ".cursor/rules/style.mdc",
    ".github/copilot-instructions.md",
    "CONTRIBUTING.md",
    ".github/CONTRIBUTING.md",
    ".windsurfrules",
    ".clinerules",
    # a security scanner's suppressions and settings decide what its gate lets through next time
    ".gitleaksignore",
    "services/api/.gitleaksignore",
    ".gitleaks.toml",
    ".gitleaks/config.toml",
    ".trivyignore",
    ".grype.yaml", "osv-scanner.toml", "deny.toml", "audit-ci.jsonc", ".zap/rules.tsv",  # attack 50
    ".policy.yml", ".allstar/allstar.yaml",  # attack 50: merge gates
    ".sops.yaml", ".git-crypt/keys/default/0/ABCD.gpg",  # attack 50: who may decrypt the secrets
    ".idx/dev.nix", "devfile.yaml",  # attack 50: cloud workspaces that run commands on open
    ".trivyignore.yaml",
    ".snyk",
    ".secrets.baseline",
    ".semgrepignore",
    ".gitguardian.yaml",
    ".talismanrc",
]


@each_case("path", GUARDRAIL)
def test_guardrail_tag(rules: RuleSet, path: str) -> None:
    assert "guardrail" in rules.match(path).tags, path


def test_guardrail_tag_does_not_change_the_bucket(rules: RuleSet) -> None:
    assert rules.match(".github/CODEOWNERS").bucket == "other"
    assert rules.match("policies/core/policy.rego").bucket == "src"
    assert "guardrail" not in rules.match("src/main.go").tags


def test_every_shipped_rule_is_exercised_by_these_tables(rules: RuleSet) -> None:
    # A rule nobody can show a path for is a rule nobody can review; add a path above with a new rule.
    paths = [*TEST_DATA, *(p for p, _ in TEST_DATA_CI_IAC), *DOCS, *(p for p, _, _ in DEPS), *CI, *FORGE_OTHER, *IAC,
             *(p for p, _ in EXAMPLES),
             *NOT_SIGNALS, *OTHER, *FALLBACK, *(p for p, _ in DOC_FILES), *GUARDRAIL, *VENDORED, *VENDORED_NESTED,
             *VENDORED_FRAMEWORKS, *(p for p, _, _ in INSTALLED)]
    decided = {rules.match(p).rule for p in paths}
    assert [r.id for r in rules.rules if r.id not in decided] == []
    tagged = {hit.rule.id for p in paths for hit in rules.tag_hits(p)}
    assert [r.id for r in rules.tag_rules if r.id not in tagged] == []
