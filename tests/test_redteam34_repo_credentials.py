"""Red team 34: credentials in `run --repo URL` reached the generator and the signed packet.

`git clone` keeps the URL as given in the clone's `.git/config` (`remote.origin.url`), password or token
included, and the workspace's `.git` is readable inside the sandbox: a generator copied it into its patch. The
packet's `repository.url` (signed, and carried in the pull request) named it too. Now a `--repo` URL with a
password, or any user part in an http(s) URL (a token as the user name), is a usage error (exit 2) before
anything is cloned, and the message does not repeat the secret; credentials come from the caller's git setup
(a credential helper), which the clone uses and which never reaches the workspace.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import gk_in

from gatekeeper.serving import wake_and_shut_down

pytestmark = pytest.mark.usefixtures("runner_bundle")

SECRET = "s3cret-34"
LEAK = "import shutil\nshutil.copyfile('.git/config', 'leak.txt')\n"


class _Backend(http.server.BaseHTTPRequestHandler):
    """`git http-backend` as a CGI program, run for each request (as the test's own user)."""

    root = ""

    def _cgi(self) -> None:
        path, _, query = self.path.partition("?")
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GIT_PROJECT_ROOT": self.root,
               "GIT_HTTP_EXPORT_ALL": "1", "REQUEST_METHOD": self.command, "PATH_INFO": path,
               "QUERY_STRING": query, "CONTENT_TYPE": self.headers.get("Content-Type") or "",
               "CONTENT_LENGTH": str(len(body)), "REMOTE_ADDR": "127.0.0.1", "GIT_CONFIG_NOSYSTEM": "1"}
        done = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True, timeout=60)
        head, _, payload = done.stdout.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = next((int(v.split()[0]) for k, _, v in (ln.partition(": ") for ln in lines) if k == "Status"), 200)
        self.send_response(status)
        for key, _, value in (ln.partition(": ") for ln in lines):
            if key and key != "Status":
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = _cgi

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def smart_http(tmp_path: Path) -> Iterator[str]:
    """git's smart HTTP on loopback: `host:port/repo.git` of a one-commit repository."""
    origin = GitRepo(tmp_path / "origin")
    origin.write("README.md", "# sample\n")
    origin.commit()
    subprocess.run(["git", "clone", "-q", "--bare", str(origin.root), str(tmp_path / "srv" / "repo.git")], check=True)
    handler = type("Backend", (_Backend,), {"root": str(tmp_path / "srv")})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}/repo.git"
    finally:
        wake_and_shut_down(server)
        server.server_close()


def _run(tmp_path: Path, repo: str) -> tuple[int, str, str, Path]:
    (tmp_path / "gen.py").write_text(LEAK)
    out = tmp_path / "runs"
    done = gk_in("run", "--repo", repo, "--out", str(out), "--sandbox", "unshare", "--format", "json", "--",
                 sys.executable, str(tmp_path / "gen.py"))
    return done.returncode, done.stdout, done.stderr, out


def test_a_clone_url_without_credentials_runs(tmp_path: Path, smart_http: str) -> None:
    """The control: the same server, no credentials in the URL: the run works (and the config names no secret)."""
    code, stdout, stderr, _ = _run(tmp_path, f"http://{smart_http}")
    assert code == 0, stderr
    assert "leak.txt" in Path(json.loads(stdout)["patch"]).read_text()


@pytest.mark.parametrize("userinfo", [f"user:{SECRET}", SECRET, f"x-access-token:{SECRET}"])
def test_credentials_in_the_repo_url_never_reach_the_sandbox_or_the_packet(tmp_path: Path, smart_http: str,
                                                                          userinfo: str) -> None:
    code, stdout, stderr, out = _run(tmp_path, f"http://{userinfo}@{smart_http}")
    written = "".join(p.read_text(errors="replace") for p in out.rglob("*") if p.is_file()) if out.exists() else ""
    assert SECRET not in written + stdout + stderr
    assert code == 2, stderr
    assert "credentials" in stderr and "--repo" in stderr


@pytest.mark.parametrize("url", [f"https://user:{SECRET}@127.0.0.1:1/r.git", f"https://{SECRET}@127.0.0.1:1/r",
                                 f"ssh://git:{SECRET}@127.0.0.1:1/r.git", f"HTTPS://{SECRET}@127.0.0.1:1/r",
                                 f"ftp://u:{SECRET}@127.0.0.1:1/r"])  # loopback, a closed port: nothing off the machine
def test_credential_forms_are_refused_before_any_clone(tmp_path: Path, url: str) -> None:
    code, stdout, stderr, out = _run(tmp_path, url)
    assert code == 2 and "credentials" in stderr, stderr
    assert SECRET not in stdout + stderr
    assert not out.exists() or not any(out.iterdir())
