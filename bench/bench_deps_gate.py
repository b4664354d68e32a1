"""Benchmark `gatekeeper gate` with the dependency delta on, cold through the CLI, on a 10,000-file change.

Builds bench_deps.py's repository (20,000 files at BASE; HEAD changes 10,000 source files, a
2,000-package package-lock.json, go.mod, go.sum, requirements.txt, a Dockerfile and adds a workflow),
makes the patch and its packet with real git and `gatekeeper packet`, then times `gatekeeper gate
--enable deps` from the patch alone and with `--tree BASE..HEAD`, and the same for a 10,000-file
change of source files only. Target (issue 14): <= 1.5 s on a 2-core machine.

    python bench/bench_deps_gate.py [--files N] [--runs R] [--python PY] [--against DIR]

`--python` runs another interpreter on the same cases. `--against DIR` is an A/B against another checkout (its
package and its policies, e.g. a `git worktree` of main): each run of this checkout's gate is followed by the same
command on DIR's code, in alternating order, so both see the same load (the shared VM varies 15-30 % from one run
to the next); both medians are printed, with whether every run of the two decided alike (outcome and findings).
"""

from __future__ import annotations

import argparse
import json
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
from bench_gate import REPO, adopt_orphans, compile_bytecode, reap_orphans  # noqa: E402

POLICIES = Path(__file__).resolve().parent.parent / "policies"


def gate(python: str, packet: Path, patch: Path, *extra: str, code: Path | None = None) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + sys of the gate and its descendants, the engine child it does not wait
    for included: this process adopts and reaps it) and its output. `code`: another checkout's package and policies."""
    policies = POLICIES if code is None else code / "policies"
    command = [python, "-m", "gatekeeper", "gate", str(packet), "--patch", str(patch), "--policy", str(policies),
               "--format", "json", "--enable", "deps", "--timeout", "60", *extra]  # a loaded machine: no 10 s cut
    env = None if code is None else {**os.environ, "PYTHONPATH": str(code)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, env=env, cwd=None if code is None else packet.parent)
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
                deps.to_input()  # under --tree the delta is computed at its first use
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
    parser.add_argument("--against", type=Path, help="another checkout to interleave every run with (A/B)")
    args = parser.parse_args()
    adopt_orphans()
    compile_bytecode()
    if args.against:
        compile_bytecode(args.against)
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
                sides: dict[str, tuple[list[float], list[float], set[tuple[str, str]]]] = {}
                out = ""
                for run in range(args.runs):
                    for side in ("this", "against")[:: 1 if run % 2 == 0 else -1] if args.against else ("this",):
                        code = (args.against if side == "against" else REPO).resolve() if args.against else None
                        took, cpu, out = gate(args.python, packet, patch, *extra, code=code)
                        times, cpus, decided = sides.setdefault(side, ([], [], set()))
                        times.append(took)
                        cpus.append(cpu)
                        doc = json.loads(out)
                        # The decision, not the input's digest: a checkout may hand policies a smaller input.
                        decided.add((doc["outcome"], json.dumps(doc["reasons"], sort_keys=True)))
                moved = out.count('"change":')
                for side, (times, cpus, _decided) in sides.items():
                    print(f"gate {label:<12} {mode:<6} {side:<7} {patch.stat().st_size:>9} patch bytes, {moved:>4} "
                          f"changes: wall min {min(times):.3f} s, median {statistics.median(times):.3f} s; "
                          f"cpu (user+sys) min {min(cpus):.3f} s, median {statistics.median(cpus):.3f} s "
                          f"({args.runs} cold runs, load {os.getloadavg()[0]:.1f}, target 1.5 s)")
                if args.against:
                    alike = len(sides["this"][2] | sides["against"][2]) == 1
                    print(f"  the two checkouts decided {'alike' if alike else 'DIFFERENTLY'} on every run")


if __name__ == "__main__":
    main()
