"""`--format markdown`: the pull-request comment."""

from __future__ import annotations

import re

from decisions import allow, deny, hostile, many_paths, review

from gatekeeper.reports import render
from gatekeeper.reports.markdown import MAX_PATHS, escape


def _table_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| level"):
            # A GFM cell ends at an unescaped pipe.
            rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
    return rows


def test_allow_headline_no_table_and_provenance_footer() -> None:
    text = render("markdown", allow())
    assert text.startswith("### \u2705 gatekeeper: allow: the change may queue normally\n")
    assert "| level |" not in text
    assert "No findings" in text
    footer = text.strip().splitlines()[-1]
    assert footer.startswith("<sub>") and footer.endswith("</sub>")
    assert "revision <code>2026.11.1</code>" in footer
    assert f"digest <code>9e1f{'0' * 60}</code>" in footer
    assert "commit <code>4f9c2d1e8b7a</code>" in footer


def test_review_table_and_collapsed_paths() -> None:
    text = render("markdown", review())
    assert text.startswith("### \u26a0\ufe0f gatekeeper: review required")
    rows = _table_rows(text)
    assert [row[:3] for row in rows] == [
        ["**review**", "core", "<code>core.ci</code>"],
        ["**review**", "core", "<code>core.iac</code>"],
        ["**warn**", "size", "<code>size.lines</code>"],
    ]
    assert [row[4] for row in rows] == ["3", "1", "\u2013"]
    assert (
        "<details>\n<summary><code>core.ci</code>: 3 files</summary>\n\n- <code>.github/workflows/ci.yml</code>" in text
    )
    assert text.count("<details>") == text.count("</details>") == 2


def test_deny_multiline_message_stays_in_its_cell() -> None:
    text = render("markdown", deny())
    assert text.startswith("### \u26d4 gatekeeper: deny")
    rows = _table_rows(text)
    assert len(rows) == 2 and all(len(row) == 5 for row in rows)
    assert "the packet does not match the patch:<br>" in rows[0][3]


def test_untrusted_text_cannot_inject_markup() -> None:
    text = render("markdown", hostile())
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "[link](javascript" not in text and "\\[link\\](javascript" in text
    assert "\\`code\\`" in text and "\\*bold\\*" in text and "\\$x\\$" in text
    rows = _table_rows(text)
    assert all(len(row) == 5 for row in rows), rows  # no pipe in the data split a row
    assert "<code>ci/line\\\\nbreak.yml</code>" in text
    assert "<code>ci/bytes\\\\xff\\\\xfe.yml</code>" in text
    assert "> **Dry run**" in text
    # Every line of the table is a table line: no newline in data broke out of it.
    table = [line for line in text.splitlines() if line.startswith("|")]
    assert len(table) == 2 + 3


def test_escape_covers_markdown_specials() -> None:
    assert escape("a|b*c_d`e[f]g~h$i!j\\k") == "a\\|b\\*c\\_d\\`e\\[f\\]g\\~h\\$i\\!j\\\\k"
    assert escape("<a href=\"x\">&") == "&lt;a href=&quot;x&quot;&gt;&amp;"
    assert escape("two\nlines\r\n") == "two lines"


def test_long_path_lists_are_bounded() -> None:
    text = render("markdown", many_paths(250))
    assert text.count("- <code>.github/workflows/job-") == MAX_PATHS
    assert f"and {250 - MAX_PATHS} more" in text
    assert len(text) < 65536
