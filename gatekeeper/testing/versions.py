"""`gatekeeper test --since REV`: a policy whose code changed since REV must have bumped its version.

As the gatekeeper-library does for its templates: a change to a policy's modules (its `policy.rego` and
any other non-test module in its folder) needs a greater `custom.version`; a rule id added needs at
least a minor bump, a rule id removed or renamed a major one (docs/policies.md, "Versioning"). Test
files do not count (they change no decision); the shared `lib/` is versioned by the bundle revision.
The old files are read from git (what `git show REV:path` prints of a file: its blob), never from the working tree,
through one `git cat-file --batch` for the whole bundle (one `git show` each cost a process per module).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

from gatekeeper.catfile import CatFile
from gatekeeper.errors import GatekeeperError, UsageError
from gatekeeper.gitcmd import git_program
from gatekeeper.policy.bundle import Bundle, PolicyInfo
from gatekeeper.policy.metadata import parse_metadata
from gatekeeper.testing.results import TestResult

_SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)")


def check_versions(bundle: Bundle, since: str) -> list[TestResult]:
    """One result per policy: pass, or fail naming what changed and the bump it needs."""
    root = Path(bundle.root)
    if not since or since.startswith("-"):  # never let a revision be read as a git option
        raise UsageError(f"--since: {since!r} is not a revision", hint="pass a branch, tag or commit")
    top = _git(root, "rev-parse", "--show-toplevel").strip()
    if _git_ok(root, "rev-parse", "--verify", "--quiet", f"{since}^{{commit}}") is None:
        raise UsageError(f"--since: {since!r} is not a commit of this repository", where=str(root),
                         hint="pass a branch, tag or commit, e.g. --since origin/main")
    # git show's environment: this process's own (the author's repository, as before); git's settings as every
    # reader of objects takes them (catfile.py).
    objects = CatFile(Path(top), dict(os.environ), shareable=False)
    try:
        return [_check(info, bundle, since, Path(top), objects) for info in bundle.policies]
    finally:
        objects.close()


def _check(info: PolicyInfo, bundle: Bundle, since: str, top: Path, objects: CatFile) -> TestResult:
    module = str(info.module_path)
    result = TestResult(suite="versions", name=f"version {info.name}", file=module, line=1, status="pass")
    old_sources = _old_sources(info.modules, since, top, objects)
    old_main = old_sources.get(module)
    if old_main is None:
        return result  # a policy new since REV: nothing to compare
    changed = sorted(key for key, old in old_sources.items() if old != bundle.modules.get(key))
    if not changed:
        return result
    try:
        old = parse_metadata(old_main, f"{since}:{module}", info.name)
    except GatekeeperError:
        return result  # the old METADATA was invalid: any valid version now is a fix
    new_v, old_v = _semver(info.version), _semver(old.version)
    added = sorted(set(info.rules) - set(old.rules))
    removed = sorted(set(old.rules) - set(info.rules))
    need, why = ("patch", f"{', '.join(Path(c).name for c in changed)} changed")
    if added:
        need, why = "minor", f"rule id(s) added: {', '.join(added)}"
    if removed:
        need, why = "major", f"rule id(s) removed or renamed: {', '.join(removed)}"
    if new_v is None or old_v is None or not _bumped(old_v, new_v, need):
        message = (f"{why} since {since} but custom.version is {info.version} (was {old.version}): "
                   f"a {need} bump is required (docs/policies.md, Versioning)")
        return TestResult(suite="versions", name=f"version {info.name}", file=module, line=1, status="fail",
                          message=message)
    return result


def _bumped(old: tuple[int, int, int], new: tuple[int, int, int], need: str) -> bool:
    if need == "major":
        return new[0] > old[0]
    if need == "minor":
        return new[:2] > old[:2]
    return new > old


def _semver(text: str) -> tuple[int, int, int] | None:
    hit = _SEMVER.match(text)
    return (int(hit.group(1)), int(hit.group(2)), int(hit.group(3))) if hit else None


def _old_sources(keys: Iterable[str], since: str, top: Path, objects: CatFile) -> dict[str, str | None]:
    """Each module's text at `since` (None: not a file there, or outside the repository), asked of `objects` in one
    round trip. A name holding a newline cannot be one request line: `git show` reads it."""
    names: dict[str, bytes | None] = {}
    for key in keys:
        try:
            relative = Path(key).resolve().relative_to(top.resolve()).as_posix()
        except ValueError:
            names[key] = None
            continue
        names[key] = os.fsencode(f"{since}:{relative}")
    asked = [name for name in names.values() if name is not None and b"\n" not in name]
    found = dict(zip(asked, objects.read_many(asked, b"blob"), strict=True))
    old: dict[str, str | None] = {}
    for key, name in names.items():
        if name is None:
            old[key] = None
        elif name in found:
            data = found[name][1]
            old[key] = None if data is None else data.decode("utf-8", "surrogateescape")
        else:
            old[key] = _git_ok(top, "show", os.fsdecode(name))
    return old


def _git(cwd: Path, *args: str) -> str:
    out = _git_ok(cwd, *args)
    if out is None:
        raise UsageError("--since needs the policy bundle inside a git repository", where=str(cwd),
                         hint="run from the repository, or leave out --since")
    return out


def _git_ok(cwd: Path, *args: str) -> str | None:
    try:
        done = subprocess.run([git_program(), *args], cwd=cwd, capture_output=True, check=False)
    except OSError:
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "surrogateescape")
