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
from gatekeeper.gitcmd import SAFE_GIT, git_program, scrubbed_git_env
from gatekeeper.gitobjects import GitObjects
from gatekeeper.lazy_pattern import lazy

_PREFIX = r"^(?:\[[^\]]*\]\s*)?(?:[a-z]+(?:\([^)]*\))?!?:\s*)?"
_TAIL = r"(?:\s+in\s+\S+(?:\s+\S+)*?)?(?:\s+\[security\])?(?:\s+\(#\d+\))?\.?\s*$"
_NAME = r"`?\[?(?P<name>[^\s`\[\]()]+?)\]?(?:\([^)]*\))?`?"
_VERSION = r"`?v?(?P<to>[^\s`]+?)`?"
_MANAGER = (r"(?:dependency|module|action|image|helm release|terraform|plugin|package|orb|docker image|"
            r"github action|golang|rust crate|npm package)")
_PATTERNS = (
    lazy(_PREFIX + r"(?:bumps?|updates?)\s+" + _NAME + r"(?:\s+requirement)?\s+from\s+`?(?P<from>[^\s`]+?)`?"
               r"\s+to\s+" + _VERSION + _TAIL, re.IGNORECASE),
    # (`Update terraform monorepo to v1.15.6` is Renovate's monorepo group `terraform`, no package `monorepo`)
    lazy(_PREFIX + r"update\s+" + _MANAGER + r"\s+(?!monorepo\s)" + _NAME + r"\s+to\s+" + _VERSION + _TAIL,
               re.IGNORECASE),
    lazy(_PREFIX + r"update\s+" + _NAME + r"\s+(?:docker tag|docker digest|action|digest|image|package|module|"
               r"orb)\s+to\s+" + _VERSION + _TAIL, re.IGNORECASE),
)
# Renovate's plain `Update X to vY` names a package or a group of packages (`Update dotnet to 9.0.9`,
# `Update kotlin to v2`): a claim of lower standing, which a body table overrides.
# Its monorepo presets' `Update X monorepo to vY` name a group the same way: X, plain.
_PLAIN = lazy(_PREFIX + r"update\s+" + _NAME + r"(?:\s+monorepo)?\s+to\s+" + _VERSION + _TAIL, re.IGNORECASE)
# Renovate's PR table row, its lines joined (squash commits wrap them):
# `| [name](url) ([source](url)) | require | minor | `1.2.3` -> `1.3.0` |` (also `→`).
_ROW = lazy(r"\|\s*\[(?P<name>[^\]\s]+)\]\([^)]*\)(?:\s*\(\[[^\]]*\]\([^)]*\)\))?\s*\|[^`|]*(?:\|[^`|]*)*?"
            r"`[~^=]?v?(?P<from>[^`]*)`\s*(?:->|→)\s*`[~^=]?v?(?P<to>[^`]+)`")
_METADATA = lazy(r"^-\s+dependency-name:\s*(?P<name>\S+)\s*\n\s+dependency-version:\s*(?P<to>\S+)\s*$",
                 re.MULTILINE)
_ROW_START = lazy(r"(?=\|\s*\[[^\]`]*\]\()")  # a row's first cell: a link whose text is a name
MAX_TABLE, MAX_ROWS = 32 * 1024, 200
# Where a bot's message stops naming its own updates: release notes, changelogs, commit lists.
_NOTES = lazy(r"^\s*(?:<details|<blockquote|#+\s*release notes|release notes|changelog|commits|---|"
              r"dependabot will|\[!\[|<summary)", re.IGNORECASE)
_VERSIONISH = lazy(r"^(?:\d|[0-9a-f]{7,40}$)")  # a release number, or a commit or digest prefix
MAX_MESSAGE = 64 * 1024


@dataclass(frozen=True, slots=True)
class Claim:
    """One package and the version a commit message says it moves to. `plain`: from Renovate's
    `Update X to vY` subject, where X may name a group rather than a package."""

    name: str
    to: str
    plain: bool = False


