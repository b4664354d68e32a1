"""Review of the sandbox's egress: abstract and filesystem unix sockets, IPv6 loopback (loopback only).

The runs are in-process (runbundle.gk_in: the sandbox is a child either way), the one that finds its tool by
the caller's PATH too: the runner reads PATH from os.environ at the call, which the call's `env` replaces. The
three socket tests judge one run per backend, whose generator tries all three sockets."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import sys
import threading
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import BACKENDS, EVERYTHING_IS_SRC, gk_in

pytestmark = pytest.mark.usefixtures("runner_bundle")


def generate(tmp_path: Path, backend: str, script: str, *args: str, policy: Path | None = None) -> str:
    """Run `script` as the generator; its stdout log."""
    repo = GitRepo(tmp_path / "origin")
    repo.write("README.md", "# sample\n")
    repo.commit()
    gen = tmp_path / "gen.py"
    gen.write_text(script)
    chosen = ["--policy", str(policy)] if policy is not None else []
    done = gk_in("run", "--repo", str(repo.root), "--out", str(tmp_path / "runs"), "--sandbox", backend, *chosen,
                 "--format", "json", "--", sys.executable, str(gen), *args)
    assert done.returncode == 0, done.stderr
    return Path(json.loads(done.stdout)["logs"]["stdout"]).read_text()


class Server:
    """A stream server that answers every connection with one line."""

    def __init__(self, family: int, address: object) -> None:
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.bind(address)
        self.sock.listen(8)
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.sendall(b"hello from the host\n")
            conn.close()

    def close(self) -> None:
        self.sock.close()


# Every target in one generator: (label, family, address) triples; one line per target, starting with its label.
CONNECT = """
import socket, sys
for label, family, address in zip(sys.argv[1::3], sys.argv[2::3], sys.argv[3::3]):
    if family == "unix":
        target, kind = address.replace("@", "\\0", 1), socket.AF_UNIX
    else:
        target, kind = ("::1", int(address)), socket.AF_INET6
    try:
        with socket.socket(kind, socket.SOCK_STREAM) as conn:
            conn.settimeout(2)
            conn.connect(target)
            print(label, "reached:", conn.recv(100).decode().strip())
    except OSError as exc:
        print(label, "unreachable:", type(exc).__name__)
"""


def _reachable_from_host(family: int, address: object) -> bool:
    with socket.socket(family, socket.SOCK_STREAM) as conn:
        conn.settimeout(2)
        conn.connect(address)
        return conn.recv(100) == b"hello from the host\n"


def _have_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.fixture(scope="module", params=BACKENDS)
def reached(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One run per backend that tries every host socket below (each served, and reached from the host, while it
    runs): what the generator printed for each, by label. The tests below each judge one of them."""
    backend, tmp_path = request.param, tmp_path_factory.mktemp("sockets")
    servers, targets = [], []
    paths = []
    try:
        # Abstract unix sockets belong to a network namespace, not to the filesystem.
        name = f"@gatekeeper-review-{secrets.token_hex(6)}"
        servers.append(Server(socket.AF_UNIX, "\0" + name[1:]))
        assert _reachable_from_host(socket.AF_UNIX, "\0" + name[1:])
        targets += ["abstract", "unix", name]
        if os.access("/run", os.W_OK):
            # A filesystem socket is reachable from any network namespace: /run (docker.sock, D-Bus) is covered.
            path = f"/run/gatekeeper-review-{secrets.token_hex(6)}.sock"
            servers.append(Server(socket.AF_UNIX, path))
            paths.append(path)
            assert _reachable_from_host(socket.AF_UNIX, path)
            targets += ["run", "unix", path]
        if _have_ipv6_loopback():
            servers.append(Server(socket.AF_INET6, ("::1", 0)))
            port = servers[-1].sock.getsockname()[1]
            assert _reachable_from_host(socket.AF_INET6, ("::1", port))
            targets += ["ipv6", "ipv6", str(port)]
        (tmp_path / "policies").mkdir()
        (tmp_path / "policies" / ".manifest").write_text('{"revision": "runner-test", "roots": ["gatekeeper"]}')
        (tmp_path / "policies" / "classification.yaml").write_text(EVERYTHING_IS_SRC)
        out = generate(tmp_path, backend, CONNECT, *targets, policy=tmp_path / "policies")
    finally:
        for server in servers:
            server.close()
        for path in paths:
            os.unlink(path)
    lines = [line.split(" ", 1) for line in out.splitlines() if line.split(" ", 1)[0] in targets[::3]]
    return {label: said for label, said in lines}


def test_an_abstract_unix_socket_of_the_host_is_unreachable(reached: dict[str, str]) -> None:
    assert reached["abstract"] == "unreachable: ConnectionRefusedError", reached


def test_a_filesystem_socket_under_run_is_hidden(reached: dict[str, str]) -> None:
    if "run" not in reached and not os.access("/run", os.W_OK):
        pytest.skip("cannot create a socket under /run here")
    assert reached["run"] == "unreachable: FileNotFoundError", reached


@pytest.mark.skipif(not _have_ipv6_loopback(), reason="no IPv6 loopback on this host")
def test_the_host_ipv6_loopback_is_unreachable(reached: dict[str, str]) -> None:
    assert reached["ipv6"].startswith("unreachable:"), reached


@pytest.mark.parametrize("backend", BACKENDS)
def test_program_folders_under_run_stay_visible_read_only(tmp_path: Path, backend: str) -> None:
    # NixOS keeps PATH under /run (/run/current-system/sw/bin): hiding /run must not hide the generator's tools.
    if not os.access("/run", os.W_OK):
        pytest.skip("cannot create a folder under /run here")
    tag = secrets.token_hex(6)
    bin_dir = Path(f"/run/gatekeeper-review-bin-{tag}")
    sock_path = f"/run/gatekeeper-review-{tag}.sock"
    bin_dir.mkdir()
    (bin_dir / "hello-tool").write_text(f"#!/bin/sh\necho tool-ran\n[ -e {sock_path} ] && echo socket-visible\n"
                                       f"touch {bin_dir}/written 2>/dev/null && echo bin-writable\nexit 0\n")
    (bin_dir / "hello-tool").chmod(0o755)
    server = Server(socket.AF_UNIX, sock_path)
    try:
        repo = GitRepo(tmp_path / "origin")
        repo.write("README.md", "# sample\n")
        repo.commit()
        env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
        # In-process: the runner reads the caller's PATH from os.environ at the call, which `env` replaces for it.
        done = gk_in("run", "--repo", str(repo.root), "--out", str(tmp_path / "runs"), "--sandbox", backend,
                     "--format", "json", "--", "hello-tool", env=env)
        assert done.returncode == 0, done.stderr
        out = Path(json.loads(done.stdout)["logs"]["stdout"]).read_text()
    finally:
        server.close()
        os.unlink(sock_path)
        shutil.rmtree(bin_dir)
    assert "tool-ran" in out and "socket-visible" not in out and "bin-writable" not in out, out
