"""A change committed in a scratch repository, with its patch and packet, gated or classified through the CLI in
either mode: the harness the attack tests of red teams 29 and 30 and attack 24 share (each file wrote its own copy)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from conftest import POLICY_DIR
from gitdiffs import commit_patch
from gitrepo import GitRepo
from incli import run_cli


class Case(NamedTuple):
    repo: GitRepo
    base: str
    head: str
    patch: Path
    packet: Path


def committed(root: Path, base: dict[str, str], head: dict[str, str], mode: int | None = None) -> Case:
    """`base` committed over a README, then `head` (files written at `mode`), the binary patch between them and its
    packet, in `root`."""
    repo = GitRepo(root / "repo")
    repo.write("README.md", "app\n")
    for path, text in base.items():
        repo.write(path, text, mode=mode)
    first = repo.commit("base")
    for path, text in head.items():
        repo.write(path, text, mode=mode)
    second = repo.commit("head")
    patch = root / "change.diff"
    patch.write_bytes(commit_patch(repo, first, second, "--binary"))
    packet = root / "packet.json"
    done = run_cli(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)], text=True)
    assert done.returncode == 0, done.stderr
    return Case(repo, first, second, patch, packet)


def gated(case: Case, tree: bool, deps: bool = True) -> tuple[int, dict[str, Any]]:
    """The gate's exit code and JSON decision on the case's packet and patch, with `--tree` when `tree`."""
    where = ["--tree", f"{case.base}..{case.head}", "--repo", str(case.repo.root)] if tree else []
    done = run_cli(["gate", str(case.packet), "--patch", str(case.patch), "--policy", str(POLICY_DIR), "--format",
                    "json", *(["--enable", "deps"] if deps else []), *where], text=True)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(str(done.stdout))


def committed_pairs(root: Path, files: dict[str, tuple[Any, Any]]) -> Case:
    """`committed` from one table, path: (BASE's text or None when the change adds the file, HEAD's text)."""
    return committed(root, {path: old for path, (old, _) in files.items() if old is not None},
                     {path: new for path, (_, new) in files.items()})


def gated_rules(case: Case, tree: bool, *enable: str) -> tuple[int, dict[str, list[str]]]:
    """The gate's exit code and, by rule, the paths its findings name (`--enable` each of `enable`)."""
    where = ["--tree", f"{case.base}..{case.head}", "--repo", str(case.repo.root)] if tree else []
    done = run_cli(["gate", str(case.packet), "--patch", str(case.patch), "--policy", str(POLICY_DIR), "--format",
                    "json", *(arg for name in enable for arg in ("--enable", name)), *where], text=True)
    assert "Traceback" not in done.stderr, done.stderr
    named: dict[str, list[str]] = {}
    for reason in json.loads(str(done.stdout))["reasons"]:
        named.setdefault(reason["rule"], []).extend(reason.get("paths") or ())
    return done.returncode, named


def variant_rules(root: Path, cases: Iterable[tuple[str, str, str]], before: str,
                  after: str) -> tuple[int, dict[str, str]]:
    """Each case (a definition's name, its text, the file it names) in its own folder `v<n>/`, the named file changed
    from `before` to `after` in one commit: the `--tree` gate's exit code and each path's rule."""
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for number, (definition, text, path) in enumerate(cases):
        base[f"v{number}/{definition}"] = text
        base[f"v{number}/{path}"] = before
        head[f"v{number}/{path}"] = after
    code, named = gated_rules(committed(root, base, head), True)
    return code, {path: rule for rule, paths in named.items() for path in paths}


def both_modes(root: Path, base: dict[str, str], head: dict[str, str]) -> list[tuple[int, dict[str, Any]]]:
    """The deps gate's (exit code, decision) on the committed change from its patch, then with `--tree`."""
    case = committed(root, base, head)
    return [gated(case, False), gated(case, True)]


def patch_entries(repo: Path, base: str, head: str, tmp: Path) -> dict[str, dict[str, Any]]:
    """Each file's entry, by path, when the change BASE..HEAD of the repository at `repo` is classified from its patch
    alone (no --tree): red team 32's readers in patch mode."""
    patch = tmp / "change.diff"
    patch.write_bytes(subprocess.run(["git", "-C", str(repo), "diff", "--binary", base, head], check=True,
                                     capture_output=True).stdout)
    done = run_cli(["classify", str(patch), "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    return {f["path"]: f for f in json.loads(str(done.stdout))["files"]}


Variant = tuple[str, dict[str, str], dict[str, str]]  # name, files at BASE, files at HEAD


def in_folders(variants: Iterable[Variant],
               base_without: str = "") -> tuple[dict[str, str], dict[str, str], dict[str, set[str]]]:
    """Every variant in a folder of its own (`v<number>/`) of one repository: BASE's files, HEAD's files and each
    variant's changed paths by its name. BASE's files whose path starts with `base_without` (when given) are left out:
    a file the caller writes once at the root instead."""
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    paths: dict[str, set[str]] = {}
    for number, (name, old, new) in enumerate(variants):
        base |= {f"v{number}/{path}": text for path, text in old.items()
                 if not (base_without and path.startswith(base_without))}
        head |= {f"v{number}/{path}": text for path, text in new.items()}
        paths[name] = {f"v{number}/{path}" for path in new}
    return base, head, paths
