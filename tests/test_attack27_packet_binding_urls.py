"""Attack 27: a packet's `repository.url` that git fetches from one host and binding.py named by another.

An authority ends at its first `/`, `?` or `#` (RFC 3986, and curl, which git's HTTP transport uses), so
`https://evil.example#@github.com/acme/app` is fetched from evil.example. binding.py took everything up to an `@` as the
user part and named it `github.com/acme/app`: a run on an attacker's server, signed by the runner (`run --repo` takes
the URL: no credentials in it), counted in acme/app's CI. Such a URL, one with a backslash before the host (fail
closed: URL readers disagree there), and a
`file://` URL with a host (a path on the runner's disk, as the docstring said) now name nothing: the claims are
unverified there (review, as an unsigned packet gets).
"""

from __future__ import annotations

import subprocess

import pytest
from tables import each_case

from gatekeeper.attest.binding import repository_name

TARGET = "github.com/acme/app"
# each names a host other than github.com to git (`#`, `?`), to other URL readers (a backslash: a `/` to WHATWG's;
# curl takes github.com), or a path on the runner's disk (`file://`): none names the repository
ELSEWHERE = [
    "https://evil.example#@github.com/acme/app", "https://evil.example?@github.com/acme/app",
    "http://127.0.0.1:9#@github.com/acme/app", "https://evil.example/#@github.com/acme/app",
    "ssh://evil.example#@github.com/acme/app", "git://evil.example?x@github.com/acme/app",
    "https://evil.example\\@github.com/acme/app", "https://evil.example\\x@github.com/acme/app",
    "file://github.com/acme/app", "FILE://github.com/acme/app",
]
SAME = ["https://github.com/acme/app", "https://token@github.com/acme/app.git", "git@github.com:acme/app.git",
        "ssh://git@github.com:22/acme/app", "https://GitHub.com/Acme/App/"]


@each_case("url", ELSEWHERE)
def test_a_url_fetched_elsewhere_does_not_name_the_repository(url: str) -> None:
    assert repository_name(url) != TARGET


@each_case("url", SAME)
def test_the_repositorys_own_spellings_still_name_it(url: str) -> None:
    assert repository_name(url) == TARGET


@pytest.mark.parametrize("sep", ["#", "?"])
def test_git_fetches_from_the_host_before_the_separator(sep: str) -> None:
    """The real git on a closed loopback port: it connects to 127.0.0.1, not github.com (offline: no DNS asked)."""
    done = subprocess.run(["git", "ls-remote", f"http://127.0.0.1:9{sep}@github.com/acme/app"], capture_output=True,
                          text=True, timeout=60, env={"PATH": "/usr/bin:/bin", "GIT_TERMINAL_PROMPT": "0",
                                                      "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1"})
    assert done.returncode != 0 and "127.0.0.1 port 9" in done.stderr, done.stderr
    assert repository_name(f"http://127.0.0.1:9{sep}@github.com/acme/app") != TARGET
