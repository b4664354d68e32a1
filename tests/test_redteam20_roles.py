"""Red team: a trusted key signing what its role should not (a role per allowed-signers line).

- Self-approval without a packet signature: the gate recognised the runner's key as "not a human" only when
  `packet.intoto.json` named it. A runner that drops that file, then signs an approval with its key (a line of
  the same allowed-signers file, as the docs write it), turned the review into allow unless `params.approvals`
  named approver groups. The gate's key, used to approve a run it did not sign, likewise.
- One file, every role: an approver's key signed packets, the runner's or an approver's key signed decision-log
  records `audit verify --trust allowed_signers` accepted, and nothing in the file could say otherwise.

The class is closed by ssh's own mechanism, `namespaces="..."` on an allowed-signers line (ssh-keygen(1), ALLOWED
SIGNERS), each kind of statement checked in its own namespace. The matrix below checks every variant of the option
against the real `ssh-keygen -Y verify -n NS`: gatekeeper never trusts a line ssh-keygen would refuse for that
namespace, agrees with it on exact quoted lists, and refuses the file (naming the line) where ssh would read a
pattern, an unquoted value or a name gatekeeper never signs with. A line without the option never approves.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from incli import run_cli
from tables import each_case

from gatekeeper.attest import approvals
from gatekeeper.attest.envelope import AttestationError
from gatekeeper.attest.keys import TrustError, generate, load_signer, parse_trust
from gatekeeper.attest.packet import check_packet, sign_packet
from gatekeeper.attest.record import check_record, seal_record

ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = ROOT / "policies"
PATCH = ROOT / "fixtures" / "ci-workflow" / "patch.diff"  # core.ci: review
SSH_KEYGEN = shutil.which("ssh-keygen")
SHA = "ab" * 32
NOW = datetime(2026, 12, 1, tzinfo=UTC)
PACKET, APPROVAL, GATE = "gatekeeper-packet", "gatekeeper-approval", "gatekeeper-gate"
ROLES = ("runner", "approver", "gate")

# The options field of a line, as ssh writes it (comma-separated options, before the key type); gatekeeper's
# line carries the same options as fields after the key. `exact`: ssh-keygen and gatekeeper must agree on it.
VARIANTS: dict[str, tuple[tuple[str, ...], bool]] = {
    "none": ((), False),
    "quoted-packet": (('namespaces="gatekeeper-packet"',), True),
    "quoted-approval": (('namespaces="gatekeeper-approval"',), True),
    "quoted-gate": (('namespaces="gatekeeper-gate"',), True),
    "list-packet-gate": (('namespaces="gatekeeper-packet,gatekeeper-gate"',), True),
    "list-all": (('namespaces="gatekeeper-gate,gatekeeper-approval,gatekeeper-packet"',), True),
    "keyword-upper": (('NAMESPACES="gatekeeper-approval"',), True),
    "keyword-mixed": (('NameSpaces="gatekeeper-packet"',), True),
    "value-upper": (('namespaces="GATEKEEPER-APPROVAL"',), False),
    "unquoted": (("namespaces=gatekeeper-approval",), False),
    "single-quoted": (("namespaces='gatekeeper-approval'",), False),
    "wildcard-star": (('namespaces="*"',), False),
    "wildcard-prefix": (('namespaces="gatekeeper-*"',), False),
    "wildcard-question": (('namespaces="gatekeeper-????"',), False),
    "negation": (('namespaces="!gatekeeper-approval,gatekeeper-*"',), False),
    "unknown": (('namespaces="git"',), False),
    "unknown-in-list": (('namespaces="git,gatekeeper-packet"',), False),
    "empty": (('namespaces=""',), False),
    "twice": (('namespaces="gatekeeper-packet"', 'namespaces="gatekeeper-approval"'), False),
    "trailing-comma": (('namespaces="gatekeeper-packet,"',), False),
}


@pytest.fixture(scope="module")
def keyring(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("rt20-keys")
    made = {role: generate(role, folder) for role in ROLES}
    return {role: {"signer": load_signer(private), "hex": trusted.key.keyval["public"], "private": private}
            for role, (private, _, trusted) in made.items()}


def _statement_opens(keyring: dict[str, Any], role: str, options: tuple[str, ...], namespace: str,
                     tmp_path: Path) -> bool:
    """Whether gatekeeper trusts `role`'s signature on a statement of `namespace`'s kind, under a file holding
    only `role`'s line with `options` (False when the file is refused)."""
    key = keyring[role]
    try:
        trust = parse_trust(f"{role} ed25519 {key['hex']}{''.join(' ' + o for o in options)}\n", "allowed_signers")
    except TrustError:
        return False
    if namespace == APPROVAL:
        folder = tmp_path / "approvals"
        folder.mkdir(exist_ok=True)
        envelope = approvals.make(key["signer"], patch_sha256=SHA, input_digest="in" * 32, rules=["core.ci"], now=NOW)
        (folder / "a.json").write_text(json.dumps(envelope))
        valid, _ = approvals.read(folder, trust, patch_sha256=SHA, input_digest="in" * 32, now=NOW)
        return bool(valid)
    if namespace == PACKET:
        packet = {"diff": {"sha256": SHA}, "claims": {"tests_passed": True}}
        (tmp_path / "packet.json").write_text(json.dumps(packet))
        (tmp_path / "packet.intoto.json").write_text(json.dumps(sign_packet(key["signer"], packet)))
        try:
            return bool(check_packet(tmp_path / "packet.json", packet, trust).verified)
        except AttestationError:
            return False
    record = {"seq": 1, "outcome": "allow", "hash": "cd" * 32}
    record["signature"] = seal_record(key["signer"], record)
    return check_record(record, trust).signer is not None


