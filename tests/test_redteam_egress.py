"""Red team on the egress catch-all (issue #15): attempts from inside the generator to leave the sandbox
unrecorded while the packet still says `recording: recorded` and `unrecorded: 0`.

Each test runs a real generator in a real sandbox (both backends) and checks one invariant: every datagram
the generator's kernel accepted is in the egress log, or counted as unrecorded, or the packet says the
recording is not complete (so the sandbox policy reviews the run). Only documentation addresses are named;
inside the sandbox they all lead to the catch-all device, and nothing leaves it.
"""

from __future__ import annotations

import errno
import json
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import BACKENDS, gk_in

from gatekeeper.runner.relay import read_log

POLICIES = Path(__file__).resolve().parent.parent / "policies"

# Sends `n` datagrams to one documentation address, keeps count of those the kernel accepted (in sent.txt,
# fsynced before anything that could end the sandbox), then does `tail` (Python source) at once.
SENDER = r"""
import os, signal, socket, sys, time
def send(n, host, sock):
    ok = 0
    for _ in range(n):
        try:
            sock.sendto(b"x", (host, 9))
            ok += 1
        except OSError:
            pass
    return ok
def note(name, value):
    with open(name + ".tmp", "w") as handle:
        handle.write(str(value))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(name + ".tmp", name)  # whole, even when killed
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
"""

FLOOD_THEN_EXIT = SENDER + r"""
note("sent.txt", send(8000, "192.0.2.77", u))
os._exit(0)  # no interpreter shutdown: the last datagrams are still queued on the device
"""

# The shim is the only process that reads the device: kill it with a queue full (it was bwrap's PID 2, with the
# generator's uid; now PID 1 of the namespace in both backends, which the kernel shields from SIGKILL inside).
KILL_THE_SHIM = SENDER + r"""
shims = []
for pid in os.listdir("/proc"):
    if pid.isdigit() and int(pid) != os.getpid():
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            continue
        if b"gatekeeper.runner.inside" in cmd:
            shims.append(int(pid))
note("shims.txt", shims)
note("sent.txt", send(4000, "192.0.2.78", u))
for pid in shims:
    try:
        os.kill(pid, signal.SIGSTOP)
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
# No wait after it: a kill that takes effect is settled when kill() returns (the shim runs no more of its code).
"""

# A grandchild in a session of its own keeps sending after the generator has ended.
GRANDCHILD = SENDER + r"""
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        sent = 0
        until = time.monotonic() + 4
        while time.monotonic() < until:
            sent += send(200, "192.0.2.79", u)
            note("sent.txt", sent)
        os._exit(0)
    os._exit(0)
os.wait()
until = time.monotonic() + 20
while not os.path.exists("sent.txt") and time.monotonic() < until:  # ends once the grandchild is sending
    time.sleep(0.01)
"""


def _origin(tmp_path: Path, script: str) -> Path:
    repo = GitRepo(tmp_path / "origin")
    repo.write("attack.py", script)
    repo.commit()
    return repo.root


def _run(tmp_path: Path, backend: str, script: str) -> tuple[dict, Path]:
    # In-process (runbundle.gk_in): the subject is the sandbox's catch-all and what the run records of it.
    done = gk_in("run", "--repo", str(_origin(tmp_path, script)), "--out", str(tmp_path / "runs"), "--sandbox",
                 backend, "--policy", str(POLICIES), "--model", "m", "--format", "json", "--", sys.executable,
                 "attack.py")
    assert done.returncode in (0, 1), done.stderr  # 1: the generator failed (killed with its sandbox)
    summary = json.loads(done.stdout)
    return summary, Path(summary["run_dir"])


def _accounted(summary: dict, run_dir: Path, host: str) -> tuple[int, int, dict]:
    """(datagrams the generator's kernel accepted, datagrams in the log + counted unrecorded, the egress)."""
    sent_file = run_dir / "workspace" / "sent.txt"
    sent = int(sent_file.read_text()) if sent_file.exists() else 0
    egress = json.loads(Path(summary["packet"]).read_text())["sandbox"]["egress"]
    logged = sum(r.get("kind") == "udp" and r.get("host") == host for r in read_log(run_dir / "egress.jsonl"))
    return sent, logged + egress["unrecorded"], egress


