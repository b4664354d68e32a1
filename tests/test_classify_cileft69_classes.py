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
from citools import BLOCK_DEFINITIONS, one_tree_runs, tree_runs, with_line
from cpucost import assert_linear, repeated

from gatekeeper.classify import ciimports, ciruns, composeruns, toolplugins
from gatekeeper.gitobjects import TreeEntry

DEFINITIONS = [*BLOCK_DEFINITIONS, ("ci/release.sh", "#!/usr/bin/env bash\nset -euo pipefail\n{line}\n")]
IDLE = json.dumps({"name": "Node.js", "image": "mcr.microsoft.com/devcontainers/javascript-node:24"}, indent=2)
RUNS = json.dumps({"name": "dev", "image": "node:24", "initializeCommand": "bash tools/prepare.sh"}, indent=2)


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
    runs = tree_runs(with_line(definition, template, "bash tools/test.sh", files))
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
    assert "tools/test.sh" in tree_runs(files)


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
    found = tree_runs(with_line(definition, template, line, PACKAGE_FILES))
    assert set(runs) <= found, (line, found)
    assert not set(not_runs) & found, (line, found)


GITHUB_SCRIPT = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                 "      - uses: actions/github-script@v7\n        with:\n          script: |\n"
                 "            const labels = require('./.github/labels.json')\n"
                 "            const run = require('./.github/scripts/label.js')\n"
                 "            await run({github, context, labels})\n")


def test_github_script_requires_json_as_data() -> None:
    found = tree_runs({".github/workflows/label.yml": GITHUB_SCRIPT, ".github/labels.json": '[{"name": "bug"}]\n',
                   ".github/scripts/label.js": "module.exports = async () => {}\n"})
    assert ".github/scripts/label.js" in found
    assert ".github/labels.json" not in found


@pytest.mark.parametrize("spec", ["./package.json", "../package.json", "./data/site.json"])  # `.JSON` runs: attack 43
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
    found = tree_runs(files)
    assert {"web/vite.config.ts", "web/plugins/banner.ts"} <= found
    assert "web/scripts/deploy.sh" not in found and "web/package.json" not in found


def test_json_specs_cost_linear() -> None:
    line = "node -p \"require('./pkg/package.json').version\"; node -e \"require('./tools/x')\"\n"
    assert_linear(lambda text: (ciimports.inline(text), ciimports.imported("a.mjs", text)), repeated(line),
                  budget=0.5)


# --- local plugins, presets, setup files a Node tool's settings name ---------------------------------------------

