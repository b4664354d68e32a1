"""Benchmark: `gatekeeper test` on the shipped bundle and fixtures (wall and CPU time through the CLI, per-suite split).

CPU is user+sys of the process and the children it waited for: on a shared, loaded machine it is the
number to compare, wall time is not.

Run: .venv/bin/python bench/bench_test_cmd.py [--repeat N]
Target: the whole run (Rego unit tests + every fixture case + coverage) in a few seconds on 2 cores.
"""

from __future__ import annotations

import argparse
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
GATEKEEPER = Path(sys.executable).with_name("gatekeeper")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    walls: list[float] = []
    cpus: list[float] = []
    report: dict = {}
    for _ in range(args.repeat):
        started, cpu_before = time.perf_counter(), _children_cpu()
        done = subprocess.run(
            [str(GATEKEEPER), "test", "--policy", "policies", "--fixtures", "fixtures", "--format", "json"],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )
        walls.append(time.perf_counter() - started)
        cpus.append(_children_cpu() - cpu_before)
        if done.returncode != 0:
            print(f"gatekeeper test exited {done.returncode}: {done.stderr.strip()}", file=sys.stderr)
            return 1
        report = json.loads(done.stdout)
    by_suite = {}
    for suite in ("rego", "fixtures"):
        results = [r for r in report["results"] if r["suite"] == suite]
        by_suite[suite] = (len(results), sum(r["seconds"] for r in results))
    cases = len({r["name"].split("[")[0] for r in report["results"] if r["suite"] == "fixtures"})
    print(f"machine: {platform.machine()} {os.cpu_count()} cpus, python {platform.python_version()}")
    print(f"gatekeeper test (CLI, process start included): median {statistics.median(walls):.2f} s, "
          f"min {min(walls):.2f} s over {len(walls)} runs; CPU median {statistics.median(cpus):.2f} s, "
          f"min {min(cpus):.2f} s")
    print(f"  rego unit tests: {by_suite['rego'][0]} tests in {by_suite['rego'][1]:.2f} s")
    print(f"  fixtures: {cases} cases, {by_suite['fixtures'][0]} policy sets in {by_suite['fixtures'][1]:.2f} s")
    print(f"  rule coverage: {len(report['coverage']['produced'])}/{len(report['coverage']['declared'])}")
    return 0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    sys.exit(main())
