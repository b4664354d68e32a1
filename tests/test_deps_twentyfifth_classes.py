"""Classes of misses the twenty-fifth blind set of bot update commits found (bench/deps_bumps_twentyfifth.tsv).

- A tool's version passed as a workflow input named after it (`aqua_version: v2.62.3` under aquaproj/aqua-installer
  and in the `with:` of reusable workflows, aquaproj/aqua: Renovate's "update dependency aquaproj/aqua to v2.62.3",
  3 commits in both modes): only a fixed list of keys (`node-version`, `go-version`, ...) was read. Now any input
  `<tool>_version` / `<tool>-version` whose tool is one the readers know by its release repository is that tool.
- An sbt definition whose value is an environment override with a default (`val scalaJSVersion =
  Option(System.getenv("SCALAJS_VERSION")).getOrElse("1.3.0")`, also split after `=`; scalameta/munit, 6 commits with
  --tree): read as no definition, so the plugin and modules using it named nothing. Now the default is its version.
- A pnpm workspace package moved onto a version the lockfile already held (novuhq/novu: an app's `webpack` from
  5.78.0 to 5.94.0 beside other apps' copies at both, 2 commits with --tree): the package list's versions stayed, so
  nothing was named. Now the importers' resolved versions are compared too.
- Hatch environments' requirements (`[tool.hatch.envs.test] extra-dependencies = ["google-generativeai==0.8.4"]`,
  marimo-team/marimo, 2 commits with --tree): read by no reader, and their edit was a `partial` "build logic".
- The benchmark's naming: Renovate names the official `node` image "Node.js" (novu's `FROM node:15.11.0`).

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import sbt
from gatekeeper.deps.hatchenvs import hatch_envs
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.deps.pnpmedges import importer_moves
from gatekeeper.deps.pypi import parse_pyproject
from gatekeeper.deps.tools import WorkflowTools
from tests.deltas import accuracy_bench as _bench
from tests.deltas import bench_change as _change
from tests.deltas import each_fast, moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


# --- 1. a tool's version as an input named after it ---------------------------------------------------------------

INSTALLER = """\
name: test
on:
  pull_request: {}
permissions: {}
jobs:
  test:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@1af3b93b6815bc44a9784bd300feb67ff0d1eeb3 # v6.0.0
        with:
          persist-credentials: false
      - uses: aquaproj/aqua-installer@96a9bc20066c5bf5e275b41019cfc165b25f4e2e # v4.0.5
        with:
          aqua_version: v2.62.2
        env:
          AQUA_GITHUB_TOKEN: ${{github.token}}
      - run: aqua i -l
"""
REUSABLE = """\
name: release
on:
  push:
    tags: [v*]
jobs:
  release:
    uses: example-org/release-workflows/.github/workflows/go.yaml@8c1ce8ea4e0cd1c3b5a1b1d3c4b0d6a0b0e0f0a1 # v7.1.0
    with:
      go-version-file: go.mod
      aqua_policy_allow: true
      aqua_version: v2.62.2
    permissions:
      contents: write
"""


def test_an_aqua_version_input_is_aquas_version_in_both_modes(tmp_path: Path) -> None:
    files = {".github/workflows/test.yaml": INSTALLER, ".github/workflows/release.yaml": REUSABLE}
    edits = {path: {"aqua_version: v2.62.2": "aqua_version: v2.62.3"} for path in files}
    tree, patch = _bumped(tmp_path, files, edits)
    for delta in (tree, patch):
        assert moves(delta) == {("tool", "aquaproj/aqua", "v2.62.2", "v2.62.3")}, delta
        assert {c.manifest for c in delta.changes} == set(files), delta
        assert not delta.problems, delta.problems


def _inputs(*lines: str) -> list[tuple[str, str]]:
    reader = WorkflowTools(".github/workflows/ci.yml")
    return [(d.name, d.version) for line in lines for d in reader.line(line)]


@each_case(("line", "found"), [
    ("          helm_version: v3.15.2", [("helm/helm", "v3.15.2")]),
    ("          goreleaser-version: '2.4.1'", [("goreleaser/goreleaser", "2.4.1")]),
    ("          golangci_lint_version: v1.62.0", [("golangci/golangci-lint", "v1.62.0")]),
    ("          node-version: 22", [("node", "22")]),  # a key of the fixed list reads as before
    ("          app_version: 1.4.0", []),  # a key naming no tool the readers know
    ("          schema-version: 2", []),
    ("          aqua_version: latest", []),  # no version
    ("          aqua_version: ${{ inputs.aqua }}", []),
    ("          aqua_versions: v2.62.3", []),  # not the key's shape
    ("          my_aqua_version_x: v2.62.3", []),
])
def test_which_inputs_name_a_tool(line: str, found: list[tuple[str, str]]) -> None:
    assert _inputs("      - uses: example/setup@v1", "        with:", line) == found


def test_a_long_key_is_read_in_linear_time() -> None:
    key = "a" + "-a" * 5000
    each_fast([(lambda: _inputs(f"          {key}-version: 1.0"), "a key of many words"),
               (lambda: _inputs(f"          {'a_' * 20000}version: 1.0"), "underscores")], 0.5)


# --- 2. an sbt definition defaulting an environment variable ------------------------------------------------------

PLUGINS = """\
val scalaJSVersion =
  Option(System.getenv("SCALAJS_VERSION")).getOrElse("1.2.0")