# (settings files, the tool line CI runs, the files the tool loads as code)
PLUGIN_SETTINGS = [
    ({"babel.config.js": "module.exports = {\n  presets: [['@babel/preset-env', {targets: 'defaults'}],\n"
                         "    ['./tools/babel-preset', {strict: true}]],\n"
                         "  plugins: ['./tools/babel-plugin-inline', '@babel/plugin-transform-runtime'],\n}\n"},
     "npx babel src -d lib", ["tools/babel-preset/index.js", "tools/babel-plugin-inline.js"]),
    ({".babelrc": json.dumps({"presets": ["@babel/preset-env", ["./tools/babel-preset", {"strict": True}]],
                              "env": {"test": {"plugins": ["./tools/babel-plugin-inline"]}}}, indent=2)},
     "npx babel src -d lib", ["tools/babel-preset/index.js", "tools/babel-plugin-inline.js"]),
    ({"babel.config.json": json.dumps({"plugins": [["./tools/babel-plugin-inline.js", {}]]})},
     "npx jest", ["tools/babel-plugin-inline.js"]),
    ({"package.json": json.dumps({"scripts": {"test": "jest"}, "babel": {"plugins": ["./tools/babel-plugin-inline"]}},
                                 indent=2)},
     "npm test", ["tools/babel-plugin-inline.js"]),
    ({"package.json": json.dumps({"scripts": {"test": "jest"}, "jest": {
        "transform": {"^.+\\.svg$": "<rootDir>/tools/svg-transform.js"},
        "setupFiles": ["<rootDir>/tools/jest-setup.js"],
        "globalSetup": "./tools/global-setup.js", "testEnvironment": "./tools/env.js"}}, indent=2)},
     "npm test", ["tools/svg-transform.js", "tools/jest-setup.js", "tools/global-setup.js", "tools/env.js"]),
    ({"jest.config.json": json.dumps({"setupFilesAfterEnv": ["<rootDir>/tools/jest-setup.js"],
                                      "reporters": ["default", "./tools/reporter.js"]}),
      "package.json": json.dumps({"scripts": {"test": "jest"}})},
     "npm test", ["tools/jest-setup.js", "tools/reporter.js"]),
    ({"jest.config.js": "module.exports = {\n  globalSetup: '<rootDir>/tools/global-setup.js',\n"
                        "  transform: { '^.+\\\\.tsx?$': ['./tools/ts-transform.js', {}] },\n"
                        "  testMatch: ['<rootDir>/src/**/*.test.js'],\n}\n"},
     "npx jest --ci", ["tools/global-setup.js", "tools/ts-transform.js"]),
    ({".mocharc.yml": "require:\n  - ./tools/mocha-setup.js\n  - ts-node/register\nspec: test/**/*.spec.js\n",
      "package.json": json.dumps({"scripts": {"test": "mocha"}})},
     "npm test", ["tools/mocha-setup.js"]),
    ({".mocharc.json": json.dumps({"require": "./tools/mocha-setup.js", "spec": ["test/**/*.spec.js"]}),
      "package.json": json.dumps({"scripts": {"test": "mocha"}})},
     "npm test", ["tools/mocha-setup.js"]),
    ({".mocharc.js": "module.exports = { require: ['./tools/mocha-setup.js'], spec: 'test/**/*.spec.js' }\n"},
     "npx mocha", ["tools/mocha-setup.js"]),
]
PLUGIN_FILES = {"tools/babel-preset/index.js": "module.exports = () => ({})\n",
                "tools/babel-plugin-inline.js": "module.exports = () => ({visitor: {}})\n",
                "tools/svg-transform.js": "module.exports = {process: () => ({code: ''})}\n",
                "tools/jest-setup.js": "require('child_process').execSync('id')\n",
                "tools/global-setup.js": "module.exports = async () => {}\n",
                "tools/env.js": "module.exports = class Env {}\n", "tools/reporter.js": "module.exports = class R {}\n",
                "tools/ts-transform.js": "module.exports = {}\n", "tools/mocha-setup.js": "globalThis.x = 1\n",
                "src/a.test.js": "test('a', () => {})\n", "test/a.spec.js": "it('a', () => {})\n",
                "src/index.js": "module.exports = 1\n"}


@pytest.mark.parametrize(("settings", "line", "loaded"), PLUGIN_SETTINGS)
@pytest.mark.parametrize(("definition", "template"), DEFINITIONS)
def test_a_tool_settings_local_code_is_run(definition: str, template: str, settings: dict[str, str], line: str,
                                           loaded: list[str]) -> None:
    found = tree_runs(with_line(definition, template, line, {**PLUGIN_FILES, **settings}))
    assert set(loaded) <= found, (settings, found)
    # the tool's data stays data: test files it matches, the product it builds
    assert not {"src/a.test.js", "test/a.spec.js", "src/index.js"} & found


PLUGIN_LOOKALIKES = [
    # a package name, a URL, a comment's path, an `ignore`/`only` path, a test pattern, a JSON settings file no tool
    # CI runs reads
    ({"babel.config.js": "module.exports = {\n  // plugins: ['./tools/old-plugin'] was removed\n"
                         "  plugins: ['@babel/plugin-transform-runtime', 'babel-plugin-macros'],\n"
                         "  ignore: ['./tools/fixtures'],\n}\n"}, "npx babel src -d lib"),
    ({".mocharc.yml": "spec: ./tools/mocha-setup.js\nreporter: spec\n",
      "package.json": json.dumps({"scripts": {"test": "mocha"}})}, "npm test"),
    ({".babelrc": json.dumps({"plugins": ["./tools/babel-plugin-inline"]})}, "echo npx babel src"),
    ({"package.json": json.dumps({"scripts": {"build": "tsc"}, "description": "./tools/babel-plugin-inline",
                                  "files": ["./tools/reporter.js"]})}, "npm run build"),
]


