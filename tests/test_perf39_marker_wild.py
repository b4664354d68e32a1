"""A marker name with a `*` among its folders (`manifests/*/*.pp`) is matched with fnmatchcase's own test, compiled
once per index (perf39: MarkerIndex is built over every path of both trees). The roots it finds are compared with a
plain fnmatchcase reading of the same shapes over generated paths: hits, look-alikes and names fnmatch reads
specially (`[`, `*`, `?`, a line break, case)."""

from __future__ import annotations

import fnmatch
import itertools

import pytest

from gatekeeper.classify.contextrules import MarkerRule
from gatekeeper.classify.markers import MarkerIndex

SHAPES = ("manifests/*/*.pp", "roles/*/tasks/*.y*ml", "a?/*/b*/[mM]ain.*", "x/*/*")
FOLDERS = ("", "manifests", "manifests/x", "m/manifests/y", "manifests/x/y", "Manifests/x", "manifests/[x]",
           "roles/web/tasks", "roles/tasks", "deep/roles/a b/tasks", "ab/c/bq", "a/c/bq", "ab/c/d/bq", "x/y",
           "x/y/z", "x/*", "manifests/*")
NAMES = ("a.pp", "A.PP", "x.pp\n", ".pp", "a.ppx", "a.p", "[a].pp", "a*.pp", "main.yml", "main.yaml", "Main.c",
         "main.", "mainx", "?", "z", "xMain.c", "domain.yml")


def _reference(paths: list[str], shape: str) -> set[tuple[str, str]]:
    above, _, pattern = shape.rpartition("/")
    wanted = above.split("/")
    found = set()
    for path in paths:
        folder, _, name = path.rpartition("/")
        parts = folder.split("/")
        if fnmatch.fnmatchcase(name, pattern) and len(parts) >= len(wanted) and all(
                fnmatch.fnmatchcase(part, want) for part, want in zip(parts[-len(wanted):], wanted, strict=True)):
            found.add(("/".join(parts[:-len(wanted)]), path))
    return found


@pytest.mark.parametrize("shape", SHAPES)
def test_a_wild_marker_finds_the_roots_fnmatchcase_finds(shape: str) -> None:
    rule = MarkerRule(id="iac.marker.test", description="a test", names=(shape,), claims="all", under=())
    paths = [f"{folder}/{name}" if folder else name for folder, name in itertools.product(FOLDERS, NAMES)]
    index = MarkerIndex(paths, (rule,), paths, paths)
    found = {(root, hit.marker) for root, hits in index._roots.items() for hit in hits}
    expected = _reference(paths, shape)
    assert found == expected
    assert shape != SHAPES[0] or expected  # the shipped shape has hits here, not only look-alikes
