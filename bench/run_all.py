"""Run every benchmark in bench/ with its default (not huge) settings and print what each prints.

Standalone: `python bench/run_all.py [NAME ...]` (names without `.py`; default: all); asserts nothing.
Exits 1 when a benchmark failed, after running the others.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def scripts(names: list[str]) -> list[Path]:
    """The benchmark scripts to run: the named ones, else every script here but this one."""
    found = sorted(p for p in BENCH.glob("*.py") if p.name != Path(__file__).name)
    if not names:
        return found
    by_name = {p.stem: p for p in found}
    missing = [n for n in names if n not in by_name]
    if missing:
        raise SystemExit(f"run_all: no such benchmark: {', '.join(missing)} (have: {', '.join(sorted(by_name))})")
    return [by_name[n] for n in names]


def main(argv: list[str]) -> int:
    failed = []
    for script in scripts(argv):
        print(f"== {script.name}", flush=True)
        began = time.perf_counter()
        # Each benchmark in its own interpreter: start-up and caches of one never flatter the next.
        done = subprocess.run([sys.executable, str(script)], cwd=BENCH.parent, check=False)
        print(f"== {script.name}: exit {done.returncode} after {time.perf_counter() - began:.1f} s\n", flush=True)
        if done.returncode != 0:
            failed.append(script.name)
    if failed:
        print(f"run_all: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
