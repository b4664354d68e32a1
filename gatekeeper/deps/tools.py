"""Versions a file pins outside its format's dependency syntax: the tools a workflow's setup actions
install (`node-version: 20`) or its environment names (`GO_VERSION: 1.22`) or a shell line assigns for a tool released
on GitHub (`curl https://mise.run | MISE_VERSION=v2025.8.1 sh`), the runner image a job runs
on (`runs-on: ubuntu-24.04`), and any line a Renovate annotation comment
(`# renovate: datasource=github-releases depName=helm/helm`) names.

All three are read line by line, so a patch's hunks read them too. A value counts only when it names a
version (a digit, or `v` and a digit, first): `lts/*`, `stable`, `latest` and `${{ matrix.go }}` name
none; a list under a setup input's key (`node-version: [18.x, 20.x]`, or its block list) names each of its versions
(round 53), a list of one (`[1.26.x]`) that one version.
"""

from __future__ import annotations

import dataclasses
import re

from gatekeeper.deps.model import Dependency, Scope
from gatekeeper.lazy_pattern import lazy

TOOL = "tool"  # a program a build installs by version: node, go, helm, a GitHub release
RUNNER = "github-runner"  # a GitHub-hosted runner image: ubuntu, macos, windows

# A tool is named as the bots name it: a language runtime or a registry package by its plain name (`node`,
# `go`, `python`, `pnpm`), a program released on GitHub by that repository (Renovate's packageName:
# `helm/helm`, `docker/buildx`, `golangci/golangci-lint`), so one tool has one name whichever line pins it.
_RELEASED = {
    "helm": "helm/helm", "buildx": "docker/buildx", "docker-buildx": "docker/buildx", "compose": "docker/compose",
    "docker-compose": "docker/compose", "uv": "astral-sh/uv", "golangci-lint": "golangci/golangci-lint",
    "golangci": "golangci/golangci-lint", "chart-testing": "helm/chart-testing",
    "chart-releaser": "helm/chart-releaser", "kind": "kubernetes-sigs/kind", "trivy": "aquasecurity/trivy",
    "cosign": "sigstore/cosign", "mise": "jdx/mise", "just": "casey/just", "hugo": "gohugoio/hugo",
    "pixi": "prefix-dev/pixi", "tflint": "terraform-linters/tflint", "goreleaser": "goreleaser/goreleaser",
    "jfrog-cli": "jfrog/jfrog-cli", "syft": "anchore/syft", "ko": "ko-build/ko", "packer": "hashicorp/packer",
    "terraform": "hashicorp/terraform", "kustomize": "kubernetes-sigs/kustomize", "yq": "mikefarah/yq",
    "hadolint": "hadolint/hadolint", "shellcheck": "koalaman/shellcheck", "crane": "google/go-containerregistry",
    "aqua": "aquaproj/aqua", "grpcurl": "fullstorydev/grpcurl", "staticcheck": "dominikh/go-tools",
    # controller-gen ships in kubernetes-sigs/controller-tools' releases (timoni's `CONTROLLER_GEN_VERSION ?= v0.21.0`,
    # the kubebuilder layout's `CONTROLLER_TOOLS_VERSION`): one name for both spellings
    "controller-gen": "kubernetes-sigs/controller-tools", "controller-tools": "kubernetes-sigs/controller-tools",
    # Bazel's BUILD formatter and editor ship in bazelbuild/buildtools' releases (rules_jvm_external's http_files)
    "buildifier": "bazelbuild/buildtools", "buildozer": "bazelbuild/buildtools",
}


def tool_name(tool: str) -> str:
    """The one name of a tool, however a line spells it (`GOLANGCI_VERSION`, `golangci-lint-action`)."""
    return _RELEASED.get(tool, tool)


def released(short: str) -> str | None:
    """The repository of a tool released on GitHub by its short name (`golangci`: golangci/golangci-lint), else None."""
    return _RELEASED.get(short)


