"""Attack 22: red team 24's cargo aliases were followed four deep; cargo follows a chain of any length.

`.cargo/config.toml` `[alias]` entries may name other aliases (`ci = "a1"`, `a1 = "a2"`, ...): cargo expands them
until a built-in command (a cycle is its error). cargorun stopped at depth 4, so a chain of five aliases ending in
`run --manifest-path tools/gen/Cargo.toml` left the package a CI job runs `src`, and `gate --tree` allowed an edit
of it (exit 0 on ca36d0b) once the chain was in place (the config edit itself is deps: allowed by the default core).
Now the chain is followed to its end, each alias once (a cycle names nothing, as cargo runs nothing), iteratively:
a chain of 20,000 aliases costs no recursion. Variants: chains of 5, 6, 12 and 40 with the commits, the gate, a
cycle, a 20,000-alias chain.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case
from test_redteam23_cargo_run import EVIL, FILES, STEPS

from gatekeeper.classify.cargorun import config, packages
from tests.gitrepo import two_commits
from tests.incli import reviewed_paths, tree_gate
from tests.test_classify_context import tree_files

TARGET = "tools/gen/src/main.rs"


def _chain(length: int, end: str = "run --manifest-path tools/gen/Cargo.toml --") -> str:
    lines = [f'a{i} = "a{i + 1}"' for i in range(length - 1)] + [f'a{length - 1} = "{end}"']
    return "[alias]\n" + "\n".join(lines) + "\n"


def _repo(tmp_path: Path, aliases: str) -> tuple[object, str, str]:
    return two_commits(tmp_path / "repo", {**FILES, ".cargo/config.toml": aliases,
                                           ".github/workflows/ci.yml": STEPS + "      - run: cargo a0 --check\n"},
                       {TARGET: EVIL})


@each_case("length", [5, 6, 12, 40])
def test_what_a_long_alias_chain_runs_is_ci(tmp_path: Path, length: int) -> None:
    repo, base, head = _repo(tmp_path, _chain(length))
    assert tree_files(repo, f"{base}..{head}")[TARGET].bucket == "ci"  # src on ca36d0b


def test_the_gate_reviews_an_edit_behind_five_aliases(tmp_path: Path) -> None:
    repo, base, head = _repo(tmp_path, _chain(5))
    code, out = tree_gate(repo.root, base, head)
    assert code == 3 and reviewed_paths(out, "core.ci") == {TARGET}  # exit 0 on ca36d0b


def test_a_cycle_names_nothing(tmp_path: Path) -> None:
    repo, base, head = _repo(tmp_path, '[alias]\na0 = "a1 run"\na1 = "a0"\n')
    assert tree_files(repo, f"{base}..{head}")[TARGET].bucket == "src"


def test_a_chain_of_twenty_thousand_aliases_is_read_without_recursion() -> None:
    settings = config([_chain(20_000)])
    assert packages("cargo a0 --check\n", ["."], settings) == ["tools/gen/*.rs"]
