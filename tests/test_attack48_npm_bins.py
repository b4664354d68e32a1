"""Attack 48: the program of a tree's own npm package CI installs, links or runs by path, and a package's `bin` CI
runs by its name (npmbins.py). `npm install -g ./tools/js && t`, `npx ./tools/x`, `pnpm dlx ./tools/x`, `cd tools/js
&& npm link && t`, and `npm ci && npx ptool` (a workspace package's bin) named no file: an edit of the program was
exit 0 on c315ac6c. Real npm is the truth of what `npx ./folder` runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from citools import LINE_DEFINITIONS, tree_runs, with_line
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import npmbins
from gatekeeper.gitobjects import TreeEntry

FILES = {"package.json": json.dumps({"name": "root", "bin": {"rootcli": "cli.js"}, "workspaces": ["packages/*"],
                                     "scripts": {"lint": "ptool check src", "build": "tsc"}}),
         "cli.js": "x", "src/index.js": "x",
         "tools/js/package.json": json.dumps({"name": "t", "bin": {"t": "cli.js"}}), "tools/js/cli.js": "x",
         "tools/js/lib/run.js": "x", "tools/js/README.md": "x",
         "tools/x/package.json": json.dumps({"name": "@scope/x", "bin": "bin/x.js"}), "tools/x/bin/x.js": "x",
         "tools/x/lib/util.mjs": "x",
         "packages/p/package.json": json.dumps({"name": "@r/p", "bin": {"ptool": "./run.js"}}),
         "packages/p/run.js": "x",
         "packages/p/src/check.ts": "x",
         "packages/q/package.json": json.dumps({"name": "q", "main": "index.js"}), "packages/q/index.js": "x"}

RUNS = [("npm install -g ./tools/js && t", "tools/js/cli.js"), ("npm i --global ./tools/js", "tools/js/lib/run.js"),
        ("npm install --location=global ./tools/js/", "tools/js/cli.js"),
        ("npm install -g file:tools/js && t", "tools/js/cli.js"), ("pnpm add -g ./tools/js && t", "tools/js/cli.js"),
        ("yarn global add file:./tools/js && t", "tools/js/cli.js"), ("bun add -g ./tools/js", "tools/js/cli.js"),
        ("npx ./tools/x", "tools/x/bin/x.js"), ("npx --yes ./tools/x --fix", "tools/x/lib/util.mjs"),
        ("pnpm dlx ./tools/x", "tools/x/bin/x.js"), ("yarn dlx ./tools/x", "tools/x/bin/x.js"),
        ("bunx ./tools/x", "tools/x/bin/x.js"), ("npm exec ./tools/x", "tools/x/bin/x.js"),
        ("npx -p ./tools/js t", "tools/js/cli.js"), ("npm exec --package=./tools/js -- t", "tools/js/cli.js"),
        ("cd tools/js && npm link && t", "tools/js/cli.js"), ("npm link ./tools/js && t", "tools/js/cli.js"),
        ("npm ci && npx ptool", "packages/p/run.js"), ("npm ci && npx ptool check", "packages/p/src/check.ts"),
        ("pnpm install && pnpm exec ptool", "packages/p/run.js"), ("yarn && yarn ptool", "packages/p/run.js"),
        ("npm ci; npm exec -- ptool", "packages/p/run.js"), ("npm ci && bunx ptool", "packages/p/run.js"),
        ("npm ci && npm run lint", "packages/p/run.js"), ("npm ci && ./node_modules/.bin/ptool", "packages/p/run.js"),
        ("npm ci && npx x", "tools/x/bin/x.js")]


@each_case(("definition", "template", "line", "target"), [(*d, *run) for d in LINE_DEFINITIONS for run in RUNS])
def test_the_tree_package_ci_runs_is_ci(definition: str, template: str, line: str, target: str) -> None:
    assert target in tree_runs(with_line(definition, template, line, FILES))


def test_an_unreadable_manifest_is_read_as_a_program_folder() -> None:
    files = {**FILES, "tools/x/package.json": "{ not json"}
    assert "tools/x/bin/x.js" in tree_runs(with_line(*LINE_DEFINITIONS[0], "npx ./tools/x", files))


LOOKALIKES = [("npm install -g ./tools/js", "packages/p/run.js"), ("npx ./tools/x", "tools/js/cli.js"),
              ("npm install ./tools/js", "tools/js/cli.js"), ("npm install -g typescript && tsc", "tools/js/cli.js"),
              ("npx tools/x", "tools/x/bin/x.js"), ("npx prettier --check .", "packages/p/run.js"),
              ("npm ci && npm test", "packages/p/run.js"), ("npm ci && npx q", "packages/q/index.js"),
              ("npm ci && npx rootcli", "cli.js"), ("npm ci && npx rootcli", "src/index.js"),
              ("npm link && rootcli", "src/index.js"), ("npm install -g . && rootcli", "src/index.js"),
              ("echo npx ./tools/x", "tools/x/bin/x.js"), ("npx ./tools/x", "tools/js/README.md"),
              ("npm ci && echo ptool", "packages/p/run.js")]


@each_case(("line", "target"), LOOKALIKES)
def test_what_runs_no_tree_program_stays_src(line: str, target: str) -> None:
    assert target not in tree_runs(with_line(*LINE_DEFINITIONS[0], line, FILES))


@each_case("line", ["npm install -g ./tools/js && t", "npx ./tools/x", "npm ci && npx ptool"])
def test_the_edit_needs_a_human(tmp_path: Path, line: str) -> None:
    base = with_line(*LINE_DEFINITIONS[0], line, FILES)
    _, first, second = two_commits(tmp_path / "repo", base, {"packages/p/run.js": "require('child_process')\n",
                                                             "tools/x/bin/x.js": "y", "tools/js/cli.js": "y"})
    code, decision = tree_gate(tmp_path / "repo", first, second, None)
    assert code == 3, decision["reasons"]


@pytest.mark.skipif(shutil.which("npx") is None, reason="needs npm")
def test_npx_of_a_folder_runs_its_bin(tmp_path: Path) -> None:
    tool = tmp_path / "tools" / "x"
    (tool / "bin").mkdir(parents=True)
    (tool / "package.json").write_text(json.dumps({"name": "@scope/x", "version": "1.0.0", "bin": "bin/x.js"}))
    (tool / "bin" / "x.js").write_text("#!/usr/bin/env node\nconsole.log('ran bin/x.js')\n")
    env = {**os.environ, "npm_config_cache": str(tmp_path / "cache"), "npm_config_offline": "true",
           "npm_config_update_notifier": "false"}
    done = subprocess.run(["npx", "--yes", "./tools/x"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert "ran bin/x.js" in done.stdout, done.stderr


@each_case("text", [repeated("npx ./tools/x ", "", ""), repeated("npm i -g ./a && t\n", "", ""),
                    repeated("ptool ", "npx ", ""), repeated("-g ", "npm install ", "./tools/js")])
def test_the_commands_are_read_in_linear_time(text: object) -> None:
    tree = {path: TreeEntry("100644", f"{index:040x}") for index, path in enumerate(FILES)}
    blobs = {tree[path].oid: data.encode() for path, data in FILES.items()}
    packages = npmbins.Packages(tree, lambda entry: blobs[entry.oid])
    assert_linear(lambda source: npmbins.named(source, "ci/build.sh", ["sub"], packages), text,  # type: ignore[arg-type]
                  budget=1.0)


def test_a_bin_the_change_declares_needs_a_human(tmp_path: Path) -> None:
    base = with_line(*LINE_DEFINITIONS[0], "npm ci && npx qtool", FILES)
    edit = {"packages/q/package.json": json.dumps({"name": "q", "bin": {"qtool": "index.js"}}),
            "packages/q/index.js": "require('child_process')\n"}
    _, first, second = two_commits(tmp_path / "repo", base, edit)
    code, decision = tree_gate(tmp_path / "repo", first, second, None)
    assert code == 3, decision["reasons"]