# Inputs whose key names the tool in any step (also a matrix `include:` entry a step reads).
_KEYED = {
    "node-version": "node", "go-version": "go", "python-version": "python", "java-version": "java",
    "dotnet-version": "dotnet", "ruby-version": "ruby", "bun-version": "bun", "deno-version": "deno",
    "terraform_version": "terraform", "gradle-version": "gradle", "hugo-version": "hugo",
    "just-version": "just", "pixi-version": "pixi", "cosign-release": "cosign", "renovate-version": "renovate",
    "tflint_version": "tflint", "eas-version": "eas-cli", "pnpm-version": "pnpm", "helm-version": "helm",
    "kubectl-version": "kubectl", "kind-version": "kind", "flutter-version": "flutter",
}
# Any other input named `<tool>_version` or `<tool>-version` whose tool is one _RELEASED names: `aqua_version: v2.62.3`
# (aquaproj/aqua-installer, and the reusable workflows that pass it on, whose values Renovate's aqua preset bumps),
# `helm_version`, `goreleaser-version`. A key naming no known tool (`app_version`, `schema-version`) names nothing.
_TOOL_INPUT = lazy(r"^(?P<tool>[a-z][a-z0-9]{0,40}(?:[-_][a-z0-9]{1,40}){0,3}?)[-_]version$")
# Actions whose inputs pin the tools they install (a generic `version:`, `toolchain:`), each input's tool; the action
# by its name in lower case, as GitHub matches it. DeLaGuardo/setup-clojure takes one input a tool (clojure-lsp's
# `lein: 2.9.5`, round 54), named as mise's registry names them; Bogdanp/setup-racket's `version:` (unison's, given as
# `${{env.racket_version}}`: actions.env_values).
_BY_ACTION: dict[str, dict[str, str]] = {
    "azure/setup-helm": {"version": "helm"}, "azure/setup-kubectl": {"version": "kubectl"},
    "docker/setup-buildx-action": {"version": "buildx"}, "docker/setup-compose-action": {"version": "compose"},
    "pnpm/action-setup": {"version": "pnpm"}, "astral-sh/setup-uv": {"version": "uv"},
    "golangci/golangci-lint-action": {"version": "golangci-lint"}, "helm/kind-action": {"version": "kind"},
    "helm/chart-testing-action": {"version": "chart-testing"},
    "helm/chart-releaser-action": {"version": "chart-releaser"}, "snok/install-poetry": {"version": "poetry"},
    "pdm-project/setup-pdm": {"version": "pdm"}, "jdx/mise-action": {"version": "mise"},
    "aquasecurity/trivy-action": {"version": "trivy"}, "aquasecurity/setup-trivy": {"version": "trivy"},
    "dtolnay/rust-toolchain": {"toolchain": "rust"}, "jakebailey/pyright-action": {"version": "pyright"},
    "goreleaser/goreleaser-action": {"version": "goreleaser"}, "jfrog/setup-jfrog-cli": {"version": "jfrog-cli"},
    "hashicorp/setup-packer": {"version": "packer"}, "imjasonh/setup-crane": {"version": "crane"},
    "ko-build/setup-ko": {"version": "ko"}, "anchore/sbom-action/download-syft": {"syft-version": "syft"},
    "docker/setup-docker-action": {"version": "docker"}, "actions-rs/toolchain": {"toolchain": "rust"},
    "hecrj/setup-rust-action": {"rust-version": "rust"}, "bogdanp/setup-racket": {"version": "racket"},
    "delaguardo/setup-clojure": {"lein": "lein", "cli": "clojure", "boot": "boot", "bb": "babashka",
                                 "clj-kondo": "clj-kondo", "cljfmt": "cljfmt", "cljstyle": "cljstyle",
                                 "zprint": "zprint"},
}
# docker/setup-docker-action's `version:` also takes the release as a `version=28.5.2` pair (alphagov/govuk-
# infrastructure's, which Renovate moved to `v29.7.2`): that one pair is the version; any other pair names nothing.
_PAIRED = ("docker/setup-docker-action", "version=")
_INPUT = lazy(r"""^(?P<indent>\s*)(?:-\s+)?(?P<key>[\w-]+)\s*:\s*(?P<q>["']?)(?P<value>[^"'\s#]+)(?P=q)"""
              r"""\s*(?:#.*)?$""")
