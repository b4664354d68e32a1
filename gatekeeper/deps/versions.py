"""Version ordering per ecosystem: PEP 440 (packaging), SemVer 2.0, Maven, RubyGems, Docker tags.

`compare` answers -1/0/1, or None when the two cannot be ordered (a branch name, a range, a tag with
different variants): the delta then says `changed`, never a guessed direction.
"""

from __future__ import annotations

import re
from itertools import zip_longest

from packaging.version import InvalidVersion, Version

from gatekeeper.lazy_pattern import lazy

_SEMVER = lazy(
    r"^[vV]?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$"
)
# A single constraint whose bound says where a manifest moved: `^1.2.3`, `~> 2.0`, `>=3`, `==1.0`.
# possessive blanks: the two runs around the optional operator were split every way (16 KiB of blanks: 2.2 CPU-s)
_SIMPLE = lazy(r"^\s*+(?:\^|~>|~=|~|>=|==|=|v)?\s*+([0-9][0-9A-Za-z.+!\-_]*)\s*$")
_FLOOR = lazy(r"^\s*>=")  # a lower bound alone: `_SIMPLE` orders it by its bound, which caps nothing
_COMMIT = lazy(r"^([0-9a-f]{40}|[0-9a-f]{64})$")


def _semver_key(version: str) -> tuple[tuple[int, ...], tuple[str, ...] | None] | None:
    m = _SEMVER.match(version.strip())
    if m is None:
        return None
    release = tuple(int(part or 0) for part in m.group(1, 2, 3, 4))
    pre = tuple(m.group(5).split(".")) if m.group(5) else None
    return release, pre


def _compare_pre(a: tuple[str, ...] | None, b: tuple[str, ...] | None) -> int:
    if a == b:
        return 0
    if a is None:
        return 1  # a release ranks above its pre-releases
    if b is None:
        return -1
    for x, y in zip_longest(a, b):
        if x is None:
            return -1
        if y is None:
            return 1
        if x == y:
            continue
        if x.isdigit() and y.isdigit():
            return -1 if int(x) < int(y) else 1
        if x.isdigit() != y.isdigit():
            return -1 if x.isdigit() else 1  # numeric identifiers rank below alphanumeric ones
        return -1 if x < y else 1
    return 0


def compare_semver(a: str, b: str) -> int | None:
    ka, kb = _semver_key(a), _semver_key(b)
    if ka is None or kb is None:
        return None
    if ka[0] != kb[0]:
        return -1 if ka[0] < kb[0] else 1
    return _compare_pre(ka[1], kb[1])


def compare_pep440(a: str, b: str) -> int | None:
    try:
        va, vb = Version(a), Version(b)
    except InvalidVersion:
        return None
    return (va > vb) - (va < vb)


_MAVEN_QUALIFIERS = {"alpha": 1, "a": 1, "beta": 2, "b": 2, "milestone": 3, "m": 3, "rc": 4, "cr": 4,
                     "snapshot": 5, "": 6, "ga": 6, "final": 6, "release": 6, "sp": 7}


def _maven_items(version: str) -> list[tuple[int, int | str]]:
    """Maven ComparableVersion items: numbers as (2, n), known qualifiers as (1, rank), others (1, 100+text)."""
    items: list[tuple[int, int | str]] = []
    for token in re.findall(r"\d+|[A-Za-z]+", version.lower()):
        if token.isdigit():
            items.append((2, int(token)))
        elif token in _MAVEN_QUALIFIERS:
            items.append((1, _MAVEN_QUALIFIERS[token]))
        else:
            items.append((1, f"~{token}"))
    items.append((1, 6))  # the end of the version acts like a release qualifier for the step below
    kept: list[tuple[int, int | str]] = []
    for item in items:
        if item[0] == 1:
            while kept and kept[-1] == (2, 0):
                kept.pop()  # zeros before a qualifier or the end go: 1.0.0 == 1, 2.0-beta9 == 2-beta9
        kept.append(item)
    while kept and kept[-1] == (1, 6):
        kept.pop()  # 1-final == 1
    return kept


def compare_maven(a: str, b: str) -> int | None:
    if not re.match(r"^\d", a) or not re.match(r"^\d", b) or "$" in a + b:
        return None
    ia, ib = _maven_items(a), _maven_items(b)
    for x, y in zip_longest(ia, ib, fillvalue=(1, 6)):
        if x == y:
            continue
        if x[0] != y[0]:
            return -1 if x[0] < y[0] else 1  # a qualifier ranks below a number at the same place
        if isinstance(x[1], int) and isinstance(y[1], int):
            return -1 if x[1] < y[1] else 1
        if isinstance(x[1], int) != isinstance(y[1], int):
            return -1 if isinstance(x[1], int) else 1  # known qualifiers before unknown ones
        return -1 if str(x[1]) < str(y[1]) else 1
    return 0


