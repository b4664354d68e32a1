"""Whether a signed packet speaks for the change the gate judges: its `repository` against what the gate knows.

A signature proves the runner made the packet, not that it made it for this pull request. The signed claims
(sandbox, model, relay) describe a run on one base commit of one repository; a packet and patch from a run on a
fork, or on another base, verify just as well wherever the patch has the same bytes. So a verified signature
counts only when the packet's `repository` matches what the gate judges: with `--tree BASE..HEAD`, its
`base_commit` must be the merge base (the commit the patch is applied to), and where the CI names the repository
(GitHub Actions `GITHUB_SERVER_URL`/`GITHUB_REPOSITORY`, GitLab CI `CI_PROJECT_URL`: the job's environment, never
the checkout) its `url` must name that repository. From a patch alone the gate knows no base: the caller names the
commit the patch applies to (`gate --base-commit`), as a provenance verifier is told the source to expect
(slsa-verifier's `--source-uri`); without it nothing binds the packet to this repository, whatever the CI. Where
no CI names the repository, `gate --repository URL` does. Otherwise the signature vouches for nothing here: the
claims are unverified (the `provenance` and `sandbox` policies send the change to a human, as for an unsigned
packet), and the reason says why. Not a deny: a signature stripped from the packet would get exactly that review.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from gatekeeper.attest.facts import PacketAttestation
from gatekeeper.errors import UsageError
from gatekeeper.lazy_pattern import lazy

# An authority ends at its first `/`, `?` or `#` (RFC 3986; curl, which git's HTTP transport uses): the user part
# is what comes before an `@` inside it (`https://evil.example#@github.com/x/y` is fetched from evil.example: attack
# 27). A backslash there names nothing (URL readers disagree on it).
_SCHEME = lazy(r"(?i)([a-z][a-z0-9+.-]*)://(?:[^@/?#\\]*@)?([^/?#\\]*)(/[^?#\\]*)?")
_SCP = lazy(r"(?:[^@/:]+@)?([^/:]+):(?!//)(.+)")
_PORT = lazy(r":\d*\Z")
_COMMIT = lazy(r"[0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?")
UNBOUND = ("gated from a patch alone with no base commit named: nothing binds the packet to this repository "
           "(name the commit the patch applies to with --base-commit, or gate with --tree BASE..HEAD)")


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


@dataclass(frozen=True, slots=True)
class Binding:
    """What the gate knows of the change it judges, to compare a signed packet's `repository` with.
    `tree`: the gate has `--tree` (`merge_base`: its single merge base, None when there is none); `base_commit`: the
    commit named with `--base-commit` (patch mode); `repositories`: the CI's repository (`ci_repository`) and the one
    named with `--repository`, each `host/path`."""

    tree: bool = False
    merge_base: str | None = None
    base_commit: str | None = None
    repositories: tuple[str, ...] = ()


def check_options(base_commit: str | None, repository: str | None, *, tree: bool, trust: bool) -> None:
    """UsageError for binding flags the gate cannot use: not a full commit id, a URL naming no repository, a base
    beside --tree (which has its own), either without --trust (nothing to bind)."""
    for flag, value in (("--base-commit", base_commit), ("--repository", repository)):
        if value is not None and not trust:
            raise UsageError(f"{flag} binds a signed packet, and no signature is checked", where=flag,
                             hint="add --trust FILE (an allowed-signers file)")
    if base_commit is not None:
        if tree:
            raise UsageError("--base-commit and --tree both name the base", where="--base-commit",
                             hint="under --tree the merge base binds the packet: drop --base-commit")
        if not _COMMIT.fullmatch(base_commit):
            raise UsageError(f"{base_commit!r} is not a full commit id (40 or 64 hex digits)", where="--base-commit",
                             hint="pass the commit the patch applies to, e.g. $(git merge-base origin/main HEAD)")
    if repository is not None and repository_name(repository) is None:
        raise UsageError(f"{repository!r} names no repository (host and path)", where="--repository",
                         hint="pass the repository's URL, e.g. https://github.com/acme/app")


def binding_problems(packet: Mapping[str, Any], binding: Binding) -> list[str]:
    """How the packet's `repository` differs from what the gate judges (empty: it is bound to this change)."""
    said = packet.get("repository")
    said = said if isinstance(said, Mapping) else {}
    base = said.get("base_commit")
    shown_base = base if isinstance(base, str) else "not named"
    problems = []
    if binding.tree:
        if binding.merge_base is None:
            problems.append("the pull request has no single merge base to compare the packet's base commit with")
        elif base != binding.merge_base:
            problems.append(f"the run's base commit is {shown_base}, the pull request's merge base "
                            f"{binding.merge_base}")
    elif binding.base_commit is None:
        problems.append(UNBOUND)
    elif not isinstance(base, str) or base.lower() != binding.base_commit.lower():
        problems.append(f"the run's base commit is {shown_base}, the patch applies to {binding.base_commit.lower()}")
    for repository in dict.fromkeys(binding.repositories):
        url = said.get("url")
        if repository_name(url) != repository:
            shown = url if isinstance(url, str) else "not named"
            problems.append(f"the run cloned {shown!r}, the gate judges {repository}")
    return problems


def bind(attestation: PacketAttestation, packet: Mapping[str, Any], binding: Binding) -> PacketAttestation:
    """`attestation`, unverified when it verified but the packet is not bound to this change (signer and key kept:
    the runner's key still may not approve its own change)."""
    if not attestation.verified:
        return attestation
    problems = binding_problems(packet, binding)
    if not problems:
        return attestation
    return replace(attestation, verified=False,
                   reason=f"{attestation.reason}, but for another change: {'; '.join(problems)}")
