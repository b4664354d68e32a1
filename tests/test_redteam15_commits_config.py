"""Red team: `gate --tree BASE..HEAD` in a clone whose own .git/config names programs must run none of them.

The gate reads the pull request with git (rev-parse, merge-base, cat-file, diff, and `log` for the commit a bundle
in the checkout was last changed at). git takes the repository's .git/config in every one of them: each variant
below names a program a read-only git command could start (a marker script that records its arguments), and the
gate must decide without any of them running. `log.showSignature` made `git log` run `gpg.program` (and its ssh
and x509 siblings) on a signed commit: the bundle's last commit at BASE carries a signature header here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from gitrepo import GIT_ENV
from incli import run_cli
from tables import each_case

ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = ROOT / "policies"
SIGNATURE = "-----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----"
SSH_SIGNATURE = "-----BEGIN SSH SIGNATURE-----\n U1NIU0lH\n -----END SSH SIGNATURE-----"
X509_SIGNATURE = "-----BEGIN SIGNED MESSAGE-----\n MIAGCSqG\n -----END SIGNED MESSAGE-----"
SIGNATURES = {"ssh": SSH_SIGNATURE, "x509": X509_SIGNATURE}


def _git(repo: Path, *args: str, input: bytes | None = None, strip: bool = True) -> str:
    env = {**GIT_ENV, "PATH": os.environ["PATH"], "GIT_CONFIG_GLOBAL": os.devnull}
    out = subprocess.run(["git", *args], cwd=repo, env=env, input=input, check=True, capture_output=True).stdout
    return out.decode().strip() if strip else out.decode()


def _signed_commit(repo: Path, tree: str, parent: str | None, message: str, signature: str) -> str:
    header = f"tree {tree}\n" + (f"parent {parent}\n" if parent else "")
    for role in ("author", "committer"):
        header += f"{role} Test <test@example.invalid> 1767225600 +0000\n"
    header += "gpgsig " + signature + "\n"
    return _git(repo, "hash-object", "-t", "commit", "-w", "--stdin", input=(header + f"\n{message}\n").encode())


def _build(folder: Path, signature: str) -> Path:
    """The clone (BASE on main, HEAD on pr, both signed), built once per module and signature: the tests copy it."""
    repo = folder / "clone"
    repo.mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main", "--template=")
    shutil.copytree(POLICY_DIR, repo / "policies", ignore=shutil.ignore_patterns("__pycache__"))
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs: {}\n")
    (repo / "src.txt").write_text("one\n")
    (repo / ".gitattributes").write_text("* diff=evil filter=evil merge=evil\n")
    _git(repo, "add", "-A")
    base = _signed_commit(repo, _git(repo, "write-tree"), None, "base, signed", signature)
    _git(repo, "update-ref", "refs/heads/main", base)
    _git(repo, "reset", "-q", "--hard", base)
    (repo / "src.txt").write_text("two\n")
    (repo / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs: {t: {runs-on: x}}\n")
    _git(repo, "add", "-A")
    head = _signed_commit(repo, _git(repo, "write-tree"), base, "head, signed", signature)
    _git(repo, "update-ref", "refs/heads/pr", head)
    _git(repo, "symbolic-ref", "HEAD", "refs/heads/pr")
    return repo


@pytest.fixture(scope="module")
def clones(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One clone per signature kind (gpg, ssh, x509), 11 git processes each, not 11 for each of the 20 tests: every
    test copies one (its own .git/config, hooks and marker), so no test sees another's settings or runs."""
    folder = tmp_path_factory.mktemp("clones")
    kinds = {"gpg": SIGNATURE, **SIGNATURES}
    return {kind: _build(folder / kind, signature) for kind, signature in kinds.items()}


def _repo(tmp_path: Path, template: Path) -> tuple[Path, Path]:
    """A copy of `template` in `tmp_path` (the copied index's stat data no longer matches the files, so git looks at
    their content again, as after a fresh checkout), and the marker script beside it."""
    repo = tmp_path / "clone"
    shutil.copytree(template, repo, symlinks=True)
    marker = tmp_path / "ran.txt"
    script = tmp_path / "prog.sh"
    script.write_text(f"#!/bin/sh\necho \"$0 $*\" >> {marker}\ncat >/dev/null 2>&1\nexit 0\n")
    script.chmod(0o755)
    return repo, script


