"""Attack 29 on label 46's deeper test-tree packages (`**/tests/**/node_modules/**`, `**/test/**/node_modules/**`:
`src.test-packages`, moved down from `deps.npm.installed`). The rule says markers and content still raise a chart
there, and attack 22 meant them to; but markers raise a `src` file only under the catch-all rule or in a marker's
`whole` folders, so a Helm chart's own `Chart.yaml` and `values.yaml` (and a kustomization's manifests) there stayed
`src` and `gate --tree` allowed an edit (exit 0 on 9df582b; `deps.npm.installed` before label 46 was raised to iac for
the deeper folders, and the shallow `tests/node_modules/` had the same hole since attack 22). Packages a test tree
holds are installed code: a marker raises them as it raises `node_modules/` (weakrules.installed_code).
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import two_commits
from tests.incli import tree_gate
from tests.test_classify_context import tree_files

FOLDERS = ("tests/node_modules/chart", "tests/deploy/node_modules/chart", "test/integration/node_modules/chart")
CHART = "apiVersion: v2\nname: c\nversion: 1.0.0\n"
BASE = {"Chart.yaml": CHART, "values.yaml": "image: app:1\n", "templates/pod.yaml": "kind: Pod\n"}
EDITS = {"Chart.yaml": CHART + "dependencies:\n- name: evil\n  repository: https://evil.example/charts\n",
         "values.yaml": "image: evil.example/app:1\n"}


@each_case("folder, name", [(folder, name) for folder in FOLDERS for name in sorted(EDITS)])
def test_a_charts_own_files_in_a_test_trees_node_modules_are_iac(tmp_path: Path, folder: str, name: str) -> None:
    base = {"package.json": '{"name": "x"}\n', **{f"{folder}/{n}": body for n, body in BASE.items()}}
    repo, first, head = two_commits(tmp_path / "repo", base, {f"{folder}/{name}": EDITS[name]})
    found = tree_files(repo, f"{first}..{head}")[f"{folder}/{name}"]
    assert found.bucket == "iac", found
    code, decision = tree_gate(repo.root, first, head)
    assert code == 3, decision


def test_a_test_packages_code_stays_src(tmp_path: Path) -> None:
    """The control: a package's code a test resolves, beside no marker, stays src (the forty-sixth set's class)."""
    path = "tests/esbuild/default/node_modules/pkg/index.js"
    repo, first, head = two_commits(tmp_path / "repo", {"package.json": '{"name": "x"}\n', path: "a\n"}, {path: "b\n"})
    assert tree_files(repo, f"{first}..{head}")[path].rule == "src.test-packages"
