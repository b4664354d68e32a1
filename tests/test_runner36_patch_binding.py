"""Runner 36: a signed packet gated from its patch alone was bound to nothing.

Red team 34 bound a verified signature to the change judged under `--tree` (the run's base commit must be the merge
base) and, in GitHub Actions or GitLab CI, to the CI's repository (the run's URL). From a patch alone, outside those
two CIs, nothing was compared: a packet signed for a run on a fork (the fork's tip, instructions the agent read)
verified wherever the patch had the same bytes, and `--enable sandbox` allowed it (docs review 51). Inside those CIs
the URL was compared but no base: a signed run on the same repository at another base verified.

Now a signature counts only when the gate knows what binds it: `--tree` (the merge base), or from a patch alone the
commit the patch applies to, named with `--base-commit` (as slsa-verifier wants `--source-uri` and cosign
`--certificate-identity`: a verifier is told what to expect). `--repository URL` names the repository where the CI
does not. Anything unbound is unverified (a human looks), never a failed signature; the honest runs stay verified.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from incli import run_cli
from tables import each_case

from gatekeeper.attest.keys import load_signer
from gatekeeper.attest.packet import sign_packet

POLICY_DIR = Path(__file__).resolve().parent.parent / "policies"
GENERATOR = "open('app.py', 'a').write('y = 2\\n')\n"
CI_ENVS = {
    "none": {},
    "github": {"GITHUB_ACTIONS": "true", "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "acme/app"},
    "gitlab": {"GITLAB_CI": "true", "CI_PROJECT_URL": "https://github.com/acme/app"},
    "jenkins": {"JENKINS_URL": "https://ci.example.invalid/", "GIT_URL": "https://github.com/acme/app"},
}
_CI_NAMES = ("GITHUB_ACTIONS", "GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITLAB_CI", "CI_PROJECT_URL",
             "JENKINS_URL", "GIT_URL")


@pytest.fixture(scope="module")
def fork_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A real signed run (unshare) on a fork whose tip upstream lacks; upstream's main; the keys."""
    home = tmp_path_factory.mktemp("patchbind")
    line = run_cli(["keys", "generate", "--name", "runner", "--out", str(home / "keys")], cwd=home, text=True)
    assert line.returncode == 0, line.stderr
    (home / "allowed_signers").write_text(str(line.stdout).strip() + "\n")
    upstream = GitRepo(home / "upstream")
    upstream.write("app.py", "x = 1\n")
    upstream.write("README.md", "upstream\n")
    main = upstream.commit()
    subprocess.run(["git", "clone", "-q", str(upstream.root), str(home / "fork")], check=True)
    (home / "fork" / "README.md").write_text("the fork's instructions for the agent\n")
    subprocess.run(["git", "-C", str(home / "fork"), "-c", "user.name=f", "-c", "user.email=f@example.invalid",
                    "commit", "-qam", "fork only"], check=True)
    (home / "gen.py").write_text(GENERATOR)
    # In-process (tests/incli.py): the subject is the packet the run signs; its generator runs in its sandbox as a
    # child either way, and only the runner's interpreter start (~0.35 CPU-s) is saved.
    done = run_cli(["run", "--repo", str(home / "fork"), "--out", str(home / "runs"), "--sandbox", "unshare",
                    "--sign-key", str(home / "keys" / "runner.key"), "--policy", str(POLICY_DIR), "--format", "json",
                    "--", sys.executable, str(home / "gen.py")], cwd=home, text=True)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    packet = json.loads(Path(summary["packet"]).read_text())
    return {"home": home, "main": main, "packet": Path(summary["packet"]), "patch": Path(summary["patch"]),
            "fork_base": packet["repository"]["base_commit"]}


def _resigned(run: dict[str, object], tmp_path: Path, url: str) -> Path:
    """The run's packet as the runner would have signed it had it cloned `url` (same base, same patch)."""
    packet = json.loads(Path(str(run["packet"])).read_text())
    packet["repository"]["url"] = url
    target = tmp_path / "signed" / "packet.json"
    target.parent.mkdir()
    target.write_text(json.dumps(packet))
    envelope = sign_packet(load_signer(Path(str(run["home"])) / "keys" / "runner.key"), packet)
    (target.parent / "packet.intoto.json").write_text(json.dumps(envelope))
    return target