@pytest.mark.parametrize(("settings", "line"), PLUGIN_LOOKALIKES)
def test_a_tool_settings_lookalikes_load_nothing(settings: dict[str, str], line: str) -> None:
    found = tree_runs(with_line(*BLOCK_DEFINITIONS[0], line, {**PLUGIN_FILES, **settings}))
    assert not {"tools/old-plugin.js", "tools/babel-plugin-inline.js", "tools/reporter.js", "tools/mocha-setup.js",
                "tools/fixtures/index.js"} & found, found


def test_tool_settings_bounds_fail_closed() -> None:
    """Past MAX_KEYS keys, every relative string of the settings is taken; a JSON nested past the depth read too."""
    keys = "".join("  reporters: ['default'],\n" for _ in range(toolplugins.MAX_KEYS + 1))
    text = f"module.exports = {{\n{keys}  testMatch: ['./tools/late.js'],\n}}\n"
    assert "tools/late.js" in toolplugins.loaded("jest.config.js", text)
    deep: object = ["./tools/deep.js"]
    for _ in range(20):
        deep = {"x": deep}
    assert "tools/deep.js" in toolplugins.loaded(".babelrc", json.dumps({"plugins": deep}))
    assert toolplugins.loaded("src/app.js", "module.exports = {plugins: ['./x']}\n") == []  # not a settings file


@pytest.mark.parametrize("unit", [
    "plugins: ['./a', ['./b', {x: 1}]],\n",  # the common shape
    "/* presets: [ './c'\n",  # unclosed block comments
    "require: [" + "'./d', " * 8 + "\n",  # an unclosed bracket
    "transform:\n  - ./e\n",  # YAML lists
])
def test_tool_settings_cost_linear(unit: str) -> None:
    def read(text: str) -> object:
        return toolplugins.loaded("jest.config.js", text), toolplugins.loaded(".babelrc", text)
    assert_linear(read, repeated(unit), budget=0.75)


# --- the run settings `dotnet test` is handed ----------------------------------------------------------------------

RUNSETTINGS = ('<?xml version="1.0" encoding="utf-8"?>\n<RunSettings>\n  <RunConfiguration>\n'
               '    <TestAdaptersPaths>tools/adapters</TestAdaptersPaths>\n  </RunConfiguration>\n</RunSettings>\n')


@pytest.mark.parametrize(("line", "named"), [
    ("dotnet test --settings tests/ci.runsettings", True),
    ("dotnet test Acme.sln -c Release -s tests/ci.runsettings --no-build", True),
    ("dotnet test --settings=tests/ci.runsettings --logger trx", True),
    ("dotnet test --no-restore --settings \"tests/ci.runsettings\"", True),
    ("dotnet build --settings tests/ci.runsettings", False),  # no test run
    ("dotnet test --logger trx", False),
])
@pytest.mark.parametrize(("definition", "template"), DEFINITIONS)
def test_dotnet_test_settings_are_ci(definition: str, template: str, line: str, named: bool) -> None:
    found = tree_runs(with_line(definition, template, line, {"tests/ci.runsettings": RUNSETTINGS,
                                                          "src/Acme/Program.cs": "class P {}\n"}))
    assert ("tests/ci.runsettings" in found) is named, found
    assert "src/Acme/Program.cs" not in found


# --- what a Compose service runs of its own where CI brings it up ------------------------------------------------

