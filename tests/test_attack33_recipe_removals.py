"""Attack 33: a Makefile recipe install moved to a form the recipe reader (makerecipes.py, branch depsleft3) does not
read. With `--tree`, the base side names `golangci-lint v1.62.0` from its recipe line; the head side installs
v2.1.0 (a major upgrade, which the deps policy reviews) through `sh -c '...'`, an inline `target: ; recipe`, a
`define` block, a `$(shell ...)`, a loop, `.RECIPEPREFIX`, or a recipe line past the reader's bound (8,192
characters): nothing is read there, the dependency reads as removed, and `gate --tree --enable deps` allowed
(exit 0 on integ 2a5b937). Now a dependency one side's recipes name that the other side still mentions by name, not
read, is an `unparsable` problem (reviewed), not a removal; and an install line past the bound is one too, never
skipped in silence. A recipe that no longer mentions the tool is a removal, as before (the control).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

OLD = "\tgo install github.com/golangci/golangci-lint/cmd/golangci-lint@v1.62.0\n"
BASE = "lint:\n" + OLD + "\tgolangci-lint run ./...\n\ntest:\n\tgo test ./...\n"
NEW = "go install github.com/golangci/golangci-lint/cmd/golangci-lint@v2.1.0"
HEADS = {
    "sh-c": BASE.replace(OLD, f"\tsh -c '{NEW}'\n"),
    "bash-c": BASE.replace(OLD, f"\tbash -c \"{NEW}\"\n"),
    "inline-recipe": BASE.replace("lint:\n" + OLD, f"lint: ; {NEW}\n"),
    "define": "define INSTALL\n" + NEW + "\nendef\n" + BASE.replace(OLD, "\t$(INSTALL)\n"),
    "variable": "INSTALL = " + NEW + "\n" + BASE.replace(OLD, "\t$(INSTALL)\n"),
    "shell-function": "X := $(shell " + NEW + ")\n" + BASE.replace(OLD, ""),
    "xargs": BASE.replace(OLD, "\techo github.com/golangci/golangci-lint/cmd/golangci-lint@v2.1.0"
                               " | xargs go install\n"),
    "for-loop": BASE.replace(OLD, "\tfor t in github.com/golangci/golangci-lint/cmd/golangci-lint@v2.1.0; do "
                                  "go install $$t; done\n"),
    "recipeprefix": ".RECIPEPREFIX = >\n" + BASE.replace("\t", "> "),
    "long-line": BASE.replace(OLD, f"\t{NEW} # {'x' * 8200}\n"),
    "long-continued": BASE.replace(OLD, f"\t{NEW} \\\n" + "\t  -v \\\n" * 1400 + "\t  -x\n"),
}


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, dict[str, list[str]]]]:
    out = {}
    for name, head in HEADS.items():
        case = committed(tmp_path_factory.mktemp(name), {"Makefile": BASE}, {"Makefile": head})
        out[name] = gated_rules(case, True, "deps")
    return out


@each_case("name", HEADS)
def test_a_recipe_install_moved_out_of_sight_is_no_removal(decided: dict[str, tuple[int, dict[str, list[str]]]],
                                                           name: str) -> None:
    code, named = decided[name]
    assert code == 3 and "Makefile" in named.get("deps.unreadable", []), named  # integ 2a5b937: exit 0


@pytest.mark.parametrize("before", ["", "\tgo test ./...\n"])
def test_an_install_line_past_the_bound_is_reviewed_when_added(tmp_path: Path, before: str) -> None:
    base = "test:\n" + before + "\tgo vet ./...\n"
    head = base.replace("\tgo vet ./...\n", f"\t{NEW} # {'x' * 8200}\n\tgo vet ./...\n")
    code, named = gated_rules(committed(tmp_path, {"Makefile": base}, {"Makefile": head}), True, "deps")
    assert code == 3 and "Makefile" in named.get("deps.unreadable", []), named


def test_the_controls(tmp_path: Path) -> None:
    bump = committed(tmp_path / "bump", {"Makefile": BASE}, {"Makefile": BASE.replace(OLD, f"\t{NEW}\n")})
    assert gated_rules(bump, True, "deps")[1].get("deps.upgrade_level") == ["Makefile"]  # read: a major upgrade
    gone = BASE.replace(OLD, "").replace("\tgolangci-lint run ./...\n", "\tgo vet ./...\n")
    removed = committed(tmp_path / "removed", {"Makefile": BASE}, {"Makefile": gone})
    assert gated_rules(removed, True, "deps") == (0, {})  # the tool gone from the file: a removal
    long_other = BASE.replace("\tgo test ./...\n", f"\tgo test ./... # {'x' * 8200}\n")
    quiet = committed(tmp_path / "quiet", {"Makefile": BASE}, {"Makefile": long_other})
    assert gated_rules(quiet, True, "deps") == (0, {})  # a long line that installs nothing
