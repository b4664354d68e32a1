"""A Makefile's hunks from a patch: an image pair moved where the hunk does not show the recipe that runs it.

`toolfiles.image_pairs` names an image a Makefile sets by two variables (`DOCKER_IMAGE_DEVELOPER_TOOLS :=
cft/developer-tools` beside `DOCKER_TAG_VERSION_DEVELOPER_TOOLS := 1.26`, terraform-google-modules' blueprint
Makefile, which Renovate bumps) only where a `docker run` line uses both: a pair only built or pushed is the
project's own image. A patch's hunk shows the two variables but seldom the recipe far below them, so the hunk
lines alone named nothing and flagged nothing: a moved image passed as no dependency change at all. Here a pair
the hunk shows moved (either variable changed), whose run the hunk does not show, is named as shown beside a
`partial` problem (PartialEdits): the patch cannot tell a run image from the project's own, so the `deps` policy
reviews it (`deps.unreadable`); `--tree` reads the whole file and decides. A pair whose lines the hunk shows
unchanged, a tag variable without its image partner in the same hunk, and every other line read as before
(annotations, pairs whose run the hunk shows).
"""

from __future__ import annotations

from gatekeeper.deps.heldvars import unresolved
from gatekeeper.deps.hunks import CHANGED, HUNK, sides
from gatekeeper.deps.makepins import unshown_pins
from gatekeeper.deps.model import Dependency, ManifestError, PartialEdits
from gatekeeper.deps.toolfiles import parse_makefile, set_once, variable_pairs
from gatekeeper.lazy_pattern import lazy

Pair = tuple[str, str, str, str]  # image variable, image, tag variable, tag
# A variable set in a form the pair reader does not read (`override`, `define`, a target-specific value, `$(eval)`)
# whose name says image or tag: it may decide the image a recipe runs whatever the plain assignment shown says.
_ODD_SET = lazy(r"(?:\boverride\s+|\bdefine\s+|\$\(eval\s+|^[^\s:#=]+:\s+(?:export\s+)?)"
                      r"[A-Z][A-Z0-9_]*(?:IMAGE|TAG)[A-Z0-9_]*\s*(?:(?::{0,3}|[?+!])=|$)")


def _hunks(side: bytes) -> list[list[str]]:
    """One side's lines hunk by hunk, the CHANGED marks dropped (a pair never spans two hunks)."""
    out: list[list[str]] = [[]]
    for line in side.decode("utf-8", "replace").split("\n"):
        if line == HUNK:
            out.append([])
        else:
            out[-1].append(line.removeprefix(CHANGED))
    return out  # both sides have one list per hunk (an empty one where a side shows no line of it)


def _shown(side: bytes) -> dict[tuple[int, tuple[str, ...]], Pair]:
    shown = {}
    for i, lines in enumerate(_hunks(side)):
        if (odd := next((line for line in lines if _ODD_SET.search(line)), None)) is not None:
            raise ManifestError(f"an image or tag variable set by override, define, a target or eval "
                                f"({odd.strip()[:80]}): which image a recipe runs is not read")  # red team 22
        for key, pair in variable_pairs(lines).items():
            set_once(lines, (pair[0], pair[2]))  # a second assignment in sight decides too
            shown[(i, key)] = pair
    return shown


def makefile_edits(path: str, data: bytes) -> tuple[list[Dependency], list[Dependency]]:
    """(base, head) dependencies of a Makefile's hunks: what parse_makefile reads of each side's lines, and the
    image pairs that moved without their run in sight, named beside a PartialEdits."""
    raw = data.decode("utf-8", "replace").split("\n")
    old, new = sides([line for line in raw if line != "\\"])
    texts = ["\n".join(ln for h in _hunks(side) for ln in h).encode() for side in (old, new)]
    base, head = parse_makefile(path, texts[0]), parse_makefile(path, texts[1])
    was, now = _shown(old), _shown(new)
    moved: list[str] = []
    for at in dict.fromkeys([*was, *now]):
        before, after = was.get(at), now.get(at)
        if before == after:
            continue  # both lines shown unchanged: the hunk moved something else
        unseen = [(pair, found) for pair, found in ((before, base), (after, head)) if pair is not None
                  and not any(d.ecosystem == "docker" and d.name == pair[1] and d.version == pair[3] for d in found)]
        if not unseen:
            continue  # its run is in the hunk: parse_makefile named it on both sides
        for pair, found in unseen:
            found.append(Dependency("docker", pair[1], pair[3], path, True, "build"))
        shown = after or before
        assert shown is not None
        moved.append(shown[0] if shown[0] == shown[2] else f"{shown[0]}/{shown[2]}")
    if moved:
        raise PartialEdits(f"its hunks move the image set by {', '.join(moved[:3])[:160]} but do not show whether "
                           "a recipe runs it or only builds it (the project's own image)", (base, head))
    held, dropped = unresolved("Makefile", path, texts, (base, head), hunks=True)  # heldvars.py, on the hunks' lines
    if held:
        raise PartialEdits(f"its hunks {held[0].msg.split(': ', 1)[1]}", (
            [d for d in base if (d.ecosystem, d.name) not in dropped],
            [d for d in head if (d.ecosystem, d.name) not in dropped]))
    if pins := unshown_pins(raw, base, head):  # makepins.py: a commit moved, its repository out of sight
        raise PartialEdits(f"its hunks move the commit pin {', '.join(pins[:3])[:160]} but do not show the "
                           "repository it checks out", (base, head))
    return base, head
