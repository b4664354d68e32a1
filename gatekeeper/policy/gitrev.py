"""Read a policy bundle's past from git without touching the working tree or the index."""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

from gatekeeper.errors import AuditError
from gatekeeper.gitcmd import absolute_path, git_program

# Keep a user's pager, colour or path quoting settings out of output we parse.
_GIT = ("-c", "core.quotepath=off", "-c", "color.ui=never", "-c", "log.showSignature=false")


@dataclass(frozen=True, slots=True)
class Location:
    """Where a bundle folder sits: the repository's top folder and the bundle's path inside it."""

    repo: Path
    prefix: str  # posix path relative to the repository, "" for the top folder

    def join(self, name: str) -> str:
        """The repository path of `name` inside the bundle."""
        return f"{self.prefix}/{name}" if self.prefix else name


def _run(repo: Path, args: tuple[str, ...]) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PATH": absolute_path(os.environ.get("PATH", os.defpath)), "GIT_PAGER": "cat", "LC_ALL": "C",
           "GIT_OPTIONAL_LOCKS": "0"}
    try:
        return subprocess.run([git_program(), *_GIT, *args], cwd=repo, env=env, capture_output=True, timeout=120)
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
