"""What `run --repo` may name: no credentials in a URL (git keeps the URL in the clone's .git/config)."""

from __future__ import annotations

import re

from gatekeeper.errors import UsageError

_USERINFO = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)@")


def check_repo(repo: str) -> None:
    """UsageError for a `--repo` URL that carries credentials: git keeps the URL as given in the clone's .git/config
    (read inside the sandbox) and the packet's `repository.url` names it. A user name alone is fine for ssh."""
    # Anywhere in the value, not only at its start: git also takes `<transport>::<address>` (`http::http://...`).
    for found in _USERINFO.finditer(repo):
        if ":" in found.group(2) or found.group(1).lower() in ("http", "https", "ftp", "ftps"):
            raise UsageError("the repository URL carries credentials, which the sandbox and the packet would see",
                             where="--repo", hint="drop them from the URL; give them through a git credential helper")
