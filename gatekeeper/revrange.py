"""`BASE..HEAD`, resolved once per command: the one way gatekeeper turns a pull request's names into commits.

`resolve_range` asks git once for the repository (its git folder, object folder, work tree top and prefix) and
both names' commits (name by name only when that one answer is not certain; the refs listed for an ambiguous name
only when git warns of one or cannot), and once for the merge base unless
one commit is a near ancestor of the other (read through the batch process the gate's readers then take over). Every
module that reads the pull request (config_source, treecheck, commits, classify.treecontext, the dependency
delta) takes the `RevRange` it returns, never the names: a gate used to resolve each name four times over, in four
git runners.

One resolution is also one answer. A branch that moves while the gate runs (a push during CI) is read as
the same commit by every check of this run; four resolutions were four chances to judge BASE in one step
and a newer BASE in the next. git runs as gitobjects runs it: a scrubbed environment (no user or system
configuration, no replace refs, no grafts), names after `--end-of-options`, and a name that could be read as
an option (a leading `-`) or holds whitespace or NUL refused before git sees it.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from gatekeeper.errors import UsageError
from gatekeeper.gitcmd import SAFE_GIT, git_program, scrubbed_git_env
from gatekeeper.gitobjects import GitObjects, GitObjectsError, remember_commit
from gatekeeper.lazy_pattern import lazy

TIMEOUT = 120.0
ANCESTRY_STEPS = 64  # commits read below each side before `git merge-base` is asked instead
_FULL_ID = lazy(rb"[0-9a-f]{40}|[0-9a-f]{64}")
_SHORT_ID = lazy(r"[0-9a-fA-F]{4,63}")
_AMBIGUOUS = lazy(rb"^warning: refname '([^\n]*)' is ambiguous\.$", re.MULTILINE)  # git's words (LC_ALL=C)
_ROOT_REF = lazy(r"[A-Z_]*HEAD")  # a pseudo-ref's shape: git reads it from the git folder before any ref
# The repository's git folder, object folder, work tree top and prefix.
_INFO = ["rev-parse", "--path-format=absolute", "--absolute-git-dir", "--git-path", "objects", "--show-toplevel",
         "--show-prefix"]
# git's ambiguity warning on whatever the clone's config says; no advice on the graft file scrubbed_git_env empties.
_WARN_AMBIGUOUS = ["-c", "core.warnAmbiguousRefs=true", "-c", "advice.graftFileDeprecated=false"]
# The repository's paths (as _INFO lists them) and both names' commits.
_Found = tuple[tuple[str, str, str, str], list[str]]
FETCH_HINT = "fetch the pull request's history (actions/checkout: fetch-depth: 0) or name a commit of this repository"


class RangeError(GitObjectsError):
    """`BASE..HEAD` cannot be resolved: no repository there, an unknown name, git failed."""


@dataclass(frozen=True, slots=True)
class RevRange:
    """A pull request's two commits as one command resolved them, with what several readers ask of the repository."""

    text: str  # as given ("main..HEAD"): for messages, logs and the decision record
    base: str  # BASE as given
    head: str  # HEAD as given
    repo: Path  # the folder named (--repo, else the working folder), as given
    base_commit: str  # full commit ids
    head_commit: str
    merge_bases: tuple[str, ...]  # none (unrelated histories), one, or several (criss-cross history)
    git_dir: str  # absolute
    objects_dir: str  # absolute (the scratch object folder of treecheck borrows it as an alternate)
    top: Path | None  # the top of the work tree holding `repo`; None in a bare repository
    prefix: str  # `repo`'s path inside the work tree ('' at the top, else 'dir/')

    @property
    def merge_base(self) -> str | None:
        """The single merge base; None when there is none or more than one (each reader says what that means)."""
        return self.merge_bases[0] if len(self.merge_bases) == 1 else None


