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

from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.precommit import additional
from gatekeeper.deps.registry import format_for
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


@pytest.mark.parametrize(("item", "read"), [
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
