"""Packaged archives by what they hold: a Helm chart packed by `helm package`, an npm package packed by `npm pack`.

A chart repository keeps its released charts as `falco-talon-0.4.0.tgz` (at its root, or beside an `index.yaml`),
and a project may vendor a dependency as the `.tgz` npm packed: by name both are archives like any other (`other`).
What they are is in their first bytes. Both are gzipped tar files whose first member names the package: `helm
package` writes `<chart>/Chart.yaml` first, `npm pack` writes `package/package.json` first (or after a few files of
the same `package/` folder). The content tier reads the first 8 KiB of a `.tgz`/`.tar.gz` blob it is given; those
inflate to the first tar headers (a header is 512 bytes, the small files behind them a few blocks), and the member
names decide. Nothing is unpacked to disk, and the inflated bytes are bounded (`INFLATED`).
"""

from __future__ import annotations

import zlib

from gatekeeper.classify.sniff import Signal

ARCHIVE_SUFFIXES = (".tgz", ".tar.gz")
INFLATED = 64 * 1024  # bytes inflated from the head read: a hostile head cannot make this read more
MAX_MEMBERS = 16  # tar headers looked at
_BLOCK = 512


def is_archive(path: str) -> bool:
    """A gzipped tar by its name."""
    return path.lower().endswith(ARCHIVE_SUFFIXES)


def packaged(data: bytes) -> Signal | None:
    """`iac` for a packaged Helm chart (a member `<chart>/Chart.yaml` one folder deep), `deps` for a packed npm package
    (`package/package.json`), among the first members of the gzipped tar whose head is `data`; else None."""
    if not data.startswith(b"\x1f\x8b"):
        return None
    try:
        tar = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data, INFLATED)
    except zlib.error:
        return None
    for name in _members(tar):
        folder, _, base = name.rpartition("/")
        if folder and "/" not in folder and base == "Chart.yaml":
            return Signal("iac", "iac.content.packaged-chart", f"a packaged Helm chart (member {name})")
        if name == "package/package.json":
            return Signal("deps", "deps.content.packed-npm-package", f"a packed npm package (member {name})")
    return None


def _members(tar: bytes) -> list[str]:
    """The member names of the first tar headers in `tar` (ustar prefix joined; PAX and long-name records skipped)."""
    names: list[str] = []
    at = 0
    for _ in range(MAX_MEMBERS):
        header = tar[at:at + _BLOCK]
        if len(header) < _BLOCK or not header.strip(b"\0"):
            break
        name = header[:100].split(b"\0", 1)[0].decode("utf-8", "replace")
        if header[257:262] == b"ustar" and (prefix := header[345:500].split(b"\0", 1)[0]):
            name = f"{prefix.decode('utf-8', 'replace')}/{name}"
        try:
            size = int(header[124:136].split(b"\0", 1)[0].strip() or b"0", 8)
        except ValueError:
            break
        if header[156:157] not in (b"x", b"g", b"L", b"K"):
            names.append(name.removeprefix("./"))
        at += _BLOCK + (size + _BLOCK - 1) // _BLOCK * _BLOCK
    return names
