"""The CPU on the critical path of one cold 10,000-file gate: what a loaded machine's wall time hides.

`gate` forks the engine child once the files' part of the policy input is built; the child takes the files in
(regopy's input builder) while the parent reads the packet, compares the claims, computes the dependency delta and
the digests, then sends the rest. On an idle 2-core machine the wall time is about

    start-up + parent CPU up to the fork + max(child CPU, parent CPU beside it) + parent CPU after the answer

and each term can be measured under load, where the wall time cannot (the shared VM's load of 5-15 doubles it).
Each run is a fresh interpreter running `gatekeeper.cli.main` in-process with `os.fork` and the child's exit
observed (thread CPU, not wall). `--against DIR` interleaves another checkout (its package and policies), in
alternating order, on the same bench repository as bench_deps_gate.py.

    python bench/bench_gate_path.py [--runs R] [--tree] [--sources-only] [--against DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
FIELDS = ("to_fork", "child", "beside", "after", "path")


def probe(argv: list[str], out: Path) -> None:
    """In the probed interpreter: run the gate, write the five numbers (ms) to `out`."""
    started = time.thread_time()
    import gatekeeper.cli  # noqa: PLC0415  # the probed checkout's, after the clock starts (imports count)
    import gatekeeper.policy.isolate as isolate  # noqa: PLC0415

    checkout = Path(os.environ["PYTHONPATH"]).resolve()
    if not Path(gatekeeper.cli.__file__).resolve().is_relative_to(checkout):
        raise SystemExit(f"probe: gatekeeper imported from {gatekeeper.cli.__file__}, not from {checkout}")

    marks: dict[str, float] = {}
    real_fork, real_child, real_collect = os.fork, isolate._child, isolate._collect
    report = out.with_suffix(".child")

    def fork() -> int:
        marks["fork"] = time.thread_time() - started
        pid = real_fork()
        if pid == 0:
            marks["child"] = time.process_time()
        marks["pid"] = pid
        return pid

    def child(*args: object) -> None:
        real_exit = os._exit

        def leave(code: int) -> None:
            report.write_text(f"{(time.process_time() - marks['child']) * 1000:.1f}")
            real_exit(code)

        os._exit = leave  # type: ignore[assignment]
        real_child(*args)  # type: ignore[arg-type]

    def collect(*args: object) -> object:
        marks["wait"] = time.thread_time() - started
        try:
            return real_collect(*args)  # type: ignore[arg-type]
        finally:
            marks["answer"] = time.thread_time() - started

    os.fork, isolate._child, isolate._collect = fork, child, collect  # type: ignore[assignment]
    with contextlib.redirect_stdout(io.StringIO()):
        gatekeeper.cli.main(argv)
    end = time.thread_time() - started
    to_fork, beside, after = marks["fork"], marks["wait"] - marks["fork"], end - marks["answer"]
    with contextlib.suppress(ChildProcessError):  # the child writes its CPU time as it exits, after its answer
        os.waitpid(int(marks["pid"]), 0)
    child_ms = float(report.read_text())
    numbers = [to_fork * 1000, child_ms, beside * 1000, after * 1000]
    numbers.append(numbers[0] + max(numbers[1], numbers[2]) + numbers[3])
    out.write_text(" ".join(f"{n:.1f}" for n in numbers))


def run(code: Path, argv: list[str], scratch: Path) -> list[float]:
    out = scratch / "probe.txt"
    subprocess.run([sys.executable, __file__, "--probe", str(out), "--", *argv], check=True, cwd=scratch,
                   env={**os.environ, "PYTHONPATH": str(code)})
    return [float(n) for n in out.read_text().split()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--tree", action="store_true", help="gate with --tree BASE..HEAD")
    parser.add_argument("--sources-only", action="store_true", help="the change of source files only")
    parser.add_argument("--against", type=Path, help="another checkout to interleave every run with (A/B)")
    parser.add_argument("--probe", type=Path, help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args()
    if args.probe is not None:
        probe([a for a in rest if a != "--"], args.probe)
        return
    # Here, not at the top: bench_deps puts this checkout's package first on the path, and a probe must import the
    # package of the checkout it measures.
    sys.path.insert(0, str(BENCH))
    from bench_deps import build, git  # noqa: PLC0415
    with tempfile.TemporaryDirectory(prefix="gatekeeper-bench-") as tmp:
        root = Path(tmp)
        repo, base, sources_only, head = build(root, args.files, 2_000)
        target = sources_only if args.sources_only else head
        patch, packet = root / "change.diff", root / "packet.json"
        patch.write_bytes(git(repo, "diff", "--binary", base, target))
        subprocess.run([sys.executable, "-m", "gatekeeper", "packet", str(patch), "--out", str(packet), "--policy",
                        str(REPO / "policies")], check=True, capture_output=True, env={**os.environ, "PYTHONPATH":
                                                                                        str(REPO)})
        sides = {"this": REPO, **({"against": args.against.resolve()} if args.against else {})}
        seen: dict[str, list[list[float]]] = {side: [] for side in sides}
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
        for number in range(args.runs):
            for side in list(sides)[:: 1 if number % 2 == 0 else -1]:
                code = sides[side]
                argv = ["gate", str(packet), "--patch", str(patch), "--policy", str(code / "policies"), "--format",
                        "json", "--enable", "deps", "--timeout", "60"]
                if args.tree:
                    argv += ["--tree", f"{base}..{target}", "--repo", str(repo)]
                seen[side].append(run(code, argv, root))
        for side, runs in seen.items():
            medians = [statistics.median(r[i] for r in runs) for i in range(len(FIELDS))]
            shown = ", ".join(f"{name} {value:.0f}" for name, value in zip(FIELDS, medians, strict=True))
            print(f"{side:<7} CPU ms, medians of {args.runs} cold runs: {shown} (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
