"""Signed decision-log records: an in-toto Statement whose subject is the record's chain hash, in a DSSE envelope.

The signature is the record's `signature` field, and the chain hash covers every other field (not `hash`, not
`signature`): a signature cannot cover itself, and the hash, which covers `prev`, binds the whole chain before
the record too. So whoever rewrites a record, or any record before it, must recompute the hashes and cannot
produce the signatures without a trusted gate key: `audit verify --trust` names the first record whose
signature does not hold, without a head kept elsewhere. The predicate repeats `seq` and `outcome` so that an
envelope read on its own says what it vouches for; they must match the record.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gatekeeper.attest import roles
from gatekeeper.attest.envelope import AttestationError, open_statement, sign, statement
from gatekeeper.attest.keys import Signer, Trust

if TYPE_CHECKING:
    from securesystemslib.signer import Signer as KeySigner

RECORD_PREDICATE = "https://gatekeeper.invalid/attestation/decision-record/v1"
SIGNATURE_FIELD = "signature"


def seal_record(signer: KeySigner, record: Mapping[str, Any]) -> dict[str, Any]:
    """The envelope that goes into `record["signature"]` (the record's `hash` is already computed)."""
    predicate = {"seq": record["seq"], "outcome": record["outcome"]}
    return sign(signer, statement("decision-record", str(record["hash"]), RECORD_PREDICATE, predicate))


def sealer(signer: KeySigner) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    """What the decision log calls on each record it builds (the log itself stays free of cryptography)."""
    return lambda record: seal_record(signer, record)


@dataclass(frozen=True, slots=True)
class RecordCheck:
    """What a record's signature proved: its trusted signer, or the kind of failure (verify's Problem kinds)."""

    signer: Signer | None
    kind: str | None = None  # "unsigned", "untrusted" (no valid signature by a trusted key) or "altered"
    reason: str | None = None


def check_record(record: Mapping[str, Any], trust: Trust) -> RecordCheck:
    """Whether `record` (whose hash the caller has checked) is signed by a trusted key over exactly its hash."""
    envelope = record.get(SIGNATURE_FIELD)
    if envelope is None:
        return RecordCheck(None, "unsigned", "the record has no signature (under --trust every record must be "
                                             "signed: gate --sign KEY)")
    try:
        opened = open_statement(json.dumps(envelope).encode("utf-8"), trust, where="signature",
                                predicate_type=RECORD_PREDICATE, namespace=roles.GATE, sha256=None)
    except AttestationError as exc:
        return RecordCheck(None, "untrusted", exc.what)
    digests = [s.get("digest", {}).get("sha256") for s in opened.statement["subject"]]
    if digests != [record.get("hash")]:
        return RecordCheck(None, "altered", f"signed by {opened.signer.name} for another hash: the record, or one "
                                            "before it, was rewritten and the chain recomputed")
    predicate = opened.predicate
    if predicate.get("seq") != record.get("seq") or predicate.get("outcome") != record.get("outcome"):
        return RecordCheck(None, "altered", "the signature names another seq or outcome than the record")
    return RecordCheck(opened.signer)
