"""The settings modules a Node build, test or lint tool loads where a CI command runs it (attack 41;
taskrunners.line_files calls this).

`webpack`, `rollup -c`, `tsup`, `vite build`, `jest`, `eslint .` take no option naming their settings and still load
one: `webpack.config.js`, `rollup.config.mjs`, `tsup.config.ts`, `vite.config.ts`, `jest.config.js`, `eslint.config.js`
in the folder they run in; Jest and Next.js load Babel's (`babel.config.js`, `.babelrc.js`) where one exists, babel-jest
and Next's Babel mode being their defaults then (attack 44). Each is a JavaScript or TypeScript module the tool imports
and runs before any work (`require('child_process').execSync(...)` at its top runs in the job), so it is code CI runs as
a script it names by path is. A settings file's path rule (`other`: settings people and CI share) does not lower it
where the walk finds the tool run. The builders' operands are data (datawords.py); what they load is not.

Only the module forms are named (`.js`, `.mjs`, `.cjs`, `.ts`, `.mts`, `.cts`): a JSON or YAML settings file runs
nothing of its own. A tool that takes its root as an operand (`vite build web`, `next build site`) loads the module
in that folder too; `--config`/`-c` values stay named by the walk's words.
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.classify.pipinstalls import ANY
from gatekeeper.lazy_pattern import lazy

__all__ = ["CONFIGS", "imports_only", "line_files"]

_MODULES = ("js", "mjs", "cjs", "ts", "mts", "cts")
# each tool's settings module names, without the extension (the tools' documented default lookup)
_WEBPACK = ("webpack.config", ".webpack/webpack.config", ".webpack/webpackfile")
_VITE = ("vite.config",)
_BABEL = ("babel.config", ".babelrc")
# the support files Cypress loads before every spec where its settings name no other (attack 44)
_CYPRESS_SUPPORT = ("cypress/support/e2e", "cypress/support/component")
CONFIGS: dict[str, tuple[str, ...]] = {
    "webpack": _WEBPACK, "webpack-cli": _WEBPACK, "webpack-dev-server": _WEBPACK,
    "rollup": ("rollup.config",), "rolldown": ("rolldown.config",), "tsup": ("tsup.config",),
    "tsdown": ("tsdown.config",), "vite": _VITE, "vitest": ("vitest.config", "vitest.workspace", *_VITE),
    "unbuild": ("build.config",), "obuild": ("build.config",), "babel": _BABEL, "microbundle": _BABEL,
    # Jest transforms with babel-jest, Next.js builds with Babel, where a Babel settings module exists (attack 44)
    "jest": ("jest.config", *_BABEL), "mocha": (".mocharc",), "karma": ("karma.conf",),
    "playwright": ("playwright.config",),
    "cypress": ("cypress.config", *_CYPRESS_SUPPORT), "ava": ("ava.config",), "nyc": (".nycrc", "nyc.config"),
    "c8": (".c8rc",),
    # cileft69: eslint-plugin-local's and eslint-plugin-local-rules' modules, loaded where the settings name them
    "eslint": ("eslint.config", ".eslintrc", ".eslintplugin", ".eslintplugin/index", "eslint-local-rules",
               "eslint-local-rules/index"), "prettier": ("prettier.config", ".prettierrc"),
    "stylelint": ("stylelint.config", ".stylelintrc"), "postcss": ("postcss.config",),
    "tailwindcss": ("tailwind.config",), "next": ("next.config", *_BABEL), "nuxt": ("nuxt.config",),
    "nuxi": ("nuxt.config",), "astro": ("astro.config",), "svelte-kit": ("svelte.config", *_VITE),
    "docusaurus": ("docusaurus.config",), "gatsby": ("gatsby-config",),
    "commitlint": ("commitlint.config", ".commitlintrc"), "lint-staged": ("lint-staged.config", ".lintstagedrc"),
    "hardhat": ("hardhat.config",), "truffle": ("truffle-config", "truffle"), "storybook": (".storybook/main",),
    "knip": ("knip.config", "knip"), "electron-builder": ("electron-builder.config",),
    # review 67a: TypeDoc's settings module (its JSON settings are `other`; a module runs in the job)
    "typedoc": ("typedoc.config", "typedoc", ".config/typedoc.config", ".config/typedoc"),
}
# tools whose first operand is the folder they build (`vite build web`, `next build site`, `unbuild pkg`)
_ROOTED = frozenset({"vite", "unbuild", "next", "nuxt", "nuxi", "astro", "docusaurus"})
_NAMES = "|".join(sorted((re.escape(name) for name in CONFIGS), key=len, reverse=True))
# a tool at a command's start (a line's, after `;`, `&&`, `|`, `(`, `$(`, a YAML key or a Jenkinsfile `sh '`), behind
# a Node launcher (`npx`, `bunx`, `pnpm exec`, `yarn`, `npm exec --`) or from node_modules (`node_modules/.bin/jest`,
# `node node_modules/jest/bin/jest.js`); its words up to the command's end
_RUNS = lazy(r"(?:^|[;&|(`]|\$\(|\b(?:then|do|run|script|sh|command|entry)\b:?+[ \t]*+['\"]?+)[ \t]*+"
             r"(?:-[ \t]++)?+(?:(?:npx|bunx|pnpx|yarn|pnpm|npm|bun|node)(?:[ \t]++(?:-[\w=-]*+|exec|dlx|x|run|--))*+"
             r"[ \t]++)?+(?:\./)?+(?:node_modules/(?:\.bin/)?+(?:@[\w.-]++/)?+)?+"
             r"(" + _NAMES + r")(?=[ \t;&|)'\"/]|$)([^;&|\n]*+)")
# names other files hold (`main.js`: only in `.storybook/`, `e2e.js`: only in `cypress/support/`)
_UNSURE = ("truffle", "knip", "typedoc", ".config/typedoc", ".storybook/main", *_CYPRESS_SUPPORT)
_SETTINGS_NAME = lazy(r"(?:" + "|".join(sorted({re.escape(base.rpartition("/")[2]) for bases in CONFIGS.values()
                                                   for base in bases if base not in _UNSURE
                                                   and not base.endswith("/index")}))
                      + r")\.[cm]?+[jt]s$")
# a process a module starts (its words may then be what it runs)
_LAUNCHES = lazy(r"(?<![\w$])(?:child_process|execSync|execFileSync|execFile|spawnSync|spawn|exec|execa|execaSync|"
                 r"shelljs|zx|Command|system|popen)(?![\w$])|\$`"
                 # a package imported whose name says it runs commands (`node-cmd`, `python-shell`, `tinyexec`,
                 # `concurrently`, `npm-run-all`, `@rollup/plugin-run`: attack 42), whatever its function is called
                 r"|(?:\brequire[ \t]*+\([ \t]*+|\bfrom[ \t]*+|\bimport[ \t]*+)['\"][^'\"\n]*?"
                 r"(?i:exec|spawn|shell|cmd|concurrently|run-all|plugin-run|command|launch)[^'\"\n]*+['\"]")
# code a module loads or runs that no import line names (attack 42): a `require(`/`import(` of anything but one
# string literal (`require(path.join(__dirname, 'x'))`, `` require(`./x`) ``, `import(new URL('./x',
# import.meta.url))`), `require` handed on as a value (`['./x'].forEach(require)`, `const r = require`), a loader
# made at run time (`createRequire`, jiti, `module.constructor`, `mainModule`, `Module._load`/`_compile`), an
# evaluator (`eval(`, `new Function`, vm's `runInThisContext`/`compileFunction`/`Script`), a worker thread, a native
# binding, a computed global
_DYNAMIC = lazy(r"(?<![\w$.])(?:require|import)[ \t]*+\((?![ \t]*+(?:'[^'\n]*+'|\"[^\"\n]*+\")[ \t]*+\))"
                r"|(?<![\w$.'\"/-])require(?![\w$-]|[ \t]*+\(|\.(?:resolve|main|cache)\b"
                r"|[ \t]*+:[ \t]*+(?:false|true|(['\"])(?:readonly|writable|readable|off)\1))"
                r"|\bcreateRequire\b|\bjiti\b"
                r"|\bmodule\.constructor\b|\bmainModule\b|\b_load\b|\b_compile\b|(?<![\w$.])eval[ \t]*+\("
                r"|\bFunction[ \t]*+\(|\brunIn\w*Context\b|\bcompileFunction\b|\bnew[ \t]++(?:vm\.)?+Script\b"
                r"|\bSourceTextModule\b|\bnew[ \t]++Worker\b|\bprocess\.(?:binding|dlopen|_linkedBinding)\b"
                r"|\b(?:globalThis|global|self|window)[ \t]*+\[")
# a line that only holds a comment (`// require relative imports`), unless a template literal may hold code there
_COMMENT = lazy(r"^[ \t]*+//[^\n$]*+$", re.MULTILINE)
# ESLint's `--rulesdir DIR`: every `.js` file of DIR is a rule it loads (cileft69)
_RULESDIR = lazy(r"""--rulesdir(?:=|[ \t]++)['"]?+([^\s'"]++)""")
# What _RUNS' tool name sits between: before it a line's start, `;&|(\``, a quote, `:`, a blank or `/`; after it one of
# `[ \t;&|)'"/]` or the end. A line where no word between these edges is a tool's name runs none of them (most lines:
# one split and a set test; a test of each name's first four letters cost 37 Python steps a line: suite 41).
_TOOL_WORDS = frozenset(CONFIGS)
_WORD_EDGES = lazy(r"[\s;&|()'\"`:/]+")


