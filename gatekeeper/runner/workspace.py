"""The workspace: a shallow clone at the base, a run branch, and the patch of whatever changed.

The runner's own git commands run with the global and system config switched off and hooks
disabled, and the clone's `.git/config` is put back from the runner's copy before each of them,
so a generator cannot plant a filter or hook that the runner would execute outside the sandbox.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from gatekeeper.atomic import fsync_dir, write_atomic
from gatekeeper.errors import RunError
from gatekeeper.gitcmd import (
    CHECKPOINT_GIT_TIMEOUT,
    GIT_TIMEOUT,
    SAFE_GIT,
    GitTimeout,
    absolute_path,
    git_program,
    run_git,
)
from gatekeeper.runner import stagecheck
from gatekeeper.runner.rundir import RunDir

_FULL_SHA = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?\Z")
DIFF_ARGS = ("diff", "--binary", "--no-color", "--no-ext-diff", "--no-textconv", "-M")
@dataclass(frozen=True, slots=True)
class Repository:
    """Where the base came from, as the packet records it."""

    url: str
    base_ref: str
    base_commit: str
    run_branch: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A patch file the runner wrote, with its digest."""

    path: Path
    sha256: str
    bytes: int


def repo_url(repo: str) -> str:
    """What to clone: `file://` for a local path (so --depth works), otherwise the URL as given."""
    if "://" in repo:
        return repo
    local = Path(repo).expanduser()
    if local.exists() or not re.match(r"[^/]+:", repo):
        return "file://" + str(local.resolve())
    return repo  # scp-like `host:path`


# What `git rev-parse --local-env-vars` lists: variables that point git at a repository. A runner started
# from a git hook inherits them, and the clone would fetch into (and check out over) the caller's repository.
_LOCAL_GIT_VARS = (
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
    "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
    "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_SHALLOW_FILE",
    "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_QUARANTINE_PATH",
)


def _clone_env() -> dict[str, str]:
    # The caller's own git setup (credentials, proxies) applies to the clone, but never a prompt.
    env = {k: v for k, v in os.environ.items() if k not in _LOCAL_GIT_VARS and not k.startswith("GIT_CONFIG_KEY_")
           and not k.startswith("GIT_CONFIG_VALUE_")}
    return {**env, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}


