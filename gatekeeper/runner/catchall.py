"""Inside the sandbox: a catch-all network device that records every attempt to leave and makes it fail.

Standard library only: the sandbox's first process (inside.py) sets it up before the generator starts.
The sandbox's network namespace has no way out; this adds a TUN device, `gk0`, as the default route
for IPv4 and IPv6, and /etc/resolv.conf names a resolver behind it (the mount plan binds the file). No
packet written to the device goes anywhere: the shim reads each one, records what it tried to reach
(address and port, the name of a DNS query), and answers with ICMP "administratively prohibited" (a
DNS query: REFUSED), so the generator fails at once instead of waiting for a timeout. The records go
to the runner through a pipe the generator cannot reach, one JSON line each.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import json
import os
import select
import signal
import socket
import struct
import threading
import time

from gatekeeper.runner import packets

TUN = "/dev/net/tun"
DEVICE = "gk0"
ADDRESS4 = "198.18.0.1"  # benchmarking range (RFC 2544): never anyone's real address
RESOLVER = "198.18.0.53"
ADDRESS6 = "fdff:ffff:ffff::1"  # a unique-local address of the sandbox's own
RESOLV_CONF = f"nameserver {RESOLVER}\noptions attempts:1 timeout:1\n"
_TUNSETIFF = 0x400454CA
_IFF_TUN, _IFF_NO_PI = 0x0001, 0x1000
_IFF_UP = 0x1
_RTM_NEWLINK, _IFLA_TXQLEN, _QUEUE = 16, 13, 8192
_RTM_NEWADDR, _RTM_NEWROUTE, _NLMSG_ERROR = 20, 24, 2
_NLM_F_REQUEST, _NLM_F_ACK, _NLM_F_EXCL, _NLM_F_CREATE = 0x1, 0x4, 0x200, 0x400
_IFA_ADDRESS, _IFA_LOCAL, _IFA_F_NODAD = 1, 2, 0x02
_RTA_OIF, _RT_TABLE_MAIN, _RTPROT_STATIC, _RT_SCOPE_LINK, _RTN_UNICAST = 4, 254, 4, 253, 1
_PR_GET_DUMPABLE, _PR_SET_DUMPABLE, _PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 3, 4, 24, 47, 4
_CAP_V3 = 0x20080522
_CAP_SETPCAP = 8
_MNT_DETACH = 2
_libc = ctypes.CDLL(None, use_errno=True)


def _attr(kind: int, data: bytes) -> bytes:
    size = 4 + len(data)
    return struct.pack("=HH", size, kind) + data + b"\0" * (-size % 4)


def _netlink(kind: int, body: bytes, *, create: bool = True) -> None:
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE) as link:
        link.bind((0, 0))
        flags = _NLM_F_REQUEST | _NLM_F_ACK | (_NLM_F_CREATE | _NLM_F_EXCL if create else 0)
        link.send(struct.pack("=IHHII", 16 + len(body), kind, flags, 1, 0) + body)
        reply = link.recv(65536)
    if len(reply) >= 20 and struct.unpack_from("=H", reply, 4)[0] == _NLMSG_ERROR:
        code = -struct.unpack_from("=i", reply, 16)[0]
        if code:
            raise OSError(code, f"netlink: {os.strerror(code)}")


def _address(index: int, family: int, address: str) -> None:
    raw = socket.inet_pton(family, address)
    prefix, flags = (32, 0) if family == socket.AF_INET else (128, _IFA_F_NODAD)
    attrs = _attr(_IFA_LOCAL, raw) + _attr(_IFA_ADDRESS, raw) if family == socket.AF_INET else _attr(_IFA_ADDRESS, raw)
    _netlink(_RTM_NEWADDR, struct.pack("=BBBBI", family, prefix, flags, 0, index) + attrs)


def _default_route(index: int, family: int) -> None:
    body = struct.pack("=BBBBBBBBI", family, 0, 0, 0, _RT_TABLE_MAIN, _RTPROT_STATIC, _RT_SCOPE_LINK,
                       _RTN_UNICAST, 0)
    _netlink(_RTM_NEWROUTE, body + _attr(_RTA_OIF, struct.pack("=I", index)))


def _up(index: int) -> None:
    # Up, with a longer queue than the default 500: a burst waits for the shim instead of going unrecorded.
    body = struct.pack("=BxHiII", socket.AF_UNSPEC, 0, index, _IFF_UP, _IFF_UP)
    _netlink(_RTM_NEWLINK, body + _attr(_IFLA_TXQLEN, struct.pack("=I", _QUEUE)), create=False)


def ipv6_present() -> bool:
    """Whether this kernel speaks IPv6 at all (then IPv6 must be routed to the catch-all too)."""
    return os.path.exists("/proc/net/if_inet6")


def setup() -> int:
    """Create the device in this network namespace and route everything to it; its descriptor (OSError when
    any step fails: without every route, some attempts would fail unrecorded)."""
    # The device lands in the network namespace of whoever opens /dev/net/tun: it must be opened here.
    fd = os.open(TUN, os.O_RDWR | os.O_CLOEXEC)
    try:
        fcntl.ioctl(fd, _TUNSETIFF, struct.pack("16sH22x", DEVICE.encode(), _IFF_TUN | _IFF_NO_PI))
        index = socket.if_nametoindex(DEVICE)
        _address(index, socket.AF_INET, ADDRESS4)
        if ipv6_present():
            _address(index, socket.AF_INET6, ADDRESS6)
        _up(index)
        _default_route(index, socket.AF_INET)
        if ipv6_present():
            _default_route(index, socket.AF_INET6)
    except OSError:
        os.close(fd)
        raise
    return fd


def hide_device() -> None:
    """Unmount the device node bwrap bound in for the shim alone: the generator never sees it (OSError)."""
    if _libc.umount2(TUN.encode(), _MNT_DETACH) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"umount {TUN}: {os.strerror(err)}")
    if os.path.exists(TUN) and os.stat(TUN).st_rdev:
        raise OSError(errno.EEXIST, f"{TUN} is still a device after unmounting it")


def _status(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1], 16)
    raise OSError(errno.ENOENT, f"no {field} in /proc/self/status")


def keep_from_tracing() -> None:
    """Make the shim non-dumpable (OSError when it stays dumpable): a process of the same user may then neither
    ptrace it, nor open its descriptors through /proc, nor copy them with pidfd_getfd, without CAP_SYS_PTRACE
    where the shim was started. Under unshare the generator is root of a nested user namespace, the same uid
    as the shim: without this it could take the device and read its own packets before the shim does."""
    _libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    if _libc.prctl(_PR_GET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(errno.EPERM, "the shim is still dumpable")


def drop_capabilities() -> None:
    """Give up every capability for good (bounding set included, so exec cannot bring one back to root), and
    keep other processes of the same user from tracing this one; OSError when any is left."""
    _libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    _libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as handle:
        last = int(handle.read())
    # CAP_SETPCAP is what allows dropping from the bounding set: it goes last.
    for cap in [c for c in range(last + 1) if c != _CAP_SETPCAP] + [_CAP_SETPCAP]:
        _libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
    header = struct.pack("=Ii", _CAP_V3, 0)
    if _libc.capset(ctypes.c_char_p(header), ctypes.c_char_p(bytes(24))) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"capset: {os.strerror(err)}")
    left = {f: _status(f) for f in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")}
    if any(left.values()):
        raise OSError(errno.EPERM, f"capabilities left after dropping them: {left}")


def resolver_in_force(path: str = "/etc/resolv.conf") -> bool:
    """Whether the resolver configuration the generator reads names the catch-all's resolver and nothing else."""
    try:
        with open(path, encoding="ascii", errors="replace") as handle:
            words = [line.split() for line in handle]
        servers = [w[1] for w in words if len(w) > 1 and w[0] == "nameserver"]
    except OSError:
        return False
    return servers == [RESOLVER]


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())


