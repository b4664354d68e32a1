"""Issue 12, item 5: the path rules against every default file pattern of Renovate's managers.

Renovate (renovatebot/renovate, lib/modules/manager/*/index.ts, `managerFilePatterns`) is the
widest public list of files that pin dependencies or define CI and deployments. Each manager
with a default pattern has a row here: a realistic path its pattern matches and the bucket we
give it, or a recorded reason why the path rules leave it `src`. Managers with no default
pattern (kubernetes, argocd, crossplane, tekton, helmsman, glasskube, sveltos, ocb, pep723,
pip-compile, custom, hermit, renovate-config, cdnurl) are found by content, not by path.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify import RuleSet, classify_change, load_rules
from gatekeeper.model import FileChange

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


# (manager, path, bucket)
COVERED = [
    ("ansible-galaxy", "collections/requirements.yml", "deps"),
    ("ansible-galaxy", "requirements.ansible.yml", "deps"),
    ("ansible-galaxy", "galaxy.yml", "deps"),
    ("ansible", "provisioning/tasks/composer.yml", "iac"),
    ("ant", "build.xml", "deps"),
    ("asdf", ".tool-versions", "deps"),
    ("azure-pipelines", ".azuredevops/pipelines/build.yml", "ci"),
    ("azure-pipelines", "azure-pipelines.yml", "ci"),
    ("azure-pipelines", "build/azure-pipelines.release.yml", "ci"),
    ("batect-wrapper", "batect", "deps"),
    ("batect", "batect.yml", "deps"),
    ("batect", "batect-bundle.yml", "deps"),
    ("bazel-module", "MODULE.bazel", "deps"),
    ("bazel-module", "tools/go.MODULE.bazel", "deps"),
    ("bazel", "WORKSPACE.bazel", "deps"),
    ("bazel", "bazel/repositories.bzl", "deps"),
    ("bazelisk", ".bazelversion", "deps"),
    ("bicep", "infra/main.bicep", "iac"),
    ("bitbucket-pipelines", "bitbucket-pipelines.yml", "ci"),
    ("bitbucket-pipelines", "shared/deploy-pipelines.yml", "ci"),
    ("bitrise", "bitrise.yml", "ci"),
    ("buildkite", ".buildkite/pipeline.yml", "ci"),
    ("buildkite", "pipeline.buildkite.yml", "ci"),
    ("bun-version", ".bun-version", "deps"),
    ("bun", "bun.lockb", "deps"),
    ("bundler", "Gemfile", "deps"),
    ("cake", "build.cake", "deps"),
    ("cargo", "crates/core/Cargo.toml", "deps"),
    ("circleci", ".circleci/config.yml", "ci"),
    ("cloudbuild", "cloudbuild.yaml", "ci"),
    ("cocoapods", "ios/Podfile", "deps"),
    ("composer", "composer.json", "deps"),
    ("conan", "conanfile.py", "deps"),
    ("copier", ".copier-answers.yml", "deps"),
    ("copier", ".copier-answers.backend.yml", "deps"),
    ("cpanfile", "cpanfile", "deps"),
    ("crow", ".crow.yml", "ci"),
    ("crow", ".crow/test.yaml", "ci"),
    ("deno", "deno.jsonc", "deps"),
    ("deps-edn", "deps.edn", "deps"),
    ("deps-edn", "bb.edn", "deps"),
    ("devbox", "devbox.json", "deps"),
    ("docker-compose", "docker-compose.prod.yml", "iac"),
    ("docker-compose", "compose-dev.yaml", "iac"),
    ("dockerfile", "Dockerfile", "iac"),
    ("dockerfile", "build/app.Dockerfile", "iac"),
    ("dockerfile", "Containerfile.ubi", "iac"),
    ("droneci", ".drone.yml", "ci"),
    ("fleet", "apps/web/fleet.yaml", "iac"),
    ("flux", "clusters/prod/flux-system/gotk-components.yaml", "iac"),
    ("flux", "bootstrap/gotk-components.yaml", "iac"),
    ("fvm", ".fvmrc", "deps"),
    ("git-submodules", ".gitmodules", "deps"),
    ("github-actions", ".github/workflows/ci.yml", "ci"),
    ("github-actions", ".github/actions/setup/action.yml", "ci"),
    ("github-actions", "workflow-templates/node.yml", "ci"),
    ("github-actions", "action.yaml", "ci"),
    ("gitlabci", ".gitlab-ci.yml", "ci"),
    ("gitlabci-include", "ci/templates/build.gitlab-ci.yml", "ci"),
    ("gleam", "gleam.toml", "deps"),
    ("gomod", "go.mod", "deps"),
    ("gradle-wrapper", "gradle/wrapper/gradle-wrapper.properties", "deps"),
    ("gradle", "app/build.gradle.kts", "deps"),
    ("gradle", "gradle.properties", "deps"),
    ("gradle", "gradle/libs.versions.toml", "deps"),
    ("gradle", "gradle/plugins.toml", "deps"),
    ("gradle", "buildSrc/src/main/kotlin/Versions.kt", "deps"),
    ("gradle", "versions.props", "deps"),
    ("gradle", "versions.lock", "deps"),
    ("haskell-cabal", "app.cabal", "deps"),
    ("helm-requirements", "chart/requirements.yaml", "deps"),
    ("helm-values", "chart/values.yaml", "iac"),
    ("helmfile", "helmfile.yaml", "iac"),
    ("helmfile", "helmfile.d/00-base.yaml.gotmpl", "iac"),
    ("helmv3", "charts/api/Chart.yaml", "iac"),
    ("jsonnet-bundler", "jsonnetfile.json", "deps"),
    ("kustomize", "deploy/overlays/prod/kustomization.yaml", "iac"),
    ("leiningen", "project.clj", "deps"),
    ("maven-wrapper", ".mvn/wrapper/maven-wrapper.properties", "deps"),
    ("maven-wrapper", "mvnw.cmd", "deps"),
    ("maven", "pom.xml", "deps"),
    ("maven", "modules/core.pom.xml", "deps"),
    ("maven", "pom.template.xml", "deps"),
    ("maven", ".mvn/settings.xml", "deps"),
    ("maven", ".m2/settings.xml", "deps"),
    ("maven", ".mvn/extensions.xml", "deps"),
    ("mint", "Mintfile", "deps"),
    ("mise", "mise.toml", "deps"),
    ("mise", ".mise.local.toml", "deps"),
    ("mise", "mise/config.toml", "deps"),
    ("mise", ".config/mise.toml", "deps"),
    ("mise", ".config/mise/config.toml", "deps"),
    ("mise", ".config/mise/conf.d/python.toml", "deps"),
    ("mise", ".rtx.toml", "deps"),
    ("mix", "mix.exs", "deps"),
    ("nix", "flake.nix", "deps"),
    ("nodenv", ".node-version", "deps"),
    ("npm", "package.json", "deps"),
    ("npm", "pnpm-workspace.yaml", "deps"),
    ("npm", ".yarnrc.yml", "deps"),
    ("nuget", "src/App/App.csproj", "deps"),
    ("nuget", "Directory.Packages.props", "deps"),
    ("nuget", "dotnet-tools.json", "deps"),
    ("nuget", "global.json", "deps"),
    ("nvm", ".nvmrc", "deps"),
    ("osgi", "src/main/features/feature.json", "deps"),
    ("pep621", "pyproject.toml", "deps"),
    ("pip_requirements", "requirements-dev.txt", "deps"),
    ("pip_requirements", "requirements.pip", "deps"),
    ("pip_setup", "setup.py", "deps"),
    ("pipenv", "Pipfile", "deps"),
    ("pixi", "pixi.toml", "deps"),
    ("pre-commit", ".pre-commit-config.yaml", "ci"),
    ("proto", ".prototools", "deps"),
    ("pub", "pubspec.yaml", "deps"),
    ("pub", "pubspec.yml", "deps"),
    ("puppet", "Puppetfile", "deps"),
    ("pyenv", ".python-version", "deps"),
    ("quadlet", "containers/systemd/web.container", "iac"),
    ("quadlet", "containers/systemd/data.volume", "iac"),
    ("ruby-version", ".ruby-version", "deps"),
    ("runtime-version", "runtime.txt", "deps"),
    ("rust-toolchain", "rust-toolchain.toml", "deps"),
    ("sbt", "build.sbt", "deps"),
    ("sbt", "project/Dependencies.scala", "deps"),
    ("sbt", "project/build.properties", "deps"),
    ("setup-cfg", "setup.cfg", "deps"),
    ("smithy", "smithy-build.json", "deps"),
    ("swift", "Package.swift", "deps"),
    ("terraform-version", ".terraform-version", "deps"),
    ("terraform", "modules/vpc/main.tf", "iac"),
    ("terraform", "main.tofu", "iac"),
    ("terragrunt-version", ".terragrunt-version", "deps"),
    ("terragrunt", "live/prod/terragrunt.hcl", "iac"),
    ("travis", ".travis.yml", "ci"),
    ("unity3d", "Game/ProjectSettings/ProjectVersion.txt", "deps"),
    ("velaci", ".vela.yml", "ci"),
    ("vendir", "vendir.yml", "deps"),
    ("woodpecker", ".woodpecker.yml", "ci"),
    ("woodpecker", ".woodpecker/test.yaml", "ci"),
]

# Patterns the path rules decline, each for a stated reason; the file stays src (or other).
DECLINED = [
    ("buildpacks", "project.toml", "deps",
     "matching ignores case, so it is Julia's Project.toml (deps); a buildpacks descriptor needs content"),
    ("devcontainer", ".devcontainer/devcontainer.json", "other", "editor settings (principle 8)"),
    ("homeassistant-manifest", "custom_components/x/manifest.json", "src", "manifest.json is mostly web manifests"),
    ("homebrew", "Formula/foo.rb", "src", "a tap's formulas are its product, not its dependencies"),
    ("html", "public/index.html", "src", "CDN links in HTML are code"),
    ("jenkins", "plugins.txt", "src",
     "a generic name: as deps it would outrank iac and ci locations (deploy/plugins.yaml) by rule order"),
    ("kotlin-script", "scripts/release.main.kts", "src", "a script, even with @file:DependsOn"),
    ("meteor", "imports/package.js", "src", "package.js is mostly ordinary JavaScript"),
    ("sbt", "repositories", "src", "a generic file name; sbt reads ~/.sbt/repositories"),
    ("scalafmt", ".scalafmt.conf", "other", "formatter settings (principle 8)"),
    ("typst", "paper/main.typ", "src", "documents"),
    ("xcodegen", "project.yml", "src", "a generic file name"),
]


@each_case(("manager", "path", "bucket"), COVERED)
def test_every_renovate_default_pattern_is_classified(rules: RuleSet, manager: str, path: str, bucket: str) -> None:
    match = rules.match(path)
    assert match.bucket == bucket, f"{manager}: {path} is {match.bucket} by {match.rule}, expected {bucket}"


@each_case(("manager", "path", "bucket", "why"), DECLINED)
def test_declined_renovate_patterns_keep_their_bucket(
    rules: RuleSet, manager: str, path: str, bucket: str, why: str
) -> None:
    match = rules.match(path)
    assert match.bucket == bucket, f"{manager}: {path} is {match.bucket} by {match.rule} ({why})"


# The red team's list (issue 12, item 5), each with the bucket it must reach.
RED_TEAM = [
    ("Earthfile", "ci"), ("codefresh.yml", "ci"), (".gocd.yaml", "ci"), ("bamboo-specs/bamboo.yml", "ci"),
    (".codecatalyst/workflows/build.yaml", "ci"), ("atlantis.yaml", "ci"), (".spacelift/config.yml", "ci"),
    ("eng/pipelines/ci.yml", "ci"), (".azure/pipelines/ci.yml", "ci"), ("vars/buildPlugin.groovy", "ci"),
    ("base/deployment.yaml", "iac"), ("fleet.yaml", "iac"), ("heroku.yml", "iac"), ("app.json", "iac"),
    (".ebextensions/options.config", "iac"), ("appspec.yml", "iac"), ("wrangler.toml", "iac"),
    ("firebase.json", "iac"), (".do/app.yaml", "iac"), ("site.yml", "iac"), ("kcl.mod.lock", "deps"),
    ("jsonnetfile.lock.json", "deps"), ("Puppetfile", "deps"),
]


@each_case(("path", "bucket"), RED_TEAM)
def test_the_red_team_paths_and_their_spellings(rules: RuleSet, path: str, bucket: str) -> None:
    # Matching ignores case (a checkout on macOS or Windows does), at any folder the rule allows.
    for spelling in (path, path.upper(), path.lower(), path.swapcase()):
        assert rules.match(spelling).bucket == bucket, spelling


@each_case(("path", "bucket"), RED_TEAM)
def test_test_data_and_ci_folders_still_decide_first(rules: RuleSet, path: str, bucket: str) -> None:
    # Principle 1: a copy under a test-data folder is an input of a test, unless its own name is ci or iac (issue 12
    # item 6: test data lowers deps only); a root-anchored name (a forge's own folder) is not one there.
    match = rules.match(f"pkg/parser/testdata/{path}")
    assert match.bucket == (bucket if bucket in ("ci", "iac") and match.rule == rules.match(path).rule else "src")
    # Principle 0: inside a CI system's own folder everything is CI.
    assert rules.match(f".circleci/{path}").bucket == "ci"


@each_case(("path", "bucket"), [(p, b) for p, b in RED_TEAM if b in ("ci", "iac")])
def test_renaming_a_missed_file_away_is_still_sensitive(rules: RuleSet, path: str, bucket: str) -> None:
    # Both sides of a rename count: moving an Earthfile to docs/ does not make the change src.
    change = FileChange(path="docs/notes.txt", old_path=path, status="renamed")
    assert classify_change(change, rules).bucket == bucket


def test_anchored_rules_do_not_reach_nested_look_alikes(rules: RuleSet) -> None:
    # Heroku reads the root app.json only; a nested one is an Expo or web-app config.
    assert rules.match("mobile/app.json").bucket == "src"
    # A shared library's steps are the root vars/; a vars/ folder elsewhere is not.
    assert rules.match("src/vars/helpers.groovy").bucket == "src"
    # base/ counts for YAML only, like the other manifest folders.
    assert rules.match("pkg/base/client.go").bucket == "src"
    # A nested eng/pipelines/ is no Azure Pipelines folder (Azure DevOps reads the path it is given,
    # but the convention is the root one).
    assert rules.match("docs/eng/pipelines/notes.md").bucket == "src"
