"""The catch-all's packet handling: what an outgoing IP packet tried to reach, and the answer that makes it fail.

Standard library only: it runs in the sandbox's first process (catchall.py). Every packet comes from
the generator's own kernel, but the generator chooses its bytes (raw sockets are out of reach without
capabilities, yet UDP payloads and DNS names are its own): each parser is bounded and returns None on
anything it does not understand rather than raising.
"""

from __future__ import annotations

import ipaddress
import struct

TCP, UDP, ICMP, ICMPV6 = 6, 17, 1, 58
_TCP_SYN, _TCP_ACK = 0x02, 0x10
_ICMP_ECHO, _ICMPV6_ECHO = 8, 128
_IGMP = 2
_IPV6_OPTIONS = frozenset({0, 43, 60})
_IPV6_FRAGMENT = 44
# The kernel's own IPv6 housekeeping on the device (router solicitation, neighbour discovery, MLD reports).
_ICMPV6_KERNEL = frozenset({130, 131, 132, 133, 134, 135, 136, 137, 143})
_PROTOCOLS = {TCP: "tcp", UDP: "udp", ICMP: "icmp", ICMPV6: "icmpv6"}
_QTYPES = {1: "A", 2: "NS", 5: "CNAME", 6: "SOA", 12: "PTR", 15: "MX", 16: "TXT", 28: "AAAA", 33: "SRV",
           64: "SVCB", 65: "HTTPS", 255: "ANY"}


class Attempt:
    """One attempt to leave the sandbox: a TCP SYN, a UDP datagram (a DNS query), an echo request, or another
    protocol; `name` is the DNS query's name, `answer` the packet that makes the attempt fail (None: none).

    Immutable, with slots; not a dataclass nor a NamedTuple: importing dataclasses (inspect, ast) or typing would
    cost every sandbox start ~9 ms or ~5 ms (the shim's imports: ~21 ms with typing, ~16 ms without)."""

    __slots__ = ("family", "protocol", "src", "dst", "port", "name", "qtype", "answer")
    family: int  # 4 | 6
    protocol: str
    src: str
    dst: str
    port: int | None
    name: str | None
    qtype: str | None
    answer: bytes | None

    def __init__(self, family: int, protocol: str, src: str, dst: str, port: int | None, name: str | None,
                 qtype: str | None, answer: bytes | None) -> None:
        for slot, value in zip(self.__slots__, (family, protocol, src, dst, port, name, qtype, answer), strict=True):
            object.__setattr__(self, slot, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an Attempt is immutable: cannot set {name}")

    def record(self) -> dict[str, object]:
        """The attempt as one record of the egress log (JSON-ready)."""
        kind = "dns" if self.name is not None else self.protocol
        return {"kind": kind, "family": self.family, "dst": self.dst, "port": self.port,
                "host": self.name if self.name is not None else self.dst, "qtype": self.qtype}


def _checksum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def _ipv4(src: bytes, dst: bytes, protocol: int, payload: bytes) -> bytes:
    header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0, 0x4000, 64, protocol, 0, src, dst)
    return header[:10] + struct.pack("!H", _checksum(header)) + header[12:] + payload


def _ipv6(src: bytes, dst: bytes, protocol: int, payload: bytes) -> bytes:
    return struct.pack("!IHBB16s16s", 6 << 28, len(payload), protocol, 64, src, dst) + payload


def _pseudo(src: bytes, dst: bytes, protocol: int, length: int) -> bytes:
    if len(src) == 4:
        return struct.pack("!4s4sBBH", src, dst, 0, protocol, length)
    return struct.pack("!16s16sIxxxB", src, dst, length, protocol)


def _unreachable(family: int, original: bytes, src: bytes, dst: bytes) -> bytes:
    """ICMP "administratively prohibited" for `original`, from its destination: connect() fails at once."""
    if family == 4:
        body = struct.pack("!BBHI", 3, 13, 0, 0) + original[:28]
        body = body[:2] + struct.pack("!H", _checksum(body)) + body[4:]
        return _ipv4(dst, src, ICMP, body)
    quoted = original[:1232]  # the whole answer stays within the IPv6 minimum MTU
    body = struct.pack("!BBHI", 1, 1, 0, 0) + quoted
    checksum = _checksum(_pseudo(dst, src, ICMPV6, len(body)) + body)
    body = body[:2] + struct.pack("!H", checksum) + body[4:]
    return _ipv6(dst, src, ICMPV6, body)