def compare_gem(a: str, b: str) -> int | None:
    """Gem::Version: numeric segments compare as numbers; a letter segment makes a pre-release."""
    if not re.match(r"^\d[0-9A-Za-z.\-]*$", a) or not re.match(r"^\d[0-9A-Za-z.\-]*$", b):
        return None

    def segs(v: str) -> list[int | str]:
        out: list[int | str] = [int(t) if t.isdigit() else t for t in re.findall(r"\d+|[A-Za-z]+", v)]
        while len(out) > 1 and out[-1] == 0:
            out.pop()
        return out

    for x, y in zip_longest(segs(a), segs(b), fillvalue=0):
        if x == y:
            continue
        if isinstance(x, int) and isinstance(y, int):
            return -1 if x < y else 1
        if isinstance(x, str) and isinstance(y, str):
            return -1 if x < y else 1
        return -1 if isinstance(x, str) else 1
    return 0


def compare_docker_tag(a: str, b: str) -> int | None:
    """Tags order only when they share a variant suffix: `3.12-slim` < `3.13-slim`; `3.12` vs `3.12-alpine` do not."""
    va, _, sa = a.partition("-")
    vb, _, sb = b.partition("-")
    if sa != sb:
        return None
    return compare_semver(va, vb)


def _dpkg_order(c: str) -> int:
    """A character's weight in Debian's comparison of the non-digit runs: `~` before the end, the end before letters,
    letters before anything else (deb-version(7))."""
    return -1 if c == "~" else 0 if not c or c.isdigit() else ord(c) if c.isalpha() else ord(c) + 256


def _dpkg_part(a: str, b: str) -> int:
    """Debian's comparison of two upstream versions (or two revisions): non-digit runs by _dpkg_order, then digit
    runs as numbers, alternately (one pass over each string)."""
    i = j = 0
    while i < len(a) or j < len(b):
        while i < len(a) and not a[i].isdigit() or j < len(b) and not b[j].isdigit():
            ca = _dpkg_order(a[i] if i < len(a) and not a[i].isdigit() else "")
            cb = _dpkg_order(b[j] if j < len(b) and not b[j].isdigit() else "")
            if ca != cb:
                return -1 if ca < cb else 1
            i, j = i + 1, j + 1
        da, i = _digits(a, i)
        db, j = _digits(b, j)
        if da != db:
            return -1 if da < db else 1
    return 0


def _digits(text: str, at: int) -> tuple[int, int]:
    end = at
    while end < len(text) and text[end].isdigit():
        end += 1
    return (int(text[at:end]) if end > at else 0), end


_DPKG = lazy(r"^(?:(\d{1,9}):)?([0-9][A-Za-z0-9.+~:-]*?)(?:-([A-Za-z0-9.+~]+))?$")
_APK_PRE = lazy(r"_(alpha|beta|pre|rc)")


def compare_dpkg(a: str, b: str, apk: bool = False) -> int | None:
    """Debian's order (`epoch:upstream-revision`, deb-version(7)): `13.23-0+deb11u1` < `13.23-0+deb11u2`,
    `1.0~rc1` < `1.0`. Alpine's (`2.45.2-r1`, `1.0_rc1`) read through it: its pre-release suffixes sort below the
    release as Debian's `~` does, its `-rN` is the revision. None for what is neither."""
    if apk:
        a, b = _APK_PRE.sub(r"~\1", a), _APK_PRE.sub(r"~\1", b)
    ma, mb = _DPKG.match(a), _DPKG.match(b)
    if ma is None or mb is None:
        return None
    epoch_a, epoch_b = int(ma.group(1) or 0), int(mb.group(1) or 0)
    if epoch_a != epoch_b:
        return -1 if epoch_a < epoch_b else 1
    return _dpkg_part(ma.group(2), mb.group(2)) or _dpkg_part(ma.group(3) or "", mb.group(3) or "")