# A matrix of one (`go-version: [1.26.x]`, `node-version: ["20"]`): one version, a pin written as a list. A list
# of more is a matrix of versions the job is tested on (round 53: `node-version: [18.x, 20.x]`, or its block list of
# `- "3.12"` lines below the key; _MATRIX_KEYED): each item that names a version is the tool at that version, as an
# `os:` matrix's runners are.
_ONE_ITEM = lazy(r"""^(?P<indent>\s*)(?:-\s+)?(?P<key>[\w-]+)\s*:\s*\[\s*(?P<q>["']?)(?P<value>[^"'\s#,\[\]]+)"""
                 r"""(?P=q)\s*\]\s*(?:#.*)?$""")
VERSIONISH = lazy(r"^v?\d[\w.+-]*$")  # a value that names a version: `1.22`, `v4.2.0`, `3.x`
# A workflow's environment pinning a tool by name: `GO_VERSION: '1.22.2'`, `RENOVATE_VERSION: "43.288.0"`
# (crossplane's CI; `renovate`, `go`, `golangci`, `docker-buildx`). Upper-case keys only: an input such
# as `version:` belongs to its step's action.
_ENV_VERSION = lazy(r"""^\s+(?P<tool>[A-Z][A-Z0-9_]*?)_VERSION\s*:\s*(?P<q>["']?)(?P<value>[^"'\s#]+)(?P=q)"""
                    r"""\s*(?:#.*)?$""")
# The same under a lower-case key, read only right under an `env:` key (round 57: unison's `racket_version: "8.14"`,
# pyheck's `python_version: "3.9"`): anywhere else a lower-case key is a step's input or a job's output.
_ENV_LOWER = lazy(r"""^\s+(?P<tool>[a-z][a-z0-9]{0,40}(?:_[a-z0-9]{1,40}){0,3}?)_version\s*:\s*(?P<q>["']?)"""
                  r"""(?P<value>[^"'\s#]+)(?P=q)\s*(?:#.*)?$""")
_ENV_KEY = lazy(r"^(?P<indent>\s*)env\s*:\s*(?:#.*)?$")
# A variable naming the project's own version (`APP_VERSION: 2.0.0`, `ARG BUILD_VERSION=0.0.0`), no tool
OWN_VERSIONS = frozenset({"app", "application", "build", "release", "project"})
# A released tool's version assigned on a shell line, for the command after it or the lines below
# (`curl https://mise.run | MISE_VERSION=v2025.8.1 sh`, apollographql/apollo-server's CircleCI config, which its
# Renovate custom manager bumps; `export HELM_VERSION=3.15.2`): only a tool _RELEASED names, at a digit-led value.
_SHELL_VERSION = lazy(r"""(?:^|[\s;&|(])(?P<tool>[A-Z][A-Z0-9]{0,40}(?:_[A-Z0-9]{1,40}){0,3}?)_VERSION="""
                      r"""(?P<q>["']?)(?P<value>v?\d[\w.+-]{0,100})(?P=q)(?=[\s;&|)]|$)""")
_STEP_USES = lazy(r"""^(?P<indent>\s*(?:-\s+)?)uses\s*:\s*["']?(?P<name>[^@"'\s#]+)""")
# `runs-on: ubuntu-24.04`, `runs-on: [macos-14]`, `runs-on: windows-2022`; `-latest` names no version. The `[` is read
# with the blanks after it: `\s*\[?\s*` split a line of blanks every way, 8 KiB in 0.7 CPU-s (test_redos_line_cost).
_RUNS_ON = lazy(r"""^\s*(?:-\s+)?runs-on\s*:\s*(?:\[\s*)?["']?(?P<os>ubuntu|macos|windows)-"""
                r"""(?P<version>\d[\w.-]*)["']?""")
