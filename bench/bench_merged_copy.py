"""Benchmark the merged-copy reader (classify/mergedcopy.py): N YAML files that BASE and the change both changed.

Builds a real repository: the merge base holds N settings files (YAML, content candidates); BASE changes each one's
first line, a branch forked before it each one's last line (a clean merge), plus one Go file so the change is not
only those files. Times `classify --tree BASE..HEAD --format json` in a new process each run and reports its CPU time
(user + sys of the process and every git it starts: wall time is noise on a shared machine) and wall time.

    python bench/bench_merged_copy.py [--files N] [--runs R]
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

HERE = Path(__file__).resolve().parent
TAIL = "\n\n\n\n\n"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def make_repo(root: Path, count: int) -> tuple[Path, str, str]:
    repo = root / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "bench@example.invalid")
    git(repo, "config", "user.name", "bench")
    (repo / "README.md").write_text("# bench\n")

    def write_all(first: str, last: str) -> None:
        for i in range(count):
            folder = repo / "conf" / f"set{i % 100}"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"file{i}.yaml").write_text(f"{first}name: s{i}\nport: {i}{TAIL}{last}\n")

    write_all("# start", "# end")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    start = git(repo, "rev-parse", "HEAD")
    write_all("# start", "# end changed by the branch")
    (repo / "main.go").write_text("package main\n\nfunc main() {}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "branch")
    head = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "-b", "target", start)
    write_all("# start changed by BASE", "# end")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    return repo, base, head


def run_once(repo: Path, base: str, head: str) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gatekeeper", "classify", "--tree", f"{base}..{head}", "--repo",
                           str(repo), "--format", "json", "--policy", str(HERE.parent / "policies")], env=env,
                          capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"classify failed ({done.returncode}): {done.stderr.decode()[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-merged-") as tmp:
        repo, base, head = make_repo(Path(tmp), args.files)
        runs = [run_once(repo, base, head) for _ in range(args.runs)]
    cpu = statistics.median(r[0] for r in runs)
    wall = statistics.median(r[1] for r in runs)
    print(f"classify --tree, {args.files} files both sides changed: median CPU {cpu:.2f} s (user+sys, with git), "
          f"wall {wall:.2f} s, {args.runs} runs")


if __name__ == "__main__":
    main()
