"""`--format github`: workflow-command annotations (checked against the documented syntax) and
the Markdown job summary appended to $GITHUB_STEP_SUMMARY."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from decisions import ALL, allow, deny, hostile, many_paths, review
from tables import each_case

from gatekeeper.errors import InputFileError
from gatekeeper.reports import emit, render
from gatekeeper.reports.findings import display
from gatekeeper.reports.github import MAX_FILE_ANNOTATIONS, command, escape_data, escape_property

# `::name key=value,key=value::message` (GitHub's documented workflow-command form); escaped
# property values hold no `:` or `,`, and nothing escaped holds a line break.
ANNOTATION = re.compile(r"^::(?P<cmd>error|warning|notice)(?: (?P<props>[^:\r\n]*))?::(?P<msg>[^\r\n]*)$")
PROPERTY_KEYS = {"file", "line", "endLine", "col", "endColumn", "title"}


def unescape_data(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def unescape_property(text: str) -> str:
    return text.replace("%3A", ":").replace("%2C", ",").replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def parse(output: str) -> list[tuple[str, dict[str, str], str]]:
    """Every workflow command in `output`, unescaped; fails on a `::` line of the wrong shape."""
    found = []
    for line in output.splitlines():
        if not line.startswith("::"):
            continue
        match = ANNOTATION.match(line)
        assert match, f"not a valid annotation: {line!r}"
        props: dict[str, str] = {}
        for pair in (match["props"] or "").split(","):
            if pair:
                key, _, value = pair.partition("=")
                assert key in PROPERTY_KEYS, key
                props[key] = unescape_property(value)
        found.append((match["cmd"], props, unescape_data(match["msg"])))
    return found


def test_allow_has_no_annotations_only_the_outcome_line() -> None:
    text = render("github", allow())
    assert parse(text) == []
    assert text == "gatekeeper: allow: the change may queue normally; no findings\n"


def test_review_one_annotation_per_finding_and_path() -> None:
    found = parse(render("github", review()))
    assert [(cmd, props.get("file")) for cmd, props, _ in found] == [
        ("warning", ".github/workflows/ci.yml"),
        ("warning", "Jenkinsfile"),
        ("warning", ".circleci/config.yml"),
        ("warning", "deploy/terraform/main.tf"),
        ("notice", None),  # a finding without paths is still reported
    ]
    assert found[0][1]["title"] == "gatekeeper review: core.ci (policy core)"
    assert found[0][2] == "CI configuration changed: a human must review"
    assert found[4][2] == "1,204 changed lines (limit 1,000)"


def test_deny_integrity_finding_without_paths_is_an_error() -> None:
    found = parse(render("github", deny()))
    assert found[0][0] == "error" and "file" not in found[0][1]
    assert found[0][2] == deny()["reasons"][0]["msg"]  # multi-line message round-trips
    assert found[1][0] == "notice"


def test_hostile_data_round_trips_and_cannot_inject_commands() -> None:
    decision = hostile()
    text = render("github", decision)
    lines = text.splitlines()
    # Nothing but the two plain lines and the annotations; no line starts a smuggled command.
    assert all(line.startswith(("::error ", "::warning ", "::notice ", "gatekeeper: ")) for line in lines)
    assert not any(line.startswith("::set-output") for line in lines)
    found = parse(text)
    expected = [
        (reason["msg"], path)
        for reason in sorted(decision["reasons"], key=lambda r: ["deny", "review", "warn"].index(r["level"]))
        for path in reason["paths"]
    ]
    assert [(msg, props["file"]) for _, props, msg in found] == [(msg, display(path)) for msg, path in expected]
    assert found[0][2] == "unsafe path: 100% sure, see a:b,c\r\nnext line\n::set-output name=x::y"
    files = [props["file"] for _, props, _ in found]
    assert "ci/50%,done:now.yml" in files
    assert "ci/line\nbreak.yml" in files
    assert "ci/bytes\\xff\\xfe.yml" in files
    assert "dir/\\x1b[31mred\\x1b[0m.txt" in files
    assert found[-1][1]["title"] == "gatekeeper warn: odd.rule,with:chars (policy odd|policy)"


def test_escaping_matches_the_documented_rules() -> None:
    assert escape_data("100%\r\n:,") == "100%25%0D%0A:,"
    assert escape_property("100%\r\n:,") == "100%25%0D%0A%3A%2C"
    assert command("notice", "m", file=None, title="t") == "::notice title=t::m"
    assert command("error", "") == "::error::"


def test_many_paths_are_capped_with_a_pointer_to_the_summary() -> None:
    found = parse(render("github", many_paths(25)))
    assert sum(1 for _, props, _ in found if "file" in props) == MAX_FILE_ANNOTATIONS
    assert found[-1][2] == f"CI changed (and {25 - MAX_FILE_ANNOTATIONS} more files: see the job summary)"


def test_summary_is_appended_to_the_step_summary_file(tmp_path: Path) -> None:
    summary = tmp_path / "step_summary.md"
    summary.write_text("## earlier step\n", encoding="utf-8")
    text = emit("github", review(), env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert parse(text)
    written = summary.read_text(encoding="utf-8")
    assert written.startswith("## earlier step\n### \u26a0\ufe0f gatekeeper: review required")
    assert "<code>.github/workflows/ci.yml</code>" in written
    emit("github", deny(), env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert summary.read_text(encoding="utf-8").count("gatekeeper:") == 2


def test_summary_is_written_even_when_the_report_goes_to_a_file(tmp_path: Path) -> None:
    summary, out = tmp_path / "summary.md", tmp_path / "annotations.txt"
    assert emit("github", review(), output=out, env={"GITHUB_STEP_SUMMARY": str(summary)}) == ""
    assert parse(out.read_text()) and "core.ci" in summary.read_text()


def test_no_summary_without_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An empty variable must not mean "the current folder", and an explicit `env` must not fall back to
    # the process environment (which here names a file that must stay unwritten).
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "process-summary.md"))
    assert emit("github", review(), env={"GITHUB_STEP_SUMMARY": ""}) == render("github", review())
    assert emit("github", review(), env={}) == render("github", review())
    assert list(tmp_path.iterdir()) == []
    emit("github", review())  # without `env` the process environment is the one read
    assert [p.name for p in tmp_path.iterdir()] == ["process-summary.md"]


def test_unwritable_summary_is_a_clean_error(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="cannot append the job summary") as info:
        emit("github", review(), env={"GITHUB_STEP_SUMMARY": str(tmp_path / "missing" / "s.md")})
    assert "GITHUB_STEP_SUMMARY=" in str(info.value)


@each_case("name", sorted(ALL))
def test_every_decision_gives_only_valid_commands(name: str) -> None:
    parse(render("github", ALL[name]()))
