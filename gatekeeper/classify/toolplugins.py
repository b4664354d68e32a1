"""The local code a Node tool's settings name by a string: Babel's `plugins`/`presets` (`'./tools/babel-plugin-x'`,
`[['./preset', {...}]]`), Jest's `transform`, `setupFiles`, `setupFilesAfterEnv`, `globalSetup`, `globalTeardown`,
`testEnvironment`, `reporters`, `resolver`, `runner`, ... (`<rootDir>/tools/setup.js`), Mocha's `require` (cileft69),
AVA's `require` (`ava.config.js`, package.json's `ava`: misses 7).

The tool loads each such module and runs it before any work, as it runs its settings module (nodeconfigs.py); a name
of no relative path (`@babel/preset-env`, `ts-node/register`) is a package. Read from a settings module of those tools
(`babel.config.js`, `jest.config.ts`, `.mocharc.cjs`), their JSON and YAML forms (`.babelrc`, `babel.config.json`,
`jest.config.json`, `.mocharc.yml`) and a package.json's `babel`, `jest` and `mocha` keys. The walk reads a folder's
JSON and YAML forms where it reads that folder's package.json (the package whose scripts run the tools); they are
read, not named: a settings file that runs nothing of its own stays what its path says. The other paths such files
hold are the tool's data (`testMatch`, `spec`, `ignore`, `only`).
"""

from __future__ import annotations

import json
import re

from gatekeeper.bounded import load_json
from gatekeeper.classify import ciimports
from gatekeeper.classify.taskunits import Tasks
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

__all__ = ["DATA_SETTINGS", "KEYS_ONLY", "beside", "is_settings", "loaded", "manifests"]

# the JSON and YAML settings read beside a package.json (each tool's documented names)
DATA_SETTINGS = (".babelrc", ".babelrc.json", "babel.config.json", "jest.config.json", ".mocharc.json",
                 ".mocharc.jsonc", ".mocharc.yml", ".mocharc.yaml")
_MODULE_SETTINGS = lazy(r"(?:babel\.config|\.babelrc|jest\.config|\.mocharc|ava\.config)\.[cm]?+[jt]s\Z")
# the settings modules of the test runners whose setup and reporter modules are named under _RUNNER_KEYS alone (their
# other keys' strings are data or a plugin call's arguments: Vite's `plugins: [x('./src')]`; attack 44)
_RUNNER_SETTINGS = lazy(r"(?:vitest\.config|vitest\.workspace|vite\.config|playwright\.config|cypress\.config)"
                        r"\.[cm]?+[jt]s\Z")
_RUNNER_KEYS = ("setupFiles", "globalSetup", "globalTeardown", "reporter", "reporters", "supportFile")
# the keys whose values the tools load as code
_KEYS = ("plugins", "presets", "transform", "setupFiles", "setupFilesAfterEnv", "globalSetup", "globalTeardown",
         "testEnvironment", "reporters", "resolver", "runner", "testRunner", "snapshotResolver", "testSequencer",
         "watchPlugins", "dependencyExtractor", "require", "reporter", "supportFile")
