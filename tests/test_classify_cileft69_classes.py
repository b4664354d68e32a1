"""The cileft69 round: what the CI walk over-read, and what CI loads that it did not follow (issue 12).

- A task or Dev Container file that runs nothing unasked is a dead end the walk starts from and stops at; a monorepo
  holds hundreds (TanStack/table: 352 examples' `.devcontainer/devcontainer.json` naming an image), and counted
  against ciruns.MAX_FILES they closed the walk (every script `ci`). They are asked once each outside the bound.
- A JSON file a Node line requires or imports (`node -p "require('./pkg/package.json').version"`, a settings module's
  `import pkg from './package.json'`) is data Node parses: its scripts are not run (termisu, TanStack/table).
"""

from __future__ import annotations

import json

import pytest
from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear

from gatekeeper.classify import ciimports, ciruns

DEFINITIONS = [*BLOCK_DEFINITIONS, ("ci/release.sh", "#!/usr/bin/env bash\nset -euo pipefail\n{line}\n")]
IDLE = json.dumps({"name": "Node.js", "image": "mcr.microsoft.com/devcontainers/javascript-node:24"}, indent=2)
RUNS = json.dumps({"name": "dev", "image": "node:24", "initializeCommand": "bash tools/prepare.sh"}, indent=2)


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict), "the walk closed"
    return {path for path in runs if path in files}


def _with_line(definition: str, template: str, line: str, files: dict[str, str]) -> dict[str, str]:
    tree = {definition: template.format(line=line.replace("{", "{{").replace("}", "}}")), **files}
    if definition == "ci/release.sh":  # a workflow runs the script
        tree[".github/workflows/release.yml"] = BLOCK_DEFINITIONS[0][1].format(line="bash ci/release.sh")
    return tree


def _examples(count: int, text: str = IDLE) -> dict[str, str]:
    return {f"examples/e{index}/.devcontainer/devcontainer.json": text for index in range(count)}


# --- dead-end starts ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("definition", "template"), DEFINITIONS)
def test_idle_dev_containers_do_not_close_the_walk(definition: str, template: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ciruns, "MAX_FILES", 40)
    files = {"tools/test.sh": "#!/bin/sh\nnpm test\n", "tools/prepare.sh": "#!/bin/sh\nnpm ci\n",
             "src/app.ts": "export const x = 1\n", **_examples(45),
             "examples/live/.devcontainer/devcontainer.json": RUNS}
    runs = _runs(_with_line(definition, template, "bash tools/test.sh", files))
    assert "tools/test.sh" in runs
    assert "tools/prepare.sh" in runs  # a Dev Container that runs a command unasked is still followed
    assert not any(path.startswith("examples/e") for path in runs)
    assert "src/app.ts" not in runs


def test_idle_starts_past_their_own_bound_are_walked_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ciruns, "MAX_FILES", 40)
    files = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line="bash tools/test.sh"),
             "tools/test.sh": "#!/bin/sh\nnpm test\n"}
    assert isinstance(one_tree_runs({**files, **_examples(70)}), dict)  # 40 asked outside, 30 counted
    assert one_tree_runs({**files, **_examples(90)}) is False  # 40 asked outside, 50 past the bound: fail closed


def test_idle_starts_at_the_real_bound() -> None:
    """TanStack/table's shape at the real MAX_FILES: more idle Dev Containers than the bound; the walk stays open."""
    files = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line="bash tools/test.sh"),
             "tools/test.sh": "#!/bin/sh\nnpm test\n", **_examples(ciruns.MAX_FILES + 50)}
    assert "tools/test.sh" in _runs(files)


# --- JSON a Node line requires -----------------------------------------------------------------------------------

PACKAGE = json.dumps({"name": "@acme/core", "version": "1.2.0",
                      "scripts": {"dev": "bash scripts/dev.sh", "prepublishOnly": "node scripts/check.mjs"}})
PACKAGE_FILES = {"pkg/package.json": PACKAGE, "pkg/scripts/dev.sh": "#!/bin/sh\nvite\n",
                 "pkg/scripts/check.mjs": "console.log(1)\n", "tools/meta.json": '{"name": "x"}\n',
                 "tools/check.js": "console.log(2)\n", "tools/gen.json.js": "console.log(3)\n"}
