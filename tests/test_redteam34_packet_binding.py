"""Red team 34: a signed packet replayed onto another base or repository.

The runner signs its packet (sandbox, model, relay claims) and the patch's digest, and the gate checked only that the
signature holds and the patch is the pull request's change. Nothing compared the signed `repository` (the URL the
runner cloned, its base commit) with what the gate judges, so a run on a fork the requester chose (or on another
base) lent its verified claims to a pull request on this repository whose patch has the same bytes. Now, with
`--tree`, the signed base commit must be the pull request's merge base, and where the CI names the repository the
signed URL must name it; otherwise the claims are unverified (`provenance.unverified`, `sandbox.unverified`: a
human looks) and the attestation's reason says why. An honest run gated on its own base stays verified.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from incli import run_cli
from tables import each_case

from gatekeeper.attest.binding import repository_name
from gatekeeper.attest.keys import load_signer
from gatekeeper.attest.packet import sign_packet

POLICY_DIR = Path(__file__).resolve().parent.parent / "policies"
GENERATOR = "open('app.txt', 'a').write('a line of the agent\\n')\nimport os\n" \
            "open(os.environ['GATEKEEPER_MODEL_REPORT'], 'w').write('{\"model\": \"model-a\"}')\n"


def _cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(args, cwd=cwd, env=env, text=True)  # type: ignore[return-value]


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str], str]:
    """(home, allowed-signers, the run's summary, upstream's main commit): a signed run on a FORK of upstream whose
    tip has one commit upstream does not have (the fork's README, the file the agent read)."""
    home = tmp_path_factory.mktemp("binding")
    # In-process: the key is this fixture's setup (the real `keys generate` process is tests/test_attest_flow.py's).
    line = _cli("keys", "generate", "--name", "runner", "--out", str(home / "keys"), cwd=home)
    assert line.returncode == 0, line.stderr
    (home / "allowed_signers").write_text(line.stdout.strip() + "\n")
    upstream = GitRepo(home / "upstream")
    upstream.write("app.txt", "app\n")
    upstream.write("README.md", "upstream\n")
    main = upstream.commit()
    subprocess.run(["git", "clone", "-q", str(upstream.root), str(home / "fork")], check=True)
    fork = GitRepo.__new__(GitRepo)
    fork.root = home / "fork"
    (fork.root / "README.md").write_text("the fork's instructions for the agent\n")
    subprocess.run(["git", "-C", str(fork.root), "-c", "user.name=f", "-c", "user.email=f@example.invalid", "commit",
                    "-qam", "fork only"], check=True)
    (home / "gen.py").write_text(GENERATOR)
    done = _cli("run", "--repo", str(fork.root), "--out", str(home / "runs"), "--sandbox", "unshare", "--model",
                "model-a", "--sign-key", str(home / "keys" / "runner.key"), "--policy", str(POLICY_DIR), "--format",
                "json", "--", sys.executable, str(home / "gen.py"), cwd=home)
    assert done.returncode == 0, done.stderr
    return home, home / "allowed_signers", json.loads(done.stdout), main


def _pull_request(home: Path, tmp_path: Path, summary: dict[str, str], base: str) -> Path:
    """A checkout of upstream whose branch `pr` is `base` plus the run's patch."""
    checkout = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", str(home / "upstream"), str(checkout)], check=True)
    git = ["git", "-C", str(checkout), "-c", "user.name=p", "-c", "user.email=p@example.invalid"]
    subprocess.run([*git, "checkout", "-q", "-b", "pr", base], check=True)
    subprocess.run([*git, "apply", "--index", summary["patch"]], check=True)
    subprocess.run([*git, "commit", "-qm", "the agent's change"], check=True)
    return checkout


def _gate(checkout: Path, summary: dict[str, str], trust: Path, *extra: str,
          env: dict[str, str] | None = None) -> tuple[int, dict, str]:
    done = _cli("gate", summary["packet"], "--patch", summary["patch"], "--policy", str(POLICY_DIR), "--enable",
                "provenance", "--enable", "sandbox", "--trust", str(trust), "--format", "json", *extra, cwd=checkout,
                env=env)
    return done.returncode, (json.loads(done.stdout) if done.stdout.strip() else {}), done.stderr


def _unverified(decision: dict) -> set[str]:
    return {r["rule"] for r in decision["reasons"]} & {"provenance.unverified", "sandbox.unverified"}


def _fork_base(summary: dict[str, str]) -> str:
    return str(json.loads(Path(summary["packet"]).read_text())["repository"]["base_commit"])


def test_a_fork_runs_signed_claims_do_not_verify_on_another_base(tmp_path: Path, signed) -> None:
    home, trust, summary, main = signed
    checkout = _pull_request(home, tmp_path, summary, main)  # the same patch bytes, upstream's base
    code, decision, err = _gate(checkout, summary, trust, "--tree", "main..pr")
    assert decision, err
    assert _unverified(decision) == {"provenance.unverified", "sandbox.unverified"}, decision["reasons"]
    assert code == 3 and decision["outcome"] == "review"
    reason = decision["attestation"]["reason"]
    assert "signed by runner" in reason and _fork_base(summary) in reason and main in reason, reason
    assert decision["attestation"]["verified"] is False and decision["attestation"]["keyid"]


def test_the_same_packet_on_its_own_base_stays_verified(tmp_path: Path, signed) -> None:
    """The honest control: the pull request branches from the commit the runner cloned (the fork's tip)."""
    home, trust, summary, _ = signed
    checkout = _pull_request(home, tmp_path, summary, "origin/HEAD")
    subprocess.run(["git", "-C", str(checkout), "fetch", "-q", str(home / "fork"), "HEAD:refs/heads/forkmain"],
                   check=True)
    subprocess.run(["git", "-C", str(checkout), "checkout", "-q", "-B", "pr", "forkmain"], check=True)
    git = ["git", "-C", str(checkout), "-c", "user.name=p", "-c", "user.email=p@example.invalid"]
    subprocess.run([*git, "apply", "--index", summary["patch"]], check=True)
    subprocess.run([*git, "commit", "-qm", "the agent's change"], check=True)
    code, decision, err = _gate(checkout, summary, trust, "--tree", "forkmain..pr")
    assert decision["attestation"]["verified"] is True, decision.get("attestation", err)
    assert not _unverified(decision), decision["reasons"]


def _ci(repository: str) -> dict[str, str]:
    return {**os.environ, "GITHUB_ACTIONS": "true", "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_REPOSITORY": repository}


@pytest.mark.parametrize("tree", [False, True])
def test_the_ci_repository_must_be_the_one_the_runner_cloned(tmp_path: Path, signed, tree: bool) -> None:
    """The CI says which repository it judges; the run cloned a local fork (`file://…`): not that repository. Patch
    mode too: no base to compare there, but the repository is known."""
    home, trust, summary, _ = signed
    checkout = _pull_request(home, tmp_path, summary, "origin/HEAD")
    extra = ("--tree", f"{_fork_base(summary)}..pr") if tree else ()
    if tree:
        subprocess.run(["git", "-C", str(checkout), "fetch", "-q", str(home / "fork"), "HEAD"], check=True)
        git = ["git", "-C", str(checkout), "-c", "user.name=p", "-c", "user.email=p@example.invalid"]
        subprocess.run([*git, "checkout", "-q", "-B", "pr", "FETCH_HEAD"], check=True)
        subprocess.run([*git, "apply", "--index", summary["patch"]], check=True)
        subprocess.run([*git, "commit", "-qm", "the agent's change"], check=True)
    code, decision, err = _gate(checkout, summary, trust, *extra, env=_ci("acme/upstream"))
    assert decision, err
    assert _unverified(decision) == {"provenance.unverified", "sandbox.unverified"}, decision["reasons"]
    assert "github.com/acme/upstream" in decision["attestation"]["reason"]
    # Outside a CI the gate does not know the repository: the same gate verifies (the base is the run's own; from
    # the patch alone, named with --base-commit: runner 36).
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "GITLAB_CI")}
    extra = extra or ("--base-commit", _fork_base(summary))
    code, decision, err = _gate(checkout, summary, trust, *extra, env=env)
    assert decision["attestation"]["verified"] is True, decision.get("attestation", err)