_PACKAGE_KEYS = ("babel", "jest", "mocha", "ava")  # AVA's `require` (misses 7)
# the request a package.json is read with where Babel, Jest or Mocha runs directly (`npx jest`): the tool reads its key
# there, npm runs none of the scripts (ciwalk drops what such a read names but these keys' modules; attack 44)
KEYS_ONLY = Tasks(frozenset({"\0tool-keys"}))
# Mocha's `require`: a value that is a file from the folder Mocha runs in (it or `VALUE.js` exists) is loaded as that
# file, `./` or not (lib/cli/run-helpers.js' handleRequires); a package's name names no file here (attack 44)
_BARE_KEYS = ("require", "supportFile")  # Cypress reads `supportFile` from its project's folder (attack 44)
# Vitest resolves a bare `setupFiles`/`globalSetup` path from its root too (a file that exists is loaded; attack 45)
_VITE_BARE = (*_BARE_KEYS, "setupFiles", "globalSetup")
_BARE = lazy(r"(?!\.{0,2}/)[\w@.][\w@.+-]*+(?:/[\w@.+-]++)*+/?+")
_BARE_WORD = lazy(r"[^\s'\"\[\],{}]++")
# a key in a module or YAML text, then its value: a bracketed one to its balance, else the rest of the line and the
# YAML list items below it
_KEY = lazy(r"""(?m)(?:^|[{,])[ \t]*+(?:['"]?+)(""" + "|".join(_KEYS) + r""")['"]?+[ \t]*+:[ \t]*+""")
_RUNNER_KEY = lazy(r"""(?m)(?:^|[{,])[ \t]*+(?:['"]?+)(""" + "|".join(_RUNNER_KEYS) + r""")['"]?+[ \t]*+:[ \t]*+""")
_RELATIVE = lazy(r"""(?:^|[\s'"\[,(])((?:\.{1,2}|<rootDir>)/[^\s'"\],})]++)""")
_BRACKETS = lazy(r"[\[\]{}()]")
_YAML_ITEM = lazy(r"[ \t]*+-[ \t]")
_LINE_COMMENT = lazy(r"(?m)(?<![:'\"])//[^\n]*+|^[ \t]*+#[^\n]*+")
_SPAN = 8_192  # characters of one key's value read (a settings file's lists are short)
MAX_KEYS = 64  # keys read from one file; past it every relative string of the file is taken (fail closed)


def beside(path: str, named: list[str]) -> list[str]:
    """The JSON and YAML settings (DATA_SETTINGS) read where the file at `path` runs tools: its folder's, when it is
    a package.json (the package whose scripts run them), and those of each folder where it runs Babel, Jest or Mocha
    (`named`: what it names, a settings module of theirs among them, nodeconfigs.py: `npx jest` alone)."""
    folders = [path.rpartition("/")[0]] if path.rpartition("/")[2] == "package.json" else []
    folders += [name.rpartition("/")[0] for name in named if _MODULE_SETTINGS.search(name.rpartition("/")[2])]
    return [f"{folder}/{name}" if folder else name for folder in dict.fromkeys(folders) for name in DATA_SETTINGS]


def manifests(path: str, named: list[str]) -> list[str]:
    """The package.json of each folder where the file at `path` runs Babel, Jest or Mocha (`named`: what it names, a
    settings module of theirs among them, nodeconfigs.py), whose `babel`, `jest` or `mocha` key the tool reads there
    (attack 44); not `path` itself."""
    folders = [name.rpartition("/")[0] for name in named if _MODULE_SETTINGS.search(name.rpartition("/")[2])]
    return [manifest for folder in dict.fromkeys(folders)
            if (manifest := f"{folder}/package.json" if folder else "package.json") != path]


def is_settings(path: str) -> bool:
    """Whether `path` is a Babel, Jest or Mocha settings file whose strings loaded() reads (its other words data)."""
    name = path.rpartition("/")[2]
    return name in DATA_SETTINGS or _MODULE_SETTINGS.match(name) is not None or _RUNNER_SETTINGS.match(name) is not None


def loaded(path: str, text: str) -> list[str]:
    """The paths (from the root) of the local modules the settings at `path` (a module, JSON, YAML or a package.json)
    name under a key their tool loads as code, with Node's other names for each (`./x`: `x.js`, `x/index.js`)."""
    folder, _, name = path.rpartition("/")
    if name == "package.json":
        specs = _package_specs(text)
    elif name.endswith((".json", ".jsonc")) or name == ".babelrc":
        specs = _json_specs(text)
    elif _RUNNER_SETTINGS.match(name) is not None:
        specs = _text_specs(_uncommented(text), _RUNNER_KEY, _VITE_BARE if name.startswith("vite") else _BARE_KEYS)
    elif is_settings(path):
        specs = _text_specs(_uncommented(text))
    else:
        return []
    specs = [spec.replace("<rootDir>/", "./", 1) for spec in dict.fromkeys(specs)][:ciimports.MAX_IMPORTS]
    return ciimports.node_candidates(folder, specs)


