"""The delta: BASE and HEAD dependencies of one file in, changes ordered by each ecosystem's versions out."""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Iterable, Mapping

from gatekeeper.deps.actions import FULL_SHA
from gatekeeper.deps.model import Change, ChangeKind, Dependency, Scope
from gatekeeper.deps.purl import purl
from gatekeeper.deps.versions import compare, is_exact, moving, opened, unreleased, update_level
from gatekeeper.lazy_pattern import lazy

# PEP 503's name normalization (what packaging.utils.canonicalize_name does), without importing packaging.utils:
# it imports packaging.tags and with it logging, sysconfig and platform (~20 ms of every gate's start-up).
_PEP503_SEPARATORS = lazy(r"[-_.]+")

Key = tuple[str, str, str, str]  # ecosystem, manifest, name, scope: one declaration per table


def resolve(deps: Iterable[Dependency], declared: Mapping[str, Scope] | None) -> list[Dependency]:
    """Fill what a lockfile alone cannot tell from its sibling manifest's `declared` names; without
    one, fail closed: an entry of unknown standing counts as direct (a new one then goes to a human)."""
    out = []
    for d in deps:
        if d.direct is None or d.scope is None:
            direct = d.direct if d.direct is not None else (declared is None or d.name in declared)
            scope = d.scope or (declared or {}).get(d.name) or "runtime"
            d = dataclasses.replace(d, direct=direct, scope=scope)
        out.append(d)
    return out


def _kind(ecosystem: str, old: str, new: str) -> ChangeKind:
    order = compare(ecosystem, old, new)
    if order is None or order == 0 or moving(ecosystem, new) or opened(old, new) or unreleased(ecosystem, old, new):
        return "changed"  # a ref, a range, a digest, a pin opened to `>=`, a release left for a commit: not ordered
    return "upgraded" if order < 0 else "downgraded"


def _sorted(ecosystem: str, versions: Iterable[str]) -> list[str]:
    listed = list(versions)
    if len(listed) < 2:
        return listed

    def cmp(a: str, b: str) -> int:
        order = compare(ecosystem, a, b)
        return order if order is not None else (a > b) - (a < b)

    return sorted(listed, key=functools.cmp_to_key(cmp))


def _pinned(ecosystem: str, version: str) -> bool | None:
    if ecosystem in ("github-actions", "pre-commit"):  # a hook's `rev` is a git ref, as an action's is
        return bool(FULL_SHA.match(version))
    if ecosystem == "docker":
        return "@sha256:" in version
    return None


def _change(dep: Dependency, old: Dependency | None, new: Dependency | None, kind: ChangeKind,
            partial: bool) -> Change:
    version = new.version if new is not None else old.version if old is not None else None
    named = version if version and (is_exact(version) or dep.ecosystem in ("github-actions", "docker")) else None
    level = None
    old_tag, new_tag = (old.tag if old else ""), (new.tag if new else "")
    if old is not None and new is not None and old.version != new.version and old_tag and old_tag == new_tag:
        # A comment that did not move with the sha (`@<new sha> # v3.29.5` as before) names neither
        # side: left out, the change is one between bare shas (claims.py may then label it).
        old_tag = new_tag = ""
    if kind in ("upgraded", "downgraded") and old is not None and new is not None:
        tagged = bool(old.tag and new.tag)
        level = update_level(dep.ecosystem, old.tag if tagged else old.version, new.tag if tagged else new.version)
        if level == "minor" and (dep.ecosystem, dep.name) in _RELEASE_LINES:
            level = "major"
    # a move onto a commit sha no comment names: which version runs, no file says
    unversioned = old is not None and new is not None and old.version != new.version and not new_tag \
        and dep.ecosystem in ("github-actions", "pre-commit") and bool(FULL_SHA.match(new.version))
    return Change(dep.ecosystem, dep.name, purl(dep.ecosystem, dep.name, named), dep.manifest,
                  old.version if old else None, new.version if new else None, kind, dep.direct is not False,
                  dep.scope or "runtime", _pinned(dep.ecosystem, version or ""), partial,
                  from_tag=old_tag or None, to_tag=new_tag or None, level=level, alias=dep.alias or None,
                  version_ref=dep.version_ref or None, unversioned=unversioned)


def _kind_of(ecosystem: str, old: Dependency, new: Dependency) -> ChangeKind:
    if old.options != new.options:  # extras, markers or features moved with the version: no upgrade of one entry
        return "changed"
    if old.tag and new.tag:  # two pinned shas: their tags order them
        kind = _kind(ecosystem, old.tag, new.tag)
        if kind != "changed":
            return kind
    return _kind(ecosystem, old.version, new.version)


