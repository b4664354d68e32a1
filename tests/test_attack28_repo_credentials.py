"""Attack 28: credentials in `run --repo` written in git's `<transport>::<address>` form.

Red team 34 refused a user part in an http(s) URL (and a password in any) when the URL starts with its scheme. git
also takes `http::http://user:TOKEN@host/repo` (the remote helper named before `::`), and keeps that string in the
clone's `.git/config`: over git's smart HTTP on loopback a generator copied it into patch.diff, and the packet and
the runner's output named it (exit 0). Now the credential check looks for a `scheme://userinfo@` anywhere in the
value, so these forms are a usage error (exit 2) before a run folder exists, as the plain form is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_redteam34_repo_credentials import SECRET, _run, smart_http  # noqa: F401  (the fixture, by name)

pytestmark = pytest.mark.usefixtures("runner_bundle")

FORMS = ["http::http://user:{s}@{h}", "http::http://{s}@{h}", "http::http://x-access-token:{s}@{h}",
         " http://user:{s}@{h}", "HTTP::Http://{s}@{h}"]


@pytest.mark.parametrize("form", FORMS)
def test_transport_prefixed_credentials_never_reach_the_sandbox_or_the_packet(tmp_path: Path, smart_http: str,  # noqa: F811
                                                                              form: str) -> None:
    code, stdout, stderr, out = _run(tmp_path, form.format(s=SECRET, h=smart_http))
    written = "".join(p.read_text(errors="replace") for p in out.rglob("*") if p.is_file()) if out.exists() else ""
    assert SECRET not in written + stdout + stderr
    assert code == 2 and "credentials" in stderr, stderr


def test_the_transport_form_without_credentials_is_refused_too(tmp_path: Path, smart_http: str) -> None:  # noqa: F811
    """git's `<transport>::` form starts the remote helper `git-remote-<transport>`, a program found on PATH outside
    the sandbox: refused whatever follows (runner 36; the plain `http://` URL is the control there)."""
    code, stdout, stderr, out = _run(tmp_path, f"http::http://{smart_http}")
    assert code == 2 and "remote helper" in stderr, stderr
    assert not out.exists() or not any(out.iterdir())
