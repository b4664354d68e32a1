"""Benchmark the always-on compile check: the one-file `gatekeeper gate`, cold, with and without a cached pass.

"check" runs point XDG_CACHE_HOME at an empty folder, so every gate compiles the enabled modules in
OPA (a forked child, side by side with regopy's); "cached" runs reuse one folder, so the check is a
file lookup. Also times OPA compiling the whole shipped bundle with its tests, in-process.
Target (issue 19): the one-file gate <= 0.3 s cold with the check on, on a 2-core machine.

    python bench/bench_compile_check.py [--runs R] [--enable NAME ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_gate import POLICIES, adopt_orphans, make_case, reap_orphans  # noqa: E402


def time_gate(packet: Path, patch: Path, runs: int, enable: list[str], cache: Path | None,
              cpu: list[float] | None = None) -> list[float]:
    command = [sys.executable, "-m", "gatekeeper", "gate", str(packet), "--patch", str(patch), "--policy",
               str(POLICIES), "--format", "json", *(arg for name in enable for arg in ("--enable", name))]
    times = []
    for _ in range(runs):
        folder = cache or Path(tempfile.mkdtemp(prefix="gk-cache-"))
        env = {**os.environ, "XDG_CACHE_HOME": str(folder)}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, env=env)
        times.append(time.perf_counter() - started)
        reap_orphans()  # the engine children too, so their CPU time counts
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if cpu is not None:
            cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if done.returncode not in (0, 1, 3):
            raise SystemExit(f"gate failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return times


def time_whole_bundle_compile(runs: int) -> list[float]:
    from gatekeeper.policy.bundle import load_bundle
    from gatekeeper.policy.reference import compile_issues

    bundle = load_bundle(POLICIES)
    modules = dict(bundle.modules)
    for path in sorted(POLICIES.rglob("*_test.rego")):
        modules[str(path)] = path.read_text()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        assert compile_issues(modules, bundle.data(), timeout=30) == []
        times.append(time.perf_counter() - started)
    return times


def line(label: str, times: list[float], target: str = "") -> str:
    return (f"{label}: min {min(times):.3f} s, median {statistics.median(times):.3f} s, max {max(times):.3f} s"
            f" ({len(times)} runs){target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--enable", action="append", default=[])
    args = parser.parse_args()
    adopt_orphans()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="gatekeeper-bench-") as tmp:
        root = Path(tmp)
        packet, patch = make_case(root, "one", 1)
        warm = root / "cache"
        time_gate(packet, patch, 1, args.enable, warm)  # fills the cache
        check: list[float] = []
        cached: list[float] = []
        check_cpu: list[float] = []
        cached_cpu: list[float] = []
        for _ in range(args.runs):  # interleaved, so a load spike on the shared machine hits both alike
            check += time_gate(packet, patch, 1, args.enable, None, check_cpu)
            cached += time_gate(packet, patch, 1, args.enable, warm, cached_cpu)
        print(line("gate, 1 file, compile check run (empty cache)", check, " (target 0.3 s)"))
        print(line("  CPU seconds (user+sys, gate and its children)", check_cpu))
        print(line("gate, 1 file, compile check cached", cached, " (target 0.3 s)"))
        print(line("  CPU seconds (user+sys, gate and its children)", cached_cpu))
    print(line("OPA compile of the whole bundle with its tests (child fork + Go start-up)",
               time_whole_bundle_compile(args.runs)))


if __name__ == "__main__":
    main()
