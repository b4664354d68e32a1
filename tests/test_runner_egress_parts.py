"""The catch-all's parts in-process: the packet parser against hostile bytes, the answers it builds, and the
runner's side of the egress log (hostile lines, the cap, what the packet claims when something is missing)."""

from __future__ import annotations

import ipaddress
import json
import os
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tables import each_case

from gatekeeper.runner import egresslog, packets
from gatekeeper.runner.relay import read_log

SRC4, DST4 = ipaddress.ip_address("198.18.0.1").packed, ipaddress.ip_address("192.0.2.10").packed
SRC6, DST6 = ipaddress.ip_address("fdff:ffff:ffff::1").packed, ipaddress.ip_address("2001:db8::10").packed


def _sum(data: bytes) -> int:
    return packets._checksum(data)


def ipv4(protocol: int, payload: bytes, *, dst: bytes = DST4, frag: int = 0x4000) -> bytes:
    return packets._ipv4(SRC4, dst, protocol, payload)[:6] + struct.pack("!H", frag) + \
        packets._ipv4(SRC4, dst, protocol, payload)[8:]


def tcp(port: int, flags: int) -> bytes:
    return struct.pack("!HHIIBBHHH", 40000, port, 1, 0, 5 << 4, flags, 65535, 0, 0)


def dns_query(name: bytes, qtype: int = 1) -> bytes:
    return struct.pack("!HHHHHH", 0x1234, 0x0100, 1, 0, 0, 0) + name + struct.pack("!HH", qtype, 1)


def udp(port: int, payload: bytes) -> bytes:
    return struct.pack("!HHHH", 53000, port, 8 + len(payload), 0) + payload


def labels(*parts: bytes) -> bytes:
    return b"".join(bytes([len(p)]) + p for p in parts) + b"\0"


def test_a_syn_is_an_attempt_answered_by_an_unreachable_with_valid_checksums() -> None:
    packet = ipv4(packets.TCP, tcp(443, 0x02))
    attempt = packets.parse(packet)
    assert attempt is not None and attempt.record() == {"kind": "tcp", "family": 4, "dst": "192.0.2.10", "port": 443,
                                                        "host": "192.0.2.10", "qtype": None}
    answer = attempt.answer
    assert answer is not None and _sum(answer[:20]) == 0  # the IPv4 header checks
    assert answer[12:16] == DST4 and answer[16:20] == SRC4 and answer[9] == packets.ICMP
    assert answer[20:22] == b"\x03\x0d" and _sum(answer[20:]) == 0  # administratively prohibited, checked
    assert answer[28:] == packet[:28]  # quotes the original header and ports: the kernel finds the socket


def test_ipv6_syn_and_its_icmpv6_answer() -> None:
    packet = packets._ipv6(SRC6, DST6, packets.TCP, tcp(80, 0x02))
    attempt = packets.parse(packet)
    assert attempt is not None and (attempt.family, attempt.dst, attempt.port) == (6, "2001:db8::10", 80)
    answer = attempt.answer
    assert answer is not None and answer[6] == packets.ICMPV6 and answer[40:42] == b"\x01\x01"
    body = answer[40:]
    assert _sum(packets._pseudo(DST6, SRC6, packets.ICMPV6, len(body)) + body) == 0


def test_a_dns_query_is_recorded_by_name_and_refused() -> None:
    query = dns_query(labels(b"Api", b"Example", b"COM"), 28)
    packet = ipv4(packets.UDP, udp(53, query))
    attempt = packets.parse(packet)
    assert attempt is not None and attempt.record()["kind"] == "dns"
    assert (attempt.name, attempt.qtype, attempt.port) == ("api.example.com", "AAAA", 53)
    answer = attempt.answer
    assert answer is not None and answer[9] == packets.UDP and _sum(answer[:20]) == 0
    segment = answer[20:]
    assert _sum(packets._pseudo(DST4, SRC4, packets.UDP, len(segment)) + segment) == 0
    dns = segment[8:]
    assert dns[:2] == b"\x12\x34" and dns[3] & 0x0F == 5 and dns[2] & 0x80  # same id, a response, REFUSED
    assert dns[12:] == query[12:]  # the question echoed