# Toolchains whose first number never moves: their second is the release line (Go 1.22 → 1.23, Python 3.12 →
# 3.13, Ruby 3.2 → 3.3 are each language's major release, with new semantics), so it counts as `major`.
_RELEASE_LINES = frozenset({("go", "go"), ("tool", "go"), ("tool", "python"), ("tool", "ruby")})

# Ecosystems whose entries are use sites (a workflow's `uses:` lines, a Dockerfile's `FROM` lines, a Terraform
# file's `module` blocks: `s3_bucket_a` at 4.3.0 beside `s3_bucket_b` moved 3.15.1 → 4.3.0 is that block's
# upgrade; a workflow's two jobs at Go 1.25.x and 1.26.x, both now 1.26.x, moved one job's Go), not copies of a
# package a resolver keeps side by side. A pre-commit config's `- repo:` items are too: one hook repository listed twice
# (flake8 at 6.1.0 for most hooks, at 4.0.1 for a plugin that needs 4), the second moved onto the first's rev, is that
# entry's upgrade, not 4.0.1 removed (pypa/gh-action-pypi-publish, the thirty-first set).
_USE_SITES = frozenset({"github-actions", "docker", "terraform", "tool", "pre-commit"})
# An MSBuild file's PackageReference/PackageVersion items are counted as uses too, where one package is written at
# several versions (one conditioned ItemGroup per target framework): `6.0.0` under net6.0 moved onto net7.0's `7.0.0` is
# that reference's upgrade, not 6.0.0 removed (microsoft/fluentui-blazor, the thirty-second set). A lockfile lists a
# version once across its frameworks: nothing to count there.
_SIDE_BY_SIDE = "nuget"


def _relabelled(before: Mapping[str, Dependency], after: Mapping[str, Dependency], partial: bool) -> list[Change]:
    """Sha-pinned actions whose sha stayed while their version comment moved (`@<sha> # v4.4.0` to
    `# v5.0.0`: a new release tag on the same commit). The code that runs is the same, so the change is
    `changed`, never an upgrade a level could be read from; it is reported so the new label is seen."""
    return [_change(after[v], before[v], after[v], "changed", partial) for v in sorted(before)
            if before[v].tag and after[v].tag and before[v].tag != after[v].tag]


def _group(deps: Iterable[Dependency], manifest: str, sites: dict[Key, Counter[str]] | None = None,
           aliases: dict[Key, dict[str, str]] | None = None) -> dict[Key, dict[str, Dependency]]:
    """Dependencies by (ecosystem, manifest, name, scope), then by version; `sites` counts each version's
    entries where they are use sites (a workflow's lines using one action at one ref); `aliases` keeps the version of
    each entry the file names (a Maven artifact's catalog key or script variable)."""
    groups: dict[Key, dict[str, Dependency]] = {}
    for d in deps:
        if d.manifest != manifest:  # a renamed file: both sides count under its new path
            d = dataclasses.replace(d, manifest=manifest)
        # PyPI names are one name however written (PEP 503): `python-dateutil` → `python_dateutil` is no
        # removal beside a new dependency
        name = _PEP503_SEPARATORS.sub("-", d.name).lower() if d.ecosystem == "pip" else d.name
        key = (d.ecosystem, manifest, name, d.scope or "runtime")
        versions = groups.setdefault(key, {})
        if (seen := versions.setdefault(d.version, d)) is not d and d.options not in seen.options.split("\n"):
            # The same version asked for again with other extras, markers or features (`requests==2.31.1` beside
            # `requests[socks]==2.31.1`: pip merges them): every ask is the version's, so a new one is `changed`
            # (red team 29, tests/test_redteam29_repeated_entries.py; red team 26 read one entry's asks only), and
            # NuGet references at one version with other asset options (the thirty-second set)
            asks = sorted({*seen.options.split("\n"), d.options})
            versions[d.version] = dataclasses.replace(seen, options="\n".join(asks))
        if d.tag and (kept := versions[d.version]).tag != d.tag and _refines(d.tag, kept.tag):
            # one sha labelled `# v2` on one line and `# v2.9.2` on another (ratatui's ci.yml): the label that refines
            # the other names it; labels that disagree keep the first (round 55)
            versions[d.version] = dataclasses.replace(kept, tag=d.tag)
        if sites is not None and (d.ecosystem in _USE_SITES or d.ecosystem == _SIDE_BY_SIDE):
            sites.setdefault(key, Counter())[d.version] += 1
        if aliases is not None and d.alias and d.ecosystem == "maven":
            aliases.setdefault(key, {})[d.alias] = d.version
    return groups