addSbtPlugin("com.geirsson" % "sbt-ci-release" % "1.5.3")
addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.4.2")
addSbtPlugin("org.portable-scala" % "sbt-scalajs-crossproject" % "1.0.0")
addSbtPlugin("org.scala-js" % "sbt-scalajs" % scalaJSVersion)

libraryDependencies += "com.google.cloud" % "google-cloud-storage" % "1.113.1"
"""
BUILD = """\
import sbtcrossproject.CrossPlugin.autoImport.crossProject
val customScalaJSVersion = Option(System.getenv("SCALAJS_VERSION"))
val scalaJSVersion = customScalaJSVersion.getOrElse("1.2.0")
val scalaNativeVersion = "0.4.0-M2"
def scala213 = "2.13.3"

lazy val munitJS = project
  .settings(
    libraryDependencies ++= List(
      "org.scala-js" %% "scalajs-test-interface" % scalaJSVersion,
      "org.scala-js" %% "scalajs-junit-test-runtime" % scalaJSVersion
    )
  )
"""


def test_an_environment_default_is_the_definitions_version_with_tree(tmp_path: Path) -> None:
    files = {"project/plugins.sbt": PLUGINS, "build.sbt": BUILD}
    edits = {path: {'getOrElse("1.2.0")': 'getOrElse("1.3.0")'} for path in files}
    tree, patch = _bumped(tmp_path, files, edits)
    assert moves(tree) == {("maven", f"org.scala-js:{a}", "1.2.0", "1.3.0")
                           for a in ("sbt-scalajs", "scalajs-test-interface", "scalajs-junit-test-runtime")}, tree
    assert not tree.problems, tree.problems
    # from the patch the definitions move and their uses are outside the hunks: named by their own name, reviewed
    assert ("maven", "scalaJSVersion", "1.2.0", "1.3.0") in moves(patch), patch
    assert partial(patch, "project/plugins.sbt") and partial(patch, "build.sbt"), patch.problems


@each_case(("line", "version"), [
    ('val scalaJSVersion = Option(System.getenv("SCALAJS_VERSION")).getOrElse("1.3.0")', "1.3.0"),
    ('lazy val scalaJSVersion = sys.env.getOrElse("SCALAJS_VERSION", "1.3.0")', "1.3.0"),
    ('val v: String = sys.props.get("scalajs.version").getOrElse("1.3.0") // pinned', "1.3.0"),
    ('val scalaJSVersion = customScalaJSVersion.getOrElse("1.3.0")', "1.3.0"),
    ('val scalaJSVersion = "1.3.0"', "1.3.0"),  # a plain definition, as before
])
def test_the_default_is_read(line: str, version: str) -> None:
    deps = sbt.parse_build("build.sbt", f'{line}\naddSbtPlugin("org.scala-js" % "sbt-scalajs" % scalaJSVersion)\n'
                           .replace("val v:", "val scalaJSVersion:").encode())
    assert [(d.name, d.version) for d in deps] == [("org.scala-js:sbt-scalajs", version)], deps


@each_case("line", [
    'val scalaJSVersion = Option(System.getenv("SCALAJS_VERSION")).getOrElse(fallback)',  # no literal default
    'val scalaJSVersion = Option(System.getenv("SCALAJS_VERSION")).getOrElse("1.3.0").trim',  # more after it
    'val scalaJSVersion = Option(System.getenv("SCALAJS_VERSION")).getOrElse("1.3.0"',  # unclosed
    'val scalaJSVersion = sys.env.getOrElse(name, "1.3.0")',  # the variable's name is computed
    'val scalaJSVersion = sys.env.getOrElse("SCALAJS_VERSION", "latest")',  # no version
])
def test_look_alikes_define_nothing(line: str) -> None:
    deps = sbt.parse_build("build.sbt", f'{line}\naddSbtPlugin("org.scala-js" % "sbt-scalajs" % scalaJSVersion)\n'
                           .encode())
    assert deps == [], deps


def test_a_split_definition_joins_only_an_environment_default() -> None:
    split = b'val scalaJSVersion =\n  "1.3.0"\naddSbtPlugin("org.scala-js" % "sbt-scalajs" % scalaJSVersion)\n'
    assert sbt.parse_build("project/plugins.sbt", split) == []  # a plain string under `=`: not joined, as before
    side = [("val scalaJSVersion =", False), ('  sys.env.getOrElse("SCALAJS_VERSION", "1.3.0")', True)]
    with pytest.raises(PartlyShown) as shown:
        sbt.sbt_line(side, 1)
    assert shown.value.pairs == [("scalaJSVersion", "1.3.0", "maven", "", "scalaJSVersion")]
    with pytest.raises(ManifestError):  # the same line under no definition: build code
        sbt.sbt_line([("libraryDependencies ++= Seq(", False), side[1]], 1)


def test_an_environment_default_is_read_in_linear_time() -> None:
    long_name = "a" * 100_000
    each_fast([(lambda: sbt.parse_build("build.sbt", f'val v = {"x." * 3000}getOrElse("1.0")\n'.encode()), "dots"),
               (lambda: sbt.parse_build("build.sbt", f'val v = Option(System.getenv("{long_name}"'.encode()),
                "an unclosed name")], 0.5)


# --- 3. a pnpm importer moved onto a copy already locked ----------------------------------------------------------

LOCK = """\
lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    devDependencies:
      typescript:
        specifier: 5.6.2
        version: 5.6.2

  apps/web:
    dependencies:
      body-parser:
        specifier: ^1.20.0
        version: 1.20.2
    devDependencies:
      webpack:
        specifier: 5.78.0
        version: 5.78.0(esbuild@0.23.1)

  apps/widget:
    devDependencies:
      webpack:
        specifier: 5.94.0
        version: 5.94.0(esbuild@0.18.20)
      shared:
        specifier: workspace:*
        version: link:../../libs/shared

  apps/api:
    dependencies:
      body-parser:
        specifier: 1.20.3
        version: 1.20.3

