"""Hardening 50: the bundle's recorded commit (`policy/bundle.git_state`) and the policy history and replay readers
(`policy/gitrev.py`) run git as the rest of the product does (gitcmd.SAFE_GIT, gitcmd.scrubbed_git_env, no fetch).

Generated attacks from the two places an attacker may write: the environment (GIT_DIR and its kin, GIT_CONFIG_*, a
HOME or global config file, replace refs) and the repository's own config and refs (fsmonitor, hooks, a promisor
remote whose uploadpack is a program, replace objects, grafts). Real git says what the repository holds (read before
anything is planted); a marker file says whether a planted program ran."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gatekeeper.policy import gitrev
from gatekeeper.policy.bundle import git_state
from gatekeeper.policy.history import policy_history

_CLEAN = {"PATH": "/usr/bin:/bin", "HOME": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
          "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@x", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@x",
          "LC_ALL": "C"}


def _git(repo: Path, *args: str, data: bytes | None = None) -> str:
    done = subprocess.run(["git", *args], cwd=repo, env=_CLEAN, input=data, capture_output=True, check=True)
    return done.stdout.decode().strip()


def _repo(root: Path, name: str, text: str) -> tuple[Path, list[str]]:
    repo = root / name
    repo.mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    commits = []
    for n in range(3):
        (repo / "policies").mkdir(exist_ok=True)
        (repo / "policies" / "classification.yaml").write_text(f"# {text} {n}\n")
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", f"{text} {n}")
        commits.append(_git(repo, "rev-parse", "HEAD"))
    return repo, commits


@pytest.fixture(scope="module")
def _built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], list[str]]:
    """The two repositories, made by real git once for the module (20 git processes): (their folder, the real one's
    commits, the decoy's)."""
    root = tmp_path_factory.mktemp("redteam50")
    _, commits = _repo(root, "repo", "real")
    _, decoy_commits = _repo(root, "decoy", "decoy")
    return root, commits, decoy_commits


@pytest.fixture
def world(tmp_path: Path, _built: tuple[Path, list[str], list[str]]) -> dict[str, object]:
    """A fresh copy of the module's repositories for each case: every case plants into them (config, refs, files)."""
    built, commits, decoy_commits = _built
    repo, decoy = tmp_path / "repo", tmp_path / "decoy"
    shutil.copytree(built / "repo", repo, symlinks=True)
    shutil.copytree(built / "decoy", decoy, symlinks=True)
    marker = tmp_path / "ran"
    program = tmp_path / "evil.sh"
    program.write_text(f"#!/bin/sh\ntouch '{marker}'\nexit 1\n")
    program.chmod(0o755)
    return {"repo": repo, "commits": list(commits), "decoy": decoy, "decoy_commits": list(decoy_commits),
            "marker": marker, "program": str(program), "tmp": tmp_path}


def _plant_env(kind: str, w: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    decoy, program, tmp = w["decoy"], w["program"], w["tmp"]
    assert isinstance(decoy, Path) and isinstance(tmp, Path)
    settings = {"core.fsmonitor": program, "core.hooksPath": str(tmp), "log.showSignature": "true",
                "gpg.program": program, "diff.external": program, "core.pager": program}
    if kind == "GIT_DIR":
        monkeypatch.setenv("GIT_DIR", str(decoy / ".git"))
    elif kind == "GIT_DIR+GIT_WORK_TREE":
        monkeypatch.setenv("GIT_DIR", str(decoy / ".git"))
        monkeypatch.setenv("GIT_WORK_TREE", str(decoy))
    elif kind == "GIT_OBJECT_DIRECTORY":
        monkeypatch.setenv("GIT_OBJECT_DIRECTORY", str(decoy / ".git" / "objects"))
    elif kind == "GIT_INDEX_FILE":
        monkeypatch.setenv("GIT_INDEX_FILE", str(decoy / ".git" / "index"))
    elif kind == "GIT_CONFIG_COUNT":
        monkeypatch.setenv("GIT_CONFIG_COUNT", str(len(settings)))
        for n, (key, value) in enumerate(settings.items()):
            monkeypatch.setenv(f"GIT_CONFIG_KEY_{n}", key)
            monkeypatch.setenv(f"GIT_CONFIG_VALUE_{n}", value)
    elif kind == "GIT_CONFIG_PARAMETERS":
        monkeypatch.setenv("GIT_CONFIG_PARAMETERS", " ".join(f"'{k}'='{v}'" for k, v in settings.items()))
    elif kind in ("GIT_CONFIG_GLOBAL", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_SYSTEM"):
        text = "".join(f"[{k.split('.')[0]}]\n\t{k.split('.')[1]} = {v}\n" for k, v in settings.items())
        home = tmp / "home"
        (home / "git").mkdir(parents=True, exist_ok=True)
        for where in (home / ".gitconfig", home / "git" / "config", home / "system"):
            where.write_text(text)
        monkeypatch.delenv("GIT_CONFIG_NOSYSTEM", raising=False)
        monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
        value = {"GIT_CONFIG_GLOBAL": home / ".gitconfig", "HOME": home, "XDG_CONFIG_HOME": home,
                 "GIT_CONFIG_SYSTEM": home / "system"}[kind]
        monkeypatch.setenv(kind, str(value))
    elif kind == "GIT_REPLACE_REF_BASE":
        _replace_head(w, "refs/forged/")
        monkeypatch.setenv("GIT_REPLACE_REF_BASE", "refs/forged/")
    elif kind == "GIT_CEILING_DIRECTORIES":  # git finds nothing: the gate's git finds the repository all the same
        repo = w["repo"]
        assert isinstance(repo, Path)
        monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(repo.parent))
        monkeypatch.setenv("GIT_DISCOVERY_ACROSS_FILESYSTEM", "0")
    else:
        raise AssertionError(kind)


def _replace_head(w: dict[str, object], base: str) -> None:
    """A commit that replaces the repository's last commit: another tree, the decoy's history as parents."""
    repo, decoy_commits = w["repo"], w["decoy_commits"]
    assert isinstance(repo, Path) and isinstance(decoy_commits, list)
    (repo / "policies" / "classification.yaml").write_text("# forged\n")
    _git(repo, "add", "-A")
    tree = _git(repo, "write-tree")
    _git(repo, "checkout", "-q", "--", ".")
    _git(repo, "reset", "-q")
    (repo / "policies" / "classification.yaml").write_text("# real 2\n")
    forged = _git(repo, "commit-tree", tree, "-m", "forged")
    _git(repo, "update-ref", f"{base}{_git(repo, 'rev-parse', 'HEAD')}", forged)


def _plant_repo(kind: str, w: dict[str, object]) -> None:
    repo, program, tmp = w["repo"], w["program"], w["tmp"]
    assert isinstance(repo, Path) and isinstance(program, str) and isinstance(tmp, Path)
    if kind == "fsmonitor":
        _git(repo, "config", "core.fsmonitor", program)
    elif kind == "hooksPath":
        for hook in ("post-checkout", "post-index-change", "reference-transaction", "pre-auto-gc"):
            (tmp / hook).write_text(Path(program).read_text())
            (tmp / hook).chmod(0o755)
        _git(repo, "config", "core.hooksPath", str(tmp))
    elif kind == "replace-objects":
        _replace_head(w, "refs/replace/")
    elif kind == "grafts":
        commits = w["commits"]
        assert isinstance(commits, list)
        (repo / ".git" / "info").mkdir(exist_ok=True)
        (repo / ".git" / "info" / "grafts").write_text(f"{commits[-1]}\n")  # the last commit loses its parents
    elif kind == "promisor-uploadpack":  # a partial clone whose promisor remote "fetches" by running a program
        _git(repo, "config", "core.repositoryformatversion", "1")
        _git(repo, "config", "extensions.partialClone", "origin")
        _git(repo, "config", "remote.origin.url", str(tmp / "decoy"))
        _git(repo, "config", "remote.origin.promisor", "true")
        _git(repo, "config", "remote.origin.uploadpack", program)
        blob = _git(repo, "rev-parse", "HEAD:policies/classification.yaml")
        loose = repo / ".git" / "objects" / blob[:2] / blob[2:]
        loose.unlink()  # the blob is "missing": git asks the promisor for it
    else:
        raise AssertionError(kind)


_ENV_ATTACKS = ["GIT_DIR", "GIT_DIR+GIT_WORK_TREE", "GIT_OBJECT_DIRECTORY", "GIT_INDEX_FILE", "GIT_CONFIG_COUNT",
                "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_GLOBAL", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_SYSTEM",
                "GIT_REPLACE_REF_BASE", "GIT_CEILING_DIRECTORIES"]
_REPO_ATTACKS = ["fsmonitor", "hooksPath", "replace-objects", "grafts", "promisor-uploadpack"]


def _truth(w: dict[str, object]) -> tuple[str, list[str]]:
    commits = w["commits"]
    assert isinstance(commits, list)
    return commits[-1], list(reversed(commits))


@pytest.mark.parametrize("attack", _ENV_ATTACKS)
def test_the_callers_environment_neither_runs_code_nor_forges_the_bundle_commit(
        world: dict[str, object], attack: str, monkeypatch: pytest.MonkeyPatch) -> None:
    last, _ = _truth(world)
    repo, marker = world["repo"], world["marker"]
    assert isinstance(repo, Path) and isinstance(marker, Path)
    (repo / "policies" / "extra.txt").write_text("uncommitted\n")  # status has work to do (fsmonitor, index)
    _plant_env(attack, world, monkeypatch)
    assert git_state(repo / "policies") == (last, True)
    assert not marker.exists()


@pytest.mark.parametrize("attack", _ENV_ATTACKS)
def test_the_callers_environment_neither_runs_code_nor_forges_policy_history(
        world: dict[str, object], attack: str, monkeypatch: pytest.MonkeyPatch) -> None:
    last, history = _truth(world)
    repo, marker = world["repo"], world["marker"]
    assert isinstance(repo, Path) and isinstance(marker, Path)
    _plant_env(attack, world, monkeypatch)
    assert [change.commit for change in policy_history(repo / "policies")] == history
    loc = gitrev.locate(repo / "policies")
    assert loc.repo == repo.resolve() and loc.prefix == "policies"
    assert gitrev.show(loc, last, "policies/classification.yaml") == b"# real 2\n"
    with gitrev.reading(loc) as read:
        assert gitrev.show(read, last, "policies/classification.yaml") == b"# real 2\n"
    exported = gitrev.export_bundle(loc, last, Path(str(world["tmp"])) / "export")
    assert (exported / "classification.yaml").read_text() == "# real 2\n"
    assert not marker.exists()


@pytest.mark.parametrize("attack", _REPO_ATTACKS)
def test_the_repositorys_config_and_refs_neither_run_code_nor_forge_the_bundle_commit(
        world: dict[str, object], attack: str) -> None:
    last, _ = _truth(world)
    repo, marker = world["repo"], world["marker"]
    assert isinstance(repo, Path) and isinstance(marker, Path)
    (repo / "policies" / "extra.txt").write_text("uncommitted\n")
    _plant_repo(attack, world)
    assert git_state(repo / "policies") == (last, True)
    assert not marker.exists()


@pytest.mark.parametrize("attack", _REPO_ATTACKS)
def test_the_repositorys_config_and_refs_neither_run_code_nor_forge_policy_history(
        world: dict[str, object], attack: str) -> None:
    last, history = _truth(world)
    repo, marker = world["repo"], world["marker"]
    assert isinstance(repo, Path) and isinstance(marker, Path)
    _plant_repo(attack, world)
    if attack == "promisor-uploadpack":  # the blob is gone: the reader says so and runs nothing (fail closed)
        loc = gitrev.locate(repo / "policies")
        assert gitrev.show(loc, last, "policies/classification.yaml") is None
        with gitrev.reading(loc) as read:
            assert gitrev.show(read, last, "policies/classification.yaml") is None
        with pytest.raises(gitrev.AuditError):
            gitrev.export_bundle(loc, last, Path(str(world["tmp"])) / "export")
    else:
        assert [change.commit for change in policy_history(repo / "policies")] == history
        loc = gitrev.locate(repo / "policies")
        assert gitrev.show(loc, last, "policies/classification.yaml") == b"# real 2\n"
        with gitrev.reading(loc) as read:
            assert gitrev.show(read, last, "policies/classification.yaml") == b"# real 2\n"
    assert not marker.exists()


def test_look_alike_an_ordinary_repository_and_a_folder_outside_git(world: dict[str, object], tmp_path: Path) -> None:
    last, history = _truth(world)
    repo = world["repo"]
    assert isinstance(repo, Path)
    assert git_state(repo / "policies") == (last, False)
    assert [change.commit for change in policy_history(repo / "policies")] == history
    outside = tmp_path / "plain" / "policies"
    outside.mkdir(parents=True)
    assert git_state(outside) == (None, None)
    with pytest.raises(gitrev.AuditError):
        gitrev.locate(outside)
