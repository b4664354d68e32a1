"""Benchmark: `gatekeeper test` on the shipped bundle and fixtures (wall and CPU time through the CLI, per-suite split).

CPU is user+sys of the command and of every process under it: on a shared, loaded machine it is the number
to compare, wall time is not. The engine's children are reaped by the command only when it forks again, so
the last ones outlive it and the kernel counts them for nobody the command's parent waits for; on Linux this
bench makes itself their reaper (PR_SET_CHILD_SUBREAPER) and waits for every one of them before reading the
CPU (without it, ~0.2 CPU-s of a run went uncounted). `--against DIR` interleaves another checkout (its
package, policies and fixtures) run for run, in alternating order (A/B).

Run: .venv/bin/python bench/bench_test_cmd.py [--repeat N] [--against DIR]
Target: the whole run (Rego unit tests + every fixture case + coverage) in a few seconds on 2 cores.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_PR_SET_CHILD_SUBREAPER = 36


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout to interleave every run with (A/B)")
    args = parser.parse_args()
    whole = _reap_descendants()
    sides = {"this": ROOT, **({"against": args.against.resolve()} if args.against else {})}
    walls: dict[str, list[float]] = {side: [] for side in sides}
    cpus: dict[str, list[float]] = {side: [] for side in sides}
    report: dict = {}
    for number in range(args.repeat):
        for side in list(sides)[:: 1 if number % 2 == 0 else -1]:
            started, cpu_before = time.perf_counter(), _children_cpu()
            done = subprocess.run(
                [sys.executable, "-m", "gatekeeper", "test", "--policy", "policies", "--fixtures", "fixtures",
                 "--format", "json"],
                cwd=sides[side], capture_output=True, text=True, check=False,
                env={**os.environ, "PYTHONPATH": str(sides[side])},
            )
            _wait_orphans(whole)
            walls[side].append(time.perf_counter() - started)
            cpus[side].append(_children_cpu() - cpu_before)
            if done.returncode != 0:
                print(f"gatekeeper test ({side}) exited {done.returncode}: {done.stderr.strip()}", file=sys.stderr)
                return 1
            if side == "this":
                report = json.loads(done.stdout)
    print(f"machine: {platform.machine()} {os.cpu_count()} cpus, python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}; CPU of {'every process under' if whole else 'the command and'} "
          f"{'' if whole else 'the children it waited for: '}each run")
    for side in sides:
        print(f"{side:<7} gatekeeper test (CLI, process start included): median {statistics.median(walls[side]):.2f} s,"
              f" min {min(walls[side]):.2f} s over {len(walls[side])} runs; CPU median "
              f"{statistics.median(cpus[side]):.2f} s, min {min(cpus[side]):.2f} s "
              f"({' '.join(f'{c:.2f}' for c in cpus[side])})")
    by_suite = {}
    for suite in ("rego", "fixtures"):
        results = [r for r in report["results"] if r["suite"] == suite]
        by_suite[suite] = (len(results), sum(r["seconds"] for r in results))
    cases = len({r["name"].split("[")[0] for r in report["results"] if r["suite"] == "fixtures"})
    print(f"  rego unit tests: {by_suite['rego'][0]} tests in {by_suite['rego'][1]:.2f} s")
    print(f"  fixtures: {cases} cases, {by_suite['fixtures'][0]} policy sets in {by_suite['fixtures'][1]:.2f} s")
    print(f"  rule coverage: {len(report['coverage']['produced'])}/{len(report['coverage']['declared'])}")
    return 0


def _reap_descendants() -> bool:
    """Become the reaper of every orphaned descendant (Linux); False where that is not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _wait_orphans(whole: bool) -> None:
    """Wait for every descendant left over (the command's engine children), so their CPU is counted."""
    while whole:
        try:
            os.wait()
        except ChildProcessError:
            return


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    sys.exit(main())
