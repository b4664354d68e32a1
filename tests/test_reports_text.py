"""`--format text`: the people's report."""

from __future__ import annotations

from decisions import allow, deny, hostile, many_paths, review

from gatekeeper.reports import render
from gatekeeper.reports.text import MAX_PATHS


def test_allow_says_so_and_shows_provenance() -> None:
    text = render("text", allow())
    lines = text.splitlines()
    assert lines[0] == "gatekeeper: allow: the change may queue normally"
    assert "no findings; policies: core 1.0.0" in text
    assert "change: 1 file, +12 -3 (src 1); diff sha256 abababababab; run run-20261129-0001" in text
    assert "bundle: default revision 2026.11.1 (commit 4f9c2d1e8b7a); digest 9e1f00000000" in text


def test_review_lists_findings_most_severe_first_with_paths() -> None:
    text = render("text", review())
    assert text.splitlines()[0] == "gatekeeper: review required: a human must approve before merge"
    assert "3 findings (2 review, 1 warn)" in text
    block = text.split("\n\n")
    assert block[1].splitlines() == [
        "REVIEW core.ci (policy core) [ci]",
        "       CI configuration changed: a human must review",
        "       - .github/workflows/ci.yml",
        "       - Jenkinsfile",
        "       - .circleci/config.yml",
    ]
    assert block[3].startswith("WARN   size.lines (policy size)")


def test_deny_keeps_a_multiline_message_indented() -> None:
    text = render("text", deny())
    assert "DENY   gatekeeper.integrity (policy gatekeeper)\n       the packet does not match the patch:\n" in text
    assert "\n       - files: packet omits .github/workflows/release.yml\n" in text
    assert text.index("DENY") < text.index("WARN")


def test_control_characters_and_raw_bytes_are_made_visible() -> None:
    text = render("text", hostile())
    assert "\x1b" not in text and "\x07" not in text
    assert "- dir/\\x1b[31mred\\x1b[0m.txt" in text
    assert "- ci/bytes\\xff\\xfe.yml" in text
    assert "- ci/line\\nbreak.yml" in text  # a path never spans two lines
    assert "dry run: this is the real decision, but the exit status is 0" in text
    assert "r\u00e9sum\u00e9 \u65e5\u672c" in text  # unicode is kept as it is


def test_long_path_lists_are_cut_with_a_pointer_to_json() -> None:
    text = render("text", many_paths(250))
    assert text.count("       - .github/workflows/job-") == MAX_PATHS
    assert f"... and {250 - MAX_PATHS} more (--format json lists them all)" in text
