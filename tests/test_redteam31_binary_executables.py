"""Red team 31: `--enable size` and a binary executable that was executable already.

The size policy says it "denies any change that adds or modifies a binary executable": agents may not ship compiled
programs. It read that as a file tagged both `binary` and `executable`, and the `executable` tag marks a change that
makes a file executable (new mode 100755, old mode anything else). A compiled program already committed at 100755
(`bin/tool`) whose bytes the change replaces keeps its mode: tagged `binary` only, so the gate allowed it (exit 0)
from the patch, with `--tree` and from the commits alone. A binary whose new side is executable is now refused
whatever its old mode. Every variant is a real repository, a patch git made and a packet the CLI made.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sizecase import PROGRAMS, Files, rule_ids, size_gates
from tables import each_case

PATHS = ["bin/tool", "tools/linux/helper"]
FORMS = ["modified", "renamed and modified"]
VARIANTS = [(kind, path, form) for kind in PROGRAMS for path in PATHS for form in FORMS]


def _gates(root: Path, base: Files, head: Files, gone: tuple[str, ...] = ()) -> list[tuple[int, dict[str, Any]]]:
    """The size gate's (exit code, decision) from the patch, with --tree, and from the commits alone."""
    return size_gates(root, base, head, ("--binary", "-M"), gone=gone)


@each_case(("kind", "path", "form"), VARIANTS, ids=["-".join(v) for v in VARIANTS])
def test_a_compiled_program_replaced_in_place_is_refused(tmp_path: Path, kind: str, path: str, form: str) -> None:
    program = PROGRAMS[kind]
    target = path + "-new" if form.startswith("renamed") else path
    gone = (path,) if form.startswith("renamed") else ()
    for code, decision in _gates(tmp_path, {path: (program, 0o755)}, {target: (program + b"\0evil", 0o755)}, gone):
        assert code == 1, decision  # before: 0 (allow) in every mode
        assert "size.binary_executable" in rule_ids(decision)
        [finding] = [r for r in decision["reasons"] if r["rule"] == "size.binary_executable"]
        assert finding["paths"] == [target]


CONTROLS = {
    # (base, head, files removed): what the size policy leaves alone
    "binary not executable, modified": ({"assets/blob.bin": (PROGRAMS["elf"], 0o644)},
                                        {"assets/blob.bin": (PROGRAMS["elf"] + b"\0x", 0o644)}, ()),
    "executable script, modified": ({"src/run.py": (b"#!/usr/bin/env python3\nprint(1)\n", 0o755)},
                                    {"src/run.py": (b"#!/usr/bin/env python3\nprint(2)\n", 0o755)}, ()),
    "binary executable deleted": ({"bin/tool": (PROGRAMS["elf"], 0o755)}, {}, ("bin/tool",)),
}


@pytest.mark.parametrize("name", CONTROLS)
def test_what_ships_no_new_compiled_program_stays_allowed(tmp_path: Path, name: str) -> None:
    base, head, gone = CONTROLS[name]
    for code, decision in _gates(tmp_path, base, head, gone):
        assert code == 0, decision
        assert "size.binary_executable" not in rule_ids(decision)


@each_case(("kind", "path"), [(kind, path) for kind in PROGRAMS for path in PATHS], ids=[f"{kind}-{path}"
           for kind in PROGRAMS for path in PATHS])
def test_a_committed_program_made_executable_is_refused_with_the_commits(tmp_path: Path, kind: str, path: str) -> None:
    """`chmod +x` of a compiled program committed at 100644: the patch shows a mode change and no bytes, so it was
    tagged `executable` only. With the commits HEAD's blob is read as git diffs it (a NUL in its first 8,000
    bytes); from the patch alone the bytes are not there (docs/policies.md)."""
    program = PROGRAMS[kind]
    (code, decision), *with_commits = _gates(tmp_path, {path: (program, 0o644)}, {path: (program, 0o755)})
    for code_, decision_ in with_commits:
        assert code_ == 1, decision_  # before: 0 (allow) with --tree and from the commits alone
        [finding] = [r for r in decision_["reasons"] if r["rule"] == "size.binary_executable"]
        assert finding["paths"] == [path]
    # From the patch alone the bytes made executable are not there: needs-context, which core reviews (exit 3)
    assert code == 3, decision
    assert [r["paths"] for r in decision["reasons"] if r["rule"] == "core.needs_context"] == [[path]], decision


