"""Classes of misses the tenth blind set of bot update commits found (bench/deps_bumps_tenth.tsv): a workflow whose
file name is another format's (kubernetes/ingress-nginx's `.github/workflows/project.yml`, read as an XcodeGen spec),
packages a pre-commit hook installs (paperless-ngx's `additional_dependencies: [prettier@3.8.1]`, which Dependabot
bumps), and an image a Makefile's recipe runs by an image variable and a tag variable (terraform-google-modules'
`DOCKER_IMAGE_DEVELOPER_TOOLS` / `DOCKER_TAG_VERSION_DEVELOPER_TOOLS`). Each is fed the shape of the real file
through a real git repository, tree and patch, with look-alikes that must not match."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.deps import precommit
from gatekeeper.deps.jvm import parse_pom
from gatekeeper.deps.registry import format_for
from gatekeeper.deps.toolfiles import parse_makefile
from tests.deltas import moves as _moves
from tests.deltas import partial as _partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

PROJECT = """\
name: Add to project
on:
  issues:
    types: [opened]
jobs:
  add-to-project:
    runs-on: ubuntu-latest
    permissions:
      repository-projects: write
      issues: write
    steps:
      - uses: actions/add-to-project@2e5cc851ca7162e9eb510e6da6a5c64022e606a7 # v1.0.0
        with:
          project-url: https://github.com/orgs/example/projects/104
"""


@each_case("name", ["project.yml", "values.yaml", "Chart.yaml", "kustomization.yaml", "action.yml"])
def test_a_workflow_under_another_formats_name_is_a_workflow(tmp_path: Path, name: str) -> None:
    path = f".github/workflows/{name}"
    old, new = "2e5cc851ca7162e9eb510e6da6a5c64022e606a7 # v1.0.0", "9bfe908f2eaa7ba10340b31e314148fcfe6a2458 # v1.0.1"
    repo, base, head = edited_commits(tmp_path, {path: PROJECT}, {path: {old: new}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert [(c.ecosystem, c.name, c.to_tag) for c in delta.changes] == [
            ("github-actions", "actions/add-to-project", "v1.0.1")], delta
        assert not delta.problems


@each_case(("path", "fmt"), [
    (".github/workflows/project.yml", "workflow"),
    ("project.yml", "project.yml"),  # XcodeGen's spec at the root, as before
    ("ios/project.yml", "project.yml"),
    (".github/workflows/sub/project.yml", "project.yml"),  # GitHub reads no workflow from a subfolder
    (".github/project.yml", "project.yml"),
    (".github/workflows/values.yaml", "workflow"),
    ("charts/x/values.yaml", "values.yaml"),
    (".github/workflows/README.md", None),
])
def test_workflow_folder_comes_before_the_file_name(path: str, fmt: str | None) -> None:
    found = format_for(path)
    assert (found.name if found else None) == fmt


PRE_COMMIT = """\
repos:
  - repo: https://github.com/codespell-project/codespell
    rev: v2.4.2
    hooks:
      - id: codespell
        additional_dependencies: [tomli]
  # See https://github.com/prettier/prettier/issues/15742 for the fork reason
  - repo: https://github.com/rbubley/mirrors-prettier
    rev: 'v3.9.4'
    hooks:
      - id: prettier
        types_or:
          - javascript
          - ts
          - markdown
        additional_dependencies:
          - prettier@3.9.4
          - 'prettier-plugin-organize-imports@4.3.0'
  - repo: https://github.com/pre-commit/mirrors-mypy
    rev: v1.11.0
    hooks:
      - id: mypy
        additional_dependencies: ["types-requests==2.32.0.20240712", "types-PyYAML==6.0.12.20240808"]
      - id: mypy-strict
        additional_dependencies: [pydantic>=2]
  - repo: local
    hooks:
      - id: golangci
        name: golangci-lint
        language: golang
        entry: golangci-lint run
        additional_dependencies:
        - github.com/golangci/golangci-lint/cmd/golangci-lint@v1.60.1
