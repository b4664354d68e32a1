"""Bind a patch to the change a pull request really makes: BASE + patch must be HEAD's tree.

The gate judges the patch it is fed; CI merges the pull request's commits. Without this check a
pull request could carry a harmless `patch.diff` and put its real change (a workflow edit) in its
commits. The patch is applied to the merge base of BASE and HEAD (the tree the pull request's
"files changed" view starts from) in a throw-away index and object directory, so the working
tree, the real index, HEAD and the repository's objects are never written.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from gatekeeper.errors import GatekeeperError, InputFileError, RunError
from gatekeeper.gitcmd import MERGE_FOLLOWING_RENAMES, run_git, scrubbed_git_env
from gatekeeper.readable import printable
from gatekeeper.revrange import RevRange

MAX_SHOWN = 50
# Repository config cannot loosen or redirect what these commands do (the repo's own hooks and
# filters are switched off by the runner's safe flags; these cover apply and the index).
_PINNED = ("-c", "core.splitIndex=false", "-c", "apply.whitespace=nowarn", "-c", "apply.ignoreWhitespace=no")
# Merging follows renames as a hosting service's merge does: the more paths the check sees moved, the fewer a change
# can slip past it.
_MERGE = MERGE_FOLLOWING_RENAMES
_STATUS = {
    "A": "in {head}, not in {base} + patch",
    "D": "in {base} + patch, not in {head}",
    "M": "content differs between {head} and {base} + patch",
    "T": "file type differs between {head} and {base} + patch",
}


class TreeError(GatekeeperError):
    """The tree check cannot run: not a git repository, an unknown revision, git missing."""


def tree_differences(revs: RevRange, patch: Path, *, transport: Iterable[Path] = ()) -> list[str]:
    """How HEAD's tree differs from the merge base of BASE and HEAD with `patch` applied (empty: none), and
    what merging HEAD into BASE would change beyond that (`merge_differences`).

    `transport`: files that carried the patch and packet into the change (`.agent/patch.diff`);
    their own paths are left out of the comparison. At most MAX_SHOWN paths, then a count.
    """
    if not patch.is_file():
        raise InputFileError("the patch does not exist or is not a file", where=str(patch))
    base, head = revs.base, revs.head
    if revs.merge_base is None:
        count = len(revs.merge_bases)
        why = "no common ancestor" if not count else f"{count} merge bases (criss-cross history)"
        return [f"{base} and {head} have {why}: the patch cannot be compared with the change"]
    skipped = _repo_paths(revs.repo, revs.top, transport)
    with _scratch(revs) as git:
        git(["read-tree", revs.merge_base], "cannot read the base tree")
        try:
            # An empty patch is an empty change; text that holds no patch is not.
            empty = ["--allow-empty"] if patch.stat().st_size == 0 else []
            git(["apply", "--cached", "--binary", *empty, str(patch.resolve())], "git apply")
        except TreeError as exc:
            return [f"the patch does not apply to the merge base of {base} and {head} ({revs.merge_base[:12]}): "
                    f"{exc.what.removeprefix('git apply: ')}"]
        # The patched index compared with HEAD's tree straight away (-R: the index is the old side, HEAD the new, as
        # `git diff-tree` of the written index and HEAD lists them; no write-tree, no rev-parse): no path differs,
        # the trees are the same files (a tree holding an empty folder, which git never writes, counts as the same).
        listing = git(["diff-index", "--cached", "-R", "-z", "--no-renames", "--name-status", revs.head_commit, "--"],
                      "cannot compare the trees")
        if not listing:
            return _merge_landings(git, revs)
    fields = listing.split("\0")
    pairs = [(fields[i], fields[i + 1]) for i in range(0, len(fields) - 1, 2)]
    return _describe([(status, path) for status, path in pairs if path not in skipped], base, head)


def merge_differences(revs: RevRange) -> list[str]:
    """The paths merging HEAD into BASE changes that the pull request's own change (merge base to HEAD) does not
    (empty: none). A pull request branched before BASE renamed a file (or a folder) carries its edit of the old
    path to BASE's new one when merged: the gate judged `tools/run.sh`, the merge writes `.github/scripts/run.sh`.
    Criss-cross history is left to the caller (commits.commits_patch)."""
    if revs.merge_base is None or revs.merge_base == revs.base_commit:  # HEAD holds BASE: merging it is HEAD itself
        return []
    with _scratch(revs) as git:
        return _merge_landings(git, revs)


def _merge_landings(git: _Git, revs: RevRange) -> list[str]:
    base, head, base_commit, head_commit, merge_base = revs.base, revs.head, revs.base_commit, revs.head_commit, \
        revs.merge_base
    if merge_base is None or merge_base == base_commit:  # HEAD holds BASE: merging it is HEAD itself
        return []
    # git's own merge (merge-ort, as a hosting service merges), renames followed into renamed folders too, whatever
    # the clone's config says; a merge with conflicts (exit 1) still writes its tree, with the conflicted paths in it.
    # Its objects land in the scratch object folder (_scratch).
    merged = git([*_MERGE, "merge-tree", "--write-tree", "--no-messages", "-z", base_commit, head_commit],
                 "cannot merge HEAD into BASE", ok=(0, 1),
                 hint="the gate needs git 2.38 or newer (git merge-tree --write-tree)").split("\0")[0]
    landed = git(["diff-tree", "-r", "-z", "--no-renames", "--name-only", base_commit, merged],
                 "cannot compare the merge with BASE").split("\0")
    changed = set(git(["diff-tree", "-r", "-z", "--no-renames", "--name-only", merge_base, head_commit],
                      "cannot list the change").split("\0"))
    extra = [path for path in landed if path and path not in changed]
    lines = [f"{printable(path)}: merging {head} into {base} changes it, the change from the merge base "
             f"({merge_base[:12]}) does not ({base} moved a file or folder the change edits); rebase onto {base}"
             for path in extra[:MAX_SHOWN]]
    if len(extra) > MAX_SHOWN:
        lines.append(f"and {len(extra) - MAX_SHOWN} more path(s) the merge changes")
    return lines


class _Git(Protocol):
    def __call__(self, args: list[str], what: str, *, allow_failure: bool = False,
                 ok: Collection[int] = (0,), hint: str | None = None) -> str: ...


@contextmanager
def _scratch(revs: RevRange) -> Iterator[_Git]:
    """git on the repository's objects with a private work tree, index and object folder (the repository is only
    read); its git and object folders as `revs` resolved them."""
    with tempfile.TemporaryDirectory(prefix="gatekeeper-tree-") as tmp:
        work, env = scratch_env(revs, tmp)

        def git(args: list[str], what: str, *, allow_failure: bool = False, ok: Collection[int] = (0,),
                hint: str | None = None) -> str:
            return _run(args, work, env, what, where=revs.repo, allow_failure=allow_failure, ok=ok, hint=hint)

        yield git


def scratch_env(revs: RevRange, tmp: str) -> tuple[Path, dict[str, str]]:
    """(an empty work tree in `tmp`, an environment) for git on the repository of `revs` whose index and new objects
    (a merge's blobs and trees) land in `tmp`: the repository's own objects are only read."""
    work = Path(tmp, "work")
    work.mkdir()
    Path(tmp, "objects").mkdir()
    return work, scrubbed_git_env(GIT_DIR=revs.git_dir, GIT_WORK_TREE=str(work), GIT_INDEX_FILE=str(Path(tmp, "index")),
                                  GIT_OBJECT_DIRECTORY=str(Path(tmp, "objects")),
                                  GIT_ALTERNATE_OBJECT_DIRECTORIES=revs.objects_dir, HOME=tmp)


def _describe(changed: Sequence[tuple[str, str]], base: str, head: str) -> list[str]:
    lines = []
    for status, path in changed[:MAX_SHOWN]:
        text = _STATUS.get(status[:1], "differs between {head} and {base} + patch")
        lines.append(f"{printable(path)}: {text.format(base=base, head=head)}")
    if len(changed) > MAX_SHOWN:
        lines.append(f"and {len(changed) - MAX_SHOWN} more path(s) differ")
    return lines


def _repo_paths(repo: Path, top: Path | None, files: Iterable[Path]) -> set[str]:
    files = list(files)
    if top is None:
        return set()  # a bare repository: nothing in it carried the files
    top = top.resolve()
    found = set()
    for item in files:
        try:
            found.add(Path(os.path.abspath(repo / item)).relative_to(top).as_posix())
        except ValueError:
            continue
    return found


def _run(args: list[str], cwd: Path, env: dict[str, str], what: str, *, where: Path | None = None,
         hint: str | None = None, allow_failure: bool = False, ok: Collection[int] = (0,)) -> str:
    """git with hooks, fsmonitor and outside config off (the runner's helper); TreeError on failure."""
    try:
        return run_git([*_PINNED, *args], cwd=cwd, env=env, what=what, where=str(where or cwd), ok=ok)
    except RunError as exc:
        if allow_failure:
            return ""
        raise TreeError(exc.what, where=exc.where, hint=hint or exc.hint) from None