packages:

  body-parser@1.20.2:
    resolution: {integrity: sha512-aaaa}

  body-parser@1.20.3:
    resolution: {integrity: sha512-bbbb}

  esbuild@0.18.20:
    resolution: {integrity: sha512-cccc}

  esbuild@0.23.1:
    resolution: {integrity: sha512-dddd}

  typescript@5.6.2:
    resolution: {integrity: sha512-eeee}

  webpack@5.78.0:
    resolution: {integrity: sha512-ffff}

  webpack@5.94.0:
    resolution: {integrity: sha512-gggg}

snapshots:

  body-parser@1.20.2: {}

  body-parser@1.20.3: {}

  webpack@5.78.0(esbuild@0.23.1):
    dependencies:
      esbuild: 0.23.1

  webpack@5.94.0(esbuild@0.18.20):
    dependencies:
      esbuild: 0.18.20
"""
WEB_MOVED = {"""      webpack:
        specifier: 5.78.0
        version: 5.78.0(esbuild@0.23.1)""": """      webpack:
        specifier: 5.78.0
        version: 5.94.0(esbuild@0.18.20)"""}


def test_an_importer_moved_onto_a_locked_copy_is_named_with_tree(tmp_path: Path) -> None:
    tree, _ = _bumped(tmp_path, {"pnpm-lock.yaml": LOCK}, {"pnpm-lock.yaml": WEB_MOVED})
    assert moves(tree) == {("npm", "webpack", "5.78.0", "5.94.0")}, tree
    (change,) = tree.changes
    assert change.change == "upgraded" and change.direct and change.scope == "dev", change


def test_two_importers_moving_one_package_are_one_change(tmp_path: Path) -> None:
    edits = {"      body-parser:\n        specifier: ^1.20.0\n        version: 1.20.2":
             "      body-parser:\n        specifier: ^1.20.0\n        version: 1.20.3",
             "      body-parser:\n        specifier: 1.20.3\n        version: 1.20.3":
             "      body-parser:\n        specifier: 1.20.2\n        version: 1.20.2"}
    tree, _ = _bumped(tmp_path, {"pnpm-lock.yaml": LOCK}, {"pnpm-lock.yaml": edits})
    # one app up, another down: both moves are told, each once
    assert moves(tree) == {("npm", "body-parser", "1.20.2", "1.20.3"), ("npm", "body-parser", "1.20.3", "1.20.2")}


def test_what_the_package_list_already_shows_is_not_repeated() -> None:
    head = LOCK.replace("version: 5.78.0(esbuild@0.23.1)", "version: 5.94.0(esbuild@0.18.20)").encode()
    assert importer_moves("pnpm-lock.yaml", LOCK.encode(), head, {("webpack", "5.94.0")}) == []
    assert [(c.name, c.from_version, c.to_version) for c in importer_moves("pnpm-lock.yaml", LOCK.encode(), head,
                                                                             set())] == [("webpack", "5.78.0",
                                                                                          "5.94.0")]


@each_case(("old", "new"), [
    ("version: link:../../libs/shared", "version: link:../../libs/other"),  # a link: the whole-file reader's
    ("version: 5.78.0(esbuild@0.23.1)", "version: evil@5.94.0"),  # an alias: another package, not a move
    ("version: 5.78.0(esbuild@0.23.1)", "version: 5.78.0(esbuild@0.18.20)"),  # only the peers moved
])
def test_importer_look_alikes_move_nothing(old: str, new: str) -> None:
    assert importer_moves("pnpm-lock.yaml", LOCK.encode(), LOCK.replace(old, new).encode(), set()) == []


@each_case("head", [b"importers: [1, 2]\n", b"importers:\n  .: {dependencies: {a: 1.0.0\n", b"\xff\xfe",
                                  b"importers:\n  .: 3\n"])
def test_a_malformed_lockfile_adds_nothing(head: bytes) -> None:
    assert importer_moves("pnpm-lock.yaml", LOCK.encode(), head, set()) == []


# --- 4. Hatch environments ----------------------------------------------------------------------------------------

PYPROJECT = """\
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "notebook-app"
version = "0.1.0"
dependencies = ["click>=8.0.0", "jedi>=0.18.0"]

