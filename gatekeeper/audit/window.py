"""`audit stats --since/--until`: a date, an RFC 3339 time, or a span back from now (`24h`, `7d`, `2w`), in UTC.

The clock is the machine's, read once per command and in UTC, so `--since 7d --until 1d` is one consistent
window; dates without a time are midnight UTC, times without an offset are UTC.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from gatekeeper.errors import UsageError

_SPAN = re.compile(r"([0-9]{1,5})([hdw])")
_UNIT = {"h": dt.timedelta(hours=1), "d": dt.timedelta(days=1), "w": dt.timedelta(weeks=1)}
_MAX_SPAN = dt.timedelta(days=36600)  # a century: anything longer is a typo, and would underflow datetime
_HINT = "use YYYY-MM-DD, an RFC 3339 time, or a span back from now such as 24h, 7d or 2w (UTC)"


@dataclass(frozen=True, slots=True)
class Window:
    """The half-open period [since, until) a statistic covers; None is open-ended. `now` is the clock spans used."""

    since: dt.datetime | None
    until: dt.datetime | None
    now: dt.datetime

    def holds(self, when: dt.datetime) -> bool:
        """Whether `when` falls inside the window."""
        return (self.since is None or when >= self.since) and (self.until is None or when < self.until)


def parse_when(text: str, option: str, now: dt.datetime) -> dt.datetime:
    """One bound: `7d` is seven days before `now`; a date is its midnight UTC; a time without offset is UTC."""
    span = _SPAN.fullmatch(text)
    if span:
        length = int(span.group(1)) * _UNIT[span.group(2)]
        if length > _MAX_SPAN:
            raise UsageError(f"{option}: span {text!r} is longer than a century", hint=_HINT)
        return now - length
    try:
        if not text.isascii() or not text[:4].isdigit():  # fromisoformat takes other digits and forms we don't mean
            raise ValueError(text)
        value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise UsageError(f"{option}: not a date, time or span: {text!r}", hint=_HINT) from exc
    return value.astimezone(dt.UTC) if value.tzinfo else value.replace(tzinfo=dt.UTC)


def window(since: str | None, until: str | None, now: dt.datetime | None = None) -> Window:
    """The window `--since`/`--until` describe, read against one clock (`now`, default: the current UTC time)."""
    clock = now or dt.datetime.now(dt.UTC).replace(microsecond=0)  # to the second: readable in the headline
    start = parse_when(since, "--since", clock) if since is not None else None
    end = parse_when(until, "--until", clock) if until is not None else None
    if start is not None and end is not None and start >= end:
        raise UsageError(f"--since {since} is not before --until {until}: the period is empty",
                         hint="swap them, or widen the period")
    return Window(start, end, clock)


def rfc3339(when: dt.datetime | None) -> str | None:
    """`when` as RFC 3339 UTC with a `Z` (None stays None)."""
    return None if when is None else when.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