def _send(out: int, record: dict[str, object]) -> None:
    # One line stays below PIPE_BUF (a DNS name is at most 253 bytes): each write is whole.
    try:
        os.write(out, (json.dumps(record, sort_keys=True, ensure_ascii=True) + "\n").encode())
    except OSError:
        pass  # the runner is gone: the sandbox is about to be ended with it


def _watch(device: int, out: int, counts: list[int]) -> None:
    while True:
        try:
            packet = os.read(device, 65536)
        except InterruptedError:
            continue
        except OSError as exc:
            _send(out, {"at": _now(), "kind": "error", "error": f"catch-all stopped: {exc.strerror}"})
            return
        counts[0] += 1  # read; counts[1] follows once it is recorded (finish() waits for them to meet)
        try:
            _handle(device, out, packet)
        finally:
            counts[1] += 1


def _handle(device: int, out: int, packet: bytes) -> None:
    try:
        attempt = packets.parse(packet)
    except (ValueError, IndexError, struct.error):
        _send(out, {"at": _now(), "kind": "unparsed", "host": "unparsed", "bytes": len(packet)})
        return
    if attempt is None:
        return
    _send(out, {"at": _now(), **attempt.record()})  # recorded before the generator learns it failed
    if attempt.answer is not None:
        try:
            os.write(device, attempt.answer)
        except OSError:
            pass


