"""The fixture packages a CI line installs: their install-time code runs in the job (misses 8).

`R CMD INSTALL tests/testthat/dummypkg` sources the package's `R/` files and runs its `configure` and `src/Makevars`;
`luarocks make spec/samples/x-1.0-1.rockspec` runs the rockspec's `build_command`; `julia --project=test/pkgs/Foo -e
'using Pkg; Pkg.instantiate()'` builds the environment (its `deps/build.jl`, its path dependencies); `npm install
./test/fixtures/x` runs the folder's lifecycle scripts (its package.json, a `binding.gyp`'s `node-gyp rebuild`).
Each is the job's code as `pip install ./tests/samples/plugin`'s setup.py is (pipinstalls.installed_projects).
Also read: `R CMD build`/`check`, R's `install.packages("X", repos = NULL)`, `devtools::install`/`load_all`,
`remotes::install_local`, `pak::local_install`, Julia's `Pkg.develop(path = "X")`/`Pkg.add(path = …)`, `luarocks
build`/`install`, `pnpm add`/`yarn add` of a local folder.

A fixture archive (`npm install ./test/fixtures/x.tgz`, `R CMD INSTALL tests/testthat/pkg_1.0.tar.gz`) is named
itself, and an installer's own options may precede its verb (`luarocks --local make`; review 68a).

Only a folder below a test tree (ciimports.is_test: `tests/`, `test/`, `spec/`, …): there it is a fixture, code CI
installs only to test with. The project's own package (`R CMD INSTALL .`, `julia --project=docs`, a workspace's
`packages/x`, a `rockspecs/` manifest) is the product's or a manifest, read by the path rules.
"""

from __future__ import annotations

from gatekeeper.classify import ciimports, ciruns, gobuilds
from gatekeeper.classify.pipinstalls import ANY
from gatekeeper.lazy_pattern import lazy

__all__ = ["installed"]

_MARKERS = ("CMD", "luarocks", "julia", "npm", "pnpm", "yarn", "install", "load_all", "Pkg.")
# (the installer's own options before its verb: `luarocks --local make`, `npm --silent install`, `R --vanilla CMD`)
_HEAD = lazy(r"(?<![\w./-])(R[ \t]++(?:-[\w=.-]*+[ \t]++)*+CMD[ \t]++(?:INSTALL|build|check)"
             r"|luarocks[ \t]++(?:-[\w=.-]*+[ \t]++)*+(?:make|build|install)"
             r"|julia|(?:npm|pnpm|yarn)[ \t]++(?:-[\w=.-]*+[ \t]++)*+(?:install|i|add))(?![\w-])([^\n;&|`)]*+)")
# an R or Julia call that installs or loads a package from a folder: its first string (or `path = "…"`)
_CALL = lazy(r"(?:install\.packages|install_local|local_install|devtools::install|load_all|Pkg\.develop|Pkg\.add)"
             r"[ \t]*+\([ \t]*+(?:(?:path|pkg)[ \t]*+=[ \t]*+)?+"
             r"(?:(?:Pkg\.)?+PackageSpec\([ \t]*+path[ \t]*+=[ \t]*+)?+"
             r"(?:\\?+[\"']){1,2}+([^\"'\\\n]{1,256}+)")  # (a YAML string's doubled quote: `''x''`)
_ARCHIVES = (".tar.gz", ".tgz", ".zip", ".tar", ".tar.xz", ".tar.bz2")  # a packed fixture: named itself
_NODE = ("package.json", "binding.gyp")  # what npm runs of a folder it installs (its scripts, node-gyp's build)


def installed(text: str, definition: str, folders: list[str]) -> list[str]:
    """The patterns of the files whose install-time code the fixture packages `text`'s commands install runs:
    resolved as `definition`'s paths are (the folders its commands `cd` to)."""
    if not any(marker in text for marker in _MARKERS):
        return []
    named: list[tuple[str, str]] = []  # (the installer, the folder or file it is handed)
    for match in _HEAD.finditer(text):
        if gobuilds.quiet(text, match.start()):
            continue
        head, words = match.group(1), gobuilds.command_words(match.group(2))
        if head == "julia":
            named += [("julia", value) for flag, value in zip(words, words[1:], strict=False) if flag == "--project"]
            named += [("julia", word.partition("=")[2]) for word in words if word.startswith("--project=")]
        else:
            kind = "R" if head.startswith("R") else head.split()[0]
            named += [(kind, word) for word in words if not word.startswith("-") and "=" not in word
                      and (kind != "luarocks" or word.endswith(".rockspec"))
                      and (kind not in ("npm", "pnpm", "yarn") or word.startswith(("./", "../", "file:")))]
    named += [("call", hit) for hit in _CALL.findall(text)]
    found: list[str] = []
    for kind, word in dict.fromkeys(named):
        word = word.removeprefix("file:").strip("'\"").rstrip("/")
        for path in ciruns.resolved(word, definition, folders) if word and "$" not in word else ():
            if ciimports.is_test(f"{path}/") and path.rpartition("/")[0]:  # a fixture, below a test tree's folder
                # an archive's install scripts, `configure`, run too: the archive itself (review 68a; fail closed)
                found += [path] if kind == "luarocks" or path.lower().endswith(_ARCHIVES) \
                    else [f"{path}/{name}" for name in _NODE] if kind in ("npm", "pnpm", "yarn") else [f"{path}/{ANY}"]
    return list(dict.fromkeys(found))
