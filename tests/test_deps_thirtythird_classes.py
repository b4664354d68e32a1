"""Classes of misses the thirty-third blind set of bot update commits found (bench/deps_bumps_thirtythird.tsv).

- A pre-commit hook's `additional_dependencies` item written as a PEP 508 range (wntrblm/nox's Dependabot "bump
  dependency-groups in the pre-commit group", `dependency-groups>=1.2` → `>=1.3.1`, 1 both modes; pypa/virtualenv's
  pre-commit.ci autoupdate moving `additional_dependencies: ["tox>=4.6.4"]` to `["tox>=4.8"]` beside two rev bumps, 1
  from the patch). Only an exact pin was read: with `--tree` the range's move was nothing at all, and from the patch
  the item refused the whole hunk (`partial`), so the two rev bumps beside it were not named either. A PyPI
  requirement with a version specifier and nothing else (extras allowed; no marker, no URL) is now read as the PyPI
  package at its specifier, as a requirements file's line is; any other item is refused as before.
- CircleCI's `.circleci/config.yml` and GitLab's `.gitlab-ci.yml` were no format the delta read: a job's image
  (dropwizard's Renovate "update cimg/openjdk docker tag to v21.0.5", `- image: cimg/openjdk:21.0.4` →
  `cimg/openjdk:21.0.5@sha256:…`), a CircleCI orb (`node: circleci/node@5.1.0`), a tool a run line installs at a
  version, and a Renovate-annotated line in them moved with no change named and no problem. Each is read now, line by
  line as a workflow is, so a patch's hunks read them too.

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.precommit import additional
from gatekeeper.deps.registry import format_for
from gatekeeper.deps.tools import WorkflowTools
from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


# --- 1. a hook dependency written as a range ------------------------------------------------------------------------

NOX = """\
repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.12.3
    hooks:
      - id: ruff-check
        args: ["--fix", "--show-fixes"]
      - id: ruff-format

  - repo: https://github.com/pre-commit/mirrors-mypy
    rev: v1.17.0
    hooks:
      - id: mypy
        files: ^nox/
        args: []
        additional_dependencies:
          - argcomplete
          - attrs
          - colorlog
          - dependency-groups>=1.2
          - humanize
          - jinja2
          - packaging
          - importlib_metadata
          - types-requests==2.32.4.20250611
"""

VIRTUALENV = """\
repos:
  - repo: https://github.com/tox-dev/tox-ini-fmt
    rev: "1.3.1"
    hooks:
      - id: tox-ini-fmt
        args: ["-p", "fix"]
  - repo: https://github.com/tox-dev/pyproject-fmt
    rev: "0.13.0"
    hooks:
      - id: pyproject-fmt
        additional_dependencies: ["tox>=4.6.4"]
  - repo: https://github.com/pre-commit/mirrors-prettier
    rev: "v3.0.1"
    hooks:
      - id: prettier
        args: ["--print-width=120", "--prose-wrap=always"]
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: "v0.0.282"
    hooks:
      - id: ruff
        args: [--fix, --exit-non-zero-on-fix]