# A job's runner from its matrix: `runs-on: ${{ matrix.os }}` over `os: [ubuntu-16.04]` (CocoaPods' specs): an `os:`
# key's flow list, its block list below it (`os:` then `- ubuntu-22.04` lines), or an include entry's `- os: macos-14`,
# each item a GitHub-hosted runner's label at a version (not `-latest`, not another name)
_MATRIX_KEYED = lazy(r"""^\s*(?:-\s+)?(?P<key>[\w-]{1,40})\s*:\s*\[(?P<items>[^\[\]#]{1,2000})\]\s*(?:#.*)?$""")
_LIST_KEY = lazy(r"""^(?P<indent>\s*)(?P<key>[\w-]{1,40})\s*:\s*(?:#.*)?$""")
_MATRIX_OS = lazy(r"""^\s*(?:-\s+)?os\s*:\s*\[(?P<items>[^\[\]#]{1,2000})\]\s*(?:#.*)?$""")
_INCLUDE_OS = lazy(r"""^\s*-\s+os\s*:\s*(?P<item>[^\s#]{1,120})\s*(?:#.*)?$""")
_OS_KEY = lazy(r"""^(?P<indent>\s*)os\s*:\s*(?:#.*)?$""")
_OS_ITEM = lazy(r"""^(?P<indent>\s*)-\s+(?P<item>[^\s#][^#]{0,200}?)\s*(?:#.*)?$""")
_RUNNER_LABEL = lazy(r"""^["']?(?P<os>ubuntu|macos|windows)-(?P<version>\d[\w.-]{0,100})["']?$""")
# Renovate's annotation: `# renovate: datasource=docker depName=node` (its documented form), a
# repository's own `# renovate: github=owner/repo`, or its own prefix naming the datasource
# (`# renovate-helm: depName=keda registryUrl=…`, aws-samples/eks-workshop-v2's regex manager); the line
# below it holds the version. A repository's own regex manager may match the comment without its colon
# (gabe565/charts: `# renovate datasource=docker depName=vabene1111/recipes` over a chart's `appVersion:`): that
# form is read only when it names its datasource, so a prose comment (`# renovate later: a=b`) names nothing.
# A key holds no `=` (Renovate's have none): with `\S+=\S+` a line of `a=b=c` that fails at its end was split every
# way, 20,000 characters in 4.7 CPU-s (attack 14); now each pair splits one way, in linear time.
_ANNOTATION = lazy(r"^\s*#\s*renovate(?:-(?P<source>[A-Za-z][\w-]{0,40}))?(?:\s*(?P<colon>:)\s*|\s+)"
                   r"(?P<pairs>[^\s=]+=\S+(?:\s+[^\s=]+=\S+)*)\s*$", re.IGNORECASE)
_ANNOTATED = lazy(r"""^\s*(?:-\s+)?(?:(?:ARG|ENV)\s+)?[\w.-]+\s*[:=]\s*(?P<q>["']?)(?P<value>[^"'\s#]+)(?P=q)"""
                  r"""\s*(?:#.*)?$""")
# A shell default in the annotated assignment: `ENV BUILDX_VERSION="${BUILDX_VERSION:-v0.6.3}"` (the build arg of that
# name, else v0.6.3; woodpecker-ci/plugin-docker-buildx, whose regex manager bumps the default). Only a default that
# is the whole value and holds no variable itself: `${A:-${B}}`, `${A:-1}-rc` are kept as written.
_DEFAULTED = lazy(r"""^\s*(?:-\s+)?(?:(?:ARG|ENV)\s+)?[\w.-]+\s*[:=]\s*(?P<q>["']?)\$\{[A-Za-z_]\w{0,100}:?-"""
                  r"""(?P<value>[^"'\s#${}]+)\}(?P=q)\s*(?:#.*)?$""")
_DEFAULT = lazy(r"^\$\{[A-Za-z_]\w{0,100}:?-(?P<value>[^\s${}]+)\}$")


