"""Signed packets, approvals and signed decisions end to end: the runner signs with a key the generator
cannot read (both backends), the gate verifies with --trust, counts approvals of exactly this patch, and
signs its decision."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from incli import run_cli
from runbundle import BACKENDS

from gatekeeper.attest.decision import VSA_PREDICATE
from gatekeeper.attest.envelope import open_statement
from gatekeeper.attest.keys import load_trust

POLICY_DIR = Path(__file__).resolve().parent.parent / "policies"
# The generator edits a workflow (core reviews it), reports the requested model, and tries the runner's key.
GENERATOR = r"""
import os, sys
open(".github/workflows/ci.yml", "a").write("      - run: make lint\n")
try:
    found = open(sys.argv[1], "rb").read()
except OSError as exc:
    found = type(exc).__name__.encode()
open("key-probe.md", "wb").write(b"PRIVATE" if b"PRIVATE KEY" in found else b"hidden: " + found[:40])
open(os.environ["GATEKEEPER_MODEL_REPORT"], "w").write('{"model": "model-a"}')
"""

Keys = tuple[Path, Path]  # (the keys folder, the allowed-signers file)


def gk(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A real `gatekeeper` process: the first key generation and the first approval (each command's one run as
    the installed program would do it)."""
    return subprocess.run([sys.executable, "-m", "gatekeeper", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=180)


def gk_in(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The runs (their sandbox hides the signing key from the generator in-process as well: the generator is the
    runner's child either way), the other keys and the commands that judge what a run left (gate, approve,
    audit), in-process (tests/incli.py)."""
    return run_cli(args, cwd=cwd, text=True)  # type: ignore[return-value]


@pytest.fixture(scope="module")
def module_keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """runner, alice (both trusted, alice in group platform) and mallory (not trusted), made once."""
    home = tmp_path_factory.mktemp("attest-keys")
    folder = home / "keys"
    lines = [gk("keys", "generate", "--name", "runner", "--out", str(folder), cwd=home).stdout.strip(),
             gk_in("keys", "generate", "--name", "alice", "--out", str(folder), cwd=home).stdout.strip()]
    approver = 'groups=platform namespaces="gatekeeper-approval"'
    (home / "allowed_signers").write_text(f"{lines[0]}\n{lines[1]} {approver}\n")
    assert gk_in("keys", "generate", "--name", "mallory", "--out", str(folder), cwd=home).returncode == 0
    return home


@pytest.fixture
def keys(tmp_path: Path, module_keys: Path) -> Keys:
    """This test's copy of the module's keys and allowed-signers file, under its own tmp_path."""
    shutil.copytree(module_keys / "keys", tmp_path / "keys")
    shutil.copyfile(module_keys / "allowed_signers", tmp_path / "allowed_signers")
    return tmp_path / "keys", tmp_path / "allowed_signers"


def signed_run(tmp_path: Path, backend: str, key: Path, base: str = "on: push\n") -> dict[str, str]:
    repo = GitRepo(tmp_path / "origin")
    repo.write(".github/workflows/ci.yml", base + "jobs:\n  t:\n    steps:\n")
    repo.write("gen.py", GENERATOR)
    repo.commit()
    done = gk_in("run", "--repo", str(repo.root), "--out", str(tmp_path / "runs"), "--sandbox", backend, "--model",
                 "model-a", "--sign-key", str(key), "--policy", str(POLICY_DIR), "--format", "json", "--",
                 sys.executable, "gen.py", str(key), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def module_run(tmp_path_factory: pytest.TempPathFactory, module_keys: Path) -> tuple[Path, dict[str, str]]:
    """One signed unshare run, made once (its folder and summary): the tests that judge it take copies."""
    home = tmp_path_factory.mktemp("attest-run")
    return home, signed_run(home, "unshare", module_keys / "keys" / "runner.key")


@pytest.fixture
def unshare_run(tmp_path: Path, module_run: tuple[Path, dict[str, str]]) -> dict[str, str]:
    """This test's copy of the module's signed run (packet, envelope, patch), its summary's paths moved along."""
    home, run = module_run
    shutil.copytree(home / "runs", tmp_path / "runs", symlinks=True)
    return {key: str(tmp_path / Path(value).relative_to(home))
            if isinstance(value, str) and value.startswith(f"{home}/") else value for key, value in run.items()}


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_runner_signs_with_a_key_the_generator_cannot_read(tmp_path: Path, backend: str, keys: Keys,
                                                                request: pytest.FixtureRequest) -> None:
    folder, trust = keys
    # unshare: the module's signed run (the same generator, the same runner key), which the gate tests judge too.
    run = request.getfixturevalue("unshare_run") if backend == "unshare" else signed_run(
        tmp_path, backend, folder / "runner.key")
    assert (Path(run["run_dir"]) / "workspace" / "key-probe.md").read_bytes() != b"PRIVATE"
    envelope = Path(run["packet"]).with_name("packet.intoto.json")
    opened = open_statement(envelope.read_bytes(), load_trust(trust), where="e",
                            predicate_type="https://gatekeeper.invalid/attestation/packet/v1",
                            namespace="gatekeeper-packet",
                            sha256=json.loads(Path(run["packet"]).read_text())["diff"]["sha256"])
    assert opened.signer.name == "runner" and opened.predicate == json.loads(Path(run["packet"]).read_text())


def _base(run: dict[str, str]) -> tuple[str, str]:
    """`--base-commit` naming the run's own base: what binds its signed packet when gated from the patch alone."""
    return "--base-commit", json.loads(Path(run["packet"]).read_text())["repository"]["base_commit"]


def _gate(tmp_path: Path, run: dict[str, str], *extra: str) -> tuple[int, dict, str]:
    bound = _base(run) if "--trust" in extra else ()
    done = gk_in("gate", run["packet"], "--patch", run["patch"], "--policy", str(POLICY_DIR), "--enable", "sandbox",
              "--enable", "provenance", "--format", "json", *bound, *extra, cwd=tmp_path)
    return done.returncode, (json.loads(done.stdout) if done.stdout.strip() else {}), done.stderr


def _rules(decision: dict) -> set[str]:
    return {r["rule"] for r in decision["reasons"]}


def test_trust_verifies_claims_approvals_accept_exactly_this_patch_and_the_decision_is_signed(
    tmp_path: Path, keys: Keys, unshare_run: dict[str, str]
) -> None:
    folder, trust = keys
    run = unshare_run
    # Without trust the runner's claims are unverified; with it they count (core's CI review remains, and the model
    # the generator reports from a closed sandbox without the relay is its word alone: provenance.unreachable).
    code, decision, _ = _gate(tmp_path, run)
    assert code == 3 and {"sandbox.unverified", "provenance.unverified", "core.ci"} <= _rules(decision)
    code, decision, err = _gate(tmp_path, run, "--trust", str(trust))
    assert code == 3 and _rules(decision) == {"core.ci", "provenance.unreachable"}, err
    # An approval by a trusted signer of exactly this decision turns the review into allow, and signs nothing else.
    approvals = tmp_path / "approvals"
    done = gk("approve", run["packet"], "--patch", run["patch"], "--key", str(folder / "alice.key"), "--out",
              str(approvals), "--policy", str(POLICY_DIR), "--enable", "sandbox", "--enable", "provenance",
              "--trust", str(trust), *_base(run), "--comment", "looked at it", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    log = tmp_path / "decisions.jsonl"
    # The gate signs with a key of its own: the approver's key as the gate's would not count as an approval.
    gate_line = gk_in("keys", "generate", "--name", "gate", "--out", str(folder), cwd=tmp_path).stdout.strip()
    with trust.open("a") as handle:
        handle.write(gate_line + "\n")
    code, decision, err = _gate(tmp_path, run, "--trust", str(trust), "--approvals", str(approvals),
                                "--output", str(tmp_path / "report.json"), "--sign", str(folder / "gate.key"),
                                "--log", str(log))
    report = json.loads((tmp_path / "report.json").read_text())
    assert code == 0 and report["outcome"] == "allow", err
    assert [a["signer"] for a in report["approvals"]["approvals"]] == ["alice"]
    # The log record is signed and says who vouched for what; replay reproduces the approved allow.
    done = gk_in("audit", "verify", str(log), "--trust", str(trust), cwd=tmp_path)
    assert done.returncode == 0 and "all signed by gate" in done.stdout, done.stdout + done.stderr
    shown = gk_in("audit", "show", str(log), cwd=tmp_path).stdout
    assert "packet   signed by runner" in shown and "approval alice [platform] key" in shown, shown
    assert "accepted core.ci, provenance.unreachable: looked at it" in shown, shown
    assert "signed   record signed by key" in shown, shown
    # Unbound (no --base-commit), the runner's claims are unverified again: the approval named another decision.
    done = gk_in("gate", run["packet"], "--patch", run["patch"], "--policy", str(POLICY_DIR), "--enable", "sandbox",
                 "--enable", "provenance", "--trust", str(trust), "--approvals", str(approvals), cwd=tmp_path)
    assert done.returncode == 3 and "sandbox.unverified" in done.stdout, done.stdout + done.stderr
    replayed = gk_in("audit", "replay", str(log), "1", "--packet", run["packet"], "--patch", run["patch"], "--policy",
                  str(POLICY_DIR), "--format", "json", cwd=tmp_path)
    result = json.loads(replayed.stdout)
    assert replayed.returncode == 0 and result["replayed"]["outcome"] == "allow", replayed.stdout + replayed.stderr
    assert result["replayed"]["input_digest"] == result["recorded"]["input_digest"]
    assert result["approvals"]["approvals"][0]["signer"] == "alice" and result["attestation"]["signer"] == "runner"
    # The signed decision: a SLSA VSA about this patch.
    vsa = open_statement((tmp_path / "report.json.intoto.json").read_bytes(), load_trust(trust), where="v",
                         predicate_type=VSA_PREDICATE, namespace="gatekeeper-gate",
                         sha256=report["packet"]["diff_sha256"])
    assert vsa.predicate["verificationResult"] == "PASSED"
    # The same approval does not carry over to a later push of a different diff ...
    (tmp_path / "second").mkdir()
    later = signed_run(tmp_path / "second", "unshare", folder / "runner.key", base="on: [push, pull_request]\n")
    code, decision, err = _gate(tmp_path, later, "--trust", str(trust), "--approvals", str(approvals))
    assert code == 3 and "approval not counted" in err and "another patch" in err
    # ... nor does an approval by a key nobody trusts.
    shutil.rmtree(approvals)
    gk_in("approve", run["packet"], "--patch", run["patch"], "--key", str(folder / "mallory.key"), "--out",
       str(approvals), "--policy", str(POLICY_DIR), "--enable", "sandbox", "--enable", "provenance", cwd=tmp_path)
    code, decision, err = _gate(tmp_path, run, "--trust", str(trust), "--approvals", str(approvals))
    assert code == 3 and "no valid signature by a trusted key" in err


def test_an_edited_or_foreign_signature_is_a_deny(tmp_path: Path, keys: Keys, unshare_run: dict[str, str]) -> None:
    _, trust = keys
    run = unshare_run
    packet = Path(run["packet"])
    original = packet.read_text()
    doc = json.loads(original)
    doc["sandbox"]["network"] = "denied"
    doc["model"]["reported"] = "model-b"  # a claim edited after the run
    packet.write_text(json.dumps(doc))
    code, decision, _ = _gate(tmp_path, run, "--trust", str(trust))
    assert code == 1 and "gatekeeper.attestation" in _rules(decision)
    packet.write_text(original)
    envelope = packet.with_name("packet.intoto.json")
    signed = json.loads(envelope.read_text())
    body = json.loads(base64.b64decode(signed["payload"]))
    body["predicate"]["sandbox"]["backend"] = "none"
    signed["payload"] = base64.b64encode(json.dumps(body).encode()).decode()
    envelope.write_text(json.dumps(signed))
    code, decision, _ = _gate(tmp_path, run, "--trust", str(trust))
    assert code == 1 and "gatekeeper.attestation" in _rules(decision)
    envelope.unlink()  # unsigned: not a deny, but the claims are unverified
    code, decision, _ = _gate(tmp_path, run, "--trust", str(trust))
    assert code == 3 and "sandbox.unverified" in _rules(decision)


def test_approvals_need_trust(tmp_path: Path, unshare_run: dict[str, str]) -> None:
    run = unshare_run
    code, _, err = _gate(tmp_path, run, "--approvals", str(tmp_path))
    assert code == 2 and "--trust" in err
