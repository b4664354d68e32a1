"""Attack 25: a compiled program carried past the first 8,000 bytes of an executable file.

Red team 31 reads HEAD's blob of a file at 100755 whose patch shows no binary content and tags it `binary` on a NUL
in its first 8,000 bytes, git's rule for diffing. A self-extracting script (a shell header of more than 8,000 bytes,
then an ELF program it runs) is text by that rule. Committed at 100644 (allowed: binary, not executable) and then
made executable, or its header edited (the hunk shows no payload line), or copied whole, it shipped a compiled
program at 100755: on 178e160 `gate --tree --enable size` allowed each (exit 0) with the packet and packet-less (a
header past 1 MiB, which the tree context does not read, was reviewed as unread, core.iac, never refused). The
same file added at 100755 whole is refused: its hunk shows the NUL bytes (FileChange.shows_nul). Now the whole blob
is read for a NUL (1 MiB as the tree context reads it, up to 32 MiB when longer; longer still counts as binary).
Real repositories, patches git made, packets the CLI made.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sizecase import PROGRAMS, Files, rule_ids, size_gates

ELF = PROGRAMS["elf"]


def _installer(pad: int, code: bytes = b"exit 0") -> bytes:
    """A shell header (`code` on its second line, then `pad` comment lines), then the program it carries."""
    return b"#!/bin/sh\n" + code + b"\n" + b"# installer\n" * pad + b'tail -c +N "$0" > /tmp/x && /tmp/x\n' + ELF


SMALL, LONG = 800, 100_000  # ~9.6 KB of header, past git's 8,000 bytes; ~1.2 MB, past the tree context's 1 MiB


def _gates(root: Path, base: Files, head: Files, *options: str) -> list[tuple[int, set[str]]]:
    """(exit code, rules) of the size gate with the packet and --tree, and from the commits alone."""
    return [(code, rule_ids(decision)) for code, decision in size_gates(
        root, base, head, ("--binary", "--full-index", *options), modes=("packet and tree", "tree"))]


def _variant(form: str, pad: int) -> tuple[Files, Files, tuple[str, ...]]:
    data = _installer(pad)
    if form == "made executable":
        return {"tools/setup": (data, 0o644)}, {"tools/setup": (data, 0o755)}, ()
    if form == "header edited":
        return {"tools/setup": (data, 0o755)}, {"tools/setup": (_installer(pad, b"exit 1"), 0o755)}, ()
    return {"tools/setup": (data, 0o755)}, {"tools/copy": (data, 0o755)}, ("-C", "--find-copies-harder")


@pytest.mark.parametrize("pad", [SMALL, LONG], ids=["header past 8,000 bytes", "header past 1 MiB"])
@pytest.mark.parametrize("form", ["made executable", "header edited", "copied whole"])
def test_a_program_past_the_first_bytes_of_an_executable_is_refused(tmp_path: Path, form: str, pad: int) -> None:
    base, head, options = _variant(form, pad)
    for code, rules in _gates(tmp_path, base, head, *options):
        assert code == 1 and "size.binary_executable" in rules, (code, rules)  # before: 0 (past 1 MiB: 3)


@pytest.mark.parametrize("pad", [SMALL, LONG], ids=["script of 9.6 KB", "script of 1.2 MB"])
def test_a_long_script_without_a_nul_stays_allowed(tmp_path: Path, pad: int) -> None:
    script = b"#!/bin/sh\n" + b"# installer\n" * pad + b"exit 0\n"
    for code, rules in _gates(tmp_path, {"tools/setup": (script, 0o644)}, {"tools/setup": (script, 0o755)}):
        assert code in (0, 3) and "size.binary_executable" not in rules, (code, rules)  # 1.2 MB: unread, a review
