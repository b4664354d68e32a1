"""`audit stats`: how often each outcome, policy and rule fired, per ISO week, and the share sent to a human."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Any

from gatekeeper.audit.log import OUTCOMES
from gatekeeper.audit.read import Entry
from gatekeeper.errors import UsageError
from gatekeeper.readable import count

BUCKETS = ("ci", "iac", "deps", "src", "other")
UNKNOWN_REPOSITORY = "(unknown)"  # records written outside a known CI, or before log_version 2


def parse_since(text: str, option: str = "--since") -> dt.datetime:
    """`--since`/`--until`: a date (YYYY-MM-DD, midnight UTC) or an RFC 3339 time."""
    try:
        value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise UsageError(f"{option}: not a date: {text!r}", hint="use YYYY-MM-DD or an RFC 3339 time") from exc
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


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


def compute(entries: Sequence[Entry], since: dt.datetime | None = None, *, until: dt.datetime | None = None,
            buckets: Sequence[str] = ()) -> dict[str, Any]:
    """The statistics as a JSON-ready dict: totals, per policy, rule, repository, bucket and ISO week.

    `buckets` keeps only decisions on changes touching any of them; `in_period` counts all decisions in the window.
    """
    in_period = [e for e in entries if (since is None or record_time(e) >= since)
                 and (until is None or record_time(e) < until)]
    chosen = [e for e in in_period if not buckets or set(touched_buckets(e.record)) & set(buckets)]
    outcomes: Counter[str] = Counter()
    policies: dict[str, Counter[str]] = {}
    rules: dict[str, dict[str, Any]] = {}
    weeks: dict[str, Counter[str]] = {}
    repositories: dict[str, Counter[str]] = {}
    by_bucket: dict[str, Counter[str]] = {}
    for entry in chosen:
        record = entry.record
        outcome = record["outcome"]
        outcomes[outcome] += 1
        year, week, _ = record_time(entry).isocalendar()
        weeks.setdefault(f"{year}-W{week:02d}", Counter())[outcome] += 1
        repositories.setdefault(repository(record), Counter())[outcome] += 1
        for bucket in touched_buckets(record):
            by_bucket.setdefault(bucket, Counter())[outcome] += 1
        # Count decisions, not findings: a rule that fires twice in one decision adds one review, not two.
        fired_policies: dict[str, set[str]] = {}
        fired_rules: dict[str, tuple[str, set[str]]] = {}
        for finding in record.get("findings") or []:
            level = str(finding.get("level"))
            fired_policies.setdefault(str(finding.get("policy")), set()).add(level)
            rule = fired_rules.setdefault(str(finding.get("rule")), (str(finding.get("policy")), set()))
            rule[1].add(level)
        for name, levels in fired_policies.items():
            counter = policies.setdefault(name, Counter())
            counter["decisions"] += 1
            for level in levels:
                counter[level] += 1
        for rule_id, (policy, levels) in fired_rules.items():
            row = rules.setdefault(rule_id, {"policy": policy, "decisions": 0, "levels": Counter()})
            row["decisions"] += 1
            row["levels"].update(levels)
    total = len(chosen)
    return {
        "since": since.isoformat().replace("+00:00", "Z") if since else None,
        "until": until.isoformat().replace("+00:00", "Z") if until else None,
        "buckets_selected": list(buckets),
        "in_period": len(in_period),
        "decisions": total,
        "dry_run": sum(1 for e in chosen if e.record.get("dry_run")),
        "outcomes": {o: outcomes.get(o, 0) for o in OUTCOMES},
        "human_share": _share(outcomes.get("review", 0), total),
        "policies": {
            name: {"decisions": c["decisions"], "share": _share(c["decisions"], total),
                   "deny": c.get("deny", 0), "review": c.get("review", 0), "warn": c.get("warn", 0)}
            for name, c in sorted(policies.items())
        },
        "rules": {
            rule_id: {"policy": row["policy"], "decisions": row["decisions"], "share": _share(row["decisions"], total),
                      "levels": dict(sorted(row["levels"].items()))}
            for rule_id, row in sorted(rules.items())
        },
        "weeks": _grouped(weeks),
        "repositories": _grouped(repositories),
        "buckets": _grouped(by_bucket),
    }


def _grouped(groups: dict[str, Counter[str]]) -> dict[str, dict[str, Any]]:
    return {
        name: {"decisions": sum(c.values()), **{o: c.get(o, 0) for o in OUTCOMES},
               "human_share": _share(c.get("review", 0), sum(c.values()))}
        for name, c in sorted(groups.items())
    }


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def render_text(stats: dict[str, Any]) -> str:
    """The statistics as plain text tables."""
    total = stats["decisions"]
    since = f" since {stats['since']}" if stats["since"] else ""
    since += f" until {stats['until']}" if stats.get("until") else ""
    selected = stats.get("buckets_selected") or []
    scope = (f" touching {' or '.join(selected)} (of {stats['in_period']} in the period)" if selected else "")
    out = [f"{count(total, 'decision')}{scope}{since} ({count(stats['dry_run'], 'dry run')}); sent to a human "
           f"(review): {stats['outcomes']['review']} = {_pct(stats['human_share'])}"]
    out.append(
        "outcomes: " + ", ".join(f"{o} {n} ({_pct(n / total if total else 0)})" for o, n in stats["outcomes"].items())
    )
    out += ["", _table(("policy", "decisions", "share", "deny", "review", "warn"),
                       [(n, p["decisions"], _pct(p["share"]), p["deny"], p["review"], p["warn"])
                        for n, p in stats["policies"].items()])]
    out += ["", _table(("rule", "policy", "decisions", "share", "levels"),
                       [(r, v["policy"], v["decisions"], _pct(v["share"]),
                         ",".join(f"{k}:{n}" for k, n in v["levels"].items())) for r, v in stats["rules"].items()])]
    for group, key in (("week", "weeks"), ("repository", "repositories"), ("bucket", "buckets")):
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
