"""Over-reads 5: a settings module loaded by the name its own folder's listing picks (issue 12, node-semver).

npm's template-oss writes the same `.eslintrc.js` into every npm package: it lists its own folder
(`readdir(__dirname)`), keeps the names that start with `.eslintrc.local.` and puts them in `extends`, so ESLint loads
`.eslintrc.local.js` (code: it runs in the lint job `npm run lint` starts). No import line names it, so it stayed
`other` (exit 0). Now a Node module CI runs that lists `__dirname` names its folder's files that start with each
`startsWith('…')` prefix it holds. Look-alikes: a prefix test with no listing of the own folder, a listing of another
folder."""

from __future__ import annotations

from citools import BLOCK_DEFINITIONS, one_tree_runs
from tables import each_case

TEMPLATE_OSS = """/* This file is automatically added by @npmcli/template-oss. Do not edit. */

'use strict'

const {{ readdirSync: readdir }} = require('fs')

const localConfigs = {listing}
  .filter((file) => file.startsWith({quote}.eslintrc.local.{quote}))
  .map((file) => `./${{file}}`)

module.exports = {{
  root: true,
  extends: [
    '@npmcli',
    ...localConfigs,
  ],
}}
"""
LISTINGS = ["readdir(__dirname)", "readdir( __dirname )", "fs.readdirSync(__dirname)", "readdirSync(__dirname)"]
PACKAGE = '{"name": "semver", "scripts": {"lint": "eslint \\"**/*.{js,cjs,ts,mjs,jsx,tsx}\\""}}\n'
LOCAL = "'use strict'\n\nmodule.exports = { overrides: [] }\n"


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    return {path for path in runs if path in files}


def _files(settings: str, local: str) -> dict[str, str]:
    definition, text = BLOCK_DEFINITIONS[0]
    return {definition: text.format(line="npm run lint"), "package.json": PACKAGE, ".eslintrc.js": settings,
            local: LOCAL, "lib/index.js": "module.exports = {}\n"}


@each_case("listing, quote, local", [
    (listing, quote, local) for listing in LISTINGS for quote in ("'", '"')
    for local in (".eslintrc.local.js", ".eslintrc.local.cjs", ".eslintrc.local.json")])
def test_the_local_settings_the_linted_settings_list_are_ci(listing: str, quote: str, local: str) -> None:
    runs = _runs(_files(TEMPLATE_OSS.format(listing=listing, quote=quote), local))
    assert ".eslintrc.js" in runs and local in runs
    assert "lib/index.js" not in runs


@each_case("settings", [
    # a prefix test on the command line's words, no listing; another folder's listing
    "module.exports = { extends: process.argv.filter((a) => a.startsWith('.eslintrc.local.')) }\n",
    "const fs = require('fs')\nmodule.exports = { extends: fs.readdirSync('docs').filter((f) => "
    "f.startsWith('.eslintrc.local.')) }\n",
])
def test_look_alikes_name_nothing(settings: str) -> None:
    assert ".eslintrc.local.js" not in _runs(_files(settings, ".eslintrc.local.js"))