"""


def test_a_ranged_hook_dependency_is_read(tmp_path: Path) -> None:
    # nox 982fcfa6a5a5: the hunk's three lines above the item are items, not the key: from the patch whose list it is
    # is not shown (`args:` lists words too), so it stays `partial`, never a wrong change
    tree, patch = _bumped(tmp_path, {".pre-commit-config.yaml": NOX},
                          {".pre-commit-config.yaml": {"dependency-groups>=1.2": "dependency-groups>=1.3.1"}})
    want = {("pip", "dependency-groups", ">=1.2", ">=1.3.1")}
    assert moves(tree) == want and not tree.problems, tree
    assert not patch.changes and partial(patch, ".pre-commit-config.yaml"), patch


def test_a_ranged_item_the_hunk_shows_the_key_of_is_read_from_the_patch(tmp_path: Path) -> None:
    body = NOX.replace("          - argcomplete\n", "          - argcomplete>=3.1\n")
    tree, patch = _bumped(tmp_path, {".pre-commit-config.yaml": body},
                          {".pre-commit-config.yaml": {"argcomplete>=3.1": "argcomplete>=3.6.2"}})
    want = {("pip", "argcomplete", ">=3.1", ">=3.6.2")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


def test_a_ranged_flow_item_no_longer_hides_the_revs_beside_it(tmp_path: Path) -> None:
    # virtualenv 3b7562f81c1e: the flow list's item moved beside two revs
    edits = {'rev: "0.13.0"': 'rev: "0.13.1"', '["tox>=4.6.4"]': '["tox>=4.8"]', 'rev: "v0.0.282"': 'rev: "v0.0.284"'}
    tree, patch = _bumped(tmp_path, {".pre-commit-config.yaml": VIRTUALENV}, {".pre-commit-config.yaml": edits})
    want = {("pre-commit", "tox-dev/pyproject-fmt", "0.13.0", "0.13.1"), ("pip", "tox", ">=4.6.4", ">=4.8"),
            ("pre-commit", "astral-sh/ruff-pre-commit", "v0.0.282", "v0.0.284")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


def test_a_range_moved_to_an_exact_pin_is_a_change(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, {".pre-commit-config.yaml": NOX},
                          {".pre-commit-config.yaml": {"dependency-groups>=1.2": "dependency-groups==1.3.1"}})
    want = {("pip", "dependency-groups", ">=1.2", "1.3.1")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) <= want and partial(patch, ".pre-commit-config.yaml"), patch  # the key is not in the hunk


@each_case(("item", "read"), [
    ("dependency-groups>=1.3.1", ("pip", "dependency-groups", ">=1.3.1")),
    ("tox>=4.8", ("pip", "tox", ">=4.8")),
    ("flake8-2020 ~= 1.7.0", ("pip", "flake8-2020", "~=1.7.0")),
    ("black[jupyter]>=24.1,<25", ("pip", "black", "<25,>=24.1")),
    ("mypy<2,>=1.10", ("pip", "mypy", "<2,>=1.10")),
    ("types-requests==2.32.4.20250611", ("pip", "types-requests", "2.32.4.20250611")),  # the exact pin, as before
    ("prettier@3.8.1", ("npm", "prettier", "3.8.1")),
    # look-alikes: no version, an npm or Go range, a marker (where it installs), a URL, a bare operator: not read
    ("tomli", None), ("eslint@^9", None), ("golang.org/x/tools@latest", None),
    ("tomli>=2; python_version < '3.11'", None), ("pkg @ https://example.com/pkg-1.0.tar.gz", None),
    (">=1.2", None), ("name>=", None), ("name>=1.2 extra", None), ("name>=1.2,,<2", None), ("a" * 120 + ">=1", None),
])
def test_hook_items(item: str, read: tuple[str, str, str] | None) -> None:
    assert additional(item) == read


@pytest.mark.parametrize("item", ["tomli", "tomli>=2; python_version < '3.11'", "eslint@^9"])
def test_an_item_still_unread_refuses_its_hunk(tmp_path: Path, item: str) -> None:
    _, patch = _bumped(tmp_path, {".pre-commit-config.yaml": NOX},
                       {".pre-commit-config.yaml": {"          - dependency-groups>=1.2\n": f"          - {item}\n"}})
    assert partial(patch, ".pre-commit-config.yaml"), patch


def test_a_malformed_config_is_a_finding(tmp_path: Path) -> None:
    tree, _ = _bumped(tmp_path, {".pre-commit-config.yaml": NOX},
                      {".pre-commit-config.yaml": {"repos:\n": "repos: [\n"}})
    assert tree.problems and not tree.changes, tree
    with pytest.raises(ManifestError):
        format_for(".pre-commit-config.yaml").parse(".pre-commit-config.yaml", b"repos: [\n")  # type: ignore[union-attr]


# --- 2. CircleCI and GitLab CI configurations -------------------------------------------------------------------------

CIRCLECI = """\
version: 2.1

