"""Key files and the allowed-signers file (trust), like git's SSH `allowed_signers`.

A private key is a PEM PKCS#8 ed25519 key (mode 0600); its public half is one line,
`NAME ed25519 HEX [groups=G1,G2] [namespaces="NS1,NS2"]`, both the `.pub` file and a line of the allowed-signers
file; namespaces= says what the key may sign (attest.roles).
A signer's key id is securesystemslib's (sha256 over the canonical public key).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gatekeeper.attest import roles
from gatekeeper.attest.weakkeys import weakness
from gatekeeper.errors import GatekeeperError, InputFileError, UsageError
from gatekeeper.lazy_pattern import lazy

if TYPE_CHECKING:
    from securesystemslib.signer import CryptoSigner, SSlibKey

_NAME = lazy(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}\Z")
_GROUPS = lazy(r"groups=([A-Za-z0-9._-]+(?:,[A-Za-z0-9._-]+)*)\Z")
MAX_TRUST_BYTES = 1 << 20
MAX_KEY_BYTES = 64 << 10


class TrustError(GatekeeperError):
    """An allowed-signers file or a key file cannot be used."""


@dataclass(frozen=True, slots=True)
class Signer:
    """A trusted signer: a name, its groups, its public key, the namespaces its line lists (None: no namespaces=
    option, attest.roles) and where that line is (FILE:LINE)."""

    name: str
    groups: tuple[str, ...]
    key: SSlibKey
    namespaces: tuple[str, ...] | None = None
    where: str = ""

    @property
    def keyid(self) -> str:
        return str(self.key.keyid)

    def line(self) -> str:
        groups = f" groups={','.join(self.groups)}" if self.groups else ""
        namespaces = f" {roles.option(self.namespaces)}" if self.namespaces is not None else ""
        return f"{self.name} ed25519 {self.key.keyval['public']}{groups}{namespaces}"

    def allows(self, namespace: str) -> bool:
        """Whether this key may sign in `namespace` (attest.roles)."""
        return roles.allowed(self.namespaces, namespace)


@dataclass(frozen=True, slots=True)
class Trust:
    """The allowed signers, by key id."""

    signers: dict[str, Signer]
    source: str

    def named(self, keyid: str) -> Signer | None:
        return self.signers.get(keyid)


def public_key(hex_key: str) -> SSlibKey:
    """The ed25519 public key written as 64 hex digits."""
    # Deferred, as everywhere in attest/: cryptography and securesystemslib cost ~0.2 s to import,
    # and a gate without --trust, --sign or --approvals never needs them.
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from securesystemslib.signer import SSlibKey

    raw = bytes.fromhex(hex_key)
    if len(raw) != 32:
        raise ValueError("an ed25519 public key has 32 bytes")
    weak = weakness(raw)
    if weak is not None:
        raise ValueError(weak)
    return SSlibKey.from_crypto(Ed25519PublicKey.from_public_bytes(raw))


def parse_signer(line: str, where: str = "") -> Signer:
    """One allowed-signers line (ValueError naming what is wrong); `where` is its FILE:LINE."""
    fields = line.split()
    if not 3 <= len(fields) <= 5 or fields[1] != "ed25519":
        raise ValueError('expected NAME ed25519 HEXKEY [groups=G1,G2] [namespaces="NS1,NS2"]')
    if not _NAME.match(fields[0]):
        raise ValueError(f"bad signer name {fields[0]!r} (letters, digits and ._@+- only)")
    groups: tuple[str, ...] | None = None
    namespaces: tuple[str, ...] | None = None
    for field in fields[3:]:
        if roles.is_option(field):
            if namespaces is not None:
                raise ValueError("namespaces= given twice")
            namespaces = roles.parse(field)
            continue
        found = _GROUPS.match(field)
        if not found:
            raise ValueError(f"bad field {field!r} (groups=G1,G2 or namespaces=\"NS1,NS2\")")
        if groups is not None:
            raise ValueError("groups= given twice")
        groups = tuple(found.group(1).split(","))
    try:
        key = public_key(fields[2])
    except ValueError as exc:
        raise ValueError(f"bad ed25519 key: {exc}") from None
    return Signer(fields[0], groups or (), key, namespaces, where)


def parse_trust(text: str, source: str) -> Trust:
    """An allowed-signers file's text → Trust (TrustError at the first bad line)."""
    signers: dict[str, Signer] = {}
    # Lines end at LF (CRLF too), as git, ssh-keygen and a reviewer's diff see them: str.splitlines would also end one
    # at U+2028, a vertical tab or a lone CR, and trust a signer the file shows inside another line or a comment.
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.removesuffix("\r").split("#", 1)[0].strip(" \t")
        if not line:
            continue
        try:
            if not line.isascii() or not line.replace("\t", " ").isprintable():
                raise ValueError("a character other than printable ASCII outside a comment")
            signer = parse_signer(line, f"{source}:{number}")
        except ValueError as exc:
            raise TrustError(str(exc), where=f"{source}:{number}",
                             hint="lines come from `gatekeeper keys generate`") from None
        if signer.keyid in signers:
            raise TrustError(f"the key of {signer.name} is already trusted as {signers[signer.keyid].name}",
                             where=f"{source}:{number}")
        signers[signer.keyid] = signer
    if not signers:
        raise TrustError("no signer in the allowed-signers file", where=source,
                         hint="add the lines `gatekeeper keys generate` prints")
    return Trust(signers, source)