def _assert_fail_closed(summary: dict, run_dir: Path, host: str) -> None:
    sent, accounted, egress = _accounted(summary, run_dir, host)
    assert sent > 0
    if egress["recording"] == "recorded":
        assert accounted >= sent, f"{sent - accounted} datagrams to {host} went unrecorded: {egress}"
    else:
        assert egress["reason"]  # the sandbox policy reviews it and says why


@pytest.mark.usefixtures("runner_bundle")
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_flood_that_fills_the_queue_and_exits_at_once_is_all_accounted_for(tmp_path: Path, backend: str) -> None:
    summary, run_dir = _run(tmp_path, backend, FLOOD_THEN_EXIT)
    _assert_fail_closed(summary, run_dir, "192.0.2.77")


@pytest.mark.usefixtures("runner_bundle")
@pytest.mark.parametrize("backend", BACKENDS)
def test_killing_the_shim_with_a_full_queue_cannot_pass_as_recorded(tmp_path: Path, backend: str) -> None:
    summary, run_dir = _run(tmp_path, backend, KILL_THE_SHIM)
    assert json.loads((run_dir / "workspace" / "shims.txt").read_text().replace("'", '"'))  # it found the shim
    _assert_fail_closed(summary, run_dir, "192.0.2.78")
    # Both backends: the shim is the namespace's PID 1, the kernel ignores the generator's SIGKILL to it.
    egress = json.loads(Path(summary["packet"]).read_text())["sandbox"]["egress"]
    assert egress["recording"] == "recorded" and egress["refused"] == 4000 and summary.get("exit_code", 0) == 0


@pytest.mark.usefixtures("runner_bundle")
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_grandchild_sending_after_the_generator_ended_is_accounted_for(tmp_path: Path, backend: str) -> None:
    summary, run_dir = _run(tmp_path, backend, GRANDCHILD)
    _assert_fail_closed(summary, run_dir, "192.0.2.79")