"""


def test_pre_commit_hook_packages_are_read() -> None:
    found = {(d.ecosystem, d.name, d.version) for d in precommit.parse_pre_commit(".pre-commit-config.yaml",
                                                                                    PRE_COMMIT.encode())}
    assert found == {
        ("pre-commit", "codespell-project/codespell", "v2.4.2"), ("pre-commit", "rbubley/mirrors-prettier", "v3.9.4"),
        ("pre-commit", "pre-commit/mirrors-mypy", "v1.11.0"),
        ("npm", "prettier", "3.9.4"), ("npm", "prettier-plugin-organize-imports", "4.3.0"),
        ("pip", "types-requests", "2.32.0.20240712"), ("pip", "types-PyYAML", "6.0.12.20240808"),
        ("go", "github.com/golangci/golangci-lint/cmd/golangci-lint", "v1.60.1"), ("pip", "pydantic", ">=2"),
    }  # `tomli` names no version: not read; `pydantic>=2`, a PyPI range, is read since round 33 (nox's Dependabot
    # bump of `dependency-groups>=1.2` to `>=1.3.1` was no change at all with --tree)


@each_case(("old", "new", "moved"), [
    ("- prettier@3.9.4", "- prettier@3.9.6", {("npm", "prettier", "3.9.4", "3.9.6")}),
    ("'prettier-plugin-organize-imports@4.3.0'", "'prettier-plugin-organize-imports@4.3.1'",
     {("npm", "prettier-plugin-organize-imports", "4.3.0", "4.3.1")}),
    ('"types-requests==2.32.0.20240712"', '"types-requests==2.32.4.20250611"',
     {("pip", "types-requests", "2.32.0.20240712", "2.32.4.20250611")}),
    ("golangci-lint@v1.60.1", "golangci-lint@v1.61.0",
     {("go", "github.com/golangci/golangci-lint/cmd/golangci-lint", "v1.60.1", "v1.61.0")}),
])
def test_pre_commit_hook_packages_tree_and_patch(tmp_path: Path, old: str, new: str,
                                                 moved: set[tuple[str, str, str, str]]) -> None:
    path = ".pre-commit-config.yaml"
    repo, base, head = edited_commits(tmp_path, {path: PRE_COMMIT}, {path: {old: new}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == moved, delta
        assert not delta.problems


def test_pre_commit_rev_and_its_package_move_together(tmp_path: Path) -> None:
    """Dependabot's real commit: the mirror's rev and the package it installs, one hunk apart."""
    path = ".pre-commit-config.yaml"
    repo, base, head = edited_commits(tmp_path, {path: PRE_COMMIT}, {path: {
        "rev: 'v3.9.4'": "rev: 'v3.9.6'", "- prettier@3.9.4": "- prettier@3.9.6"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head, "-U1")):
        assert _moves(delta) == {("pre-commit", "rbubley/mirrors-prettier", "v3.9.4", "v3.9.6"),
                                 ("npm", "prettier", "3.9.4", "3.9.6")}, delta


@each_case(("old", "new"), [
    ("- prettier@3.9.4", "- prettier@^3.9.4"),  # a range: no exact version
    ("- prettier@3.9.4", "- prettier"),  # no version at all
    ("additional_dependencies: [tomli]", "additional_dependencies: [tomli, tomli-w]"),  # a flow list, unpinned
    ("[pydantic>=2]", "[pydantic>=2, types-toml]"),  # an unpinned item beside a ranged one
    ("          - markdown", "          - markdown\n          - yaml"),  # an item of another key (types_or)
])
def test_pre_commit_hunks_that_name_no_pinned_package_fail_closed(tmp_path: Path, old: str, new: str) -> None:
    path = ".pre-commit-config.yaml"
    repo, base, head = edited_commits(tmp_path, {path: PRE_COMMIT}, {path: {old: new}})
    assert _partial(_patch(repo, base, head), path)


def test_pre_commit_item_without_its_key_in_the_hunk_fails_closed(tmp_path: Path) -> None:
    path = ".pre-commit-config.yaml"
    repo, base, head = edited_commits(tmp_path, {path: PRE_COMMIT}, {path: {
        "'prettier-plugin-organize-imports@4.3.0'": "'prettier-plugin-organize-imports@4.3.1'"}})
    assert _partial(_patch(repo, base, head, "-U0"), path)


@each_case(("item", "found"), [
    ("prettier@3.8.1", ("npm", "prettier", "3.8.1")),
    ("@prettier/plugin-xml@3.4.1", ("npm", "@prettier/plugin-xml", "3.4.1")),
    ("black[jupyter]==24.1.0", ("pip", "black", "24.1.0")),
    ("golang.org/x/tools/cmd/goimports@v0.24.0", ("go", "golang.org/x/tools/cmd/goimports", "v0.24.0")),
    # look-alikes: ranges, tags, no version, a URL, a Go module at a branch
    ("eslint@^9.0.0", None), ("prettier@latest", None), ("types-PyYAML", None), ("flake8>=7; python_version>'3'", None),
    ("git+https://github.com/x/y@1.0.0", None), ("github.com/x/y@main", None), ("", None),
])
def test_additional_dependency_items(item: str, found: tuple[str, str, str] | None) -> None:
    assert precommit.additional(item) == found


MAKEFILE = """\
# Make will use bash instead of sh
SHELL := /usr/bin/env bash

DOCKER_TAG_VERSION_DEVELOPER_TOOLS := 1.20
DOCKER_IMAGE_DEVELOPER_TOOLS := cft/developer-tools
REGISTRY_URL := gcr.io/cloud-foundation-cicd

