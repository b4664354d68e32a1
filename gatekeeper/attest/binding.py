"""Whether a signed packet speaks for the change the gate judges: its `repository` against what the gate knows.

A signature proves the runner made the packet, not that it made it for this pull request. The signed claims
(sandbox, model, relay) describe a run on one base commit of one repository; a packet and patch from a run on a
fork, or on another base, verify just as well wherever the patch has the same bytes. So a verified signature
counts only when the packet's `repository` matches what the gate judges: with `--tree BASE..HEAD`, its
`base_commit` must be the merge base (the commit the patch is applied to), and where the CI names the repository
(GitHub Actions `GITHUB_SERVER_URL`/`GITHUB_REPOSITORY`, GitLab CI `CI_PROJECT_URL`: the job's environment, never
the checkout) its `url` must name that repository. Otherwise the signature vouches for nothing here: the claims
are unverified (the `provenance` and `sandbox` policies send the change to a human, as for an unsigned packet),
and the reason says why. Not a deny: a signature stripped from the packet would get exactly that review.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from gatekeeper.attest.facts import PacketAttestation

# An authority ends at its first `/`, `?` or `#` (RFC 3986; curl, which git's HTTP transport uses): the user part
# is what comes before an `@` inside it (`https://evil.example#@github.com/x/y` is fetched from evil.example: attack
# 27). A backslash there names nothing (URL readers disagree on it).
_SCHEME = re.compile(r"(?i)([a-z][a-z0-9+.-]*)://(?:[^@/?#\\]*@)?([^/?#\\]*)(/[^?#\\]*)?")
_SCP = re.compile(r"(?:[^@/:]+@)?([^/:]+):(?!//)(.+)")
_PORT = re.compile(r":\d*\Z")


def repository_name(url: object) -> str | None:
    """`host/owner/name`, lowercased, from an https, ssh, git or scp-like URL (or `host/path` as CI variables give
    it); None for a local path or `file://` URL, or anything else without a host and a path."""
    if not isinstance(url, str) or not url.strip():
        return None
    text = url.strip()
    found = _SCHEME.fullmatch(text)
    if found is not None:
        if found.group(1).lower() == "file":
            return None  # a path on the runner's disk, whatever host it names
        host, path = _PORT.sub("", found.group(2)), found.group(3) or ""
    elif "://" in text:
        return None  # a scheme's URL it does not read (a query, a fragment, a backslash): no repository
    elif (scp := _SCP.fullmatch(text)) is not None and "/" not in scp.group(1):
        host, path = scp.group(1), scp.group(2)
    elif "/" in text and not text.startswith(("/", ".", "~")):
        host, _, path = text.partition("/")
    else:
        return None
    path = path.strip("/").removesuffix(".git").strip("/")
    if not host or not path or any(part in ("", ".", "..") for part in path.split("/")):
        return None
    return f"{host}/{path}".lower()


def ci_repository(env: Mapping[str, str]) -> str | None:
    """The repository the CI job says it runs for (`host/path`), None outside GitHub Actions and GitLab CI."""
    if env.get("GITHUB_ACTIONS") == "true" and env.get("GITHUB_REPOSITORY"):
        server = env.get("GITHUB_SERVER_URL") or "https://github.com"
        return repository_name(f"{server.rstrip('/')}/{env['GITHUB_REPOSITORY']}")
    if env.get("GITLAB_CI") == "true" and env.get("CI_PROJECT_URL"):
        return repository_name(env["CI_PROJECT_URL"])
    return None


def binding_problems(packet: Mapping[str, Any], *, merge_base: str | None, tree: bool,
                     repository: str | None) -> list[str]:
    """How the packet's `repository` differs from what the gate judges (empty: it is bound to this change).
    `tree`: the gate has `--tree` (and `merge_base` is its single merge base, None when there is none);
    `repository`: the CI's repository (`ci_repository`), None when the gate does not know it."""
    said = packet.get("repository")
    said = said if isinstance(said, Mapping) else {}
    problems = []
    if tree:
        base = said.get("base_commit")
        if merge_base is None:
            problems.append("the pull request has no single merge base to compare the packet's base commit with")
        elif base != merge_base:
            problems.append(f"the run's base commit is {base if isinstance(base, str) else 'not named'}, the pull "
                            f"request's merge base {merge_base}")
    if repository is not None:
        url = said.get("url")
        if repository_name(url) != repository:
            shown = url if isinstance(url, str) else "not named"
            problems.append(f"the run cloned {shown!r}, the CI judges {repository}")
    return problems


def bind(attestation: PacketAttestation, packet: Mapping[str, Any], *, merge_base: str | None, tree: bool,
         repository: str | None) -> PacketAttestation:
    """`attestation`, unverified when it verified but the packet is not bound to this change (signer and key kept:
    the runner's key still may not approve its own change)."""
    if not attestation.verified:
        return attestation
    problems = binding_problems(packet, merge_base=merge_base, tree=tree, repository=repository)
    if not problems:
        return attestation
    return replace(attestation, verified=False,
                   reason=f"{attestation.reason}, but for another change: {'; '.join(problems)}")
