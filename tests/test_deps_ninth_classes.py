"""Classes of misses the ninth blind set of bot update commits found (bench/deps_bumps_ninth.tsv): packages a
workflow's shell commands install at a version (cloudnative-pg's `go install …/ginkgo@v2.32.0`, starship's
`cargo install --version 0.3.9 cargo-wix`), an image an action runs named by a pair of inputs (argo-cd's
`renovate-image:` over `renovate-version:`), a matrix of one Go version (grafana/k6's `go-version: [1.26.x]`, one
of two jobs moved), a Makefile's Renovate-annotated variables (cloudnative-pg's `OPM_VERSION ?= v1.69.0`), and a
pnpm lockfile dropping an old copy whose importer moved onto a kept one (vitest's picomatch). Each is fed the
shape of the real file through a real git repository, tree and patch, with look-alikes that must not match."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import runlines
from gatekeeper.deps.actions import parse_workflow
from gatekeeper.deps.xcodegen import parse_project_spec
from tests.deltas import moves as _moves
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

WORKFLOW = ".github/workflows/continuous-delivery.yml"
E2E = """\
name: continuous-delivery
on: [push]
jobs:
  e2e:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@de0fac2e4500dabe0009e67214ff5f5447ce83dd # v6
      - name: Install Ginkgo
        run: |
            go install github.com/onsi/ginkgo/v2/ginkgo@v2.29.0
            ginkgo version
      - name: Setup | Install cargo-wix [Windows]
        continue-on-error: true
        if: matrix.os == 'windows-latest'
        run: cargo install --version 0.3.8 cargo-wix
        env:
          RUSTFLAGS: ""
      - name: Tooling
        run: pip install --upgrade tox==4.11.0 && npm install -g pnpm@9.1.0
