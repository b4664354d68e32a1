"""Benchmark `gate.decide` in-process (no interpreter start-up), to isolate the decide path itself.

Makes one real git patch with N new source files and its packet, loads the bundle once, then times
`decide` R times with the default policies and with all of them. Prints wall and CPU (user + sys of
this process and of the engine children it reaped): the machine is shared, wall time alone lies.

    python bench/bench_decide.py [--files N] [--runs R]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_gate import POLICIES, make_case, reap_orphans  # noqa: E402 (the bench folder is not a package)

from gatekeeper.gate import decide, resolve_enabled  # noqa: E402
from gatekeeper.policy.bundle import load_bundle  # noqa: E402
from gatekeeper.verify import load_packet  # noqa: E402


def cpu_seconds() -> float:
    """User + system CPU of this process and of its reaped children."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, python {sys.version.split()[0]}")
    bundle = load_bundle(POLICIES)
    with tempfile.TemporaryDirectory(prefix="gatekeeper-bench-") as tmp:
        packet_file, patch = make_case(Path(tmp), "many", args.files)
        packet = load_packet(packet_file)
        for label, enable in (("default policies", ()), ("all policies", tuple(p.name for p in bundle.policies))):
            enabled = resolve_enabled(bundle, enable)
            decide(packet, patch, bundle, enabled)  # warm: imports, the compile check's cache
            reap_orphans()  # engine children that answered but were still exiting: count their CPU
            times, cpu = [], []
            for _ in range(args.runs):
                started, cpu_before = time.perf_counter(), cpu_seconds()
                decision = decide(packet, patch, bundle, enabled)
                reap_orphans()
                times.append(time.perf_counter() - started)
                cpu.append(cpu_seconds() - cpu_before)
            outcome = decision["outcome"] if isinstance(decision, dict) else decision.outcome
            print(f"decide, {args.files} files, {label} ({outcome}): wall median {statistics.median(times):.3f} s "
                  f"(min {min(times):.3f}, max {max(times):.3f}); CPU user+sys median {statistics.median(cpu):.3f} s "
                  f"({args.runs} runs)")


if __name__ == "__main__":
    main()