def _ssh_key(keyring: dict[str, Any], folder: Path) -> tuple[Path, str]:
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        NoEncryption,
        PrivateFormat,
        PublicFormat,
        load_pem_private_key,
    )

    private = load_pem_private_key(Path(keyring["runner"]["private"]).read_bytes(), password=None)
    path = folder / "id_ed25519"
    path.write_bytes(private.private_bytes(Encoding.PEM, PrivateFormat.OpenSSH, NoEncryption()))
    path.chmod(0o600)
    public = private.public_key().public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH).decode()
    return path, public


@pytest.fixture(scope="module")
def ssh_verdicts(keyring: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], bool]:
    """What the real `ssh-keygen -Y verify -n NS` says of each variant's line, per namespace."""
    if SSH_KEYGEN is None:
        pytest.skip("ssh-keygen is not installed")
    folder = tmp_path_factory.mktemp("rt20-ssh")
    private, public = _ssh_key(keyring, folder)
    message = folder / "message"
    message.write_bytes(b"a statement\n")
    signatures = {}
    for namespace in (PACKET, APPROVAL, GATE):
        signed = subprocess.run([SSH_KEYGEN, "-Y", "sign", "-f", str(private), "-n", namespace],
                                input=message.read_bytes(), capture_output=True, check=True)
        signatures[namespace] = folder / f"{namespace}.sig"
        signatures[namespace].write_bytes(signed.stdout)
    verdicts = {}
    for name, (options, _) in VARIANTS.items():
        signers = folder / f"{name}.signers"
        signers.write_text(f"runner {','.join(options)}{' ' if options else ''}{public}\n")
        for namespace, signature in signatures.items():
            done = subprocess.run([SSH_KEYGEN, "-Y", "verify", "-f", str(signers), "-I", "runner", "-n", namespace,
                                   "-s", str(signature)], input=message.read_bytes(), capture_output=True, check=False)
            verdicts[name, namespace] = done.returncode == 0
    return verdicts


def test_ssh_keygen_reads_namespaces_as_the_matrix_assumes(ssh_verdicts: dict[tuple[str, str], bool]) -> None:
    """The reference itself: no option trusts every namespace; a quoted list only its names (keyword in any case,
    names exact); an unquoted value is a bad line; patterns widen."""
    assert all(ssh_verdicts["none", ns] for ns in (PACKET, APPROVAL, GATE))
    assert [ssh_verdicts["quoted-approval", ns] for ns in (PACKET, APPROVAL, GATE)] == [False, True, False]
    assert ssh_verdicts["keyword-upper", APPROVAL] and not ssh_verdicts["value-upper", APPROVAL]
    assert not any(ssh_verdicts["unquoted", ns] for ns in (PACKET, APPROVAL, GATE))
    assert all(ssh_verdicts["wildcard-prefix", ns] for ns in (PACKET, APPROVAL, GATE))
    assert not ssh_verdicts["negation", APPROVAL] and ssh_verdicts["negation", PACKET]


