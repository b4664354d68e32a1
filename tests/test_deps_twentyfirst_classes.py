"""Classes of misses the twenty-first blind set of bot update commits found (bench/deps_bumps_twentyfirst.tsv):
a sha-pinned action whose version comment is a pinning tool's (sethvargo/ratchet's
`# ratchet:docker/build-push-action@v7.3.0`, open-policy-agent/conftest; mheap/pin-github-action's `# pin@v4.1.1`),
read as no version (named by the commit's claim
alone) — now the version when the comment names this action (both modes); an sbt module whose group is a definition
(`val org = "com.disneystreaming.smithy"` then `org %% "smithytranslate-proto" % smithyTranslateVersion`,
disneystreaming/smithy4s), not read, so the version definition was reported by its own name — now the module, the
group resolved to the nearest definition above the line (a build defines `org` once per block); the generated
workflow's step condition `if: matrix.scala == '2.13.8'` that scala-steward moves with the build (tpolecat/doobie,
typelevel/log4cats) — now the Scala library at that release, as the matrix's list is (scalamatrix.py); and a naming
class of the benchmark (bench/bench_deps_accuracy.py): Dependabot's widened range across a new major
(`very_good_analysis: ">=5.1.0 <7.0.0"` for "bump very_good_analysis from 5.1.0 to 6.0.0", VeryGoodOpenSource/formz).
Real-shaped files, look-alikes and malformed input."""

from __future__ import annotations

from pathlib import Path

from gatekeeper.deps import actions, facts, sbt
from gatekeeper.deps.scalamatrix import scala_versions
from tests.deltas import accuracy_bench as _bench
from tests.deltas import each_fast, moves
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

OLD_SHA, NEW_SHA = "f9f3042f7e2789586610d6e8b85c8f03e5195baf", "53b7df96c91f9c12dcc8a07bcb9ccacbed38856a"
CODEQL_SHA = "4e94bd11f71e507f7f87df81788dff88d1dacbfb"
WORKFLOW_PATH = ".github/workflows/release.yaml"
# A release workflow whose actions ratchet pinned: each `uses:` a full sha, the ref it pinned in the comment.
RATCHET = f"""\
name: release
on:
  push:
    tags: ['v*']
jobs:
  image:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # ratchet:actions/checkout@v4
      - name: Set up Buildx
        run: docker buildx create --name ctbuild --use
      - name: Build image
        uses: docker/build-push-action@{OLD_SHA} # ratchet:docker/build-push-action@v7.2.0
        with:
          context: '.'
          push: true
      - uses: github/codeql-action/upload-sarif@{CODEQL_SHA} # ratchet:github/codeql-action/upload-sarif@v3.29.5
"""


def _labels(body: str) -> dict[str, str]:
    return {d.name: d.tag for d in actions.parse_workflow(WORKFLOW_PATH, body.encode())
            if d.ecosystem == "github-actions"}


