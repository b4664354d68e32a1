"""Where the gate writes its decision record: a local file, a git ref, an OPA collector; any combination.

One call from the gate. Every destination is checked before anything is written, so a bad `--log-url`
cannot leave the decision in the file log of a gate that then fails (the file then gets the gate's
could-not-decide record instead: `log_failure`). The file and git logs fail the gate
when they cannot be written (exit 2: a decision without its record is not made); the collector spools.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gatekeeper.attest.keys import load_signer
from gatekeeper.attest.record import sealer
from gatekeeper.audit.collector import check_url, deliver, redact
from gatekeeper.audit.fleet import ci_context
from gatekeeper.audit.gitlog import append_git, parse_spec
from gatekeeper.audit.log import GENESIS, Seal, append_decision, failure_decision, record_from_decision, utc_now


def log_decision(decision: dict[str, Any], *, file: Path | None, git: str | None, url: str | None,
                 tree: str | None, env: Mapping[str, str], sign: Path | None = None) -> list[dict[str, Any]]:
    """Append `decision` everywhere asked, each record signed with the key `sign` when given; what each
    destination did (for the report's `decision_log`)."""
    seal = _sealer(sign) if sign is not None else None
    git_log = parse_spec(git) if git else None
    collector = check_url(url) if url else None
    ci = ci_context(env, tree)
    done: list[dict[str, Any]] = []
    record: dict[str, Any] | None = None
    # The shared ref first: it is the one most likely to refuse (network, permissions), and when it does
    # nothing has been written anywhere yet.
    if git_log is not None:
        record = append_git(git_log, decision, ci=ci, env=env, seal=seal)
        done.append({"sink": "git", "where": git_log.name, "status": "appended", "seq": record["seq"],
                     "hash": record["hash"]})
    if file is not None:
        appended = append_decision(file, decision, ci=ci, seal=seal)
        record = record or appended
        done.append({"sink": "file", "where": str(file), "status": "appended", "seq": appended["seq"],
                     "hash": appended["hash"]})
    if collector is not None:
        # The collector gets the chained record (the shared ref's first); alone, a record outside any chain (seq 0).
        sent = record or record_from_decision(decision, seq=0, prev=GENESIS, at=utc_now(), ci=ci, seal=seal)
        delivery = deliver(collector, sent, env=env)
        done.append({"sink": "url", "where": redact(collector), "status": "sent" if delivery.sent else "spooled",
                     "seq": sent["seq"], "hash": sent["hash"],
                     "spool": str(delivery.spooled) if delivery.spooled else None, "error": delivery.error,
                     "message": delivery.describe()})
    return done


def log_failure(error: BaseException, *, file: Path | None, git: str | None, url: str | None, tree: str | None,
                env: Mapping[str, str], sign: Path | None = None, dry_run: bool = False) -> list[dict[str, Any]]:
    """Log that the gate could not decide (exit 2) wherever it was asked to log, as a chained (and, with `sign`,
    signed) record of outcome `error`; best effort: the gate's own error is what the caller reports.

    A file log whose folder does not exist is skipped (the gate refuses to start a chain by accident), and a
    destination that cannot take the record is left out of the list returned."""
    if file is not None and not file.parent.is_dir():
        file = None
    decision = failure_decision(error, dry_run=dry_run)
    done: list[dict[str, Any]] = []
    for one in ({"file": file, "git": None, "url": None}, {"file": None, "git": git, "url": None},
                {"file": None, "git": None, "url": url}):
        if not any(one.values()):
            continue
        try:
            done += log_decision(decision, **one, tree=tree, env=env, sign=sign)
        except Exception:  # best effort: the gate's own error, not this one, is what the user must see
            continue  # this destination may be why the gate failed: the others still get the record
    return done


def _sealer(key: Path) -> Seal:
    return sealer(load_signer(key))
