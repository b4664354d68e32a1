"""Where the gate's own configuration comes from: never from the change it judges.

The rule, for `gatekeeper.yaml` and the policy bundle alike:

- With `--tree BASE..HEAD`, whatever lies inside the checkout is read from BASE's git objects at the
  same repository path, never from the working tree (which holds the change under review): the
  working directory's `gatekeeper.yaml`, the bundle it names, `./policies`, a `--policy DIR` inside
  the checkout (also when a symlink leads there), even the shipped bundle when gatekeeper itself is
  run from inside the checkout. A folder outside the checkout is read from disk: the command line or
  BASE's own configuration named it, so it is the CI owner's choice.
- Without `--tree`, the working directory is taken as CI checked it out, and the self-guard
  (`policy.selfguard`) refuses a patch that touches any of it.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePath

from gatekeeper.bounded import Limits, read_bytes
from gatekeeper.errors import RunError, UsageError
from gatekeeper.gitcmd import NO_FETCH, run_git, scrubbed_git_env
from gatekeeper.gitobjects import GitObjects, GitObjectsError
from gatekeeper.policy.bundle import Bundle, load_bundle
from gatekeeper.policy.selfguard import Guarded, guarded_paths, repository_guards
from gatekeeper.policy_dir import MANIFEST, default_policy_dir, resolve_policy_dir, shipped_policy_dir
from gatekeeper.project_config import FILE_NAMES, ProjectConfig, load_project_config, parse_project_config
from gatekeeper.readable import printable
from gatekeeper.revrange import RevRange

MAX_CONFIG_BYTES = 1 << 20  # a settings file; read from git, never a reason to stream megabytes


@dataclass(frozen=True, slots=True)
class GateConfiguration:
    """The settings file, the bundle, and what of them lies in the checkout (for the self-guard)."""

    config: ProjectConfig
    bundle: Bundle
    guarded: tuple[Guarded, ...]
    base: str | None = None  # the commit they were read from, under --tree
    # Under --tree, the same files as repository paths: read from BASE, so a change to them is judged, but it is what
    # the next gate reads (the gate tags it guardrail: config_tags).
    in_use: tuple[Guarded, ...] = ()


@contextmanager
def gate_configuration(
    policy_dir: Path | None, revs: RevRange | None, *, formats: tuple[str, ...] = ()
) -> Iterator[GateConfiguration]:
    """The gate's configuration: from BASE's git objects when `revs` (the resolved --tree) is given, else the
    working directory.

    Paths are placed in `revs.repo`, the clone BASE lives in, as the working directory sits in it; a working
    directory outside it stands for its top.
    A bundle read from git is exported into a private temporary folder that lives as long as the context.
    """
    if revs is None:
        config = load_project_config(formats=formats)
        folder = policy_dir or config.policy_dir  # gatekeeper.yaml is read once: not again to find the bundle
        bundle = load_bundle(resolve_policy_dir(folder) if folder is not None else default_policy_dir())
        yield GateConfiguration(config, bundle, guarded_paths(Path.cwd(), _in_use(policy_dir, config, bundle.root)))
        return
    cwd = Path.cwd()
    top = _work_tree(revs)
    base, commit = revs.base, revs.base_commit
    with tempfile.TemporaryDirectory(prefix="gatekeeper-base-") as tmp:
        with GitObjects(revs.repo, git_dir=revs.git_dir) as objects:
            inside = repo_path(top, cwd)
            prefix = f"{inside}/" if inside else ""
            home = cwd if inside is not None else top
            config = _config_at(objects, commit, base, prefix, home, formats)
            folder = policy_dir or config.policy_dir
            if folder is None:
                # The gate's own default order, decided by what BASE holds, not by what the change added.
                folder = _default_bundle(objects, commit, base, prefix, home)
            bundle = _bundle_at(objects, commit, base, top, Path(folder), Path(tmp))
        in_use = _repository_items(top, prefix, policy_dir, config, Path(folder))
        yield GateConfiguration(config, bundle, (), commit, repository_guards(in_use))


def trusted_file(path: Path, revs: RevRange | None, *, limit: int = MAX_CONFIG_BYTES) -> tuple[bytes, str]:
    """A file the gate trusts (an allowed-signers file): under --tree (`revs`), when it lies in the checkout, BASE's
    copy (the change under review cannot add itself a signer); else the file on disk. (bytes, label)."""
    if revs is not None:
        inside = repo_path(_work_tree(revs), path if path.is_absolute() else Path.cwd() / path)
        if inside is not None:
            with GitObjects(revs.repo, git_dir=revs.git_dir) as objects:
                commit = revs.base_commit
                data = objects.read(commit, inside, limit + 1)
                label = f"{revs.base}:{inside}"
                if data is None or objects.tree(commit)[inside].is_symlink:
                    raise UsageError("not a regular file at BASE", where=label,
                                     hint="commit the file to the base branch, or keep it outside the checkout")
                if len(data) > limit:
                    raise UsageError(f"over {limit} bytes", where=label)
                return data, label
    try:
        return read_bytes(path, Limits(max_bytes=limit, max_depth=1, max_values=1)), str(path)
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror}", where=str(path)) from None


def trusted_guards(path: Path | None, revs: RevRange | None) -> tuple[Guarded, ...]:
    """The file `trusted_file` reads, as a guard where it lies in the checkout (under --tree, BASE's copy; else the
    working directory's): a change that adds a signer to it is what the next gate trusts (config_tags)."""
    if path is None:
        return ()
    if revs is None:
        return guarded_paths(Path.cwd(), [(path, "the gate's trusted signers")])
    inside = repo_path(_work_tree(revs), path if path.is_absolute() else Path.cwd() / path)
    return () if inside is None else repository_guards([(inside, inside, "the gate's trusted signers")])


class TrackedLog(UsageError):
    """The decision log named is a file of the repository: nothing, not even the failure, is appended to it."""


def check_log_place(path: Path | None, revs: RevRange | None) -> None:
    """Under --tree, refuse a decision log (or its head file) that BASE's or HEAD's tree holds: its records before
    the gate's would be the change's own, chained as it likes (the chain has no key), and `audit verify` would call
    the whole file intact; as is a log in a submodule the trees pin, and a log named through a symlinked folder
    (each spelling is asked: repo_paths). A log the job creates in the checkout, or keeps outside it, is not the
    change's.
    Without --tree: the commit checked out in the log's own repository (its HEAD) is asked (hardening 50)."""
    if path is not None and revs is None:
        _check_checked_out(path)
    if path is None or revs is None or revs.top is None:
        return
    insides = repo_paths(revs.top, path if path.is_absolute() else Path.cwd() / path)
    if not insides:
        return
    with GitObjects(revs.repo, git_dir=revs.git_dir) as objects:
        for commit, name in ((revs.head_commit, revs.head), (revs.base_commit, revs.base)):
            tree = objects.tree(commit)
            held = [p for inside in insides for p in (inside, inside + ".head") if p in tree] \
                + [folder for inside in insides for folder in _folders(inside)
                   if (entry := tree.get(folder)) is not None and entry.is_gitlink]  # a submodule the change pins
            if held:
                raise TrackedLog(f"the decision log is a file the repository holds ({name}:{printable(held[0])}): "
                                 "records the change wrote would open the chain", where=str(path),
                                 hint="log outside the checkout, or to a file the repository does not track")


def _check_checked_out(path: Path) -> None:
    """Refuse a log (or its head file) that HEAD holds in the repository the log's folder lies in; fail closed when
    git finds a repository there but cannot say (the nearest folder that exists is asked; `--log-init` makes the
    rest)."""
    target = Path(os.path.abspath(path))
    folder = next((f for f in target.parents if f.is_dir()), Path(target.anchor))
    env = scrubbed_git_env(GIT_LITERAL_PATHSPECS="1")
    refused = TrackedLog("the decision log lies in a repository git cannot read", where=str(path),
                         hint="log outside the checkout, or make the repository readable to git")

    def ask(*args: str, ok: tuple[int, ...] = (0,)) -> str:
        try:
            return run_git([*NO_FETCH, *args], cwd=folder, env=env, what="decision log", where=str(path), timeout=60,
                           ok=ok)
        except RunError as exc:
            if "not a git repository" in str(exc).lower():
                raise LookupError from None
            raise refused from None

    try:
        top = ask("rev-parse", "--show-toplevel")
    except LookupError:
        return  # no repository holds the folder
    insides = repo_paths(Path(top), target) if top else []
    if not insides or not ask("rev-parse", "-q", "--verify", "HEAD^{commit}", ok=(0, 1)):
        return  # no commit yet: nothing is held
    named = {p for inside in insides for p in (inside, inside + ".head")}
    listed = ask("-C", top, "ls-tree", "-z", "--name-only", "--full-tree", "HEAD", "--", *sorted(named))
    held = sorted(set(listed.split("\0")) & named)
    if held:
        raise TrackedLog(f"the decision log is a file the checked-out commit holds (HEAD:{printable(held[0])}): "
                         "records the change wrote would open the chain", where=str(path),
                         hint="log outside the checkout, or to a file the repository does not track")


def _work_tree(revs: RevRange) -> Path:
    if revs.top is None:
        raise GitObjectsError("not inside a git work tree", where=str(revs.repo),
                              hint="run the gate in a clone of the repository")
    return revs.top


def repo_path(top: Path, path: Path) -> str | None:
    """`path` as a path inside the work tree at `top` ('' for the top itself), or None when it lies outside.

    The spelling given decides first (a symlink in the checkout cannot lead the gate out of it);
    a path outside that resolves into the checkout counts as inside too.
    """
    tops = {os.path.abspath(top), os.path.realpath(top)}
    for candidate in (os.path.normpath(os.path.abspath(path)), os.path.realpath(path)):
        for root in tops:
            rel = os.path.relpath(candidate, root)
            if rel == os.curdir:
                return ""
            if rel != os.pardir and not rel.startswith(os.pardir + os.sep):
                return PurePath(rel).as_posix()
    return None


def _folders(path: str) -> list[str]:
    """The folders on the way to `path` (`a`, `a/b` for `a/b/c`)."""
    parts = path.split("/")
    return ["/".join(parts[:at]) for at in range(1, len(parts))]


def repo_paths(top: Path, path: Path) -> list[str]:
    """Each spelling of `path` inside the work tree at `top`: as given (normalized) and as the kernel resolves it
    (a symlinked folder of the checkout on the way: `logs -> data`, review 67b); none when it lies outside."""
    tops = {os.path.abspath(top), os.path.realpath(top)}
    found: list[str] = []
    for candidate in (os.path.normpath(os.path.abspath(path)), os.path.realpath(path)):
        for root in tops:
            rel = os.path.relpath(candidate, root)
            if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep):
                continue
            found.append(PurePath(rel).as_posix())
    return list(dict.fromkeys(found))