def _question(payload: bytes) -> tuple[str, str, int] | None:
    """The first question of a DNS query: (name, type, end offset), or None when it is not one."""
    if len(payload) < 17 or payload[2] & 0x80 or struct.unpack_from("!H", payload, 4)[0] < 1:
        return None
    labels: list[str] = []
    at = 12
    while at < len(payload) and len(labels) <= 127:
        size = payload[at]
        if size == 0:
            break
        if size > 63 or at + 1 + size > len(payload):
            return None  # compression pointers have no place in a question; so is a cut label
        labels.append(payload[at + 1 : at + 1 + size].decode("ascii", "backslashreplace"))
        at += 1 + size
    if at + 5 > len(payload) or payload[at] != 0:
        return None
    qtype = struct.unpack_from("!H", payload, at + 1)[0]
    name = ".".join(labels).lower()[:253] or "."
    return name, _QTYPES.get(qtype, str(qtype)), at + 5


def _refused(family: int, packet_src: bytes, packet_dst: bytes, sport: int, dport: int, query: bytes,
             end: int) -> bytes:
    """A DNS answer REFUSED to `query` (its header and first question echoed), from where it was sent."""
    flags = 0x8000 | (query[2] & 0x79) << 8 | 5  # QR, the query's opcode and RD, RCODE 5
    dns = query[:2] + struct.pack("!HHHHH", flags, 1, 0, 0, 0) + query[12:end]
    length = 8 + len(dns)
    udp = struct.pack("!HHHH", dport, sport, length, 0) + dns
    checksum = _checksum(_pseudo(packet_dst, packet_src, UDP, length) + udp) or 0xFFFF
    udp = udp[:6] + struct.pack("!H", checksum) + udp[8:]
    build = _ipv4 if family == 4 else _ipv6
    return build(packet_dst, packet_src, UDP, udp)


def parse(packet: bytes) -> Attempt | None:
    """What `packet` (an IP packet leaving the sandbox) attempts, or None when it attempts nothing to record:
    the kernel's own housekeeping, a TCP segment that opens nothing, or bytes that are not IP."""
    if len(packet) < 20:
        return None
    version = packet[0] >> 4
    if version == 4:
        header = (packet[0] & 0x0F) * 4
        if header < 20 or len(packet) < header:
            return None
        family, protocol, src, dst = 4, packet[9], packet[12:16], packet[16:20]
        if struct.unpack_from("!H", packet, 6)[0] & 0x1FFF:
            return None  # a later fragment: the first one carried the ports and was recorded
    elif version == 6 and len(packet) >= 40:
        family, protocol, src, dst, header = 6, packet[6], packet[8:24], packet[24:40], 40
        # Hop-by-hop (the kernel's MLD reports carry one), routing and destination options: skip to the payload.
        while protocol in (*_IPV6_OPTIONS, _IPV6_FRAGMENT) and len(packet) >= header + 8:
            if protocol == _IPV6_FRAGMENT:
                if struct.unpack_from("!H", packet, header + 2)[0] >> 3:
                    return None  # a later fragment, as in IPv4: the first one carried the ports and was recorded
                protocol, header = packet[header], header + 8
                continue
            protocol, header = packet[header], header + 8 + packet[header + 1] * 8
    else:
        return None
    payload = packet[header:]
    dst_text = str(ipaddress.ip_address(dst))
    port: int | None = None
    name = qtype = None
    answer: bytes | None = _unreachable(family, packet, src, dst)
    if protocol == TCP:
        if len(payload) < 14 or payload[13] & (_TCP_SYN | _TCP_ACK) != _TCP_SYN:
            return None  # only an opening SYN is an attempt; anything else dies with the unanswered SYN
        port = struct.unpack_from("!H", payload, 2)[0]
    elif protocol == UDP:
        if len(payload) < 8:
            return None
        sport, port = struct.unpack_from("!HH", payload, 0)
        question = _question(payload[8:]) if port == 53 else None
        if question is not None:
            name, qtype, end = question
            answer = _refused(family, src, dst, sport, port, payload[8:], end)
    elif protocol in (ICMP, ICMPV6):
        if not payload or payload[0] in _ICMPV6_KERNEL and protocol == ICMPV6:
            return None
        if payload[0] not in (_ICMP_ECHO, _ICMPV6_ECHO):
            return None  # an error message about something else: the kernel's, not an attempt
        answer = None
    elif protocol == _IGMP:
        return None  # the kernel's multicast membership reports
    else:
        answer = None
    return Attempt(family, _PROTOCOLS.get(protocol, f"ip-{protocol}"), str(ipaddress.ip_address(src)),
                   dst_text, port, name, qtype, answer)
