"""Stopping a socketserver loop at once, for the servers the runner and the demo run in a thread."""

from __future__ import annotations

import socket
import socketserver


def wake_and_shut_down(server: socketserver.TCPServer) -> None:
    """`server.shutdown()` without waiting for the serve loop's next poll (0.5 s by default): the listening socket
    is shut for reading first, which wakes the loop (it sees only a refused accept) until the shutdown request
    stops it. Requests being answered go on; no new connection is accepted."""
    try:
        server.socket.shutdown(socket.SHUT_RD)
    except OSError:
        pass  # the loop then notices at its next poll
    server.shutdown()
