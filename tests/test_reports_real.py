"""Every report format from the real `gatekeeper gate` on real git patches with awkward file names
(unicode, spaces, `%`, `,`, `:`, a byte that is not UTF-8, a newline), each checked by its format."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote_to_bytes

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from incli import run_cli
from test_action import needs_gate
from test_reports_github import parse as parse_annotations
from test_reports_sarif import VALIDATOR, github_problems

from gatekeeper.reports import FORMATS
from gatekeeper.reports.findings import display

pytestmark = needs_gate

ODD_CI = [".github/workflows/d\u00e9ploy 50%,a:b.yml", ".github/workflows/\u65e5\u672c #1 [x](y).yml"]
NOT_UTF8 = os.fsdecode(b".github/workflows/latin1-\xe9.yml")


def gate(ws: Path, packet: str, patch: str, fmt: str, *extra: str) -> subprocess.CompletedProcess[bytes]:
    """`gatekeeper gate` in-process (tests/incli.py); test_json_is_the_decision crosses the process boundary."""
    return run_cli(["gate", packet, "--patch", patch, "--policy", str(POLICY_DIR), "--format", fmt, *extra],
                   cwd=ws, env={**os.environ, "GITHUB_STEP_SUMMARY": ""})  # type: ignore[return-value]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """review.diff/review.json (CI files with odd names) and tampered.diff (adds a newline name)."""
    tmp = tmp_path_factory.mktemp("real")
    repo = GitRepo(tmp / "repo")
    repo.write("src/main.go", "package main\n")
    repo.commit()
    for path in ODD_CI:
        repo.write(os.fsencode(path), "on: push\n")
    ws = tmp / "ws"
    ws.mkdir()
    repo.save_patch(ws / "review.diff")
    repo.write(os.fsencode(".github/workflows/new\nline.yml"), "on: push\n")
    repo.save_patch(ws / "tampered.diff")
    repo.git("rm", "-q", "--cached", "-r", ".github")
    (repo.root / ".github/workflows/new\nline.yml").unlink()
    repo.write(os.fsencode(NOT_UTF8), "on: push\n")
    repo.save_patch(ws / "bytes.diff")
    for name in ("review", "bytes"):
        made = run_cli(["packet", f"{name}.diff", "--out", f"{name}.json", "--policy", str(POLICY_DIR)], cwd=ws)
        assert made.returncode == 0, made.stderr
    return ws


def test_json_is_the_decision(workspace: Path) -> None:
    done = subprocess.run(  # the real process: exit code and stdout as CI sees them
        [sys.executable, "-m", "gatekeeper", "gate", "review.json", "--patch", "review.diff", "--policy",
         str(POLICY_DIR), "--format", "json"],
        cwd=workspace, capture_output=True, timeout=120, env={**os.environ, "GITHUB_STEP_SUMMARY": ""},
    )
    assert done.returncode == 3, done.stderr
    decision = json.loads(done.stdout)
    assert decision["outcome"] == "review"
    paths = {path for reason in decision["reasons"] for path in reason.get("paths", ())}
    assert set(ODD_CI) <= paths


def test_every_format_is_well_formed_for_review_and_deny(workspace: Path) -> None:
    for packet, patch, status in (("review.json", "review.diff", 3), ("review.json", "tampered.diff", 1)):
        for fmt in FORMATS:
            done = gate(workspace, packet, patch, fmt)
            assert done.returncode == status, (fmt, done.stderr)
            text = done.stdout.decode("utf-8")  # always valid UTF-8, whatever the paths held
            assert "\x1b" not in text and "\x00" not in text
            if fmt == "sarif":
                assert not list(VALIDATOR.iter_errors(json.loads(text)))
                assert not github_problems(json.loads(text))
            elif fmt == "junit":
                ET.fromstring(done.stdout)
            elif fmt == "github":
                assert parse_annotations(text)


def test_github_annotations_name_the_real_files(workspace: Path) -> None:
    text = gate(workspace, "review.json", "review.diff", "github").stdout.decode()
    files = {props.get("file") for _, props, _ in parse_annotations(text)}
    assert {display(path) for path in ODD_CI} <= files


def test_sarif_uris_decode_to_the_exact_path_bytes(workspace: Path) -> None:
    log = json.loads(gate(workspace, "review.json", "review.diff", "sarif").stdout)
    uris = [
        loc["physicalLocation"]["artifactLocation"]["uri"]
        for result in log["runs"][0]["results"]
        for loc in result.get("locations", ())
    ]
    assert {unquote_to_bytes(uri) for uri in uris} >= {os.fsencode(path) for path in ODD_CI}


def test_tampered_patch_is_denied_with_a_path_less_integrity_finding(workspace: Path) -> None:
    root = ET.fromstring(gate(workspace, "review.json", "tampered.diff", "junit").stdout)
    builtin = next(case for case in root.iter("testcase") if "built in" in (case.get("name") or ""))
    failure = builtin.find("failure")
    assert failure is not None and failure.get("type") == "deny"
    log = json.loads(gate(workspace, "review.json", "tampered.diff", "sarif").stdout)
    integrity = [r for r in log["runs"][0]["results"] if r["ruleId"] == "gatekeeper.integrity"]
    assert integrity and integrity[0]["level"] == "error"
    # Located at the packet (in the checkout), so code scanning accepts the upload.
    assert [loc["physicalLocation"]["artifactLocation"]["uri"] for loc in integrity[0]["locations"]] == ["review.json"]


def test_output_file_and_dry_run(workspace: Path) -> None:
    done = gate(workspace, "review.json", "review.diff", "markdown", "--output", "comment.md", "--dry-run")
    assert done.returncode == 0 and done.stdout == b""
    comment = (workspace / "comment.md").read_text(encoding="utf-8")
    assert comment.startswith("### \u26a0\ufe0f gatekeeper: review required") and "**Dry run**" in comment


def test_a_path_that_is_not_utf8_is_reported_byte_exact(workspace: Path) -> None:
    done = gate(workspace, "bytes.json", "bytes.diff", "sarif")
    assert done.returncode == 3, done.stderr
    log = json.loads(done.stdout)
    assert not list(VALIDATOR.iter_errors(log))
    uris = [loc["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]
            for loc in r.get("locations", ())]
    assert os.fsencode(NOT_UTF8) in {unquote_to_bytes(uri) for uri in uris}
    text = gate(workspace, "bytes.json", "bytes.diff", "github").stdout.decode("utf-8")
    assert ".github/workflows/latin1-\\xe9.yml" in {p.get("file") for _, p, _ in parse_annotations(text)}