def shell_default(value: str) -> str:
    """The default of a value that is one shell default and nothing else (`${BUILDX_VERSION:-v0.6.3}`: v0.6.3); any
    other value as it is."""
    m = _DEFAULT.match(value)
    return m.group("value") if m is not None else value
# Any assignment (`KEY: x`, `KEY=x`, `KEY := x`, `KEY ?= x`, `ENV KEY x`), for the value kept as written.
_ASSIGNED = lazy(r"^\s*(?:(?:-\s+)?(?:ARG\s+)?(?P<key>[\w.-]+)\s*(?:[:?+]?=|:)|ENV\s+[\w.-]+(?:\s*=|\s))"
                 r"\s*(?P<raw>\S.*?)\s*$")
MAX_RAW = 200
# An image digest assigned alone: `GOLANG_IMAGE_SHA = sha256:<64 hex>`, `ARG NODE_DIGEST=@sha256:…`,
# `digest: "sha256:…"`.
_DIGEST_LINE = lazy(r"""^\s*(?:-\s+)?(?:(?:ARG|ENV|export)\s+)?(?P<key>[\w.-]{1,100})\s*(?:[:?+]?=|:)\s*(?P<q>["']?)"""
                    r"""@?sha256:(?P<hex>[0-9a-f]{64})(?P=q)\s*(?:#.*)?$""")
_KIND_WORDS = frozenset({"VERSION", "TAG", "SHA", "SHA256", "DIGEST", "IMAGE"})
_DATASOURCES = {"docker": "docker", "npm": "npm", "pypi": "pip", "go": "go", "maven": "maven", "nuget": "nuget",
                "rubygems": "bundler", "crate": "cargo", "packagist": "composer", "helm": "helm"}
# Keys of Renovate's annotation that say how to look a package up, never which package it is.
_OPTIONS = frozenset({"datasource", "versioning", "extractVersion", "registryUrl", "depType", "currentValue"})
MAX_NAME = 214


def annotation(line: str) -> tuple[str, str] | None:
    """(ecosystem, name) a Renovate annotation comment names; None for any other line."""
    m = _ANNOTATION.match(line)
    if m is None:
        return None
    pairs = dict(p.split("=", 1) for p in m.group("pairs").split())
    if m.group("colon") is None and "datasource" not in pairs:
        return None
    name = pairs.get("depName") or pairs.get("packageName")
    source = pairs.get("datasource") or m.group("source") or ""
    if not name:  # `github=owner/repo`, `github-releases=owner/repo`: one pair, the source names the package
        others = [(k, v) for k, v in pairs.items() if k not in _OPTIONS]
        if len(others) != 1:
            return None
        source, name = others[0]
    if not name or len(name) > MAX_NAME:
        return None
    return _DATASOURCES.get(source.lower(), TOOL), name


def annotated(line: str, named: tuple[str, str], path: str, scope: Scope = "build") -> Dependency | None:
    """The dependency the line under an annotation pins: `KEY: value`, `KEY=value`, `ARG KEY=value`.
    A shell default that is the whole value (`"${BUILDX_VERSION:-v0.6.3}"`, `${V-1.2}`) pins its default, the
    version a build without that argument gets and the one Renovate moves. A value that is no plain version (an
    unclosed quote, `latest`, `${VAR}`) is kept as written: dropping it would show a pinned tool as removed when
    its line breaks, and removals pass a policy; a raw value that changes is `changed`, which the deps policy
    reviews."""
    for form in (_ANNOTATED, _DEFAULTED):
        if (m := form.match(line)) is not None and VERSIONISH.match(m.group("value")):
            return Dependency(named[0], named[1], m.group("value"), path, True, scope)
    raw = _ASSIGNED.match(line)
    if raw is None or raw.group("key") == "uses":  # an action's ref is read as the action it is
        return None
    return Dependency(named[0], named[1], raw.group("raw")[:MAX_RAW], path, True, scope)


def _stem(key: str) -> tuple[str, ...]:
    """A variable's words but those saying what kind of value it holds: `GOLANG_IMAGE_VERSION` and
    `GOLANG_IMAGE_SHA` are both `GOLANG`."""
    return tuple(w for w in re.split(r"[_.-]", key.upper()) if w and w not in _KIND_WORDS)


