"""Runner overheads: sandbox start (with the egress probe), one checkpoint, one whole `gatekeeper run`.

Standalone: `python bench/bench_runner.py [FILES]`; prints numbers, asserts nothing.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gatekeeper.runner import checkpoint, mounts, rundir, sandbox, workspace

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@b", "GIT_CONFIG_GLOBAL": os.devnull}


def timed(func, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(repeat):
        began = time.perf_counter()
        func()
        out.append(time.perf_counter() - began)
    return out


def show(label: str, samples: list[float]) -> None:
    print(f"{label:<48} median {statistics.median(samples) * 1000:8.1f} ms   min {min(samples) * 1000:8.1f} ms")


def main() -> int:
    files = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    base = Path(tempfile.mkdtemp(prefix="bench-runner-", dir=Path.cwd()))
    try:
        show("direct `python -I -c pass`", timed(lambda: subprocess.run([sys.executable, "-I", "-c", "pass"]), 10))
        for name in ("unshare", "bwrap", "none"):
            try:
                box = sandbox.select(name)
            except Exception as exc:  # noqa: BLE001 - a benchmark reports what is missing and goes on
                print(f"{name}: unavailable ({exc})")
                continue
            # The mounts of a real run: everything read-only, secrets hidden, `base` writable.
            plan = mounts.plan(run_dir=base, writable=(base,), needed=(), environ=os.environ)
            argv = sandbox.wrap(box, base / "probe.json", (sys.executable, "-I", "-c", "pass"), plan)
            show(f"sandbox {name} + probe + mounts + `python -c pass`",
                 timed(lambda argv=argv: subprocess.run(argv), 10))

        origin = base / "origin"
        (origin / "src").mkdir(parents=True)
        for i in range(files):
            (origin / "src" / f"f{i:05d}.txt").write_text(f"line {i}\n" * 20)
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=origin, check=True, env=GIT_ENV)
        subprocess.run(["git", "add", "-A"], cwd=origin, check=True, env=GIT_ENV)
        subprocess.run(["git", "commit", "-q", "-m", "base"], cwd=origin, check=True, env=GIT_ENV)
        run = rundir.create(base / "runs")
        began = time.perf_counter()
        repo = workspace.clone(workspace.repo_url(str(origin)), None, run)
        show(f"shallow clone of {files} files", [time.perf_counter() - began])
        for i in range(0, files, 10):
            (run.workspace / "src" / f"f{i:05d}.txt").write_text(f"changed {i}\n")
        entries: list[dict] = []

        def take() -> None:
            entry = checkpoint.take(run, repo.base_commit, entries)
            if entry:
                entries.append(entry)

        first = timed(take, 1)
        show(f"first checkpoint ({files // 10} of {files} files changed)", first)
        (run.workspace / "src" / "f00001.txt").write_text("again\n")
        show("next checkpoint (one more file changed)", timed(take, 1))
        show("checkpoint with nothing new", timed(take, 3))
        print(f"checkpoint size: {entries[-1]['bytes']} bytes")
        show("capture (git add -A + patch.diff)", timed(lambda: workspace.capture(run, repo.base_commit), 1))

        (base / "policies").mkdir()
        (base / "policies" / ".manifest").write_text('{"revision": "bench", "roots": ["gatekeeper"]}')
        (base / "policies" / "classification.yaml").write_text(
            'version: 1\nrules:\n  - id: b.src\n    bucket: src\n    description: all\n    match: ["**"]\n'
        )
        cmd = [sys.executable, "-m", "gatekeeper", "run", "--repo", str(origin), "--out", str(base / "runs"),
               "--policy", str(base / "policies"), "--", "sh", "-c", "echo x > new.txt"]
        show(f"whole `gatekeeper run` (auto sandbox, {files}-file repo)",
             timed(lambda: subprocess.run(cmd, capture_output=True, check=True), 3))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
