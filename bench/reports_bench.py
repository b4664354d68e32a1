"""Render a 10,000-path decision in every report format and print the time each takes.

Usage: python bench/reports_bench.py [PATHS]   (default 10000). Prints numbers; asserts nothing.
"""

from __future__ import annotations

import sys
import time

from gatekeeper.reports import FORMATS, render


def decision(count: int, odd: bool) -> dict:
    """A review decision whose CI finding names `count` files, plus two path-less findings."""
    name = "w{:05d} caf\u00e9,%:.yml" if odd else "w{:05d}.yml"
    paths = [".github/workflows/" + name.format(i) for i in range(count)]
    return {
        "outcome": "review",
        "reasons": [
            {
                "policy": "core",
                "rule": "core.ci",
                "level": "review",
                "msg": "CI changed",
                "bucket": "ci",
                "paths": paths,
            },
            {"policy": "size", "rule": "size.files", "level": "review", "msg": f"{count} files (limit 500)"},
            {"policy": "provenance", "rule": "provenance.model", "level": "warn", "msg": "model not reported"},
        ],
        "policies": [{"name": "core", "version": "1.0.0"}, {"name": "size", "version": "1.0.0"}],
        "bundle": {"name": "default", "revision": "1", "commit": None, "digest": "0" * 64},
        "packet": {"run_id": "bench", "diff_sha256": "1" * 64, "digest": "2" * 64},
        "input_digest": "3" * 64,
        "summary": {"files": count, "additions": count, "deletions": 0, "buckets": {}},
        "dry_run": False,
        "tool": {"name": "gatekeeper", "version": "0.1.0"},
        "decided_at": "2026-11-29T12:00:00Z",
    }


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    for odd in (False, True):
        doc = decision(count, odd)
        print(f"{count} paths per decision, {'with spaces, unicode, %,: to escape' if odd else 'plain'}:")
        for fmt in FORMATS:
            runs = []
            for _ in range(5):
                start = time.perf_counter()
                text = render(fmt, doc)
                runs.append(time.perf_counter() - start)
            print(f"  {fmt:>9}: best {min(runs) * 1000:7.1f} ms of 5, {len(text.encode('utf-8')):>9,} bytes")


if __name__ == "__main__":
    main()