@each_case("name", ["tools/run.sh", "tools/run.py", "lib/run.so.txt", "app/run.js"])
def test_a_file_made_executable_whose_bytes_the_patch_does_not_show_needs_context(tmp_path: Path, name: str) -> None:
    """From the patch alone: a file made executable (100644 -> 100755) keeps bytes the patch does not show, which may
    be a compiled program whatever its name (a suffix-less one is needs-context already); `--tree` reads them. The
    docs review of stop 49 found `chmod +x` of a committed program named `x/tool.py` allowed (exit 0) from the patch
    with `--enable size`. An added executable (its whole text shown) and an edit of a file that was executable already
    stay allowed: what they make executable is shown, or was executable before."""
    program = PROGRAMS["elf"]  # committed at 100644, then only its mode changes (a hunk would show its bytes)
    old, new = name.replace("run", "old"), name.replace("run", "new")
    script = b"#!/bin/sh\n" + b"echo step\n" * 50
    (code, decision), *with_commits = _gates(tmp_path, {name: (program, 0o644), old: (script, 0o755)},
                                             {name: (program, 0o755), old: (script + b"echo x\n", 0o755),
                                              new: (script, 0o755)})
    assert code == 3, decision  # before: 0 (allow)
    [flagged] = [r["paths"] for r in decision["reasons"] if r["rule"] == "core.needs_context"]
    # an executable `.txt` is needs-context whatever its mode change (a text type no runner takes: may be anything)
    assert flagged == ([name] if not name.endswith(".txt") else sorted([name, old, new])), decision
    for code_, decision_ in with_commits:
        assert code_ == 1, decision_  # the commits show the program: size refuses it
        assert [r["paths"] for r in decision_["reasons"] if r["rule"] == "size.binary_executable"] == [[name]]


def test_a_text_script_made_executable_stays_allowed_with_the_commits(tmp_path: Path) -> None:
    script = b"#!/usr/bin/env python3\n" + b"print('x')\n" * 1000  # past 8,000 bytes, no NUL
    _, *with_commits = _gates(tmp_path, {"src/run.py": (script, 0o644)}, {"src/run.py": (script, 0o755)})
    for code, decision in with_commits:
        assert code == 0, decision


def _text_form(tmp_path: Path, base: Files, head: Files, *options: str) -> list[tuple[int, set[str]]]:
    """The size gate's exit codes, from the patch and with --tree, on the change written as `git diff --text` writes
    it: a compiled program's bytes as text lines, NUL bytes and all (git applies it as any text hunk)."""

    def as_text(patch: bytes) -> None:
        assert b"GIT binary patch" not in patch

    return [(code, rule_ids(decision)) for code, decision in size_gates(
        tmp_path, base, head, ("--text", "--full-index", *options), modes=("patch", "packet and tree"), check=as_text)]


@each_case("kind, form", [(kind, form) for kind in PROGRAMS for form in ["added", "replaced"]])
def test_a_compiled_program_as_text_lines_is_refused(tmp_path: Path, kind: str, form: str) -> None:
    """A text hunk holding NUL bytes is a file git itself would diff as binary: tagged binary from the lines shown
    (before: tagged executable only, allowed with --tree)."""
    program = PROGRAMS[kind].replace(b"\x00\x02", b"\x00\n\x02")  # line breaks: several text lines
    base = {"bin/tool": (program, 0o755)} if form == "replaced" else {}
    for code, rules in _text_form(tmp_path, base, {"bin/tool": (program + b"\0evil\n", 0o755)}):
        assert code == 1 and "size.binary_executable" in rules


@pytest.mark.parametrize("kind", PROGRAMS)
def test_a_late_text_hunk_of_a_compiled_program_is_refused_with_the_commits(tmp_path: Path, kind: str) -> None:
    """The text form with no context (-U0) shows only the lines it changes, past the program's NUL bytes: from the
    patch nothing says binary; with the commits HEAD's blob is read as git diffs it (before: allowed)."""
    program = PROGRAMS[kind].replace(b"\x00\x02", b"\x00\n\x02") + b"\nversion 1\n"
    head = {"bin/tool": (program.replace(b"version 1", b"version 2"), 0o755)}
    (_, shown), (code, rules) = _text_form(tmp_path, {"bin/tool": (program, 0o755)}, head, "-U0")
    assert "size.binary_executable" not in shown  # the patch alone does not show it (docs/classification.md)
    assert code == 1 and "size.binary_executable" in rules