def _refines(tag: str, other: str) -> bool:
    """`tag`'s dot-separated parts go on where `other`'s end (`v2.9.2` refines `v2`, not `v20.1` nor `v3`)."""
    return bool(other) and tag.startswith(other + ".")


def _named_move(ecosystem: str, dep: Dependency, after: Mapping[str, Dependency], aliases: Mapping[str, str],
                partial: bool) -> Change | None:
    """An entry the file names (a Gradle catalog's key) moved onto a version another entry of the same artifact already
    had: getsentry/sentry-java's `tomcat-catalina = {…, version = "9.0.108"}` → `"11.0.22"` beside
    `tomcat-catalina-jakarta` at 11.0.22 left no new version, and read as 9.0.108's removal. None for any other."""
    now = aliases.get(dep.alias or "")
    if now is None or now == dep.version or now not in after:
        return None
    return _change(after[now], dep, after[now], _kind_of(ecosystem, dep, after[now]), partial)


def _paired(ecosystem: str, before: Mapping[str, Dependency], was_sites: Counter[str],
            now_sites: Counter[str]) -> tuple[list[tuple[str, str]], list[str], list[str], str]:
    """The sites that left a version paired with those that came to one, highest with highest; the sites left over on
    either side (gone, came); and BASE's highest version."""
    gone = _sorted(ecosystem, (was_sites - now_sites).elements())
    came = _sorted(ecosystem, (now_sites - was_sites).elements())
    moves: list[tuple[str, str]] = []
    while gone and came:
        moves.append((gone.pop(), came.pop()))
    return moves, gone, came, _sorted(ecosystem, before.keys())[-1]


def _site_moves(ecosystem: str, before: Mapping[str, Dependency], after: Mapping[str, Dependency],
                was_sites: Counter[str], now_sites: Counter[str], partial: bool) -> list[Change]:
    """Use sites that moved, counted line by line: `init@A`, `autobuild@B`, `analyze@A` → `init@B`,
    `autobuild@B`, `analyze@A` holds the same refs on both sides, yet one line moved from A to B. The
    lines that left a ref pair with the lines that came to one, highest with highest; a line left over at a
    ref the other side lacks moved from (or to) the highest ref that side has. One change per (from, to).
    Lines that swap refs bring in no ref that was not there: nothing moved."""
    moves, gone, came, top = _paired(ecosystem, before, was_sites, now_sites)
    kept = _sorted(ecosystem, after.keys())[-1]
    # a line added at a ref other lines already had, or removed from one others keep, moved nothing
    moves += [(top, v) for v in came if v not in before] + [(v, kept) for v in gone if v not in after]
    out: list[Change] = []
    for was, now in dict.fromkeys(moves):  # in order, each (from, to) once
        if was != now:
            out.append(_change(after[now], before[was], after[now], _kind_of(ecosystem, before[was], after[now]),
                               partial))
    return out


def _reference_moves(ecosystem: str, before: Mapping[str, Dependency], after: Mapping[str, Dependency],
                     was_sites: Counter[str], now_sites: Counter[str], partial: bool) -> list[Change]:
    """A package's references at several versions, counted (_SIDE_BY_SIDE): the references that left a version pair
    with those that came to one, highest with highest; one left over at a version the other side lacks is removed, one
    come to a version BASE lacks is the upgrade from BASE's highest; an asset option moved at a version kept is a
    change."""
    moves, gone, came, top = _paired(ecosystem, before, was_sites, now_sites)
    moves += [(top, v) for v in came if v not in before]
    out = [_change(before[v], before[v], None, "removed", partial) for v in dict.fromkeys(gone) if v not in after]
    out += [_change(after[now], before[was], after[now], _kind_of(ecosystem, before[was], after[now]), partial)
            for was, now in dict.fromkeys(moves) if was != now]
    return out + [_change(after[v], before[v], after[v], "changed", partial)
                  for v in sorted(before.keys() & after.keys()) if before[v].options != after[v].options]


