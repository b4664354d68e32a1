"""Inside the sandbox: http://127.0.0.1:PORT, bridged byte for byte to the relay's unix socket.

Standard library only: it runs in the sandbox's first process (inside.py) before the generator
starts. The sandbox's network namespace has only loopback, so this port is the one way out, and
it leads only to the relay, which decides what passes.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterable

# What each SDK reads, and where it finds its API behind the relay (relay_api.CLIENT_BASES; this module
# stays standard-library-only and free of gatekeeper imports, as the shim loads it).
_CLIENTS = {
    "anthropic": ("ANTHROPIC_BASE_URL", "/anthropic", "ANTHROPIC_API_KEY"),
    "openai": ("OPENAI_BASE_URL", "/openai/v1", "OPENAI_API_KEY"),
}
PLACEHOLDER_KEY = "gatekeeper-relay-placeholder-key"
# sun_path holds 108 bytes; a longer socket path is reached through its folder's descriptor.
_SUN_PATH_MAX = 100


def reachable_path(path: str) -> str:
    """`path`, or an equivalent short one through /proc/self/fd when it is too long for a unix socket."""
    if len(os.fsencode(path)) <= _SUN_PATH_MAX:
        return path
    folder = os.open(os.path.dirname(path), os.O_PATH | os.O_DIRECTORY)  # kept open for the process's life
    return f"/proc/self/fd/{folder}/{os.path.basename(path)}"


def client_environment(port: int, apis: Iterable[str]) -> dict[str, str]:
    """The variables that point each SDK at the bridge, with a key that is useless anywhere else."""
    values = {}
    for api in apis:
        base_var, base, key_var = _CLIENTS[api]
        values[base_var] = f"http://127.0.0.1:{port}{base}"
        values[key_var] = PLACEHOLDER_KEY
    return values


SECRET_MAX = 128  # the relay's secret (64 hex digits) and its newline fit


def read_secret(fd: int) -> bytes:
    """The relay's secret from the pipe `fd` (relay.Relay.key_pipe), which is closed; ValueError without one."""
    data = b""
    try:
        while len(data) <= SECRET_MAX and (chunk := os.read(fd, SECRET_MAX + 1)):
            data += chunk
    finally:
        os.close(fd)
    secret = data.removesuffix(b"\n")
    if not secret or len(data) > SECRET_MAX or not secret.isalnum():
        raise ValueError("no secret from the runner")
    return secret


def start_bridge(relay_socket: str, secret: bytes) -> int:
    """Listen on 127.0.0.1 (a free port) and bridge every connection to `relay_socket`, each opened with the relay's
    `secret` (the relay serves no other); the port."""
    relay_socket = reachable_path(relay_socket)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    threading.Thread(target=_accept, args=(listener, relay_socket, secret + b"\n"), daemon=True).start()
    return int(listener.getsockname()[1])


def _accept(listener: socket.socket, relay_socket: str, opening: bytes) -> None:
    while True:
        client, _ = listener.accept()
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(relay_socket)
            upstream.sendall(opening)
        except OSError:
            client.close()
            upstream.close()
            continue
        threading.Thread(target=_pump, args=(client, upstream), daemon=True).start()
        threading.Thread(target=_pump, args=(upstream, client), daemon=True).start()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(1 << 16):
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        # Half-close so the other side sees the end of this direction, then release both when done.
        for sock, how in ((sink, socket.SHUT_WR), (source, socket.SHUT_RD)):
            try:
                sock.shutdown(how)
            except OSError:
                pass
