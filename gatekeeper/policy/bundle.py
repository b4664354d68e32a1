"""Load a policy bundle: manifest, classification rules, one folder per policy, shared Rego helpers.

Layout: `<root>/.manifest` (OPA-style JSON: `revision`, `roots`, and our `metadata` with `name`,
`policies` {name: {"default": bool}} and `params`), `<root>/classification.yaml`,
`<root>/lib/*.rego` (package `gatekeeper.lib...`), and `<root>/<name>/policy.rego` (package
`gatekeeper.policies.<name>`) with its `policy_test.rego` (package `gatekeeper.policies.<name>_test`).
A shared module in a `testing` package (`gatekeeper.lib.testing`) holds helpers for the tests: it is
one of the bundle's modules, which `gatekeeper test` loads, but never one a gate evaluates.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import subprocess
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gatekeeper.bounded import load_json, no_duplicates, read_bytes
from gatekeeper.classify import load_rules
from gatekeeper.errors import PolicyError, RunError, UsageError, where
from gatekeeper.gitcmd import NO_FETCH, SAFE_GIT, filters_off, git_program, scrubbed_git_env
from gatekeeper.lazy_pattern import lazy
from gatekeeper.policy.bundle_cache import SKIPPED_DIRS, Held, contents, digest_of, fold, parsed_from
from gatekeeper.policy.metadata import package_of, parse_metadata
from gatekeeper.policy.rego_lint import check_source
from gatekeeper.policy_dir import MANIFEST

if TYPE_CHECKING:
    from gatekeeper.classify import RuleSet

POLICY_MODULE = "policy.rego"
TEST_SUFFIX = "_test.rego"
LIB_DIR = "lib"
TEST_HELPERS = "testing"  # the last part of a shared package that only tests load
POLICY_PACKAGE = "gatekeeper.policies"
_NAME = lazy(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class PolicyInfo:
    """One policy of a bundle, as its folder, manifest entry and `# METADATA` describe it."""

    name: str
    version: str
    title: str
    description: str
    owner: str
    default: bool
    module_path: Path
    test_path: Path | None
    rules: tuple[str, ...]  # the rule ids the policy declares (METADATA custom.rules)
    modules: tuple[str, ...]  # keys into Bundle.modules: policy.rego and any other non-test module

    @property
    def package(self) -> str:
        """The Rego package the gate queries for this policy's findings."""
        return f"{POLICY_PACKAGE}.{self.name}"


@dataclass(frozen=True, slots=True)
class Bundle:
    """A loaded, validated policy bundle."""

    root: Path
    name: str
    revision: str
    commit: str | None  # last git commit that changed the bundle folder, when it sits in a repository
    uncommitted: bool | None  # the folder differs from that commit (None: not in a repository)
    digest: str  # sha256 over sorted relative paths and contents (see bundle_digest)
    policies: tuple[PolicyInfo, ...]
    rules: RuleSet
    params: dict[str, Any]
    modules: dict[str, str]  # every non-test module, keyed by its path as shown to people
    lib: tuple[str, ...]  # keys of the shared helper modules a gate loads (test helpers are only in `modules`)

    def policy(self, name: str) -> PolicyInfo:
        """The policy called `name`; UsageError naming the known ones otherwise."""
        for info in self.policies:
            if info.name == name:
                return info
        known = ", ".join(p.name for p in self.policies)
        raise UsageError(f"unknown policy {name!r}", where=str(self.root), hint=f"the bundle has: {known}")

    def modules_for(self, names: Iterable[str]) -> dict[str, str]:
        """The shared helpers plus the modules of the named policies."""
        keys = [*self.lib, *(key for name in names for key in self.policy(name).modules)]
        return {key: self.modules[key] for key in keys}

    def data(self) -> dict[str, Any]:
        """The data document every evaluation gets (thresholds under `data.gatekeeper.params`)."""
        return {"gatekeeper": {"params": self.params}}

    def describe(self) -> dict[str, Any]:
        """`{name, revision, commit, uncommitted, digest}` as a decision records it.

        `uncommitted` says the bundle had changes its commit does not hold: then only the digest says what decided.
        """
        return {"name": self.name, "revision": self.revision, "commit": self.commit,
                "uncommitted": self.uncommitted, "digest": self.digest}