# Every other way we tried to reach past the catch-all or its records: each either fails for the generator
# (an errno) or sends a packet the catch-all records under the address it was sent to.
CLASSES = r"""
import ctypes, errno, json, os, signal, socket, struct, time
out = {}
def errno_of(name, fn):
    try:
        fn()
        out[name] = 0
    except OSError as exc:
        out[name] = exc.errno or -1
def udp(host, port, data=b"x", family=socket.AF_INET, opts=()):
    with socket.socket(family, socket.SOCK_DGRAM) as u:
        for level, opt, value in opts:
            u.setsockopt(level, opt, value)
        u.sendto(data, (host, port))
# Raw, packet and ping sockets: all need a capability over the network the generator does not hold.
errno_of("raw4", lambda: socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP))
errno_of("raw6", lambda: socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_UDP))
errno_of("packet", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0))
errno_of("ping4", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_ICMP))
# A route of its own through loopback: refused by the kernel.
def route_via_lo():
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE) as nl:
        nl.bind((0, 0))
        body = struct.pack("=BBBBBBBBI", socket.AF_INET, 24, 0, 0, 254, 4, 0, 1, 0)
        body += struct.pack("=HH4s", 8, 1, socket.inet_aton("192.0.2.0"))  # RTA_DST
        body += struct.pack("=HHI", 8, 4, socket.if_nametoindex("lo"))  # RTA_OIF
        nl.send(struct.pack("=IHHII", 16 + len(body), 24, 0x1 | 0x4 | 0x400, 1, 0) + body)
        reply = nl.recv(4096)
        code = -struct.unpack_from("=i", reply, 16)[0]
        if code:
            raise OSError(code, os.strerror(code))
errno_of("route_via_lo", route_via_lo)
# The egress pipe and the shim, through /proc: out of reach.
def shim_pids():
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = open(f"/proc/{pid}/cmdline", "rb").read()
                if b"gatekeeper.runner.inside" in cmd and not cmd.split(b"\0")[0].endswith(b"bwrap"):
                    found.append(int(pid))  # the shim itself, not bwrap's PID 1 (its command line holds it)
            except OSError:
                pass
    return found
shims = shim_pids()
out["shims"] = len(shims)
def open_shim_fds():
    for pid in shims:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            os.readlink(f"/proc/{pid}/fd/{fd}")
errno_of("shim_fds", open_shim_fds)
libc = ctypes.CDLL(None, use_errno=True)
def ptrace_shim():
    for pid in shims:
        if libc.ptrace(16, pid, 0, 0) != 0:  # PTRACE_ATTACH
            raise OSError(ctypes.get_errno(), "ptrace")
errno_of("ptrace_shim", ptrace_shim)
# The resolver configuration: read-only; and the device node: gone.
errno_of("resolv_conf", lambda: open("/etc/resolv.conf", "a").write("nameserver 192.0.2.53\n"))
out["tun_node"] = os.path.exists("/dev/net/tun") and os.stat("/dev/net/tun").st_rdev != 0
# Recorded: each of these reaches gk0 under its own destination.
def dns(name_labels):
    q = b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00" + b"".join(bytes([len(l)]) + l for l in name_labels)
    return q + b"\x00\x00\x01\x00\x01"
udp("192.0.2.53", 53, dns([b"other-resolver", b"example"]))  # a resolver of its own choosing
udp("198.51.100.53", 53, dns([b"a" * 63] * 3 + [b"a" * 61]))  # the longest name there is (253)
udp("198.51.100.54", 53, dns([b"\xff\\\"\n" * 15] * 15))  # far past it, odd bytes, in one packet
udp("198.51.100.55", 53, b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\xc0\x0c\x00\x01\x00\x01")  # a loop
udp("192.0.2.81", 4000, b"f" * 30000)  # fragmented: the first fragment carries the port
udp("2001:db8::81", 4000, b"f" * 30000, socket.AF_INET6)  # IPv6 fragments: next header 44
errno_of("broadcast", lambda: udp("255.255.255.255", 4001, opts=[(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)]))
errno_of("multicast4", lambda: udp("224.0.0.251", 5353))
errno_of("multicast6", lambda: udp("ff02::fb%gk0", 5353, family=socket.AF_INET6))
errno_of("linklocal6", lambda: udp("fe80::1%gk0", 4002, family=socket.AF_INET6))
def udplite():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM, 136) as u:
        u.sendto(b"x", ("192.0.2.82", 4003))
errno_of("udplite", udplite)
def fastopen():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(3)
        s.sendto(b"GET / HTTP/1.0\r\n\r\n", 0x20000000, ("192.0.2.83", 80))  # MSG_FASTOPEN
errno_of("fastopen", fastopen)
def options4():
    rr = bytes([7, 39, 4]) + bytes(36)  # record route
    udp("192.0.2.84", 4004, opts=[(socket.IPPROTO_IP, socket.IP_OPTIONS, rr)])
errno_of("ip_options", options4)
# Through loopback to an address that is not its own: the packet never leaves the namespace.
def bound_to_lo():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
        u.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"lo")
        u.sendto(b"x", ("192.0.2.85", 4005))
errno_of("bound_to_lo", bound_to_lo)
json.dump(out, open("classes.json", "w"))
"""

RECORDED = {("dns", "other-resolver.example"), ("dns", ".".join(["a" * 63] * 3 + ["a" * 61])), ("udp", "192.0.2.81"),
            ("udp", "192.0.2.84")}


