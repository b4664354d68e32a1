"""Attack 21: spellings of a cargo run cargo accepts that cargorun.py missed, and two it over-claimed.

cargo takes its global options before the command (`cargo -q run`, `cargo --locked xtask`, `cargo --color always
run`), `r` is its built-in alias of `run`, and clap reads `-p=xtask` as `-p xtask`: each ran the `xtask/` (or the
manifest's) package in CI while the `.rs` files stayed `src`. `-p xtask-lint` is another package, and a
`--manifest-path` after `--` is the program's argument, not cargo's: neither names a folder.
The five accepted spellings run end to end as rows of red team 23's
`test_the_package_a_ci_job_runs_is_ci`.
"""

from __future__ import annotations

from gatekeeper.classify.cargorun import packages


def test_another_package_or_the_program_s_argument_names_nothing() -> None:
    # attack 47: a package no manifest read declares names the folders of its name (cargobins.py)
    assert packages("run: cargo run -p xtask-lint") == ["xtask-lint/*.rs", "*/xtask-lint/*.rs"]
    assert packages("run: cargo xtask-lint") == []
    assert packages("run: cargo run -- --manifest-path tools/gen/Cargo.toml") == []
    assert packages("run: cargo -q run -p xtask") == ["xtask/*.rs", "*/xtask/*.rs"]
