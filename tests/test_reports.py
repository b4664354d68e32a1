"""The report registry and `emit`: one dict, FORMATS from it, atomic --output, no fallback."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from decisions import ALL, review
from tables import each_case

from gatekeeper import reports
from gatekeeper.errors import UsageError


def test_formats_come_from_the_registry() -> None:
    assert reports.FORMATS == tuple(reports.REPORTERS)
    assert set(reports.FORMATS) == {"text", "json", "github", "sarif", "junit", "markdown", "codequality"}


@each_case("fmt", reports.FORMATS)
@each_case("name", sorted(ALL))
def test_every_format_renders_every_decision(fmt: str, name: str) -> None:
    text = reports.emit(fmt, ALL[name](), env={})
    assert text.endswith("\n")
    assert text.strip()
    # Printable on any UTF-8 stdout: no lone surrogates, no raw escape or NUL characters.
    text.encode("utf-8")
    assert "\x1b" not in text and "\x00" not in text and "\x07" not in text


def test_unknown_format_is_refused_not_defaulted() -> None:
    with pytest.raises(UsageError, match="unknown report format 'yaml'"):
        reports.emit("yaml", review())
    with pytest.raises(UsageError):
        reports.emit("JSON", review())


def test_click_choice_built_from_formats_refuses_unknown() -> None:
    seen: list[str] = []

    @click.command()
    @click.option("--format", "fmt", type=click.Choice(reports.FORMATS), default="text")
    def cmd(fmt: str) -> None:
        seen.append(fmt)

    runner = CliRunner()
    bad = runner.invoke(cmd, ["--format", "xml"])
    assert bad.exit_code == 2 and "Invalid value for '--format'" in bad.output
    assert runner.invoke(cmd, ["--format", "sarif"]).exit_code == 0
    assert seen == ["sarif"]


def test_output_is_written_atomically_and_nothing_returned(tmp_path: Path) -> None:
    target = tmp_path / "out" / "decision.json"
    assert reports.emit("json", review(), output=target, env={}) == ""
    assert json.loads(target.read_text()) == review()
    assert [p.name for p in target.parent.iterdir()] == ["decision.json"]  # no temporary left behind


def test_output_replaces_an_existing_report(tmp_path: Path) -> None:
    target = tmp_path / "report.txt"
    target.write_text("old report that is longer than the new one\n" * 50)
    reports.emit("text", review(), output=target, env={})
    assert target.read_text() == reports.render("text", review())


def test_output_into_an_unwritable_place_is_a_clean_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(Exception) as info:
        reports.emit("json", review(), output=blocker / "sub" / "r.json", env={})
    assert "cannot write" in str(info.value)


def test_reporters_are_imported_lazily() -> None:
    import subprocess
    import sys

    code = (
        "import sys, gatekeeper.reports as r; "
        "print(sorted(m for m in sys.modules if m.startswith('gatekeeper.reports.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_display_escapes_what_a_terminal_or_xml_would_misread() -> None:
    from gatekeeper.reports.findings import display, path_text

    assert display("a\r\nb\rc") == "a\nb\nc"
    assert display("\x1b[31mred\x00") == "\\x1b[31mred\\x00"
    assert display("byte \udcff") == "byte \\xff"
    assert display("c1 \x85 nonchar \ufffe") == "c1 \\x85 nonchar \\ufffe"
    assert display("tab\tand caf\u00e9 \U0001f600") == "tab\tand caf\u00e9 \U0001f600"
    assert path_text("new\nline\ttab") == "new\\nline\\ttab"
    # Two different names never print the same.
    assert path_text("a\\nb") != path_text("a\nb")
    assert path_text("x\udcff") != path_text("x\\xff")


def test_findings_are_ordered_by_level_and_unknown_outcomes_read_as_deny() -> None:
    from gatekeeper.reports.findings import findings, outcome

    decision = review()
    decision["reasons"].insert(0, {"policy": "p", "rule": "p.w", "level": "warn", "msg": "w"})
    decision["reasons"].append({"policy": "p", "rule": "p.d", "level": "deny", "msg": "d"})
    assert [f.rule for f in findings(decision)] == ["p.d", "core.ci", "core.iac", "p.w", "size.lines"]
    assert outcome({"outcome": "maybe"}) == "deny" and outcome({}) == "deny"