@pytest.mark.usefixtures("runner_bundle")
@pytest.mark.parametrize("backend", BACKENDS)
def test_no_other_way_past_the_catch_all_or_its_records(tmp_path: Path, backend: str) -> None:
    summary, run_dir = _run(tmp_path, backend, CLASSES)
    seen = json.loads((run_dir / "workspace" / "classes.json").read_text())
    for name in ("raw4", "raw6", "packet", "ping4", "route_via_lo", "shim_fds", "ptrace_shim", "resolv_conf"):
        assert seen[name] != 0, (name, seen)
    assert seen["shims"] == 1 and seen["tun_node"] is False
    records = read_log(run_dir / "egress.jsonl")
    hosts = {(r["kind"], r["host"]) for r in records if r.get("refused")}
    assert RECORDED <= hosts, hosts
    assert any(r["kind"] == "dns" and r.get("host", "").startswith("\\xff") and len(r["host"]) == 253 for r in records)
    assert ("udp", "198.51.100.55") in hosts  # not a question the shim reads: recorded as the datagram it is
    if seen["udplite"] == 0:
        assert ("ip-136", "192.0.2.82") in hosts
    if seen["fastopen"] not in (errno.EOPNOTSUPP,):
        assert ("tcp", "192.0.2.83") in hosts
    # IPv6 fragments: the first is the datagram with its port, the later ones are not attempts of their own.
    assert [(r["kind"], r["port"]) for r in records if r.get("host") == "2001:db8::81"] == [("udp", 4000)]
    for name, host in (("broadcast", "255.255.255.255"), ("multicast4", "224.0.0.251"), ("multicast6", "ff02::fb"),
                       ("linklocal6", "fe80::1")):
        assert seen[name] != 0 or any(r.get("host") == host for r in records), (name, seen[name])
    egress = json.loads(Path(summary["packet"]).read_text())["sandbox"]["egress"]
    assert egress["recording"] == "recorded" and egress["unrecorded"] == 0


# The shim's own descriptors, taken from it: the device (pidfd_getfd, then read the generator's packets before
# the shim does) and the egress pipe (write a record of the generator's own: a summary that closes the attempt).
STEAL = SENDER + r"""
import ctypes, json, threading
libc = ctypes.CDLL(None, use_errno=True)
out = {"stolen": 0, "getfd": None, "pipes": []}
own = {os.readlink(f"/proc/self/fd/{fd}") for fd in (1, 2)}  # its own output: writing there forges nothing
for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()):
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        continue
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target == "/dev/net/tun":
            try:
                pidfd = os.pidfd_open(pid)
                got = libc.syscall(438, pidfd, int(fd), 0)  # pidfd_getfd
                out["getfd"] = got if got >= 0 else -ctypes.get_errno()
            except OSError as exc:
                out["getfd"] = -exc.errno
        elif target.startswith("pipe:") and target not in own:
            try:
                w = os.open(f"/proc/{pid}/fd/{fd}", os.O_WRONLY | os.O_NONBLOCK)
                os.write(w, b'{"kind": "summary", "dropped": 0}\n')
                out["pipes"].append(f"{pid}/{fd}")
            except OSError:
                pass
stolen = out["getfd"] if out["getfd"] is not None and out["getfd"] >= 0 else None
if stolen is not None:
    os.set_blocking(stolen, False)
note("sent.txt", send(2000, "192.0.2.90", u))
if stolen is not None:
    until = time.monotonic() + 1
    while time.monotonic() < until:
        try:
            os.read(stolen, 65536)
            out["stolen"] += 1
        except BlockingIOError:
            time.sleep(0.001)
json.dump(out, open("steal.json", "w"))
"""


@pytest.mark.usefixtures("runner_bundle")
@pytest.mark.parametrize("backend", BACKENDS)
def test_the_shims_device_and_pipe_cannot_be_taken_from_it(tmp_path: Path, backend: str) -> None:
    summary, run_dir = _run(tmp_path, backend, STEAL)
    seen = json.loads((run_dir / "workspace" / "steal.json").read_text())
    assert seen["getfd"] is None or seen["getfd"] < 0, seen  # nor the device (unshare: it was dumpable)
    assert seen["stolen"] == 0 and seen["pipes"] == [], seen  # nor the pipe
    _assert_fail_closed(summary, run_dir, "192.0.2.90")