def load_trust(path: Path) -> Trust:
    """Read an allowed-signers file from disk."""
    return parse_trust(_read(path, MAX_TRUST_BYTES, "allowed-signers file").decode("utf-8", "replace"), str(path))


def load_signer(path: Path) -> CryptoSigner:
    """A private key file → a signer (InputFileError / TrustError when it cannot be used)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # deferred: heavy
    from cryptography.hazmat.primitives.serialization import load_pem_private_key
    from securesystemslib.signer import CryptoSigner

    data = _read(path, MAX_KEY_BYTES, "key file")
    try:
        private = load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise TrustError(f"not an unencrypted PEM private key ({exc})", where=str(path),
                         hint="use a key made by `gatekeeper keys generate`") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise TrustError("not an ed25519 key", where=str(path), hint="use a key made by `gatekeeper keys generate`")
    if path.stat().st_mode & 0o077:
        raise TrustError("the private key is readable by others", where=str(path), hint=f"chmod 600 {path}")
    return CryptoSigner(private)


def generate(name: str, folder: Path, namespaces: tuple[str, ...] | None = None) -> tuple[Path, Path, Signer]:
    """Write NAME.key (0600, never over an existing file) and NAME.pub (its line listing `namespaces`) into `folder`."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat  # deferred: heavy
    from securesystemslib.signer import CryptoSigner

    if not _NAME.match(name):
        raise UsageError(f"bad key name {name!r}", where="--name", hint="letters, digits and ._@+- only")
    folder.mkdir(parents=True, exist_ok=True)
    signer = CryptoSigner.generate_ed25519()
    raw = signer.public_key._crypto_key().public_bytes(Encoding.Raw, PublicFormat.Raw)  # noqa: SLF001
    trusted = Signer(name, (), public_key(raw.hex()), namespaces)
    private, public = folder / f"{name}.key", folder / f"{name}.pub"
    for target in (private, public):
        if target.exists() or target.is_symlink():
            raise UsageError("the file exists; keys are never overwritten", where=str(target))
    try:
        fd = os.open(private, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except OSError as exc:
        raise InputFileError(f"cannot create the key file: {exc.strerror}", where=str(private)) from None
    with os.fdopen(fd, "wb") as handle:
        handle.write(signer.private_bytes)
        handle.flush()
        os.fsync(handle.fileno())
    public.write_text(trusted.line() + "\n", encoding="ascii")
    return private, public, trusted


def _read(path: Path, limit: int, what: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise InputFileError(f"cannot read the {what}: {exc.strerror}", where=str(path)) from None
    if len(data) > limit:
        raise TrustError(f"the {what} is over {limit} bytes", where=str(path))
    return data
