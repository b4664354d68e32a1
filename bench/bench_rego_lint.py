"""Benchmark: what the lexical Rego check adds to loading the shipped bundle.

Run: .venv/bin/python bench/bench_rego_lint.py [--repeat N]
Target: < 5 ms for the shipped bundle (policies, lib and tests), on 2 cores.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.rego_lint import find_error

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "policies"


def _best(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    paths = sorted(POLICIES.rglob("*.rego"))
    sources = [path.read_text(encoding="utf-8") for path in paths]

    def lint_only() -> None:
        for source in sources:
            find_error(source)

    def read_and_lint() -> None:
        for path in paths:
            find_error(path.read_text(encoding="utf-8"))

    lint_ms = _best(lint_only, args.repeat)
    read_ms = _best(read_and_lint, args.repeat)
    with_tests = [_best(lambda: load_bundle(POLICIES), 1) for _ in range(args.repeat)]
    without_tests = [_best(lambda: load_bundle(POLICIES, lint_tests=False), 1) for _ in range(args.repeat)]
    size = sum(len(s.encode("utf-8")) for s in sources)
    print(f"modules: {len(paths)} files, {size} bytes")
    print(f"find_error over every module (in memory): {lint_ms:.2f} ms (best of {args.repeat})")
    print(f"read + find_error over every module: {read_ms:.2f} ms")
    print(f"load_bundle (lints every module incl. tests): median {statistics.median(with_tests):.2f} ms")
    print(f"load_bundle(lint_tests=False): median {statistics.median(without_tests):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
