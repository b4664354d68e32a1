"""Attack 23 on the tool-version readers (mise rounds 30/31, `.tool-versions`, one-tool files): a pin moved to a value
that names no release.

mise's `[tools]` (a string, a one-line array, an inline table's `version`), asdf's `.tool-versions`, the one-tool
files (`.nvmrc`, `.node-version`, `.python-version`, `.ruby-version`, `.go-version`, `.terraform-version`,
`.java-version`, `.bun-version`, `.bazelversion`) and `rust-toolchain(.toml)` dropped a value that is no release number
(`latest`, `lts`, `system`, `stable`, `node`, `lts/*`). A pin moved to one was read as the tool's removal, and a removal
queues: `gate --enable deps` allowed `node = "20.1.0"` → `node = "latest"` (any later release, the next major too)
from the patch and with `--tree` on integ 2e50026. Such a value is now read as written: the move is `changed`
(deps.unordered, reviewed), as tools.annotated already did for an annotated line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_deps_gate import Case, Cases, gate, gate_together, together

# file: (its text with `{}` for the pinned value, the pin, the values moved to)
WORDS = ["latest", "lts", "system", "stable"]
FILES: dict[str, tuple[str, str, list[str]]] = {
    "mise.toml": ('[tools]\nnode = "{}"\npython = "3.12.1"\n', "20.11.1", WORDS),
    ".mise.toml": ('[tools]\ngo = ["{}"]\n', "1.22.1", WORDS),
    "mise.local.toml": ('[tools]\n"npm:prettier" = {{ version = "{}" }}\n', "3.3.3", WORDS),
    ".tool-versions": ("nodejs {}\npython 3.12.1\n", "20.11.1", WORDS),
    ".nvmrc": ("{}\n", "20.11.1", ["node", "lts/*", "lts/iron", "latest", "stable"]),
    ".node-version": ("{}\n", "20.11.1", ["lts", "latest"]),
    ".python-version": ("{}\n", "3.12.1", ["system", "pypy3"]),
    ".ruby-version": ("{}\n", "3.3.0", ["system", "latest"]),
    ".go-version": ("{}\n", "1.22.1", ["latest"]),
    ".terraform-version": ("{}\n", "1.7.4", ["latest", "latest:^1"]),
    "rust-toolchain.toml": ('[toolchain]\nchannel = "{}"\n', "1.79.0", ["stable", "beta", "nightly"]),
    "rust-toolchain": ("{}\n", "1.79.0", ["stable", "nightly"]),
}


def attacks() -> Cases:
    return {f"{name} {pin} -> {word}": ({name: text.format(pin)}, {name: text.format(word)})
            for name, (text, pin, words) in FILES.items() for word in words}


def test_the_attacks_are_what_they_say() -> None:
    assert len(attacks()) == 35


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_a_pin_moved_to_a_value_that_names_no_release_needs_a_human(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path, tree: bool) -> None:
    gate_together(capsys, tmp_path, attacks(), tree)


# A pin bumped, and a file that held `latest` before and after beside a bump of another tool, still queue.
QUIET: Cases = {
    "nvmrc bump": ({".nvmrc": "20.11.0\n"}, {".nvmrc": "20.11.1\n"}),
    "mise latest kept": ({"mise.toml": '[tools]\nnode = "latest"\npython = "3.12.0"\n'},
                         {"mise.toml": '[tools]\nnode = "latest"\npython = "3.12.1"\n'}),
    "tool-versions system kept": ({".tool-versions": "nodejs system\npython 3.12.0\n"},
                                  {".tool-versions": "nodejs system\npython 3.12.1\n"}),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_a_bump_beside_an_unchanged_word_queues(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                tree: bool) -> None:
    base, head, _ = together(QUIET)
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert decision["outcome"] == "allow", decision["reasons"]
