"""Review 68a: fixture installs fixtureinstalls.py did not read on 58f4e83c. An installer's own options before its
verb (`luarocks --local make`, `npm --silent install`, `yarn --cwd . add`, `R --vanilla CMD INSTALL`) hid the
command, and a fixture archive (`npm install ./test/fixtures/x.tgz`, `R CMD INSTALL tests/testthat/pkg_1.0.tar.gz`:
its install scripts and `configure` run) named nothing, or a `package.json` inside the archive's name. The archive
is named itself now (fail closed: its edit is reviewed)."""

from __future__ import annotations

from citools import tree_runs
from tables import each_case

WORKFLOW = ("name: ci\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n      - run: {command}\n")
CASES = [
    ("luarocks --local make spec/samples/x-1.0-1.rockspec", "spec/samples/x-1.0-1.rockspec"),
    ("luarocks --lua-version=5.4 build spec/samples/x-1.0-1.rockspec", "spec/samples/x-1.0-1.rockspec"),
    ("npm --silent install ./test/fixtures/x", "test/fixtures/x/package.json"),
    ("npm --no-audit i ./test/fixtures/x", "test/fixtures/x/binding.gyp"),
    ("yarn --silent add ./test/fixtures/x", "test/fixtures/x/package.json"),
    ("R --vanilla CMD INSTALL tests/testthat/pkg", "tests/testthat/pkg/configure"),
    ("R --no-echo CMD build tests/testthat/pkg", "tests/testthat/pkg/R/a.R"),
    ("npm install ./test/fixtures/x.tgz", "test/fixtures/x.tgz"),
    ("pnpm add ./test/fixtures/x-1.0.0.tgz", "test/fixtures/x-1.0.0.tgz"),
    ("npm install file:./test/fixtures/x.tar.gz", "test/fixtures/x.tar.gz"),
    ("R CMD INSTALL tests/testthat/pkg_1.0.tar.gz", "tests/testthat/pkg_1.0.tar.gz"),
    ("Rscript -e 'install.packages(\"tests/testthat/pkg_1.0.tar.gz\", repos = NULL)'",
     "tests/testthat/pkg_1.0.tar.gz"),
]


@each_case("command, source", CASES)
def test_the_fixture_an_installer_is_handed_is_read(command: str, source: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=command), source: "x\n", "README.md": "x\n"}
    assert source in tree_runs(files), command  # before: 12 of 12 missed


@each_case("command, source", [
    ("npm install ./vendor/x.tgz", "vendor/x.tgz"), ("npm --silent install -g x", "test/fixtures/x/package.json"),
    ("echo npm --silent install ./test/fixtures/x", "test/fixtures/x/package.json"),
    ("R CMD INSTALL pkg_1.0.tar.gz", "pkg_1.0.tar.gz"),
])
def test_look_alikes_name_no_fixture(command: str, source: str) -> None:
    files = {".github/workflows/ci.yml": WORKFLOW.format(command=command), source: "x\n", "README.md": "x\n"}
    assert source not in tree_runs(files), command