def parse_range(text: str) -> tuple[str, str]:
    """`BASE..HEAD` → (BASE, HEAD); UsageError for any other shape."""
    base, sep, head = text.partition("..")
    if not sep or not base or not head or head.startswith(".") or ".." in head:
        raise UsageError(f"not a revision range: {text!r}", where="--tree", hint="write BASE..HEAD, e.g. main..HEAD")
    for rev in (base, head):
        check_revision(rev)
    return base, head


def check_revision(rev: str) -> None:
    """UsageError for a name git could read as an option (a leading "-"), or one holding whitespace or NUL."""
    if not rev or rev.startswith("-") or any(ch.isspace() or ch == "\0" for ch in rev):
        raise UsageError(f"not a revision: {rev!r}", where="--tree", hint="name a commit, branch or tag")


def resolve_option(tree: str | None, repo: Path | None) -> RevRange | None:
    """A command's `--tree BASE..HEAD` and `--repo DIR` resolved (None without --tree; --repo alone is refused)."""
    if tree is None:
        if repo is not None:
            raise UsageError("--repo needs --tree BASE..HEAD", where="--repo", hint="name the commits to read")
        return None
    return resolve_range(tree, repo or Path.cwd())


def resolve_range(text: str, repo: Path) -> RevRange:
    """`text` ("BASE..HEAD") resolved in the repository at `repo`: UsageError for a malformed range, RangeError
    when `repo` is no repository or a name no commit."""
    base, head = parse_range(text)
    if not repo.is_dir():
        raise RangeError("the repository folder does not exist", where=str(repo))
    env = scrubbed_git_env()
    where = str(repo)
    quick, stderr = _in_one(repo, env, base, head)
    _refuse_warned(repo, stderr, *((quick[0][0], len(quick[1][0])) if quick is not None else (None, 0)))
    warned = any(line.strip() and not line.startswith(b"hint:") for line in stderr.split(b"\n"))
    if warned or quick is None or not all(_warned_if_ambiguous(name) for name in (base, head)):
        _refuse_ambiguous(repo, env, (base, head))
    if quick is not None:
        return _resolved(text, base, head, repo, env, *quick)
    found = _git(repo, env, _INFO)
    if found.returncode == 0:
        git_dir, objects, top, prefix = (os.fsdecode(line) for line in (found.stdout.split(b"\n") + [b""] * 4)[:4])
    else:  # a bare repository (or its git folder) has no work tree: ask again without it
        found = _git(repo, env, ["rev-parse", "--path-format=absolute", "--absolute-git-dir", "--git-path", "objects"])
        if found.returncode != 0:
            reasons = [ln.strip() for ln in found.stderr.decode(errors="replace").splitlines()
                       if ln.strip().startswith(("fatal:", "error:"))]
            raise RangeError("not a git repository" + (f": {reasons[0]}" if reasons else ""), where=where,
                             hint="run the gate in a clone of the repository the pull request targets")
        git_dir, objects = (os.fsdecode(line) for line in (found.stdout.split(b"\n") + [b""] * 2)[:2])
        top = prefix = ""
    commits = []
    for rev in (base, head):
        # Not --quiet: it silences git's ambiguity warning too (a bare repository has only this run to give it).
        done = _git(repo, env, [*_WARN_AMBIGUOUS, "rev-parse", "--verify", "--end-of-options", f"{rev}^{{commit}}"])
        _refuse_warned(repo, done.stderr, git_dir, 0)
        if done.returncode != 0:
            raise RangeError(f"unknown revision {rev!r}", where=where, hint=FETCH_HINT)
        commits.append(done.stdout.decode().strip())
    return _resolved(text, base, head, repo, env, (git_dir, objects, top, prefix), commits)


