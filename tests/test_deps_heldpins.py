"""A dependency the reader stops reading is no removal (docs review 54, item 9; issue 14). A Makefile commit pin
(makepins.py), an Omnibus definition's version (omnibus.py) and a Makefile `<TOOL>_VERSION` (toolfiles.tool_variables)
that one side names and the other side still sets in a form the reader does not resolve (set twice, by override or a
target, to a variable, abbreviated, not a version) showed as `removed` (or `added`) with `--tree`, and the gate allowed.
Now the file is an `unparsable` problem (reviewed). Generated variants, both directions, both modes, through real git
repositories; then the look-alikes: a real removal, a move to another repository, and a file unresolved on both
sides."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from changecase import committed, gated_rules
from cpucost import within_cpu
from gitdiffs import commit_patch
from tables import each_case

from gatekeeper.deps.heldvars import unresolved
from gatekeeper.deps.sources import Delta, patch_delta, tree_delta
from tests.gitrepo import two_commits

S1, S2 = "a" * 40, "b" * 40
GH = "https://github.com/ggerganov/llama.cpp"
PIN = f"LLAMA_REPO?={GH}\nLLAMA_VERSION?={S1}\n\nall:\n\tgit clone $(LLAMA_REPO) && git checkout $(LLAMA_VERSION)\n"
SOFT = 'name "mylib"\ndefault_version "1.2.3"\n\nsource git: "https://github.com/a/mylib.git"\n'
TOOL = "GOLANGCI_VERSION ?= 1.55.0\n\nlint:\n\tcurl -L golangci-lint-$(GOLANGCI_VERSION).tar.gz | tar x\n"
RB = "config/software/mylib.rb"

# (name, path, base text that names the dependency, head text that still holds it unresolved)
VARIANTS = [
    ("pin set twice, appended", "Makefile", PIN, PIN + f"LLAMA_VERSION={S2}\n"),
    ("pin set twice, prepended", "Makefile", PIN, f"LLAMA_VERSION:={S2}\n" + PIN),
    ("pin overridden", "Makefile", PIN, PIN + f"override LLAMA_VERSION={S2}\n"),
    ("pin set by a target", "Makefile", PIN, PIN + f"all: LLAMA_VERSION={S2}\n"),
    ("pin set by define", "Makefile", PIN, PIN + "define LLAMA_VERSION\nx\nendef\n"),
    ("pin set by eval", "Makefile", PIN, PIN + f"$(eval LLAMA_VERSION={S2})\n"),
    ("pin abbreviated", "Makefile", PIN, PIN.replace(S1, "deadbeef")),
    ("pin to a variable", "Makefile", PIN, PIN.replace(S1, "$(OTHER_SHA)") + f"OTHER_SHA={S2}\n"),
    ("repository to a variable", "Makefile", PIN,
     PIN.replace(GH, "$(FORK_URL)") + "FORK_URL=https://github.com/evil/llama.cpp\n"),
    ("repository set twice", "Makefile", PIN, PIN + "LLAMA_REPO=https://github.com/evil/llama.cpp\n"),
    ("omnibus version set twice", RB, SOFT, SOFT + 'default_version "9.9.9-evil"\n'),
    ("omnibus version from the environment", RB, SOFT, SOFT.replace('"1.2.3"', 'ENV["MYLIB_VERSION"] || "9.9.9"')),
    ("omnibus version from a method", RB, SOFT, SOFT.replace('"1.2.3"', "pick_version")),
    ("tool version set twice", "Makefile", TOOL, TOOL + "GOLANGCI_VERSION = 9.9.9\n"),
    ("tool version overridden", "Makefile", TOOL, TOOL + "override GOLANGCI_VERSION = 9.9.9\n"),
    ("tool version to a variable", "Makefile", TOOL, TOOL.replace("1.55.0", "$(LINT_V)") + "LINT_V = 9.9.9\n"),
    ("tool version no version", "Makefile", TOOL, TOOL.replace("1.55.0", "latest")),
]
CASES = [pytest.param(path, base, head, id=f"{name}, {way}")
         for name, path, one, other in VARIANTS
         for way, base, head in (("read at base", one, other), ("read at head", other, one))]


def _deltas(tmp_path: Path, path: str, base: str, head: str) -> tuple[Delta, Delta]:
    repo, old, new = two_commits(tmp_path / "repo", {path: base}, {path: head})
    with repo.objects() as git:
        tree = tree_delta(git, old, new)
    return tree, patch_delta(None, io.BytesIO(commit_patch(repo, old, new)))


# --- attack cases: the check reads both sides of a hostile file in bounded time ---

@each_case("body", [
    "A" * 100 + " " + ("B" * 99 + " ") * 20_000,  # long names that never reach `=`
    "X_VERSION = 1\n" * 100_000,  # one variable set 100,000 times
    "".join(f"V{n}_VERSION ?= $(Y)\n" for n in range(50_000)),  # 50,000 variables, none read
])
def test_a_hostile_makefile_is_checked_in_linear_time(body: str) -> None:
    def timed() -> None:
        assert unresolved("Makefile", "Makefile", (PIN.encode(), body.encode()), ([], [])) == ([], set())
    within_cpu(5, timed)


def test_a_hostile_definition_is_checked_in_linear_time() -> None:
    body = SOFT + "default_version x\n" * 100_000
    def timed() -> None:
        problems, keys = unresolved("omnibus", RB, (SOFT.encode(), body.encode()), ([], []))
        assert keys == {("tool", "mylib")} and [p.kind for p in problems] == ["unparsable"]
    within_cpu(5, timed)


@each_case(("path", "base", "head"), CASES)
def test_an_unresolved_side_is_reviewed_never_a_removal_or_addition(tmp_path: Path, path: str, base: str,
                                                                    head: str) -> None:
    tree, patch = _deltas(tmp_path, path, base, head)
    assert [c for c in tree.changes if c.change in ("removed", "added")] == []
    assert [(p.manifest, p.kind) for p in tree.problems] == [(path, "unparsable")]
    assert "not read as a" in tree.problems[0].msg
    # from the patch: never a bare removal (the hunks may not show the other setting: reviewed); a setting the hunks
    # add beside one out of sight is named as shown (a new dependency the gate reviews)
    assert patch.problems or not [c for c in patch.changes if c.change == "removed"]


@each_case(("path", "base", "head"), CASES)
def test_the_gate_stops_in_both_modes(tmp_path: Path, path: str, base: str, head: str) -> None:
    case = committed(tmp_path, {path: base}, {path: head})
    for tree in (True, False):
        code, rules = gated_rules(case, tree, "deps")
        assert code != 0, (tree, rules)


# --- look-alikes: still read as before ---

@pytest.mark.parametrize(("path", "base", "head", "name"), [
    ("Makefile", PIN, "all:\n\ttrue\n", "github.com/ggerganov/llama.cpp"),
    (RB, SOFT, 'name "mylib"\n\nsource git: "https://github.com/a/mylib.git"\n', "mylib"),
    ("Makefile", TOOL, "lint:\n\ttrue\n", "golangci/golangci-lint"),
])
def test_a_variable_or_definition_really_gone_is_a_removal(tmp_path: Path, path: str, base: str, head: str,
                                                          name: str) -> None:
    tree, _ = _deltas(tmp_path, path, base, head)
    assert tree.problems == ()
    assert [(c.name, c.change) for c in tree.changes] == [(name, "removed")]


def test_a_pin_moved_to_another_repository_is_a_removal_and_an_addition(tmp_path: Path) -> None:
    tree, _ = _deltas(tmp_path, "Makefile", PIN, PIN.replace(GH, "https://github.com/evil/llama.cpp"))
    assert tree.problems == ()
    assert sorted((c.name, c.change) for c in tree.changes) == [
        ("github.com/evil/llama.cpp", "added"), ("github.com/ggerganov/llama.cpp", "removed")]


def test_a_file_unresolved_on_both_sides_raises_nothing_new(tmp_path: Path) -> None:
    twice = TOOL + "GOLANGCI_VERSION = 9.9.9\n"
    tree, _ = _deltas(tmp_path, "Makefile", twice, twice + "\nfmt:\n\ttrue\n")
    assert tree.changes == ()
    assert tree.problems == ()
