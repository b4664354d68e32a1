"""Benchmark: the CPU seconds of `gatekeeper classify --tree` per repository of the label sets (cost round 40).

Run: nice -n 10 .venv/bin/python bench/bench_tree_cost.py [--labels FILE]... [--repo OWNER/NAME]... [--top N]
     [--cpu-limit S] [--out FILE] [--source DIR] [--mirror DIR]

A gate that takes minutes on one repository is a CI outage, and an agent can shape a repository's files (perf 38:
redux-toolkit's minified bundles cost 200 CPU-s in one unanchored pattern). This runs the bench's own `--mode tree`
call (bench_classify_accuracy: the labelled commit's tree over the empty tree, in a scratch repository borrowing the
mirror's objects) once per distinct repository and commit of every set whose mirror holds it, largest tree first, and
prints the slowest `--top` with the tree's files, bytes and largest blob. The CPU is the child's user + system seconds
(`RUSAGE_CHILDREN`), not wall time: other jobs share the machine. A run past `--cpu-limit` is killed (RLIMIT_CPU) and
listed as `>LIMIT`. `--out` appends one tab-separated row per repository as it is measured, and a second run with the
same `--out` skips the rows already there (the full sweep is long; resume it).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_classify_accuracy as accuracy  # noqa: E402  (a sibling script, not a package)

SETS = Path(__file__).resolve().parent / "classify_accuracy"


def tree_size(git_dir: Path, commit: str) -> tuple[int, int, int]:
    """The files, total bytes and largest blob's bytes of `commit`'s tree (a blob the mirror lacks counts 0)."""
    files = total = largest = 0
    for line in accuracy.git(git_dir, "ls-tree", "-r", "-l", "-z", commit).split(b"\0"):
        fields = line.split(b"\t", 1)[0].split()
        if len(fields) == 4 and fields[1] == b"blob":
            size = int(fields[3]) if fields[3].isdigit() else 0
            files, total, largest = files + 1, total + size, max(largest, size)
    return files, total, largest


def classify_cpu(git_dir: Path, commit: str, source: Path, policy: Path, limit: int) -> tuple[float, str]:
    """The user + system CPU seconds of one `classify --tree` run, and "ok", "killed" or its exit code."""
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))

    with tempfile.TemporaryDirectory(prefix="gk-treecost-") as tmp:
        work = Path(tmp)
        repo, base, head = accuracy.scratch_history(git_dir, commit, work)
        cmd = [sys.executable, "-m", "gatekeeper", "classify", "--tree", f"{base}..{head}", "--repo", str(repo),
               "--policy", str(policy), "--format", "json"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(cmd, cwd=work, capture_output=True, check=False, env=accuracy.source_env(source),
                              preexec_fn=limited)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    status = "ok" if done.returncode == 0 else "killed" if done.returncode < 0 else f"exit {done.returncode}"
    return cpu, status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, action="append", help="a label set (default: every set)")
    parser.add_argument("--mirror", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--source", type=Path, default=accuracy.REPO_ROOT)
    parser.add_argument("--repo", action="append", help="only this repository (OWNER/NAME; repeatable)")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--cpu-limit", type=int, default=120, help="CPU seconds per run before it is killed")
    parser.add_argument("--out", type=Path, help="append a row per repository here; skip the rows already there")
    args = parser.parse_args()

    source = args.source.resolve()
    policy = (source / "policies").resolve()
    pairs: set[tuple[str, str]] = set()
    for labels in args.labels or sorted(SETS.glob("*.tsv")):
        pairs |= {(label.repo, label.commit) for label in accuracy.read_labels(labels)
                  if not args.repo or label.repo in args.repo}
    done: dict[tuple[str, str], list[str]] = {}
    if args.out and args.out.exists():
        for line in args.out.read_text(encoding="utf-8").splitlines():
            fields = line.split("\t")
            done[(fields[0], fields[1])] = fields
    sized = []
    for repo, commit in sorted(pairs):
        git_dir = accuracy.mirror_dir(args.mirror, repo)
        if (repo, commit) in done or not git_dir.is_dir():
            continue
        try:
            sized.append((tree_size(git_dir, commit), repo, commit, git_dir))
        except RuntimeError:
            continue  # the commit is not in the mirror
    for (files, total, largest), repo, commit, git_dir in sorted(sized, reverse=True):
        cpu, status = classify_cpu(git_dir, commit, source, policy, args.cpu_limit)
        row = [repo, commit, f"{cpu:.2f}", status, str(files), str(total), str(largest)]
        done[(repo, commit)] = row
        print("\t".join(row), flush=True)
        if args.out:
            with args.out.open("a", encoding="utf-8") as out:
                out.write("\t".join(row) + "\n")
    print(f"\nslowest {args.top} of {len(done)} (CPU-s user+sys, files, bytes, largest blob):")
    for row in sorted(done.values(), key=lambda r: -float(r[2]))[:args.top]:
        print(f"{row[2]:>8}  {row[3]:<7} {row[4]:>6} {row[5]:>11} {row[6]:>10}  {row[0]}@{row[1][:12]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