_HELD: Held[Bundle] = Held(8)  # bundles loaded in this process, by their bytes (bundle_cache.py)


def load_bundle(root: str | os.PathLike[str], *, lint_tests: bool = True, git_state: bool = True) -> Bundle:
    """Load and validate the bundle at `root` (PolicyError / RulesError say what and where).

    Every module passes the lexical check of `rego_lint`; `lint_tests=False` leaves the
    `*_test.rego` files to the test runner, which reports a malformed one as that file's error.
    `git_state=False`: no git commands for the folder's commit and uncommitted state (both None) — a bundle
    exported from a commit, whose caller knows its commit (two git processes less per `--tree` gate).
    """
    folder = Path(root)
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise UsageError(
            f"not a policy bundle: no {MANIFEST} file",
            where=str(folder),
            hint="pass --policy DIR naming a bundle folder",
        )
    place = _HELD.place(folder, f"lint_tests={lint_tests}")  # held by its bytes from its second load (bundle_cache.py)
    before = contents(folder) if _HELD.seen(place) else None
    held = _HELD.get(place, before) if before is not None else None
    if held is not None:  # the git state is asked every time
        commit, uncommitted = start_git_state(folder)() if git_state else (None, None)
        return replace(held, commit=commit, uncommitted=uncommitted, modules=dict(held.modules),
                       params=copy.deepcopy(held.params))
    loaded = _load_bundle(folder, manifest_path, lint_tests=lint_tests, git_state=git_state)
    if before is not None and loaded.digest == digest_of(before) and parsed_from(before, folder, loaded):
        _HELD.put(place, before, replace(loaded, modules=dict(loaded.modules), params=copy.deepcopy(loaded.params)))
    return loaded


def _load_bundle(folder: Path, manifest_path: Path, *, lint_tests: bool, git_state: bool) -> Bundle:
    manifest = _read_manifest(manifest_path)
    git_state_of = start_git_state(folder) if git_state else lambda: (None, None)  # git works while the bundle loads
    try:
        meta = manifest["metadata"]
        modules: dict[str, str] = {}
        lib = tuple(_load_lib(folder, modules, manifest["roots"]))
        policies = tuple(
            _load_policy(folder, name, bool(entry["default"]), modules, manifest_path)
            for name, entry in meta["policies"].items()
        )
        _refuse_unlisted(folder, meta["policies"], manifest_path)
        if lint_tests:
            _lint_test_files(folder)
    finally:
        commit, uncommitted = git_state_of()  # reaped either way
    return Bundle(
        root=folder,
        name=meta["name"],
        revision=manifest["revision"],
        commit=commit,
        uncommitted=uncommitted,
        digest=bundle_digest(folder),
        policies=policies,
        rules=load_rules(folder),
        params=meta.get("params", {}),
        modules=modules,
        lib=lib,
    )


def _read_manifest(path: Path) -> dict[str, Any]:
    try:
        doc = load_json(read_bytes(path), str(path), object_pairs_hook=no_duplicates)
    except OSError as exc:
        raise PolicyError(f"cannot read the manifest: {exc.strerror}", where=str(path)) from None
    except UnicodeDecodeError:
        raise PolicyError("the manifest is not UTF-8", where=str(path)) from None
    except json.JSONDecodeError as exc:
        raise PolicyError(f"the manifest is not JSON: {exc.msg}", where=where(path, exc.lineno)) from None
    except ValueError as exc:  # a key given twice: JSON keeps the last silently (red team 25)
        raise PolicyError(f"the manifest holds {exc}", where=str(path), hint="give each key once") from None
    if not isinstance(doc, dict):
        raise PolicyError("the manifest must be a JSON object", where=str(path))
    _need(
        isinstance(doc.get("revision"), str) and doc["revision"].strip() != "", path, "revision", "a non-empty string"
    )
    roots = doc.get("roots")
    _need(
        isinstance(roots, list) and bool(roots) and all(isinstance(r, str) and r for r in roots),
        path,
        "roots",
        'a list of package roots, e.g. ["gatekeeper"]',
    )
    meta = doc.get("metadata")
    if not isinstance(meta, dict):
        raise _bad(path, "metadata", "an object with name, policies and params")
    _need(isinstance(meta.get("name"), str) and meta["name"].strip() != "", path, "metadata.name", "a non-empty string")
    policies = meta.get("policies")
    if not isinstance(policies, dict) or not policies:
        raise _bad(path, "metadata.policies", 'an object {name: {"default": bool}}')
    for name, entry in policies.items():
        field = f"metadata.policies.{name}"
        _need(
            bool(_NAME.match(name)) and name != LIB_DIR,
            path,
            field,
            "a lower-case name (letters, digits, _) other than `lib`",
        )
        _need(
            isinstance(entry, dict) and isinstance(entry.get("default"), bool),
            path,
            field,
            "an object with a boolean `default`",
        )
        unknown = set(entry) - {"default"}
        _need(not unknown, path, field, f"only `default` (unknown: {', '.join(sorted(unknown))})")
    _need(isinstance(meta.get("params", {}), dict), path, "metadata.params", "an object of thresholds")
    return doc