def test_a_ratchet_comment_names_the_pinned_version(tmp_path: Path) -> None:
    old, new = "# ratchet:docker/build-push-action@v7.2.0", "# ratchet:docker/build-push-action@v7.3.0"
    repo, base, head = edited_commits(tmp_path, {WORKFLOW_PATH: RATCHET},
                                      {WORKFLOW_PATH: {f"{OLD_SHA} {old}": f"{NEW_SHA} {new}"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert moves(delta) == {("github-actions", "docker/build-push-action", OLD_SHA, NEW_SHA)}, delta
        (change,) = delta.changes
        assert (change.from_tag, change.to_tag) == ("v7.2.0", "v7.3.0"), change


def test_a_ratchet_comment_of_an_action_in_a_subfolder_names_its_version() -> None:
    assert _labels(RATCHET) == {"actions/checkout": "v4", "docker/build-push-action": "v7.2.0",
                                "github/codeql-action": "v3.29.5"}
    # the workflow facts still see each as pinned by its sha
    assert {(u["name"], u["pinned"]) for u in facts._uses(RATCHET.encode())} == {
        ("actions/checkout", True), ("docker/build-push-action", True), ("github/codeql-action", True)}


PINNING_COMMENTS = {
    "# pin@v4.1.1": "v4.1.1",  # mheap/pin-github-action
    "# ratchet:DOCKER/Build-Push-Action@v7.2.0": "v7.2.0",  # GitHub's names are case-insensitive
    "# ratchet:docker/setup-buildx-action@v3.11.1": "",  # another action's ref: a line copied, no claim here
    "# ratchet:docker/build-push-action/sub@v7.2.0": "",  # an action in a subfolder is another action
    "# ratchet:exclude": "",  # ratchet told to leave the line alone: no ref
    "# ratchet:docker/build-push-action@main": "",  # a branch is no version
    "# pin@main": "",
    "# v7.2.0": "v7.2.0",  # the plain forms read as before
    "# tag=v7.2.0": "v7.2.0",
}


def test_a_pinning_tools_comment_names_only_this_actions_version() -> None:
    found = {comment: _labels(f"      - uses: docker/build-push-action@{OLD_SHA} {comment}\n")
             for comment in PINNING_COMMENTS}
    assert found == {comment: {"docker/build-push-action": label} for comment, label in PINNING_COMMENTS.items()}
    # only a full commit sha takes its version from a comment; a tag is its own version
    assert _labels("      - uses: docker/build-push-action@v7 # ratchet:docker/build-push-action@v7.2.0\n") == {
        "docker/build-push-action": ""}


DEPS_PATH = "project/Dependencies.scala"
# The shape of a build's dependency object where each library's coordinates sit in a block of their own, the group
# written once per block under the same name.
DEPENDENCIES = """\
import sbt._

object Dependencies {

  val Jsoniter = new {
    val org = "com.github.plokhotnyuk.jsoniter-scala"
    val jsoniterScalaVersion = "2.28.5"
    val core = org %% "jsoniter-scala-core" % jsoniterScalaVersion
  }

  val Smithytranslate = new {
    val org = "com.disneystreaming.smithy"
    val smithyTranslateVersion = "0.5.2"
    val proto = org %% "smithytranslate-proto" % smithyTranslateVersion
  }

  val munit = "org.scalameta" %% "munit" % "1.0.0" % Test
}
"""


def _read(body: str) -> dict[str, str]:
    return {d.name: d.version for d in sbt.parse_build(DEPS_PATH, body.encode())}


def test_a_module_whose_group_is_a_definition_is_read_with_tree(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {DEPS_PATH: DEPENDENCIES},
                                      {DEPS_PATH: {'"0.5.2"': '"0.5.3"'}})
    assert moves(_tree(repo, base, head)) == {
        ("maven", "com.disneystreaming.smithy:smithytranslate-proto", "0.5.2", "0.5.3")}


def test_a_group_definition_resolves_to_the_nearest_one_above() -> None:
    assert _read(DEPENDENCIES) == {"com.github.plokhotnyuk.jsoniter-scala:jsoniter-scala-core": "2.28.5",
                                   "com.disneystreaming.smithy:smithytranslate-proto": "0.5.2",
                                   "org.scalameta:munit": "1.0.0"}


def test_a_group_defined_below_its_use_is_read_too() -> None:
    body = 'lazy val core = org %% "core" % coreV\nval org = "io.example"\nval coreV = "1.2.3"\n'
    assert _read(body) == {"io.example:core": "1.2.3"}


NO_GROUP = [
    # a group defined in another file: the version definition is reported by its own name, as before
    'val v = "1.2.3"\nval m = org %% "core" % v\n',
    # a "group" that is a version, a path or an expression is no group id
    'val org = "1.2.3"\nval v = "1.2.3"\nval m = org %% "core" % v\n',
    'val org = "io example"\nval v = "1.2.3"\nval m = org %% "core" % v\n',
    'val org = "io"\nval v = "1.2.3"\nval m = org %% "core" % v\n',
]


def test_only_a_group_the_file_defines_as_a_group_id_names_a_module() -> None:
    defined = 'val org = "io.example"\nval v = "1.2.3"\nval m = org %% "core" % v\n'
    assert _read(defined) == {"io.example:core": "1.2.3"}
    for body in NO_GROUP:
        found = _read(body)
        assert not any(name.endswith(":core") for name in found) and found.get("v") == "1.2.3", (body, found)
    # `"x"org %% …` reads no definition glued to a string literal
    assert "io.example:core" not in _read('val org = "io.example"\nval m = "x"org %% "core" % "1.0.0"\n')


def test_a_patch_line_whose_group_is_defined_in_the_hunk_is_read(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {DEPS_PATH: DEPENDENCIES},
                                      {DEPS_PATH: {'org %% "smithytranslate-proto" % smithyTranslateVersion':
                                                   'org %% "smithytranslate-proto" % "0.5.3"'}})
    # the hunk shows the block's `val org` and the version definition the old line used
    assert moves(_patch(repo, base, head)) == {
        ("maven", "com.disneystreaming.smithy:smithytranslate-proto", "0.5.2", "0.5.3")}


CI_PATH = ".github/workflows/ci.yml"
# The shape of sbt-github-actions' generated workflow: the site is built on one Scala version of the matrix.
CI = """\
name: Continuous Integration
on:
  pull_request:
    branches: ['**']
jobs:
  build:
    name: Build and Test
    strategy:
      matrix:
        os: [ubuntu-latest]
        scala: [2.12.15, 2.13.7, 3.1.0]
        java: [adopt@1.8]
    runs-on: ${{ matrix.os }}
    steps:
      - name: Check that workflows are up to date
        run: sbt '++${{ matrix.scala }}' 'project /' githubWorkflowCheck

      - name: Check Doc Site (2.13.7 only)
        if: matrix.scala == '2.13.7'
        run: sbt '++${{ matrix.scala }}' docs/makeSite
"""


def test_a_step_condition_on_the_matrix_scala_names_the_library(tmp_path: Path) -> None:
    # the commit moves the condition alone (the matrix moved in an earlier commit): scala-steward's follow-up
    repo, base, head = edited_commits(tmp_path, {CI_PATH: CI}, {CI_PATH: {"== '2.13.7'": "== '2.13.8'"}})
    for delta in (_tree(repo, base, head), _patch(repo, base, head)):
        assert ("maven", "org.scala-lang:scala-library", "2.13.7", "2.13.8") in moves(delta), delta
        assert {c.name for c in delta.changes} == {"org.scala-lang:scala-library"}, delta
    # no action of the workflow's facts
    assert {u["name"] for u in facts._uses(CI.encode())} == set()


CONDITIONS = {
    "        if: matrix.scala == '2.13.8'": ["2.13.8"],
    "      - if: matrix.scala == '3.3.4' && matrix.os == 'ubuntu-latest'": ["3.3.4"],
    "        if: matrix.scala == '2.12.15' || matrix.scala == '2.13.8'": ["2.12.15", "2.13.8"],
    "        if: matrix.scala == '2.13.8' || matrix.scala == '2.13.8'": ["2.13.8"],
    "        if: matrix.scala == '2.13'": [],  # sbt-typelevel's binary version: no release
    "        if: matrix.scala == '2.13.x'": [],
    "        if: matrix.scalaVersion == '2.13.8'": [],  # another key
    "        if: matrix.java == '2.13.8'": [],
    "        run: echo \"matrix.scala == '2.13.8'\"": [],  # no condition
    "        name: matrix.scala == '2.13.8'": [],
    "        if: startsWith(matrix.scala, '2.13')": [],
}


def test_only_a_conditions_comparison_with_a_release_is_read() -> None:
    found = {line: [d.version for d in scala_versions(CI_PATH, line)] for line in CONDITIONS}
    assert found == CONDITIONS
    assert {d.name for d in scala_versions(CI_PATH, "if: matrix.scala == '3.3.4'")} == {"org.scala-lang:scala3-library"}


def test_long_and_hostile_condition_lines_read_fast() -> None:
    calls = [
        (lambda: scala_versions(CI_PATH, "if: " + "matrix.scala == '2.13.8' && " * 30), "many comparisons"),
        (lambda: scala_versions(CI_PATH, "if: " + "matrix.scala ==" * 5000), "a long line"),
        (lambda: sbt.parse_build(DEPS_PATH, ("a" * 3000 + " %% ").encode() * 200), "long identifiers"),
        (lambda: sbt.parse_build(DEPS_PATH, ('val org = "a.b"\n' * 5000).encode()), "many definitions"),
        (lambda: actions.parse_workflow(WORKFLOW_PATH, (f"- uses: a/b@{OLD_SHA} # ratchet:" + "a/" * 3000 + "@v1\n")
                                        .encode()), "a long ratchet path"),
    ]
    each_fast(calls, 1.0)
    many = "if: " + " && ".join(f"matrix.scala == '2.13.{i}'" for i in range(20))  # under MAX_LINE
    assert [d.version for d in scala_versions(CI_PATH, many)] == [f"2.13.{i}" for i in range(16)]  # MAX_ITEMS


WIDENED = [
    ("6.0.0", ">=5.1.0 <7.0.0", True),  # Dependabot's widened range: admits the major after the lower bound's
    ("6.0.0", ">=5.1.0, <7.0.0", True),
    ("6.2.1", ">=5.1.0 <7.0.0", True),
    ("7.0.0", ">=5.1.0 <7.0.0", False),  # the bound itself is excluded
    ("6.0.0", ">=5.1.0 <8.0.0", False),  # two majors: which one is named is not shown
    ("6.0.0", ">=5.1.0 <7.1.0", False),
    ("5.2.0", ">=5.1.0 <6.0.0", False),  # no new major: the lower bound names the version, as before
    ("5.1.0", ">=5.1.0 <6.0.0", True),
]


def test_the_benchmark_reads_a_widened_range_by_its_new_major() -> None:
    bench = _bench()
    assert [bench._same_version(want, got) for want, got, _ in WIDENED] == [same for _, _, same in WIDENED]
