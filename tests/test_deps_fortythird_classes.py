"""Classes of misses the forty-third blind set of update commits found (bench/deps_bumps_fortythird.tsv).

- A GitLab CI component on the instance's own host, `- component: $CI_SERVER_FQDN/apricote/releaser-pleaser/run@v0.9.0`
  (hetznercloud/fleeting-plugin-hetzner's `.gitlab-ci.yml`, its Renovate's "update dependency
  apricote/releaser-pleaser to v0.9.0", 3), is named as written by the delta; Renovate names it by its project, the
  address less its host and its component's name. The benchmark takes that name as the component's now (a naming
  rule, as for an action's sub-action); the delta's name is unchanged.
- A GitHub release a CI command downloads by its tag, `curl -L -o /tmp/tflint.zip
  https://github.com/wata727/tflint/releases/download/v0.8.2/tflint_linux_amd64.zip` (terraform-aws-vpc's CircleCI
  config, "update tflint to 0.8.2"), was read in Dockerfile RUN lines and Makefile recipes but in no CI line: a
  workflow's, CircleCI's or GitLab's lines read it now (the tool named by its repository), both modes.
- A runner a job takes from its matrix, `runs-on: ${{ matrix.os }}` over `os: [ubuntu-16.04]` (CocoaPods' lint and
  specs workflows, "Update ubuntu to 18.04"), was read by nothing: `runs-on:` names a GitHub-hosted runner only when
  written on its line. An `os:` key's GitHub-hosted runner labels (`ubuntu-18.04`, `macos-14`, `windows-2022`) name
  those runners now, both modes: a flow list, a block list below the key, and an include entry's `- os: ubuntu-22.04`;
  `-latest` labels, other names, and a scalar `os:` without its item's dash (an action's input as often) are not
  read.
- A chart's `appVersion` bump without an annotation (dexidp's "Bump Dex to v2.44.0", Unleash's edge and server charts,
  5) was named with `--tree` and nothing from the patch, no problem either: its name comes from the whole file.
  From a patch it is named now when the hunk shows the chart's top-level `name:`, as parse_chart names it from what
  the hunk shows (the `owner/repo` of a shown `home:` or `sources:` entry whose repository is the chart's name, else
  the chart's name); a hunk that shows no `name:` names nothing, as before.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and hostile input.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.deps import actions, ciconfigs, edits, infra, runlines, tools
from tests.deltas import accuracy_bench, bench_change, both_edited, each_fast, moves, partial

# hetznercloud/fleeting-plugin-hetzner's .gitlab-ci.yml (its shape: shared components on the instance's host)
HETZNER_GITLAB_CI = """\
include:
  - project: hetznercloud/oss/ci-templates
    file: default.yml
  - component: $CI_SERVER_FQDN/apricote/releaser-pleaser/run@v0.8.0
    inputs:
      token: $CI_JOB_TOKEN

stages:
  - test
  - release

test:
  stage: test
  image: golang:1.24
  script:
    - go test ./...
"""

# terraform-aws-modules/terraform-aws-vpc's .circleci/config.yml of 2019 (its shape: tools fetched in `command:`s)
VPC_CIRCLECI = """\
version: 2
jobs:
  lint:
    docker:
      - image: hashicorp/terraform:0.11.13
    steps:
      - checkout
      - run:
          name: Install tflint
          command: {command}
      - run:
          name: Check Terraform configurations with tflint
          command: tflint
workflows:
  version: 2
  build:
    jobs:
      - lint
""".format(command="curl -L -o /tmp/tflint.zip https://github.com/wata727/tflint/releases/download/v0.4.2/"
                  "tflint_linux_amd64.zip && unzip /tmp/tflint.zip -d /usr/local/bin")

# CocoaPods/CocoaPods' .github/workflows/Specs.yml of 2020 (its shape: the runner from a one-item matrix list)
COCOAPODS_SPECS = """\
name: Specs

on: [push, pull_request]

jobs:
  specs:
    strategy:
      fail-fast: false
      matrix:
        task: [SPECS_TYPE=unit, SPECS_TYPE=functional, SPECS_TYPE=integration]
        ruby: [2.6, 2.7]
        os: [ubuntu-16.04]

    name: ${{ matrix.task }} / ${{ matrix.os }} / Ruby ${{ matrix.ruby }}
    runs-on: ${{ matrix.os }}

    steps:
      - name: Checkout git
        uses: actions/checkout@v1

      - name: Set up Ruby
        uses: actions/setup-ruby@v1
        with:
          ruby-version: ${{ matrix.ruby }}
