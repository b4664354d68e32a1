"""Benchmark: packet for a 10,000-file ~5 MB git patch (time, peak RSS), and optionally a 1 GB patch parse (--huge).

Run: .venv/bin/python bench/bench_packet.py [--huge] [--repeat N]
Everything it makes lives under bench/out/ (git-ignored) and is reused on the next run.
Targets: packet for the 10k-file patch <= 1.0 s; the 1 GB patch parses with peak RSS < 200 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT))

GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": str(OUT),
}
FILES = 10_000
# A spread of paths so every bucket sees work: mostly source, some CI, IaC, deps and docs.
LAYOUT = [
    ("src/pkg{d}/module_{i}.py", 86),
    ("docs/section{d}/page_{i}.md", 6),
    ("infra/env{d}/main_{i}.tf", 3),
    (".github/workflows/job_{i}.yml", 1),
    ("services/svc{d}/package.json.d/deps_{i}.json", 4),
]


def git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True, capture_output=True).stdout


def _paths() -> list[str]:
    paths: list[str] = []
    for template, percent in LAYOUT:
        for n in range(FILES * percent // 100):
            paths.append(template.format(d=n % 50, i=n))
    return paths[:FILES]


def make_patch() -> Path:
    """A real repository with 10,000 files, each edited; the staged patch is about 5 MB."""
    patch = OUT / "10k.diff"
    if patch.is_file():
        return patch
    repo = OUT / "10k-repo"
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    paths = _paths()
    for path in paths:
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(f"value_{k} = compute({k}, 'text')\n" for k in range(8)))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    for n, path in enumerate(paths):
        target = repo / path
        lines = target.read_text().splitlines(keepends=True)
        lines[4] = f"value_4 = compute(4, 'run {n}')\n"
        target.write_text("".join(lines))
    git(repo, "add", "-A")
    patch.write_bytes(git(repo, "diff", "--cached", "--binary"))
    return patch


def policy_dir() -> Path:
    from gatekeeper.policy_dir import resolve_policy_dir

    return resolve_policy_dir(None)


def child_packet(patch: str, repeat: int) -> None:
    """In-process: derive + build_packet, best of `repeat`; prints JSON with the timings and own peak RSS."""
    from gatekeeper.classify import load_rules
    from gatekeeper.packet import build_packet, derive

    rules = load_rules(policy_dir())
    best_derive = best_total = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        derived = derive(Path(patch), rules)
        mid = time.perf_counter()
        packet = build_packet(derived, rules)
        end = time.perf_counter()
        best_derive = min(best_derive, mid - start)
        best_total = min(best_total, end - start)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"files": len(packet["files"]), "derive_s": best_derive, "total_s": best_total, "rss_mb": rss}))


def child_parse(patch: str) -> None:
    """In-process: stream-parse a (huge) patch, keeping nothing but counts; prints time and own peak RSS."""
    from gatekeeper.diff import HashingReader, parse_patch_stream

    start = time.perf_counter()
    files = additions = 0
    with open(patch, "rb") as handle:
        reader = HashingReader(handle)
        for change in parse_patch_stream(reader, patch):
            files += 1
            additions += change.additions
    seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps({"files": files, "additions": additions, "bytes": reader.bytes, "seconds": seconds, "rss_mb": rss})
    )


def run_child(*args: str) -> tuple[dict[str, float], float, float]:
    """Run a child process; return its JSON output, wall seconds and its own peak RSS (MB, from wait4)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=err)
        assert proc.stdout is not None
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(f"child failed ({proc.returncode}): {err.read().decode(errors='replace')}")
    data = json.loads(out) if out.strip().startswith(b"{") else {}
    return data, wall, usage.ru_maxrss / 1024


def make_huge(size: int) -> Path:
    """About `size` bytes of patch: real git sections (text and binary) repeated under distinct paths.

    Streamed to disk."""
    huge = OUT / f"huge-{size >> 20}M.diff"
    if huge.is_file() and huge.stat().st_size >= size:
        return huge
    repo = OUT / "huge-repo"
    if not (repo / ".git").is_dir():
        repo.mkdir(parents=True, exist_ok=True)
        git(repo, "init", "-q", "-b", "main")
        (repo / "seed").mkdir(exist_ok=True)
        (repo / "seed" / "TEMPLATE_PATH_0000000.txt").write_text(
            "".join(f"row {k}: the quick brown fox {k * 7}\n" for k in range(3000))
        )
        (repo / "seed" / "TEMPLATE_PATH_0000001.bin").write_bytes(b"\0" + os.urandom(4096))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "base")
        text = repo / "seed" / "TEMPLATE_PATH_0000000.txt"
        text.write_text("".join(f"row {k}: the quick red fox {k * 7}\n" for k in range(3000)))
        (repo / "seed" / "TEMPLATE_PATH_0000001.bin").write_bytes(b"\0" + os.urandom(4096))
        git(repo, "add", "-A")
    template = git(repo, "diff", "--cached", "--binary")
    parts = template.split(b"TEMPLATE_PATH_")
    tmp = huge.with_suffix(".tmp")
    written = 0
    serial = 0
    with open(tmp, "wb") as handle:
        while written < size:
            # Each template holds two sections; give every section its own numbered path.
            out = [parts[0]]
            for part in parts[1:]:
                number = int(part[:7]) + serial
                out.append(b"TEMPLATE_PATH_" + b"%07d" % number + part[7:])
            chunk = b"".join(out)
            handle.write(chunk)
            written += len(chunk)
            serial += 2
    tmp.replace(huge)
    return huge


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--huge", action="store_true", help="also build and parse a ~1 GB patch (disk + ~a minute)")
    parser.add_argument("--huge-size", type=int, default=1 << 30)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child-packet", help=argparse.SUPPRESS)
    parser.add_argument("--child-parse", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_packet:
        return child_packet(args.child_packet, args.repeat)
    if args.child_parse:
        return child_parse(args.child_parse)

    OUT.mkdir(parents=True, exist_ok=True)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    patch = make_patch()
    print(f"patch: {patch} ({patch.stat().st_size / 1e6:.1f} MB, made by git)")
    policy = policy_dir()

    data, _, rss = run_child(sys.executable, __file__, "--child-packet", str(patch), "--repeat", str(args.repeat))
    print(
        f"in-process derive+build_packet, {data['files']:.0f} files: {data['total_s']:.3f} s "
        f"(derive {data['derive_s']:.3f} s), peak RSS {data['rss_mb']:.0f} MB"
    )
    gatekeeper = [
        sys.executable,
        "-m",
        "gatekeeper",
        "packet",
        str(patch),
        "--policy",
        str(policy),
        "--out",
        str(OUT / "10k.packet.json"),
    ]
    walls = []
    for _ in range(args.repeat):
        _, wall, rss = run_child(*gatekeeper)
        walls.append(wall)
    print(
        f"`gatekeeper packet` subprocess (start-up included): best {min(walls):.3f} s of {args.repeat}, "
        f"peak RSS {rss:.0f} MB"
    )
    print("target: <= 1.0 s for the 10k-file packet")

    if args.huge:
        huge = make_huge(args.huge_size)
        print(f"huge patch: {huge} ({huge.stat().st_size / 1e9:.2f} GB)")
        data, wall, _ = run_child(sys.executable, __file__, "--child-parse", str(huge))
        print(
            f"parse (streaming, hash included): {data['files']:.0f} files, {data['seconds']:.1f} s "
            f"({data['bytes'] / data['seconds'] / 1e6:.0f} MB/s), peak RSS {data['rss_mb']:.0f} MB (target < 200 MB)"
        )


if __name__ == "__main__":
    main()