@each_case("variant, role", [(variant, role) for variant in sorted(VARIANTS) for role in ROLES])
def test_a_key_signs_only_what_its_line_allows(keyring: dict[str, Any], ssh_verdicts: dict[tuple[str, str], bool],
                                              tmp_path: Path, role: str, variant: str) -> None:
    options, exact = VARIANTS[variant]
    for namespace in (PACKET, APPROVAL, GATE):
        folder = tmp_path / namespace
        folder.mkdir()
        ours = _statement_opens(keyring, role, options, namespace, folder)
        theirs = ssh_verdicts[variant, namespace]
        where = f"{role} {variant} in {namespace}: gatekeeper {ours}, ssh-keygen {theirs}"
        assert theirs or not ours, f"wider than ssh-keygen: {where}"
        if exact:
            assert ours == theirs, where
        elif variant == "none":
            assert ours == (namespace != APPROVAL), f"a line without namespaces= approves only never: {where}"
        else:
            assert not ours, f"an ambiguous namespaces= must refuse the line: {where}"


@each_case("variant", sorted(v for v, (options, exact) in VARIANTS.items() if options and not exact))
def test_an_unusable_namespaces_option_names_its_line(keyring: dict[str, Any], variant: str) -> None:
    options = VARIANTS[variant][0]
    text = f"# signers\nrunner ed25519 {keyring['runner']['hex']} {' '.join(options)}\n"
    with pytest.raises(TrustError) as caught:
        parse_trust(text, "allowed_signers")
    assert caught.value.where == "allowed_signers:2"
    assert "namespace" in str(caught.value)


def _home(keyring: dict[str, Any], tmp_path: Path, lines: dict[str, str]) -> Path:
    """A working folder: packet.json and patch.diff of a review (core.ci), the keys, and an allowed-signers file
    with `lines` (role → the options after its key)."""
    home = tmp_path / "w"
    (home / "keys").mkdir(parents=True)
    for role in ROLES:
        shutil.copyfile(keyring[role]["private"], home / "keys" / f"{role}.key")
        (home / "keys" / f"{role}.key").chmod(0o600)
    text = "".join(f"{role} ed25519 {keyring[role]['hex']}{(' ' + options) if options else ''}\n"
                   for role, options in lines.items())
    (home / "allowed_signers").write_text(text)
    shutil.copyfile(PATCH, home / "patch.diff")
    made = run_cli(["packet", "patch.diff", "--out", "packet.json", "--policy", str(POLICY_DIR)], cwd=home)
    assert made.returncode == 0, made.stderr
    return home


def _approve_and_gate(home: Path, approver: str, *extra: str) -> tuple[int, dict[str, Any], str]:
    done = run_cli(["approve", "packet.json", "--patch", "patch.diff", "--trust", "allowed_signers", "--key",
                    f"keys/{approver}.key", "--out", "approvals", "--policy", str(POLICY_DIR)], cwd=home, text=True)
    assert done.returncode == 0, done.stderr
    gate = run_cli(["gate", "packet.json", "--patch", "patch.diff", "--trust", "allowed_signers", "--approvals",
                    "approvals", "--policy", str(POLICY_DIR), "--format", "json", *extra], cwd=home, text=True)
    return gate.returncode, json.loads(gate.stdout), str(gate.stderr)


