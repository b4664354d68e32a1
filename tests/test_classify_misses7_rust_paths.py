"""Misses 7: the Rust files a CI-run binary compiles in by `#[path = "…"]` or `include!("…")` are the job's code
(ciimports.py). `cargo run -p xtask` makes the crate's files `ci`; a module the crate takes from outside its folder
(`#[path = "../../shared/util.rs"] mod util;`) stayed `src` and an edit was exit 0 on b493f73c. Look-alikes:
`include_str!`/`include_bytes!` (data), a commented attribute, a path with a variable (`concat!(env!(…))`)."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify.ciimports import imported

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
CRATE = {"Cargo.toml": '[workspace]\nmembers = ["xtask"]\n',
         "xtask/Cargo.toml": '[package]\nname = "xtask"\nversion = "0.1.0"\nedition = "2021"\n'}
VARIANTS = [  # (command, main.rs, the file it takes in)
    ("cargo run -p xtask -- ci", '#[path = "../../shared/util.rs"]\nmod util;\nfn main() {}\n', "shared/util.rs"),
    ("cargo run -p xtask", 'include!("../../build/common.rs");\nfn main() {}\n', "build/common.rs"),
    ("cargo run --package xtask -- dist", '#[path="../../ci/lib/mod.rs"] mod cilib;\nfn main() {}\n',
     "ci/lib/mod.rs"),
    ("cargo run -p xtask", '#[cfg(unix)]\n#[path = "../../tools/unix.rs"]\nmod sys;\nfn main() {}\n',
     "tools/unix.rs"),
]


@each_case("command, main, taken", VARIANTS)
def test_a_file_a_ci_run_crate_takes_in_is_ci(tmp_path: Path, command: str, main: str, taken: str) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command=command), "README.md": "x\n", **CRATE,
            "xtask/src/main.rs": main, taken: "pub fn f() {}\n"}
    case = committed(tmp_path, base, {taken: "pub fn f() { std::process::Command::new(\"sh\"); }\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [taken]), named  # before: src, exit 0


@each_case("text", ['const T: &str = include_str!("../../data/t.txt");\n',
                    'static B: &[u8] = include_bytes!("x.bin");\n',
                    '// #[path = "../x.rs"]\nmod x;\n', 'include!(concat!(env!("OUT_DIR"), "/gen.rs"));\n'])
def test_look_alikes_name_nothing(text: str) -> None:
    assert imported("xtask/src/main.rs", text) == [], text
