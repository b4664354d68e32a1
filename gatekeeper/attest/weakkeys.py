"""Ed25519 public keys that anyone can sign for: the points of small order, and encodings that are not canonical.

For a public key A of small order (the identity, and the other points [8]A = identity), the signature R = identity,
S = 0 satisfies [S]B = R + [k]A whenever [k]A is the identity, which holds for every message (A the identity) or for
one in two, four or eight: OpenSSL (through `cryptography`) accepts such signatures, and so a trusted key no one
holds a private half of. Pure Python on the curve, once per allowed-signers line (RFC 8032 section 5.1.3).
"""

from __future__ import annotations

_P = 2**255 - 19
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)
_IDENTITY = (0, 1)


def weakness(raw: bytes) -> str | None:
    """Why the 32-byte ed25519 public key `raw` must not be trusted, or None for a sound key."""
    point = _decode(raw)
    if point is None:
        return "not a canonical encoding of a curve point"
    for _ in range(3):
        point = _add(point, point)
    if point == _IDENTITY:
        return "a point of small order (anyone can make signatures that verify under it)"
    return None


def _decode(raw: bytes) -> tuple[int, int] | None:
    """The point (x, y) `raw` encodes (RFC 8032 5.1.3), None when it is none or not canonically written."""
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    sign = raw[31] >> 7
    if y >= _P:
        return None
    x2 = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P or (x == 0 and sign):
        return None
    return (_P - x if x & 1 != sign else x), y


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """a + b on edwards25519 (-x^2 + y^2 = 1 + d x^2 y^2), affine coordinates."""
    (x1, y1), (x2, y2) = a, b
    t = _D * x1 * x2 * y1 * y2 % _P
    return ((x1 * y2 + y1 * x2) * pow(1 + t, _P - 2, _P) % _P, (y1 * y2 + x1 * x2) * pow(1 - t, _P - 2, _P) % _P)