orbs:
  node: circleci/node@5.1.0
  codecov: "codecov/codecov@4.0.1"  # uploads coverage

commands:
  install-mise:
    steps:
      - run:
          name: Install Mise
          command: |
            curl https://mise.run | MISE_VERSION=v2025.7.31 sh
      - run: npm install -g pnpm@9.1.0

jobs:
  build:
    environment:
      JAVA_OPTS: -Xms512m -Xmx2g -XX:+TieredCompilation -XX:TieredStopAtLevel=1
      GO_VERSION: "1.22.5"
    docker:
      - image: cimg/openjdk:21.0.4
      - image: cimg/postgres:16.3
        environment:
          POSTGRES_USER: circleci
    steps:
      - checkout
      - node/install:
          node-version: "20.11.1"
      - run: ./mvnw -V -B verify
  lint:
    docker:
      - image: golangci/golangci-lint:v1.59.1  # linter
    steps:
      - checkout
      - run: golangci-lint run

workflows:
  main:
    jobs:
      - build
      - lint
"""

GITLAB = """\
include:
  - component: $CI_SERVER_FQDN/components/sast/sast@2.0.2
  - local: ci/deploy.yml

variables:
  # renovate: datasource=github-releases depName=helm/helm
  HELM_VERSION: "v3.15.2"

image: python:3.12.4-slim

stages: [test, release]

test:
  stage: test
  image:
    name: ghcr.io/astral-sh/uv:0.4.9-python3.12-bookworm
    entrypoint: [""]
  script:
    - pip install tox==4.16.0
    - tox -e py312

release:
  stage: release
  image: docker:27.1.1@sha256:0000000000000000000000000000000000000000000000000000000000000001
  script:
    - docker build -t $CI_REGISTRY_IMAGE .
