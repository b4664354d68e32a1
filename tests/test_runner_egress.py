"""Attempts to leave the sandbox around the model relay, for real, in both backends: each fails for the
generator, and each is in the run's egress log, in the packet, and before the shipped policies.

Only documentation addresses (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32) and the
metadata addresses are named, and none is contacted: inside the sandbox they all lead to the
catch-all device, whose shim answers every packet itself.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from forkcli import fork_cli
from gitrepo import GitRepo
from runbundle import BACKENDS, RUN_STATE, gk_in

from gatekeeper.runner.relay import read_log

POLICIES = Path(__file__).resolve().parent.parent / "policies"
# The generator: every way around the relay it could try, then what it can do to the network device.
ATTEMPTS = r"""
import errno, fcntl, json, os, socket, struct, time

out = {}
def attempt(name, fn):
    began = time.monotonic()
    try:
        fn()
        out[name] = "NOT BLOCKED"
    except OSError as exc:
        out[name] = type(exc).__name__
    out[name + "_s"] = time.monotonic() - began

def udp_connected():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
        u.settimeout(5)
        u.connect(("198.51.100.1", 53))
        u.send(b"not a DNS query")
        u.recv(100)

def udp_sendto():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
        u.sendto(b"datagram", ("203.0.113.7", 9999))
    raise TimeoutError("nothing answers a datagram")

def tcp6(host, port):
    with socket.socket(socket.AF_INET6) as s:
        s.settimeout(5)
        s.connect((host, port))

attempt("tcp4", lambda: socket.create_connection(("192.0.2.10", 443), timeout=5))
attempt("tcp6", lambda: tcp6("2001:db8::10", 443))
attempt("udp", udp_connected)
attempt("sendto", udp_sendto)
attempt("dns", lambda: socket.getaddrinfo("example.com", 443))
METADATA4 = "169.254.169.254"  # not contacted: the sandbox's own catch-all answers
attempt("metadata4", lambda: socket.create_connection((METADATA4, 80), timeout=5))
attempt("metadata6", lambda: tcp6("fd00:ec2::254", 80))
attempt("metadata_dns", lambda: socket.getaddrinfo("metadata.google.internal", 80))

# What it can do about the catch-all: nothing, holding no capability over the network.
status = dict(line.split(":\t", 1) for line in open("/proc/self/status").read().splitlines() if ":\t" in line)
out["caps"] = {k: int(status[k].strip(), 16) for k in ("CapEff", "CapPrm", "CapBnd", "CapAmb")}
def errno_of(fn):
    try:
        fn()
        return 0
    except OSError as exc:
        return exc.errno
def link_down():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        fcntl.ioctl(s.fileno(), 0x8914, struct.pack("16sH14x", b"gk0", 0))
def route_delete():
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE) as nl:
        nl.bind((0, 0))
        body = struct.pack("=BBBBBBBBI", socket.AF_INET, 0, 0, 0, 254, 0, 0, 1, 0)
        nl.send(struct.pack("=IHHII", 16 + len(body), 25, 0x1 | 0x4, 1, 0) + body)
        reply = nl.recv(4096)
        code = -struct.unpack_from("=i", reply, 16)[0]
        if code:
            raise OSError(code, os.strerror(code))
def new_tun():
    fd = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(fd, 0x400454CA, struct.pack("16sH22x", b"mine0", 0x1001))
