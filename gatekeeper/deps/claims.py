"""What a dependency-update commit's message CLAIMS it changes: Dependabot's and Renovate's formats.

A claim is the change author's word, never verified: the delta shows it beside a change whose own
files cannot name a version (an action moved from one bare commit sha to another: the version lives
only in the action's repository, which is not here), labelled "claimed by the commit message". No
policy decision reads it (docs/dependencies.md, "Claimed versions").

Formats read (subject or body lines; a conventional-commit prefix such as `chore(deps): ` is allowed):
- Dependabot: `Bump NAME from A to B[ in /dir]`, body `Updates `NAME` from A to B` (grouped and
  multi-package updates), `Bumps [NAME](url) from A to B.`, `Update NAME requirement from A to B`;
- Renovate: `Update dependency NAME to vB`, `Update NAME action to vB`, `Update module NAME to vB`,
  `Update NAME docker tag to vB`, `Update helm release NAME to vB`, `Update terraform NAME to vB`,
  `Update NAME to vB`, and its PR table rows `| [NAME](url) | ... | `A` -> `B` |`.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, replace

from gatekeeper.deps.actions import FULL_SHA
from gatekeeper.deps.model import Change
from gatekeeper.gitcmd import SAFE_GIT
from gatekeeper.gitobjects import GitObjects, scrubbed_git_env

_PREFIX = r"^(?:\[[^\]]*\]\s*)?(?:[a-z]+(?:\([^)]*\))?!?:\s*)?"
_TAIL = r"(?:\s+in\s+\S+(?:\s+\S+)*?)?(?:\s+\(#\d+\))?\.?\s*$"
_NAME = r"`?\[?(?P<name>[^\s`\[\]()]+?)\]?(?:\([^)]*\))?`?"
_VERSION = r"`?v?(?P<to>[^\s`]+?)`?"
_PATTERNS = (
    re.compile(_PREFIX + r"(?:bumps?|updates?)\s+" + _NAME + r"(?:\s+requirement)?\s+from\s+`?(?P<from>[^\s`]+?)`?"
               r"\s+to\s+" + _VERSION + _TAIL, re.IGNORECASE),
    re.compile(_PREFIX + r"update\s+(?:(?:dependency|module|action|image|helm release|terraform|plugin|package|"
               r"orb|docker image|github action|golang|rust crate|npm package)\s+)?" + _NAME +
               r"(?:\s+(?:docker tag|action|digest|image|package|module|orb))?\s+to\s+" + _VERSION + _TAIL,
               re.IGNORECASE),
)
# Renovate's PR table: `| [name](url) | dependencies | minor | `1.2.3` -> `1.3.0` |` (also `→`).
_TABLE = re.compile(r"^\|\s*\[?(?P<name>[^\s|\]\[]+)\]?(?:\([^)]*\))?\s*\|.*?\|\s*`[~^=v]?(?P<from>[^`]*)`\s*"
                    r"(?:->|→)\s*`[~^=]?v?(?P<to>[^`]+)`")
_NOT_A_VERSION = re.compile(r"^(?:latest|main|master|the|a|an|new|all|\w+\s)$", re.IGNORECASE)
MAX_MESSAGE = 64 * 1024


@dataclass(frozen=True, slots=True)
class Claim:
    """One package and the version a commit message says it moves to."""

    name: str
    to: str


def claims(message: str) -> tuple[Claim, ...]:
    """Every (package, version) the message claims, in order, without repeats; () when it claims none."""
    found: list[Claim] = []
    for raw in message[:MAX_MESSAGE].splitlines():
        line = raw.strip().removeprefix("- ").removeprefix("* ")
        m = _TABLE.match(line) if line.startswith("|") else None
        if m is None:
            for pattern in _PATTERNS:
                m = pattern.match(line)
                if m is not None:
                    break
        if m is None:
            continue
        name, to = m.group("name").strip("`"), m.group("to").strip("`").rstrip(".,")
        if not name or not to or _NOT_A_VERSION.match(to) or not re.match(r"^[\w@.]", name):
            continue
        claim = Claim(name, to.removeprefix("v"))
        if claim not in found:
            found.append(claim)
    return tuple(found)


def claimed_version(found: tuple[Claim, ...], name: str) -> str | None:
    """The version `found` claims for the package `name` (an action's `owner/repo` also matches a claim
    of `owner/repo/sub`); None when no claim, or more than one version, names it."""
    want = name.lower()
    versions = {c.to for c in found if c.name.lower() == want or c.name.lower().startswith(want + "/")}
    return versions.pop() if len(versions) == 1 else None  # two claims for one name: neither is shown


# Commits whose messages are read for claims: a pull request of more is no bot's update.
MAX_CLAIM_COMMITS = 20


def _unnamed(change: Change) -> bool:
    """An action moved to a bare commit sha without a version comment: its files name no version."""
    return change.ecosystem == "github-actions" and bool(change.to_version and FULL_SHA.match(change.to_version)) \
        and not change.to_tag


def with_claims(git: GitObjects, base: str, head: str, changes: list[Change]) -> tuple[Change, ...]:
    """The changes, each unnamed one with the version the commit messages of BASE..HEAD claim for it
    (claims.py): read only when such a change exists, so an ordinary gate runs no extra process."""
    if not any(_unnamed(c) for c in changes):
        return tuple(changes)
    try:
        done = subprocess.run(["git", *SAFE_GIT, "log", f"--max-count={MAX_CLAIM_COMMITS + 1}", "--format=%B%x00",
                               f"{base}..{head}"], cwd=git.repo, env=scrubbed_git_env(), stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return tuple(changes)  # a claim is an annotation: without it the change is shown as it is
    messages = done.stdout.decode("utf-8", "replace").split("\0")[:-1] if done.returncode == 0 else []
    if not messages or len(messages) > MAX_CLAIM_COMMITS:
        return tuple(changes)
    found = claims("\n".join(m[:MAX_MESSAGE] for m in messages))
    return tuple(replace(c, claimed=claimed_version(found, c.name)) if _unnamed(c) else c for c in changes)