def _config_at(objects: GitObjects, commit: str, base: str, prefix: str, cwd: Path,
               formats: tuple[str, ...]) -> ProjectConfig:
    tree = objects.tree(commit)
    for name in FILE_NAMES:
        entry = tree.get(f"{prefix}{name}")
        if entry is None:
            continue
        label = f"{base}:{prefix}{name}"
        if entry.is_symlink or entry.is_gitlink:
            raise UsageError("the gate's configuration file is a symlink or submodule", where=label,
                             hint=f"keep {name} a plain file on the base branch")
        data = objects.blob(entry.oid, MAX_CONFIG_BYTES + 1)
        if len(data) > MAX_CONFIG_BYTES:
            raise UsageError(f"the gate's configuration file is larger than {MAX_CONFIG_BYTES} bytes", where=label,
                             hint="it holds a handful of settings; check what was committed there")
        return parse_project_config(data, cwd / name, label, formats=formats)
    return ProjectConfig()


def _default_bundle(objects: GitObjects, commit: str, base: str, prefix: str, cwd: Path) -> Path:
    """`./policies` when BASE holds a bundle there, else the shipped one; a link there is refused, not
    skipped: falling back to the shipped bundle would silently judge by other policies than BASE meant."""
    tree = objects.tree(commit)
    here = f"{prefix}policies"
    for path in (here, f"{here}/{MANIFEST}"):
        entry = tree.get(path)
        if entry is not None and (entry.is_symlink or entry.is_gitlink):
            raise UsageError("the bundle folder is a symlink or submodule at the base commit; bundles are read "
                             "from git as plain files", where=f"{base}:{path}",
                             hint="commit the bundle as plain files, or pass --policy DIR outside the checkout")
    return cwd / "policies" if f"{here}/{MANIFEST}" in tree else shipped_policy_dir()