# (a line, the files it must run, the files it must not)
JSON_READS = [
    ("""VERSION=$(node -p "require('./pkg/package.json').version")""", [], ["pkg/package.json", "pkg/scripts/dev.sh"]),
    ("""node -p 'require("./pkg/package.json").name'""", [], ["pkg/package.json", "pkg/scripts/dev.sh"]),
    ("""NAME=$(node -e "console.log(require('./tools/meta.json').name)")""", [], ["tools/meta.json"]),
    ("""node --print "JSON.stringify(require('./pkg/package.json').scripts)" """, [], ["pkg/package.json"]),
    ("""bun -e "console.log(require('./pkg/package.json').version)" """, [], ["pkg/package.json"]),
    # look-alikes that load code: named
    ("""node -e "require('./tools/check.js')" """, ["tools/check.js"], []),
    ("""node -e "require('./tools/check')" """, ["tools/check.js"], []),
    ("""node -e "require('./tools/gen.json.js')" """, ["tools/gen.json.js"], []),
    ("""node -p "require('./tools/gen.json')" """, ["tools/gen.json.js"], []),  # no extension of JSON's: a module
]


@pytest.mark.parametrize(("line", "runs", "not_runs"), JSON_READS)
@pytest.mark.parametrize(("definition", "template"), DEFINITIONS)
def test_a_required_json_file_is_data(definition: str, template: str, line: str, runs: list[str],
                                      not_runs: list[str]) -> None:
    found = _runs(_with_line(definition, template, line, PACKAGE_FILES))
    assert set(runs) <= found, (line, found)
    assert not set(not_runs) & found, (line, found)


GITHUB_SCRIPT = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                 "      - uses: actions/github-script@v7\n        with:\n          script: |\n"
                 "            const labels = require('./.github/labels.json')\n"
                 "            const run = require('./.github/scripts/label.js')\n"
                 "            await run({github, context, labels})\n")


def test_github_script_requires_json_as_data() -> None:
    found = _runs({".github/workflows/label.yml": GITHUB_SCRIPT, ".github/labels.json": '[{"name": "bug"}]\n',
                   ".github/scripts/label.js": "module.exports = async () => {}\n"})
    assert ".github/scripts/label.js" in found
    assert ".github/labels.json" not in found


@pytest.mark.parametrize("spec", ["./package.json", "../package.json", "./data/site.JSON"])
@pytest.mark.parametrize("config", ["vite.config.ts", "scripts/release.mjs"])
def test_an_imported_json_file_is_data(spec: str, config: str) -> None:
    """A settings module or script CI runs importing JSON (`import pkg from './package.json'`, TanStack/table's
    vite.config.ts) names no module; its other relative imports stay."""
    text = f"import pkg from '{spec}' with {{ type: 'json' }}\nimport helper from './helper.js'\n" \
           f"const data = require('{spec}')\n"
    modules = ciimports.imported(config, text)
    assert not [module for module in modules if module.lower().endswith(".json") and "helper" not in module
                and not module.endswith("/package.json")]  # a folder of that name's manifest stays (Node reads it)
    assert any(module.endswith("helper.js") for module in modules)
    assert not [name for name in ciimports.inline(text) if name.lower().endswith(".json") and "helper" not in name
                and not name.endswith("/package.json")]


def test_a_settings_module_importing_its_package_json_does_not_run_its_scripts() -> None:
    files = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line="cd web && npx vite build"),
             "web/vite.config.ts": "import { defineConfig } from 'vite'\nimport pkg from './package.json'\n"
                                   "import local from './plugins/banner'\nexport default defineConfig({})\n",
             "web/plugins/banner.ts": "export default () => ({ name: 'banner' })\n",
             "web/package.json": json.dumps({"scripts": {"deploy": "bash scripts/deploy.sh"}}),
             "web/scripts/deploy.sh": "#!/bin/sh\nrsync -a dist/ host:/srv\n"}
    found = _runs(files)
    assert {"web/vite.config.ts", "web/plugins/banner.ts"} <= found
    assert "web/scripts/deploy.sh" not in found and "web/package.json" not in found


def test_json_specs_cost_linear() -> None:
    line = "node -p \"require('./pkg/package.json').version\"; node -e \"require('./tools/x')\"\n"
    assert_linear(lambda text: (ciimports.inline(text), ciimports.imported("a.mjs", text)),
                  line * 800, line * 3200, budget=2.0)