@each_case("name", [
    b"\xc0\x0c",  # a compression pointer
    b"\x40" + b"a" * 64 + b"\0",  # a label over 63 bytes
    b"\x05abc",  # cut short
    labels(b"a") [:-1],  # no end
])
def test_a_malformed_query_is_still_recorded_as_a_datagram(name: bytes) -> None:
    attempt = packets.parse(ipv4(packets.UDP, udp(53, dns_query(name))))
    assert attempt is not None and attempt.record()["kind"] == "udp" and attempt.name is None
    assert attempt.answer is not None and attempt.answer[20] == 3  # an ICMP unreachable instead


@each_case("flags", [0x10, 0x12, 0x04, 0x11, 0x18])  # ACK, SYN-ACK, RST, FIN-ACK, PSH-ACK
def test_segments_that_open_nothing_are_not_attempts(flags: int) -> None:
    assert packets.parse(ipv4(packets.TCP, tcp(443, flags))) is None


def test_the_kernels_own_housekeeping_is_not_an_attempt() -> None:
    router_solicitation = packets._ipv6(SRC6, DST6, packets.ICMPV6, bytes([133, 0, 0, 0, 0, 0, 0, 0]))
    hop_by_hop_mld = packets._ipv6(SRC6, DST6, 0, bytes([packets.ICMPV6, 0, 5, 2, 0, 0, 1, 0])
                                   + bytes([143, 0, 0, 0, 0, 0, 0, 0]))
    igmp = ipv4(2, bytes(8))
    later_fragment = ipv4(packets.TCP, tcp(443, 0x02), frag=0x0010)
    for packet in (router_solicitation, hop_by_hop_mld, igmp, later_fragment):
        assert packets.parse(packet) is None


def test_echo_and_other_protocols_are_attempts_without_an_answer() -> None:
    echo = packets.parse(ipv4(packets.ICMP, bytes([8, 0, 0, 0, 0, 1, 0, 1])))
    sctp = packets.parse(ipv4(132, bytes(12)))
    assert echo is not None and echo.record()["kind"] == "icmp" and echo.answer is None
    assert sctp is not None and sctp.record()["kind"] == "ip-132" and sctp.record()["host"] == "192.0.2.10"


def test_an_ipv6_datagram_in_fragments_is_one_attempt_with_its_port() -> None:
    first = packets._ipv6(SRC6, DST6, 44, bytes([packets.UDP, 0, 0, 1, 0, 0, 0, 7]) + udp(4000, b"f" * 64))
    later = packets._ipv6(SRC6, DST6, 44, bytes([packets.UDP, 0, 0, 0xB9, 0, 0, 0, 7]) + b"f" * 64)  # offset 23
    attempt = packets.parse(first)
    assert attempt is not None and (attempt.protocol, attempt.port) == ("udp", 4000)
    assert packets.parse(later) is None


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=200))
def test_hostile_bytes_never_break_the_parser(data: bytes) -> None:
    for packet in (data, b"\x45" + data, b"\x60" + data, ipv4(packets.UDP, udp(53, data)),
                   packets._ipv6(SRC6, DST6, packets.UDP, udp(53, data)), packets._ipv6(SRC6, DST6, 44, data)):
        attempt = packets.parse(packet)
        if attempt is not None:
            json.dumps(attempt.record())
            assert attempt.name is None or len(attempt.name) <= 253


def _pipe_records(tmp_path: Path, lines: list[bytes]) -> tuple[egresslog.EgressRecorder, list[dict]]:
    recorder = egresslog.EgressRecorder(tmp_path / "egress.jsonl")
    writer = recorder.hand_over()
    for line in lines:
        os.write(writer, line)
    os.close(writer)
    recorder.stop()
    return recorder, read_log(tmp_path / "egress.jsonl")


def _line(record: dict) -> bytes:
    return json.dumps(record).encode() + b"\n"


STATUS = {"kind": "status", "recording": "recorded", "error": None}