def _need(ok: bool, path: Path, field: str, expected: str) -> None:
    if not ok:
        raise _bad(path, field, expected)


def _bad(path: Path, field: str, expected: str) -> PolicyError:
    return PolicyError(f"`{field}` must be {expected}", where=where(path, field=field))


def _read_module(path: Path) -> str:
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PolicyError(f"cannot read the module: {exc.strerror}", where=str(path)) from None
    except UnicodeDecodeError:
        raise PolicyError("the module is not UTF-8", where=str(path)) from None
    # regopy accepts a stray bracket and drops the rest of the rule body: refuse it before it compiles.
    check_source(source, str(path))
    return source


def _lint_test_files(folder: Path) -> None:
    # The same files the test runner finds: a bundle whose tests are malformed is not a bundle to trust.
    for path in sorted(folder.rglob(f"*{TEST_SUFFIX}")):
        if not any(part.startswith(".") for part in path.relative_to(folder).parts):
            _read_module(path)


def _load_lib(folder: Path, modules: dict[str, str], roots: list[str]) -> list[str]:
    keys = []
    for path in sorted((folder / LIB_DIR).glob("*.rego")):
        if path.name.endswith(TEST_SUFFIX):
            continue
        source = _read_module(path)
        declared = package_of(source)
        if declared is None or not any(declared[0] == r or declared[0].startswith(r + ".") for r in roots):
            raise PolicyError(
                f"a shared module must declare a package under the manifest roots ({', '.join(roots)})",
                where=where(path, declared[1] if declared else None),
            )
        modules[str(path)] = source
        if declared[0].rsplit(".", 1)[-1] != TEST_HELPERS:
            keys.append(str(path))
    return keys


def _load_policy(folder: Path, name: str, default: bool, modules: dict[str, str], manifest: Path) -> PolicyInfo:
    policy_dir = folder / name
    module_path = policy_dir / POLICY_MODULE
    if not module_path.is_file():
        raise PolicyError(
            f"policy {name!r} is listed but has no {name}/{POLICY_MODULE}",
            where=where(manifest, field=f"metadata.policies.{name}"),
        )
    keys = []
    for path in sorted(policy_dir.glob("*.rego")):
        if path.name.endswith(TEST_SUFFIX):
            continue
        source = _read_module(path)
        declared = package_of(source)
        expected = f"{POLICY_PACKAGE}.{name}"
        if declared is None or declared[0] != expected:
            raise PolicyError(
                f"the module must declare `package {expected}`", where=where(path, declared[1] if declared else None)
            )
        modules[str(path)] = source
        keys.append(str(path))
    keys.sort(key=lambda key: key != str(module_path))  # policy.rego first
    meta = parse_metadata(modules[str(module_path)], str(module_path), name)
    test_path = policy_dir / f"policy{TEST_SUFFIX}"
    return PolicyInfo(
        name=name,
        version=meta.version,
        title=meta.title,
        description=meta.description,
        owner=meta.owner,
        default=default,
        module_path=module_path,
        test_path=test_path if test_path.is_file() else None,
        rules=meta.rules,
        modules=tuple(keys),
    )


