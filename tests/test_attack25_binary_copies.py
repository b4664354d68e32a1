"""Attack 25: `--enable size` and a compiled program copied or renamed whole, at the mode it already had.

git writes a copy or a rename at 100 % similarity as header lines alone (`similarity index 100%`, `copy from`/`rename
from`): no hunk, no `index` line, and no mode line when the mode stays. The parsed change has no mode on either side,
so the tree context's read of HEAD's blob for a NUL (red team 31: every file at 100755 whose patch shows no binary
content) skipped it, and the size policy, which refuses a binary whose new side is executable, never saw one. A
committed ELF, Mach-O or PE program at 100755 copied to a new path (`git diff -C --find-copies-harder`) was allowed
(exit 0) by `gate PACKET --patch PATCH --tree` on 76d38f3, while the packet-less gate (which writes the patch itself,
without copies) refused the same commits; a whole rename was allowed in both `--tree` forms. From the patch alone both
are a needs-context review (the bytes are not there). Real repositories, patches git made, packets the CLI made.
"""

from __future__ import annotations

from pathlib import Path

from sizecase import PROGRAMS, rule_ids, size_gates
from tables import each_case

FORMS = {"copied": ("--binary", "-C", "--find-copies-harder"), "renamed": ("--binary", "-M")}


def _gates(root: Path, data: bytes, form: str, mode: int = 0o755) -> list[tuple[int, set[str]]]:
    """(exit code, rules) of the size gate from the patch, with the packet and --tree, and from the commits alone, for
    `bin/tool` (`data` at `mode`) copied or renamed whole to `bin/tool2`."""
    verb = b"copy" if form == "copied" else b"rename"

    def no_mode(patch: bytes) -> None:
        assert patch.split(b"\n")[1:3] == [b"similarity index 100%", verb + b" from bin/tool"]  # no mode line

    gone = ("bin/tool",) if form == "renamed" else ()
    return [(code, rule_ids(decision)) for code, decision in size_gates(
        root, {"bin/tool": (data, mode)}, {"bin/tool2": (data, mode)}, ("--full-index", *FORMS[form]), gone=gone,
        check=no_mode)]


@each_case("form, kind", [(form, kind) for form in FORMS for kind in PROGRAMS])
def test_a_compiled_program_copied_or_renamed_whole_is_refused_with_the_commits(tmp_path: Path, kind: str,
                                                                                form: str) -> None:
    (patch_code, patch_rules), *with_commits = _gates(tmp_path, PROGRAMS[kind], form)
    assert patch_code == 3 and "core.needs_context" in patch_rules  # the patch shows no bytes: a review, never allow
    for code, rules in with_commits:
        assert code == 1 and "size.binary_executable" in rules, (code, rules)  # before: 0 with the packet and --tree


@each_case("form, name", [(form, name) for form in FORMS for name in ["script", "binary at 100644"]])
def test_what_is_no_compiled_program_stays_allowed_with_the_commits(tmp_path: Path, name: str, form: str) -> None:
    data, mode = ((b"#!/bin/sh\necho hi\n", 0o755) if name == "script" else (PROGRAMS["elf"], 0o644))
    _, *with_commits = _gates(tmp_path, data, form, mode)
    for code, rules in with_commits:
        assert code == 0 and "size.binary_executable" not in rules, (code, rules)