def _local_env(run: RunDir, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {
        # Absolute folders only: git runs in the workspace, where a relative entry would find the generator's files.
        "PATH": absolute_path(os.environ.get("PATH", "/usr/bin:/bin")),
        # Not the generator's home/: the runner's git must find nothing there that the generator left.
        "HOME": str(run.path),
        "LC_ALL": "C",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_TERMINAL_PROMPT": "0",
        # Named explicitly: no repository discovery that a generator could steer elsewhere.
        "GIT_DIR": str(run.workspace / ".git"),
        # A `commondir` file the generator leaves in .git would otherwise make git read its config
        # (filters and all) from a folder of the generator's choosing.
        "GIT_COMMON_DIR": str(run.workspace / ".git"),
        "GIT_WORK_TREE": str(run.workspace),
        # A replace ref (`refs/replace/<BASE>`) would make a resume's `git checkout BASE` check out a tree of the
        # generator's; a graft file (`info/grafts`) gives commits other parents. Both are read as written, never.
        "GIT_NO_REPLACE_OBJECTS": "1",
        "GIT_GRAFT_FILE": os.devnull,
        "GIT_EXEC_PATH": stagecheck.quiet_exec_path(run.path),  # never a nested repository's filters (stagecheck.py)
    }
    env.update(extra or {})
    return env


def _check_git_dir(run: RunDir) -> Path:
    git_dir = run.workspace / ".git"
    if git_dir.is_symlink() or not git_dir.is_dir():
        # A `.git` file or link could point the runner's git at a repository (and config) of the generator's.
        raise RunError("the generator replaced the workspace's .git folder", where=str(git_dir),
                       hint="generators must leave .git alone; start a new run")
    return git_dir


def _entries(root: Path) -> Iterator[tuple[str, int]]:
    """(path, lstat mode) of everything below `root`, links never followed. Its own stack: os.walk recurses once per
    level on Python 3.11, and a generator's 1,100-level nest would end the runner in a RecursionError."""
    stack = [str(root)]
    while stack:
        try:
            with os.scandir(stack.pop()) as found:
                entries = list(found)
        except OSError:
            continue
        for entry in entries:
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            yield entry.path, mode
            if stat.S_ISDIR(mode):
                stack.append(entry.path)


def remove_tree(root: Path) -> None:
    """Delete `root` and everything below it, links not followed, however deep (shutil.rmtree recurses on 3.11)."""
    if not root.is_dir() or root.is_symlink():
        root.unlink(missing_ok=True)
        return
    folders = [str(root)]
    for path, mode in _entries(root):
        if stat.S_ISDIR(mode):
            folders.append(path)  # a folder comes before what is in it: removed in reverse order
        else:
            os.unlink(path)
    for folder in reversed(folders):
        os.rmdir(folder)


def git_links(git_dir: Path) -> list[str]:
    """Symbolic links anywhere below `git_dir` (never followed), relative to it: git writes through them (an object
    folder, a reflog such as `logs/HEAD`), and the runner's git runs outside the sandbox."""
    return sorted(os.path.relpath(path, git_dir) for path, mode in _entries(git_dir) if stat.S_ISLNK(mode))


# Files that add object stores to the workspace's: git reads objects (a forged index entry's, a replaced base's) from
# any folder they name, absolute or relative, chained up to five deep. A clone has none.
OBJECT_SOURCES = ("objects/info/alternates", "objects/info/http-alternates")


def object_sources(git_dir: Path) -> list[str]:
    """The object-source files present in `git_dir` (relative to it; links included, never followed)."""
    return [name for name in OBJECT_SOURCES if os.path.lexists(git_dir / name)]


def nested_git_redirects(root: Path) -> list[str]:
    """Nested `.git` entries below `root` that make git read elsewhere (a file, a link, a folder with `commondir` or a
    link): `git add -A` records their folder as a gitlink, reading HEAD there (a host repository's commit id)."""
    found = []
    for path, mode in _entries(root):
        if os.path.basename(path) != ".git" or os.path.dirname(path) == str(root):
            continue
        if not stat.S_ISDIR(mode) or os.path.lexists(os.path.join(path, "commondir")) or git_links(Path(path)):
            found.append(os.path.relpath(path, root))
    return sorted(found)


def _guard_config(run: RunDir) -> None:
    git_dir = _check_git_dir(run)
    saved = run.git_config_copy
    if saved.is_file():
        # Replaced, not written through: a link the generator left is swapped out, never followed.
        write_atomic(git_dir / "config", saved.read_bytes())
    links = git_links(git_dir)
    if links:
        # A clone has none; the generator's links would take the runner's own git writes outside the sandbox.
        raise RunError(f"the generator left a link inside the workspace's .git folder: {', '.join(links[:5])}",
                       where=str(git_dir), hint="generators must leave .git alone; start a new run")
    sources = object_sources(git_dir)
    if sources:
        # The runner's git would read objects of the host's stores there (and a resume would check them out).
        raise RunError(f"the generator added object stores to the workspace's .git folder: {', '.join(sources)}",
                       where=str(git_dir), hint="generators must leave .git alone; start a new run")


def clone(url: str, ref: str | None, run: RunDir) -> Repository:
    """Clone `url` at `ref` (branch, tag or full commit id; default: its HEAD) shallowly; make the run branch."""
    dest = run.workspace
    env = _clone_env()
    hint = "check that --repo names a git repository (local path or URL) and --ref exists in it"
    try:
        if ref is not None and _FULL_SHA.match(ref):
            dest.mkdir()
            run_git(["init", "-q"], cwd=dest, env=env, what="cannot create the workspace", where=str(dest))
            run_git(["fetch", "-q", "--depth", "1", "--no-tags", "--", url, ref], cwd=dest, env=env,
                 what=f"cannot fetch commit {ref}", where=url)
            run_git(["checkout", "-q", "--detach", "FETCH_HEAD"], cwd=dest, env=env,
                 what="cannot check out the base", where=str(dest))
        else:
            branch = ["--branch", ref] if ref is not None else []
            run_git(["clone", "-q", "--depth", "1", "--no-tags", "--single-branch", *branch, "--", url, str(dest)],
                 cwd=run.path, env=env, what="cannot clone the repository", where=url)
    except RunError as exc:
        raise RunError(exc.what, where=exc.where, hint=hint) from None
    local = _local_env(run)
    # One git for both: `--abbrev-ref HEAD` names the branch as `symbolic-ref --short HEAD` would (the same
    # shortening, `heads/x` where `x` is ambiguous), and says HEAD where HEAD is detached.
    asked = ["rev-parse", "HEAD"] if ref is not None else ["rev-parse", "HEAD", "--abbrev-ref", "HEAD"]
    base, *name = run_git(asked, cwd=dest, env=local, what="no base commit", where=str(dest)).split()
    ref = ref if ref is not None else name[0]
    run_branch = f"gatekeeper/run/{run.run_id}"
    run_git(["checkout", "-q", "-b", run_branch], cwd=dest, env=local, what="cannot create the run branch",
         where=str(dest))
    write_atomic(run.git_config_copy, (dest / ".git" / "config").read_bytes())
    _make_snapshot_git(run)
    return Repository(url=url, base_ref=ref, base_commit=base, run_branch=run_branch)


def _stream_patch(run: RunDir, base: str, dest: Path, env: Mapping[str, str], timeout: float) -> Snapshot:
    """Write the diff from `base` to what `env`'s index stages to `dest` atomically (within `timeout` seconds).

    git takes attributes from the work tree's `.gitattributes` files (falling back to the index's) and from the git
    folder's `info/attributes`, all of them the generator's: `-diff` there would make its text files binary sections
    (no lines to count, no text to classify). So the staged tree is diffed as two trees, in the runner's own git
    folder (`_make_snapshot_git`), with an empty work tree and no index: no attributes at all.
    """
    tree = run_git(["write-tree"], cwd=run.workspace, env=env, what="cannot record the staged tree",
                   where=str(run.workspace), timeout=timeout)
    git_dir = _snapshot_git_dir(run)
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
    empty = tempfile.mkdtemp(prefix=".no-attributes-", dir=run.path)
    digest, size = hashlib.sha256(), 0
    try:
        # Straight into files, so that waiting with a time limit is all the runner does meanwhile.
        with os.fdopen(fd, "w+b") as out, tempfile.TemporaryFile(dir=run.path) as errors:
            bare = _local_env(run, {"GIT_DIR": str(git_dir), "GIT_COMMON_DIR": str(git_dir), "GIT_WORK_TREE": empty,
                                    "GIT_INDEX_FILE": os.path.join(empty, "index")})
            proc = subprocess.Popen([git_program(), *SAFE_GIT, *DIFF_ARGS, base, tree, "--"], cwd=empty,
                                    env=bare, stdin=subprocess.DEVNULL, stdout=out, stderr=errors)
            try:
                code = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                raise GitTimeout(f"git diff did not finish within {timeout:g} s", where=str(run.workspace),
                                 hint="a FIFO or device file in the workspace can block git; remove it") from None
            if code != 0:
                errors.seek(0)
                detail = errors.read(4096).decode(errors="replace").strip()
                raise RunError(f"git diff failed: {detail}", where=str(run.workspace))
            out.flush()
            os.fsync(out.fileno())
            out.seek(0)
            for chunk in iter(lambda: out.read(1 << 20), b""):
                digest.update(chunk)
                size += len(chunk)
        os.replace(tmp, dest)
        fsync_dir(dest.parent)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        shutil.rmtree(empty, ignore_errors=True)
    return Snapshot(path=dest, sha256=digest.hexdigest(), bytes=size)


def remove_special_files(root: Path) -> list[str]:
    """Delete FIFOs, sockets and device files under `root` (git cannot record them; opening one can block)."""
    removed = []
    for path, mode in _entries(root):
        if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            os.unlink(path)
            removed.append(os.path.relpath(path, root))
    return removed


def capture(run: RunDir, base: str) -> Snapshot:
    """Stage everything in the work tree and write patch.diff (the diff against `base`), as the checkpoints do."""
    _guard_config(run)
    remove_special_files(run.workspace)  # the generator has ended: nothing can plant them again
    nested = nested_git_redirects(run.workspace)
    if nested:
        raise RunError(f"a nested .git in the work tree points outside it: {', '.join(nested[:5])}",
                       where=str(run.workspace), hint="generators must not plant git files; start a new run")
    # Not the generator's index: an entry whose stat matches keeps the object id written there (not the file's),
    # `--assume-unchanged`/`--skip-worktree` hide a change, its `info/exclude` hides a file. The patch is the work
    # tree the generator left, as its `.gitignore` files (part of the patch) say.
    return snapshot(run, base, run.patch, limit=GIT_TIMEOUT)


def _snapshot_git_dir(run: RunDir) -> Path:
    git_dir = run.snapshot_git
    if not (git_dir / "HEAD").is_file() or os.path.lexists(git_dir / "objects" / "info" / "alternates"):
        # Made at clone time; a run folder from before has the workspace's objects as alternates: resume clones again.
        raise RunError("the runner's checkpoint.git folder is missing or incomplete", where=str(git_dir),
                       hint="resume the run: it clones the base again")
    return git_dir


def _make_snapshot_git(run: RunDir) -> None:
    """The runner's own git folder for the checkpoints and the capture: its config, and a copy of the fresh clone's
    objects (the base), made before the generator starts. Never the workspace's objects as alternates: the generator
    rewrites that store at will (an alternates file, a pack whose objects are not what their ids say)."""
    git_dir = run.snapshot_git
    remove_tree(git_dir)
    run.checkpoint_index.unlink(missing_ok=True)
    shutil.copytree(run.workspace / ".git" / "objects", git_dir / "objects", symlinks=True)
    (git_dir / "refs").mkdir()
    shallow = run.workspace / ".git" / "shallow"
    if shallow.is_file():
        write_atomic(git_dir / "shallow", shallow.read_bytes())
    write_atomic(git_dir / "config", "[core]\n\trepositoryformatversion = 0\n\tbare = false\n")
    write_atomic(git_dir / "HEAD", "ref: refs/heads/checkpoints\n")  # last: it marks the folder complete


def snapshot(run: RunDir, base: str, dest: Path, *, limit: float | None = None) -> Snapshot:
    """The work tree's diff against `base` into `dest`, through the runner's own git folder and index (within
    `limit` seconds a git command; default: a checkpoint's limit)."""
    # The generator may rewrite anything in the workspace's .git at any moment (and has at capture), so the runner
    # reads nothing there: its own objects, index, config and excludes (read-only inside the sandbox).
    _check_git_dir(run)
    git_dir = _snapshot_git_dir(run)
    env = _local_env(run, {"GIT_DIR": str(git_dir), "GIT_COMMON_DIR": str(git_dir),
                           "GIT_INDEX_FILE": str(run.checkpoint_index)})
    limit = CHECKPOINT_GIT_TIMEOUT if limit is None else limit
    # Left by a checkpoint git that was killed at its time limit; only this runner (it holds the run's lock)
    # uses that index.
    Path(f"{run.checkpoint_index}.lock").unlink(missing_ok=True)
    if not run.checkpoint_index.exists():
        run_git(["read-tree", base], cwd=run.workspace, env=env, what="cannot prepare the checkpoint index",
             where=str(run.workspace), timeout=limit)
    run_git(["add", "-A"], cwd=run.workspace, env=env, what="cannot snapshot the workspace", where=str(run.workspace),
         timeout=limit)
    stagecheck.require_work_tree(run.workspace, base, env, limit, run.checkpoint_index)
    return _stream_patch(run, base, dest, env, limit)


def _usable(run: RunDir, repo: Repository) -> bool:
    git_dir = run.workspace / ".git"
    if git_dir.is_symlink() or not git_dir.is_dir() or git_links(git_dir) or object_sources(git_dir):
        return False  # links, host object stores: cloned again, never followed or read
    try:
        _snapshot_git_dir(run)
    except RunError:
        return False
    try:
        run_git(["cat-file", "-e", f"{repo.base_commit}^{{commit}}"], cwd=run.workspace, env=_local_env(run),
             what="", where="")
    except RunError:
        return False
    return True


def restore(run: RunDir, repo: Repository, checkpoint: Path | None) -> None:
    """Put the workspace back to the base plus `checkpoint` (re-cloning the base commit when needed)."""
    env = _local_env(run)
    remove_special_files(run.workspace)  # before any git command reads there
    if _usable(run, repo):
        _guard_config(run)
        # Neither the generator's index (an entry keeping a rewritten file's stat with the base's blob id kept that
        # file) nor its objects (git does not check an id on read): the runner's copy of the base's objects.
        remove_tree(run.workspace / ".git" / "index")
        base = _local_env(run, {"GIT_OBJECT_DIRECTORY": str(_snapshot_git_dir(run) / "objects")})
        run_git(["checkout", "-q", "-f", "-B", repo.run_branch, repo.base_commit], cwd=run.workspace, env=base,
             what="cannot reset the workspace", where=str(run.workspace))
        run_git(["clean", "-ffdxq"], cwd=run.workspace, env=env, what="cannot clean the workspace",
             where=str(run.workspace))
    else:
        remove_tree(run.workspace)  # a generator's nest may be deeper than shutil.rmtree can recurse
        # Same run id, so the fresh clone's run branch has the recorded name.
        clone(repo.url, repo.base_commit, run)
    run.checkpoint_index.unlink(missing_ok=True)
    if checkpoint is not None and checkpoint.stat().st_size > 0:
        run_git(["apply", "--binary", "--whitespace=nowarn", str(checkpoint)], cwd=run.workspace, env=env,
             what=f"cannot apply the checkpoint {checkpoint.name}", where=str(run.workspace))
