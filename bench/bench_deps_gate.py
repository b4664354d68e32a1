"""Benchmark `gatekeeper gate` with the dependency delta on, cold through the CLI, on a 10,000-file change.

Builds bench_deps.py's repository (20,000 files at BASE; HEAD changes 10,000 source files, a
2,000-package package-lock.json, go.mod, go.sum, requirements.txt, a Dockerfile and adds a workflow),
makes the patch and its packet with real git and `gatekeeper packet`, then times `gatekeeper gate
--enable deps` from the patch alone and with `--tree BASE..HEAD`, and the same for a 10,000-file
change of source files only. Target (issue 14): <= 1.5 s on a 2-core machine.

    python bench/bench_deps_gate.py [--files N] [--runs R] [--python PY]

`--python` runs another checkout's interpreter on the same cases (an A/B against main).
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
from bench_deps import build, git  # noqa: E402
from bench_gate import adopt_orphans, compile_bytecode, reap_orphans  # noqa: E402

POLICIES = Path(__file__).resolve().parent.parent / "policies"


def gate(python: str, packet: Path, patch: Path, *extra: str) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + sys of the gate and its descendants, the engine child it does not wait
    for included: this process adopts and reaps it) and its output."""
    command = [python, "-m", "gatekeeper", "gate", str(packet), "--patch", str(patch), "--policy", str(POLICIES),
               "--format", "json", "--enable", "deps", "--timeout", "60", *extra]  # a loaded machine: no 10 s cut
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True)
    took = time.perf_counter() - started
    reap_orphans()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode not in (0, 1, 3):
        raise SystemExit(f"gate failed ({done.returncode}): {done.stderr.decode(errors='replace')[:500]}")
    return took, cpu, done.stdout.decode()


def added_cost(repo: Path, start: str, target: str, patch: Path, runs: int) -> str:
    """What the delta adds to one gate, in-process: from_patch, and from_tree plus every file's facts
    (the TreeContext itself is the gate's anyway). CPU seconds are what a loaded machine distorts least."""
    from gatekeeper.classify.treecontext import TreeContext
    from gatekeeper.deps.gateinput import from_patch, from_tree
    from gatekeeper.policy.bundle import load_bundle
    from gatekeeper.revrange import resolve_range

    rules = load_bundle(POLICIES).rules
    out = []
    with TreeContext(resolve_range(f"{start}..{target}", repo), rules) as context:
        changes = context.changes()
        for mode in ("patch", "--tree"):
            wall, cpu = [], []
            for _ in range(runs):
                w, c = time.perf_counter(), time.process_time()
                if mode == "patch":
                    deps = from_patch(patch, None)
                else:
                    deps = from_tree(context, None)
                for change in changes:
                    deps.facts_of(change)
                wall.append(time.perf_counter() - w)
                cpu.append(time.process_time() - c)
            median_wall, median_cpu = statistics.median(wall) * 1000, statistics.median(cpu) * 1000
            out.append(f"{mode} wall {median_wall:.0f} ms / cpu {median_cpu:.0f} ms")
    return "; ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--no-cli", action="store_true", help="only the in-process cost of the delta")
    args = parser.parse_args()
    adopt_orphans()
    compile_bytecode()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, python {args.python}")
    with tempfile.TemporaryDirectory(prefix="gatekeeper-bench-") as tmp:
        root = Path(tmp)
        repo, base, sources_only, head = build(root, args.files, 2_000)
        for label, target in (("deps", head), ("sources only", sources_only)):
            start = base
            patch = root / f"{label}.diff"
            patch.write_bytes(git(repo, "diff", "--binary", start, target))
            packet = root / f"{label}.json"
            subprocess.run([args.python, "-m", "gatekeeper", "packet", str(patch), "--out", str(packet),
                            "--policy", str(POLICIES)], check=True, capture_output=True)
            if args.python == sys.executable:
                print(f"delta added in-process, {label}: {added_cost(repo, start, target, patch, args.runs)}")
            tree = ("--tree", f"{start}..{target}", "--repo", str(repo))
            for mode, extra in () if args.no_cli else (("patch", ()), ("--tree", tree)):
                times, cpus = [], []
                out = ""
                for _ in range(args.runs):
                    took, cpu, out = gate(args.python, packet, patch, *extra)
                    times.append(took)
                    cpus.append(cpu)
                moved = out.count('"change":')
                print(f"gate {label:<12} {mode:<6} {patch.stat().st_size:>9} patch bytes, {moved:>4} changes: "
                      f"wall min {min(times):.3f} s, median {statistics.median(times):.3f} s; "
                      f"cpu (user+sys) min {min(cpus):.3f} s, median {statistics.median(cpus):.3f} s "
                      f"({args.runs} cold runs, load {os.getloadavg()[0]:.1f}, target 1.5 s)")


if __name__ == "__main__":
    main()