"""


def test_hetzner_instance_component_is_named_by_its_project_in_the_benchmark() -> None:
    same = accuracy_bench()._same_name
    component = bench_change("gitlab-component", "$CI_SERVER_FQDN/apricote/releaser-pleaser/run")
    assert same("apricote/releaser-pleaser", component)
    assert same("$CI_SERVER_FQDN/apricote/releaser-pleaser/run", component)  # as written, as before
    assert same("apricote/releaser-pleaser",
                bench_change("gitlab-component", "gitlab.com/apricote/releaser-pleaser/run"))
    # nested groups are the project's path
    assert same("group/sub/proj", bench_change("gitlab-component", "$CI_SERVER_HOST/group/sub/proj/build"))


@each_case("name, want", [
    ("$CI_SERVER_FQDN/apricote/releaser-pleaser/run", "apricote/other"),  # another project
    ("$CI_SERVER_FQDN/apricote/releaser-pleaser/run", "releaser-pleaser/run"),  # a tail is not the project
    ("$CI_SERVER_FQDN/apricote/releaser-pleaser/run", "apricote"),  # the group alone is not the project
    ("apricote/releaser-pleaser/run", "releaser-pleaser"),  # no host to drop: the first part is the group
    ("$CI_SERVER_FQDN/run", ""),  # no project at all
])
def test_component_naming_look_alikes_are_other_packages(name: str, want: str) -> None:
    assert not accuracy_bench()._same_name(want, bench_change("gitlab-component", name))


def test_other_ecosystems_keep_their_names() -> None:
    same = accuracy_bench()._same_name
    assert not same("apricote/releaser-pleaser",
                    bench_change("docker", "$CI_SERVER_FQDN/apricote/releaser-pleaser/run"))


def test_hetzner_component_move_is_still_read_as_written_both_modes(tmp_path: Path) -> None:
    path = ".gitlab-ci.yml"
    tree, patch = both_edited(tmp_path, {path: HETZNER_GITLAB_CI}, {path: {"run@v0.8.0": "run@v0.9.0"}})
    want = {("gitlab-component", "$CI_SERVER_FQDN/apricote/releaser-pleaser/run", "v0.8.0", "v0.9.0")}
    assert moves(tree) == moves(patch) == want, (tree, patch)


def test_vpc_circleci_release_download_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    path = ".circleci/config.yml"
    tree, patch = both_edited(tmp_path, {path: VPC_CIRCLECI}, {path: {"download/v0.4.2/": "download/v0.8.2/"}})
    want = {("tool", "wata727/tflint", "v0.4.2", "v0.8.2")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    assert accuracy_bench()._same_name("tflint", tree.changes[0])


def test_a_workflow_run_line_release_download_is_read(tmp_path: Path) -> None:
    path = ".github/workflows/lint.yml"
    body = ("on: push\njobs:\n  lint:\n    runs-on: ubuntu-22.04\n    steps:\n      - run: |\n"
            "          curl -fsSL https://github.com/mvdan/sh/releases/download/v3.7.0/shfmt_v3.7.0_linux_amd64"
            " -o shfmt\n")
    tree, patch = both_edited(tmp_path, {path: body}, {path: {"v3.7.0": "v3.8.0"}})
    want = {("tool", "mvdan/sh", "v3.7.0", "v3.8.0")}
    assert moves(tree) == moves(patch) == want, (tree, patch)


def test_a_gitlab_script_release_download_is_read(tmp_path: Path) -> None:
    path = ".gitlab-ci.yml"
    body = ("lint:\n  image: alpine:3.20\n  script:\n"
            "    - wget -q https://github.com/hadolint/hadolint/releases/download/v2.12.0/hadolint-Linux-x86_64\n")
    tree, patch = both_edited(tmp_path, {path: body}, {path: {"v2.12.0": "v2.13.1"}})
    assert moves(tree) == moves(patch) == {("tool", "hadolint/hadolint", "v2.12.0", "v2.13.1")}, (tree, patch)


@each_case("line", [
    # a release URL at a tag that names no version: a branch-like tag, a variable, `latest`
    "      - run: curl -L https://github.com/o/r/releases/download/nightly/tool.tgz",
    "      - run: curl -L https://github.com/o/r/releases/download/${TOOL_VERSION}/tool.tgz",
    "      - run: curl -L https://github.com/o/r/releases/latest/download/tool.tgz",
    # a release page, an archive or a raw file: no release asset
    "      - run: curl -L https://github.com/o/r/releases/tag/v1.2.3",
    "      - run: curl -L https://github.com/o/r/archive/refs/tags/v1.2.3.tar.gz",
    "      - run: curl -L https://raw.githubusercontent.com/o/r/v1.2.3/install.sh",
    # another host's releases path
    "      - run: curl -L https://gitlab.com/o/r/releases/download/v1.2.3/tool.tgz",
])
def test_release_download_look_alikes_name_no_tool(line: str) -> None:
    assert [d for d in actions.parse_workflow("w.yml", f"on: push\njobs:\n  a:\n    steps:\n{line}\n".encode())
            if d.ecosystem == "tool"] == []


def test_cocoapods_matrix_runner_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    path = ".github/workflows/Specs.yml"
    tree, patch = both_edited(tmp_path, {path: COCOAPODS_SPECS}, {path: {"[ubuntu-16.04]": "[ubuntu-18.04]"}})
    want = {("github-runner", "ubuntu", "16.04", "18.04")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    assert not partial(patch, path)
    assert accuracy_bench()._same_name("ubuntu", tree.changes[0])


@each_case("line, named", [
    ("        os: [ubuntu-16.04]", {("ubuntu", "16.04")}),
    ("        os: [ ubuntu-22.04, macos-14, windows-2022 ]", {("ubuntu", "22.04"), ("macos", "14"),
                                                               ("windows", "2022")}),
    ("        os: ['ubuntu-20.04', \"macos-13\"]  # the runners", {("ubuntu", "20.04"), ("macos", "13")}),
    ("        - os: [ubuntu-24.04]", {("ubuntu", "24.04")}),
    ("        os: [ubuntu-latest, macos-latest]", set()),  # a moving label names no version
    ("        os: [linux, darwin]", set()),  # a build's own platform names
    ("        os: [ubuntu-22.04-arm, my-ubuntu-22.04]", {("ubuntu", "22.04-arm")}),  # a label, not inside a word
    ("        goos: [ubuntu-22.04]", set()),  # another key
    ("        os: ubuntu-22.04", set()),  # no list: an action's input as often as a matrix's
    ("        os: [ubuntu-22.04", set()),  # an unclosed list
    ("        os: [ubuntu-22.04, {x: 1}]", {("ubuntu", "22.04")}),
])
def test_matrix_runner_shapes_and_look_alikes(line: str, named: set[tuple[str, str]]) -> None:
    deps = tools.WorkflowTools("w.yml").line(line)
    assert {(d.name, d.version) for d in deps if d.ecosystem == tools.RUNNER} == named


MATRIX_BLOCK = """\
on: push
jobs:
  test:
    runs-on: ${{ matrix.os }}
    strategy:
      matrix:
        os:
          - ubuntu-22.04
          # the Apple silicon runner
          - 'macos-14'
          - windows-latest
        ruby: ['3.2']
        include:
          - os: ubuntu-20.04
            ruby: '2.7'
    steps:
      - uses: actions/checkout@v4
      - run: echo done
