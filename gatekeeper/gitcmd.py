"""The one way gatekeeper runs git on a folder something untrusted may have written into.

No hooks, no fsmonitor, no per-user attributes or ignore files, no standard input, and a time
limit: a FIFO planted where git reads (.gitignore, .git/HEAD, a pack index) would block git forever.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from gatekeeper.errors import RunError

# No hooks, no fsmonitor, and no per-user attributes or ignore files (git would read them under a HOME). No
# signature checks: `log.showSignature` in a clone's .git/config makes `git log` run its `gpg.program` (or the ssh or
# x509 one) on every signed commit it shows.
SAFE_GIT = (
    "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "core.quotePath=true",
    "-c", "core.attributesFile=/dev/null", "-c", "core.excludesFile=/dev/null", "-c", "log.showSignature=false",
)
# A git command that only reads a folder's history fetches nothing: in a partial clone a missing object makes git
# fetch it from the promisor remote, and that remote's `uploadpack` (or its ssh command) in .git/config is a program.
NO_FETCH = ("-c", "protocol.allow=never")
# git's merge as a hosting service merges: renames followed, into renamed folders too (git's default there is a
# conflict), whatever the clone's config says (treecheck.py's merge check, mergedcopy.py's merged copies).
MERGE_FOLLOWING_RENAMES = ("-c", "merge.renames=true", "-c", "diff.renames=true", "-c", "merge.directoryRenames=true")
# A FIFO the generator leaves where git reads (.gitignore, .git/HEAD, a pack index) blocks git forever:
# no runner git command may wait longer than this. Checkpoints, taken while the generator runs and
# can plant one at any moment, wait less and are skipped when they time out.
GIT_TIMEOUT = 900.0
CHECKPOINT_GIT_TIMEOUT = 60.0


def absolute_path(path: str) -> str:
    """`path` (a PATH value) without its relative and empty entries."""
    return os.pathsep.join(p for p in path.split(os.pathsep) if os.path.isabs(p))


@cache
def git_program() -> str:
    """The absolute path of git, found once on PATH's absolute entries (RunError when there is none)."""
    # A relative or empty PATH entry ("", ".") is searched from the working folder, which for the runner
    # is the workspace: a `git` the generator left there would run outside the sandbox.
    found = shutil.which("git", path=absolute_path(os.environ.get("PATH", os.defpath)))
    if found is None:
        raise RunError("cannot find git on PATH (its absolute folders only)", where="PATH", hint="install git")
    return os.path.abspath(found)


@contextmanager
def without_attributes(git_dir: str) -> Iterator[tuple[Path, dict[str, str]]]:
    """(a working folder, an environment) in which git reads the repository at `git_dir` but none of the checkout's
    `.gitattributes` files: a private empty work tree and no index.

    git takes `.gitattributes` from the work tree when it diffs two commits: the change under review could mark its
    own files `-diff` (binary: no lines, no content for the classifier) or give them another diff driver."""
    with tempfile.TemporaryDirectory(prefix="gatekeeper-noattr-") as tmp:
        yield Path(tmp), scrubbed_git_env(GIT_DIR=git_dir, GIT_WORK_TREE=tmp, GIT_INDEX_FILE=str(Path(tmp, "index")))


def scrubbed_git_env(**extra: str) -> dict[str, str]:
    """An environment for git that reads no user or system configuration and never prompts."""
    env = {
        # Absolute folders only: git looks its helpers up on PATH from inside the checkout (gitcmd.git_program).
        "PATH": absolute_path(os.environ.get("PATH", "/usr/bin:/bin")),
        "LC_ALL": "C",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_OPTIONAL_LOCKS": "0",
        # refs/replace would let anyone who can write a ref show other content for BASE's objects, and a graft file
        # (.git/info/grafts) other parents for a commit: history is read as its commits are written.
        "GIT_NO_REPLACE_OBJECTS": "1",
        "GIT_GRAFT_FILE": os.devnull,
        "HOME": os.devnull,
    }
    env.update(extra)
    return env


def filters_off(git: str, folder: Path, env: Mapping[str, str]) -> list[str]:
    """`-c` settings that empty every content filter the repository at `folder` defines (its `.gitattributes` name
    them; its .git/config says what they run), for a git command that may read the work tree's files (`status`
    hashes a file whose stat changed through its clean filter). Empty when git cannot say: then it finds none."""
    try:
        done = subprocess.run([git, *SAFE_GIT, "-C", str(folder), "config", "-z", "--name-only", "--get-regexp",
                               r"^filter\."], env=dict(env), stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return []
    names = {key[len("filter."):].rpartition(".")[0] for key in done.stdout.decode("utf-8", "replace").split("\0")
             if key.startswith("filter.")}
    return [arg for name in sorted(names) if name for setting in ("clean=", "smudge=", "process=", "required=false")
            for arg in ("-c", f"filter.{name}.{setting}")]


class GitTimeout(RunError):
    """A runner git command did not finish in time (something in the workspace blocked it)."""


def run_git(
    args: Sequence[str], *, cwd: Path, env: Mapping[str, str], what: str, where: str, timeout: float | None = None,
    ok: Collection[int] = (0,),
) -> str:
    """Run `git SAFE_GIT... args`; stdout as text. RunError (GitTimeout past the limit) on an exit code not in
    `ok` (`git merge-tree` exits 1 for a merge with conflicts and still writes its tree)."""
    limit = GIT_TIMEOUT if timeout is None else timeout
    try:
        done = subprocess.run([git_program(), *SAFE_GIT, *args], cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=limit)
    except OSError as exc:
        raise RunError(f"cannot run git: {exc.strerror}", where=where, hint="install git") from exc
    except subprocess.TimeoutExpired:
        raise GitTimeout(f"{what or 'git'}: git {args[0]} did not finish within {limit:g} s", where=where,
                         hint="a FIFO or device file in the workspace can block git; remove it") from None
    if done.returncode not in ok:
        lines = [ln.strip() for ln in done.stderr.decode(errors="replace").splitlines() if ln.strip()]
        # git's own reason is its `fatal:`/`error:` line; the lines after it are often advice.
        reasons = [ln for ln in lines if ln.startswith(("fatal:", "error:"))]
        detail = reasons[0] if reasons else (lines[-1] if lines else f"git exit code {done.returncode}")
        raise RunError(f"{what}: {detail}", where=where)
    return done.stdout.decode(errors="replace").strip()
