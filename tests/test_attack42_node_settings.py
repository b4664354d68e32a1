"""Attack 42: a Node tool's settings module is read for its imports only (attack 41's nodeconfigs.imports_only), so
code it loads or runs with no import line the reader sees was not named: `require(path.join(__dirname, 'x'))` reached
(ciimports reads it), but `` require(`./tools/x`) ``, `require(p)` of a variable, `['./x'].forEach(require)`,
`createRequire(import.meta.url)('./x')`, jiti, `import(new URL('./x', import.meta.url))`, `new Function(fs.
readFileSync(...))`, `vm.runInThisContext`, `eval`, `new Worker('./x.js')`, `require(require.resolve('./x'))`,
`process.mainModule.require`, `globalThis['ev' + 'al']`, a command run through a package whose function no launcher
list names (node-cmd's `runSync`, tinyexec's `x`, python-shell) were each the tool's data; and any `main.js` (not
only Storybook's `.storybook/main.js`) was read as a settings module. On main 1905a4b an edit of the file
the module runs exited 0 where a workflow runs `npx webpack`. Node is not installed here: each form is what Node's
documentation says loads or evaluates the file.
"""

from __future__ import annotations

from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import nodeconfigs

TOOL = "module.exports = function tool() { return 1; };\n"
END = "module.exports = { mode: 'production', entry: './src/index.js' };\n"
HIDDEN = [
    "require(`./tools/x.js`);\n" + END,
    "const p = './tools/x.js';\nrequire(p);\n" + END,
    "['./tools/x.js'].forEach(require);\n" + END,
    "['./tools/x.js'].map((m) => require(m));\n" + END,
    "const load = require;\nload('./tools/x.js');\n" + END,
    "const { createRequire } = require('module');\nconst r = createRequire(__filename);\nr('./tools/x.js');\n" + END,
    "const jiti = require('jiti')(__filename);\njiti('./tools/x.js');\n" + END,
    "module.exports = async () => { await import(new URL('./tools/x.js', import.meta.url)); return {}; };\n",
    "const fs = require('fs');\nnew Function(fs.readFileSync('./tools/x.js', 'utf8'))();\n" + END,
    "const fs = require('fs');\nconst vm = require('vm');\n"
    "vm.runInThisContext(fs.readFileSync('./tools/x.js', 'utf8'));\n"
    + END,
    "eval(require('fs').readFileSync('./tools/x.js', 'utf8'));\n" + END,
    "const { Worker } = require('worker_threads');\nnew Worker('./tools/x.js');\n" + END,
    "require(require.resolve('./tools/x.js'));\n" + END,
    "process.mainModule.require('./tools/x.js');\n" + END,
    "globalThis['ev' + 'al'](require('fs').readFileSync('./tools/x.js', 'utf8'));\n" + END,
    "const Module = require('module');\nModule._load('./tools/x.js', module);\n" + END,
    # a process started through a package whose function no launcher list names (node-cmd's runSync, tinyexec's x)
    "const cmd = require('node-cmd');\ncmd.runSync('node ./tools/x.js');\n" + END,
    "import { x } from 'tinyexec';\nawait x('node', ['./tools/x.js']);\nexport default {};\n",
    "const { PythonShell } = require('python-shell');\nPythonShell.run('./tools/x.js');\n" + END,
]
# settings modules that run nothing but their imports (real shapes: a webpack config's loaders by require.resolve,
# a Vite config's alias from import.meta.url, an ESLint config naming the no-require-imports rule): their paths stay
# the tool's data
DATA = [
    "const path = require('path');\nmodule.exports = { entry: './tools/x.js', module: { rules: [{ test: /\\.js$/, "
    "loader: require.resolve('babel-loader') }] }, output: { path: path.resolve(__dirname, 'dist') } };\n",
    "import { fileURLToPath, URL } from 'node:url';\nimport { defineConfig } from 'vite';\nexport default defineConfig("
    "{ resolve: { alias: { '@': fileURLToPath(new URL('./tools', import.meta.url)) } }, build: { lib: { entry: "
    "'./tools/x.js' } } });\n",
    "module.exports = { entry: './tools/x.js', rules: { '@typescript-eslint/no-require-imports': 'off', "
    "'@typescript-eslint/no-var-requires': 'off' } };\n",
]


@each_case("text", HIDDEN + DATA)
def test_a_settings_module_that_loads_code_unseen_is_read_whole(text: str) -> None:
    assert nodeconfigs.imports_only("webpack.config.js", text) == (text in DATA), text


@each_case(("definition", "template"), BLOCK_DEFINITIONS[:3], ids=lambda d: d if "/" in d or "." in d else "")
def test_the_file_it_runs_is_run(definition: str, template: str) -> None:
    for text in HIDDEN + DATA:
        tree = {definition: template.format(line="npx webpack --mode production"), "webpack.config.js": text,
                "tools/x.js": TOOL, "src/index.js": "console.log(1);\n"}
        runs = one_tree_runs(tree)
        assert isinstance(runs, dict)
        assert ("tools/x.js" in runs) == (text in HIDDEN), (definition, text)


def test_the_edited_file_needs_a_human(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line="npx webpack"),
            "webpack.config.js": HIDDEN[5], "tools/x.js": TOOL, "src/index.js": "console.log(1);\n"}
    _, first, second = two_commits(tmp_path, base, {"tools/x.js": TOOL + "require('child_process').execSync('id');\n"})
    code, decision = tree_gate(tmp_path, first, second)
    assert code == 3, decision["reasons"]


# Storybook's settings module is `.storybook/main.js`; a `main.js` elsewhere is a program, read whole
@each_case("path", ["scripts/main.js", "main.ts", "src/main.mjs", "packages/x/main.cjs"])
def test_a_main_module_outside_storybook_is_a_program(path: str) -> None:
    text = "const path = require('path');\nconst run = require('./run');\nrun(path.join('tools', 'x.sh'));\n"
    assert not nodeconfigs.imports_only(path, text)
    assert nodeconfigs.imports_only(".storybook/main.js", "module.exports = { stories: ['../src/**/*.mdx'] };\n")
