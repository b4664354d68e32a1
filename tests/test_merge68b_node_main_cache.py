"""Merge 68b: review 68b's noderuns.mains reads a folder's package.json `main` from inside the walk's cached reading
(toolloads.loaded). It must look the file up through the recording tree (treeconsults.Consulted, review 68a's rule):
a HEAD that changes only the folder's package.json `main` has the new target read, not BASE's reading reused."""

from __future__ import annotations

import json

from tables import each_case
from test_review68a_walk_cache import WORKFLOW, two_tree_runs


def _cases() -> list[tuple[dict[str, str], str, str, str]]:
    out = []
    # the root's package.json, and one past npmbins' depth, are in no cache key: only the recording tree tells
    for folder in ("", "tools/rel", "scripts/release.v2", "a/b/c/d/e/tool"):
        starts_of = ("node .", "node ./", "npx node .", "env NODE_ENV=ci node .") if not folder else \
            (f"node {folder}", f"node ./{folder}/", f"npx node {folder}", f"cd {folder} && node .")
        at = f"{folder}/" if folder else ""
        for starts in starts_of:
            for old, new, target in (("lib/a.js", "lib/b.js", "lib/b.js"), ("./bin/a", "./bin/b", "bin/b.js"),
                                     ("lib/a.js", "dist", "dist/index.js")):
                files = {".github/workflows/ci.yml": WORKFLOW.format(command=starts),
                         f"{at}package.json": json.dumps({"name": "x", "main": old}),
                         f"{at}{target}": "console.log(1)\n", "README.md": "x\n"}
                out.append((files, f"{at}package.json", json.dumps({"name": "x", "main": new}), f"{at}{target}"))
    return out


@each_case("base, manifest, changed, target", _cases())
def test_heads_new_main_is_read_when_only_the_package_json_changed(base: dict[str, str], manifest: str, changed: str,
                                                                    target: str) -> None:
    # before (mains given reads.tree, not reads.seen): 24 of 48 missed
    assert target in two_tree_runs(base, {manifest: changed}), (manifest, changed)


@each_case("base, manifest, changed, target", _cases()[:6])
def test_the_same_main_in_both_trees_stays_read(base: dict[str, str], manifest: str, changed: str,
                                                target: str) -> None:
    base = {**base, manifest: changed}  # BASE already names the target: reusing its reading is right
    assert target in two_tree_runs(base, {"README.md": "y\n"})


def test_a_main_nothing_runs_is_not_read() -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="node tools/other"),
            "tools/rel/package.json": json.dumps({"main": "lib/a.js"}), "tools/rel/lib/b.js": "x\n"}
    assert "tools/rel/lib/b.js" not in two_tree_runs(base, {"tools/rel/package.json": json.dumps({"main": "lib/b.js"})})