def _with_digest(dep: Dependency, line: str, below: str) -> Dependency:
    """An annotated image tag with the digest the line right below pins for it (cilium/hubble's Makefile:
    `GOLANG_IMAGE_VERSION = 1.26.2-alpine` over `GOLANG_IMAGE_SHA = sha256:…`, the pair a Renovate regex manager
    bumps as currentValue and currentDigest): `tag@sha256:…`, as an image reference writes it, so a digest-only
    move is a change. Only for the docker datasource (a release's `_SHA256` is a file's checksum, no image
    digest), only when both variables are the same but for the words naming the kind of value, and only a full
    sha256 digest."""
    key, digest = _ASSIGNED.match(line), _DIGEST_LINE.match(below)
    if dep.ecosystem != "docker" or key is None or not key.group("key") or digest is None or "@" in dep.version \
            or not {*re.split(r"[_.-]", digest.group("key").upper())} & {"SHA", "SHA256", "DIGEST"} \
            or _stem(key.group("key")) != _stem(digest.group("key")):
        return dep
    return dataclasses.replace(dep, version=f"{dep.version}@sha256:{digest.group('hex')}")


def read_annotations(path: str, lines: list[str], scope: Scope = "build") -> list[Dependency]:
    """Every annotated version of a file's lines (Dockerfiles, charts, chart values, Makefiles; workflows read
    them line by line in WorkflowTools); an image's tag with the digest the line below pins (_with_digest)."""
    out: list[Dependency] = []
    named: tuple[str, str] | None = None
    for index, line in enumerate(lines):
        if named is not None and (dep := annotated(line, named, path, scope)) is not None:
            out.append(_with_digest(dep, line, lines[index + 1]) if index + 1 < len(lines) else dep)
        named = annotation(line)
    return out