def _gate(run: dict[str, object], packet: Path, env_name: str, *extra: str) -> tuple[int, dict, str]:
    env = {k: v for k, v in os.environ.items() if k not in _CI_NAMES}
    env.update(CI_ENVS[env_name])
    done = run_cli(["gate", str(packet), "--patch", str(run["patch"]), "--policy", str(POLICY_DIR), "--enable",
                    "sandbox", "--trust", str(Path(str(run["home"])) / "allowed_signers"), "--format", "json", *extra],
                   cwd=Path(str(run["home"])), env=env, text=True)
    return done.returncode, (json.loads(str(done.stdout)) if str(done.stdout).strip() else {}), str(done.stderr)


def _rules(decision: dict) -> set[str]:
    return {r["rule"] for r in decision["reasons"]}


# The packet's repository URL as the runner recorded it: the local fork it cloned, or (re-signed) the CI's own
# repository, cloned at the fork's base: a run on this repository at another base.
URLS = ["local", "https://github.com/acme/app", "git@github.com:acme/app.git", "https://github.com/acme/fork"]


@each_case("env_name, url", [(env_name, url) for env_name in sorted(CI_ENVS) for url in URLS])
def test_a_signed_packet_from_a_patch_alone_is_bound_to_nothing_here(fork_run, tmp_path: Path, env_name: str,
                                                                       url: str) -> None:
    """No `--tree`, no `--base-commit`: whatever the CI and the URL, the claims are unverified (before: verified and
    allowed outside GitHub Actions/GitLab CI, and inside them whenever the URL named the CI's repository)."""
    packet = Path(str(fork_run["packet"])) if url == "local" else _resigned(fork_run, tmp_path, url)
    code, decision, err = _gate(fork_run, packet, env_name)
    assert decision, err
    assert decision["attestation"]["verified"] is False, decision["attestation"]
    assert decision["attestation"]["failed"] is False and decision["attestation"]["keyid"]
    assert "sandbox.unverified" in _rules(decision) and code == 3, (code, decision["reasons"])
    assert "--base-commit" in decision["attestation"]["reason"], decision["attestation"]["reason"]


@each_case("env_name", sorted(CI_ENVS))
def test_the_wrong_base_commit_does_not_bind(fork_run, tmp_path: Path, env_name: str) -> None:
    """Upstream's main named as the base: the fork's run is for another change."""
    packet = _resigned(fork_run, tmp_path, "https://github.com/acme/app")
    code, decision, err = _gate(fork_run, packet, env_name, "--base-commit", str(fork_run["main"]))
    assert decision["attestation"]["verified"] is False, decision.get("attestation", err)
    reason = decision["attestation"]["reason"]
    assert str(fork_run["fork_base"]) in reason and str(fork_run["main"]) in reason, reason
    assert code == 3


@each_case("env_name", sorted(CI_ENVS))
def test_the_runs_own_base_binds_it(fork_run, tmp_path: Path, env_name: str) -> None:
    """The honest control: the base the run cloned, the CI's repository (upper case hex too): verified, allowed."""
    packet = _resigned(fork_run, tmp_path, "https://github.com/acme/app.git")
    code, decision, err = _gate(fork_run, packet, env_name, "--base-commit", str(fork_run["fork_base"]).upper())
    assert decision["attestation"]["verified"] is True, decision.get("attestation", err)
    assert code == 0 and decision["outcome"] == "allow", decision["reasons"]


@each_case(("named", "verified"), [
    ("https://github.com/acme/app", True), ("git@github.com:Acme/App.git", True), ("github.com/acme/app", True),
    ("https://github.com/acme/fork", False), ("https://gitlab.example/acme/app", False),
])
def test_repository_names_the_repository_where_no_ci_does(fork_run, tmp_path: Path, named: str,
                                                            verified: bool) -> None:
    packet = _resigned(fork_run, tmp_path, "https://github.com/acme/app")
    code, decision, err = _gate(fork_run, packet, "jenkins", "--base-commit", str(fork_run["fork_base"]),
                                "--repository", named)
    assert decision["attestation"]["verified"] is verified, decision.get("attestation", err)
    if not verified:
        assert "github.com/acme/app" in decision["attestation"]["reason"]


