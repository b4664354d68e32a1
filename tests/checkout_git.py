"""The git state of this checkout's `policies/`, asked of git once per test process while nothing it depends on moves.

Every gate that loads a bundle in a git work tree asks git for the folder's last commit and whether it has
uncommitted changes (`bundle.start_git_state`: `git log`, `git config` for the content filters, `git status`). About
700 of the suite's in-process gates load the shipped bundle where it lies, in this checkout, and asked those three
processes the same question each time (~2,000 processes, ~5 CPU-s). Here the product's own answer for that one folder
is kept, keyed by the stat of every entry of the folder and of the git folder's `HEAD`, `index`, `logs/HEAD` and the
branch `HEAD` names (loose and packed): an edit, a new file, `git add`, a commit or a checkout changes one of them, and
git is asked again. Every other folder (the tests' own repositories, bundles in them, copies) goes to git every
time, as in the product (tests/test_checkout_git.py).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from gatekeeper.policy import bundle as policy_bundle

State = tuple[str | None, bool | None]
CHECKOUT_POLICIES = Path(__file__).resolve().parent.parent / "policies"


def _git_dir(folder: Path) -> Path | None:
    done = subprocess.run(["git", "-C", str(folder), "rev-parse", "--absolute-git-dir"], capture_output=True,
                          text=True, check=False)
    return Path(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else None


def _stat(path: Path) -> tuple[int, ...] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)


def _fingerprint(folder: Path, git_dir: Path) -> tuple[object, ...]:
    entries: list[object] = [_stat(git_dir / name) for name in ("HEAD", "index", "logs/HEAD")]
    try:  # the branch HEAD names, loose and packed, in the common folder (a linked work tree's refs live there)
        common = git_dir / (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except OSError:
        common = git_dir
    try:
        head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        head = ""
    if head.startswith("ref: "):
        entries += [head, _stat(common / head[5:]), _stat(common / "packed-refs")]
    for current, folders, files in os.walk(folder):
        folders.sort()
        for name in (".", *sorted(files)):
            path = Path(current) / name
            entries.append((str(path), _stat(path)))
    return tuple(entries)


@contextmanager
def checkout_state_once(kept_folder: Path = CHECKOUT_POLICIES) -> Iterator[None]:
    """Within the block, `bundle.start_git_state` of `kept_folder` (this checkout's `policies/`) answers from the last
    answer git gave for the same fingerprint; any other folder is asked of git each time."""
    real = policy_bundle.start_git_state
    kept_folder = kept_folder.resolve()
    git_dir = _git_dir(kept_folder)
    kept: dict[tuple[object, ...], State] = {}

    def start_git_state(folder: Path) -> Callable[[], State]:
        if git_dir is None or Path(folder).resolve() != kept_folder:
            return real(folder)
        key = _fingerprint(kept_folder, git_dir)
        if key in kept:
            state = kept[key]
            return lambda: state
        collect = real(folder)

        def collected() -> State:
            state = collect()
            if _fingerprint(kept_folder, git_dir) == key:  # nothing moved while git looked
                kept.clear()
                kept[key] = state
            return state

        return collected

    policy_bundle.start_git_state = start_git_state
    try:
        yield
    finally:
        policy_bundle.start_git_state = real