[tool.hatch.envs.default]
installer = "uv"
dependencies = [
    "pytest~=8.3.4",
]

[tool.hatch.envs.test-optional]
template = "test"
extra-dependencies = [
    "hypothesis~=6.102.1",
    # testing gen ai
    "openai>=1.55.3",
    "google-generativeai==0.8.4",
    "notebook-app @ {root:uri}/packages/app",
]

[tool.hatch.envs.test-optional.scripts]
test = "pytest{env:HATCH_TEST_ARGS:} tests/"
"""


def test_a_hatch_environments_requirement_moves_in_both_modes(tmp_path: Path) -> None:
    edits = {"pyproject.toml": {'"google-generativeai==0.8.4"': '"google-generativeai==0.8.5"'}}
    tree, patch = _bumped(tmp_path, {"pyproject.toml": PYPROJECT}, edits)
    for delta in (tree, patch):
        assert moves(delta) == {("pip", "google-generativeai", "0.8.4", "0.8.5")}, delta
        assert not delta.problems, delta
    assert tree.changes[0].scope == "dev", tree  # the patch's list reader cannot see the table: runtime, the safe side


def test_a_hatch_environments_other_settings_stay_build_logic(tmp_path: Path) -> None:
    edits = {"pyproject.toml": {'installer = "uv"': 'installer = "pip"'}}
    tree, _ = _bumped(tmp_path, {"pyproject.toml": PYPROJECT}, edits)
    assert not tree.changes and partial(tree, "pyproject.toml"), tree


def test_hatch_envs_are_read_whole() -> None:
    deps = {(d.name, d.version, d.scope) for d in parse_pyproject("pyproject.toml", PYPROJECT.encode())}
    assert {("pytest", "~=8.3.4", "dev"), ("google-generativeai", "0.8.4", "dev"),
            ("click", ">=8.0.0", "runtime")} <= deps, deps
    assert any(name == "notebook-app" for name, _, _ in deps), deps  # a context-formatted URL, by its name


@each_case("doc", [
    {"tool": {"hatch": {"envs": {"x": "not a table"}}}},
    {"tool": {"hatch": {"envs": ["x"]}}},
    {"tool": {"hatch": {"envs": {"x": {"dependencies": "pytest"}}}}},
])
def test_malformed_hatch_envs_are_refused(doc: dict[str, object]) -> None:
    with pytest.raises(ManifestError):
        hatch_envs(doc, "pyproject.toml", lambda line, path, scope: None)


def test_a_hatch_item_that_is_no_requirement_is_kept_whole() -> None:
    doc = {"tool": {"hatch": {"envs": {"docs": {"dependencies": ["{root:uri}/docs-theme", 3]}}}}}
    (dep,) = hatch_envs(doc, "pyproject.toml", lambda line, path, scope: None)
    assert (dep.name, dep.version, dep.scope) == ("{root:uri}/docs-theme", "{root:uri}/docs-theme", "dev")


# --- 5. the benchmark's naming ------------------------------------------------------------------------------------

def test_renovates_node_js_names_the_node_image() -> None:
    bench = _bench()
    assert bench._same_name("Node.js", _change("docker", "node"))
    assert bench._same_name("Node.js", _change("tool", "node"))
    assert not bench._same_name("Node.js", _change("docker", "nodered/node-red"))
    assert not bench._same_name("Node.js", _change("npm", "node"))