# Each: .git/config text naming `{prog}` (the marker script) where a program could be started.
CONFIGS = {
    "gpg-show-signature": "[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {prog}\n",
    "ssh-show-signature": "[log]\n\tshowSignature = true\n[gpg]\n\tformat = ssh\n[gpg \"ssh\"]\n\tprogram = {prog}\n"
                          "\tallowedSignersFile = /dev/null\n",
    "x509-show-signature": "[log]\n\tshowSignature = true\n[gpg]\n\tformat = x509\n"
                           "[gpg \"x509\"]\n\tprogram = {prog}\n",
    "fsmonitor": "[core]\n\tfsmonitor = {prog}\n",
    "pager-editor": "[core]\n\tpager = {prog}\n\teditor = {prog}\n\taskPass = {prog}\n\tsshCommand = {prog}\n",
    "diff-drivers": "[diff]\n\texternal = {prog}\n[diff \"evil\"]\n\ttextconv = {prog}\n\tcommand = {prog}\n",
    "filters": "[filter \"evil\"]\n\tclean = {prog}\n\tsmudge = {prog}\n\tprocess = {prog}\n\trequired = true\n",
    "merge-driver": "[merge \"evil\"]\n\tdriver = {prog}\n",
    "hooks": "[core]\n\thooksPath = {hooks}\n",
    "credential": "[credential]\n\thelper = !{prog}\n",
}


@each_case("name", sorted(CONFIGS))
def test_a_clones_config_starts_no_program(tmp_path: Path, name: str, clones: dict[str, Path]) -> None:
    repo, script = _configured(tmp_path, name, clones)
    done = run_cli(["gate", "--tree", "main..pr", "--format", "json"], cwd=repo, text=True)
    assert done.returncode == 3, done.stderr  # core.ci: a workflow changed
    marker = tmp_path / "ran.txt"
    assert not marker.exists(), f"{name}: git ran {marker.read_text()!r}"


@each_case("name", sorted(CONFIGS))
def test_a_packet_gate_in_such_a_checkout_starts_no_program_either(tmp_path: Path, name: str,
                                                                  clones: dict[str, Path]) -> None:
    """Without --tree the bundle is the checkout's ./policies, and the gate asks git for its commit and state."""
    repo, script = _configured(tmp_path, name, clones)
    patch = tmp_path / "change.diff"
    patch.write_text(_git(repo, "diff", "--binary", "--no-ext-diff", "--no-textconv", "main", "pr", strip=False))
    (tmp_path / "ran.txt").unlink(missing_ok=True)  # the test's own git diff is not the gate's
    made = run_cli(["packet", str(patch), "--out", str(tmp_path / "packet.json")], cwd=repo, text=True)
    assert made.returncode == 0, made.stderr
    (repo / "policies" / ".manifest").touch()  # a stat change: git status looks at the content again
    done = run_cli(["gate", str(tmp_path / "packet.json"), "--patch", str(patch), "--format", "json"], cwd=repo,
                   text=True)
    assert done.returncode == 3, done.stderr
    marker = tmp_path / "ran.txt"
    assert not marker.exists(), f"{name}: git ran {marker.read_text()!r}"


def _configured(tmp_path: Path, name: str, clones: dict[str, Path]) -> tuple[Path, Path]:
    kind = name.split("-")[0]
    repo, script = _repo(tmp_path, clones[kind if kind in SIGNATURES else "gpg"])
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for hook in ("post-checkout", "post-index-change", "reference-transaction", "fsmonitor-watchman"):
        shutil.copyfile(script, hooks / hook)
        (hooks / hook).chmod(0o755)
    with (repo / ".git" / "config").open("a") as config:
        config.write(CONFIGS[name].format(prog=script, hooks=hooks))
    return repo, script
