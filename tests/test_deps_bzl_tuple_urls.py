"""Download URLs as a dict entry's tuple or list items, from a patch (round 59's patch misses, issue 14: rules_python's
"update coveragepy to 7.4.3" moves `_coverage_deps`' wheels, `"aarch64-apple-darwin": (\\n "https://files.
pythonhosted.org/…/coverage-7.4.3-….whl",\\n "<sha>",\\n ),`). Round 58 read such a bare URL line with `--tree` but
kept it `partial` from a patch, since a bare URL line may be a cut `http_archive`'s `urls` item. A line right below a
dict entry's `"key": (` or `"key": [` opening the hunk shows is data, no call's argument: it is read from the patch.
Look-alikes that stay `partial`: the items of a `urls = [` list (a call's argument), an `http_archive(` opening, a
hunk that does not show the line above (`-U0`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deltas import both_edited, moves, partial
from deltas import patch as patch_of
from gitrepo import edited_commits

PATH = "python/private/coverage_deps.bzl"
SHA_A, SHA_B = "a" * 64, "b" * 64
PLATFORMS = ("aarch64-apple-darwin", "aarch64-unknown-linux-gnu", "x86_64-apple-darwin", "x86_64-unknown-linux-gnu")


def _deps(version: str, pythons: int, bracket: str) -> str:
    close = {"(": ")", "[": "]"}[bracket]
    entries = []
    for py in range(pythons):
        items = "".join(
            f'        "{p}": {bracket}\n            "https://files.pythonhosted.org/packages/ab/cd/{i:040x}/'
            f'coverage-{version}-cp31{py}-cp31{py}-{p.replace("-", "_")}.whl",\n'
            f'            "{SHA_A}",\n        {close},\n'
            for i, p in enumerate(PLATFORMS))
        entries.append(f'    "cp31{py}": {{\n{items}    }},\n')
    return ('load("//python/private:version_label.bzl", "version_label")\n\n# Update with python/private/'
            'coverage_deps.bzl\n_coverage_deps = {\n' + "".join(entries) + "}\n")


@pytest.mark.parametrize(("old", "new"), [("7.4.1", "7.4.3"), ("6.5.0", "7.0.0"), ("7.2.7", "7.3.0rc1")])
@pytest.mark.parametrize("pythons", [1, 3])
@pytest.mark.parametrize("bracket", ["(", "["])
def test_wheel_urls_under_a_dict_entry_are_named_from_the_patch(tmp_path: Path, old: str, new: str, pythons: int,
                                                                bracket: str) -> None:
    before = _deps(old, pythons, bracket)
    after = before.replace(f"coverage-{old}-", f"coverage-{new}-").replace(SHA_A, SHA_B)
    tree, patch = both_edited(tmp_path, {PATH: before}, {PATH: {before: after}})
    want = {("pip", "coverage", old, new)}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


# --- look-alikes: nothing named from the patch, `partial` ---

def test_a_call_urls_list_stays_partial(tmp_path: Path) -> None:
    url = "https://files.pythonhosted.org/packages/ab/cd/ef/coverage-{v}-py3-none-any.whl"
    before = ('load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_file")\n\ndef deps():\n    http_file(\n'
              '        name = "coverage_whl",\n        sha256 = "SHA",\n        downloaded_file_path = "c.whl",\n'
              '        executable = False,\n        urls = [\n            "URL",\n        ],\n    )\n'
              ).replace("URL", url.format(v="7.4.1")).replace("SHA", SHA_A)
    _, patch = both_edited(tmp_path, {PATH: before}, {PATH: {url.format(v="7.4.1"): url.format(v="7.4.3")}})
    assert patch.changes == () and partial(patch, PATH)


def test_a_hunk_without_the_line_above_stays_partial(tmp_path: Path) -> None:
    before = _deps("7.4.1", 1, "(")
    repo, base, head = edited_commits(tmp_path / "u0", {PATH: before},
                                      {PATH: {"coverage-7.4.1-": "coverage-7.4.3-"}})
    bare = patch_of(repo, base, head, "-U0")
    assert bare.changes == () and partial(bare, PATH)