COMPOSE = """services:
  app:
    image: python:3.12
    volumes: [".:/app"]
    working_dir: /app
    command: ["bash", "/app/ci/integration.sh"]
  worker:
    image: python:3.12
    volumes:
      - type: bind
        source: ./svc
        target: /srv
    entrypoint: /srv/entry.sh
    command: --verbose
  db:
    image: postgres:16
    command: ["bash", "/app/ci/nope.sh"]
"""
COMPOSE_FILES = {"compose.yaml": COMPOSE, "ci/integration.sh": "#!/bin/sh\npytest\n", "svc/entry.sh": "#!/bin/sh\n",
                 "ci/nope.sh": "#!/bin/sh\n", "ci/other.sh": "#!/bin/sh\n"}
SERVICE_RUNS = [
    ("docker compose up -d app", {"ci/integration.sh"}),
    ("docker compose up --abort-on-container-exit --exit-code-from app", {"ci/integration.sh", "svc/entry.sh"}),
    ("docker-compose up", {"ci/integration.sh", "svc/entry.sh"}),
    ("docker compose run --rm worker", {"svc/entry.sh"}),
    ("docker compose run --rm app", {"ci/integration.sh"}),
    ("podman-compose up -d worker", {"svc/entry.sh"}),
    ("docker compose -f compose.yaml up app worker", {"ci/integration.sh", "svc/entry.sh"}),
]
SERVICE_LOOKALIKES = ["docker compose up -d db", "docker compose build app", "docker compose pull",
                      "echo docker compose up app", "docker compose logs app", "docker compose run --rm app true"]


@pytest.mark.parametrize(("line", "runs"), SERVICE_RUNS)
@pytest.mark.parametrize(("definition", "template"), DEFINITIONS)
def test_a_service_own_command_runs_where_ci_brings_it_up(definition: str, template: str, line: str,
                                                          runs: set[str]) -> None:
    found = tree_runs(with_line(definition, template, line, COMPOSE_FILES))
    assert runs <= found, (line, found)
    assert "ci/nope.sh" not in found and "ci/other.sh" not in found


@pytest.mark.parametrize("line", SERVICE_LOOKALIKES)
def test_a_service_own_command_lookalikes(line: str) -> None:
    found = tree_runs(with_line(*BLOCK_DEFINITIONS[0], line, COMPOSE_FILES))
    assert not {"ci/integration.sh", "svc/entry.sh", "ci/nope.sh"} & found, (line, found)


MERGED_FILES = {  # attack 42's merged Compose files and `extends:` with cileft69's own commands (the merge of both)
    "compose.yaml": "services:\n  base:\n    image: node:22\n    volumes: ['.:/app']\n"
                    "    command: ['bash', '/app/ci/base.sh']\n  app:\n    extends: base\n"
                    "  web:\n    extends: {service: base}\n    command: bash /app/ci/web.sh\n  dbonly:\n"
                    "    image: postgres:16\n    working_dir: /data\n    command: ['bash', '/app/ci/nope.sh']\n",
    "compose.override.yaml": "services:\n  worker:\n    image: node:22\n    volumes: ['./svc:/srv']\n"
                             "    entrypoint: /srv/entry.sh\n",
    "ci/more.yaml": "services:\n  app:\n    command: ['bash', '/app/ci/more.sh']\n",
    "ci/base.sh": "#!/bin/sh\n", "ci/web.sh": "#!/bin/sh\n", "ci/more.sh": "#!/bin/sh\n", "ci/nope.sh": "#!/bin/sh\n",
    "svc/entry.sh": "#!/bin/sh\n"}
MERGED_RUNS = [
    ("docker compose up app", {"ci/base.sh"}),  # a base's command where the service sets none
    ("docker compose up web", {"ci/web.sh"}),  # the service's own command over its base's
    ("docker compose up worker", {"svc/entry.sh"}),  # the default override file's service
    ("docker compose run --rm app", {"ci/base.sh"}),
    ("docker compose -f compose.yaml -f ci/more.yaml up app", {"ci/more.sh"}),  # a later -f file's command wins
]


