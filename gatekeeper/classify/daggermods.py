"""Dagger modules CI calls, for the CI walk (issue 12, ci recall; cileft62).

A Dagger module is CI code in a general-purpose language: `dagger call build` in a workflow runs the functions of
the module whose `dagger.json` sits in the folder it runs in (or the one `-m DIR`/`--mod DIR` names), with the job's
token and secrets. Its code is the folder the `dagger.json` names as `source` (`"source": "dagger"` in a
repository's root file), else the `dagger.json`'s own folder; the path rules know only `.dagger/`. So:

- `named(text)`: the `dagger.json` of each module a text's `dagger` commands call (`dagger call`, `dagger functions`,
  `dagger shell`, `dagger run`, any `dagger -m DIR …`; a remote module, `-m github.com/o/r/mod@v1`, or one named by a
  variable, names nothing), and `dagger.json` for the `dagger/dagger-for-github` action (with its `module:` input,
  below its `workdir:`), and the module a `DAGGER_MODULE` variable chooses (a YAML key, an assignment, `export`;
  the cileft63 round: dagger reads it when no `-m` is given; outside comment lines);
- `module_code(path, text)`: for a `dagger.json` the walk reached, the files of its module's code (`SOURCE/*.go` for
  the Go SDK, `*.py`, `*.ts`, `*.php`, `*.java`, `*.ex` for the others; an SDK by its address or one it does not
  know: code of any of these types and a few more, the safe side: attack 35) and the `dagger.json` of each local
  module it depends on (`"source": "../lib"`, or the older plain string `"../lib"`). Never the root folder's files
  (a module whose code is the whole repository: its `dagger.json` stays what the path rules say), nor a folder
  outside the checkout. Its go.mod and lock files stay `deps` (principle 3).
"""

from __future__ import annotations

import posixpath
import re

from gatekeeper.bounded import load_json
from gatekeeper.classify.pipinstalls import ANY
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

__all__ = ["MAX_DEPENDENCIES", "module_code", "named"]

MAX_DEPENDENCIES = 64  # local modules a dagger.json's dependencies name, read (the rest name nothing)
_SDK_TYPES = {"go": ("go",), "python": ("py",), "typescript": ("ts", "mts"), "php": ("php",), "java": ("java",),
              "elixir": ("ex", "exs")}
# an SDK by its address (`github.com/dagger/dagger/sdk/go@v0.9.0`) or one not listed: code of any of these (attack 35)
_ANY_SDK = (*sorted({ext for exts in _SDK_TYPES.values() for ext in exts}), "rs", "js", "mjs", "kt", "cs", "rb", "sh")
_CALL = lazy(r"(?:^|[\s;&|(`'\"])dagger[ \t]++([^\n]*)", re.MULTILINE)
_VERBS = frozenset({"call", "functions", "shell", "run", "-m", "--mod"})
_MOD = lazy(r"""(?:^|[ \t])(?:-m|--mod)(?:[ \t]++|=)["']?([^\s"';&|)`]+)""")
_ACTION_WORKDIR = lazy(r"""^[ \t]*workdir[ \t]*:[ \t]*["']?([^\s"'#]+)""", re.MULTILINE)
_ACTION_MODULE = lazy(r"""^[ \t]*module[ \t]*:[ \t]*["']?([^\s"'#]+)""", re.MULTILINE)
_HOST = lazy(r"[\w-]+(?:\.[\w-]+)+/")
_MODULE_VARIABLE = lazy(r"""^(?![ \t]*+#)[^\n]*?(?<![\w$])DAGGER_MODULE['"]?+(?:[ \t]*+=|:(?=[ \t]))[ \t]*+['"]?+"""
                        r"""([^\s"'#;&|)`]++)""", re.MULTILINE)


def named(text: str) -> list[str]:
    """The `dagger.json` files (relative to where the command runs) of the modules `text`'s dagger commands call."""
    if "dagger" not in text:
        return []
    found: list[str] = []
    for call in _CALL.finditer(text):
        words = call.group(1).split()
        if not any(word.partition("=")[0] in _VERBS for word in words):
            continue  # `dagger version`, `dagger core …`, an install line's `dagger/install.sh`
        modules = _MOD.findall(f" {call.group(1)}")
        found += [f"{module.rstrip('/')}/dagger.json" for module in modules if _local(module)] if modules \
            else ["dagger.json"]
    found += [f"{module.rstrip('/')}/dagger.json" for module in _MODULE_VARIABLE.findall(text) if _local(module)]
    if "dagger/dagger-for-github" in text:  # its `module:` below its `workdir:` (attack 35), each as given
        modules = [m.rstrip("/") for m in _ACTION_MODULE.findall(text) if _local(m)]
        found += ["dagger.json", *(f"{m}/dagger.json" for m in modules)]
        for workdir in [w.rstrip("/") for w in _ACTION_WORKDIR.findall(text)[:MAX_DEPENDENCIES] if _local(w)]:
            found += [f"{workdir}/dagger.json", *(f"{workdir}/{m}/dagger.json" for m in modules[:MAX_DEPENDENCIES])]
    return [path.removeprefix("./") for path in dict.fromkeys(found)]


def _local(ref: str) -> bool:
    """A module in this checkout: not a URL, a remote (`github.com/o/r@v1`) or a variable."""
    return bool(ref.strip("./")) and "://" not in ref and "@" not in ref and "$" not in ref \
        and _HOST.match(ref) is None


def module_code(path: str, text: str) -> list[str]:
    """Patterns, from the root, of the code of the module whose `dagger.json` is at `path` and the `dagger.json` of
    each local module it depends on (module docstring); none for what is not a dagger.json's JSON object."""
    try:
        manifest = load_json(text, path)
    except (ValueError, LimitError):
        return []
    if not isinstance(manifest, dict):
        return []
    own = path.rpartition("/")[0]
    out: list[str] = []
    sdk = manifest.get("sdk")
    sdk = sdk.get("source") if isinstance(sdk, dict) else sdk
    source = manifest.get("source", ".")
    if isinstance(source, str) and isinstance(sdk, str) and (folder := _inside(own, source)) not in (None, ""):
        out += [f"{folder}/{ANY}.{ext}" for ext in _SDK_TYPES.get(sdk.lower(), _ANY_SDK)]
    dependencies = manifest.get("dependencies")
    for dependency in dependencies[:MAX_DEPENDENCIES] if isinstance(dependencies, list) else ():
        ref = dependency.get("source") if isinstance(dependency, dict) else dependency  # or a string (attack 35)
        if isinstance(ref, str) and _local(ref) and (folder := _inside(own, ref)) is not None:
            out.append(f"{folder}/dagger.json".lstrip("/"))
    return out


def _inside(own: str, ref: str) -> str | None:
    """The folder `ref` names from the folder `own`, from the root ("" for the root); None outside the checkout or
    when it holds a wildcard."""
    folder = posixpath.normpath(posixpath.join(own, ref)) if ref not in ("", ".") else own
    if folder.startswith(("..", "/")) or any(char in folder for char in "*?[") or folder == ".":
        return None if folder != "." else ""
    return folder