def _refuse_warned(repo: Path, stderr: bytes, git_dir: str | None, hexsz: int) -> None:
    """RangeError for each name git itself warned is ambiguous (`core.warnAmbiguousRefs`): whatever the name's shape,
    as git read it (`FETCH_HEAD` with no such file in the git folder is a ref name like any other; `@{-1}` the branch
    checked out before, read through the same order, a tag first). Not for a full commit id (git takes the object;
    of the repository's id length `hexsz` when known: 64 hex digits name a ref in a SHA-1 repository),
    nor a pseudo-ref (HEAD, FETCH_HEAD) whose file is in the git folder: git reads that file before any ref, and
    nobody who can only push a ref can write it. Without the git folder (a bare repository) every warned name is
    refused."""
    for found in _AMBIGUOUS.finditer(stderr):
        name = "HEAD" if found[1] == b"@" else os.fsdecode(found[1])
        if _FULL_ID.fullmatch(found[1].lower()) and len(found[1]) in ((hexsz,) if hexsz else (40, 64)):
            continue
        if git_dir and _ROOT_REF.fullmatch(name) and os.path.isfile(os.path.join(git_dir, name)):
            continue
        raise RangeError(f"the name {name!r} is ambiguous: git reads more than one ref (or a ref and an abbreviated "
                         "commit id) for it", where=str(repo), hint="name the commit by its full id or the ref by its "
                         "full name (refs/remotes/origin/main)")


def _refuse_ambiguous(repo: Path, env: dict[str, str], names: tuple[str, ...]) -> None:
    """RangeError when two refs answer to a name (or a ref and an abbreviated commit id): git would pick one by its
    order (refs/NAME, tags, branches, remote-tracking refs; a ref before an abbreviation), and whoever can push a tag
    or a branch could make `origin/main` or the pull request's own name mean its commit. One `for-each-ref` for
    both names; a full commit id is never ambiguous (git takes the object), nor a name that is no ref at all."""
    stems = {name: _stem(name) for name in names}
    wanted = {stem: _dwim(stem) for stem in stems.values() if stem}
    if not wanted:
        return
    patterns = sorted({ref for refs in wanted.values() for ref in refs})
    done = _git(repo, env, ["for-each-ref", "--format=%(refname)", *patterns])
    existing = set(done.stdout.decode(errors="replace").split("\n")) if done.returncode == 0 else set()
    for name, stem in stems.items():
        found = [ref for ref in wanted.get(stem, ()) if ref in existing]
        if len(found) < 2 and found and _SHORT_ID.fullmatch(stem):
            objects = _git(repo, env, ["rev-parse", f"--disambiguate={stem}"])
            found += [f"commit id {stem}…"] if objects.returncode == 0 and objects.stdout.strip() else []
        if len(found) > 1:
            raise RangeError(f"the name {name!r} is ambiguous: {' and '.join(found)} both answer to it",
                             where=str(repo), hint="name the commit by its full id or the ref by its full name "
                             "(refs/remotes/origin/main)")


def _stem(name: str) -> str:
    """The ref part of a revision (`origin/main` of `origin/main~1^{commit}`); '' for a full id, a pseudo-ref
    (HEAD, FETCH_HEAD: git reads them from the git folder first) or a search (`:/text`)."""
    stem = re.split(r"[\^~:]|@\{", name, maxsplit=1)[0]
    if stem in ("", "@") or _FULL_ID.fullmatch(stem.encode()) or re.fullmatch(r"[A-Z_]*HEAD", stem):
        return ""
    return stem


def _dwim(stem: str) -> tuple[str, ...]:
    """The refs git tries for `stem`, in its order (git's ref_rev_parse_rules)."""
    own = (stem,) if stem.startswith("refs/") else ()
    return (*own, f"refs/{stem}", f"refs/tags/{stem}", f"refs/heads/{stem}", f"refs/remotes/{stem}",
            f"refs/remotes/{stem}/HEAD")


