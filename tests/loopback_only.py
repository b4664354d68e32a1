"""The suite's own egress rule, enforced: a test process connects, and resolves names, on loopback only.

DESIGN.md (Sandbox and egress): tests send traffic nowhere but 127.0.0.1 and ::1, or a network namespace a test
made itself (in a child process, which this in-process hook does not see). Red team 20's relay tests hand the relay
requests naming 169.254.169.254 or 10.0.0.1, which it must refuse; should a regression ever pass one on, this hook
refuses the connection instead of letting it leave the machine (the test fails with the reason).
"""

from __future__ import annotations

import ipaddress
import socket
import sys

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


class NonLoopbackTraffic(OSError):
    """A test tried to reach (or resolve) something other than loopback."""


def is_loopback(host: object) -> bool:
    """Whether `host` (a name, an address, bytes, None for a wildcard) stays on this machine."""
    if host is None:
        return True  # getaddrinfo(None, port): the local wildcard or loopback
    text = host.decode("ascii", "replace") if isinstance(host, bytes) else str(host)
    text = text.split("%", 1)[0].strip("[]")
    if text == "" or text.lower().rstrip(".") in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False  # a name that is not loopback's: resolving it would ask a DNS server


def _hook(event: str, args: tuple[object, ...]) -> None:
    if event == "socket.connect" or event == "socket.sendto":
        sock, address = args[0], args[-1]
        if getattr(sock, "family", None) in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple) \
                and not is_loopback(address[0]):
            raise NonLoopbackTraffic(f"a test tried to reach {address!r}: tests stay on loopback (DESIGN.md)")
    elif event == "socket.getaddrinfo" and not is_loopback(args[0]):
        raise NonLoopbackTraffic(f"a test tried to resolve {args[0]!r}: tests stay on loopback (DESIGN.md)")


def install() -> None:
    """Add the hook to this process (for good: audit hooks cannot be removed)."""
    sys.addaudithook(_hook)