@each_case(("url", "name"), [
    ("https://github.com/Acme/Upstream.git", "github.com/acme/upstream"),
    ("https://token@github.com:443/acme/upstream/", "github.com/acme/upstream"),
    ("ssh://git@github.com/acme/upstream.git", "github.com/acme/upstream"),
    ("git@github.com:acme/upstream.git", "github.com/acme/upstream"),
    ("github.com/acme/upstream", "github.com/acme/upstream"),
    ("https://gitlab.example/group/sub/project", "gitlab.example/group/sub/project"),
    ("file:///srv/git/upstream", None),
    ("/srv/git/upstream", None),
    ("./upstream", None),
    ("https://github.com/", None),
    ("https://github.com/acme/../upstream", None),
    ("", None),
    (None, None),
])
def test_repository_names(url: object, name: str | None) -> None:
    assert repository_name(url) == name


def test_a_packet_without_repository_is_not_bound(tmp_path: Path, signed) -> None:
    """A packet signed with no `repository` (null) proves nothing about this change's base: not bound either."""
    home, trust, summary, _ = signed
    run = tmp_path / "copy"
    run.mkdir()
    packet = json.loads(Path(summary["packet"]).read_text())
    packet["repository"] = None
    (run / "packet.json").write_text(json.dumps(packet))
    shutil.copyfile(summary["patch"], run / "patch.diff")
    envelope = sign_packet(load_signer(home / "keys" / "runner.key"), packet)
    (run / "packet.intoto.json").write_text(json.dumps(envelope))
    copy = {**summary, "packet": str(run / "packet.json"), "patch": str(run / "patch.diff")}
    checkout = _pull_request(home, tmp_path, copy, "origin/HEAD")
    code, decision, err = _gate(checkout, copy, trust, "--tree", "main..pr")
    assert decision["attestation"]["verified"] is False, err
    assert "not named" in decision["attestation"]["reason"]
    # From the patch alone, the base named (--base-commit): the packet names none, so it is not bound either (before
    # runner 36, patch mode outside a CI bound nothing and this verified).
    code, decision, err = _gate(checkout, copy, trust, "--base-commit", _fork_base(summary))
    assert decision["attestation"]["verified"] is False, err
    assert "not named" in decision["attestation"]["reason"]
