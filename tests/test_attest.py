"""Keys, trust, DSSE envelopes, signed packets, approvals and decision summaries: forged, altered,
replayed, expired and untrusted variants are refused with a reason; formats match in-toto and SLSA."""

from __future__ import annotations

import base64
import copy
import json
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from google.protobuf import json_format
from in_toto_attestation.v1 import statement_pb2
from in_toto_attestation.v1.statement import Statement
from tables import each_case

from gatekeeper.attest import approvals, roles
from gatekeeper.attest.decision import VSA_PREDICATE, sign_decision
from gatekeeper.attest.envelope import AttestationError, open_statement, sign, statement
from gatekeeper.attest.keys import TrustError, generate, load_signer, load_trust, parse_trust
from gatekeeper.attest.packet import PACKET_PREDICATE, check_packet, envelope_path, sign_packet
from gatekeeper.cli import main
from gatekeeper.errors import UsageError

SHA = "ab" * 32
OTHER_SHA = "cd" * 32


@pytest.fixture(scope="module")
def keyring(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("keys")
    made = {name: generate(name, folder) for name in ("runner", "alice", "mallory")}
    (folder / "platform.pub").write_text(made["alice"][2].line() + " groups=platform\n")
    trust_file = folder / "allowed_signers"
    # mallory has a key but is not trusted.
    # runner may also approve here (a signer outside group platform), alice signs in every namespace.
    trust_file.write_text("# trusted\n" + made["runner"][2].line()
                          + ' namespaces="gatekeeper-packet,gatekeeper-approval"\n'
                          + made["alice"][2].line() + " groups=platform,security namespaces=\"gatekeeper-approval,"
                          "gatekeeper-gate,gatekeeper-packet\"\n")
    return {"folder": folder, "trust": load_trust(trust_file),
            **{name: load_signer(private) for name, (private, _, _) in made.items()}}


def test_generate_writes_a_private_key_only_the_owner_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keys", "generate", "--name", "ci-runner", "--out", str(tmp_path)]) == 0
    line = capsys.readouterr().out.strip()
    assert stat.S_IMODE((tmp_path / "ci-runner.key").stat().st_mode) == 0o600
    assert (tmp_path / "ci-runner.pub").read_text().strip() == line and line.startswith("ci-runner ed25519 ")
    assert parse_trust(line, "x").signers  # the printed line is a valid allowed-signers line
    assert main(["keys", "generate", "--name", "ci-runner", "--out", str(tmp_path)]) == 2  # never overwritten
    assert main(["keys", "generate", "--name", "../evil", "--out", str(tmp_path)]) == 2


def test_a_key_others_can_read_is_refused(keyring: dict[str, Any], tmp_path: Path) -> None:
    key = tmp_path / "k.key"
    key.write_bytes((keyring["folder"] / "alice.key").read_bytes())
    key.chmod(0o644)
    with pytest.raises(TrustError, match="readable by others"):
        load_signer(key)


@each_case("line", [
    "alice", "alice rsa 00", "alice ed25519 zz", "alice ed25519 " + "00" * 31, "al ice ed25519 " + "00" * 32,
    "alice ed25519 " + "11" * 32 + " groups=", "alice ed25519 " + "11" * 32 + " roles=x", "-x ed25519 " + "11" * 32,
])
def test_bad_trust_lines_are_refused_with_their_line(line: str) -> None:
    with pytest.raises(TrustError, match=r"signers:2"):
        parse_trust("# header\n" + line + "\n", "signers")


def test_the_same_key_twice_and_an_empty_file_are_refused(keyring: dict[str, Any]) -> None:
    line = keyring["trust"].named(keyring["alice"].public_key.keyid).line()
    with pytest.raises(TrustError, match="already trusted"):
        parse_trust(line + "\n" + line.replace("alice", "bob") + "\n", "t")
    with pytest.raises(TrustError, match="no signer"):
        parse_trust("# nothing\n", "t")


def _tamper(envelope: dict[str, Any], kind: str, keyring: dict[str, Any]) -> dict[str, Any]:
    env = copy.deepcopy(envelope)
    body = json.loads(base64.b64decode(env["payload"]))
    if kind == "payload":
        body["predicate"]["x"] = 1
        env["payload"] = base64.b64encode(json.dumps(body).encode()).decode()
    elif kind == "subject":
        body["subject"][0]["digest"]["sha256"] = OTHER_SHA
        env["payload"] = base64.b64encode(json.dumps(body).encode()).decode()
    elif kind == "untrusted":
        env = sign(keyring["mallory"], body)
    elif kind == "keyid-swap":  # mallory's signature claiming the runner's key id
        forged = sign(keyring["mallory"], body)
        env["signatures"] = [{"keyid": envelope["signatures"][0]["keyid"], "sig": forged["signatures"][0]["sig"]}]
    elif kind == "payload-type":
        env["payloadType"] = "application/json"
    elif kind == "no-signatures":
        env["signatures"] = []
    elif kind == "bad-base64":
        env["payload"] = "%%%"
    elif kind == "extra-field":
        env["extra"] = 1
    elif kind == "sig-garbage":
        env["signatures"][0]["sig"] = base64.b64encode(b"\0" * 64).decode()
    return env


@each_case("kind", ["payload", "subject", "untrusted", "keyid-swap", "payload-type", "no-signatures",
                                  "bad-base64", "extra-field", "sig-garbage"])
def test_forged_and_altered_envelopes_are_refused(keyring: dict[str, Any], kind: str) -> None:
    envelope = sign(keyring["runner"], statement("patch.diff", SHA, PACKET_PREDICATE, {"a": 1}))
    assert open_statement(json.dumps(envelope).encode(), keyring["trust"], where="e", predicate_type=PACKET_PREDICATE,
                          namespace=roles.PACKET,
                          sha256=SHA).signer.name == "runner"
    bad = _tamper(envelope, kind, keyring)
    with pytest.raises(AttestationError):
        open_statement(json.dumps(bad).encode(), keyring["trust"], where="e", predicate_type=PACKET_PREDICATE,
                       namespace=roles.PACKET,
                       sha256=SHA)


@each_case("data", [b"", b"null", b"[]", b"{" * 100_000, b'{"payload": 1}', b"\xff\xfe", b"1e999999"])
def test_garbage_is_an_attestation_error_not_a_crash(keyring: dict[str, Any], data: bytes) -> None:
    with pytest.raises(AttestationError):
        open_statement(data, keyring["trust"], where="e", predicate_type=PACKET_PREDICATE,
                       namespace=roles.PACKET, sha256=SHA)


def test_a_statement_of_another_type_or_patch_is_refused(keyring: dict[str, Any]) -> None:
    envelope = json.dumps(sign(keyring["alice"], statement("patch.diff", SHA, VSA_PREDICATE, {"a": 1}))).encode()
    with pytest.raises(AttestationError, match="predicateType"):
        open_statement(envelope, keyring["trust"], where="e", predicate_type=PACKET_PREDICATE,
                       namespace=roles.PACKET, sha256=SHA)
    with pytest.raises(AttestationError, match="another patch"):
        open_statement(envelope, keyring["trust"], where="e", predicate_type=VSA_PREDICATE,
                       namespace=roles.GATE, sha256=OTHER_SHA)


def _packet() -> dict[str, Any]:
    return {"schema_version": 1, "run_id": "r1", "diff": {"sha256": SHA, "bytes": 10},
            "sandbox": {"backend": "bwrap", "network": "denied", "egress_checked": True, "env_passed": []},
            "model": {"requested": "m", "reported": None, "reported_by": None}}


def test_signed_packet_verifies_and_an_edited_one_does_not(keyring: dict[str, Any], tmp_path: Path) -> None:
    packet = _packet()
    packet_file = tmp_path / "packet.json"
    packet_file.write_text(json.dumps(packet))
    assert check_packet(packet_file, packet, keyring["trust"]).verified is False  # unsigned
    envelope_path(packet_file).write_text(json.dumps(sign_packet(keyring["runner"], packet)))
    result = check_packet(packet_file, packet, keyring["trust"])
    assert result.verified and result.signer == "runner" and result.to_input()["claims"]
    edited = copy.deepcopy(packet)
    edited["sandbox"]["network"] = "unrestricted"
    with pytest.raises(AttestationError, match="sandbox"):
        check_packet(packet_file, edited, keyring["trust"])
    envelope_path(packet_file).write_text(json.dumps(sign_packet(keyring["mallory"], packet)))
    with pytest.raises(AttestationError, match="trusted"):
        check_packet(packet_file, packet, keyring["trust"])


def test_a_packet_signature_has_no_validity_period_but_its_time_is_signed_and_a_key_can_be_revoked(
        keyring: dict[str, Any], tmp_path: Path) -> None:
    """Decision: a packet's claims are facts about one past run bound to one patch, so they do not expire (an
    approval does); the packet's created_at is signed (it cannot be made to look fresh), and a runner key is
    revoked by removing its line from the allowed-signers file."""
    packet = {**_packet(), "created_at": "2020-01-01T00:00:00Z"}
    packet_file = tmp_path / "packet.json"
    envelope_path(packet_file).write_text(json.dumps(sign_packet(keyring["runner"], packet)))
    assert check_packet(packet_file, packet, keyring["trust"]).verified  # six years later: still the same facts
    fresh = {**packet, "created_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
    with pytest.raises(AttestationError, match="created_at"):
        check_packet(packet_file, fresh, keyring["trust"])
    alice_only = (keyring["folder"] / "platform.pub").read_text()  # the runner's line removed: revoked
    with pytest.raises(AttestationError, match="no valid signature by a trusted key"):
        check_packet(packet_file, packet, parse_trust(alice_only, "revoked"))


def _decision(*levels: tuple[str, str, str | None]) -> dict[str, Any]:
    reasons = [{"policy": rule.split(".")[0], "rule": rule, "level": level, "msg": "m", "bucket": bucket}
               for level, rule, bucket in levels]
    outcome = "deny" if any(lv == "deny" for lv, _, _ in levels) else "review" if levels else "allow"
    return {"outcome": outcome, "reasons": reasons, "input_digest": "in" * 32}


def _write(folder: Path, name: str, envelope: dict[str, Any]) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(json.dumps(envelope))


def test_an_approval_accepts_exactly_its_patch_input_and_rules(keyring: dict[str, Any], tmp_path: Path) -> None:
    decision = _decision(("review", "core.ci", "ci"), ("review", "deps.manifest", "deps"))
    now = datetime(2026, 12, 1, tzinfo=UTC)
    make = lambda signer, **kw: approvals.make(keyring[signer], **{  # noqa: E731
        "patch_sha256": SHA, "input_digest": "in" * 32, "rules": ["core.ci", "deps.manifest"], "now": now, **kw})
    folder = tmp_path / "approvals"
    _write(folder, "other-patch.json", make("alice", patch_sha256=OTHER_SHA))
    _write(folder, "other-input.json", make("alice", input_digest="x" * 64))
    _write(folder, "expired.json", make("alice", now=now - timedelta(days=30)))
    _write(folder, "future.json", make("alice", now=now + timedelta(days=1)))
    _write(folder, "untrusted.json", make("mallory"))
    _write(folder, "not-json.json", {"payload": "x"})
    found, problems = approvals.read(folder, keyring["trust"], patch_sha256=SHA, input_digest="in" * 32, now=now)
    assert found == [] and len(problems) == 6
    assert any("another patch" in p for p in problems) and any("expired" in p for p in problems)
    assert any("another decision" in p for p in problems) and any("future" in p for p in problems)
    assert not approvals.apply(decision, found, approvals.Requirements(), problems).accepted
    # One approval of one rule is not enough for both findings ...
    _write(folder, "partial.json", make("runner", rules=["core.ci"]))
    found, problems = approvals.read(folder, keyring["trust"], patch_sha256=SHA, input_digest="in" * 32, now=now)
    outcome = approvals.apply(decision, found, approvals.Requirements(), problems)
    assert not outcome.accepted and any("deps.manifest: needs an approval" in p for p in outcome.problems)
    # ... both rules by a trusted signer are.
    _write(folder, "good.json", make("alice"))
    found, problems = approvals.read(folder, keyring["trust"], patch_sha256=SHA, input_digest="in" * 32, now=now)
    outcome = approvals.apply(decision, found, approvals.Requirements())
    assert outcome.accepted and [a.signer.name for a in outcome.counted] == ["alice"]


def test_required_groups_and_deny_are_respected(keyring: dict[str, Any], tmp_path: Path) -> None:
    now = datetime(2026, 12, 1, tzinfo=UTC)
    folder = tmp_path / "approvals"
    _write(folder, "runner.json", approvals.make(keyring["runner"], patch_sha256=SHA, input_digest="in" * 32,
                                                 rules=["core.ci"], now=now))
    found, _ = approvals.read(folder, keyring["trust"], patch_sha256=SHA, input_digest="in" * 32, now=now)
    needs_platform = approvals.Requirements.from_params({"approvals": {"buckets": {"ci": ["platform"]}}})
    review = _decision(("review", "core.ci", "ci"))
    outcome = approvals.apply(review, found, needs_platform)
    assert not outcome.accepted and "one of platform (approved only by runner)" in outcome.problems[0]
    _write(folder, "alice.json", approvals.make(keyring["alice"], patch_sha256=SHA, input_digest="in" * 32,
                                                rules=["core.ci"], now=now))
    found, _ = approvals.read(folder, keyring["trust"], patch_sha256=SHA, input_digest="in" * 32, now=now)
    assert approvals.apply(review, found, needs_platform).accepted
    denied = _decision(("review", "core.ci", "ci"), ("deny", "gatekeeper.integrity", None))
    assert not approvals.apply(denied, found, approvals.Requirements()).accepted


def test_envelopes_are_in_toto_statements_and_the_summary_is_a_slsa_vsa(keyring: dict[str, Any]) -> None:
    decision = {"outcome": "review", "bundle": {"name": "b", "revision": "r1", "digest": "ef" * 32},
                "decided_at": "2026-12-01T00:00:00Z"}
    envelopes = [sign_decision(keyring["alice"], decision, SHA), sign_packet(keyring["runner"], _packet()),
                 approvals.make(keyring["alice"], patch_sha256=SHA, input_digest="in" * 32, rules=["core.ci"])]
    for envelope in envelopes:
        body = json.loads(base64.b64decode(envelope["payload"]))
        proto = statement_pb2.Statement()
        json_format.ParseDict(body, proto)  # field names and types of the in-toto Statement v1
        Statement.copy_from_pb(proto).validate()
    vsa = json.loads(base64.b64decode(envelopes[0]["payload"]))["predicate"]
    jsonschema.validate(vsa, SLSA_VSA_V1)
    assert vsa["verificationResult"] == "FAILED" and vsa["policy"]["digest"]["sha256"] == "ef" * 32


# The predicate of https://slsa.dev/spec/v1.0/verification_summary, field by field.
SLSA_VSA_V1 = {
    "type": "object",
    "required": ["verifier", "timeVerified", "resourceUri", "policy", "verificationResult", "verifiedLevels"],
    "properties": {
        "verifier": {"type": "object", "required": ["id"], "properties": {
            "id": {"type": "string", "format": "uri"},
            "version": {"type": "object", "additionalProperties": {"type": "string"}}}},
        "timeVerified": {"type": "string", "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$"},
        "resourceUri": {"type": "string", "minLength": 1},
        "policy": {"type": "object", "required": ["uri"], "properties": {
            "uri": {"type": "string"}, "digest": {"type": "object", "additionalProperties": {"type": "string"}}}},
        "inputAttestations": {"type": "array"},
        "verificationResult": {"enum": ["PASSED", "FAILED"]},
        "verifiedLevels": {"type": "array", "items": {"type": "string", "not": {"pattern": "^SLSA_"}}},
        "dependencyLevels": {"type": "object"},
        "slsaVersion": {"type": "string", "pattern": r"^\d+\.\d+$"},
    },
}


def test_a_bad_key_name_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        generate("a/b", tmp_path)