def _uncommented(text: str) -> str:
    """`text` without its `/* */` blocks (one pass: an unclosed one ends the text) and line comments."""
    parts, at = [], 0
    while (opened := text.find("/*", at)) >= 0:
        parts.append(text[at:opened])
        closed = text.find("*/", opened + 2)
        at = len(text) if closed < 0 else closed + 2
    parts.append(text[at:])
    return _LINE_COMMENT.sub("", "".join(parts))


def _package_specs(text: str) -> list[str]:
    try:
        manifest = load_json(text, "a package.json")
    except ValueError:
        return []
    except LimitError:
        return _RELATIVE.findall(text)  # past the reader's bounds: every relative string (fail closed)
    if not isinstance(manifest, dict):
        return []
    return [spec for key in _PACKAGE_KEYS for spec in _json_values(manifest.get(key), "")]


def _json_specs(text: str) -> list[str]:
    for candidate in (text, _uncommented(text)):
        try:
            settings = load_json(candidate, "a tool's settings")
            break
        except ValueError:
            continue
        except LimitError:
            return _RELATIVE.findall(text)  # past the reader's bounds: every relative string (fail closed)
    else:
        return _text_specs(_uncommented(text))  # JSON5, a trailing comma: read as a module's text
    return _json_values(settings, "")


def _json_values(value: object, under_key: str, depth: int = 0) -> list[str]:
    """The relative strings below one of _KEYS in a parsed settings value (any depth: Babel's `env.test.plugins`,
    `overrides[].presets`; Jest's `transform` map's values and `[path, options]` pairs; `under_key`: the key above,
    empty at the top), and below Mocha's `require` every bare path too (attack 44)."""
    if depth > 12:
        return _RELATIVE.findall(json.dumps(value))  # deeper: every relative string (fail closed)
    if isinstance(value, str):
        return [value] if under_key and (value.startswith(("./", "../", "<rootDir>/")) or (
            under_key in _BARE_KEYS and _BARE.fullmatch(value) is not None)) else []
    if isinstance(value, list):
        return [spec for item in value for spec in _json_values(item, under_key, depth + 1)]
    if isinstance(value, dict):
        return [spec for key, item in value.items()
                for spec in _json_values(item, under_key or (key if key in _KEYS else ""), depth + 1)]
    return []


def _text_specs(text: str, keys: re.Pattern[str] | None = None, bare: tuple[str, ...] = _BARE_KEYS) -> list[str]:
    """The relative strings in the values of _KEYS (or of `keys`' keys) in a module's or YAML text."""
    out: list[str] = []
    for count, match in enumerate((keys or _KEY).finditer(text)):
        if count >= MAX_KEYS:
            return _RELATIVE.findall(text)  # past the bound: every relative string of the text (fail closed)
        value = _value(text, match.end())
        out += _RELATIVE.findall(value)
        if match.group(1) in bare:  # Mocha loads a bare path that exists (attack 44): the value's words
            value = value if value[:1] in ("[", "{") else value.split(",", 1)[0]
            out += [word for word in _BARE_WORD.findall(value) if _BARE.fullmatch(word) is not None]
    return out


def _value(text: str, start: int) -> str:
    """The value text at `start`: to the balance of an opening bracket, else the line and the YAML list items below."""
    if text[start:start + 1] in ("[", "{"):
        depth = 0
        for bracket in _BRACKETS.finditer(text, start, start + _SPAN):
            depth += 1 if bracket[0] in "[{(" else -1
            if depth == 0:
                return text[start:bracket.end()]
        return text[start:start + _SPAN]
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    line, rest = text[start:end], []
    if not line.strip():  # a YAML list below the key
        for item in text[end + 1:end + 1 + _SPAN].split("\n"):
            if not _YAML_ITEM.match(item):
                break
            rest.append(item)
    return "\n".join([line, *rest])
