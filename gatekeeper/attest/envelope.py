"""in-toto Statements v1 in DSSE envelopes: sign one, open one against a Trust.

The payload is the Statement as compact, ASCII-escaped JSON with sorted keys; `open_statement` accepts an envelope
only when one of its signatures is by a trusted key over exactly that payload (DSSE's PAE), a key whose
allowed-signers line lets it sign in the statement's namespace (attest.roles), the
payload is an in-toto Statement of the expected predicate type, and its subject names the digest
the caller expects. Everything else is an AttestationError saying which check failed.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from gatekeeper.attest import roles
from gatekeeper.attest.keys import Signer, Trust
from gatekeeper.bounded import load_json
from gatekeeper.errors import GatekeeperError, LimitError

if TYPE_CHECKING:
    from securesystemslib.signer import Signer as KeySigner

PAYLOAD_TYPE = "application/vnd.in-toto+json"
STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
MAX_ENVELOPE_BYTES = 16 << 20
MAX_SIGNATURES = 16


class AttestationError(GatekeeperError):
    """An envelope is malformed, unsigned by a trusted key, or says something else than expected."""


@dataclass(frozen=True, slots=True)
class Opened:
    """A verified statement: what it says and who signed it."""

    statement: Mapping[str, Any]
    signer: Signer

    @property
    def predicate(self) -> Mapping[str, Any]:
        return self.statement["predicate"]


def statement(subject_name: str, sha256: str, predicate_type: str, predicate: Mapping[str, Any]) -> dict[str, Any]:
    """An in-toto Statement v1 about one artifact (by its sha256)."""
    return {"_type": STATEMENT_TYPE, "subject": [{"name": subject_name, "digest": {"sha256": sha256}}],
            "predicateType": predicate_type, "predicate": dict(predicate)}


def sign(signer: KeySigner, body: Mapping[str, Any]) -> dict[str, Any]:
    """A DSSE envelope (as JSON-ready dict) holding `body`, signed by `signer`."""
    from securesystemslib.dsse import Envelope  # deferred: heavy (see attest.keys.public_key)

    # ASCII-escaped, as packet.json is written: UTF-8 has no form for a lone surrogate (a JSON string's "\ud800", a
    # file name that is not UTF-8), and a packet holding one must still be signed, not leave its run half-written.
    payload = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    envelope = Envelope(payload, PAYLOAD_TYPE, {})
    envelope.sign(signer)
    return envelope.to_dict()


def read_envelope(path: Path) -> bytes:
    """The bytes of the envelope file `path`, read only when it is a regular file and never past the limit: a FIFO
    would block, a link to /dev/zero never end (AttestationError)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise AttestationError(f"cannot read: {exc.strerror}", where=str(path)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise AttestationError("not a regular file", where=str(path))
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_ENVELOPE_BYTES + 1)
    except OSError as exc:
        raise AttestationError(f"cannot read: {exc.strerror}", where=str(path)) from None
    finally:
        os.close(fd)
    return data