def diff(base: Iterable[Dependency], head: Iterable[Dependency], manifest: str, *,
         partial: bool = False) -> list[Change]:
    """The changes between one file's BASE and HEAD dependencies (both already resolved), sorted by name."""
    was_sites: dict[Key, Counter[str]] = {}
    now_sites: dict[Key, Counter[str]] = {}
    named: dict[Key, dict[str, str]] = {}
    old, new = _group(base, manifest, was_sites), _group(head, manifest, now_sites, named)
    changes: list[Change] = []
    for key in sorted(old.keys() | new.keys(), key=lambda k: (k[0], k[2], k[3])):
        ecosystem = key[0]
        before, after = old.get(key, {}), new.get(key, {})
        if ecosystem in _USE_SITES and before and after:
            changes += _relabelled({v: d for v, d in before.items() if v in after}, after, partial)
            changes += _site_moves(ecosystem, before, after, was_sites[key], now_sites[key], partial)
            continue
        if ecosystem == _SIDE_BY_SIDE and before and after and len(before) + len(after) > 2 \
                and not manifest.endswith("packages.lock.json"):
            changes += _reference_moves(ecosystem, before, after, was_sites[key], now_sites[key], partial)
            continue
        if before.keys() == after.keys():
            changes += _relabelled(before, after, partial)
            # the same version under other extras (`requests` → `requests[socks]`), markers or features: more (or
            # fewer) packages, or the entry installed where it was not
            changes += [_change(after[v], before[v], after[v], "changed", partial) for v in sorted(before)
                        if ecosystem == "pip" and before[v].alias != after[v].alias
                        or before[v].options != after[v].options]
            continue
        gone = _sorted(ecosystem, before.keys() - after.keys())
        came = _sorted(ecosystem, after.keys() - before.keys())
        if not before:
            changes += [_change(after[v], None, after[v], "added", partial) for v in came]
            continue
        if not after:
            changes += [_other_scope(key, before[v], old, new, partial)
                        or _change(before[v], before[v], None, "removed", partial) for v in gone]
            continue
        for was, now in _pairs(ecosystem, gone, came, _sorted(ecosystem, before.keys() & after.keys())):
            if now is None:
                assert was is not None  # _pairs never yields (None, None)
                changes.append(_named_move(ecosystem, before[was], after, named.get(key, {}), partial)
                               or _sole_copy(before[was], after, before.keys() & after.keys(), partial)
                               or _change(before[was], before[was], None, "removed", partial))
            else:
                old_dep = before[was] if was is not None else before[_sorted(ecosystem, before.keys())[-1]]
                changes.append(_change(after[now], old_dep, after[now], _kind_of(ecosystem, old_dep, after[now]),
                                       partial))
    return _major_moves(changes)


def _other_scope(key: Key, dep: Dependency, old: Mapping[Key, dict[str, Dependency]],
                 new: Mapping[Key, dict[str, Dependency]], partial: bool) -> Change | None:
    """A lockfile's indirect copy dropped from one scope while another scope keeps a copy above it of its release
    line (pnpm's `tough-cookie@4.1.2` with `dev: true` removed beside a runtime `4.1.3` both sides hold, the dev
    dependents' `tough-cookie: 4.1.2` now `4.1.3`): a dedupe onto the kept copy, the dependents' upgrade, as
    `_kept_above` reads it within one scope. None where no other scope keeps one, or the entry is direct or a use
    site."""
    if dep.direct is not False or key[0] in _USE_SITES:
        return None
    for other in sorted(k for k in old.keys() & new.keys() if k[:3] == key[:3] and k != key):
        kept = _sorted(key[0], old[other].keys() & new[other].keys())
        if (above := _kept_above(key[0], dep.version, kept)) is not None:
            moved = dataclasses.replace(new[other][above], scope=dep.scope, direct=False)
            return _change(moved, dep, moved, _kind_of(key[0], dep, moved), partial)
    return None


def _sole_copy(dep: Dependency, after: dict[str, Dependency], kept: set[str], partial: bool) -> Change | None:
    """A lockfile's indirect copy dropped while the name keeps exactly one copy, above it in another release line,
    and nothing new came (postcss's yarn.lock: set-value 0.4.3 gone, its `^0.4.3` dependent now on the 2.0.1 both
    sides hold; Dependabot's "Bump set-value from 0.4.3 to 2.0.1", round 54): the one copy left is where its
    dependents went, the move `_kept_above` reads within a line. None for an entry that is direct or may be (from a
    patch, which ones are is not known), two copies kept or one below."""
    if dep.direct is not False or len(kept) != 1:
        return None
    [only] = kept
    if (compare(dep.ecosystem, dep.version, only) or 0) >= 0:
        return None
    moved = dataclasses.replace(after[only], scope=dep.scope, direct=False)
    return _change(moved, dep, moved, _kind_of(dep.ecosystem, dep, moved), partial)


_LINE = lazy(r"^v?(\d+)(?:\.(\d+))?")


