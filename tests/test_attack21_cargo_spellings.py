"""Attack 21: spellings of a cargo run cargo accepts that cargorun.py missed, and two it over-claimed.

cargo takes its global options before the command (`cargo -q run`, `cargo --locked xtask`, `cargo --color always
run`), `r` is its built-in alias of `run`, and clap reads `-p=xtask` as `-p xtask`: each ran the `xtask/` (or the
manifest's) package in CI while the `.rs` files stayed `src`. `-p xtask-lint` is another package, and a
`--manifest-path` after `--` is the program's argument, not cargo's: neither names a folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gatekeeper.classify.cargorun import packages
from tests.gitrepo import two_commits
from tests.test_classify_context import tree_files
from tests.test_redteam23_cargo_run import EVIL, FILES, STEPS


@pytest.mark.parametrize(("command", "target"), [
    ("cargo -q run --package xtask -- dist", "xtask/src/main.rs"),
    ("cargo --locked xtask ci", "xtask/src/main.rs"),
    ("cargo r -p xtask -- ci", "xtask/src/tidy/mod.rs"),
    ("cargo run -p=xtask", "xtask/src/main.rs"),
    ("cargo --frozen --color always run --manifest-path tools/gen/Cargo.toml", "tools/gen/src/main.rs"),
])
def test_a_spelling_cargo_accepts_is_ci(tmp_path: Path, command: str, target: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {**FILES, ".github/workflows/ci.yml": STEPS + f"      - run: "
                                                                                                     f"{command}\n"},
                                   {target: EVIL})
    assert tree_files(repo, f"{base}..{head}")[target].bucket == "ci"


def test_another_package_or_the_program_s_argument_names_nothing() -> None:
    assert packages("run: cargo run -p xtask-lint") == []
    assert packages("run: cargo xtask-lint") == []
    assert packages("run: cargo run -- --manifest-path tools/gen/Cargo.toml") == []
    assert packages("run: cargo -q run -p xtask") == ["xtask/*.rs"]
