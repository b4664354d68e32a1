"""Decision log speed: append latency (one process, then 8 processes at once), verify throughput, import cost.

Run: .venv/bin/python bench/audit_log.py [RECORDS]  (prints numbers; asserts nothing)
"""

from __future__ import annotations

import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gatekeeper.audit.log import append_decision
from gatekeeper.audit.verify import verify_log


def decision(n: int) -> dict:
    reasons = [{"policy": "core", "rule": "core.ci", "level": "review", "msg": "CI files changed",
                "bucket": "ci", "paths": [f".github/workflows/w{i}.yml" for i in range(5)]}]
    return {
        "outcome": "review", "reasons": reasons, "policies": [{"name": "core", "version": "1.0.0"}],
        "bundle": {"name": "default", "revision": "7", "commit": "c" * 40, "digest": "d" * 64},
        "packet": {"run_id": f"run-{n}", "diff_sha256": "a" * 64, "digest": "p" * 64}, "input_digest": "i" * 64,
        "summary": {"files": 12, "additions": 300, "deletions": 20, "buckets": {}}, "dry_run": False,
        "tool": {"name": "gatekeeper", "version": "0.1.0"}, "decided_at": "2026-11-29T12:00:00Z",
    }


def worker(log: str, count: int, offset: int) -> None:
    for i in range(count):
        append_decision(Path(log), decision(offset + i))


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    with tempfile.TemporaryDirectory(dir=os.getcwd(), prefix=".bench-audit-") as tmp:
        log = Path(tmp) / "decisions.jsonl"
        times = []
        for n in range(count):
            start = time.perf_counter()
            append_decision(log, decision(n))
            times.append(time.perf_counter() - start)
        print(f"append, 1 process: {count} records, median {statistics.median(times) * 1e3:.2f} ms, "
              f"p99 {sorted(times)[int(count * 0.99) - 1] * 1e3:.2f} ms, log {log.stat().st_size / 1e6:.1f} MB")

        start = time.perf_counter()
        verdict = verify_log(log)
        took = time.perf_counter() - start
        print(
            f"verify: {verdict.records} records in {took:.3f} s "
            f"({verdict.records / took:,.0f} records/s), ok={verdict.ok}"
        )

        log8 = Path(tmp) / "concurrent.jsonl"
        per = max(count // 8, 1)
        ctx = multiprocessing.get_context("fork")
        start = time.perf_counter()
        procs = [ctx.Process(target=worker, args=(str(log8), per, k * per)) for k in range(8)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join()
        took = time.perf_counter() - start
        ok = verify_log(log8).ok
        print(
            f"append, 8 processes at once: {8 * per} records in {took:.2f} s ({8 * per / took:,.0f}/s), verify ok={ok}"
        )

    cmd = [sys.executable, "-X", "importtime", "-c", "import gatekeeper.audit.log"]
    lines = subprocess.run(cmd, capture_output=True, text=True).stderr.splitlines()
    own = next(line for line in lines if line.rstrip().endswith("gatekeeper.audit.log"))
    print(f"import gatekeeper.audit.log: {int(own.split('|')[1]) / 1000:.1f} ms cumulative (stdlib only)")


if __name__ == "__main__":
    main()
