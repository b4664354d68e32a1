"""The model relay's cost per request on loopback: the fake model API called directly, and through the
bridge (127.0.0.1 → unix socket) and the relay, for a JSON answer and a streamed one.

Standalone: `python bench/bench_relay.py [REQUESTS]`; prints numbers, asserts nothing.
"""

from __future__ import annotations

import http.client
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from gatekeeper.demo_model_api import fake_model_api
from gatekeeper.runner.relay import Relay, RelayLimits
from gatekeeper.runner.relay_api import parse_model_api
from gatekeeper.runner.relay_bridge import start_bridge

BODY = json.dumps({"model": "m", "max_tokens": 8, "messages": [{"role": "user", "content": "hi"}]}).encode()


def call(port: int, path: str, stream: bool) -> float:
    body = BODY if not stream else json.dumps({**json.loads(BODY), "stream": True}).encode()
    began = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", path, body=body, headers={"content-type": "application/json", "x-api-key": "k"})
    response = conn.getresponse()
    response.read()
    conn.close()
    assert response.status == 200, response.status
    return time.perf_counter() - began


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as tmp, fake_model_api() as fake:
        relay = Relay(Path(tmp, "relay.sock"), Path(tmp, "relay.jsonl"),
                      {"anthropic": parse_model_api(f"anthropic={fake.url}")}, {"anthropic": "real-key"},
                      RelayLimits(max_requests_per_minute=1_000_000)).start()
        bridge = start_bridge(str(Path(tmp, "relay.sock")), relay.secret)
        try:
            for stream in (False, True):
                for _ in range(20):  # warm up both paths
                    call(fake.port, "/v1/messages", stream)
                    call(bridge, "/anthropic/v1/messages", stream)
                direct, relayed = [], []
                for _ in range(count):  # interleaved, so machine noise hits both alike
                    direct.append(call(fake.port, "/v1/messages", stream))
                    relayed.append(call(bridge, "/anthropic/v1/messages", stream))
                kind = "streamed" if stream else "json"
                added = [(r - d) * 1000 for r, d in zip(relayed, direct, strict=True)]
                print(f"{kind:<9} direct median {statistics.median(direct) * 1000:6.2f} ms   relayed median "
                      f"{statistics.median(relayed) * 1000:6.2f} ms   "
                      f"added: median {statistics.median(added):5.2f} ms, "
                      f"p90 {statistics.quantiles(added, n=10)[-1]:5.2f} ms  ({count} requests, each with its "
                      "own connection; fsync'd log record each)")
        finally:
            relay.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
