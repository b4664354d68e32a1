"""misses 10's readers on hostile input (review round 69b): deep folders, `..`, many imports, 64 KiB lines.

pyimports.ancestors built the prefix of a file's folder at every part that spells the import's first name
(`scripts/scripts/…/scripts/c.py` importing `scripts.x`): quadratic in the folder's depth, and ciimports.imported named
every base for every one of 128 modules (a 24 KiB path with 2,000 imports: 771,258 paths in 55 CPU-s). A git tree
holds such a path. Now the walk is linear and at most MAX_ANCESTORS bases are kept, the outermost and innermost
(the root's `python -m scripts.x` and the script folder's parent). The other readers held: ciimports.climbed (`..` out
of the root, 20,000 `../`), rakeloads (10,000 requires: fail wide to `*.rake`), runvars.make_text (nested, unclosed,
64 KiB `$(foreach …)`/`$(wildcard …)`), lefthookroots (`..` roots, 3,000 roots); their cases are here too.
"""

from __future__ import annotations

import pytest
from cpucost import assert_linear, repeated

from gatekeeper.classify import ciimports, lefthookroots, pyimports, rakeloads, runvars
from gatekeeper.classify.treereads import PastBound


@pytest.mark.parametrize("part", ["scripts/", "tools/", "ci/"])
def test_ancestors_of_a_deep_folder_stay_linear(part: str) -> None:
    first = part.rstrip("/")
    assert_linear(lambda folder: pyimports.ancestors(folder.rstrip("/"), f"{first}.x"), repeated(part), budget=0.25)


def test_imports_of_a_file_in_a_deep_folder_stay_linear() -> None:
    imports = "".join(f"import scripts.m{i}\n" for i in range(200))

    def read(folder: str) -> object:
        try:
            return ciimports.imported(folder + "c.py", imports)
        except PastBound:  # past PATH_MAX: the CI walk fails closed (cost 44, tests/test_cost44_path_bounds.py)
            return None

    assert_linear(read, repeated("scripts/"), budget=1.0)
    assert_linear(read, lambda size: "scripts/" * (size // 512), budget=1.0)  # under the bound: read


def test_a_deep_folder_keeps_its_outermost_and_innermost_bases() -> None:
    folder = "/".join(["scripts"] * 500)
    bases = pyimports.ancestors(folder, "scripts.x")
    assert len(bases) <= pyimports.MAX_ANCESTORS
    assert "" in bases and "/".join(["scripts"] * 499) in bases
    # look-alikes: the usual depths name every base, as before
    assert pyimports.ancestors("scripts/release", "scripts.lib") == [""]
    assert pyimports.ancestors("tools/ci/sub", "ci.helpers") == ["tools"]
    assert pyimports.ancestors("scripts/a/scripts", "scripts.x") == ["", "scripts/a"]
    assert pyimports.ancestors("src/app", "app.x") == []


@pytest.mark.parametrize("name", ["../" * 20000 + "x", "..", "../..", "/etc/x", "..x/y", "../" * 3 + "scripts/x"])
def test_climbs_out_of_the_root_name_nothing(name: str) -> None:
    assert ciimports.climbed("scripts/a", name) is None


@pytest.mark.parametrize(("read", "unit"), [
    (rakeloads.loaded, "require_relative 'tasks/t'\n"), (rakeloads.loaded, "require_relative '"),
    (runvars.make_text, "$(foreach a,"), (runvars.make_text, "$(wildcard "),
    (runvars.make_text, "$(foreach s,$(A),b $(s);)"),
    (lambda text: lefthookroots.roots("lefthook.yml", text), "  c:\n    root: r/\n    run: ./x.sh\n"),
])
def test_the_other_readers_stay_linear(read: object, unit: str) -> None:
    assert_linear(read, repeated(unit, "x:\n\t"), budget=0.5)  # type: ignore[arg-type]