"""


OPENJDK = "sha256:4fa07b8ba0634a2036c53d2cc5242b0d8f49d84dd3400a0b310478f1f76de55a"


@each_case(("old", "new", "want"), [
    # dropwizard/dropwizard's Renovate "update cimg/openjdk docker tag to v21.0.5" (b624547db6)
    ("cimg/openjdk:21.0.4", f"cimg/openjdk:21.0.5@{OPENJDK}",
     ("docker", "cimg/openjdk", "21.0.4", f"21.0.5@{OPENJDK}")),
    ("circleci/node@5.1.0", "circleci/node@5.2.0", ("circleci-orb", "circleci/node", "5.1.0", "5.2.0")),
    ('"codecov/codecov@4.0.1"', '"codecov/codecov@4.1.0"', ("circleci-orb", "codecov/codecov", "4.0.1", "4.1.0")),
    ('node-version: "20.11.1"', 'node-version: "20.15.0"', ("tool", "node", "20.11.1", "20.15.0")),
    ('GO_VERSION: "1.22.5"', 'GO_VERSION: "1.22.6"', ("tool", "go", "1.22.5", "1.22.6")),
    ("pnpm@9.1.0", "pnpm@9.4.0", ("npm", "pnpm", "9.1.0", "9.4.0")),
    ("golangci-lint:v1.59.1", "golangci-lint:v1.60.1", ("docker", "golangci/golangci-lint", "v1.59.1", "v1.60.1")),
])
def test_a_circleci_config_is_read(tmp_path: Path, old: str, new: str, want: tuple[str, str, str, str]) -> None:
    tree, patch = _bumped(tmp_path, {".circleci/config.yml": CIRCLECI}, {".circleci/config.yml": {old: new}})
    assert moves(tree) == {want} and not tree.problems, tree
    assert moves(patch) == {want} and not patch.problems, patch


def test_an_orb_is_named_by_its_key_too(tmp_path: Path) -> None:
    # cypress-io/cypress-example-kitchensink 150f39556c6d: Renovate's "update dependency win to v5.1.1"
    body = CIRCLECI.replace("  codecov:", "  win: circleci/windows@5.1.0\n  codecov:")
    tree, patch = _bumped(tmp_path, {".circleci/config.yml": body},
                          {".circleci/config.yml": {"circleci/windows@5.1.0": "circleci/windows@5.1.1"}})
    for delta in (tree, patch):
        assert [(c.name, c.alias, c.to_version) for c in delta.changes] == [("circleci/windows", "win", "5.1.1")]


@each_case(("old", "new", "want"), [
    ("sast@2.0.2", "sast@2.1.0", ("gitlab-component", "$CI_SERVER_FQDN/components/sast/sast", "2.0.2", "2.1.0")),
    ('HELM_VERSION: "v3.15.2"', 'HELM_VERSION: "v3.16.0"', ("tool", "helm/helm", "v3.15.2", "v3.16.0")),
    ("image: python:3.12.4-slim", "image: python:3.12.5-slim", ("docker", "python", "3.12.4-slim", "3.12.5-slim")),
    ("uv:0.4.9-python3.12-bookworm", "uv:0.4.10-python3.12-bookworm",
     ("docker", "ghcr.io/astral-sh/uv", "0.4.9-python3.12-bookworm", "0.4.10-python3.12-bookworm")),
    ("tox==4.16.0", "tox==4.18.0", ("pip", "tox", "4.16.0", "4.18.0")),
    ("docker:27.1.1@sha256:" + "0" * 63 + "1", "docker:27.2.0@sha256:" + "0" * 63 + "2",
     ("docker", "docker", "27.1.1@sha256:" + "0" * 63 + "1", "27.2.0@sha256:" + "0" * 63 + "2")),
])
def test_a_gitlab_ci_config_is_read(tmp_path: Path, old: str, new: str, want: tuple[str, str, str, str]) -> None:
    tree, patch = _bumped(tmp_path, {".gitlab-ci.yml": GITLAB}, {".gitlab-ci.yml": {old: new}})
    assert moves(tree) == {want} and not tree.problems, tree
    assert moves(patch) == {want} and not patch.problems, patch


@each_case("path", [".circleci/config.yml", ".circleci/continue_config.yml", ".gitlab-ci.yml",
                                  "ci/templates/build.gitlab-ci.yml", ".gitlab-ci.yaml"])
def test_the_ci_configs_are_formats(path: str) -> None:
    assert format_for(path) is not None


@each_case("path", ["docs/.circleci/config.yml", ".circleci/config.json", "gitlab-ci.txt",
                                  ".circleci/images/Dockerfile.md", "circleci/config.yml"])
def test_look_alike_paths_are_no_ci_config(path: str) -> None:
    fmt = format_for(path)
    assert fmt is None or fmt.name not in ("circleci", "gitlab-ci")


def test_an_orb_moved_by_an_anchor_is_read_from_the_tree_and_refused_from_the_patch(tmp_path: Path) -> None:
    # an image behind an alias: no line shows it; the whole file read as YAML does, a hunk cannot
    body = CIRCLECI.replace("      - image: cimg/postgres:16.3\n", "      - image: &pg cimg/postgres:16.3\n")
    tree, patch = _bumped(tmp_path, {".circleci/config.yml": body},
                          {".circleci/config.yml": {"&pg cimg/postgres:16.3": "&pg cimg/postgres:16.4"}})
    assert ("docker", "cimg/postgres", "16.3", "16.4") in moves(tree), tree
    assert partial(patch, ".circleci/config.yml"), patch


@pytest.mark.parametrize(("old", "new"), [
    ("  node: circleci/node@5.1.0\n", "  node: circleci/node@volatile\n"),  # a moving channel, kept as written
    ("circleci/node@5.1.0", "evil/node@5.1.0"),  # another namespace's orb
])
def test_an_orb_swapped_or_unpinned_is_a_change(tmp_path: Path, old: str, new: str) -> None:
    tree, patch = _bumped(tmp_path, {".circleci/config.yml": CIRCLECI}, {".circleci/config.yml": {old: new}})
    assert tree.changes and {c.ecosystem for c in tree.changes} == {"circleci-orb"}, tree
    assert moves(patch) == moves(tree), patch


@each_case("line", [
    "  executor: node/default\n",  # an orb's executor, no version
    "      - node/install-packages\n",  # an orb's command
    "  docs: see https://circleci.com/developer/orbs/orb/circleci/node@5.1.0 here\n",  # prose
    "  url: git@github.com:org/repo.git\n",
])
def test_orb_look_alikes_name_nothing(line: str) -> None:
    assert [d for d in format_for(".circleci/config.yml").parse(  # type: ignore[union-attr]
        ".circleci/config.yml", line.encode()) if d.ecosystem == "circleci-orb"] == []


@pytest.mark.parametrize("body", [b"jobs: [\n", b"\xff\xfe\x00", b"- a\n- : :\n  &x *y\n"])
def test_a_malformed_ci_config_is_a_finding_not_a_crash(tmp_path: Path, body: bytes) -> None:
    fmt = format_for(".circleci/config.yml")
    assert fmt is not None
    try:
        fmt.parse(".circleci/config.yml", body)
    except ManifestError:
        pass


# --- 3. a released tool's version assigned on a run line ------------------------------------------------------------

@pytest.mark.parametrize("path", [".circleci/config.yml", ".github/workflows/ci.yml"])
def test_a_tool_version_assigned_on_a_run_line_is_read(tmp_path: Path, path: str) -> None:
    # apollographql/apollo-server 929e2e6855d1: Renovate's "update dependency jdx/mise to v2025.8.1"
    body = CIRCLECI if path.startswith(".circleci") else (
        "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n"
        "          curl https://mise.run | MISE_VERSION=v2025.7.31 sh\n")
    tree, patch = _bumped(tmp_path, {path: body}, {path: {"MISE_VERSION=v2025.7.31": "MISE_VERSION=v2025.8.1"}})
    want = {("tool", "jdx/mise", "v2025.7.31", "v2025.8.1")}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


@each_case(("line", "read"), [
    ("curl https://mise.run | MISE_VERSION=v2025.8.1 sh", [("jdx/mise", "v2025.8.1")]),
    ("export HELM_VERSION=3.15.2 && ./get_helm.sh", [("helm/helm", "3.15.2")]),
    ("GOLANGCI_LINT_VERSION='v1.60.1' make lint", [("golangci/golangci-lint", "v1.60.1")]),
    # look-alikes: a variable, no version, a tool no release names, a YAML key (read as an environment), prose
    ("MISE_VERSION=$MISE_VERSION sh", []), ("MISE_VERSION=latest sh", []), ("APP_VERSION=1.2.3 make", []),
    ("NOT_A_MISE_VERSION=1.0 sh", []), ("echo mise_version=1.0", []), ("XMISE_VERSION=1.0 sh", []),
])
def test_run_line_tool_assignments(line: str, read: list[tuple[str, str]]) -> None:
    found = WorkflowTools(".github/workflows/ci.yml").line(f"        run: {line}")
    assert [(d.name, d.version) for d in found] == read


@pytest.mark.parametrize(("old", "new"), [
    ("- name: postgres:16.3", "- name: postgres:16.4"),
    ("- redis:7.2.5", "- redis:7.4.0"),
])
def test_an_image_line_whose_key_the_hunk_does_not_show_is_refused(tmp_path: Path, old: str, new: str) -> None:
    body = GITLAB.replace("  script:\n    - pip install", "  services:\n    - name: postgres:16.3\n      alias: db\n"
                          "    - redis:7.2.5\n  script:\n    - pip install")
    repo, base, head = edited_commits(tmp_path, {".gitlab-ci.yml": body}, {".gitlab-ci.yml": {old: new}})
    name = old.removeprefix("- name: ").removeprefix("- ").split(":")[0]
    tree = _tree(repo, base, head)
    assert [(c.name, c.change) for c in tree.changes] == [(name, "upgraded")] and not tree.problems, tree
    assert [c.name for c in _patch(repo, base, head).changes] == [name]  # the hunk shows `services:`
    assert partial(_patch(repo, base, head, "-U0"), ".gitlab-ci.yml")  # it does not: refused, not nothing
