"""Reading Markdown tables in the docs, for tests that check the docs say what the code does."""

from __future__ import annotations


def table_rows(text: str, header: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header line starts with `header`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows
