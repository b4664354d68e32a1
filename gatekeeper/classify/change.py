"""Classifying a file change: every side it touches, the most sensitive bucket wins.

Sides: the new path, the old path of a rename or copy, and where a symlink points (before
and after). A gitlink (submodule pointer) is a pinned dependency. The tags of every side are
kept, plus the tags the change itself carries (executable, symlink, submodule, binary).
"""

from __future__ import annotations

import gc
import posixpath
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from gatekeeper.classify.ruleset import RuleSet
from gatekeeper.diff.paths import HFS_IGNORED
from gatekeeper.model import SENSITIVITY, ClassifiedFile, FileChange, Match

_RANK = {bucket: rank for rank, bucket in enumerate(SENSITIVITY)}

# Built-in decisions, documented in docs/classification.md.
OUTSIDE_REPO = Match(bucket="other", rule="builtin.symlink-outside-repo")
SUBMODULE = Match(bucket="deps", rule="builtin.submodule", ecosystem="git-submodule")
# A symlink whose target the patch does not show (a binary delta, a mode change, a partial hunk)
# could point anywhere: it gets the most sensitive bucket, so the default policy sends it to a human.
UNKNOWN_TARGET = Match(bucket="ci", rule="builtin.symlink-unknown-target")

# A file name no real path can carry: "<target>/<this>" asks which rules cover everything
# below the target, for a link that points at a folder (e.g. `ci` or `.circleci`).
_CHILD_PROBE = "\0"

_PLAIN_MODES = frozenset({None, "100644"})
# A symlink or gitlink stands in for a whole folder: at `.github` it is the CI folder.
_FOLDER_MODES = frozenset({"120000", "160000"})
_SORTED: dict[frozenset[str], tuple[str, ...]] = {}  # tag sets are few: sort each once


def resolve_link(link: str, target: str) -> str | None:
    """The repository path a symlink at `link` points to, or None when it leaves the working tree."""
    if not target or target.startswith("/"):
        return None
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(link), target))
    if resolved == "." or resolved == ".." or resolved.startswith("../"):
        return None if resolved != "." else ""
    if resolved == ".git" or resolved.startswith(".git/"):
        return None  # git's own folder is not content; a link into it is as foreign as /etc
    return resolved


def classify_change(change: FileChange, rules: RuleSet) -> ClassifiedFile:
    """Classify both sides of a change and any symlink target; the more sensitive bucket wins."""
    if _is_plain(change):
        best = rules.match(change.path)
        return ClassifiedFile(change, best.bucket, best.rule, _sorted(best.tags), best.ecosystem)
    return _classify_sides(change, rules)


def classify_changes(changes: Iterable[FileChange], rules: RuleSet) -> list[ClassifiedFile]:
    """Classify every change, in order."""
    # The one-sided case is inlined: a large patch has 100,000 of them.
    match = rules.match
    out: list[ClassifiedFile] = []
    with bulk_allocation():
        for change in changes:
            if _is_plain(change):
                best = match(change.path)
                out.append(ClassifiedFile(change, best.bucket, best.rule, _sorted(best.tags), best.ecosystem))
            else:
                out.append(_classify_sides(change, rules))
    return out


@contextmanager
def bulk_allocation() -> Iterator[None]:
    """Pause the cyclic garbage collector while classifying many paths.

    Classifying allocates objects that live on (cache entries, results); with a large patch's
    changes alive too, every full collection would walk all of them again, which cost about a
    third of the time. Nothing made here forms reference cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _is_plain(change: FileChange) -> bool:
    # One side, no link, no gitlink, no binary, no mode that carries a tag.
    return (
        change.old_path is None
        and plain_spelling(change.path)
        and change.symlink_target is None
        and change.old_symlink_target is None
        and not change.binary
        and not change.submodule
        and change.new_mode in _PLAIN_MODES
        and change.old_mode in _PLAIN_MODES
    )


def _sorted(tags: frozenset[str]) -> tuple[str, ...]:
    found = _SORTED.get(tags)
    if found is None:
        found = _SORTED[tags] = tuple(sorted(tags))
    return found


def plain_spelling(path: str) -> bool:
    """True when `path` has no other spelling (`path_variants` is empty): the common, cheap case."""
    return path.isascii() and "\\" not in path and " /" not in path and "./" not in path and path[-1:] not in " ."


def path_variants(path: str) -> list[str]:
    """Other spellings of `path` that some checkout reads as the same file (empty when there are none).

    A Windows checkout reads `\\` as a folder separator and drops trailing dots and spaces of a
    name (`Jenkinsfile ` is `Jenkinsfile` on NTFS); HFS+ ignores some zero-width characters
    (`.git\u200chub` is `.github` on a Mac) and compares names in one Unicode normal form.
    """
    if plain_spelling(path):
        return []
    variant = unicodedata.normalize("NFC", HFS_IGNORED.sub("", path)).replace("\\", "/")
    variant = "/".join(part.rstrip(". ") or part for part in variant.split("/"))
    return [variant] if variant != path else []


def folded(path: str) -> str:
    """`path` as every checkout that folds names sees it: the spelling Windows and macOS read
    (path_variants: `\\` a separator, no trailing dots or spaces, no zero-width characters HFS+ ignores,
    NFC), case aside (casefold, then NFC again: a fold may decompose)."""
    variants = path_variants(path)
    return unicodedata.normalize("NFC", (variants[0] if variants else path).casefold())


def most_sensitive(matches: list[Match]) -> Match:
    """The first of the most sensitive matches (ci > iac > deps > other > src)."""
    return min(matches, key=lambda m: _RANK[m.bucket])


def _classify_sides(change: FileChange, rules: RuleSet) -> ClassifiedFile:
    best = rules.match(change.path)
    tags = set(best.tags)
    sides: list[Match] = []
    paths = [change.path]
    if change.old_path is not None and change.old_path != change.path:
        paths.append(change.old_path)
        sides.append(rules.match(change.old_path))
    for path in list(paths):
        for variant in path_variants(path):
            paths.append(variant)
            sides.append(rules.match(variant))
    if change.old_mode in _FOLDER_MODES or change.new_mode in _FOLDER_MODES:
        sides.extend(rules.match(f"{path}/{_CHILD_PROBE}") for path in paths)
    for link, target in (
        (change.path, change.symlink_target),
        (change.old_path or change.path, change.old_symlink_target),
    ):
        if target is not None:
            sides.extend(_link_sides(link, target, rules))
    if change.symlink_unknown:
        sides.append(UNKNOWN_TARGET)
    if change.submodule or "160000" in (change.old_mode, change.new_mode):
        tags.add("submodule")
        if _RANK[SUBMODULE.bucket] <= _RANK[best.bucket]:
            best = SUBMODULE  # on a tie, say what it is: a pinned commit of another repository
    for side in sides:
        tags |= side.tags
        if _RANK[side.bucket] < _RANK[best.bucket]:
            best = side
    if change.new_mode == "100755" and change.old_mode != "100755":
        tags.add("executable")
    if (
        "120000" in (change.old_mode, change.new_mode)
        or change.symlink_target is not None
        or change.old_symlink_target is not None
        or change.symlink_unknown
    ):
        tags.add("symlink")
    if change.binary or change.shows_nul:
        tags.add("binary")
    return ClassifiedFile(
        change=change, bucket=best.bucket, rule=best.rule, tags=tuple(sorted(tags)), ecosystem=best.ecosystem
    )


def _link_sides(link: str, target: str, rules: RuleSet) -> list[Match]:
    resolved = resolve_link(link, target)
    if resolved is None:
        return [OUTSIDE_REPO]
    probe = f"{resolved}/{_CHILD_PROBE}" if resolved else _CHILD_PROBE
    if not resolved:
        return [rules.match(probe)]
    return [rules.match(resolved), rules.match(probe)]