def _line(version: str) -> tuple[int, ...] | None:
    """A version's release line: its major number, or `0.minor` below 1 (what a caret range keeps)."""
    m = _LINE.match(version)
    if m is None:
        return None
    major = int(m.group(1))
    return (major,) if major or m.group(2) is None else (0, int(m.group(2)))


def _pairs(ecosystem: str, gone: list[str], came: list[str], kept: list[str]) -> list[tuple[str | None, str | None]]:
    """How a name's removed versions (`gone`) became its added ones (`came`), each list sorted, beside the
    versions both sides hold (`kept`): (old, new); (old, None) a removal; (None, new) an upgrade from the
    highest version BASE holds. A lockfile keeps one copy per release line (picomatch 2.3.1 and 4.0.3): within
    a line the highest old pairs with the highest new, and a new version beside a kept one of its line moved
    from that one (2.3.1 → 2.3.2 and 4.0.4 beside 4.0.3 are two patch moves, not 2.3.1 → 4.0.4 and a downgrade
    4.0.3 → 2.3.2). What is left pairs highest with highest across lines (1.x → 2.x is the major move it is);
    a new version still left moved from the highest version BASE holds."""
    pairs: list[tuple[str | None, str | None]] = []
    for line in dict.fromkeys(_line(v) for v in came if _line(v) is not None):
        olds = [v for v in gone if _line(v) == line]
        news = [v for v in came if _line(v) == line]
        while olds and news:
            was, now = olds.pop(), news.pop()
            pairs.append((was, now))
            gone.remove(was)
            came.remove(now)
        same_line = [v for v in kept if _line(v) == line]
        for now in news if same_line else []:
            pairs.append((same_line[-1], now))
            came.remove(now)
    while gone and came:
        pairs.append((gone.pop(), came.pop()))
    return pairs + [(None, v) for v in came] + [(v, _kept_above(ecosystem, v, kept)) for v in gone]


def _kept_above(ecosystem: str, version: str, kept: list[str]) -> str | None:
    """Where the dependents of a copy a lockfile dropped went, when nothing new came: the nearest version above
    it of its release line that both sides hold (picomatch 4.0.3 dropped beside 4.0.4 and 4.0.5 kept, the
    importer's `4.0.3` now `4.0.4`: a dedupe onto an existing copy, an upgrade of those dependents). None — a
    removal — when its line keeps nothing above it: no lockfile says which lower copy took over, if any."""
    line = _line(version)
    above = [v for v in kept if line is not None and _line(v) == line and (compare(ecosystem, version, v) or 0) < 0]
    return above[0] if above else None  # `kept` is sorted: the first above is the nearest


# Go's semantic import versioning: a module's major version 2 and up is in its path (`…/go-github/v89`,
# `gopkg.in/yaml.v3`), so `v89` → `v90` is written as one module removed and another added.
_GO_MAJOR = lazy(r"^(.+?)(?:/v(\d+)|\.v(\d+))?$")


def _go_major(name: str) -> tuple[str, int]:
    m = _GO_MAJOR.match(name)
    assert m is not None  # the pattern matches every string
    return m.group(1), int(m.group(2) or m.group(3) or 1)


def _major_moves(changes: list[Change]) -> list[Change]:
    """A Go module removed at one major version's path and added at another's (same base path, manifest
    and scope; one of each) is the same dependency moved: one change, named by its new path, with
    `from_name` the old one and the level `major` — not a removal beside a new direct dependency."""
    moves: dict[tuple[str, str, str], list[Change]] = {}
    for c in changes:
        if c.ecosystem == "go" and c.change in ("added", "removed") and c.name != "go" and " => " not in c.name:
            base, _ = _go_major(c.name)
            moves.setdefault((c.manifest, c.scope, base), []).append(c)
    merged: dict[int, Change | None] = {}
    for group in moves.values():
        gone = [c for c in group if c.change == "removed"]
        came = [c for c in group if c.change == "added"]
        if len(gone) != 1 or len(came) != 1 or _go_major(gone[0].name)[1] == _go_major(came[0].name)[1]:
            continue
        old, new = gone[0], came[0]
        order = _go_major(old.name)[1] - _go_major(new.name)[1]
        merged[id(new)] = dataclasses.replace(
            new, from_version=old.from_version, change="upgraded" if order < 0 else "downgraded", level="major",
            direct=new.direct or old.direct, from_name=old.name)
        merged[id(old)] = None
    if not merged:
        return changes
    return [m for c in changes if (m := merged.get(id(c), c)) is not None]
