"""`audit stats`: how often each outcome, policy and rule fired, per ISO week, bucket and repository, and the
share sent to a human.

Three kinds of record are counted apart, never mixed: enforced decisions (what CI acted on: only these can
send a change to a human), dry runs (`gate --dry-run`: what a policy being rolled out *would* have done) and
could-not-decide records (the gate exited 2; it carries no classification, so no bucket filter applies).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from gatekeeper.audit.log import ERROR_OUTCOME, OUTCOMES
from gatekeeper.audit.read import Entry
from gatekeeper.audit.window import Window, rfc3339
from gatekeeper.readable import count

BUCKETS = ("ci", "iac", "deps", "src", "other")
UNKNOWN_REPOSITORY = "(unknown)"  # records written outside a known CI, or before log_version 2


def record_time(entry: Entry) -> dt.datetime:
    """When the record was appended, as an aware UTC datetime."""
    value = dt.datetime.fromisoformat(str(entry.record["time"]).replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def touched_buckets(record: dict[str, Any]) -> list[str]:
    """The buckets in which the decided change has at least one file."""
    summary = record.get("summary")
    buckets = summary.get("buckets") if isinstance(summary, dict) else None
    if not isinstance(buckets, dict):
        return []
    return [b for b in BUCKETS if isinstance(buckets.get(b), dict) and (buckets[b].get("files") or 0) > 0]


def repository(record: dict[str, Any]) -> str:
    """The repository a record names (from the CI's variables), or UNKNOWN_REPOSITORY."""
    ci = record.get("ci")
    name = ci.get("repository") if isinstance(ci, dict) else None
    return str(name) if name else UNKNOWN_REPOSITORY


def week_of(entry: Entry) -> str:
    """The ISO week (`2026-W48`, Monday to Sunday, UTC) the record was appended in."""
    year, week, _ = record_time(entry).isocalendar()
    return f"{year}-W{week:02d}"


def _fired_rules(record: dict[str, Any]) -> dict[str, tuple[str, set[str]]]:
    """Each rule that fired in one decision: its policy and levels (a rule firing twice counts once)."""
    fired: dict[str, tuple[str, set[str]]] = {}
    for finding in record.get("findings") or []:
        rule = fired.setdefault(str(finding.get("rule")), (str(finding.get("policy")), set()))
        rule[1].add(str(finding.get("level")))
    return fired


def compute(entries: Sequence[Entry], period: Window | None = None, *, buckets: Sequence[str] = ()) -> dict[str, Any]:
    """The statistics as a JSON-ready dict (see docs/audit.md for every key).

    `buckets` keeps only decisions on changes touching any of them; `in_period` counts every enforced decision
    in the window whatever it touched."""
    in_window = [e for e in entries if period is None or period.holds(record_time(e))]
    errors = [e for e in in_window if e.record.get("outcome") == ERROR_OUTCOME]
    decided = [e for e in in_window if e.record.get("outcome") in OUTCOMES]
    chosen = [e for e in decided if not buckets or set(touched_buckets(e.record)) & set(buckets)]
    enforced = [e for e in chosen if not e.record.get("dry_run")]
    dry = [e for e in chosen if e.record.get("dry_run")]
    outcomes = Counter(str(e.record["outcome"]) for e in enforced)
    dry_outcomes = Counter(str(e.record["outcome"]) for e in dry)
    total = len(enforced)
    return {
        "since": rfc3339(period.since) if period else None,
        "until": rfc3339(period.until) if period else None,
        "now": rfc3339(period.now) if period else None,
        "buckets_selected": list(buckets),
        "in_period": sum(1 for e in decided if not e.record.get("dry_run")),
        "decisions": total,
        "outcomes": {o: outcomes.get(o, 0) for o in OUTCOMES},
        "human_share": _share(outcomes.get("review", 0), total),
        "dry_run": len(dry),
        "dry_run_outcomes": {o: dry_outcomes.get(o, 0) for o in OUTCOMES},
        "could_not_decide": len(errors),
        "policies": _policies(enforced, dry, total),
        "rules": _rules(enforced, dry, total),
        "weeks": _weeks(enforced, dry, errors),
        "weeks_by_bucket": {week: _grouped(_by_bucket(rows)) for week, rows in _split(enforced, week_of).items()},
        "weeks_by_rule": {week: _rule_counts(rows) for week, rows in _split(enforced, week_of).items()},
        "repositories": _grouped({name: Counter(str(e.record["outcome"]) for e in rows)
                                  for name, rows in _split(enforced, lambda e: repository(e.record)).items()}),
        "buckets": _grouped(_by_bucket(enforced)),
    }


def _split(entries: Iterable[Entry], key: Any) -> dict[str, list[Entry]]:
    groups: dict[str, list[Entry]] = {}
    for entry in entries:
        groups.setdefault(key(entry), []).append(entry)
    return dict(sorted(groups.items()))


def _by_bucket(entries: Iterable[Entry]) -> dict[str, Counter[str]]:
    groups: dict[str, Counter[str]] = {}
    for entry in entries:
        for bucket in touched_buckets(entry.record):
            groups.setdefault(bucket, Counter())[str(entry.record["outcome"])] += 1
    return groups


def _policies(enforced: list[Entry], dry: list[Entry], total: int) -> dict[str, dict[str, Any]]:
    rows: dict[str, Counter[str]] = {}
    for entry in enforced + dry:
        fired: dict[str, set[str]] = {}
        for _, (policy, levels) in _fired_rules(entry.record).items():
            fired.setdefault(policy, set()).update(levels)
        for name, levels in fired.items():
            counter = rows.setdefault(name, Counter())
            if entry.record.get("dry_run"):
                counter["dry_run"] += 1
                continue
            counter["decisions"] += 1
            counter.update(levels)
    return {name: {"decisions": c["decisions"], "share": _share(c["decisions"], total), "deny": c["deny"],
                   "review": c["review"], "warn": c["warn"], "dry_run": c["dry_run"]}
            for name, c in sorted(rows.items())}


def _rules(enforced: list[Entry], dry: list[Entry], total: int) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for entry in enforced + dry:
        for rule_id, (policy, levels) in _fired_rules(entry.record).items():
            row = rows.setdefault(rule_id, {"policy": policy, "decisions": 0, "levels": Counter(), "dry_run": 0})
            if entry.record.get("dry_run"):
                row["dry_run"] += 1
            else:
                row["decisions"] += 1
                row["levels"].update(levels)
    return {rule_id: {"policy": row["policy"], "decisions": row["decisions"], "share": _share(row["decisions"], total),
                      "levels": dict(sorted(row["levels"].items())), "dry_run": row["dry_run"]}
            for rule_id, row in sorted(rows.items())}


def _rule_counts(entries: list[Entry]) -> dict[str, dict[str, Any]]:
    counter: Counter[str] = Counter(rule for e in entries for rule in _fired_rules(e.record))
    return {rule: {"decisions": n, "share": _share(n, len(entries))} for rule, n in sorted(counter.items())}


def _weeks(enforced: list[Entry], dry: list[Entry], errors: list[Entry]) -> dict[str, dict[str, Any]]:
    names = sorted({week_of(e) for e in [*enforced, *dry, *errors]})
    rows = _grouped({name: Counter(str(e.record["outcome"]) for e in enforced if week_of(e) == name)
                     for name in names})
    for name, row in rows.items():
        row["dry_run"] = sum(1 for e in dry if week_of(e) == name)
        row["could_not_decide"] = sum(1 for e in errors if week_of(e) == name)
    return rows


def _grouped(groups: dict[str, Counter[str]]) -> dict[str, dict[str, Any]]:
    return {
        name: {"decisions": sum(c.values()), **{o: c.get(o, 0) for o in OUTCOMES},
               "human_share": _share(c.get("review", 0), sum(c.values()))}
        for name, c in sorted(groups.items())
    }


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def headline(stats: dict[str, Any]) -> list[str]:
    """The answer in two lines: how many went to a human, out of how many; what was counted apart."""
    selected = stats.get("buckets_selected") or []
    scope = f" touching {' or '.join(selected)} (of {stats['in_period']} in the period)" if selected else ""
    when = f" since {stats['since']}" if stats["since"] else ""
    when += f" until {stats['until']}" if stats["until"] else ""
    review = stats["outcomes"]["review"]
    first = (f"{count(stats['decisions'], 'decision')}{scope}{when}: sent to a human (review): {review} of "
             f"{stats['decisions']} = {_pct(stats['human_share'])}")
    dry = stats["dry_run"]
    would = stats["dry_run_outcomes"]["review"]
    second = (f"counted apart: {count(dry, 'dry run')} ({would} would have gone to a human), "
              f"{stats['could_not_decide']} could not decide (exit 2)")
    return [first, second]


def render_text(stats: dict[str, Any]) -> str:
    """The statistics as plain text tables."""
    total = stats["decisions"]
    out = headline(stats)
    out.append(
        "outcomes: " + ", ".join(f"{o} {n} ({_pct(n / total if total else 0)})" for o, n in stats["outcomes"].items())
    )
    out += ["", _table(("policy", "decisions", "share", "deny", "review", "warn", "dry runs"),
                       [(n, p["decisions"], _pct(p["share"]), p["deny"], p["review"], p["warn"], p["dry_run"])
                        for n, p in stats["policies"].items()])]
    out += ["", _table(("rule", "policy", "decisions", "share", "levels", "dry runs"),
                       [(r, v["policy"], v["decisions"], _pct(v["share"]),
                         ",".join(f"{k}:{n}" for k, n in v["levels"].items()) or "-", v["dry_run"])
                        for r, v in stats["rules"].items()])]
    out += ["", _table(("week", "decisions", "allow", "review", "deny", "to human", "dry runs", "could not decide"),
                       [(w, v["decisions"], v["allow"], v["review"], v["deny"], _pct(v["human_share"]), v["dry_run"],
                         v["could_not_decide"]) for w, v in stats["weeks"].items()])]
    out += ["", _table(("week", "bucket", "decisions", "allow", "review", "deny", "to human"),
                       [(w, b, v["decisions"], v["allow"], v["review"], v["deny"], _pct(v["human_share"]))
                        for w, rows in stats["weeks_by_bucket"].items() for b, v in rows.items()])]
    out += ["", _table(("week", "rule", "decisions", "share of week"),
                       [(w, r, v["decisions"], _pct(v["share"]))
                        for w, rows in stats["weeks_by_rule"].items() for r, v in rows.items()])]
    for group, key in (("repository", "repositories"), ("bucket", "buckets")):
        out += ["", _table((group, "decisions", "allow", "review", "deny", "to human"),
                           [(w, v["decisions"], v["allow"], v["review"], v["deny"], _pct(v["human_share"]))
                            for w, v in stats[key].items()])]
    return "\n".join(out)


def _pct(share: float) -> str:
    return f"{share * 100:.1f}%"


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [[str(c) for c in header]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=False)).rstrip() for row in cells]
    return "\n".join(lines if rows else lines + ["(none)"])
