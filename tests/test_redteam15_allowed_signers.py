"""Red team: the allowed-signers file (`--trust`), read as ssh-keygen's allowed_signers and as a reviewer reads it.

Holes (fail on 75a0ce0):
- A public key of small order, or a non-canonical encoding of one (12 encodings): OpenSSL accepts the signature
  R = identity, S = 0 under it for every message (the identity) or one in 2, 4 or 8, so a trusted line no one holds a
  private key for let anyone sign packets, approvals and log records.
- Line ends other than LF and CRLF (U+2028, U+2029, U+0085, VT, FF, FS, GS, RS, a lone CR): Python's splitlines()
  ended the line there, so a signer the file shows inside another line (or inside a comment) was trusted.
- Unicode white space between the fields (NBSP and others), which str.split() takes for a separator.
Held before (kept as the record): wildcard and list principals, ssh-keygen's options (cert-authority, namespaces=,
valid-before/after), ssh key types, an empty groups field, a key given twice.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.attest.approvals import APPROVAL_PREDICATE
from gatekeeper.attest.envelope import AttestationError, open_statement, statement
from gatekeeper.attest.keys import TrustError, generate, parse_trust

SHA = "ab" * 32
IDENTITY = "01" + "00" * 31
# The points of small order (identity, order 2, 4 and 8, both signs) and non-canonical encodings of them.
WEAK = [IDENTITY, "ec" + "ff" * 30 + "7f", "00" * 32, "00" * 31 + "80",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
        "01" + "00" * 30 + "80", "ed" + "ff" * 30 + "7f", "ee" + "ff" * 30 + "7f", "ec" + "ff" * 31]


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("rt15-signers")
    return generate("alice", folder)[2].line(), generate("bob", folder)[2].line()


@each_case("key", WEAK)
def test_a_key_anyone_can_sign_for_is_refused(key: str) -> None:
    with pytest.raises(TrustError, match="small order|canonical"):
        parse_trust(f"nobody ed25519 {key} groups=security\n", "allowed_signers")


def test_an_approval_forged_for_the_identity_key_never_opens() -> None:
    """What the refusal prevents: a signature made without any private key, verifying for every statement."""
    from securesystemslib.dsse import Envelope

    try:
        trust = parse_trust(f"nobody ed25519 {IDENTITY} groups=security\n", "allowed_signers")
    except TrustError:
        return  # refused at the door
    keyid = next(iter(trust.signers))
    body = statement("patch.diff", SHA, APPROVAL_PREDICATE, {"rules": ["core.ci"], "inputDigest": "x"})
    payload = json.dumps(body).encode()
    forged = bytes.fromhex(IDENTITY) + bytes(32)  # R = identity, S = 0
    assert Envelope(payload, "application/vnd.in-toto+json", {}).pae()
    envelope = {"payload": base64.b64encode(payload).decode(), "payloadType": "application/vnd.in-toto+json",
                "signatures": [{"keyid": keyid, "sig": base64.b64encode(forged).decode()}]}
    with pytest.raises(AttestationError):
        open_statement(json.dumps(envelope).encode(), trust, where="forged", predicate_type=APPROVAL_PREDICATE,
                       namespace="gatekeeper-approval",
                       sha256=SHA)


@each_case("end", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\r"])
@each_case("where", ["after-a-signer", "inside-a-comment"])
def test_a_signer_hidden_behind_another_line_end_is_not_trusted(two: tuple[str, str], end: str, where: str) -> None:
    alice, bob = two
    text = f"{alice}{end}{bob}\n" if where == "after-a-signer" else f"{alice}\n# retired:{end}{bob}\n"
    try:
        trust = parse_trust(text, "allowed_signers")
    except TrustError:
        return
    assert [s.name for s in trust.signers.values()] == ["alice"]


@each_case("space", ["\u00a0", "\u2000", "\u2003", "\u3000", "\u1680", "\u202f"])
def test_unicode_white_space_is_no_field_separator(two: tuple[str, str], space: str) -> None:
    alice, _ = two
    with pytest.raises(TrustError, match="printable ASCII"):
        parse_trust(alice.replace(" ", space, 1) + "\n", "allowed_signers")


SSH_SHAPES = ["* ed25519 {k}", "*@example.com ed25519 {k}", "alice,bob ed25519 {k}",
              "@cert-authority alice ed25519 {k}", "alice cert-authority ed25519 {k}",
              'alice namespaces="git" ed25519 {k}', 'alice ed25519 {k} namespaces="git"',
              "alice ed25519 {k} valid-before=20200101", 'alice valid-after="20990101" ed25519 {k}',
              "alice ssh-ed25519 {k}", "alice ed25519 {k} groups=", "alice ed25519 {k} groups=a,",
              "alice ed25519 {k} groups=a groups=b", "alice ed25519 0x{k}"]


@each_case("shape", SSH_SHAPES)
def test_ssh_allowed_signers_shapes_are_refused(two: tuple[str, str], shape: str) -> None:
    key = two[0].split()[2]
    with pytest.raises(TrustError):
        parse_trust(shape.format(k=key) + "\n", "allowed_signers")


def test_crlf_comments_and_tabs_still_read(two: tuple[str, str], tmp_path: Path) -> None:
    alice, bob = two
    text = f"# the gate's signers\r\n{alice}\t# Ålice, platform\r\n\r\n{bob.replace(' ', chr(9))}   \r\n"
    assert [s.name for s in parse_trust(text, "allowed_signers").signers.values()] == ["alice", "bob"]
