"""The CI walk reads each command a line's wrappers hide once (wrappers.commands): a command's readers depend on its
text alone, and a line of 26,000 `python -m ` held one 32-word command 26,000 times (~90 us a reading: 1.9 CPU-s)."""

from __future__ import annotations

import pytest
from tables import each_case

from gatekeeper.classify import ciruns, commandlines, wrappers

# a wrapper repeated along a line (the hostile shapes of the cileft65 and attack 37 cost tests), and real lines that run
# one wrapped command twice (a retry, the same step in two branches)
LINES = [("python -m " * 2000 + "tools.gen", "tools/gen.py"),
         ("coverage run -m " * 1500 + "tools/gen.py", "tools/gen.py"),
         ("gdb --args " * 2000 + "tools/gen", "tools/gen"), ("sudo -E " * 2000 + "tools/gen", "tools/gen"),
         ("timeout 60 " * 2000 + "tools/gen", "tools/gen"),
         ("timeout 300 ./ci/retry.sh || timeout 300 ./ci/retry.sh", "ci/retry.sh"),
         ('if [ "$X" ]; then sudo -E bash ci/deploy.sh; else sudo -E bash ci/deploy.sh; fi', "ci/deploy.sh")]


@each_case(("line", "script"), LINES)
def test_a_command_repeated_along_a_line_is_read_once(line: str, script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    real = commandlines.scripts

    def counted(command: str) -> list[str]:
        read.append(command)
        return real(command)

    with monkeypatch.context() as patch:
        patch.setattr(commandlines, "scripts", counted)
        scripts, _, _ = ciruns.named_in("ci/test.sh", "#!/bin/sh\n" + line + "\n")
    assert len(read) == len(set(read)), (line[:40], len(read), len(set(read)))
    assert script in scripts, (line[:40], scripts)


def test_commands_keeps_the_first_of_each_and_their_order() -> None:
    assert wrappers.commands("timeout 5 ./a.sh; nice ./b.sh; timeout 5 ./a.sh") == ["./a.sh", "./b.sh"]
