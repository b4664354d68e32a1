"""The suite's egress guard (tests/loopback_only.py) refuses what leaves loopback and lets loopback through."""

from __future__ import annotations

import socket
import sys

import pytest
from loopback_only import NonLoopbackTraffic, is_loopback
from tables import each_case


@each_case("host", ["127.0.0.1", "::1", "127.0.0.2", "localhost", "LOCALHOST.", "[::1]", b"127.0.0.1",
                                  "::1%lo", "", None])
def test_loopback_stays(host: object) -> None:
    assert is_loopback(host)


@each_case("host", ["169.254.169.254", "10.0.0.1", "fd00:ec2::254", "[fd00:ec2::254]", "evil.example",
                                  "0.0.0.0", "::", "::ffff:10.0.0.1", "localhost.evil.example", b"10.0.0.1"])
def test_everything_else_is_refused(host: object) -> None:
    assert not is_loopback(host)


# The installed hook is asked through sys.audit, the event the socket module raises before its system call: were the
# hook missing, these tests would fail without any packet being sent.
def test_the_installed_hook_refuses_a_connection_before_it_leaves() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock, pytest.raises(NonLoopbackTraffic):
        sys.audit("socket.connect", sock, ("169.254.169.254", 80))
    with socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as sock, pytest.raises(NonLoopbackTraffic):
        sys.audit("socket.sendto", sock, ("fd00:ec2::254", 53, 0, 0))


def test_the_installed_hook_refuses_a_name_lookup() -> None:
    with pytest.raises(NonLoopbackTraffic):
        sys.audit("socket.getaddrinfo", "evil.example", 443, 0, 0, 0)


def test_a_unix_socket_is_not_asked_about() -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sys.audit("socket.connect", sock, "/run/relay.sock")


def test_loopback_connections_pass() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.create_connection(server.getsockname(), timeout=5):
            pass