def test_repository_and_the_ci_must_both_agree(fork_run, tmp_path: Path) -> None:
    """The CI names acme/app, the caller another: the packet cannot name both."""
    packet = _resigned(fork_run, tmp_path, "https://github.com/acme/app")
    code, decision, err = _gate(fork_run, packet, "github", "--base-commit", str(fork_run["fork_base"]),
                                "--repository", "https://github.com/acme/other")
    assert decision["attestation"]["verified"] is False, decision.get("attestation", err)


def test_a_local_runs_url_never_matches_a_named_repository(fork_run) -> None:
    code, decision, err = _gate(fork_run, Path(str(fork_run["packet"])), "none", "--base-commit",
                                str(fork_run["fork_base"]), "--repository", "https://github.com/acme/app")
    assert decision["attestation"]["verified"] is False, decision.get("attestation", err)
    code, decision, err = _gate(fork_run, Path(str(fork_run["packet"])), "none", "--base-commit",
                                str(fork_run["fork_base"]))
    assert decision["attestation"]["verified"] is True, decision.get("attestation", err)


@each_case("extra", [
    ("--base-commit", "main"), ("--base-commit", "abc123"), ("--base-commit", "g" * 40), ("--base-commit", "a" * 41),
    ("--base-commit", " " + "a" * 40), ("--base-commit", ""), ("--repository", "file:///srv/app"),
    ("--repository", "/srv/app"), ("--repository", "https://evil.example#@github.com/acme/app"),
    ("--repository", ""), ("--base-commit", "a" * 40, "--tree", "HEAD~1..HEAD"),
])
def test_bad_binding_options_are_refused(fork_run, extra: tuple[str, ...]) -> None:
    code, decision, err = _gate(fork_run, Path(str(fork_run["packet"])), "none", *extra)
    assert code == 2 and not decision, (code, err)
    assert err.count("\n") <= 3 and "Traceback" not in err, err


@pytest.mark.parametrize("option", ["--base-commit", "--repository"])
def test_binding_options_need_trust(fork_run, option: str) -> None:
    value = "a" * 40 if option == "--base-commit" else "https://github.com/acme/app"
    done = run_cli(["gate", str(fork_run["packet"]), "--patch", str(fork_run["patch"]), "--policy", str(POLICY_DIR),
                    option, value], cwd=Path(str(fork_run["home"])), text=True)
    assert done.returncode == 2 and "--trust" in str(done.stderr), done.stderr


def test_an_approval_made_with_the_same_binding_counts(fork_run, tmp_path: Path) -> None:
    """approve takes the binding flags as the gate does: the approval names the decision's input digest, which holds
    the attestation; a gate bound otherwise judges another input and does not count it."""
    home = Path(str(fork_run["home"]))
    approver = run_cli(["keys", "generate", "--name", "alice", "--role", "approver", "--out", str(tmp_path / "k")],
                       cwd=tmp_path, text=True)
    trust = tmp_path / "allowed_signers"
    trust.write_text((home / "allowed_signers").read_text() + str(approver.stdout).strip() + "\n")
    common = ["--policy", str(POLICY_DIR), "--trust", str(trust), "--enable", "provenance", "--base-commit",
              str(fork_run["fork_base"])]
    pair = [str(fork_run["packet"]), "--patch", str(fork_run["patch"])]
    made = run_cli(["approve", *pair, "--key", str(tmp_path / "k" / "alice.key"), "--out", str(tmp_path / "a"),
                    *common], cwd=tmp_path, text=True)
    assert made.returncode == 0, made.stderr
    done = run_cli(["gate", *pair, *common, "--approvals", str(tmp_path / "a"), "--format", "json"], cwd=tmp_path,
                   text=True)
    decision = json.loads(str(done.stdout))
    assert decision["attestation"]["verified"] is True and decision["outcome"] == "allow", decision["reasons"]
    unbound = run_cli(["gate", *pair, *common[:-2], "--approvals", str(tmp_path / "a"), "--format", "json"],
                      cwd=tmp_path, text=True)
    assert unbound.returncode == 3 and json.loads(str(unbound.stdout))["outcome"] == "review", unbound.stderr
