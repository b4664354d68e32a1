"""Attack 32: a version the new readers name at BASE, set more than once (or by a line they do not read) at HEAD.

This stop's readers name a Makefile's Go toolchain (`GO_VERSION`, toolfiles.tool_variables) and an Omnibus
definition's `default_version` (omnibus.py), and both go silent on a file that sets the version more than once, by
`override`, or on an indented line: "which value the build uses is the program's own logic". From a patch such an
edit is refused (makehunks, definition_edits: unreadable), but with `--tree` the silent side reads as the
dependency's removal, which no policy refuses: on 00d44cb + classes53 each variant below was allowed (exit 0) with
`--tree` while the build moves to an older Go or OpenSSL. A side whose version cannot be told must be unreadable in
both modes (integ's heldvars.py, merged meanwhile, does so for 10 of these 11 and the 4 pins), and a recipe's
`--build-arg GO_VERSION=$(GO_VERSION)` sets nothing (toolfiles.set_once counted it as a second setting, so a
downgrade beside it was named by neither side: allowed with --tree).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

RECIPE = "\nbuild:\n\tdocker run --rm golang:$(GO_VERSION) go build ./...\n"
HANDED = "\nimage:\n\tdocker build --build-arg GO_VERSION=$(GO_VERSION) -t app .\n"
MAKEFILE = "GO_VERSION ?= 1.21.0\n" + RECIPE
MAKE_HIDDEN = {  # HEAD's Makefile: the build takes Go 1.10.0
    "twice": "GO_VERSION ?= 1.21.1\nGO_VERSION = 1.10.0\n" + RECIPE,
    "twice-same-line-kind": "GO_VERSION ?= 1.10.0\nGO_VERSION ?= 1.10.0\n" + RECIPE,
    "override": "override GO_VERSION = 1.10.0\n" + RECIPE,
    "override-beside": "GO_VERSION ?= 1.21.1\noverride GO_VERSION = 1.10.0\n" + RECIPE,
    "indented": "  GO_VERSION ?= 1.10.0\n" + RECIPE,
    "target-specific": "GO_VERSION ?= 1.21.1\nbuild: GO_VERSION = 1.10.0\n" + RECIPE,
    "eval": "GO_VERSION ?= 1.21.1\n$(eval GO_VERSION := 1.10.0)\n" + RECIPE,
    "define": "GO_VERSION ?= 1.21.1\ndefine GO_VERSION\n1.10.0\nendef\n" + RECIPE,
    # a recipe handing the variable on (`--build-arg GO_VERSION=`) is no second setting: the downgrade is named
    "handed-on": "GO_VERSION ?= 1.10.0\n" + RECIPE + HANDED,
}
SOFTWARE = "config/software/openssl.rb"
DEFINITION = ('name "openssl"\ndefault_version "3.0.12"\n\nsource url: "https://www.openssl.org/source/'
              'openssl-#{version}.tar.gz"\n\nbuild do\n  make\nend\n')
OMNIBUS_HIDDEN = {
    "twice": DEFINITION.replace('default_version "3.0.12"\n', 'default_version "3.0.13"\ndefault_version "1.0.1"\n'),
    "branches": DEFINITION.replace('default_version "3.0.12"\n', 'if windows?\n  default_version "1.0.1"\nelse\n'
                                   '  default_version "3.0.13"\nend\n'),
}


def _gate(tmp_path: Path, base: dict[str, str], head: dict[str, str]) -> list[tuple[int, dict[str, list[str]]]]:
    case = committed(tmp_path, base, head)
    return [gated_rules(case, tree, "deps") for tree in (False, True)]


@each_case("form", sorted(MAKE_HIDDEN))
def test_a_go_version_set_twice_is_not_a_removal(tmp_path: Path, form: str) -> None:
    base = MAKEFILE + HANDED if form == "handed-on" else MAKEFILE
    for code, named in _gate(tmp_path, {"Makefile": base}, {"Makefile": MAKE_HIDDEN[form]}):
        assert code == 3, named  # on 00d44cb + classes53: exit 0 with --tree (the Go toolchain "removed")


@pytest.mark.parametrize("form", sorted(OMNIBUS_HIDDEN))
def test_an_omnibus_version_set_twice_is_not_a_removal(tmp_path: Path, form: str) -> None:
    for code, named in _gate(tmp_path, {SOFTWARE: DEFINITION}, {SOFTWARE: OMNIBUS_HIDDEN[form]}):
        assert code == 3, named


@pytest.mark.parametrize(("path", "base", "head"), [
    ("Makefile", MAKEFILE, MAKEFILE.replace("1.21.0", "1.21.1")),
    (SOFTWARE, DEFINITION, DEFINITION.replace("3.0.12", "3.0.13")),
])
def test_a_plain_bump_stays_allowed(tmp_path: Path, path: str, base: str, head: str) -> None:
    _, tree = _gate(tmp_path, {path: base}, {path: head})
    assert tree == (0, {}), tree


# A Makefile's commit pin (makepins.py, this stop): set twice or by override at HEAD, it named nothing with --tree
# (the llama.cpp pin "removed", exit 0) while a patch refused it. An abbreviated commit or a branch at HEAD still
# names nothing with --tree (a residual: any `_VERSION` variable may hold such a value; docs/dependencies.md).
PINNED = ("LLAMA_REPO ?= https://github.com/ggerganov/llama.cpp\nLLAMA_VERSION ?= PIN\n\nbuild:\n"
          "\tgit clone $(LLAMA_REPO) && git -C llama.cpp checkout $(LLAMA_VERSION)\n")
OLD, NEW = "a" * 40, "b" * 40
PIN_HIDDEN = {
    "twice": PINNED.replace("PIN", NEW) + f"LLAMA_VERSION ?= {NEW}\n",
    "override": PINNED.replace("LLAMA_VERSION ?= PIN", f"override LLAMA_VERSION = {NEW}"),
    "override-beside": PINNED.replace("PIN", OLD) + f"override LLAMA_VERSION = {NEW}\n",
    "target-specific": PINNED.replace("PIN", OLD) + f"build: LLAMA_VERSION := {NEW}\n",
}


@each_case("form", sorted(PIN_HIDDEN))
def test_a_commit_pin_set_twice_is_not_a_removal(tmp_path: Path, form: str) -> None:
    for code, named in _gate(tmp_path, {"Makefile": PINNED.replace("PIN", OLD)}, {"Makefile": PIN_HIDDEN[form]}):
        assert code == 3, named