def _in_one(repo: Path, env: dict[str, str], base: str, head: str) -> tuple[_Found | None, bytes]:
    """(the repository's paths and both names' commits from one `git rev-parse`, git's stderr): the paths and
    commits are None when that cannot be read for certain: a bare repository, an unknown name, any output but four
    lines and two full commit ids. The caller then asks git name by name, as before, for the exact answer or error.

    Without --verify (one name only) rev-parse prints a name it cannot resolve as a path when a file of that name
    exists, and a `^`-led name as `^<id>`: neither is a full id, so neither is taken. git warns on stderr when more
    than one of its ref rules answers to a name, or a ref and an abbreviated object (`core.warnAmbiguousRefs`, set
    here whatever the clone's config says); any stderr line but git's advice (`hint:`) counts as a warning."""
    done = _git(repo, env, [*_WARN_AMBIGUOUS, *_INFO, "--end-of-options", f"{base}^{{commit}}", f"{head}^{{commit}}"])
    lines = done.stdout.split(b"\n")
    if len(lines) > 4 and lines[4] == b"--end-of-options":  # git before 2.43 echoes it (names never start with "-")
        del lines[4]
    if done.returncode != 0 or len(lines) != 7 or lines[6] or not all(_FULL_ID.fullmatch(c) for c in lines[4:6]):
        return None, done.stderr
    git_dir, objects, top, prefix = (os.fsdecode(line) for line in lines[:4])
    if not (git_dir and objects and top):
        return None, done.stderr
    return ((git_dir, objects, top, prefix), [lines[4].decode(), lines[5].decode()]), done.stderr


def _warned_if_ambiguous(name: str) -> bool:
    """Whether git's ambiguity warning covers `name`: not for a short hex stem (git stays silent when the
    abbreviation matches several objects), nor a reflog name (`main@{1}`: git counts reflogs, not refs)."""
    stem = _stem(name)
    return not stem or ("@{" not in name and not _SHORT_ID.fullmatch(stem))


def _resolved(text: str, base: str, head: str, repo: Path, env: dict[str, str], info: tuple[str, str, str, str],
              commits: list[str]) -> RevRange:
    git_dir, objects, top, prefix = info
    bases = _one_above_the_other(repo, git_dir, commits[0], commits[1])
    if bases is None:
        # merge-base exits 1 for histories without a common ancestor: no merge base, which each reader reports its way.
        done = _git(repo, env, ["merge-base", "--all", *commits])
        bases = tuple(done.stdout.decode().split()) if done.returncode == 0 else ()
    for commit in (*commits, *bases):
        remember_commit(git_dir, commit)  # what GitObjects.commit would ask again is known
    return RevRange(text, base, head, repo, commits[0], commits[1], bases, git_dir, objects,
                    Path(top) if top else None, prefix)


def _one_above_the_other(repo: Path, git_dir: str, base: str, head: str) -> tuple[str, ...] | None:
    """The merge base when one commit is an ancestor of the other within ANCESTRY_STEPS commits (a pull request
    branched from BASE as it is, or BASE fast-forwarded onto HEAD): that commit, which is all `git merge-base --all`
    answers then (every other common ancestor lies below it). Read from the commit objects through the batch process
    the gate's readers take over next (gitobjects.py), not a process of its own; None when that cannot be told: the
    walk ran out, an object is missing, or the repository is shallow (git hides a shallow commit's parents)."""
    if base == head:
        return (base,)
    if os.path.exists(os.path.join(git_dir, "shallow")):
        return None
    with GitObjects(repo, git_dir=git_dir) as objects:
        for lower, upper in ((base, head), (head, base)):
            if objects.reaches(upper, lower, ANCESTRY_STEPS):
                return (lower,)
    return None


def _git(repo: Path, env: dict[str, str], args: list[str]) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run([git_program(), *SAFE_GIT, *args], cwd=repo, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=TIMEOUT)
    except OSError as exc:
        raise RangeError(f"cannot run git: {exc.strerror}", hint="install git") from None
    except subprocess.TimeoutExpired:
        raise RangeError(f"git {args[0]} did not finish within {TIMEOUT:g} s", where=str(repo)) from None
