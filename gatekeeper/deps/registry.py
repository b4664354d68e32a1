"""Which files hold dependencies, and how to read each: file name → parser.

GitHub reads workflows only from `.github/workflows/` at the repository root; every other format is
recognised by its file name wherever it sits (monorepos keep one manifest per package).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from gatekeeper.deps import (
    actions,
    bazel,
    bazelrepos,
    bundler,
    cargo,
    cargogit,
    ciconfigs,
    cljdeps,
    cocoapods,
    composer,
    copier,
    daggermod,
    dart,
    deno,
    devcontainer,
    dockerruns,
    edits,
    elixir,
    fluxhelm,
    gemspec,
    globaljson,
    godep,
    golang,
    govendor,
    gradle,
    gradleprops,
    hcllines,
    helmfile,
    helmvalues,
    hunklines,
    hunks,
    infra,
    jvm,
    kustomize,
    makehunks,
    meteor,
    mise,
    mixexs,
    nixflake,
    npm,
    nuget,
    nugetedits,
    omnibus,
    pipfile,
    pnpmcatalog,
    poetrylines,
    pomlines,
    precommit,
    pypi,
    rebar,
    refedits,
    sbt,
    setupfiles,
    setuphunks,
    submodule,
    swift,
    swiftmanifest,
    tflint,
    toolfiles,
    toxconfig,
    xcodegen,
    xcodeproj,
)
from gatekeeper.deps.model import Dependency
from gatekeeper.lazy_pattern import lazy

Parser = Callable[[str, bytes], list[Dependency]]
Edits = Callable[[str, bytes], tuple[list[Dependency], list[Dependency]]]


def _edits(ecosystem: str, reader: edits.LineReader) -> Edits:
    return functools.partial(edits.read, ecosystem, reader)


def _npm_hunks(path: str, data: bytes) -> list[Dependency]:
    return hunks.package_lock_hunks("npm", path, data)


def _cargo_hunks(path: str, data: bytes) -> list[Dependency]:
    return cargogit.cargo_lock_hunks(path, data)


def _pip_hunks(path: str, data: bytes) -> list[Dependency]:
    return hunks.toml_lock_hunks("pip", path, data)


@dataclass(frozen=True, slots=True)
class Format:
    """How to read one kind of file."""

    name: str
    parse: Parser
    line_oriented: bool  # a patch's hunk lines alone parse into the dependencies they show
    manifests: tuple[str, ...] = ()  # sibling files telling which of a lockfile's entries are direct
    hunks: Parser | None = None  # reads a modified file's hunk lines when the format is not line-oriented
    # reads a modified manifest's raw hunks (edits.py): (base, head) dependencies of its changed lines
    edits: Edits | None = None


_BY_NAME: dict[str, Format] = {
    "package.json": Format("package.json", npm.parse_package_json, False, edits=_edits("npm", edits.npm_line)),
    "package-lock.json": Format("package-lock.json", npm.parse_package_lock, False, ("package.json",), _npm_hunks),
    "npm-shrinkwrap.json": Format("npm-shrinkwrap.json", npm.parse_package_lock, False, ("package.json",),
                                  _npm_hunks),
    "yarn.lock": Format("yarn.lock", npm.parse_yarn_lock, True, ("package.json",)),
    "pnpm-lock.yaml": Format("pnpm-lock.yaml", npm.parse_pnpm_lock, False, ("package.json",),
                             hunks.pnpm_lock_hunks),
    "pnpm-workspace.yaml": Format("pnpm-workspace.yaml", npm.parse_pnpm_workspace, False,
                                  edits=_edits("npm", pnpmcatalog.workspace_line)),
    "bun.lock": Format("bun.lock", npm.parse_bun_lock, False, ("package.json",)),
    # Deno's import maps (deno.py): jsr:, npm: and deno.land specifiers
    **{name: Format("deno.json", deno.parse_deno_json, False, edits=_edits("jsr", deno.deno_json_line))
       for name in deno.NAMES},
    "pyproject.toml": Format("pyproject.toml", pypi.parse_pyproject, False,
                             edits=_edits("pip", poetrylines.poetry_line)),
    # setuptools' (setupfiles.py): literal requirement lists; from a patch the literal requirement lines a hunk shows
    # in such a list (setuphunks.py), setup.py's beside a `partial` problem (whether it reaches setup(): pass --tree)
    "setup.py": Format("setup.py", setupfiles.parse_setup_py, False, edits=_edits("pip", setuphunks.setup_py_line)),
    "setup.cfg": Format("setup.cfg", setupfiles.parse_setup_cfg, False, edits=_edits("pip", setuphunks.setup_cfg_line)),
    "Pipfile": Format("Pipfile", pipfile.parse_pipfile, False, edits=_edits("pip", pipfile.pipfile_line)),
    "Pipfile.lock": Format("Pipfile.lock", pipfile.parse_pipfile_lock, False, hunks=hunks.pipfile_lock_hunks),
    "poetry.lock": Format("poetry.lock", pypi.parse_poetry_lock, False, ("pyproject.toml",), _pip_hunks),
    "uv.lock": Format("uv.lock", pypi.parse_uv_lock, False, ("pyproject.toml",), _pip_hunks),
    "go.mod": Format("go.mod", golang.parse_go_mod, True),
    "go.sum": Format("go.sum", golang.parse_go_sum, True, ("go.mod",)),
    "gomod2nix.toml": Format("gomod2nix.toml", golang.parse_gomod2nix, False, ("go.mod",)),
    # Go's dep tool before modules (godep.py, round 52): from a patch a constraint's version line with the name its
    # hunk shows; a Gopkg.lock table the hunk shows whole (round 59), else `partial`
    "Gopkg.toml": Format("Gopkg.toml", godep.parse_gopkg_toml, False, edits=_edits("go", godep.gopkg_toml_line)),
    "Gopkg.lock": Format("Gopkg.lock", godep.parse_gopkg_lock, False, hunks=godep.gopkg_lock_hunks),
    "Cargo.toml": Format("Cargo.toml", cargo.parse_cargo_toml, False, edits=_edits("cargo", cargo.cargo_line)),
    "Cargo.lock": Format("Cargo.lock", cargo.parse_cargo_lock, False, ("Cargo.toml",), _cargo_hunks),
    "Gemfile": Format("Gemfile", bundler.parse_gemfile, True),
    "Gemfile.lock": Format("Gemfile.lock", bundler.parse_gemfile_lock, True, hunks=bundler.gemfile_lock_hunks),
    "composer.json": Format("composer.json", composer.parse_composer_json, False,
                            edits=_edits("composer", composer.composer_line)),
    "composer.lock": Format("composer.lock", composer.parse_composer_lock, False, ("composer.json",),
                            hunks.composer_lock_hunks),
    "pom.xml": Format("pom.xml", jvm.parse_pom, False, edits=refedits.pom_edits),
    "packages.lock.json": Format("packages.lock.json", nuget.parse_packages_lock, False),
    "packages.config": Format("packages.config", nuget.parse_packages_config, False,
                              edits=_edits("nuget", nugetedits.packages_config_line)),
    "Directory.Packages.props": Format("msbuild", nuget.parse_msbuild, False,
                                       edits=_edits("nuget", nugetedits.msbuild_line)),
    # imported by every project below it: its PackageReference items and the properties they read
    **{name: Format("msbuild", nuget.parse_msbuild, False, edits=_edits("nuget", nugetedits.msbuild_line))
       for name in ("Directory.Build.props", "Directory.Build.targets")},
    "Chart.yaml": Format("Chart.yaml", infra.parse_chart, False, edits=_edits("helm", edits.helm_line)),
    "Chart.lock": Format("Chart.lock", infra.parse_chart, False, edits=_edits("helm", edits.helm_line)),
    **{name: Format("helmfile.yaml", helmfile.parse_helmfile, False, edits=_edits("helm", helmfile.helmfile_line))
       for name in helmfile.NAMES},  # the charts a helmfile's releases install (helmfile.py)
    "values.yaml": Format("values.yaml", helmvalues.parse_values, False, hunks=helmvalues.values_hunks),
    "values.yml": Format("values.yaml", helmvalues.parse_values, False, hunks=helmvalues.values_hunks),
    ".terraform.lock.hcl": Format(".terraform.lock.hcl", infra.parse_terraform_lock, True),
    ".tflint.hcl": Format(".tflint.hcl", tflint.parse_tflint, False),  # the plugins tflint installs and runs
    **{name: Format(name, toxconfig.parse_tox, False) for name in ("tox.ini", "tox.toml")},  # what tox installs
    "project.pbxproj": Format("project.pbxproj", xcodeproj.parse_pbxproj, False, hunks=xcodeproj.pbxproj_hunks),
    "action.yml": Format("action", actions.parse_workflow, True, hunks=actions.workflow_hunks),
    # versions the build scripts of its folder and below use (gradleprops.py): read with them under --tree
    "gradle.properties": Format("gradle", gradleprops.parse_nothing, False,
                                edits=_edits("maven", gradleprops.properties_line)),
    "gradle-wrapper.properties": Format("wrapper", gradle.parse_wrapper, True),
    "maven-wrapper.properties": Format("wrapper", gradle.parse_wrapper, True),
    **{name: Format("wrapper", gradle.parse_wrapper, True) for name in gradle.SCRIPTS},  # the header's version
    ".tool-versions": Format(".tool-versions", toolfiles.parse_tool_versions, True),
    "rust-toolchain.toml": Format("rust-toolchain", toolfiles.parse_rust_toolchain, False,
                                  edits=_edits("tool", hunklines.rust_toolchain_line)),
    "rust-toolchain": Format("rust-toolchain", toolfiles.parse_rust_toolchain, False),
    **{name: Format(name, toolfiles.parser_for(tool), True) for name, tool in toolfiles.ONE_TOOL.items()},
    "action.yaml": Format("action", actions.parse_workflow, True, hunks=actions.workflow_hunks),
    "dotnet-tools.json": Format("dotnet-tools.json", nuget.parse_dotnet_tools, False,
                                hunks=hunks.dotnet_tools_hunks),
    # a Dagger module's engine and remote modules (daggermod.py, round 53); from a patch its engineVersion line
    "dagger.json": Format("dagger.json", daggermod.parse_dagger_json, False,
                          edits=_edits("tool", daggermod.dagger_json_line)),
    "global.json": Format("global.json", globaljson.parse_global_json, False,
                          edits=_edits("nuget", globaljson.global_json_line)),
    "MODULE.bazel": Format("MODULE.bazel", bazel.parse_module_bazel, False,
                           edits=_edits("bazel", hunklines.bazel_line)),
    # the GitHub releases a WORKSPACE's http_archive/http_file calls download (bazelrepos.py); `.bzl` files below
    **{name: Format("bazel-repos", bazelrepos.parse_repos, False, hunks=bazelrepos.repos_hunks)
       for name in ("WORKSPACE", "WORKSPACE.bazel", "WORKSPACE.bzlmod")},
    **{name: Format("kustomization.yaml", kustomize.parse_kustomization, False,
                    edits=_edits("docker", hunklines.kustomize_line))
       for name in ("kustomization.yaml", "kustomization.yml", "Kustomization")},
    "pubspec.yaml": Format("pubspec.yaml", dart.parse_pubspec, False, edits=_edits("pub", hunklines.pubspec_line)),
    "pubspec.lock": Format("pubspec.lock", dart.parse_pubspec_lock, False, edits=_edits("pub", dart.pubspec_lock_line)),
    "mix.lock": Format("mix.lock", elixir.parse_mix_lock, True),
    # Nix flakes' inputs (round 51); from a patch, each `locked` object a hunk shows whole (round 56)
    "flake.lock": Format("flake.lock", nixflake.parse_flake_lock, False, hunks=nixflake.flake_lock_hunks),
    "mix.exs": Format("mix.exs", mixexs.parse_mix_exs, False, edits=_edits("hex", mixexs.mix_exs_line)),
    # Clojure's tools.deps (round 52): from a patch, a library's Maven version line under the `:deps` map it shows
    "deps.edn": Format("deps.edn", cljdeps.parse_deps_edn, False, edits=_edits("maven", cljdeps.deps_edn_line)),
    # rebar3's (Erlang terms): from a patch, the config's one-line entries of a top-level list, the lock's Hex lines
    "rebar.config": Format("rebar.config", rebar.parse_rebar_config, False,
                           edits=_edits("hex", rebar.rebar_config_line)),
    "rebar.lock": Format("rebar.lock", rebar.parse_rebar_lock, False, edits=_edits("hex", rebar.rebar_lock_line)),
    "Podfile.lock": Format("Podfile.lock", cocoapods.parse_podfile_lock, False),
    "Package.resolved": Format("Package.resolved", swift.parse_package_resolved, False,
                                hunks=swift.package_resolved_hunks),
    "Package.swift": Format("Package.swift", swiftmanifest.parse_package_swift, False,
                            edits=_edits("swift", swiftmanifest.package_swift_line)),
    **{name: Format(".pre-commit-config.yaml", precommit.parse_pre_commit, False,
                    edits=_edits("pre-commit", hunklines.precommit_line))
       for name in (".pre-commit-config.yaml", ".pre-commit-config.yml")},
    **{name: Format("project.yml", xcodegen.parse_project_spec, False, hunks=xcodegen.project_spec_hunks)
       for name in ("project.yml", "project.yaml")},
    **{name: Format("Makefile", toolfiles.parse_makefile, True, edits=makehunks.makefile_edits)
       for name in ("Makefile", "GNUmakefile", "makefile")},
    **{name: Format("devcontainer", devcontainer.parse_devcontainer, False,
                    edits=_edits("devcontainer", devcontainer.devcontainer_line))
       for name in ("devcontainer.json", ".devcontainer.json")},
    **{name: Format("devcontainer", devcontainer.parse_devcontainer_lock, False, hunks=devcontainer.lock_hunks)
       for name in ("devcontainer-lock.json", ".devcontainer-lock.json")},
}
_REQUIREMENTS = Format("requirements", pypi.parse_requirements, True, hunks=pypi.requirements_hunks)
_DOCKERFILE = Format("Dockerfile", dockerruns.parse_dockerfile, True, hunks=dockerruns.dockerfile_hunks)
_WORKFLOW = Format("workflow", actions.parse_workflow, True, hunks=actions.workflow_hunks)
_CIRCLECI = Format("circleci", ciconfigs.parse_circleci, True, hunks=ciconfigs.circleci_hunks)
_GITLAB_CI = Format("gitlab-ci", ciconfigs.parse_gitlab_ci, True, hunks=ciconfigs.gitlab_ci_hunks)
# Drone's and Woodpecker's pipelines run each step and service in the `image:` it names, as a GitLab job does, and are
# read alike (Renovate's droneci and woodpecker managers bump them; round 51)
_DRONE = Format("drone", ciconfigs.parse_gitlab_ci, True, hunks=ciconfigs.gitlab_ci_hunks)
_WOODPECKER = Format("woodpecker", ciconfigs.parse_gitlab_ci, True, hunks=ciconfigs.gitlab_ci_hunks)
_CATALOG = Format("versions.toml", jvm.parse_version_catalog, False, edits=refedits.catalog_edits)
_MAVEN_EXTENSIONS = Format("maven-extensions", jvm.parse_maven_extensions, False,
                           edits=_edits("maven", pomlines.pom_line))
_MSBUILD = Format("msbuild", nuget.parse_msbuild, False, edits=_edits("nuget", nugetedits.msbuild_line))
_TERRAFORM = Format("terraform", infra.parse_terraform, False, edits=_edits("terraform", hcllines.terraform_line))
SUBMODULE = Format("git-submodule", submodule.parse_gitlink, True)  # chosen by mode (160000), not by name
_COMPOSE = Format("compose", toolfiles.parse_compose, True, hunks=toolfiles.compose_hunks)
_GRADLE = Format("gradle", gradle.parse_build_script, False, edits=_edits("maven", gradle.gradle_line))
_SBT = Format("sbt", sbt.parse_build, False, edits=_edits("maven", sbt.sbt_line))
_GEMSPEC = Format("gemspec", gemspec.parse_gemspec, True)  # a gem's dependencies (round 46)
_OMNIBUS = Format("omnibus", omnibus.parse_definition, False, edits=omnibus.definition_edits)  # config/software/*.rb
_SBT_PROPERTIES = Format("sbt", sbt.parse_properties, True)
_MISE = Format("mise.toml", mise.parse_mise, False, edits=_edits("tool", mise.mise_line))
# Meteor's release and package lock, right in a `.meteor` folder (meteor.py, round 52): one line a release or package
_METEOR = {"release": Format("meteor-release", meteor.parse_meteor_release, True),
           "versions": Format("meteor-versions", meteor.parse_meteor_versions, True)}
_COPIER = Format(".copier-answers.yml", copier.parse_answers, False, hunks=copier.answers_hunks)
# Flux's HelmRelease and OCIRepository files (fluxhelm.py, round 56): from a patch, a chart's version, an OCI ref and
# the images the release's values show
_FLUX_HELM = Format("helmrelease", fluxhelm.parse_flux_helm, False, hunks=fluxhelm.flux_hunks)
# Gitpod's workspace file: its `image:` is the container a workspace runs in, with the checkout and the developer's
# git credentials inside, as a Dev Container's is; read as a Compose file's `image:` lines (red team 26).
_WORKSPACE_IMAGES = frozenset({".gitpod.yml", ".gitpod.yaml"})
_COMPOSE_NAME = lazy(r"^(?:docker-)?compose(?:[.-][\w.-]+)?\.ya?ml$")
# Rye's `requirements-dev.lock` holds requirement lines too (`requirements.lock` alone is Helm 2's: not read here).
_REQ_NAME = lazy(r"^(.*requirements.*|constraints.*)\.(txt|in)$|^requirements[-_].+\.lock$", re.IGNORECASE)
# The last suffix (lower case) of every name a rule of format_for past the Dockerfile names can match: an ASCII name
# without a line break whose suffix is not one of these has no format (a regex's `$` also matches before a final
# line break, and IGNORECASE matches `ı` for `i` and the Kelvin sign for `k`: such names take the rules' own tests).
# A rule added below the shortcut in format_for must add its name's last suffix here (or sit above the shortcut).
_SUFFIXES = frozenset({"yml", "yaml", "txt", "in", "lock", "toml", "csproj", "fsproj", "vbproj", "props", "tf", "mk",
                       "gradle", "kts", "rb", "bzl", "gemspec"})


# vndr's root vendor.conf and Docker's hack/vendor.sh (govendor.py, round 53): by their path, not their name alone (a
# `vendor.conf` elsewhere is another program's); line-oriented, so a patch's hunk lines read as the file does
_GO_VENDOR = {"vendor.conf": Format("vendor.conf", govendor.parse_vendor_conf, True),
              "hack/vendor.sh": Format("vendor.sh", govendor.parse_vendor_sh, True)}


def format_for(path: str | None) -> Format | None:
    """The format of the file at `path` (repository-relative, '/'-separated); None when it holds no dependencies."""
    if not path:
        return None
    folder, _, base = path.rpartition("/")
    lower = base.lower()
    # Every YAML file right in `.github/workflows/` is a workflow, whatever its name: ingress-nginx's `project.yml`
    # is no XcodeGen spec, nor a `values.yaml` there a chart's values.
    if folder == ".github/workflows" and lower.endswith((".yml", ".yaml")):
        return _WORKFLOW
    # CircleCI reads `.circleci/config.yml` (and a dynamic config's continuation beside it); GitLab `.gitlab-ci.yml`
    # and the files it includes, by convention `*.gitlab-ci.yml`
    if folder == ".circleci" and lower.endswith((".yml", ".yaml")):
        return _CIRCLECI
    if lower.endswith((".gitlab-ci.yml", ".gitlab-ci.yaml")):
        return _GITLAB_CI
    # Drone reads `.drone.yml`; Woodpecker `.woodpecker.yml` or each YAML file right in `.woodpecker/`, at the root
    if base == ".drone.yml":
        return _DRONE
    if (path in (".woodpecker.yml", ".woodpecker.yaml")
            or folder == ".woodpecker" and lower.endswith((".yml", ".yaml"))):
        return _WOODPECKER
    if path in _GO_VENDOR:
        return _GO_VENDOR[path]
    if meteor.is_meteor_file(folder, base):
        return _METEOR[base]
    # Maven reads its core extensions from `.mvn/extensions.xml` beside the top POM
    if base == "extensions.xml" and folder.rpartition("/")[2] == ".mvn":
        return _MAVEN_EXTENSIONS
    known = _BY_NAME.get(base)
    if known is not None:
        return known
    if lower in ("dockerfile", "containerfile") or lower.startswith("dockerfile.") or lower.endswith(".dockerfile"):
        return _DOCKERFILE
    if sbt.is_build_file(folder, base):
        return _SBT_PROPERTIES if base == "build.properties" else _SBT
    if lower.rpartition(".")[2] not in _SUFFIXES and base.isascii() and "\n" not in base:
        return None  # what most paths of a large change are: no rule below can match (_SUFFIXES)
    if _COMPOSE_NAME.match(lower) or base in _WORKSPACE_IMAGES:
        return _COMPOSE
    if copier.is_answers(base):
        return _COPIER
    if fluxhelm.is_file(base):
        return _FLUX_HELM
    if _REQ_NAME.match(base) or folder.rsplit("/", 1)[-1] == "requirements" and lower.endswith(".txt"):
        return _REQUIREMENTS
    if lower.endswith(".versions.toml"):
        return _CATALOG
    if lower.endswith(".toml") and mise.is_config(folder, base):
        return _MISE
    # and a props file of any name a project imports (`<Import Project="..\\Tests.props" />`): its package references
    # are the importing projects' (graphql-dotnet's src/Tests.props holds Microsoft.NET.Test.Sdk)
    if lower.endswith((".csproj", ".fsproj", ".vbproj", ".props")):
        return _MSBUILD
    if lower.endswith(".tf"):
        return _TERRAFORM
    if base.endswith(".gemspec"):
        return _GEMSPEC
    if omnibus.is_definition(folder, base):
        return _OMNIBUS
    if lower.endswith(".mk"):
        return _BY_NAME["Makefile"]
    if base.endswith(".bzl"):
        return _BY_NAME["WORKSPACE"]  # Starlark macros: their http_archive/http_file calls (bazelrepos.py)
    if gradle.is_script(base):
        return _GRADLE
    return None
