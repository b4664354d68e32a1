"""A bare `cargo run` in the folder of the project's own workspace runs the product, as at the root: not `ci`.

Found by the stop's tree-mode regression: quickwit's `ui-ci.yml` runs `cargo run --features=postgres -- run ...` with
`working-directory: ./quickwit`, the Cargo workspace (`[workspace]` with `members`) that holds the whole product, and
red team 24's folder rule made every `.rs` file below it `ci` (`quickwit-storage/src/lib.rs`, labelled src). A root
`cargo run` is not followed for that reason (red team 23). A tool's own folder is still followed, also when its
manifest opts out of the parent workspace with an empty `[workspace]`; and a manifest only HEAD makes a workspace
does not escape, since each tree is walked with its own manifests and the most sensitive answer wins.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_redteam23_cargo_run import EVIL, MAIN, STEPS

from tests.gitrepo import two_commits
from tests.test_classify_context import tree_files

WORKSPACE = '[workspace]\nmembers = ["server", "storage"]\n'
TOOL = '[package]\nname = "gen"\nversion = "0.1.0"\n'
FILES = {"app/Cargo.toml": WORKSPACE, "app/server/Cargo.toml": TOOL.replace("gen", "server"),
         "app/server/src/main.rs": MAIN, "app/storage/src/lib.rs": "pub fn get() {}\n",
         "tools/gen/Cargo.toml": "[workspace]\n\n" + TOOL, "tools/gen/src/main.rs": MAIN}


def _found(tmp_path: Path, folder: str, base: dict[str, str], head: dict[str, str]) -> dict[str, str]:
    steps = f"      - run: cargo run --features=postgres -- serve\n        working-directory: ./{folder}\n"
    repo, first, last = two_commits(tmp_path / "repo", {**FILES, **base, ".github/workflows/ci.yml": STEPS + steps},
                                    head)
    return {path: f.bucket for path, f in tree_files(repo, f"{first}..{last}").items()}


def test_the_project_workspace_is_the_product(tmp_path: Path) -> None:
    found = _found(tmp_path, "app", {}, {"app/storage/src/lib.rs": "pub fn get() { }\n"})
    assert found["app/storage/src/lib.rs"] == "src"


@pytest.mark.parametrize("manifest", ["[workspace]\n\n" + TOOL, TOOL])
def test_a_tool_folder_is_still_ci(tmp_path: Path, manifest: str) -> None:
    found = _found(tmp_path, "tools/gen", {"tools/gen/Cargo.toml": manifest}, {"tools/gen/src/main.rs": EVIL})
    assert found["tools/gen/src/main.rs"] == "ci"


def test_a_workspace_only_head_declares_does_not_escape(tmp_path: Path) -> None:
    found = _found(tmp_path, "tools/gen", {}, {"tools/gen/Cargo.toml": '[workspace]\nmembers = ["."]\n\n' + TOOL,
                                              "tools/gen/src/main.rs": EVIL})
    assert found["tools/gen/src/main.rs"] == "ci"
