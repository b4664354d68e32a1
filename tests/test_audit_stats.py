"""`audit stats`: the counts it reports match what was logged, per outcome, policy, rule and ISO week."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.audit.log import append_decision, failure_decision
from gatekeeper.audit.read import load_entries, snapshot_file
from gatekeeper.audit.stats import compute
from gatekeeper.audit.window import window
from gatekeeper.cli import main
from gatekeeper.errors import PatchError, UsageError

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


def since(text: str) -> dt.datetime:
    start = window(text, None).since
    assert start is not None
    return start


def test_since_limits_the_window(logged: tuple[Path, list]) -> None:
    log, written = logged
    start = since("2026-03-09")
    stats = compute(load_entries(snapshot_file(log)), window("2026-03-09", None))
    want = expected(written, start)
    assert 0 < stats["decisions"] == want["total"] < 60
    assert list(stats["weeks"]) == ["2026-W11", "2026-W12"]
    assert {r: v["decisions"] for r, v in stats["rules"].items()} == dict(want["rules"])


def test_cli_json_and_text(logged: tuple[Path, list], capsys: pytest.CaptureFixture[str]) -> None:
    log, written = logged
    assert main(["audit", "stats", str(log), "--format", "json", "--since", "2026-03-16T00:00:00Z"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decisions"] == expected(written, since("2026-03-16"))["total"]
    assert list(data["weeks"]) == ["2026-W12"]
    assert main(["audit", "stats", str(log)]) == 0
    text = capsys.readouterr().out
    want = expected(written)
    assert text.startswith(f"60 decisions: sent to a human (review): {want['outcomes']['review']} of 60 = ")
    assert text.splitlines()[1] == ("counted apart: 0 dry runs (0 would have gone to a human), "
                                    "0 could not decide (exit 2)")
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
        window("03/09/2026", None)


# -- --since/--until: dates, times and spans back from now, in UTC ------------------------------------------

NOW = dt.datetime(2026, 12, 1, 18, 30, tzinfo=dt.UTC)


@each_case(("text", "want"), [
    ("24h", NOW - dt.timedelta(hours=24)), ("7d", NOW - dt.timedelta(days=7)), ("2w", NOW - dt.timedelta(weeks=2)),
    ("0h", NOW), ("2026-11-23", dt.datetime(2026, 11, 23, tzinfo=dt.UTC)),
    ("2026-11-23T10:00:00Z", dt.datetime(2026, 11, 23, 10, tzinfo=dt.UTC)),
    ("2026-11-23T10:00:00", dt.datetime(2026, 11, 23, 10, tzinfo=dt.UTC)),  # no offset: UTC, not local time
    ("2026-11-23T12:00:00+02:00", dt.datetime(2026, 11, 23, 10, tzinfo=dt.UTC)),
])
def test_since_forms(text: str, want: dt.datetime) -> None:
    assert window(text, None, NOW).since == want
    assert window(None, text, NOW + dt.timedelta(weeks=3)).until is not None


@pytest.mark.parametrize("text", ["7", "d", "7 d", "-7d", "7D", "7m", "7y", "1.5d", "99999999d", "100000w",
                                  "last tuesday", "03/09/2026", "", "7d\n", "2026-13-01", "٧d"])
def test_bad_bounds_are_one_usage_error(text: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        window(text, None, NOW)
    log = tmp_path / "d.jsonl"
    log.write_bytes(b"")
    assert main(["audit", "stats", str(log), "--until", text]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--until" in err and "Traceback" not in err


def test_an_empty_period_is_refused() -> None:
    with pytest.raises(UsageError, match="not before"):
        window("1d", "7d", NOW)
    with pytest.raises(UsageError, match="not before"):
        window("2026-11-30", "2026-11-23", NOW)


def test_spans_share_one_clock(logged: tuple[Path, list]) -> None:
    """`--since 7d --until 1d` reads the clock once: the window is exactly six days wide, measured from `now`."""
    log, written = logged
    now = START + dt.timedelta(days=12)
    period = window("7d", "1d", now)
    assert (period.since, period.until) == (now - dt.timedelta(days=7), now - dt.timedelta(days=1))
    stats = compute(load_entries(snapshot_file(log)), period)
    assert stats["decisions"] == sum(1 for when, _ in written if period.since <= when < period.until)
    assert stats["now"] == now.isoformat().replace("+00:00", "Z")


# -- dry runs and could-not-decide records are counted apart --------------------------------------------------


def _mixed_log(tmp_path: Path) -> tuple[Path, list[dict]]:
    """A log of enforced decisions, dry runs and could-not-decide records, with the truth of each."""
    rng = random.Random(17)
    log = tmp_path / "mixed.jsonl"
    truth = []
    for n in range(90):
        when = (START + dt.timedelta(hours=5 * n)).isoformat().replace("+00:00", "Z")
        kind = rng.choice(["enforced", "enforced", "dry", "error"])
        if kind == "error":
            append_decision(log, failure_decision(PatchError("patch.diff:3: not a patch"), dry_run=rng.random() < .5),
                            at=when)
            truth.append({"kind": kind, "week": _week(when)})
            continue
        fired = [r for r in RULES if rng.random() < 0.3]
        decision = make_decision(n, fired)
        buckets = {b: rng.choice([0, 1]) for b in ("ci", "iac", "src")}
        decision["summary"] = {"buckets": {b: {"files": f} for b, f in buckets.items()}}
        decision["dry_run"] = kind == "dry"
        append_decision(log, decision, at=when)
        truth.append({"kind": kind, "week": _week(when), "outcome": decision["outcome"],
                      "rules": {f["rule"] for f in decision["reasons"]},
                      "buckets": {b for b, f in buckets.items() if f}})
    return log, truth


def _week(when: str) -> str:
    year, week, _ = dt.datetime.fromisoformat(when.replace("Z", "+00:00")).isocalendar()
    return f"{year}-W{week:02d}"


def test_dry_runs_and_errors_are_never_sent_to_a_human(tmp_path: Path) -> None:
    log, truth = _mixed_log(tmp_path)
    stats = compute(load_entries(snapshot_file(log)))
    enforced = [t for t in truth if t["kind"] == "enforced"]
    dry = [t for t in truth if t["kind"] == "dry"]
    errors = [t for t in truth if t["kind"] == "error"]
    assert enforced and dry and errors
    assert stats["decisions"] == stats["in_period"] == len(enforced)
    assert stats["outcomes"] == {o: sum(t["outcome"] == o for t in enforced) for o in ("allow", "review", "deny")}
    assert stats["human_share"] == round(sum(t["outcome"] == "review" for t in enforced) / len(enforced), 4)
    assert stats["dry_run"] == len(dry)
    assert stats["dry_run_outcomes"]["review"] == sum(t["outcome"] == "review" for t in dry)
    assert stats["could_not_decide"] == len(errors)
    for rule in RULES:
        row = stats["rules"].get(rule, {"decisions": 0, "dry_run": 0})
        assert row["decisions"] == sum(rule in t["rules"] for t in enforced)
        assert row["dry_run"] == sum(rule in t["rules"] for t in dry)
    for week, row in stats["weeks"].items():
        assert row["decisions"] == sum(t["week"] == week for t in enforced)
        assert row["review"] == sum(t["week"] == week and t["outcome"] == "review" for t in enforced)
        assert row["dry_run"] == sum(t["week"] == week for t in dry)
        assert row["could_not_decide"] == sum(t["week"] == week for t in errors)
    # A bucket filter narrows the decisions; errors carry no classification and stay counted for the period.
    narrowed = compute(load_entries(snapshot_file(log)), buckets=("ci",))
    assert narrowed["decisions"] == sum("ci" in t["buckets"] for t in enforced)
    assert narrowed["dry_run"] == sum("ci" in t["buckets"] for t in dry)
    assert narrowed["could_not_decide"] == len(errors) and narrowed["in_period"] == len(enforced)


def test_weekly_tables_by_bucket_and_by_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log, truth = _mixed_log(tmp_path)
    stats = compute(load_entries(snapshot_file(log)))
    enforced = [t for t in truth if t["kind"] == "enforced"]
    weeks = sorted({t["week"] for t in enforced})
    assert list(stats["weeks_by_bucket"]) == list(stats["weeks_by_rule"]) == weeks and len(weeks) >= 3
    for week in weeks:
        those = [t for t in enforced if t["week"] == week]
        for bucket in ("ci", "iac", "src"):
            touching = [t for t in those if bucket in t["buckets"]]
            row = stats["weeks_by_bucket"][week].get(bucket, {"decisions": 0, "review": 0})
            assert row["decisions"] == len(touching)
            assert row["review"] == sum(t["outcome"] == "review" for t in touching)
        for rule in RULES:
            fired = sum(rule in t["rules"] for t in those)
            assert stats["weeks_by_rule"][week].get(rule, {"decisions": 0})["decisions"] == fired
    assert main(["audit", "stats", str(log)]) == 0
    text = capsys.readouterr().out
    assert f"counted apart: {stats['dry_run']} dry runs" in text
    assert f"{stats['could_not_decide']} could not decide (exit 2)" in text
    week, rule = weeks[0], next(iter(stats["weeks_by_rule"][weeks[0]]))
    assert any(line.split()[:3] == [week, rule, str(stats["weeks_by_rule"][week][rule]["decisions"])]
               for line in text.splitlines())