"""


def test_a_block_list_and_include_entries_of_runners_are_read() -> None:
    deps = actions.parse_workflow("w.yml", MATRIX_BLOCK.encode())
    assert sorted((d.name, d.version) for d in deps if d.ecosystem == tools.RUNNER) == [
        ("macos", "14"), ("ubuntu", "20.04"), ("ubuntu", "22.04")]


def test_a_block_list_runner_bump_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    path = ".github/workflows/test.yml"
    tree, patch = both_edited(tmp_path, {path: MATRIX_BLOCK}, {path: {"- ubuntu-22.04": "- ubuntu-24.04"}})
    want = {("github-runner", "ubuntu", "22.04", "24.04")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    assert not partial(patch, path)
    tree, patch = both_edited(tmp_path / "include", {path: MATRIX_BLOCK},
                              {path: {"- os: ubuntu-20.04": "- os: ubuntu-24.04"}})
    assert moves(tree) == moves(patch) == {("github-runner", "ubuntu", "20.04", "24.04")}, (tree, patch)


@each_case("body, named", [
    # the list ends at the next key: a later item is no runner of it
    ("os:\n  - ubuntu-22.04\nnames:\n  - ubuntu-20.04\n", [("ubuntu", "22.04")]),
    # an item shallower than the key belongs to another list
    ("    os:\n  - ubuntu-22.04\n", []),
    # an item at the key's own column is the key's (YAML allows it)
    ("os:\n- ubuntu-22.04\n", [("ubuntu", "22.04")]),
    # a list under another key, a scalar os: (an action's input as often as a matrix's)
    ("targets:\n  - ubuntu-22.04\n", []),
    ("with:\n  os: ubuntu-22.04\n", []),
    # an item that is a mapping or a flow list names nothing and does not end the list
    ("os:\n  - {name: x}\n  - ubuntu-22.04\n", [("ubuntu", "22.04")]),
])
def test_block_list_runner_shapes_and_look_alikes(body: str, named: list[tuple[str, str]]) -> None:
    reader = tools.WorkflowTools("w.yml")
    deps = [d for line in body.splitlines() for d in reader.line(line)]
    assert [(d.name, d.version) for d in deps if d.ecosystem == tools.RUNNER] == named


def test_hostile_lines_are_read_in_linear_time() -> None:
    calls = []
    for size in (20_000, 200_000):
        calls += [
            (lambda s=size: tools.WorkflowTools("w.yml").line("os: [" + "ubuntu-1," * s + "]"), f"{size} runners"),
            (lambda s=size: tools.WorkflowTools("w.yml").line("os: [" + "ubuntu-" * s), f"{size} unclosed"),
            (lambda s=size: tools.WorkflowTools("w.yml").line("os: [" + " " * s + "x"), f"{size} spaces"),
            (lambda s=size: [tools.WorkflowTools("w.yml").line(x) for x in ["os:"] + ["- " + "u" * 100] * (s // 10)],
             f"{size // 10} block items"),
            (lambda s=size: tools.WorkflowTools("w.yml").line("- os: " + "ubuntu-" * s), f"{size} include"),
            (lambda s=size: runlines.releases("w.yml", "https://github.com/o/r/releases/download/" * s),
             f"{size} release prefixes"),
            (lambda s=size: actions.parse_workflow("w.yml", ("run: curl https://github.com/" + "a/" * s
                                                             + "releases/download/v1/x\n").encode()), f"{size} parts"),
            (lambda s=size: ciconfigs.parse_circleci(".circleci/config.yml", (
                "jobs:\n  a:\n    steps:\n" + "      - run: curl https://github.com/o/r/releases/download/v1.0/x\n"
                * (s // 100)).encode()), f"{size // 100} download lines"),
        ]
    each_fast(calls, 5.0)


def test_many_downloads_of_one_release_are_one_move(tmp_path: Path) -> None:
    path = ".circleci/config.yml"
    body = "jobs:\n  a:\n    steps:\n" + "      - run: curl https://github.com/o/r/releases/download/v1.0/x\n" * 50
    repo_files = {path: body}
    tree, patch = both_edited(tmp_path, repo_files, {path: {"v1.0": "v1.1"}})
    assert moves(tree) == moves(patch) == {("tool", "o/r", "v1.0", "v1.1")}, (tree, patch)
    assert len(tree.changes) == 1, tree.changes


# dexidp/helm-charts' charts/dex/Chart.yaml (its shape: appVersion right under the chart's name, annotations below)
DEX_CHART = """\
apiVersion: v2
type: application
name: dex
version: 0.23.0
appVersion: "2.43.1"
kubeVersion: ">=1.14.0-0"
description: OpenID Connect (OIDC) identity and OAuth 2.0 provider with pluggable connectors.
icon: https://dexidp.io/favicon.png
home: https://dexidp.io/
sources:
  - https://github.com/dexidp/dex
  - https://github.com/dexidp/helm-charts/tree/master/charts/dex
