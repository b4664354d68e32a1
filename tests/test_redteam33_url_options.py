"""Red team 33: the URL options (`run --model-api NAME=URL`, `gate --log-url URL`) given URLs that Python's own URL
splitter refuses (an unclosed or stray bracket, an IPv4 address or a non-address in brackets, a host that changes
under NFKC normalisation) or reads as something else than written (junk after `[::1]`, a port with junk after it).

Before: `gatekeeper: internal error: ValueError: ...` (exit 2 as "a bug"), for the gate only after it had decided, and
`https://[::1]junk/` was accepted as `[::1]` on port 443, `https://host:443junk/` by the gate as a URL it would spool to
forever. Now each is one usage message naming the option (exit 2) before anything runs, and the gate's file log holds
the failure, as for the URLs it already refused."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.audit.collector import check_url
from gatekeeper.cli import main
from gatekeeper.errors import UsageError
from gatekeeper.runner.relay_api import parse_model_api

BAD_URLS = [
    "http://[::1",  # unclosed bracket
    "http://::1]/",  # a closing bracket alone
    "https://[127.0.0.1]/",  # IPv4 in brackets
    "https://[not-an-address]/",  # a name in brackets
    "https://a\uff0fb.example/",  # FULLWIDTH SOLIDUS: the host becomes another under NFKC
    "https://[::1]junk/",  # read as [::1], the rest dropped
    "https://[::1]:443junk/",  # a port with junk after it
    "https://api.example:443junk/",
    "https://api.example:99999/",
]


@each_case("url", BAD_URLS)
def test_model_api_refuses_the_url_as_a_usage_error(url: str) -> None:
    with pytest.raises(UsageError, match="model API URL"):
        parse_model_api(f"anthropic={url}")


@each_case("url", BAD_URLS)
def test_log_url_refuses_the_url_as_a_usage_error(url: str) -> None:
    with pytest.raises(UsageError, match="not an http"):
        check_url(url)


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@example.invalid", "-c", "user.name=t", *args],
                   check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A real repository with two commits (for `gate --tree HEAD~1..HEAD`, and as `run --repo`)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "app.py").write_text("print(1)\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "one")
    (repo / "app.py").write_text("print(2)\n")
    _git(repo, "commit", "-qam", "two")
    return repo


@pytest.mark.parametrize("url", BAD_URLS[:6])
def test_run_stops_before_any_run_directory(url: str, repo: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "runs"
    code = main(["run", "--repo", str(repo), "--out", str(out), "--sandbox", "none",
                 "--model-api", f"anthropic={url}", "--", "true"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "internal error" not in err and "--model-api anthropic=" in err
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("url", BAD_URLS[:6])
def test_gate_logs_the_failure_not_a_crash(url: str, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(repo)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    log = tmp_path / "decisions.jsonl"
    code = main(["gate", "--tree", "HEAD~1..HEAD", "--log", str(log), "--log-url", url])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "internal error" not in err and "--log-url: not an http(s) URL" in err
    records = [json.loads(line) for line in log.read_bytes().splitlines()]
    assert [r["outcome"] for r in records] == ["error"]
    assert "not an http(s) URL" in records[0]["error"]["message"]
    assert not (tmp_path / "state").exists()  # nothing spooled to a URL that can never be reached
