"""A pull request without a packet: its patch and packet derived from its commits alone.

Hosted agents (Copilot's coding agent, Claude Code's or Codex's GitHub integrations, bots) open pull
requests without our runner, so there is no packet. The gate then writes the change the pull request
makes (merge base of BASE and HEAD to HEAD, what its "files changed" view shows) to a private file
with the safe git runner, and builds the packet in memory from it. Nothing the runner alone could
know is claimed: no generator, no model, sandbox `none`; the shipped policies read that as unverified.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gatekeeper.errors import RunError
from gatekeeper.gitcmd import run_git, without_attributes
from gatekeeper.revrange import RevRange
from gatekeeper.treecheck import TreeError

# Repository config must not change what the patch says: no external diff or textconv driver (they run
# programs and rewrite content), fixed prefixes, full blob ids, submodules as pointers, git's renames.
DIFF_ARGS = (
    "-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false", "-c", "diff.relative=false",
    "-c", "diff.ignoreSubmodules=none", "-c", "diff.submodule=short",
    "diff", "--binary", "--full-index", "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
    "--src-prefix=a/", "--dst-prefix=b/", "--ignore-submodules=none", "--submodule=short", "-M",
)
RUN_ID_PREFIX = "pr-"


@contextmanager
def commits_patch(revs: RevRange) -> Iterator[Path]:
    """A private file holding `git diff --binary` of merge-base(BASE, HEAD)..HEAD, removed on exit.

    TreeError when BASE and HEAD have no single merge base (the change is then undefined)."""
    base, head, folder = revs.base, revs.head, revs.repo
    if not revs.merge_bases:
        raise TreeError(f"{base} and {head} have no common ancestor", where=str(folder),
                        hint="fetch the full history of both branches")
    if revs.merge_base is None:
        raise TreeError(f"{base} and {head} have {len(revs.merge_bases)} merge bases (criss-cross history): the "
                        "change a pull request makes is not defined", where=str(folder),
                        hint="merge BASE into HEAD first, or gate a packet and its patch")
    # mkdtemp is private to this user (0700); the patch never lands in the checkout. git diffs without the
    # checkout's .gitattributes (gitcmd.without_attributes): the change must not choose what is binary.
    with tempfile.TemporaryDirectory(prefix="gatekeeper-pr-") as tmp, without_attributes(revs.git_dir) as (work, bare):
        patch = Path(tmp, "change.diff")
        _git([*DIFF_ARGS, f"--output={patch}", revs.merge_base, revs.head_commit, "--"], work, bare,
             f"cannot write the change {base}..{head}", folder)
        if not patch.exists():  # an empty change: git writes nothing
            patch.write_bytes(b"")
        yield patch


def run_id(revs: RevRange) -> str:
    """The run id of a packet-less decision: `pr-` and HEAD's commit id (stable across reruns)."""
    return RUN_ID_PREFIX + revs.head_commit


def _git(args: list[str], cwd: Path, env: dict[str, str], what: str, folder: Path) -> None:
    try:
        run_git(args, cwd=cwd, env=env, what=what, where=str(cwd))
    except RunError as exc:
        raise TreeError(exc.what, where=str(folder), hint=exc.hint) from None