# Enter docker container for local development
.PHONY: docker_run
docker_run:
\tdocker run --rm -it \\
\t\t-v "$(CURDIR)":/workspace \\
\t\t$(REGISTRY_URL)/${DOCKER_IMAGE_DEVELOPER_TOOLS}:${DOCKER_TAG_VERSION_DEVELOPER_TOOLS} \\
\t\t/bin/bash
"""


def test_makefile_image_pair_tree(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"Makefile": MAKEFILE}, {"Makefile": {
        "DEVELOPER_TOOLS := 1.20": "DEVELOPER_TOOLS := 1.21"}})
    delta = _tree(repo, base, head)
    assert _moves(delta) == {("docker", "cft/developer-tools", "1.20", "1.21")}, delta
    assert delta.changes[0].scope == "build"


@each_case(("old", "new"), [
    ("docker run --rm -it", "docker build -t"),  # the project's own image, built: no dependency
    ("DOCKER_IMAGE_DEVELOPER_TOOLS := cft/developer-tools", "DOCKER_IMAGE_OTHER := cft/developer-tools"),  # no pair
    ("DOCKER_TAG_VERSION_DEVELOPER_TOOLS := 1.20", "DOCKER_TAG_VERSION_DEVELOPER_TOOLS := latest"),  # no version
    ("DOCKER_IMAGE_DEVELOPER_TOOLS := cft/developer-tools", "DOCKER_IMAGE_DEVELOPER_TOOLS := $(BASE)/tools"),
    ("${DOCKER_IMAGE_DEVELOPER_TOOLS}:${DOCKER_TAG_VERSION_DEVELOPER_TOOLS}",
     "${DOCKER_IMAGE_DEVELOPER_TOOLS}:latest"),  # the tag variable is not the one used
    ("\t\t/bin/bash",
     "\t\t/bin/bash\n\techo docker run ${DOCKER_IMAGE_DEVELOPER_TOOLS}:${DOCKER_TAG_VERSION_DEVELOPER_TOOLS}"),
])
def test_makefile_image_pair_look_alikes(old: str, new: str) -> None:
    body = MAKEFILE.replace(old, new)
    if new.startswith("\t\t/bin/bash"):  # an `echo` naming the pair runs no image; the real run line is removed
        body = body.replace("\tdocker run --rm -it", "\tdocker build -t")
    assert not [d for d in parse_makefile("Makefile", body.encode()) if d.ecosystem == "docker"]


def test_makefile_project_image_and_version_are_not_a_dependency() -> None:
    body = "IMAGE_NAME := myorg/app\nVERSION := 1.2.3\nAPP_IMAGE := myorg/app\nAPP_VERSION := 1.2.3\n" \
           "run:\n\tdocker run ${IMAGE_NAME}:${VERSION} ${APP_IMAGE}:${APP_VERSION}\n"
    assert parse_makefile("Makefile", body.encode()) == []  # no shared word (IMAGE_NAME), no TAG (APP_VERSION)


POM = """\
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>core</artifactId>
  <version>4.0.0-SNAPSHOT</version>
  <properties>
    <junit-framework.version>6.1.2</junit-framework.version>
  </properties>
  <build>
    <plugins>
      <plugin>
        <groupId>com.github.siom79.japicmp</groupId>
        <artifactId>japicmp-maven-plugin</artifactId>
        <version>0.23.1</version>
        <configuration>
          <dependencies>
            <dependency>
              <groupId>org.junit.jupiter</groupId>
              <artifactId>junit-jupiter-api</artifactId>
              <version>${junit-framework.version}</version>
            </dependency>
          </dependencies>
          <parameter>
            <excludes>
              <exclude>org.example.internal</exclude>
            </excludes>
          </parameter>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
"""


def test_a_plugins_configured_dependencies_are_build_dependencies(tmp_path: Path) -> None:
    """assertj's japicmp configuration: the artifacts an API check resolves, moved by a property (tree), or by the
    `<version>` line itself (tree and patch)."""
    repo, base, head = edited_commits(tmp_path, {"pom.xml": POM}, {"pom.xml": {
        "<junit-framework.version>6.1.2<": "<junit-framework.version>6.1.3<"}})
    delta = _tree(repo, base, head)
    assert _moves(delta) == {("maven", "org.junit.jupiter:junit-jupiter-api", "6.1.2", "6.1.3")}, delta
    assert delta.changes[0].scope == "build"
    literal = POM.replace("${junit-framework.version}", "6.1.2")
    repo, base, head = edited_commits(tmp_path / "literal", {"pom.xml": literal}, {"pom.xml": {
        "6.1.2</version>": "6.1.3</version>"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert _moves(delta) == {("maven", "org.junit.jupiter:junit-jupiter-api", "6.1.2", "6.1.3")}, delta


def test_other_plugin_configuration_is_not_a_dependency() -> None:
    """Look-alikes: a configuration's `<excludes>`, and a `<dependencies>` list nested deeper than directly under
    `<configuration>` (another parameter's shape, which this reader does not guess at)."""
    body = POM.replace("<dependencies>\n            <dependency>", "<extra><dependencies>\n            <dependency>")
    body = body.replace("</dependency>\n          </dependencies>", "</dependency>\n          </dependencies></extra>")
    names = {d.name for d in parse_pom("pom.xml", body.encode())}
    assert names == {"com.github.siom79.japicmp:japicmp-maven-plugin"}
