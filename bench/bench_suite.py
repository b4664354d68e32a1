"""Where `make test`'s CPU goes: per test file, per test, and per program the tests start.

Runs the suite as `make pytest` does (two workers) with this file loaded as a pytest plugin, then prints
CPU seconds (user + sys), because on a 2-core machine CPU is what bounds the wall time (issue 13):

- per test: the worker's own CPU during the test, and its waited-for children's (subprocesses and the
  engine's forked children: RUSAGE_CHILDREN);
- per program: every subprocess a test started, by what it ran (`git commit`, `python -m gatekeeper`,
  `bash`, ...), with its own rusage (`os.wait4`);
- per file: the forks its tests made in the worker (`os.fork`: the engine's children of an in-process gate,
  `run_isolated`, tests/forkcli.py) and the worker's minor page faults. A fork of a ~160 MB worker costs the
  worker ~3 ms more than one of a ~30 MB gate process (its page tables copied, then a write fault on every page it
  touches again), and the child its copies: the faults of a file that forks are mostly that.

    python bench/bench_suite.py [--top N] [--save FILE] [PYTEST ARGS ...]
    python bench/bench_suite.py --report FILE    (the report of a saved run again)

Extra arguments go to pytest (e.g. a test file). `make bench` runs it too: it takes as long as the suite
(~5 min on 2 idle cores).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
_OUT = "GATEKEEPER_BENCH_SUITE_OUT"
_tests: list[tuple[str, float, float, float, int, int]] = []
_spawns: list[tuple[str, float, str]] = []
_forks = [0]


# --- the plugin (loaded into each pytest worker with -p bench_suite) ---------------------------------


def _cpu() -> tuple[float, float, int]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime, own.ru_minflt


_REAL_FORK = os.fork


def _counted_fork() -> int:
    _forks[0] += 1
    return _REAL_FORK()


def program(args: Any) -> str:
    """What a subprocess ran, in a few words: `git commit`, `python -m gatekeeper`, `bash --noprofile`."""
    argv = [os.fsdecode(args)] if isinstance(args, str | bytes) else [os.fsdecode(a) for a in args]
    name = os.path.basename(argv[0])
    if name == "git":
        rest = iter(argv[1:])
        for arg in rest:
            if arg in ("-C", "-c"):
                next(rest, None)
            elif not arg.startswith("-"):
                return f"git {arg}"
        return "git"
    if name.startswith("python"):
        words = [a for a in argv[1:3] if a != "-I"]
        if words[:1] == ["-c"]:
            return "python -c"
        return " ".join(["python", *words])[:60]
    return " ".join([name, *argv[1:2]])[:60]


def _try_wait(self: subprocess.Popen[Any], wait_flags: int) -> tuple[int, int]:
    # Popen's own wait, with the child's rusage (os.wait4) recorded.
    try:
        pid, status, usage = os.wait4(self.pid, wait_flags)
    except ChildProcessError:
        return self.pid, 0
    if pid == self.pid:
        test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
        _spawns.append((program(self.args), usage.ru_utime + usage.ru_stime, test))
    return pid, status


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get(_OUT):
        subprocess.Popen._try_wait = _try_wait  # type: ignore[assignment,method-assign]
        os.fork = _counted_fork  # subprocess starts programs by vfork/posix_spawn, not os.fork: not counted


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    own, children, faults = _cpu()
    forks = _forks[0]
    began = time.perf_counter()
    yield
    own2, children2, faults2 = _cpu()
    _tests.append((item.nodeid, own2 - own, children2 - children, time.perf_counter() - began, _forks[0] - forks,
                   faults2 - faults))


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get(_OUT)
    if folder and _tests:  # not xdist's controller, which runs no test
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        Path(folder, f"{worker}.json").write_text(json.dumps({"tests": _tests, "spawns": _spawns}))


# --- the benchmark ---------------------------------------------------------------------------------


def report(folder: Path, top: int) -> None:
    tests: list[list[Any]] = []
    spawns: list[list[Any]] = []
    for part in folder.glob("*.json"):
        data = json.loads(part.read_text())
        tests += data["tests"]
        spawns += data["spawns"]
    own = sum(t[1] for t in tests)
    children = sum(t[2] for t in tests)
    print(f"{len(tests)} tests: {own + children:.1f} CPU-s in tests ({own:.1f} in the workers, {children:.1f} in "
          f"their children)")
    forks, faults = sum(t[4] for t in tests), sum(t[5] for t in tests)
    forking = sum(t[5] for t in tests if t[4])
    print(f"{forks} forks in the workers; {faults} minor page faults in them, {forking} in the tests that forked")
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0, 0, 0])
    for nodeid, o, c, _, f, m in tests:
        row = files[nodeid.split("::")[0]]
        row[0] += o
        row[1] += c
        row[2] += 1
        row[3] += f
        row[4] += m
    print(f"\nper file (top {top}): CPU-s = own + children, tests, forks, the worker's minor faults (thousands)")
    for name, (o, c, n, f, m) in sorted(files.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:top]:
        print(f"  {o + c:7.1f} = {o:6.1f} + {c:6.1f}  {int(n):5d} {int(f):5d} {m / 1000:7.0f}  {name}")
    print(f"\nper test (top {top})")
    for nodeid, o, c, wall, _, _ in sorted(tests, key=lambda t: -(t[1] + t[2]))[:top]:
        print(f"  {o + c:7.2f} CPU-s {wall:6.1f} s wall  {nodeid[:110]}")
    programs: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0])
    for name, cpu, _ in spawns:
        programs[name][0] += cpu
        programs[name][1] += 1
    print(f"\nsubprocesses by program (top {top}): CPU-s, count, CPU-s each")
    for name, (cpu, n) in sorted(programs.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"  {cpu:7.1f} {int(n):6d} {cpu / n:6.3f}  {name}")
    print("\nwhere the costliest programs ran (top files each)")
    for name, _ in sorted(programs.items(), key=lambda kv: -kv[1][0])[:8]:
        by_file: collections.Counter[str] = collections.Counter()
        for program_name, cpu, test in spawns:
            if program_name == name:
                by_file[test.split("::")[0] or "(outside a test)"] += cpu
        print(f"  {name}: " + ", ".join(f"{f} {c:.1f}" for f, c in by_file.most_common(5)))
    patterns(tests, spawns)
    sizes = collections.Counter()
    for _, o, c, _, _, _ in tests:
        total = o + c
        sizes["< 0.05 s" if total < 0.05 else "< 0.2 s" if total < 0.2 else "< 1 s" if total < 1 else ">= 1 s"] += total
    print("\nCPU-s by test size: " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(sizes.items())))


def _kind(name: str) -> str:
    """The pattern a subprocess belongs to (issue 13's census: what the CPU is spent on, across files)."""
    for prefix, kind in (("git", "git (the gate's own and the tests')"), ("python -m gatekeeper", "cold CLI"),
                         ("python -c", "python -c (servers, probes)"), ("python -m pytest", "nested pytest"),
                         ("python", "other python"), ("bash", "shells"), ("sh ", "shells")):
        if name.startswith(prefix):
            return kind
    return "other programs"


# a test whose name says it bounds a reader's cost on hostile or large input (tests/cpucost.py and its kin)
_COST_TEST = re.compile(r"linear|hostile|bound|cost|quick|cheap|budget|time|redos|large|huge|mib", re.IGNORECASE)


def patterns(tests: list[list[Any]], spawns: list[list[Any]]) -> None:
    """CPU-s by what it is spent on across all files: each kind of subprocess, the forked children (a test's children
    CPU no waited subprocess accounts for: the engine's evaluations, isolated runs), the workers' own CPU, and of
    that the reader-cost tests."""
    kinds: dict[str, list[Any]] = collections.defaultdict(lambda: [0.0, 0, set()])
    spawned: collections.Counter[str] = collections.Counter()
    for name, cpu, test in spawns:
        row = kinds[_kind(name)]
        row[0] += cpu
        row[1] += 1
        row[2].add(test)
        spawned[test] += cpu
    forked = [(t[0], t[2] - spawned[t[0]], t[4]) for t in tests if t[2] - spawned[t[0]] > 0.01 or t[4]]
    kinds["forked children (by difference)"] = [sum(max(c, 0.0) for _, c, _ in forked), sum(f for _, _, f in forked),
                                                {n for n, _, _ in forked}]
    kinds["the workers' own CPU"] = [sum(t[1] for t in tests), len(tests), {t[0] for t in tests}]
    costly = [t for t in tests if _COST_TEST.search(t[0].partition("::")[2])]
    kinds["  of it: reader-cost tests (by name)"] = [sum(t[1] + t[2] for t in costly), len(costly),
                                                     {t[0] for t in costly}]
    print("\nby pattern: CPU-s, count (processes, forks or tests), tests")
    for name, (cpu, n, where) in sorted(kinds.items(), key=lambda kv: -kv[1][0]):
        print(f"  {cpu:7.1f} {int(n):6d} {len(where):5d}  {name}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--save", type=Path, help="also write the raw per-test and per-program records (JSON) here")
    parser.add_argument("--report", type=Path, help="print the report of a run --save wrote, without running")
    args, extra = parser.parse_known_args(argv)
    if args.report:
        saved = json.loads(args.report.read_text())
        with tempfile.TemporaryDirectory(prefix="bench-suite-") as folder:
            Path(folder, "saved.json").write_text(json.dumps(saved))
            report(Path(folder), args.top)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-suite-") as folder:
        env = {**os.environ, _OUT: folder, "PYTHONPATH": os.pathsep.join(filter(None, [
            str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "worksteal", "-q",
                               "-p", "bench_suite", "-p", "no:cacheprovider", *extra], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, check=False)
        wall = time.perf_counter() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        load = os.getloadavg()[0]
        print(f"pytest exit {done.returncode}: {wall:.0f} s wall, {cpu:.0f} CPU-s in all (load {load:.1f})")
        report(Path(folder), args.top)
        if args.save:
            parts = [json.loads(part.read_text()) for part in Path(folder).glob("*.json")]
            args.save.write_text(json.dumps({"tests": [t for p in parts for t in p["tests"]],
                                             "spawns": [s for p in parts for s in p["spawns"]]}))
    return 0 if done.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
