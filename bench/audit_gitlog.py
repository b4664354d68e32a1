"""Git-ref decision log speed on loopback: one append (path and git:// over 127.0.0.1), a whole gate with and
without --log-git, 8 appenders at once, and reading/verifying the ref.

Run: .venv/bin/python bench/audit_gitlog.py [APPENDS]  (prints numbers; asserts nothing)
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from audit_log import decision

from gatekeeper.audit.gitlog import Retry, append_git, parse_spec, read_git
from gatekeeper.audit.verify import verify_snapshot


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _appends(remote: str, count: int) -> list[float]:
    log = parse_spec(remote)
    times = []
    for n in range(count):
        start = time.perf_counter()
        append_git(log, decision(n))
        times.append(time.perf_counter() - start)
    return times


def _worker(remote: str, count: int, offset: int) -> None:
    for i in range(count):
        append_git(parse_spec(remote), decision(offset + i), retry=Retry(attempts=60))


def _gate_times(tmp: Path, extra: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Gates without and with `extra`, alternated so that machine load hits both alike."""
    plain: list[float] = []
    logged: list[float] = []
    for _ in range(runs):
        for args, times in (([], plain), (extra, logged)):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "gatekeeper", "gate", str(tmp / "packet.json"), "--patch",
                            str(tmp / "patch.diff"), *args], cwd=tmp, capture_output=True, check=False)
            times.append(time.perf_counter() - start)
    return plain, logged


def _summary(label: str, times: list[float]) -> None:
    print(f"{label}: median {statistics.median(times) * 1e3:.0f} ms, max {max(times) * 1e3:.0f} ms ({len(times)} runs)")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    with tempfile.TemporaryDirectory(dir=os.getcwd(), prefix=".bench-gitlog-") as name:
        tmp = Path(name)
        bare = tmp / "audit.git"
        subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
        _summary("append, path remote", _appends(str(bare), count))

        port = _free_port()
        daemon = subprocess.Popen(["git", "daemon", "--reuseaddr", "--listen=127.0.0.1", f"--port={port}",
                                   "--export-all", "--enable=receive-pack", f"--base-path={tmp}", str(tmp)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(0.5)  # a benchmark, not a test: give the daemon a moment to listen
            _summary("append, git://127.0.0.1 remote", _appends(f"git://127.0.0.1:{port}/audit.git", count))
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)

        repo = tmp / "project"
        env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "b",
               "GIT_COMMITTER_EMAIL": "b@x"}
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        (repo / "app.py").write_text("print(1)\n")
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
        subprocess.run(["git", "-C", str(repo), "commit", "-qm", "base"], check=True, env=env)
        (repo / "app.py").write_text("print(2)\n")
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
        (tmp / "patch.diff").write_bytes(subprocess.run(["git", "-C", str(repo), "diff", "--cached", "--binary"],
                                                        capture_output=True, check=True).stdout)
        subprocess.run([sys.executable, "-m", "gatekeeper", "packet", str(tmp / "patch.diff"), "--out",
                        str(tmp / "packet.json")], check=True, capture_output=True)
        runs = max(count // 2, 5)
        plain, logged = _gate_times(tmp, ["--log-git", str(bare)], runs)
        _summary("gate, no log", plain)
        _summary("gate --log-git (path remote)", logged)
        print(f"added by --log-git: {(statistics.median(logged) - statistics.median(plain)) * 1e3:.0f} ms (median)")

        per = max(count // 8, 2)
        ctx = multiprocessing.get_context("fork")
        start = time.perf_counter()
        procs = [ctx.Process(target=_worker, args=(str(bare), per, 1000 * k)) for k in range(8)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join()
        took = time.perf_counter() - start
        print(f"8 appenders at once: {8 * per} records in {took:.2f} s ({8 * per / took:.1f} records/s)")

        start = time.perf_counter()
        snapshot, _ = read_git(parse_spec(str(bare)))
        verdict = verify_snapshot(snapshot, None)
        took = time.perf_counter() - start
        print(f"read + verify the ref: {verdict.records} records in {took:.2f} s, ok={verdict.ok}")


if __name__ == "__main__":
    main()