keywords:
  - oidc
maintainers:
  - name: sagikazarmark
    url: https://sagikazarmark.com
annotations:
  artifacthub.io/images: |
    - name: dex
      image: ghcr.io/dexidp/dex:v2.43.1
"""
DEX_PATH = "charts/dex/Chart.yaml"
DEX_BUMP = {DEX_PATH: {"version: 0.23.0": "version: 0.24.0", 'appVersion: "2.43.1"': 'appVersion: "2.44.0"',
                       "dex:v2.43.1": "dex:v2.44.0"}}


def test_dex_app_version_is_named_from_the_patch_when_the_hunk_shows_the_chart_name(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {DEX_PATH: DEX_CHART}, DEX_BUMP)
    assert moves(tree) == {("tool", "dexidp/dex", "2.43.1", "2.44.0")}, tree
    # the hunk shows `name: dex` (and not the sources entry, 5 lines below the last change): the chart's name
    assert moves(patch) == {("tool", "dex", "2.43.1", "2.44.0")}, patch
    assert not partial(patch, DEX_PATH)
    assert accuracy_bench()._same_name("Dex", patch.changes[0])


def test_a_shown_source_names_the_app_as_the_tree_does(tmp_path: Path) -> None:
    body = ("apiVersion: v2\nname: dex\nsources:\n  - https://github.com/dexidp/dex\nappVersion: 2.43.1\n"
            "version: 1.0.0\n")
    tree, patch = both_edited(tmp_path, {DEX_PATH: body}, {DEX_PATH: {"appVersion: 2.43.1": "appVersion: 2.44.0"}})
    assert moves(tree) == moves(patch) == {("tool", "dexidp/dex", "2.43.1", "2.44.0")}, (tree, patch)


def test_an_app_version_whose_hunk_shows_no_chart_name_names_nothing(tmp_path: Path) -> None:
    body = "apiVersion: v2\nname: dex\n" + "".join(f"k{i}: v\n" for i in range(10)) + "appVersion: 2.43.1\nx: 1\n"
    tree, patch = both_edited(tmp_path, {DEX_PATH: body}, {DEX_PATH: {"appVersion: 2.43.1": "appVersion: 2.44.0"}})
    assert moves(tree) == {("tool", "dex", "2.43.1", "2.44.0")}
    assert moves(patch) == set(), patch


@each_case("lines, index, named", [
    (["name: dex", "appVersion: 2.44.0"], 1, ("dex", "2.44.0")),
    (["name: 'dex'", "appVersion: 'v2.44.0'  # the release"], 1, ("dex", "v2.44.0")),
    (["appVersion: 2.44.0", "name: dex", "home: https://github.com/dexidp/dex"], 0, ("dexidp/dex", "2.44.0")),
    (["name: dex", "sources:", "- https://github.com/dexidp/dex.git", "appVersion: 2.44.0"], 3,
     ("dexidp/dex", "2.44.0")),
    # a dependency's or a maintainer's `name:` is no chart name
    (["dependencies:", "  - name: redis", "appVersion: 2.44.0"], 2, None),
    (["maintainers:", "- name: someone", "appVersion: 2.44.0"], 2, None),
    # the chart's own version, an unreadable value, a value with a space
    (["name: dex", "version: 2.44.0"], 1, None),
    (["name: dex", "appVersion: {x: 1}"], 1, None),
    (["name: dex", "appVersion: 2.44.0 beta"], 1, None),
    (["name: dex", "appVersion:"], 1, None),
    # a source of another name names nothing but the chart
    (["name: dex", "home: https://github.com/evil/dex-x", "appVersion: 1"], 2, ("dex", "1")),
])
def test_hunk_app_shapes_and_look_alikes(lines: list[str], index: int, named: tuple[str, str] | None) -> None:
    assert infra.hunk_app(lines, index) == named


def test_an_annotated_app_version_is_read_as_the_annotation_names_it_from_the_patch() -> None:
    side = [("name: prometheus", False), ("# renovate: github=prometheus/prometheus", False),
            ("appVersion: v3.13.2", True)]
    assert edits.helm_line(side, 2) == [("prometheus/prometheus", "v3.13.2", "tool")]


def test_long_chart_hunks_are_read_in_linear_time() -> None:
    calls = []
    for size in (20_000, 200_000):
        lines = ["sources:"] + ["  - https://github.com/o/r"] * size + ["name: r", "appVersion: 1.0"]
        calls.append((lambda lines=lines: infra.hunk_app(lines, len(lines) - 1), f"{size} sources"))
        lines = ["name: " + "x" * size, "appVersion: " + "1" * size + " "]
        calls.append((lambda lines=lines: infra.hunk_app(lines, 1), f"{size} long values"))
    each_fast(calls, 5.0)
