"""What network the current process can reach, read from the kernel without sending a packet.

Standard library only: this module runs inside the sandbox, in the generator's own namespaces.
"""

from __future__ import annotations

import fcntl
import socket
import struct

SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1
IFF_LOOPBACK = 0x8
RTF_REJECT = 0x0200
_IFREQ = "16sH14x"


def _flags(sock: socket.socket, name: str) -> int:
    req = struct.pack(_IFREQ, name.encode()[:15], 0)
    return struct.unpack(_IFREQ, fcntl.ioctl(sock.fileno(), SIOCGIFFLAGS, req))[1]


def bring_loopback_up() -> str | None:
    """Set `lo` up so localhost works in a fresh namespace; the reason on failure, else None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            flags = _flags(sock, "lo")
            if flags & IFF_UP:
                return None
            fcntl.ioctl(sock.fileno(), SIOCSIFFLAGS, struct.pack(_IFREQ, b"lo", flags | IFF_UP))
    except OSError as exc:
        return f"cannot bring lo up: {exc.strerror or exc}"
    return None


def _interfaces() -> list[dict[str, object]]:
    # /proc/net/dev and SIOCGIFFLAGS answer for this process's network namespace; /sys/class/net
    # answers for the namespace that mounted sysfs, which is the host's in an unshared namespace.
    names: list[str] = []
    with open("/proc/net/dev", encoding="ascii", errors="replace") as handle:
        for line in handle.readlines()[2:]:
            if ":" in line:
                names.append(line.split(":", 1)[0].strip())
    result = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for name in sorted(set(names)):
            flags = _flags(sock, name)
            result.append({"name": name, "up": bool(flags & IFF_UP), "loopback": bool(flags & IFF_LOOPBACK)})
    return result


def _ipv4_routes() -> list[dict[str, object]]:
    routes = []
    with open("/proc/net/route", encoding="ascii", errors="replace") as handle:
        for line in handle.readlines()[1:]:
            cols = line.split()
            if len(cols) < 8:
                continue
            iface, dest, flags, mask = cols[0], cols[1], int(cols[3], 16), cols[7]
            routes.append(
                {"family": "ipv4", "iface": iface, "default": dest == "00000000" and mask == "00000000",
                 "reject": bool(flags & RTF_REJECT)}
            )
    return routes


def _ipv6_routes() -> list[dict[str, object]]:
    routes: list[dict[str, object]] = []
    try:
        handle = open("/proc/net/ipv6_route", encoding="ascii", errors="replace")
    except FileNotFoundError:  # IPv6 disabled in this kernel: no IPv6 route at all
        return routes
    with handle:
        for line in handle:
            cols = line.split()
            if len(cols) < 10:
                continue
            iface, flags = cols[9], int(cols[8], 16)
            routes.append(
                {"family": "ipv6", "iface": iface, "default": int(cols[1], 16) == 0,
                 "reject": bool(flags & RTF_REJECT)}
            )
    return routes


def probe() -> dict[str, object]:
    """Interfaces and routes in force; `network` is "denied" only with no way out at all."""
    try:
        interfaces = _interfaces()
        routes = _ipv4_routes() + _ipv6_routes()
    except (OSError, ValueError) as exc:
        return {"network": "unrestricted", "egress_checked": False, "error": f"probe failed: {exc}"}
    up = [i["name"] for i in interfaces if i["up"] and not i["loopback"]]
    # The kernel keeps reject ("unreachable") routes on lo in every namespace; they lead nowhere.
    usable = [r for r in routes if not r["reject"]]
    outward = [r for r in usable if r["iface"] != "lo" or r["default"]]
    denied = not up and not outward
    return {
        "network": "denied" if denied else "unrestricted",
        "egress_checked": True,
        "interfaces_up": up,
        "routes_out": len(outward),
        "default_route": any(r["default"] for r in usable),
        "interfaces": interfaces,
    }
