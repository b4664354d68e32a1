"""`audit stats`: the counts it reports match what was logged, per outcome, policy, rule and ISO week."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from gatekeeper.audit.log import append_decision
from gatekeeper.audit.read import load_entries, snapshot_file
from gatekeeper.audit.stats import compute, parse_since
from gatekeeper.cli import main
from gatekeeper.errors import UsageError

RULES = {"core.ci": ("core", "review"), "core.iac": ("core", "review"), "deps.lockfile": ("deps", "review"),
         "size.big": ("size", "warn"), "gatekeeper.integrity": ("gatekeeper", "deny")}
START = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)  # a Monday: ISO week 2026-W10


def make_decision(n: int, fired: list[str]) -> dict:
    reasons = [{"policy": RULES[r][0], "rule": r, "level": RULES[r][1], "msg": f"{r} fired"} for r in fired]
    levels = {RULES[r][1] for r in fired}
    outcome = "deny" if "deny" in levels else "review" if "review" in levels else "allow"
    return {
        "outcome": outcome, "reasons": reasons,
        "policies": [{"name": "core", "version": "1.0.0"}, {"name": "deps", "version": "1.0.0"}],
        "bundle": {"name": "b", "revision": "1", "commit": None, "digest": "0" * 64},
        "packet": {"run_id": f"run-{n}", "diff_sha256": "0" * 64, "digest": "0" * 64},
        "input_digest": "0" * 64, "dry_run": False, "tool": {"name": "gatekeeper", "version": "0.1.0"},
    }


@pytest.fixture
def logged(tmp_path: Path) -> tuple[Path, list[tuple[dt.datetime, dict]]]:
    rng = random.Random(8)
    log = tmp_path / "decisions.jsonl"
    written = []
    for n in range(60):
        when = START + dt.timedelta(hours=7 * n)  # 60 decisions over about 17 days: three ISO weeks
        fired = [r for r in RULES if rng.random() < 0.25]
        if fired and rng.random() < 0.3:
            fired.append(fired[0])  # the same rule twice in one decision still counts once
        decision = make_decision(n, fired)
        append_decision(log, decision, at=when.isoformat().replace("+00:00", "Z"))
        written.append((when, decision))
    return log, written


def expected(written: list[tuple[dt.datetime, dict]], since: dt.datetime | None = None) -> dict:
    chosen = [(w, d) for w, d in written if since is None or w >= since]
    outcomes = Counter(d["outcome"] for _, d in chosen)
    rules = Counter(r for _, d in chosen for r in {f["rule"] for f in d["reasons"]})
    policies = Counter(p for _, d in chosen for p in {f["policy"] for f in d["reasons"]})
    weeks: dict[str, Counter] = {}
    for when, d in chosen:
        year, week, _ = when.isocalendar()
        weeks.setdefault(f"{year}-W{week:02d}", Counter())[d["outcome"]] += 1
    return {"total": len(chosen), "outcomes": outcomes, "rules": rules, "policies": policies, "weeks": weeks}


def test_counts_match_the_log(logged: tuple[Path, list]) -> None:
    log, written = logged
    stats = compute(load_entries(snapshot_file(log)))
    want = expected(written)
    assert stats["decisions"] == want["total"] == 60
    assert stats["outcomes"] == {o: want["outcomes"].get(o, 0) for o in ("allow", "review", "deny")}
    assert stats["human_share"] == round(want["outcomes"]["review"] / 60, 4)
    assert {r: v["decisions"] for r, v in stats["rules"].items()} == dict(want["rules"])
    assert {p: v["decisions"] for p, v in stats["policies"].items()} == dict(want["policies"])
    assert list(stats["weeks"]) == ["2026-W10", "2026-W11", "2026-W12"]
    for week, counts in want["weeks"].items():
        row = stats["weeks"][week]
        assert row["decisions"] == sum(counts.values())
        assert (row["allow"], row["review"], row["deny"]) == (counts["allow"], counts["review"], counts["deny"])
        assert row["human_share"] == round(counts["review"] / sum(counts.values()), 4)
    assert stats["rules"]["size.big"]["levels"] == {"warn": want["rules"]["size.big"]}


def test_since_limits_the_window(logged: tuple[Path, list]) -> None:
    log, written = logged
    since = parse_since("2026-03-09")
    stats = compute(load_entries(snapshot_file(log)), since)
    want = expected(written, since)
    assert 0 < stats["decisions"] == want["total"] < 60
    assert list(stats["weeks"]) == ["2026-W11", "2026-W12"]
    assert {r: v["decisions"] for r, v in stats["rules"].items()} == dict(want["rules"])


def test_cli_json_and_text(logged: tuple[Path, list], capsys: pytest.CaptureFixture[str]) -> None:
    log, written = logged
    assert main(["audit", "stats", str(log), "--format", "json", "--since", "2026-03-16T00:00:00Z"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decisions"] == expected(written, parse_since("2026-03-16"))["total"]
    assert list(data["weeks"]) == ["2026-W12"]
    assert main(["audit", "stats", str(log)]) == 0
    text = capsys.readouterr().out
    want = expected(written)
    assert text.startswith(f"60 decisions (0 dry runs); sent to a human (review): {want['outcomes']['review']} = ")
    assert "core.ci" in text and "2026-W11" in text
    assert main(["audit", "stats", str(log), "--since", "last tuesday"]) == 2
    assert "--since" in capsys.readouterr().err


def test_show_filters_by_run_id(logged: tuple[Path, list], capsys: pytest.CaptureFixture[str]) -> None:
    log, written = logged
    assert main(["audit", "show", str(log), "run-7", "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [r["run_id"] for r in records] == ["run-7"] and records[0]["seq"] == 8
    assert records[0]["outcome"] == written[7][1]["outcome"]
    assert main(["audit", "show", str(log)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:4] == ["seq", "time", "run", "id"]
    assert sum(1 for line in table if line[:1].isdigit()) == 60


def test_empty_log_and_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "empty.jsonl"
    log.write_bytes(b"")
    assert compute(load_entries(snapshot_file(log)))["decisions"] == 0
    log.write_bytes(b"not a record\n")
    assert main(["audit", "stats", str(log)]) == 2
    assert "empty.jsonl:1" in capsys.readouterr().err
    with pytest.raises(UsageError):
        parse_since("03/09/2026")