def test_hostile_lines_become_unparsed_attempts_never_claims(tmp_path: Path) -> None:
    lines = [_line(STATUS), b"not json\n", b"[1, 2]\n", b"x" * 9000 + b"\n",
             _line({"kind": "overflow", "count": -5}), _line({"kind": "tcp", "host": 7, "port": "443", "extra": 1}),
             _line({"kind": "tcp", "host": "192.0.2.1", "port": 443, "refused": False}),
             _line({"kind": "summary", "dropped": 0})]
    recorder, records = _pipe_records(tmp_path, lines)
    assert [r["kind"] for r in records] == ["status", "unparsed", "unparsed", "unparsed", "unparsed", "tcp", "tcp",
                                            "summary"]
    assert all(r["refused"] for r in records[1:-1])  # every one counts as a refused attempt
    assert records[5] == {"kind": "tcp", "host": "unparsed", "refused": records[5]["refused"]}
    egress = egresslog.sandbox_egress(recorder)
    assert egress["recording"] == "recorded" and egress["refused"] == 6
    assert egress["refused_by_host"] == [{"host": "192.0.2.1", "count": 1}, {"host": "unparsed", "count": 5}]


def test_a_flood_is_capped_and_counted_as_unrecorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(egresslog, "MAX_RECORDS", 5)
    attempt = {"kind": "udp", "host": "203.0.113.7", "port": 9}
    recorder, records = _pipe_records(tmp_path, [_line(STATUS), *[_line(attempt)] * 12,
                                                  _line({"kind": "summary", "dropped": 3})])
    assert sum(r["kind"] == "udp" for r in records) == 5 and records[-1]["kind"] == "overflow"
    egress = egresslog.sandbox_egress(recorder)
    assert egress["refused"] == 12 and egress["unrecorded"] == 7 + 3  # beyond the cap, and dropped by the queue
    assert {"host": "unrecorded", "count": 7} in egress["refused_by_host"]


@each_case(("earlier", "lines", "reason"), [
    ([], [], "sent no egress status"),  # the shim never said: not recorded
    ([], [_line({**STATUS, "recording": "unavailable", "error": "no catch-all device: EPERM"})], "EPERM"),
    ([], [_line({**STATUS, "recording": "yes please"})], "could not record"),  # anything but "recorded" is not
    ([], [_line(STATUS), _line({"kind": "error", "error": "catch-all stopped: EIO"})], "the catch-all stopped"),
    ([], [_line(STATUS), _line({"kind": "summary", "dropped": -1})], "the catch-all stopped"),
    # No summary: the shim was ended (killed, a timeout) with packets perhaps still queued on its device.
    ([], [_line(STATUS), _line({"kind": "udp", "host": "192.0.2.1", "port": 9})], "before it could count"),
    ([_line(STATUS)], [_line(STATUS), _line({"kind": "summary", "dropped": 0})], "before it could count"),
    # A resumed run is only as recorded as its least recorded attempt.
    ([_line({**STATUS, "recording": "unavailable", "error": "attempt 1 had none"})], [_line(STATUS)],
     "attempt 1 had none"),
])
def test_recording_is_claimed_only_when_every_part_says_so(tmp_path: Path, earlier: list[bytes], lines: list[bytes],
                                                            reason: str) -> None:
    if earlier:
        _pipe_records(tmp_path, earlier)
    recorder, _ = _pipe_records(tmp_path, lines)
    egress = egresslog.sandbox_egress(recorder)
    assert egress["recording"] == "unavailable" and reason in (egress["reason"] or "")


def test_the_log_is_appended_to_across_attempts(tmp_path: Path) -> None:
    _pipe_records(tmp_path, [_line(STATUS), _line({"kind": "tcp", "host": "192.0.2.1", "port": 1})])
    with open(tmp_path / "egress.jsonl", "ab") as handle:
        handle.write(b'{"kind":"tcp","ho')  # torn by a kill
    recorder, records = _pipe_records(tmp_path, [_line(STATUS), _line({"kind": "tcp", "host": "192.0.2.1", "port": 1})])
    assert [r["kind"] for r in records] == ["status", "tcp", "status", "tcp"]
    assert egresslog.sandbox_egress(recorder)["refused_by_host"] == [{"host": "192.0.2.1", "count": 2}]