"""


@each_case(("old", "new", "moved"), [
    ("ginkgo@v2.29.0", "ginkgo@v2.32.0", ("go", "github.com/onsi/ginkgo/v2", "v2.29.0", "v2.32.0")),
    ("--version 0.3.8 cargo-wix", "--version 0.3.9 cargo-wix", ("cargo", "cargo-wix", "0.3.8", "0.3.9")),
    ("tox==4.11.0", "tox==4.12.1", ("pip", "tox", "4.11.0", "4.12.1")),
    ("pnpm@9.1.0", "pnpm@9.4.0", ("npm", "pnpm", "9.1.0", "9.4.0")),
])
def test_workflow_install_commands_tree_and_patch(tmp_path: Path, old: str, new: str,
                                                  moved: tuple[str, str, str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {WORKFLOW: E2E}, {WORKFLOW: {old: new}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == {moved}, delta
        assert delta.changes[0].change == "upgraded" and delta.changes[0].scope == "build"
        assert not delta.problems


@each_case(("line", "found"), [
    ("go install golang.org/x/tools/cmd/goimports@v0.24.0", [("go", "golang.org/x/tools", "v0.24.0")]),
    ("go install sigs.k8s.io/controller-tools/cmd/controller-gen@v0.14.0",
     [("go", "sigs.k8s.io/controller-tools/cmd/controller-gen", "v0.14.0")]),  # no host layout: the path as written
    ("run: cargo install cargo-wix@0.3.9 --locked", [("cargo", "cargo-wix", "0.3.9")]),
    ("cargo install --features vendored --vers=1.2.0 cargo-audit", [("cargo", "cargo-audit", "1.2.0")]),
    ("python -m pip install 'black[jupyter]==24.1.0' -r requirements.txt", [("pip", "black", "24.1.0")]),
    ("set -e; npx prettier@3.2.5 --check .", [("npm", "prettier", "3.2.5")]),
    ("npm install -g @redocly/cli@1.10.0", [("npm", "@redocly/cli", "1.10.0")]),
    # look-alikes: no exact version, a source other than the registry, no command at the line's start
    ("go install github.com/x/y@latest", []),
    ("go install ./cmd/tool", []),
    ("echo go install github.com/a/b@v1.0.0", []),
    ("cargo install --git https://github.com/x/y cargo-wix --version 1.0.0", []),
    ("cargo install --path . --version 1.0.0", []),
    ("pip install 'tox>=4' -r requirements.txt", []),
    ("npm install", []),
    ("npm install left-pad@^1.3.0", []),
    ("- name: run go install later", []),
    ("# cargo install cargo-wix@0.3.9", []),
])
def test_install_lines(line: str, found: list[tuple[str, str, str]]) -> None:
    assert [(d.ecosystem, d.name, d.version) for d in runlines.installs("w.yml", "        " + line)] == found


def test_go_install_major_version_moves_once(tmp_path: Path) -> None:
    """A `go install` moving to a new major version's path is one change (from_name the old path), as in go.mod."""
    repo, base, head = edited_commits(tmp_path, {WORKFLOW: E2E},
                                      {WORKFLOW: {"ginkgo/v2/ginkgo@v2.29.0": "ginkgo/v3/ginkgo@v3.0.0"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.name, c.from_name, c.change) for c in delta.changes] == [
            ("github.com/onsi/ginkgo/v3", "github.com/onsi/ginkgo/v2", "upgraded")], delta


RENOVATE = """\
name: Renovate
on:
  schedule:
    - cron: '0 * * * *'
jobs:
  renovate:
    runs-on: ubuntu-24.04
    steps:
      - name: Self-hosted Renovate
        uses: renovatebot/github-action@5712c6a41dea6cdf32c72d92a763bd417e6606aa # v44.0.5
        with:
          configurationFile: renovate-presets/self-hosted.json5
          # renovate-presets/custom-managers/renovate-action.json5, which expects
          # `renovate-image` and `renovate-version` to stay on adjacent lines.
          renovate-image: "ghcr.io/renovatebot/renovate"
          renovate-version: "44.39.1@sha256:00699dedb6d44bf645e3f0a98729bcdb660a660f1952a53d9592d3a127088b11"
        env:
          LOG_LEVEL: 'debug'
"""
NEW_DIGEST = "44.39.2@sha256:e6b93e709ca64495ab9307350b260064276ee02d15c6886387fd2d42c926623b"


def test_paired_image_inputs_tree_and_patch(tmp_path: Path) -> None:
    path = ".github/workflows/renovate.yaml"
    old = "44.39.1@sha256:00699dedb6d44bf645e3f0a98729bcdb660a660f1952a53d9592d3a127088b11"
    repo, base, head = edited_commits(tmp_path, {path: RENOVATE}, {path: {old: NEW_DIGEST}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == {("docker", "ghcr.io/renovatebot/renovate", old, NEW_DIGEST)}, delta
        assert delta.changes[0].pinned is True  # tag@digest, as a Dockerfile's FROM: ordered by no one (`changed`)


@each_case("body", [
    # a different prefix, a line between them, a tag with no version: no image is named
    'app-image: "ghcr.io/o/app"\n  renovate-version: "44.39.1"\n',
    'renovate-image: "ghcr.io/renovatebot/renovate"\n  log-level: debug\n  renovate-version: "44.39.1"\n',
    'renovate-image: "ghcr.io/renovatebot/renovate"\n  renovate-version: "latest"\n',
    'renovate-image: "renovate"\n  renovate-version: "44.39.1"\n',  # no registry or path: no image reference
])
def test_paired_image_look_alikes(body: str) -> None:
    found = parse_workflow(".github/workflows/r.yml", ("jobs:\n  r:\n    steps:\n      - with:\n  " + body).encode())
    assert not [d for d in found if d.ecosystem == "docker"], found


def test_renovate_version_alone_stays_a_tool() -> None:
    found = parse_workflow(".github/workflows/r.yml", b"      - with:\n          renovate-version: 44.39.1\n")
    assert [(d.ecosystem, d.name, d.version) for d in found] == [("tool", "renovate", "44.39.1")]


K6 = """\
name: Test
on: [push]
jobs:
  test-prev:
    strategy:
      fail-fast: false
      matrix:
        go-version: [1.25.x]
        platform: [ubuntu-24.04, ubuntu-24.04-arm, windows-latest]
    runs-on: ${{ matrix.platform }}
    steps:
      - uses: actions/setup-go@4a3601121dd01d1626a1e23e37211e3254c1c06c # v6.4.0
        with:
          go-version: ${{ matrix.go-version }}
  test-tip:
    strategy:
      matrix:
        go-version: [1.26.x]
    runs-on: ubuntu-24.04
    steps:
      - run: go test ./...
"""


def test_matrix_of_one_version_moved_beside_a_kept_one(tmp_path: Path) -> None:
    """Two jobs at 1.25.x and 1.26.x, now both 1.26.x: one job's Go moved (a tool pin is a use site), not Go
    removed."""
    path = ".github/workflows/test.yml"
    repo, base, head = edited_commits(tmp_path, {path: K6}, {path: {"[1.25.x]": "[1.26.x]"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == {("tool", "go", "1.25.x", "1.26.x")}, delta


@each_case(("value", "found"), [
    ("[1.26.x]", [("go", "1.26.x")]), ("['1.26']", [("go", "1.26")]), ("[ 20 ]", [("go", "20")]),
    # a matrix of more names each of its versions since round 53 (tests/test_deps_fiftythird_classes.py)
    ("[1.25.x, 1.26.x]", [("go", "1.25.x"), ("go", "1.26.x")]), ("[stable]", []), ("[1.2]]", []),
    ("[${{ inputs.go }}]", []),
])
def test_matrix_of_one(value: str, found: list[tuple[str, str]]) -> None:
    body = f"jobs:\n  t:\n    strategy:\n      matrix:\n        go-version: {value}\n        os: [ubuntu-24.04]\n"
    deps = parse_workflow(".github/workflows/t.yml", body.encode())
    assert [(d.name, d.version) for d in deps if d.ecosystem == "tool"] == found


MAKEFILE = """\
# Image URL to use all building/pushing image targets
IMG ?= controller:latest
KUSTOMIZE_VERSION ?= v5.6.0
# renovate: datasource=go depName=sigs.k8s.io/controller-tools
CONTROLLER_TOOLS_VERSION ?= v0.21.0
# renovate: datasource=github-tags depName=operator-framework/operator-registry
OPM_VERSION ?= v1.68.0
# renovate: datasource=docker depName=getwoke/woke versioning=docker
WOKE_VERSION ?= 0.19.0@sha256:5cdd550a166c9e11f2f53c3f6c23dfafdf879e9bcaffd07c2f8bfef095c1b579

.PHONY: all
all: build
"""


@pytest.mark.parametrize(("path", "old", "new", "moved"), [
    ("Makefile", "OPM_VERSION ?= v1.68.0", "OPM_VERSION ?= v1.69.0",
     ("tool", "operator-framework/operator-registry", "v1.68.0", "v1.69.0")),
    ("hack/tools.mk", "CONTROLLER_TOOLS_VERSION ?= v0.21.0", "CONTROLLER_TOOLS_VERSION ?= v0.22.0",
     ("go", "sigs.k8s.io/controller-tools", "v0.21.0", "v0.22.0")),
])
def test_makefile_annotated_variables_tree_and_patch(tmp_path: Path, path: str, old: str, new: str,
                                                     moved: tuple[str, str, str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {path: MAKEFILE}, {path: {old: new}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == {moved}, delta
        assert not delta.problems


def test_makefile_variable_without_annotation_is_not_read(tmp_path: Path) -> None:
    # IMG is the project's own image; APP_RELEASE_VERSION names no tool the delta knows: neither is read. (Round 39
    # reads a `<TOOL>_VERSION` variable of a known released tool, KUSTOMIZE_VERSION among them:
    # tests/test_deps_thirtyninth_classes.py; before it, this test moved KUSTOMIZE_VERSION and saw nothing. This test
    # moved ENVTEST_K8S_VERSION until round 53, which reads it as the tool envtest:
    # tests/test_deps_fiftythird_classes.py)
    body = MAKEFILE + "APP_RELEASE_VERSION ?= 1.31.0\n"
    repo, base, head = edited_commits(tmp_path, {"Makefile": body},
                                      {"Makefile": {"APP_RELEASE_VERSION ?= 1.31.0": "APP_RELEASE_VERSION ?= 1.32.0",
                                                    "IMG ?= controller:latest": "IMG ?= evil:1"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert not delta.changes and not delta.problems
    repo, base, head = edited_commits(tmp_path / "k", {"Makefile": MAKEFILE},
                                      {"Makefile": {"KUSTOMIZE_VERSION ?= v5.6.0": "KUSTOMIZE_VERSION ?= v5.7.0"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == {("tool", "kubernetes-sigs/kustomize", "v5.6.0", "v5.7.0")}, delta


PNPM_BASE = """\
lockfileVersion: '9.0'

importers:

  .:
    devDependencies:
      picomatch:
        specifier: ^4.0.3
        version: 4.0.3

packages:

  picomatch@2.3.2:
    resolution: {integrity: sha512-a}

  picomatch@4.0.3:
    resolution: {integrity: sha512-b}

  picomatch@4.0.4:
    resolution: {integrity: sha512-c}

  picomatch@4.0.5:
    resolution: {integrity: sha512-d}

snapshots:

  picomatch@2.3.2: {}

  picomatch@4.0.3: {}

  picomatch@4.0.4: {}

  picomatch@4.0.5: {}
"""


def test_lock_copy_dropped_onto_a_kept_one_is_an_upgrade(tmp_path: Path) -> None:
    """picomatch 4.0.3 dropped while 4.0.4 and 4.0.5 stay: its dependents moved to the nearest kept copy above."""
    head_body = PNPM_BASE.replace("version: 4.0.3", "version: 4.0.4").replace("^4.0.3", "^4.0.4")
    head_body = head_body.replace("  picomatch@4.0.3:\n    resolution: {integrity: sha512-b}\n\n", "")
    head_body = head_body.replace("  picomatch@4.0.3: {}\n\n", "")
    lock = "pnpm-lock.yaml"
    repo, base, head = edited_commits(tmp_path, {lock: PNPM_BASE}, {lock: {PNPM_BASE: head_body}})
    delta = _tree(repo, base, head)
    assert _moves(delta) == {("npm", "picomatch", "4.0.3", "4.0.4")}, delta
    assert delta.changes[0].change == "upgraded"


def test_lock_copy_dropped_with_only_lower_copies_left_stays_removed(tmp_path: Path) -> None:
    """No lockfile says which lower copy (if any) took over a dropped one: a removal, never a guessed downgrade."""
    head_body = PNPM_BASE.replace("  picomatch@4.0.5:\n    resolution: {integrity: sha512-d}\n\n", "")
    head_body = head_body.replace("\n  picomatch@4.0.5: {}\n", "")
    lock = "pnpm-lock.yaml"
    repo, base, head = edited_commits(tmp_path, {lock: PNPM_BASE}, {lock: {PNPM_BASE: head_body}})
    delta = _tree(repo, base, head)
    assert [(c.name, c.from_version, c.to_version, c.change) for c in delta.changes] == [
        ("picomatch", "4.0.5", None, "removed")], delta


# Red team 10's leftovers: extras that pull in more packages at the same version, and one PyPI name written two ways.

@pytest.mark.parametrize(("path", "old", "new"), [
    ("requirements.txt", "requests==2.31.0\n", "requests[socks]==2.31.0\n"),
    ("requirements/base.txt", "requests[socks,security]==2.31.0\n", "requests[socks]==2.31.0\n"),
])
def test_extras_at_the_same_version_are_a_change(tmp_path: Path, path: str, old: str, new: str) -> None:
    body = "flask==3.0.0\n" + old
    repo, base, head = edited_commits(tmp_path, {path: body}, {path: {old: new}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.name, c.from_version, c.to_version, c.change, c.alias) for c in delta.changes] == [
            ("requests", "2.31.0", "2.31.0", "changed", new.split("=")[0])], delta


def test_extras_in_pyproject_tree(tmp_path: Path) -> None:
    body = '[project]\nname = "app"\nversion = "1"\ndependencies = [\n  "requests>=2.31",\n]\n'
    repo, base, head = edited_commits(tmp_path, {"pyproject.toml": body},
                                      {"pyproject.toml": {'"requests>=2.31"': '"requests[socks]>=2.31"'}})
    assert [(c.name, c.change, c.alias) for c in _tree(repo, base, head).changes] == [
        ("requests", "changed", "requests[socks]")]


@each_case(("old", "new", "found"), [
    ("python-dateutil==2.8.2", "python_dateutil==2.8.2", set()),  # one package: no removal, no new dependency
    ("python-dateutil==2.8.2", "Python.Dateutil==2.9.0", {("pip", "Python.Dateutil", "2.8.2", "2.9.0")}),
    ("requests[security,socks]==2.31.0", "requests[socks, security]==2.31.0", set()),  # the same extras
    # look-alike: another package whose name differs by more than separators and case is a new one
    ("python-dateutil==2.8.2", "python-dateutils==2.8.2",
     {("pip", "python-dateutil", "2.8.2", None), ("pip", "python-dateutils", None, "2.8.2")}),
])
def test_pypi_names_are_compared_normalised(tmp_path: Path, old: str, new: str,
                                            found: set[tuple[str, str, str | None, str | None]]) -> None:
    path = "requirements.txt"
    repo, base, head = edited_commits(tmp_path, {path: f"flask==3.0.0\n{old}\n"}, {path: {old: new}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == found, delta


# XcodeGen's project spec (element-hq/element-x-ios' project.yml): Renovate names the entry by its key.

SPEC = """\
name: ElementX
attributes:
  ORGANIZATIONNAME: Element
options:
  minimumXcodeGenVersion: 2.38.0
settings:
  MARKETING_VERSION: 25.11.3
targets:
  ElementX:
    dependencies:
      - package: MapLibre
packages:
  # Element/Matrix dependencies
  MatrixRustSDK:
    url: https://github.com/element-hq/matrix-rust-components-swift
    exactVersion: 26.07.22
    # path: ../matrix-rust-sdk
  Compound:
    path: compound-ios
  Emojibase:
    url: https://github.com/matrix-org/emojibase-bindings
    revision: 60bc01f2e3b31445dc723f5af1a777b63d18e6c2 # pinned
  Algorithms:
    url: https://github.com/apple/swift-algorithms
    minorVersion: 1.10.0
  Collections:
    github: apple/swift-collections
    minVersion: 1.1.0
    maxVersion: 2.0.0
  KeychainAccess:
    url: https://github.com/kishikawakatsumi/KeychainAccess
    minorVersion: 4.2.2
  MapLibre:
    url: https://github.com/maplibre/maplibre-gl-native-distribution
    minorVersion: 6.25.1
  PostHog:
    url: https://github.com/PostHog/posthog-ios
    minorVersion: 3.56.0
"""


def test_xcodegen_spec_reads_its_packages() -> None:
    found = [(d.name, d.version, d.alias) for d in parse_project_spec("project.yml", SPEC.encode())]
    assert found == [
        ("github.com/element-hq/matrix-rust-components-swift", "26.07.22", "MatrixRustSDK"),
        ("github.com/matrix-org/emojibase-bindings", "60bc01f2e3b31445dc723f5af1a777b63d18e6c2", "Emojibase"),
        ("github.com/apple/swift-algorithms", "1.10.0", "Algorithms"),  # as written, never the float 1.1
        ("github.com/apple/swift-collections", ">=1.1.0,<2.0.0", "Collections"),
        ("github.com/kishikawakatsumi/KeychainAccess", "4.2.2", "KeychainAccess"),
        ("github.com/maplibre/maplibre-gl-native-distribution", "6.25.1", "MapLibre"),
        ("github.com/PostHog/posthog-ios", "3.56.0", "PostHog")]


@pytest.mark.parametrize(("old", "new", "moved"), [
    ("minorVersion: 6.25.1", "minorVersion: 6.26.0",
     ("swift", "github.com/maplibre/maplibre-gl-native-distribution", "6.25.1", "6.26.0")),
    ("exactVersion: 26.07.22", "exactVersion: 26.08.01",
     ("swift", "github.com/element-hq/matrix-rust-components-swift", "26.07.22", "26.08.01")),
])
def test_xcodegen_spec_bump_tree_and_patch(tmp_path: Path, old: str, new: str,
                                           moved: tuple[str, str, str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"project.yml": SPEC}, {"project.yml": {old: new}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == {moved}, delta
        assert delta.changes[0].alias and not delta.problems


def test_xcodegen_spec_repository_swap_is_a_new_dependency(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"project.yml": SPEC}, {"project.yml": {
        "https://github.com/PostHog/posthog-ios": "https://github.com/evil/posthog-ios"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert {(c.name, c.change) for c in delta.changes} == {
            ("github.com/PostHog/posthog-ios", "removed"), ("github.com/evil/posthog-ios", "added")}, delta


def test_xcodegen_hunk_without_the_repository_fails_closed(tmp_path: Path) -> None:
    """A requirement changed far below its `url:` line (comments between): the hunk does not say whose it is."""
    spaced = SPEC.replace("    minorVersion: 3.56.0", "".join(f"    # note {n}\n" for n in range(8))
                          + "    minorVersion: 3.56.0")
    repo, base, head = edited_commits(tmp_path, {"project.yml": spaced},
                                      {"project.yml": {"minorVersion: 3.56.0": "minorVersion: 3.57.0"}})
    assert _moves(_tree(repo, base, head)) == {("swift", "github.com/PostHog/posthog-ios", "3.56.0", "3.57.0")}
    delta = _patch(repo, base, head)
    assert not delta.changes and {p.kind for p in delta.problems} == {"partial"}, delta


@each_case("body", [
    # another tool's project.yml: no top-level `packages:` map, or one of other shapes
    "name: site\nversion: 1.2.3\nurl: https://example.com\n",
    "build:\n  packages:\n    lib:\n      url: https://github.com/a/b\n      from: 1.0.0\n",
    "packages:\n  - name: a\n    version: 1.0.0\n",
    "packages:\n  Local:\n    path: ../local\n    from: 1.0.0\n",
])
def test_xcodegen_look_alikes_hold_no_packages(body: str) -> None:
    assert parse_project_spec("project.yml", body.encode()) == []


def test_another_tools_project_yml_hunks_hold_no_packages(tmp_path: Path) -> None:
    """A `project.yml` of another tool whose hunk moves a chart's `version:` under its `url:`: no Swift package,
    in the patch as in the tree."""
    body = "spec:\n  sources:\n    - url: https://charts.example.com\n      version: 1.2.3\n      chart: app\n"
    repo, base, head = edited_commits(tmp_path, {"project.yml": body}, {"project.yml": {"1.2.3": "1.3.0"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert not delta.changes and not delta.problems, delta


# A Gradle script's version variable (fluttercommunity/plus_plugins' `ext.kotlin_version`): Dependabot names the
# update by the variable, so the dependencies it versions keep its name as their alias.

BUILD_GRADLE = """\
buildscript {
    ext.kotlin_version = '1.9.0'
    repositories {
        google()
        mavenCentral()
    }
    dependencies {
        classpath 'com.android.tools.build:gradle:8.1.1'
        classpath "org.jetbrains.kotlin:kotlin-gradle-plugin:$kotlin_version"
    }
}
dependencies {
    implementation "org.jetbrains.kotlin:kotlin-stdlib:${kotlin_version}"
}
"""


def test_gradle_variable_names_its_dependencies(tmp_path: Path) -> None:
    path = "android/build.gradle"
    repo, base, head = edited_commits(tmp_path, {path: BUILD_GRADLE}, {path: {"'1.9.0'": "'1.9.10'"}})
    delta = _tree(repo, base, head)
    assert {(c.name, c.alias, c.from_version, c.to_version) for c in delta.changes} == {
        ("org.jetbrains.kotlin:kotlin-gradle-plugin", "kotlin_version", "1.9.0", "1.9.10"),
        ("org.jetbrains.kotlin:kotlin-stdlib", "kotlin_version", "1.9.0", "1.9.10")}, delta
    # a version written in the line has no variable to name it; one that names no variable stays as written
    assert {(c.name, c.alias) for c in _tree(*edited_commits(tmp_path / "b", {path: BUILD_GRADLE}, {path: {
        "gradle:8.1.1": "gradle:8.1.2", "${kotlin_version}": "${kotlin_ver}"}})).changes} == {
        ("com.android.tools.build:gradle", None), ("org.jetbrains.kotlin:kotlin-stdlib", None)}