def report(out: int, recording: str, error: str | None) -> None:
    """The attempt's first record: whether every attempt will be recorded (`recorded`) or not, and why not.
    It goes through the pipe, not the exchange folder, so the generator cannot rewrite it."""
    _send(out, {"at": _now(), "kind": "status", "recording": recording, "error": error})


_COUNTS = [0, 0]  # packets the shim has read, and those it has finished recording (only _watch writes them)
_DEVICE = [-1]


def start(device: int, out: int) -> None:
    """Record and refuse every packet the device receives, in a thread of the shim, for its whole life."""
    _DEVICE[0] = device
    threading.Thread(target=_watch, args=(device, out, _COUNTS), daemon=True).start()


def _others() -> list[int]:
    # The processes of this PID namespace still alive, besides its PID 1 and this one (zombies have ended).
    alive = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in (1, os.getpid()):
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                    state = handle.read().rpartition(")")[2].split()[0]
            except (OSError, IndexError):
                continue
            if state not in ("Z", "X"):
                alive.append(int(entry))
    return alive


def end_stragglers(within: float = 2.0) -> None:
    """End every other process of the sandbox's PID namespace (a grandchild the generator left behind) and
    wait until they are gone: once the generator has ended, nothing may send what the shim, about to exit,
    would not read. (The shim is the namespace's PID 1 in both backends: it reaps them.)"""
    until = time.monotonic() + within
    while True:
        try:
            os.kill(-1, signal.SIGKILL)  # within this PID namespace; never its PID 1 nor the caller
        except OSError:
            pass  # nobody left to signal
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
            except InterruptedError:
                continue
        if not _others() or time.monotonic() >= until:
            return
        time.sleep(0.01)


def _drained(device: int) -> bool:
    # Nothing queued on the device and nothing read but not yet recorded.
    readable = select.poll()
    readable.register(device, select.POLLIN)
    return not readable.poll(0) and _COUNTS[0] == _COUNTS[1]


def finish(out: int, *, within: float = 10.0) -> None:
    """The last records, once every packet queued on the device is recorded (the generator and everything it
    left behind have ended, so no new one comes): an error if that took longer than `within` seconds (the
    rest would go unrecorded with the shim), and the packets the kernel dropped (a full queue)."""
    until = time.monotonic() + within
    drained, before = False, None
    while time.monotonic() < until:
        # Twice in a row with nothing read in between: a packet read just before the first look is counted.
        now = tuple(_COUNTS) if _DEVICE[0] >= 0 and _drained(_DEVICE[0]) else None
        drained = now is not None and now == before
        if drained:
            break
        before = now
        time.sleep(0.01)
    if not drained:
        _send(out, {"at": _now(), "kind": "error",
                    "error": f"packets still queued on the catch-all {within:g} s after the generator ended"})
    dropped = 0
    try:
        with open("/proc/net/dev", encoding="ascii") as handle:
            for line in handle:
                name, _, counters = line.partition(":")
                if name.strip() == DEVICE:
                    fields = counters.split()
                    dropped = int(fields[3]) + int(fields[11])  # rx and tx drops
    except (OSError, ValueError, IndexError):
        dropped = -1
    _send(out, {"at": _now(), "kind": "summary", "dropped": dropped})