out["link_down"] = errno_of(link_down)
out["route_delete"] = errno_of(route_delete)
out["new_tun"] = errno_of(new_tun)
out["tun_node"] = os.path.exists("/dev/net/tun") and os.stat("/dev/net/tun").st_rdev != 0
out["interfaces"] = sorted(line.split(":")[0].strip() for line in open("/proc/net/dev").readlines()[2:])
open("attempts.json", "w").write(json.dumps(out))
"""


def _origin(tmp_path: Path, script: str) -> Path:
    repo = GitRepo(tmp_path / "origin")
    repo.write("attempts.py", script)
    repo.commit()
    return repo.root


def _run(tmp_path: Path, backend: str, script: str = ATTEMPTS, binds: dict[str, str] | None = None
         ) -> tuple[dict, Path]:
    """The run in-process (runbundle.gk_in: the subject is the sandbox and what the run records); with `binds` (a
    mount namespace of the test's own, tests/forkcli.py) in a forked process."""
    args = ["run", "--repo", str(_origin(tmp_path, script)), "--out", str(tmp_path / "runs"), "--sandbox", backend,
            "--policy", str(POLICIES), "--model", "m", "--format", "json", "--", sys.executable, "attempts.py"]
    if binds is not None:
        done = fork_cli(args, tmp_path / "forked", binds=binds).wait()
    else:
        done = gk_in(*args)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    return summary, Path(summary["run_dir"])


EXPECTED = {
    ("tcp", "192.0.2.10", 443), ("tcp", "2001:db8::10", 443), ("udp", "198.51.100.1", 53),
    ("udp", "203.0.113.7", 9999), ("dns", "example.com", 53),
    ("tcp", "169.254.169.254", 80),  # not contacted: inside the sandbox's netns
    ("tcp", "fd00:ec2::254", 80), ("dns", "metadata.google.internal", 53),
}


@pytest.mark.usefixtures("runner_bundle")
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_attempt_around_the_relay_fails_at_once_and_is_recorded(tmp_path: Path, backend: str) -> None:
    summary, run_dir = _run(tmp_path, backend)
    seen = json.loads((run_dir / "workspace" / "attempts.json").read_text())
    for name in ("tcp4", "tcp6", "udp", "dns", "metadata4", "metadata6", "metadata_dns"):
        assert seen[name] not in ("NOT BLOCKED", "TimeoutError"), (name, seen[name])
        assert seen[name + "_s"] < 2.0, (name, seen)  # refused at once, not left to time out
    # The generator holds no capability: it can neither take the device down, nor reroute, nor make its own.
    assert seen["caps"]["CapEff"] == 0 or backend == "unshare"  # unshare: root of a nested user namespace
    assert seen["link_down"] == seen["route_delete"] == 1  # EPERM
    # EPERM; or no device node at all (unshare: ENOENT; bwrap: the shim unmounted it, an empty file is left: EACCES)
    assert seen["new_tun"] in (1, 2, 13)
    assert seen["tun_node"] is False
    assert seen["interfaces"] == ["gk0", "lo"]

    records = read_log(run_dir / "egress.jsonl")
    assert records[0]["kind"] == "status" and records[0]["recording"] == "recorded"
    assert records[-1] == {**records[-1], "kind": "summary", "dropped": 0}
    attempts = [r for r in records if r.get("refused")]
    assert {(r["kind"], r["host"], r["port"]) for r in attempts} == EXPECTED
    assert {r["qtype"] for r in attempts if r["kind"] == "dns"} == {"A", "AAAA"}

    packet = json.loads(Path(summary["packet"]).read_text())
    egress = packet["sandbox"]["egress"]
    assert egress["recording"] == "recorded" and egress["reason"] is None and egress["unrecorded"] == 0
    assert egress["refused"] == len(attempts)
    assert {e["host"] for e in egress["refused_by_host"]} == {host for _, host, _ in EXPECTED}
    assert packet["sandbox"]["network"] == "denied"

    done = gk_in("gate", summary["packet"], "--patch", summary["patch"], "--policy", str(POLICIES),
                 "--enable", "provenance", "--enable", "sandbox", "--format", "json")
    decision = json.loads(done.stdout)
    assert done.returncode == 1 and decision["outcome"] == "deny", done.stderr
    by_rule = {r["rule"]: r["msg"] for r in decision["reasons"]}
    hosts = "169.254.169.254, fd00:ec2::254, metadata.google.internal"  # not contacted
    assert hosts in by_rule["provenance.metadata_egress"]
    assert "example.com (2)" in by_rule["sandbox.egress_attempts"]
    assert "sandbox.egress_unrecorded" not in by_rule


QUIET = "open('done.txt', 'w').write('nothing tried')\n"


@pytest.mark.usefixtures("runner_bundle")
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_run_that_tries_nothing_records_nothing_and_says_so(tmp_path: Path, backend: str) -> None:
    summary, run_dir = _run(tmp_path, backend, script=QUIET)
    egress = json.loads(Path(summary["packet"]).read_text())["sandbox"]["egress"]
    # The kernel's own IPv6 housekeeping on the device (router solicitations, MLD) is not an attempt.
    assert egress == {"recording": "recorded", "reason": None, "refused": 0, "refused_by_host": [], "unrecorded": 0}
    assert [r["kind"] for r in read_log(run_dir / "egress.jsonl")] == ["status", "summary"]


@pytest.mark.usefixtures("runner_bundle")
@pytest.mark.parametrize("backend", BACKENDS)
def test_without_a_working_tun_device_the_packet_says_unrecorded(tmp_path: Path, backend: str) -> None:
    # A host without TUN: /dev/net/tun is /dev/null here (in a mount namespace of the test's own).
    summary, run_dir = _run(tmp_path, backend, binds={"/dev/net/tun": "/dev/null"})
    seen = json.loads((run_dir / "workspace" / "attempts.json").read_text())
    assert seen["tcp4"] != "NOT BLOCKED" and seen["dns"] != "NOT BLOCKED"  # still no way out
    assert seen["interfaces"] == ["lo"]
    egress = json.loads(Path(summary["packet"]).read_text())["sandbox"]["egress"]
    assert egress["recording"] == "unavailable" and "no catch-all device" in egress["reason"]
    done = gk_in("gate", summary["packet"], "--patch", summary["patch"], "--policy", str(POLICIES),
                 "--enable", "sandbox", "--format", "json")
    reasons = {r["rule"]: r["msg"] for r in json.loads(done.stdout)["reasons"]}
    assert done.returncode == 3 and "no catch-all device" in reasons["sandbox.egress_unrecorded"]


# One attempt to leave; the first run then waits to be killed (however slow the machine), a resumed one ends.
SLOW = RUN_STATE + r"""
import socket, time
try:
    socket.create_connection(("192.0.2.10", 443), timeout=5)
except OSError:
    pass
if run_state()["attempts"] == 1:
    time.sleep(600)  # stopped by the test's kill long before
"""


@pytest.mark.usefixtures("runner_bundle")
def test_resume_after_sigkill_keeps_the_egress_log_whole(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    # The runner to kill is a process of its own, forked (tests/forkcli.py); a cold one's SIGKILL is
    # tests/test_runner_resume.py's.
    runner = fork_cli(["run", "--repo", str(_origin(tmp_path, SLOW)), "--out", str(out), "--sandbox", "unshare",
                       "--policy", str(POLICIES), "--format", "json", "--", sys.executable, "attempts.py"],
                      tmp_path / "forked", new_session=True)
    try:
        until = time.monotonic() + 60
        while time.monotonic() < until and not any(r.get("refused") for log in out.glob("*/egress.jsonl")
                                                   for r in read_log(log)):
            time.sleep(0.05)
    finally:
        runner.kill_group()
    (log,) = out.glob("*/egress.jsonl")
    before = read_log(log)
    done = gk_in("run", "--resume", log.parent.name, "--out", str(out), "--format", "json")  # the kill: a process
    assert done.returncode == 0, done.stderr
    after = read_log(log)
    assert after[: len(before)] == before and log.read_bytes().endswith(b"\n")
    assert [r["kind"] for r in after].count("status") == 2  # one per attempt
    assert sum(r["kind"] == "tcp" for r in after) == 2
    egress = json.loads(Path(json.loads(done.stdout)["packet"]).read_text())["sandbox"]["egress"]
    assert egress["refused_by_host"] == [{"host": "192.0.2.10", "count": 2}]


BURST = r"""
import socket
with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
    for i in range(3000):
        try:
            u.sendto(b"x", ("203.0.113.%d" % (1 + i % 3), 9))
        except OSError:
            pass
"""  # and ends at once: the last datagrams are still queued when the shim learns it ended


@pytest.mark.usefixtures("runner_bundle")
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_burst_at_the_end_is_recorded_or_counted_every_datagram(tmp_path: Path, backend: str) -> None:
    summary, run_dir = _run(tmp_path, backend, script=BURST)
    egress = json.loads(Path(summary["packet"]).read_text())["sandbox"]["egress"]
    recorded = sum(r["kind"] == "udp" for r in read_log(run_dir / "egress.jsonl"))
    assert recorded + egress["unrecorded"] == 3000  # none lost without a trace
    assert egress["refused"] == recorded
    assert {e["host"] for e in egress["refused_by_host"]} <= {"203.0.113.1", "203.0.113.2", "203.0.113.3",
                                                             "unrecorded"}
