"""What `run --repo` may name: a local path, or a URL git reads as written, with no secret and no program in it.

git keeps the URL in the clone's `.git/config` (and `FETCH_HEAD`), read inside the sandbox, and the packet's
`repository.url` and the run's state name it: so no credentials, query, fragment or token-shaped text. git also
starts `git-remote-<name>` (a program found on PATH, outside the sandbox) for `<name>::<address>` and for any
`<scheme>://` it does not know, reads a value starting with `-` as its own option (`--upload-pack=CMD` ran CMD), and
ignores the host of a `file://` URL. Only the forms below pass; a refusal never repeats the value.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NoReturn

from gatekeeper.errors import UsageError

_USERINFO = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)@")
_TRANSPORT = re.compile(r"[A-Za-z0-9+.-]+::")  # git's test for a remote helper (transport.c: scheme chars, `::`)
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
_SCHEMES = frozenset({"http", "https", "ssh", "git", "git+ssh", "ssh+git", "file"})
_SSH = frozenset({"ssh", "git+ssh", "ssh+git"})
# A user name as ssh takes one (`git`, `deploy_user`), not a token: lowercase, short, few digits.
_LOGIN = re.compile(r"[a-z_][a-z0-9_.-]{0,31}")
# Percent-encoded delimiters (`%3F` ?, `%23` #, `%40` @, `%3A` :, `%2F` /, `%5C` \, `%3D` =, `%26` &, `%25` %) and
# control characters: a reader that decodes once more finds a query, a user part or another host in them.
_ENCODED = re.compile(r"%(?:2[356fF]|3[adfADF]|40|5[cC]|[01][0-9a-fA-F]|7[fF])")
# Tokens of the common forges and clouds, and parameter names that carry one, wherever they stand.
_TOKEN = re.compile(r"gh[pousr]_[A-Za-z0-9]{16,}|github_pat_\w{16,}|gl(?:pat|dt|ptt|rt|cbt|oas|ft)-[\w-]{16,}"
                    r"|xox[abeprs]-[\w-]{10,}|AKIA[0-9A-Z]{16}|(?<![A-Za-z])(?i:(?:access|private|job|auth|api)"
                    r"[_-]?token|token|passw(?:or)?d|secret|api[_-]?key|x-amz-[a-z-]+|sig(?:nature)?)=")


def check_repo(repo: str) -> None:
    """UsageError for a `--repo` that could leak a secret into the run or start a program: see the module."""
    if not repo or repo != repo.strip() or any(ord(c) < 0x20 or ord(c) == 0x7F for c in repo):
        _refuse("it is empty, has white space at an end or holds a control character")
    if repo.startswith("-"):
        _refuse("it starts with '-', which git reads as one of its own options")
    # Anywhere in the value, not only at its start: git also takes `<transport>::<address>` (`http::http://...`).
    for found in _USERINFO.finditer(repo):
        if ":" in found.group(2) or found.group(1).lower() not in _SSH:
            _credentials()
    if _TOKEN.search(repo):
        _credentials()
    if _TRANSPORT.match(repo):
        _refuse("`<transport>::<address>` starts the remote helper git-remote-<transport>, a program outside the "
                "sandbox", hint="name the repository by an http(s), ssh, git or file URL, or a local path")
    scheme = _SCHEME.match(repo)
    if scheme is not None:
        _check_url(scheme.group(1), repo[scheme.end():])
    elif "://" in repo:
        _refuse("it is not a URL git reads as one, nor a local path")
    elif re.match(r"[^/]+:", repo) and not Path(repo).expanduser().exists():  # scp-like `[user@]host:path`
        _check_scp(repo)


def _check_url(scheme: str, rest: str) -> None:
    if scheme not in _SCHEMES:
        _refuse("git starts a remote helper (a program outside the sandbox) for a scheme it does not know",
                hint="use an http, https, ssh, git or file URL (in lower case), or a local path")
    if "?" in rest or "#" in rest or _ENCODED.search(rest) or any(c.isspace() for c in rest):
        _refuse("a query, a fragment, white space or a percent-encoded delimiter would stay in the clone's config "
                "and the packet")
    authority = rest.partition("/")[0]
    user, at, host = authority.rpartition("@")
    if at and (scheme not in _SSH or not _login(user)):
        _credentials()
    if host.startswith("-"):
        _refuse("its host starts with '-', which ssh reads as an option")
    if scheme == "file" and host not in ("", "localhost"):
        _refuse("git ignores the host of a file:// URL and reads the path on this machine",
                hint="give the local path, or file:///PATH")


def _check_scp(repo: str) -> None:
    address = repo.partition(":")[0]
    user, at, host = address.rpartition("@")
    if at and not _login(user):
        _credentials()
    if host.startswith("-") or "?" in repo or "#" in repo or _ENCODED.search(repo) or any(c.isspace() for c in repo):
        _refuse("an scp-like address with a '-' host, a '?', a '#', white space or a percent-encoded delimiter")


def _login(user: str) -> bool:
    return _LOGIN.fullmatch(user) is not None and sum(c.isdigit() for c in user) < 8


def _credentials() -> NoReturn:
    raise UsageError("the repository URL carries credentials, which the sandbox and the packet would see",
                     where="--repo", hint="drop them from the URL; give them through a git credential helper")


def _refuse(why: str, hint: str = "name the repository by a local path or an http(s), ssh, git or file URL "
                                  "without credentials, query or fragment") -> NoReturn:
    raise UsageError(f"the repository is refused: {why}", where="--repo", hint=hint)
