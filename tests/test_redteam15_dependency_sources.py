"""Red team 15, the classification: files that say where dependencies come from, named as nothing of the kind.

A Meson wrap file (`subprojects/zlib.wrap`: the archive's URL and its hash), a patch-package or `pnpm patch` file
(`patches/lodash+4.17.21.patch`, `patches/express@4.18.1.patch`: applied to the installed package on every install)
and PDM's project settings under their older name (`.pdm.toml`, whose `[pypi] url` is the index) were `src` or
`other`: `gate --enable deps` allowed a wrap pointed at another server, a patch that rewrites a dependency, an index
moved. They are `deps` now; no reader reads them, so the deps policy sends every change of one to a human
(`deps.unexplained`). Look-alikes keep their class: a Debian package's patch series, a patch without a package's
name and version, a `.wrap` outside `subprojects/`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case
from test_deps_gate import Case, gate, together

from tests.test_classify_context import RULES

DEPS = {
    "subprojects/zlib.wrap": "deps.meson.wrap",
    "src/lib/subprojects/glib.wrap": "deps.meson.wrap",
    "patches/lodash+4.17.21.patch": "deps.npm.settings",
    "packages/app/patches/react-native+0.72.0.patch": "deps.npm.settings",
    "patches/@scope+pkg+1.0.0.patch": "deps.npm.settings",
    "patches/express@4.18.1.patch": "deps.npm.settings",
    ".pdm.toml": "deps.pip.settings",
}
# `patches/fix-build.patch` (a patch without a package's name and version) is deps since the sweep12 round, by the
# general rule for committed patch files (deps.patch-files), not by patch-package's rule (sweep12 classes test).
NOT_DEPS = ["debian/patches/01-fix-build.patch", "wrap/zlib.wrap",
            "subprojects/packagefiles/zlib/meson.build", "docs/pdm.toml.md"]


@each_case("path", sorted(DEPS))
def test_a_dependency_source_file_is_deps(path: str) -> None:
    decided = RULES.match(path)
    assert (decided.bucket, decided.rule) == ("deps", DEPS[path])


@each_case("path", NOT_DEPS)
def test_look_alikes_keep_their_class(path: str) -> None:
    assert RULES.match(path).bucket != "deps"


WRAP = "[wrap-file]\ndirectory = zlib-1.3\nsource_url = {url}/zlib-1.3.tar.gz\nsource_hash = {digest}\n"
ATTACKS = {
    "wrap pointed elsewhere": (
        {"subprojects/zlib.wrap": WRAP.format(url="https://zlib.net", digest="ff" * 32)},
        {"subprojects/zlib.wrap": WRAP.format(url="https://mirror.example", digest="00" * 32)}),
    "patch-package patch": ({}, {"patches/lodash+4.17.21.patch": "diff --git a/node_modules/lodash/lodash.js b/x\n"}),
    "pnpm patch": ({}, {"patches/express@4.18.1.patch": "diff --git a/index.js b/index.js\n"}),
    ".pdm.toml index": ({".pdm.toml": '[pypi]\nurl = "https://pypi.org/simple"\n'},
                        {".pdm.toml": '[pypi]\nurl = "https://pypi.mirror.example/simple"\n'}),
}


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_a_dependency_source_change_needs_a_human(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  tree: bool) -> None:
    base, head, paths = together(ATTACKS)
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert decision["outcome"] == "review", decision["reasons"]
    reviewed = {p for reason in decision["reasons"] for p in reason["paths"]}
    missed = {name: sorted(files) for name, files in paths.items() if not files <= reviewed}
    assert not missed, (missed, decision["reasons"])