def _refuse_unlisted(folder: Path, listed: Mapping[str, Any], manifest: Path) -> None:
    for child in sorted(folder.iterdir()):
        if child.is_dir() and child.name != LIB_DIR and (child / POLICY_MODULE).is_file() and child.name not in listed:
            raise PolicyError(
                f"policy folder {child.name!r} is not listed in the manifest",
                where=where(manifest, field="metadata.policies"),
                hint=f'add "{child.name}": {{"default": false}} or remove the folder',
            )


def bundle_digest(root: str | os.PathLike[str]) -> str:
    """sha256 over `<relative path>\\0<sha256 of content>\\n` for every file, sorted by path."""
    folder = Path(root)
    entries: list[tuple[str, str]] = []
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for file_name in files:
            path = Path(current) / file_name
            try:
                content = path.read_bytes()
            except OSError as exc:
                raise PolicyError(f"cannot read a bundle file: {exc.strerror}", where=str(path)) from None
            entries.append((path.relative_to(folder).as_posix(), hashlib.sha256(content).hexdigest()))
    return fold(entries)


def last_commit(folder: Path) -> str | None:
    """The last commit that changed `folder`, when it sits in a git work tree (else None)."""
    return git_state(folder)[0]


def git_state(folder: Path) -> tuple[str | None, bool | None]:
    """(the last commit that changed `folder`, whether `folder` has uncommitted changes); None when not in git."""
    return start_git_state(folder)()


def start_git_state(folder: Path) -> Callable[[], tuple[str | None, bool | None]]:
    """`git_state` with both git commands running while the caller loads the bundle; call to collect."""
    if not _git_may_find_a_repository(folder):
        return lambda: (None, None)  # what both commands would say, without their two processes
    env = scrubbed_git_env()  # the caller's GIT_DIR, GIT_CONFIG_* or HOME must not forge the commit or run a program
    try:
        git = git_program()  # never a `git` a relative PATH entry finds in the checkout
        # The folder may lie in the checkout under review: its .git/config must not start a program (SAFE_GIT, and
        # no content filter for the files status reads again, no fetch from a promisor remote).
        log = [git, *SAFE_GIT, *NO_FETCH, "-C", str(folder), "log", "-1", "--format=%H", "--", "."]
        running = [subprocess.Popen(log, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)]
        status = [git, *SAFE_GIT, *NO_FETCH, *filters_off(git, folder, env), "-C", str(folder), "status", "--porcelain",
                  "--untracked-files=all", "--ignore-submodules=all", "--", "."]
        running.append(subprocess.Popen(status, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env))
    except (OSError, RunError):
        return lambda: (None, None)
    return lambda: _git_outputs(running)


def _git_may_find_a_repository(folder: Path) -> bool:
    """False only where `git -C folder` surely finds no repository (git runs without the caller's GIT_DIR): neither
    `folder` nor a folder above it (as the kernel resolves it, as git's discovery walks up from its working folder)
    holds a `.git` entry or a `HEAD` entry (any folder git could take for a git folder, bare or linked through a
    `commondir`, has one; a `HEAD` that is not one only costs the two processes). A shipped bundle in an installed
    package, a copied one: the two git processes of every load would only fail (~4 ms of CPU, two process starts)."""
    try:
        here = folder.resolve(strict=True)
        for candidate in (here, *here.parents):
            if os.path.lexists(candidate / ".git") or os.path.lexists(candidate / "HEAD"):
                return True
    except OSError:
        return True  # unreadable: git decides
    return False


def _git_outputs(running: list[subprocess.Popen[bytes]]) -> tuple[str | None, bool | None]:
    outputs = []
    for process in running:
        try:
            out, _ = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            for each in running:
                each.kill()
                each.communicate()
            return None, None
        outputs.append((process.returncode, out))
    (log_rc, log_out), (status_rc, status_out) = outputs
    commit = log_out.decode("ascii", "replace").strip()
    if log_rc != 0 or not re.fullmatch(r"[0-9a-f]{40,64}", commit):
        return None, None
    return commit, (bool(status_out.strip()) if status_rc == 0 else None)