def imports_only(path: str, text: str) -> bool:
    """Whether the walk reads the module at `path` for its imports only: a settings module of CONFIGS' names that
    launches no process. Its other paths are what the tool reads as data (a bundler's `entry: './src/index.ts'`, a test
    runner's `testMatch`, a linter's `ignores`); its imports (plugins, shared settings) are code it loads. Not one that
    loads or runs code no import line names (_DYNAMIC, attack 42): its words are then read as any program's."""
    folder, _, name = path.rpartition("/")
    if _SETTINGS_NAME.match(name) is None and not (name.startswith("main.") and folder.endswith(".storybook")):
        return False
    return _LAUNCHES.search(text) is None and _DYNAMIC.search(_COMMENT.sub("", text)) is None


def line_files(line: str) -> list[str]:
    """The settings modules the Node tools `line`'s commands run load (module docstring)."""
    if _TOOL_WORDS.isdisjoint(_WORD_EDGES.split(line)):
        return []
    out: list[str] = []
    for tool, rest in _RUNS.findall(line):
        folders = [""]
        if tool in _ROOTED:
            words = [word for word in re.split(r"[\s'\"]+", rest) if word and not word.startswith("-")]
            folders += [word.strip("/") for word in words[:2] if "." not in word.rpartition("/")[2]
                        and word not in ("build", "dev", "generate", "preview", "start", "serve", "export")]
        out += [posixpath.join(folder, f"{base}.{extension}") for folder in folders for base in CONFIGS[tool]
                for extension in _MODULES]
        if tool == "eslint":
            out += [f"{folder.rstrip('/')}/{ANY}.js" for folder in _RULESDIR.findall(rest)[:8]
                    if ANY not in folder and folder.strip("./")]
    return out
