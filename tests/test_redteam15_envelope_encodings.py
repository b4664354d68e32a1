"""Red team: one DSSE envelope, many encodings. Every signed statement the gate opens (packet, approval, decision
record) goes through `open_statement`; what another verifier could read differently from it must be refused.

Held on 75a0ce0 (kept here as the record of what was tried): the statement re-encoded (key order, white space,
a Unicode escape, trailing bytes) no longer verifies; a payloadType in another case or with a space, a missing or
empty key id or signature, duplicate signatures, an extra envelope key, unpadded or line-broken base64, another
predicate type (purpose) or patch are refused. Refused only now: duplicate keys (the envelope's or the signed
statement's: Python keeps the last, other parsers the first, so two verifiers would read two statements behind one
signature) and a signature entry that is not a JSON object.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from tables import each_case

from gatekeeper.attest.approvals import APPROVAL_PREDICATE
from gatekeeper.attest.envelope import AttestationError, open_statement, sign, statement
from gatekeeper.attest.keys import generate, load_signer, parse_trust
from gatekeeper.attest.packet import PACKET_PREDICATE

SHA = "ab" * 32


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("rt15-envelopes")
    private, _, alice = generate("alice", folder)
    signer = load_signer(private)
    envelope = sign(signer, statement("patch.diff", SHA, APPROVAL_PREDICATE, {"rules": ["core.ci"]}))
    line = alice.line() + ' namespaces="gatekeeper-approval,gatekeeper-packet,gatekeeper-gate"\n'
    return {"signer": signer, "trust": parse_trust(line, "allowed_signers"), "envelope": envelope}


def _open(keyed: dict[str, Any], data: bytes, predicate_type: str = APPROVAL_PREDICATE) -> dict[str, Any]:
    return dict(open_statement(data, keyed["trust"], where="e", predicate_type=predicate_type,
                             namespace="gatekeeper-approval", sha256=SHA).predicate)


def _payload(envelope: dict[str, Any]) -> bytes:
    return base64.b64decode(envelope["payload"])


def _with_payload(envelope: dict[str, Any], payload: bytes) -> bytes:
    return json.dumps({**envelope, "payload": base64.b64encode(payload).decode()}).encode()


def _variants(env: dict[str, Any]) -> dict[str, bytes]:
    raw = json.dumps(env).encode()
    sig = env["signatures"][0]
    payload = _payload(env)
    body = json.loads(payload)
    other = base64.b64encode(b'{"_type": "https://in-toto.io/Statement/v1"}').decode()
    return {
        "statement-key-order": _with_payload(env, json.dumps(body, indent=1).encode()),
        "statement-trailing-space": _with_payload(env, payload + b" "),
        "statement-unicode-escape": _with_payload(env, payload.replace(b'"rules"', b'"\\u0072ules"')),
        "envelope-trailing-data": raw + b"{}",
        "payload-type-case": json.dumps({**env, "payloadType": env["payloadType"].upper()}).encode(),
        "payload-type-space": json.dumps({**env, "payloadType": env["payloadType"] + " "}).encode(),
        "payload-unpadded": json.dumps({**env, "payload": env["payload"].rstrip("=") if env["payload"].endswith("=")
                                         else env["payload"][:-1]}).encode(),
        "payload-line-break": json.dumps({**env, "payload": env["payload"][:8] + "\n" + env["payload"][8:]}).encode(),
        "keyid-missing": json.dumps({**env, "signatures": [{"sig": sig["sig"]}]}).encode(),
        "keyid-empty": json.dumps({**env, "signatures": [{"keyid": "", "sig": sig["sig"]}]}).encode(),
        "sig-empty": json.dumps({**env, "signatures": [{"keyid": sig["keyid"], "sig": ""}]}).encode(),
        "sig-twice": json.dumps({**env, "signatures": [sig, sig]}).encode(),
        "no-signatures": json.dumps({**env, "signatures": []}).encode(),
        "envelope-extra-key": json.dumps({**env, "x": 1}).encode(),
        "envelope-bom": b"\xef\xbb\xbf" + raw,
        # refused only now
        "duplicate-payload-other-first": b'{"payload":"%s",' % other.encode() + raw[1:],
        "duplicate-payload-other-last": raw[:-1] + b',"payload":"%s"}' % other.encode(),
        "duplicate-payload-type": raw[:-1] + b',"payloadType":"text/plain"}',
        "signature-as-pairs": json.dumps({**env, "signatures": [[["keyid", sig["keyid"]], ["sig", sig["sig"]]]]}
                                         ).encode(),
    }


@each_case("name", sorted(_variants({"payload": "e30=", "payloadType": "t",
                                                    "signatures": [{"keyid": "k", "sig": "cw=="}]})))
def test_another_encoding_is_refused(keyed: dict[str, Any], name: str) -> None:
    data = _variants(keyed["envelope"])[name]
    with pytest.raises(AttestationError):
        _open(keyed, data)


def test_the_envelope_itself_may_be_laid_out_freely(keyed: dict[str, Any]) -> None:
    env = keyed["envelope"]
    laid_out = json.dumps({"signatures": env["signatures"], "payloadType": env["payloadType"],
                           "payload": env["payload"]}, indent=2).encode()
    assert _open(keyed, laid_out) == {"rules": ["core.ci"]}


@each_case("twice", ["predicate", "predicateType", "subject", "_type"])
def test_a_signed_statement_with_a_duplicate_key_is_refused(keyed: dict[str, Any], twice: str) -> None:
    """Signed by a trusted key, but two parsers would read two statements: refused, not read as Python reads it."""
    from securesystemslib.dsse import Envelope

    first = {"predicate": {"rules": ["everything"]}, "predicateType": PACKET_PREDICATE,
             "subject": [{"name": "x", "digest": {"sha256": "cd" * 32}}], "_type": "x"}[twice]
    body = statement("patch.diff", SHA, APPROVAL_PREDICATE, {"rules": ["core.ci"]})
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    payload = ("{" + json.dumps(twice) + ":" + json.dumps(first) + "," + text[1:]).encode()
    envelope = Envelope(payload, "application/vnd.in-toto+json", {})
    envelope.sign(keyed["signer"])
    with pytest.raises(AttestationError, match="duplicate"):
        _open(keyed, json.dumps(envelope.to_dict()).encode())


def test_a_statement_for_another_purpose_is_refused(keyed: dict[str, Any]) -> None:
    with pytest.raises(AttestationError, match="predicateType"):
        _open(keyed, json.dumps(keyed["envelope"]).encode(), predicate_type=PACKET_PREDICATE)
    packet = sign(keyed["signer"], statement("patch.diff", SHA, PACKET_PREDICATE, {"rules": ["core.ci"]}))
    with pytest.raises(AttestationError, match="predicateType"):
        _open(keyed, json.dumps(packet).encode())