def _bundle_at(objects: GitObjects, commit: str, base: str, top: Path, folder: Path, tmp: Path) -> Bundle:
    rel = repo_path(top, folder)
    if rel is None:  # outside the checkout: the CI owner's folder, read where it is
        return load_bundle(resolve_policy_dir(folder))
    manifest = f"{rel}/{MANIFEST}" if rel else MANIFEST
    entry = objects.tree(commit).get(manifest)
    if entry is None or entry.is_symlink or entry.is_gitlink:
        raise UsageError(
            f"not a policy bundle at {base}: no {manifest} there (inside the checkout the bundle is read "
            "from the base commit, never from the change under review)",
            where=str(folder),
            hint="commit the bundle to the base branch, or pass --policy DIR outside the checkout",
        )
    dest = tmp / commit[:12] / rel
    dest.mkdir(parents=True)
    objects.export(commit, rel, dest)
    bundle = load_bundle(dest, git_state=False)  # a folder outside any repository: its commit is BASE's
    return dataclasses.replace(bundle, commit=objects.last_change(commit, rel))


def _repository_items(top: Path, prefix: str, policy_dir: Path | None, config: ProjectConfig,
                      folder: Path) -> list[tuple[str, str, str]]:
    """_in_use's files as repository paths, under --tree: the configuration files where the gate looks for them, the
    bundle when it lies in the checkout, and `policies` where the gate looks for it first."""
    items = [(f"{prefix}{name}", f"{prefix}{name}", "the gate's configuration file") for name in FILE_NAMES]
    rel = repo_path(top, folder)  # as _bundle_at places it
    if rel is not None:
        items.append((rel, rel or ".", "the policy bundle in use"))
    if policy_dir is None and config.policy_dir is None:
        items.append((f"{prefix}policies", f"{prefix}policies", "the policy bundle the gate looks for first"))
    return items


def _in_use(policy_dir: Path | None, config: ProjectConfig, bundle_root: Path) -> list[tuple[Path, str]]:
    """Every file whose presence or content decides how this run judges: config files, bundle, fallback bundle."""
    items = [(Path(name), "the gate's configuration file") for name in FILE_NAMES]
    items.append((bundle_root, "the policy bundle in use"))
    if policy_dir is None and config.policy_dir is None:
        items.append((Path("policies"), "the policy bundle the gate looks for first"))
    return items