def open_statement(data: bytes, trust: Trust, *, where: str, predicate_type: str, namespace: str,
                   sha256: str | None) -> Opened:
    """Verify the envelope in `data`, signed by a key trusted in `namespace`, and return its statement
    (AttestationError on any failure)."""
    from securesystemslib.dsse import Envelope  # deferred: heavy (see attest.keys.public_key)
    from securesystemslib.exceptions import FormatError, VerificationError

    if len(data) > MAX_ENVELOPE_BYTES:
        raise AttestationError(f"the envelope is over {MAX_ENVELOPE_BYTES} bytes", where=where)
    try:
        document = load_json(data, where, object_pairs_hook=_unique)
    except _Duplicate as exc:
        raise AttestationError(f"the envelope holds a duplicate key {exc}", where=where) from None
    except (ValueError, LimitError):
        raise AttestationError("not a JSON DSSE envelope", where=where) from None
    if not isinstance(document, dict) or set(document) != {"payload", "payloadType", "signatures"}:
        raise AttestationError("not a DSSE envelope (payload, payloadType, signatures)", where=where)
    if document["payloadType"] != PAYLOAD_TYPE:
        raise AttestationError(f"payloadType is not {PAYLOAD_TYPE}", where=where)
    signatures = document["signatures"]
    if not isinstance(signatures, list) or not 1 <= len(signatures) <= MAX_SIGNATURES:
        raise AttestationError("an envelope needs 1 to 16 signatures", where=where)
    if not all(isinstance(s, dict) for s in signatures):
        raise AttestationError("malformed DSSE envelope (a signature that is not an object)", where=where)
    try:
        envelope = Envelope.from_dict({**document, "signatures": [dict(s) for s in signatures]})
        allowed: list[Any] = [signer.key for signer in trust.signers.values() if signer.allows(namespace)]
        accepted = envelope.verify(allowed, 1) if allowed else {}
    except VerificationError:
        accepted = {}
    except (FormatError, ValueError, TypeError, KeyError, AttributeError, binascii.Error):
        raise AttestationError("malformed DSSE envelope", where=where) from None
    if not accepted:
        _refuse(envelope, trust, where, namespace, signatures)
    signer = trust.signers[next(iter(accepted))]
    try:
        body = load_json(base64.b64decode(document["payload"], validate=True), where, object_pairs_hook=_unique)
    except _Duplicate as exc:
        raise AttestationError(f"the signed statement holds a duplicate key {exc}", where=where,
                               hint="another JSON reader would see another statement behind the same signature"
                               ) from None
    except (ValueError, LimitError, binascii.Error):
        raise AttestationError("the signed payload is not JSON", where=where) from None
    _check_statement(body, where, predicate_type, sha256)
    return Opened(body, signer)


class _Duplicate(ValueError):
    pass


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object without a key twice: parsers differ on which of two they keep (Python the last)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(repr(key)[:80])
            seen.add(key)
    return found


def _refuse(envelope: Any, trust: Trust, where: str, namespace: str, signatures: list[Any]) -> NoReturn:
    """AttestationError for an envelope no key trusted in `namespace` signed: naming the trusted signer that did sign
    it, when one did, and the line that does not let it."""
    from securesystemslib.exceptions import VerificationError  # deferred: heavy (see attest.keys.public_key)

    try:
        other = envelope.verify([signer.key for signer in trust.signers.values()], 1)
    except VerificationError:
        keyids = ", ".join(str(s.get("keyid"))[:16] for s in signatures)
        raise AttestationError(f"no valid signature by a trusted key (key ids: {keyids or 'none'})", where=where,
                               hint=f"the signer must be in {trust.source}, and the content unchanged") from None
    signer = trust.signers[next(iter(other))]
    what, hint = roles.refusal(signer.name, signer.where or trust.source, signer.namespaces, namespace)
    raise AttestationError(what, where=where, hint=hint)


def _check_statement(body: object, where: str, predicate_type: str, sha256: str | None) -> None:
    if not isinstance(body, dict) or body.get("_type") != STATEMENT_TYPE:
        raise AttestationError("the payload is not an in-toto Statement v1", where=where)
    if body.get("predicateType") != predicate_type:
        raise AttestationError(f"predicateType {str(body.get('predicateType'))[:200]!r}, not {predicate_type!r}",
                               where=where)
    if not isinstance(body.get("predicate"), dict):
        raise AttestationError("the statement has no predicate object", where=where)
    subjects = body.get("subject")
    digests = [s.get("digest", {}).get("sha256") for s in subjects or () if isinstance(s, dict)
               and isinstance(s.get("digest"), dict)]
    if not isinstance(subjects, list) or not digests:
        raise AttestationError("the statement names no subject digest", where=where)
    if sha256 is not None and sha256 not in digests:
        raise AttestationError(f"the statement is about another patch (sha256 {str(digests[0])[:16]}…, this patch "
                               f"{sha256[:16]}…)", where=where, hint="it was signed for a different diff")
