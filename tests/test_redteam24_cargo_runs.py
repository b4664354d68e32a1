"""Red team 24: the cargo runs attack 21 left open — an alias of the root's `.cargo/config.toml`, `cd DIR && cargo run`,
a step's `working-directory:` + `cargo run` — stayed src, and `gate --tree` allowed editing what the CI job runs.

`cargo codegen` runs what the `[alias]` table says (`codegen = "run --package xtask --"`, `x = ["run",
"--manifest-path", "tools/gen/Cargo.toml", "--"]`); a bare `cargo run` runs the package of the folder it runs in. Now
those `.rs` files are `ci` with the commits (cargorun.py, each tree's own aliases). Decided, not followed: `-p NAME`
and `--bin NAME` of the root's workspace (the product's own binaries, as red team 23 decided for `-p`), and from a
patch alone (no tree: the alias table and the folders are not in the patch; the `.rs` files stay `src`, as every
package a CI command runs does without the commits).
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case
from test_redteam23_cargo_run import EVIL, FILES, STEPS

from gatekeeper.classify.cargorun import Config, config, packages
from gatekeeper.classify.pipinstalls import ANY
from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_gate
from tests.test_classify_context import tree_files

ALIASES = ('[alias]\nxtask = "run --package xtask --"\ncodegen = "run --package xtask -- codegen"\n'
           'x = ["run", "--manifest-path", "tools/gen/Cargo.toml", "--"]\nb2 = "x"\nbuild = "run -p xtask"\n')


@each_case(("steps", "target"), [
    ("      - run: cargo codegen --check\n", "xtask/src/main.rs"),
    ("      - run: cargo x dist\n", "tools/gen/src/main.rs"),
    ("      - run: cargo -q b2\n", "tools/gen/src/main.rs"),  # an alias of an alias
    ("      - run: cd tools/gen && cargo run --release\n", "tools/gen/src/main.rs"),
    ("      - run: cargo run --bin gen -- out/\n        working-directory: tools/gen\n", "tools/gen/src/main.rs"),
    ("    defaults:\n      run:\n        working-directory: ./tools/gen\n    steps:\n      - run: cargo r\n",
     "tools/gen/src/main.rs"),
])
def test_what_an_alias_or_a_folder_runs_is_ci(tmp_path: Path, steps: str, target: str) -> None:
    workflow = STEPS + steps if not steps.startswith("    defaults") else STEPS.replace("    steps:\n", steps)
    repo, base, head = two_commits(tmp_path / "repo", {**FILES, ".cargo/config.toml": ALIASES,
                                                       ".github/workflows/ci.yml": workflow},
                                   {target: EVIL, "src/lib.rs": "pub fn add() { }\n"})
    found = tree_files(repo, f"{base}..{head}")
    assert found[target].bucket == "ci", found[target]
    assert found["src/lib.rs"].bucket == "src"


def test_the_gate_reviews_an_edit_to_the_aliased_package(tmp_path: Path) -> None:
    """On base 443d73a: exit 0 (allow); the job runs `cargo codegen`, which the alias makes xtask's main."""
    workflow = STEPS + "      - run: cargo codegen\n"
    repo, base, head = two_commits(tmp_path / "repo", {**FILES, ".cargo/config.toml": ALIASES,
                                                       ".github/workflows/ci.yml": workflow},
                                   {"xtask/src/main.rs": EVIL})
    code, out = tree_gate(repo.root, base, head)
    assert code == 3 and reviewed_paths(out, "core.ci") == {"xtask/src/main.rs"}


def test_each_tree_reads_its_own_aliases(tmp_path: Path) -> None:
    """HEAD points the alias at another package: what HEAD's job runs is ci (the config edit itself is deps)."""
    repo, base, head = two_commits(tmp_path / "repo", {**FILES, ".cargo/config.toml": '[alias]\nx = "run -p xtask"\n',
                                                       ".github/workflows/ci.yml": STEPS + "      - run: cargo x\n"},
                                   {".cargo/config.toml": '[alias]\nx = "run --manifest-path tools/gen/Cargo.toml"\n',
                                    "tools/gen/src/main.rs": EVIL})
    found = tree_files(repo, f"{base}..{head}")
    assert found["tools/gen/src/main.rs"].bucket == "ci" and found[".cargo/config.toml"].bucket == "deps"


@each_case("steps", [
    "      - run: cargo test --workspace\n        working-directory: tools/gen\n",  # tests: the project's own
    "      - run: cd tools/gen && cargo run -p gen\n",  # a named package: not followed (red team 23)
    "      - run: cargo build\n",  # `build` is built in: the alias table's `build` never runs
    "      - run: cargo run --bin gen\n",  # the root's package: the product
])
def test_the_project_s_own_code_stays_src(tmp_path: Path, steps: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", {**FILES, ".cargo/config.toml": ALIASES,
                                                       ".github/workflows/ci.yml": STEPS + steps},
                                   {"src/lib.rs": "pub fn add() { }\n", "xtask/src/main.rs": EVIL})
    found = tree_files(repo, f"{base}..{head}")
    assert found["src/lib.rs"].bucket == "src" and found["xtask/src/main.rs"].bucket == "src"


def test_aliases_and_packages_read_as_cargo_does() -> None:
    table = config(['[alias]\nx = ["run", "-p", "xtask"]\n', '[alias]\nx = "run -p other"\ny = "run -p xtask"\n',
                     "[alias\nbroken"])
    # the first file's entry wins, a broken file is skipped
    assert table == Config({"x": "run -p xtask", "y": "run -p xtask"}, ())
    assert packages("cargo y -- dist", [], table) == [f"xtask/{ANY}.rs", f"{ANY}/xtask/{ANY}.rs"]  # by name: attack 47
    assert packages("cargo run -- --manifest-path x/Cargo.toml", ["ops"]) == [f"ops/{ANY}.rs"]
    assert packages("cargo run", [".", "../up", "/abs"]) == []


SCRIPT = "#!/bin/sh\nexec \"$@\"\n"


@each_case("settings", [
    '[build]\nrustc-wrapper = "tools/wrap.sh"\n',
    "[target.'cfg(all())']\nrunner = \"sh tools/wrap.sh --quiet\"\n",
    '[target.x86_64-unknown-linux-gnu]\nlinker = "./tools/wrap.sh"\n',
    '[build]\nrustc-workspace-wrapper = ["tools/wrap.sh"]\n',
])
def test_a_program_the_cargo_configuration_runs_is_ci(tmp_path: Path, settings: str) -> None:
    """Every `cargo test` of CI runs the wrapper, runner or linker the root's configuration names: HEAD adds one
    (the config is deps, the script other/src: exit 0 on base 443d73a); the script is ci now, and the gate reviews."""
    repo, base, head = two_commits(tmp_path / "repo", {**FILES, ".github/workflows/ci.yml": STEPS + "      - run: "
                                                                                                     "cargo test\n"},
                                   {".cargo/config.toml": settings, "tools/wrap.sh": SCRIPT})
    assert tree_files(repo, f"{base}..{head}")["tools/wrap.sh"].bucket == "ci"
    code, out = tree_gate(repo.root, base, head)
    assert code == 3 and reviewed_paths(out, "core.ci") == {"tools/wrap.sh"}
