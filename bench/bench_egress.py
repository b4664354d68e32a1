"""The sandbox's catch-all (gatekeeper/runner/catchall.py): what it costs to set up, how fast an attempt
around the relay fails, and how a flood of datagrams is recorded or counted as dropped.

Standalone, needs `unshare --net --map-root-user` and /dev/net/tun: `python bench/bench_egress.py [N]`;
prints numbers, asserts nothing. Only documentation addresses are named; no packet leaves the namespace.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSIDE = r"""
import json, os, socket, statistics, sys, threading, time
sys.path.insert(0, sys.argv[1])
from gatekeeper.runner import catchall
from gatekeeper.runner.egress import bring_loopback_up
n = int(sys.argv[2])
bring_loopback_up()
began = time.perf_counter()
device = catchall.setup()
setup_ms = (time.perf_counter() - began) * 1000
read, write = os.pipe()
lines = []
def drain():
    data = b""
    while chunk := os.read(read, 1 << 16):
        data += chunk
    lines.extend(data.splitlines())
reader = threading.Thread(target=drain)
reader.start()
catchall.start(device, write)
connects = []
for i in range(n):
    began = time.perf_counter()
    try:
        socket.create_connection(("192.0.2.%d" % (1 + i % 250), 443), timeout=5)
    except OSError:
        pass
    connects.append((time.perf_counter() - began) * 1000)
lookups = []
for i in range(n // 4):
    began = time.perf_counter()
    try:
        socket.getaddrinfo("host%d.example.com" % i, 443)
    except OSError:
        pass
    lookups.append((time.perf_counter() - began) * 1000)
flood = 20000
with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
    began = time.perf_counter()
    for i in range(flood):
        try:
            u.sendto(b"x", ("203.0.113.7", 9))
        except OSError:
            pass
    flood_s = time.perf_counter() - began
time.sleep(3)  # the shim works through the queue
catchall.finish(write)
os.close(write)
reader.join()
records = [json.loads(line) for line in lines]
udp = sum(r["kind"] == "udp" for r in records)
dropped = [r["dropped"] for r in records if r["kind"] == "summary"][0]
print(json.dumps({"setup_ms": setup_ms, "connect_ms": statistics.median(connects),
                  "connect_p95_ms": sorted(connects)[int(len(connects) * 0.95)],
                  "lookup_ms": statistics.median(lookups), "flood": flood, "flood_s": flood_s,
                  "flood_recorded": udp, "flood_dropped": dropped}))
"""


def main(argv: list[str]) -> int:
    n = int(argv[1]) if len(argv) > 1 else 400
    wrapper = ["unshare", "--net", "--map-root-user", "--mount"]
    resolv = ROOT / "bench" / "out" / "resolv.conf"
    resolv.parent.mkdir(exist_ok=True)
    resolv.write_text("nameserver 198.18.0.53\noptions attempts:1 timeout:1\n")
    script = f'mount --bind {resolv} /etc/resolv.conf && exec "$@"'
    starts = []
    for _ in range(10):
        done = subprocess.run([*wrapper, "sh", "-c", script, "sh", sys.executable, "-I", "-c", INSIDE, str(ROOT), "8"],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(f"bench_egress: the namespace run failed: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
            return 1
        starts.append(json.loads(done.stdout)["setup_ms"])
    done = subprocess.run([*wrapper, "sh", "-c", script, "sh", sys.executable, "-I", "-c", INSIDE, str(ROOT), str(n)],
                          capture_output=True, text=True, check=False)
    result = json.loads(done.stdout)
    print(f"catch-all setup (device, addresses, routes), median of 10 fresh namespaces: "
          f"{statistics.median(starts):.2f} ms")
    print(f"a refused TCP connect (SYN recorded, ICMP answer), median of {n}: {result['connect_ms']:.3f} ms "
          f"(p95 {result['connect_p95_ms']:.3f} ms)")
    print(f"a refused DNS lookup (A + AAAA recorded, REFUSED answers), median of {n // 4}: "
          f"{result['lookup_ms']:.3f} ms")
    print(f"a flood of {result['flood']} datagrams in {result['flood_s']:.2f} s: {result['flood_recorded']} recorded, "
          f"{result['flood_dropped']} dropped by the device queue (counted, reported as unrecorded)")
    print(f"pid {os.getpid()}, {os.cpu_count()} cpus")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
