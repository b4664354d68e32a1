"""Benchmark `gatekeeper gate` through the CLI, cold (a new process each run, start-up included).

Makes real git patches in a temporary folder: one with 10,000 new source files, one with a single
file; builds their packets with `gatekeeper packet`, then times `gatekeeper gate` on each.
Targets (issue 4): 10,000 files <= 1.5 s, one file <= 0.3 s, on a 2-core machine.

    python bench/bench_gate.py [--files N] [--runs R] [--enable NAME ...] [--timeout S]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
POLICIES = REPO / "policies"
GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@e.invalid", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@e.invalid", "GIT_CONFIG_NOSYSTEM": "1"}


def git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True, capture_output=True).stdout


def make_case(root: Path, name: str, count: int) -> tuple[Path, Path]:
    repo = root / name
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "commit", "-q", "--allow-empty", "-m", "base")
    for i in range(count):
        folder = repo / "src" / f"pkg{i % 100}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"file{i}.go").write_text(
            f"package pkg{i % 100}\n\n// F{i} is generated.\nfunc F{i}() int {{ return {i} }}\n"
        )
    git(repo, "add", "-A")
    patch, packet = root / f"{name}.diff", root / f"{name}.json"
    patch.write_bytes(git(repo, "diff", "--cached", "--binary"))
    subprocess.run(
        [sys.executable, "-m", "gatekeeper", "packet", str(patch), "--out", str(packet), "--policy", str(POLICIES)],
        check=True,
        capture_output=True,
    )
    return packet, patch


def compile_bytecode(checkout: Path = REPO) -> None:
    """Write `checkout`'s package .pyc files first, as an installed gatekeeper has them (pip compiles on install).

    Where PYTHONDONTWRITEBYTECODE is set (this VM sets it), every cold run would otherwise compile each
    module it imports from source again: ~0.2 s of CPU per gate that no installed copy spends.
    """
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "gatekeeper")], check=True,
                   capture_output=True, env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})


def adopt_orphans() -> None:
    """Become the subreaper of our descendants, so the gate's engine child is reaped (and measured) here.

    The gate does not wait for its engine child to finish exiting; without this, the child's peak
    memory would be lost to init and missing from the numbers below.
    """
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER


def reap_orphans() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, 0)
        except ChildProcessError:
            return
        if not pid:
            return


def peak_rss_mb() -> float:
    """The largest resident set of any process this benchmark has reaped so far (gate or engine child)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def children_cpu() -> float:
    """User + system CPU seconds of every reaped descendant so far (the machine is shared: wall time lies)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_gate(packet: Path, patch: Path, runs: int, enable: list[str], timeout: float | None = None
              ) -> tuple[list[float], list[float]]:
    command = [
        sys.executable,
        "-m",
        "gatekeeper",
        "gate",
        str(packet),
        "--patch",
        str(patch),
        "--policy",
        str(POLICIES),
        "--format",
        "json",
        *(arg for name in enable for arg in ("--enable", name)),
        *(("--timeout", str(timeout)) if timeout is not None else ()),
    ]
    times, cpu = [], []
    for _ in range(runs):
        started, cpu_before = time.perf_counter(), children_cpu()
        done = subprocess.run(command, capture_output=True)
        times.append(time.perf_counter() - started)
        reap_orphans()
        cpu.append(children_cpu() - cpu_before)
        if done.returncode not in (0, 1, 3):
            raise SystemExit(f"gate failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return times, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--enable", action="append", default=[])
    parser.add_argument("--timeout", type=float, help="the gate's --timeout (a loaded machine needs more than 10 s)")
    args = parser.parse_args()
    adopt_orphans()
    compile_bytecode()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="gatekeeper-bench-") as tmp:
        root = Path(tmp)
        for name, count, target in (("one", 1, 0.3), ("many", args.files, 1.5)):
            packet, patch = make_case(root, name, count)
            times, cpu = time_gate(packet, patch, args.runs, args.enable, args.timeout)
            print(f"gate, {count:>6} file(s), {patch.stat().st_size:>9} patch bytes: "
                  f"min {min(times):.3f} s, median {statistics.median(times):.3f} s, max {max(times):.3f} s "
                  f"(target {target} s, {args.runs} cold runs); CPU user+sys median {statistics.median(cpu):.3f} s; "
                  f"peak RSS so far {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
