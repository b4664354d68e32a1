"""Read a policy bundle's past from git without touching the working tree or the index."""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from gatekeeper.errors import AuditError
from gatekeeper.gitcmd import NO_FETCH, SAFE_GIT, git_program, scrubbed_git_env

# The product's safe git (no hooks, fsmonitor or signature programs, no fetch); then keep a repository's colour or
# path quoting settings out of output we parse.
_GIT = (*SAFE_GIT, *NO_FETCH, "-c", "core.quotepath=off", "-c", "color.ui=never")


@dataclass(frozen=True, slots=True)
class Location:
    """Where a bundle folder sits: the repository's top folder and the bundle's path inside it."""

    repo: Path
    prefix: str  # posix path relative to the repository, "" for the top folder
    blobs: Blobs | None = field(default=None, compare=False)  # `show` reads through it while `reading` is open

    def join(self, name: str) -> str:
        """The repository path of `name` inside the bundle."""
        return f"{self.prefix}/{name}" if self.prefix else name


class Blobs:
    """One `git cat-file --batch` for many `commit:path` reads (a history walk reads a few files per commit)."""

    def __init__(self, repo: Path) -> None:
        try:
            self._batch = subprocess.Popen([git_program(), *_GIT, "cat-file", "--batch"], cwd=repo, env=_env(),
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except OSError as exc:
            raise AuditError(f"cannot run git: {exc}", where=str(repo),
                             hint="check git is installed and the folder exists") from exc

    def blob(self, name: str) -> tuple[bool, bytes | None]:
        """(True, the content) when `name` is a blob, (True, None) when it names nothing, (False, None) when it is
        another object (the caller asks `git show`, which prints a tree or commit its own way)."""
        stdin, stdout = self._batch.stdin, self._batch.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(os.fsencode(name) + b"\n")
            stdin.flush()
            fields = stdout.readline().split()
            if len(fields) != 3 or not fields[2].isdigit():  # `NAME missing` (or ambiguous): nothing follows
                return True, None
            data = stdout.read(int(fields[2]) + 1)[:-1]  # and git's newline
        except OSError as exc:
            raise AuditError(f"git cat-file stopped: {exc}", where=name) from None
        return (True, data) if fields[1] == b"blob" else (False, None)

    def close(self) -> None:
        for pipe in (self._batch.stdin, self._batch.stdout):
            if pipe is not None:
                pipe.close()
        try:
            self._batch.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._batch.kill()
            self._batch.wait()


@contextmanager
def reading(loc: Location) -> Iterator[Location]:
    """`loc` with one batch reader for its `show` calls, closed on exit."""
    blobs = Blobs(loc.repo)
    try:
        yield replace(loc, blobs=blobs)
    finally:
        blobs.close()


def _env() -> dict[str, str]:
    # Not the caller's environment: GIT_DIR, GIT_CONFIG_*, a HOME's config or GIT_REPLACE_REF_BASE would show another
    # history than the repository's, or name a program git runs.
    return scrubbed_git_env(GIT_PAGER="cat")


def _run(repo: Path, args: tuple[str, ...]) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run([git_program(), *_GIT, *args], cwd=repo, env=_env(), capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise AuditError(
            f"cannot run git: {exc}", where=str(repo), hint="check git is installed and the folder exists"
        ) from exc


def git(repo: Path, *args: str, check: bool = True) -> bytes:
    """Run git in `repo` and return its stdout; AuditError (with git's message) when it fails."""
    done = _run(repo, args)
    if check and done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise AuditError(f"git {args[0]} failed: {message[-1] if message else done.returncode}", where=str(repo))
    return done.stdout


def locate(bundle_dir: Path) -> Location:
    """The repository holding `bundle_dir`; AuditError when it is not inside a git work tree."""
    folder = bundle_dir.resolve()
    done = _run(folder, ("rev-parse", "--show-toplevel"))
    if done.returncode != 0:
        raise AuditError("the policy bundle is not inside a git repository", where=str(bundle_dir),
                         hint="policy history and replay read the bundle's past from git")
    top = Path(done.stdout.decode().strip()).resolve()
    prefix = folder.relative_to(top).as_posix()
    return Location(top, "" if prefix == "." else prefix)


def has_commit(loc: Location, commit: str) -> bool:
    """Whether `commit` names a commit in the repository."""
    done = _run(loc.repo, ("cat-file", "-e", f"{commit}^{{commit}}"))
    return done.returncode == 0


def show(loc: Location, commit: str, path: str) -> bytes | None:
    """The content of repository path `path` at `commit`, or None when it does not exist there."""
    if loc.blobs is not None and "\n" not in path:
        done_by_batch, data = loc.blobs.blob(f"{commit}:{path}")
        if done_by_batch:
            return data
    done = _run(loc.repo, ("show", f"{commit}:{path}"))
    return done.stdout if done.returncode == 0 else None


def export_bundle(loc: Location, commit: str, dest: Path) -> Path:
    """Write the bundle as it was at `commit` into `dest` (git archive, never checkout); return its folder."""
    pathspec = loc.prefix or "."
    archive = git(loc.repo, "archive", "--format=tar", commit, "--", pathspec)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(dest, filter="data")
    folder = dest / loc.prefix if loc.prefix else dest
    if not folder.is_dir():
        raise AuditError(f"the bundle folder {pathspec!r} does not exist at commit {commit}", where=str(loc.repo))
    return folder