@pytest.mark.parametrize("approver", ["runner", "gate"])
def test_an_unsigned_packet_is_not_approved_by_its_runner_or_the_gate(keyring: dict[str, Any], tmp_path: Path,
                                                                       approver: str) -> None:
    """The allowed-signers file as last round's docs wrote it (no option anywhere), no packet.intoto.json, no
    params.approvals: the runner's (or the gate's) key approves the change."""
    home = _home(keyring, tmp_path, {"runner": "", "approver": "groups=platform", "gate": ""})
    code, decision, stderr = _approve_and_gate(home, approver)
    assert code == 3 and decision["outcome"] == "review", decision
    assert decision["approvals"]["approvals"] == []
    line = 1 if approver == "runner" else 3
    assert f'whose line (allowed_signers:{line}) has no namespaces= option' in stderr, stderr
    assert 'end that line with namespaces="gatekeeper-approval"' in stderr


def test_a_migrated_approver_line_counts(keyring: dict[str, Any], tmp_path: Path) -> None:
    home = _home(keyring, tmp_path, {"runner": "", "approver": 'groups=platform namespaces="gatekeeper-approval"',
                                     "gate": ""})
    code, decision, _ = _approve_and_gate(home, "approver")
    assert code == 0 and [a["signer"] for a in decision["approvals"]["approvals"]] == ["approver"], decision


@pytest.mark.parametrize("forger", ["runner", "approver"])
def test_the_whole_allowed_signers_file_does_not_let_another_role_sign_the_log(keyring: dict[str, Any],
                                                                               tmp_path: Path, forger: str) -> None:
    """audit verify --trust with the file every role shares: a log whose records a runner's or an approver's key
    signed (a rewritten log, re-signed) is not a log the gate signed."""
    home = _home(keyring, tmp_path, {"runner": 'namespaces="gatekeeper-packet"',
                                     "approver": 'groups=platform namespaces="gatekeeper-approval"',
                                     "gate": 'namespaces="gatekeeper-gate"'})
    gate = run_cli(["gate", "packet.json", "--patch", "patch.diff", "--policy", str(POLICY_DIR), "--sign",
                    f"keys/{forger}.key", "--log", "signed.jsonl"], cwd=home, text=True)
    assert gate.returncode == 3, gate.stderr
    verified = run_cli(["audit", "verify", "signed.jsonl", "--trust", "allowed_signers"], cwd=home, text=True)
    assert verified.returncode == 1, verified.stdout + verified.stderr
    assert "not trusted in gatekeeper-gate" in verified.stdout, verified.stdout
    honest = run_cli(["gate", "packet.json", "--patch", "patch.diff", "--policy", str(POLICY_DIR), "--sign",
                      "keys/gate.key", "--log", "gate.jsonl"], cwd=home, text=True)
    assert honest.returncode == 3, honest.stderr
    ok = run_cli(["audit", "verify", "gate.jsonl", "--trust", "allowed_signers"], cwd=home, text=True)
    assert ok.returncode == 0 and "all signed by gate" in ok.stdout, ok.stdout + ok.stderr


def test_an_approver_key_does_not_sign_the_packet(keyring: dict[str, Any], tmp_path: Path) -> None:
    home = _home(keyring, tmp_path, {"runner": 'namespaces="gatekeeper-packet"',
                                     "approver": 'groups=platform namespaces="gatekeeper-approval"'})
    packet = json.loads((home / "packet.json").read_text())
    (home / "packet.intoto.json").write_text(json.dumps(sign_packet(load_signer(home / "keys" / "approver.key"),
                                                                    packet)))
    gate = run_cli(["gate", "packet.json", "--patch", "patch.diff", "--trust", "allowed_signers", "--policy",
                    str(POLICY_DIR), "--format", "json"], cwd=home, text=True)
    attestation = json.loads(gate.stdout)["attestation"]
    assert attestation["verified"] is False, attestation
    assert "not trusted in gatekeeper-packet" in attestation["reason"], attestation


def test_keys_generate_writes_the_role_into_the_line(tmp_path: Path) -> None:
    done = run_cli(["keys", "generate", "--name", "alice", "--role", "approver", "--out", "keys"], cwd=tmp_path,
                   text=True)
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip()
    assert line.endswith(' namespaces="gatekeeper-approval"') and (tmp_path / "keys" / "alice.pub").read_text() == \
        line + "\n"
    trust = parse_trust(line + "\n", "allowed_signers")
    assert [s.namespaces for s in trust.signers.values()] == [(APPROVAL,)]