def _claim(name: str, to: str, plain: bool = False) -> Claim | None:
    name, to = name.strip("`"), to.strip("`").rstrip(".,")
    to = to.removeprefix("v")
    if not name or len(name) > 214 or len(to) > 128 or not _VERSIONISH.match(to) or "<" in to \
            or not re.match(r"^[\w@.]", name):
        return None  # `Update font to sans-serif`: no version
    return Claim(name, to, plain)


def claims(message: str) -> tuple[Claim, ...]:
    """Every (package, version) the message claims, in order, without repeats; () when it claims none.
    Only the subject and the body above its release notes are read; table rows replace a plain subject."""
    lines = message[:MAX_MESSAGE].splitlines()
    body: list[str] = []
    for line in lines[1:]:
        if _NOTES.match(line):
            break
        body.append(line)
    subject: Claim | None = None
    found: list[Claim] = []
    summaries: list[Claim] = []  # `Bumps X from A to B.`: Dependabot's summary line
    unmoved: set[Claim] = set()
    first = re.sub(r"\s*\(#\d+\)$", "", lines[0].strip()) if lines else ""
    for number, raw in enumerate([lines[0] if lines else "", *body]):
        line = raw.strip().removeprefix("- ").removeprefix("* ")
        if number and line == first:
            continue  # a squash merge's bullet repeating the subject: the subject, read once as such
        m = next((m for p in _PATTERNS if (m := p.match(line)) is not None), None)
        claim = _claim(m.group("name"), m.group("to")) if m is not None else None
        if m is not None and claim is not None and "from" in m.groupdict() \
                and _claim(m.group("name"), m.group("from")) == claim:
            unmoved.add(claim)  # `Updates X from 9.0.4 to 9.0.4`: a grouped update's member that did not move
            continue
        if number == 0 and claim is None and (m := _PLAIN.match(line)) is not None:
            claim = _claim(m.group("name"), m.group("to"), True)
        if number == 0:
            subject = claim
        elif claim is not None:
            (summaries if line.lower().startswith("bumps ") else found).append(claim)
    # Over `Updates `x` from…` lines the summary may name a catalog's version alias, not a package.
    found = found or summaries
    table = " ".join(b.strip() for b in body)
    table = table[table.find("|---"):] if "|---" in table else table  # rows follow the header's rule
    # One match per row, each from its own start: a search over the whole table would rescan every
    # later row from every row start (quadratic on a hostile message).
    rows = _ROW_START.split(table[:MAX_TABLE])[:MAX_ROWS]
    found += [r for row in rows if (m := _ROW.match(row)) is not None
              and (r := _claim(m.group("name"), m.group("to"))) is not None]
    # Dependabot's machine-readable trailer: `- dependency-name: X` / `  dependency-version: Y`.
    found += [r for m in _METADATA.finditer(message[:MAX_MESSAGE])
              if (r := _claim(m.group("name"), m.group("to"))) is not None]
    # A subject naming what the body does not (`Bump protobuf from 4.28 to 4.29` over the catalog
    # entries it moves, `Update dotnet to 9.0.9` over a table) names a group, not a package.
    if subject is not None and (not found or subject.name in {c.name for c in found}):
        found.insert(0, subject)
    out: list[Claim] = []
    for claim in found:
        if claim.name and claim not in out and replace(claim, plain=False) not in unmoved:
            out.append(claim)
    return tuple(out)


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
        args = ["log", f"--max-count={MAX_CLAIM_COMMITS + 1}", "--format=%B%x00", f"{base}..{head}"]
        done = subprocess.run([git_program(), *SAFE_GIT, *args], cwd=git.repo, env=scrubbed_git_env(),
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return tuple(changes)  # a claim is an annotation: without it the change is shown as it is
    messages = done.stdout.decode("utf-8", "replace").split("\0")[:-1] if done.returncode == 0 else []
    if not messages or len(messages) > MAX_CLAIM_COMMITS:
        return tuple(changes)
    found = claims("\n".join(m[:MAX_MESSAGE] for m in messages))
    return tuple(replace(c, claimed=claimed_version(found, c.name)) if _unnamed(c) else c for c in changes)