@pytest.mark.parametrize(("line", "runs"), MERGED_RUNS)
def test_a_service_own_command_through_merged_files_and_extends(line: str, runs: set[str]) -> None:
    found = tree_runs(with_line(*BLOCK_DEFINITIONS[0], line, MERGED_FILES))
    assert runs <= found, (line, found)
    assert "ci/nope.sh" not in found, (line, found)  # a service without a checkout mount runs its image's files


def test_compose_up_cost_linear_and_bounded() -> None:
    tree = {"compose.yaml": TreeEntry("100644", "1" * 40)}

    def read(text: str) -> str:
        return composeruns.localized(text, tree, lambda entry: COMPOSE.encode())
    unit = "docker compose up -d app worker --exit-code-from app\n"
    assert_linear(read, repeated(unit), budget=0.75)
    assert read(unit * 1024).count("# bash ./ci/integration.sh") == composeruns.MAX_LINES


# --- ESLint's local rules; the env.py Alembic runs -----------------------------------------------------------------

ESLINT_FILES = {"tools/eslint-rules/no-foo.js": "module.exports = {create: () => ({})}\n",
                "eslint-local-rules.js": "module.exports = {}\n", ".eslintplugin/index.js": "module.exports = {}\n",
                "src/index.js": "module.exports = 1\n", "tools/eslint-rules/README.md": "rules\n"}


@pytest.mark.parametrize(("line", "runs"), [
    ("npx eslint --rulesdir tools/eslint-rules src", {"tools/eslint-rules/no-foo.js"}),
    ("eslint --rulesdir=tools/eslint-rules --ext .js .", {"tools/eslint-rules/no-foo.js"}),
    ("npx eslint .", {"eslint-local-rules.js", ".eslintplugin/index.js"}),
])
@pytest.mark.parametrize(("definition", "template"), DEFINITIONS)
def test_eslint_local_rules_are_run(definition: str, template: str, line: str, runs: set[str]) -> None:
    found = tree_runs(with_line(definition, template, line, ESLINT_FILES))
    assert runs <= found, (line, found)
    assert "src/index.js" not in found and "tools/eslint-rules/README.md" not in found


ALEMBIC_FILES = {"alembic.ini": "[alembic]\nscript_location = %(here)s/migrations\nsqlalchemy.url = sqlite://\n",
                 "migrations/env.py": "from alembic import context\ncontext.configure()\n",
                 "migrations/versions/001_init.py": "def upgrade():\n    pass\n",
                 "db/alembic.ini": "[alembic]\nscript_location = schema\n",
                 "db/schema/env.py": "import os\n", "app/models.py": "x = 1\n"}


@pytest.mark.parametrize(("line", "runs"), [
    ("alembic upgrade head", {"alembic.ini", "migrations/env.py"}),
    ("poetry run alembic -c alembic.ini upgrade head", {"alembic.ini", "migrations/env.py"}),
    ("alembic --config db/alembic.ini upgrade heads", {"db/alembic.ini", "db/schema/env.py"}),
    ("cd db && alembic upgrade head", {"db/alembic.ini", "db/schema/env.py"}),
    ("python -m alembic check", {"alembic.ini", "migrations/env.py"}),
])
@pytest.mark.parametrize(("definition", "template"), DEFINITIONS)
def test_alembic_env_runs(definition: str, template: str, line: str, runs: set[str]) -> None:
    found = tree_runs(with_line(definition, template, line, ALEMBIC_FILES))
    assert runs <= found, (line, found)
    # the migrations themselves are the product's, as a test suite a runner runs is
    assert "migrations/versions/001_init.py" not in found and "app/models.py" not in found


@pytest.mark.parametrize("line", ["pip install alembic", "echo alembic upgrade head", "alembic --help",
                                  "alembic history"])
def test_alembic_lookalikes(line: str) -> None:
    found = tree_runs(with_line(*BLOCK_DEFINITIONS[0], line, ALEMBIC_FILES))
    assert "migrations/env.py" not in found and "db/schema/env.py" not in found, (line, found)