def compare(ecosystem: str, a: str, b: str) -> int | None:
    """Order two versions (or two single-bound constraints) of `ecosystem`; None when they do not order."""
    if a == b:
        return 0
    if _COMMIT.match(a) or _COMMIT.match(b):
        return None  # a commit id, even one of digits only, is no version
    if ecosystem == "docker":
        return compare_docker_tag(a, b)
    if ecosystem in ("deb", "apk"):
        return compare_dpkg(a, b, ecosystem == "apk")
    a_base, b_base = base_version(a), base_version(b)
    if a_base is None or b_base is None:
        return None
    if ecosystem == "pip":
        return compare_pep440(a_base, b_base)
    if ecosystem == "maven":
        return compare_maven(a_base, b_base)
    if ecosystem == "bundler":
        return compare_gem(a_base, b_base)
    return compare_semver(a_base, b_base)


def moving(ecosystem: str, version: str) -> bool:
    """A version that names no fixed code (red team 14, second round): Maven's and Gradle's `-SNAPSHOT` (the latest
    build deployed under it, fetched again as it moves) and Composer's branch versions (`3.5.1-dev`, `dev-main`:
    the branch's head). A move to one is a move to a branch, never an ordered upgrade."""
    version = version.strip().lower()
    if ecosystem == "maven":
        return version.endswith("-snapshot")
    return ecosystem == "composer" and (version.startswith("dev-") or version.endswith("-dev"))


# A Go pseudo-version (`v1.2.4-0.20240101000000-abcdefabcdef`, `v0.0.0-20240101000000-abcdefabcdef`,
# `v1.3.0-rc.1.0.20240101000000-abcdefabcdef`): a commit's time and hash, with or without `+incompatible`.
_GO_PSEUDO = lazy(r"[-.]\d{14}-[0-9a-f]{12}(?:\+incompatible)?\Z")


def unreleased(ecosystem: str, old: str, new: str) -> bool:
    """A Go module moved from a release to a pseudo-version (red team 30): the new version names a commit no release
    tag names (`v1.2.3` → `v1.2.4-0.2024…-abcdef`, which sorts as a patch above the release), never an ordered
    upgrade. A move between two pseudo-versions (a module that tags no releases: `golang.org/x/exp`) stays ordered by
    the commits' times, and a move from a pseudo-version to a release too."""
    return ecosystem == "go" and bool(_GO_PSEUDO.search(new.strip())) and not _GO_PSEUDO.search(old.strip())


def opened(old: str, new: str) -> bool:
    """A constraint with an upper bound (an exact version, `^`, `~`, `~>`, `~=`, `==`) moved to a lower bound alone
    (`>=2.31.1`): any later release may now install, the next major included, so no update level holds the move
    (red team 26). A floor raised (`>=2.31.0` → `>=2.31.1`) stays ordered."""
    return bool(_FLOOR.match(new)) and not _FLOOR.match(old)


def base_version(spec: str) -> str | None:
    """The version a single-bound constraint names (`^1.2` → `1.2`); the version itself; None for a range."""
    m = _SIMPLE.match(spec)
    return m.group(1) if m else None


def update_level(ecosystem: str, old: str, new: str) -> str | None:
    """"major", "minor" or "patch": the first of the three leading release numbers that differs between
    two ordered versions (a tag or comment label for pinned shas works too); None when either has none."""
    if ecosystem == "docker":
        old, new = old.split("@")[0].partition("-")[0], new.split("@")[0].partition("-")[0]
    if ecosystem in ("deb", "apk"):  # a Debian epoch restarts the numbering; the levels are the upstream version's
        (epoch_a, _, old), (epoch_b, _, new) = old.rpartition(":"), new.rpartition(":")
        if epoch_a != epoch_b:
            return "major"
    a, b = base_version(old), base_version(new)
    if a is None or b is None:
        return None
    ra = [int(x) for x in re.findall(r"\d+", a.split("!")[-1])[:3]]
    rb = [int(x) for x in re.findall(r"\d+", b.split("!")[-1])[:3]]
    if not ra or not rb or "!" in a + b and a.split("!")[0] != b.split("!")[0]:
        return "major" if ra and rb else None  # a PEP 440 epoch change restarts the numbering
    ra, rb = ra + [0] * (3 - len(ra)), rb + [0] * (3 - len(rb))
    for level, x, y in zip(("major", "minor", "patch"), ra, rb, strict=True):
        if x != y:
            return level
    return "patch"  # same release numbers: a pre-release, post-release or build moved


def is_exact(spec: str) -> bool:
    """Whether `spec` names one version (not a range or constraint operator)."""
    return bool(spec) and spec[0].isdigit() or bool(re.match(r"^[vV]\d", spec))