class WorkflowTools:
    """Reads a workflow's lines in order: which step's action a `version:` input belongs to needs the
    `uses:` above it (a step's keys sit deeper than its `- `; the next step, or a shallower key, ends it)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.action = ""
        self.column = -1  # where the step's keys start
        self.named: tuple[str, str] | None = None
        self.os_list = -1  # the column of an `os:` key whose block list the next lines may be
        self.keyed_list = (-1, "")  # the column and tool of a setup input's key whose block list they may be
        self.env = (-1, -1)  # the column of an `env:` key whose entries the next lines may be, and of its entries

    def _runners(self, items: list[str]) -> list[Dependency]:
        """The GitHub-hosted runners of a matrix's `os:` items (a label at a version; any other item names none)."""
        labels = (_RUNNER_LABEL.match(item.strip()) for item in items)
        return [Dependency(RUNNER, m.group("os"), m.group("version"), self.path, True, "build")
                for m in labels if m is not None]

    def _versions(self, tool: str, items: list[str]) -> list[Dependency]:
        """The tool at each of a matrix's items that names a version (`lts/*`, `head`, `pypy-3.10` name none)."""
        values = (item.strip().strip("\"'") for item in items)
        return [Dependency(TOOL, tool_name(tool), value, self.path, True, "build")
                for value in values if VERSIONISH.match(value)]

    def _env_entry(self, line: str) -> Dependency | None:
        """The tool a lower-case `<tool>_version:` entry right under an `env:` key pins; None for any other line."""
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            return None
        column = len(line) - len(stripped)
        if (key := _ENV_KEY.match(line)) is not None:
            self.env = (len(key.group("indent")), -1)
            return None
        env, entries = self.env
        if env < 0 or column <= env or entries >= 0 and column != entries:
            if column <= env:
                self.env = (-1, -1)  # a key as shallow as `env:`: its block has ended
            return None
        self.env = (env, column)
        m = _ENV_LOWER.match(line)
        if m is None or not VERSIONISH.match(m.group("value")) or m.group("tool") in OWN_VERSIONS:
            return None
        return Dependency(TOOL, tool_name(m.group("tool").replace("_", "-")), m.group("value"), self.path, True,
                          "build")

    def line(self, line: str) -> list[Dependency]:
        """The tool versions `line` pins (after the lines before it)."""
        out: list[Dependency] = []
        named, self.named = self.named, annotation(line)
        lower = self._env_entry(line)  # every line moves the `env:` block's bounds
        if self.named is not None:
            return out
        stripped = line.lstrip()
        if self.os_list >= 0 and stripped and not stripped.startswith("#"):
            if (item := _OS_ITEM.match(line)) is not None and len(item.group("indent")) >= self.os_list:
                return self._runners([item.group("item")])
            self.os_list = -1  # another key or text: the list has ended
        if self.keyed_list[0] >= 0 and stripped and not stripped.startswith("#"):
            if (item := _OS_ITEM.match(line)) is not None and len(item.group("indent")) >= self.keyed_list[0]:
                return self._versions(self.keyed_list[1], [item.group("item")])
            self.keyed_list = (-1, "")
        if stripped and not stripped.startswith("#"):
            column = len(line) - len(stripped)
            if column < self.column or column == self.column and stripped.startswith("- "):
                self.action, self.column = "", -1
        if named is not None and (dep := annotated(line, named, self.path)) is not None:
            return [dep]
        if (uses := _STEP_USES.match(line)) is not None:
            self.action, self.column = uses.group("name"), len(uses.group("indent"))
            return out
        if (runner := _RUNS_ON.match(line)) is not None:
            return [Dependency(RUNNER, runner.group("os"), runner.group("version"), self.path, True, "build")]
        if (matrix := _MATRIX_OS.match(line)) is not None:
            return self._runners(matrix.group("items").split(","))
        if (entry := _INCLUDE_OS.match(line)) is not None:
            return self._runners([entry.group("item")])
        if (keyed := _MATRIX_KEYED.match(line)) is not None and keyed.group("key") in _KEYED:
            return self._versions(_KEYED[keyed.group("key")], keyed.group("items").split(","))
        if (list_key := _LIST_KEY.match(line)) is not None and list_key.group("key") in _KEYED:
            self.keyed_list = (len(list_key.group("indent")), _KEYED[list_key.group("key")])
            return out
        if (os_key := _OS_KEY.match(line)) is not None:
            self.os_list = len(os_key.group("indent"))
            return out

        if lower is not None:
            return [lower]
        if (env := _ENV_VERSION.match(line)) is not None and VERSIONISH.match(env.group("value")) \
                and env.group("tool").lower() not in OWN_VERSIONS:
            env_tool = tool_name(env.group("tool").lower().replace("_", "-"))
            return [Dependency(TOOL, env_tool, env.group("value"), self.path, True, "build")]
        if "_VERSION=" in line:
            for shell in _SHELL_VERSION.finditer(line):
                if (short := shell.group("tool").lower().replace("_", "-")) in _RELEASED:
                    out.append(Dependency(TOOL, tool_name(short), shell.group("value"), self.path, True, "build"))
            if out:
                return out
        m = _INPUT.match(line)
        if (one := _ONE_ITEM.match(line)) is not None and one.group("key") in _KEYED:
            m = one
        if m is None:
            return out
        value = m.group("value")
        if self.action == _PAIRED[0] and value.startswith(_PAIRED[1]) and m.group("key") == "version":
            value = value.removeprefix(_PAIRED[1])
        if not VERSIONISH.match(value):
            return out
        key = m.group("key")
        tool = _KEYED.get(key)
        if tool is None and (keyed := _TOOL_INPUT.match(key)) is not None \
                and (short := keyed.group("tool").replace("_", "-")) in _RELEASED:
            tool = short
        if tool is None and self.action and len(m.group("indent")) > self.column:
            tool = _BY_ACTION.get(self.action.lower(), {}).get(key)
        if tool is not None:
            out.append(Dependency(TOOL, tool_name(tool), value, self.path, True, "build"))
        return out
