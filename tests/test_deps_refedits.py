"""A version named once and used by reference (refedits.py): a Gradle catalog's `[versions]` key (cashapp/turbine's
`coroutines = "1.9.0"`, used by two `version.ref = "coroutines"` libraries) and a pom.xml property (mybatis-3's
`<log4j.version>`, used as `${log4j.version}`). With `--tree` every library the version feeds is named; from a patch,
those whose use a hunk shows, beside a `partial` problem saying the other uses are not in the patch; a moved version
no hunk shows a use of is named by itself (`[versions].coroutines`, `${log4j.version}`: round 55,
tests/test_deps_refkeys_shown.py) beside a `partial` problem. Real git writes every patch."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cpucost import assert_linear
from tables import each_case

from gatekeeper.deps import refedits
from gatekeeper.deps.jvm import parse_pom, parse_version_catalog
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.sources import Delta
from tests.deltas import moves, refused
from tests.deltas import partial as _partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

CATALOG_PATH = "gradle/libs.versions.toml"
# cashapp/turbine's catalog, with a longer [versions] table and a second library table below (okio's shape)
CATALOG = """\
[versions]
coroutines = "1.9.0"

[libraries]
coroutines-core = { module = "org.jetbrains.kotlinx:kotlinx-coroutines-core", version.ref = "coroutines" }
coroutines-test = { module = "org.jetbrains.kotlinx:kotlinx-coroutines-test", version.ref = "coroutines" }

[plugins]
kotlin = { id = "org.jetbrains.kotlin.multiplatform", version = "2.0.21" }
spotless = { id = "com.diffplug.spotless", version = "6.25.0" }
"""
LONG_CATALOG = """\
[versions]
agp = "8.13.0"
jmh = "1.37"
kotlin = "2.2.20"
ktfmt = "0.58"
okio = "3.16.3"
junit5 = "5.13.4"
spotless = "8.0.0"

[libraries]
android-gradle-plugin = { module = "com.android.tools.build:gradle", version.ref = "agp" }
okio = { module = "com.squareup.okio:okio", version.ref = "okio" }
okio-fakefilesystem = { module = "com.squareup.okio:okio-fakefilesystem", version.ref = "okio" }
junit5-api = { module = "org.junit.jupiter:junit-jupiter-api", version.ref = "junit5" }
junit5-params = { group = "org.junit.jupiter", name = "junit-jupiter-params", version.ref = "junit5" }
truth = "com.google.truth:truth:1.4.4"

[plugins]
kotlin-jvm = { id = "org.jetbrains.kotlin.jvm", version.ref = "kotlin" }
spotless = { id = "com.diffplug.spotless", version.ref = "spotless" }
"""
COROUTINES = {("maven", f"org.jetbrains.kotlinx:kotlinx-coroutines-{a}", "1.9.0", "1.10.2") for a in ("core", "test")}


def _delta(tmp_path: Path, path: str, body: str, edit: dict[str, str], *extra: str) -> tuple[Delta, Delta]:
    repo, base, head = edited_commits(tmp_path, {path: body}, {path: edit})
    return _tree(repo, base, head), _patch(repo, base, head, *extra)


def _problem(delta: Delta, path: str) -> str:
    return " ".join(p.msg for p in delta.problems if p.manifest == path and p.kind == "partial")


def test_catalog_versions_key_tree_names_every_library_it_feeds(tmp_path: Path) -> None:
    tree, patch = _delta(tmp_path, CATALOG_PATH, CATALOG, {'"1.9.0"': '"1.10.2"'}, "-U1")
    assert moves(tree) == COROUTINES and not tree.problems
    # -U1: the hunk shows the header above and a blank line below, no use: the key is named by itself (round 55)
    assert moves(patch) == {("maven", "[versions].coroutines", "1.9.0", "1.10.2")} and _partial(patch, CATALOG_PATH)
    assert "'coroutines' 1.9.0 → 1.10.2 feeds no entry the hunks show" in _problem(patch, CATALOG_PATH)


def test_catalog_versions_key_patch_names_the_uses_its_hunk_shows(tmp_path: Path) -> None:
    # git's three lines of context reach turbine's first library: that one is named, the rest is reviewed
    _, patch = _delta(tmp_path / "a", CATALOG_PATH, CATALOG, {'"1.9.0"': '"1.10.2"'})
    assert moves(patch) == {("maven", "org.jetbrains.kotlinx:kotlinx-coroutines-core", "1.9.0", "1.10.2")}
    assert all(c.partial for c in patch.changes) and patch.changes[0].alias == "coroutines-core"
    assert "not in the patch" in _problem(patch, CATALOG_PATH)
    # a hunk that shows the whole file names every use, and still says what no patch can show (build scripts)
    _, whole = _delta(tmp_path / "b", CATALOG_PATH, CATALOG, {'"1.9.0"': '"1.10.2"'}, "-U20")
    assert moves(whole) == COROUTINES and _partial(whole, CATALOG_PATH)


def test_long_catalog_key_bumps_both_ways(tmp_path: Path) -> None:
    edit = {'okio = "3.16.3"': 'okio = "3.17.0"', 'junit5 = "5.13.4"': 'junit5 = "5.14.0"',
            'kotlin = "2.2.20"': 'kotlin = "2.3.0"'}
    tree, patch = _delta(tmp_path / "a", CATALOG_PATH, LONG_CATALOG, edit)
    assert moves(tree) == {("maven", "com.squareup.okio:okio", "3.16.3", "3.17.0"),
                           ("maven", "com.squareup.okio:okio-fakefilesystem", "3.16.3", "3.17.0"),
                           ("maven", "org.junit.jupiter:junit-jupiter-api", "5.13.4", "5.14.0"),
                           ("maven", "org.junit.jupiter:junit-jupiter-params", "5.13.4", "5.14.0"),
                           ("maven", "org.jetbrains.kotlin.jvm", "2.2.20", "2.3.0")}
    # the uses are far from the keys: each key is named by itself (round 55)
    assert moves(patch) == {("maven", f"[versions].{k}", a, b) for k, a, b in (("okio", "3.16.3", "3.17.0"),
                            ("junit5", "5.13.4", "5.14.0"), ("kotlin", "2.2.20", "2.3.0"))}
    assert _partial(patch, CATALOG_PATH)
    _, whole = _delta(tmp_path / "b", CATALOG_PATH, LONG_CATALOG, edit, "-U40")
    assert moves(whole) == moves(tree) and _partial(whole, CATALOG_PATH)


@each_case(("body", "edit", "context"), [
    # (no [versions] header shown above the key, the hunk all keys: named by the key since round 55)
    (LONG_CATALOG, {'okio = "3.16.3"': 'okio = { strictly = "3.17.0" }'}, "-U40"),  # a rich version
    (LONG_CATALOG, {'okio = "3.16.3"\n': ""}, "-U40"),  # a key dropped while entries still use it
    (LONG_CATALOG, {'okio = "3.16.3"\n': 'okio = "3.16.3"\nokio2 = "1.0"\n'}, "-U40"),  # a key added: no move
    # a reference moved: the line readers refuse a changed `version.ref` line
    (LONG_CATALOG, {'okio = "3.16.3"': 'okio = "3.17.0"', 'version.ref = "okio" }\nokio-fake':
                    'version.ref = "junit5" }\nokio-fake'}, "-U40"),
    # a library edited beside the key its neighbour uses: the same name twice
    (LONG_CATALOG.replace("com.google.truth:truth:1.4.4", "com.squareup.okio:okio:3.16.3"),
     {'okio = "3.16.3"': 'okio = "3.17.0"', "okio:3.16.3": "okio:3.17.0"}, "-U40"),
])
def test_ambiguous_or_malformed_catalog_moves_fail_closed(tmp_path: Path, body: str, edit: dict[str, str],
                                                           context: str) -> None:
    _, patch = _delta(tmp_path, CATALOG_PATH, body, edit, context)
    assert not patch.changes and _partial(patch, CATALOG_PATH), patch


def test_a_use_the_patch_may_show_only_as_string_text_is_not_named(tmp_path: Path) -> None:
    # a multi-line string in the use's hunk: the `version.ref` line may be text inside it
    body = CATALOG.replace("[plugins]", 'notes = """\n[plugins]').replace('6.25.0" }', '6.25.0" }\n"""')
    body = body.replace("[libraries]", "[libraries]\n" + "\n".join(f'x{i} = "a:b{i}:1"' for i in range(6)))
    _, patch = _delta(tmp_path, CATALOG_PATH, body, {'"1.9.0"': '"1.10.2"'}, "-U20")
    assert not patch.changes and _partial(patch, CATALOG_PATH)


def test_catalog_key_moves_never_name_what_the_files_do_not(tmp_path: Path) -> None:
    """Attack property: whatever a patch names of a moved [versions] key, the whole files name the same."""
    lines = LONG_CATALOG.splitlines()
    variants = ['okio = "3.17.0"', 'okio = "3.17.0" # bump', 'okio="3.17.0"', 'okio = "org.evil:x:1"',
                "okio = '3.17.0'",
                'okio = "3.17.0"\nokio = "3.16.3"', 'okio.x = "3.17.0"', '"okio" = "3.17.0"', 'okio = ["3.17.0"]']
    for n, new in enumerate(variants):
        for context in ("-U3", "-U40"):
            body = "\n".join(new if line == 'okio = "3.16.3"' else line for line in lines) + "\n"
            try:
                whole = _tree(*edited_commits(tmp_path / f"t{n}{context}", {CATALOG_PATH: LONG_CATALOG},
                                              {CATALOG_PATH: {LONG_CATALOG: body}})).changes
            except ManifestError:
                whole = ()
            _, patch = _delta(tmp_path / f"p{n}{context}", CATALOG_PATH, LONG_CATALOG, {LONG_CATALOG: body}, context)
            # a key named by itself (round 55) stands for the entries the whole files name through it
            by_key = {c for c in patch.changes if c.name.startswith("[versions].")}
            assert {(c.name, c.to_version) for c in set(patch.changes) - by_key} \
                <= {(c.name, c.to_version) for c in whole}, (new, context, patch)
            assert {(c.version_ref, c.to_version) for c in by_key} <= {(c.version_ref, c.to_version) for c in whole}
            assert _partial(patch, CATALOG_PATH)  # a moved key always leaves uses the patch cannot show


POM_PATH = "pom.xml"
# mybatis-3's shape: properties with comments among them, the uses far below
POM = """\
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.mybatis</groupId>
  <artifactId>mybatis</artifactId>
  <version>3.5.20-SNAPSHOT</version>
  <properties>
    <!-- Java Usage -->
    <java.version>11</java.version>

    <byte-buddy.version>1.18.11</byte-buddy.version>
    <log4j.version>2.26.1</log4j.version>
    <mockito.version>5.23.0</mockito.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.apache.logging.log4j</groupId>
      <artifactId>log4j-api</artifactId>
      <version>${log4j.version}</version>
      <optional>true</optional>
    </dependency>
    <dependency>
      <groupId>org.apache.logging.log4j</groupId>
      <artifactId>log4j-core</artifactId>
      <version>${log4j.version}</version>
      <optional>true</optional>
    </dependency>
    <dependency>
      <groupId>org.mockito</groupId>
      <artifactId>mockito-core</artifactId>
      <version>${mockito.version}</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
"""
LOG4J = {("maven", f"org.apache.logging.log4j:log4j-{a}", "2.26.1", "2.27.0") for a in ("api", "core")}


def test_pom_property_tree_names_every_dependency_it_feeds(tmp_path: Path) -> None:
    tree, patch = _delta(tmp_path / "a", POM_PATH, POM, {"2.26.1": "2.27.0"})
    assert moves(tree) == LOG4J and not tree.problems
    # git's three lines of context do not reach <properties>: the line could be any element's
    assert not patch.changes and "whose <properties> the hunk does not show" in _problem(patch, POM_PATH)
    _, patch = _delta(tmp_path / "b", POM_PATH, POM, {"2.26.1": "2.27.0"}, "-U6")
    # no use shown: the property is named by itself (round 55)
    assert moves(patch) == {("maven", "${log4j.version}", "2.26.1", "2.27.0")}
    assert "'log4j.version' 2.26.1 → 2.27.0 feeds no entry" in _problem(patch, POM_PATH)


def test_pom_property_patch_names_the_uses_its_hunks_show(tmp_path: Path) -> None:
    _, patch = _delta(tmp_path, POM_PATH, POM, {"2.26.1": "2.27.0"}, "-U15")
    assert moves(patch) == LOG4J and all(c.partial for c in patch.changes)
    assert "child POMs" in _problem(patch, POM_PATH)


def test_pom_property_and_a_literal_version_in_one_patch(tmp_path: Path) -> None:
    body = POM.replace("<version>${mockito.version}</version>", "<version>5.23.0</version>")
    repo, base, head = edited_commits(tmp_path, {POM_PATH: body}, {POM_PATH: {"2.26.1": "2.27.0",
                                                                              "5.23.0</version>\n      <scope>":
                                                                              "5.24.0</version>\n      <scope>"}})
    patch = _patch(repo, base, head, "-U15")
    assert moves(patch) == LOG4J | {("maven", "org.mockito:mockito-core", "5.23.0", "5.24.0")}
    assert moves(_tree(repo, base, head)) == moves(patch)


@each_case(("body", "edit", "context"), [
    (POM, {"2.26.1": "2.27.0"}, "-U0"),  # the property's <properties> is not shown
    (POM, {"<log4j.version>2.26.1": "<log4j.version>&#50;.27.0"}, "-U15"),  # a character reference
    (POM, {"<log4j.version>2.26.1": "<log4j.version>${other}"}, "-U15"),  # a property built of another
    (POM, {"    <log4j.version>2.26.1</log4j.version>\n": ""}, "-U15"),  # dropped while in use
    # moved, and a use's dependency renamed beside it
    (POM, {"2.26.1": "2.27.0", "<artifactId>log4j-api</artifactId>": "<artifactId>log4j-evil</artifactId>"}, "-U15"),
])
def test_ambiguous_or_malformed_property_moves_fail_closed(tmp_path: Path, body: str, edit: dict[str, str],
                                                           context: str) -> None:
    _, patch = _delta(tmp_path, POM_PATH, body, edit, context)
    assert not patch.changes and _partial(patch, POM_PATH), patch


def test_a_use_inside_a_comment_spanning_lines_is_not_named(tmp_path: Path) -> None:
    body = POM.replace("    <dependency>\n      <groupId>org.apache.logging.log4j</groupId>\n"
                       "      <artifactId>log4j-core</artifactId>", "    <!--\n    <dependency>\n"
                       "      <groupId>org.apache.logging.log4j</groupId>\n"
                       "      <artifactId>log4j-core</artifactId>", 1)
    body = body.replace("<optional>true</optional>\n    </dependency>\n    <dependency>\n      <groupId>org.mockito",
                        "<optional>true</optional>\n    </dependency>\n    -->\n    <dependency>\n"
                        "      <groupId>org.mockito")
    tree, patch = _delta(tmp_path, POM_PATH, body, {"2.26.1": "2.27.0"}, "-U30")
    assert moves(tree) == {("maven", "org.apache.logging.log4j:log4j-api", "2.26.1", "2.27.0")}
    assert moves(patch) <= moves(tree) and _partial(patch, POM_PATH)


def test_a_profile_property_reads_as_the_whole_file_reads_it(tmp_path: Path) -> None:
    # the whole-file reader joins a profile's properties in (jvm.pom_properties): the patch must not say otherwise
    body = POM.replace("</dependencies>\n", "</dependencies>\n  <profiles>\n    <profile>\n      <id>x</id>\n"
                       "      <properties>\n        <mockito.version>5.23.0</mockito.version>\n"
                       "      </properties>\n    </profile>\n  </profiles>\n").replace(
        "<mockito.version>5.23.0</mockito.version>\n  </properties>", "<mockito.version>5.22.0</mockito.version>\n"
        "  </properties>")
    edit = {"<mockito.version>5.23.0</mockito.version>\n      </properties>":
            "<mockito.version>5.24.0</mockito.version>\n      </properties>"}
    tree, patch = _delta(tmp_path, POM_PATH, body, edit, "-U40")
    assert {(c.name, c.to_version) for c in patch.changes} <= {(c.name, c.to_version) for c in tree.changes}
    assert _partial(patch, POM_PATH)


def _pom_edits(data: bytes) -> None:
    refused(lambda: refedits.pom_edits(POM_PATH, data))


def _catalog_edits(data: bytes) -> None:
    refused(lambda: refedits.catalog_edits(CATALOG_PATH, data))


def _context(text: str) -> bytes:
    """`text` as the context lines of a hunk whose one change is `x` to `y`."""
    return ("@@ -1 +1 @@\n" + "\n".join(" " + ln for ln in text.splitlines()) + "\n-x\n+y\n").encode()


def _catalog_moves(size: int) -> bytes:
    n = size // 128  # many moves at once: each changed line asks what governs it, one pass a side answers
    return ("@@ -1 +1 @@\n [versions]\n" + "".join(f'-k{i} = "1"\n+k{i} = "2"\n' for i in range(n))
            + "".join(f' u{i} = {{ module = "g:a{i}", version.ref = "k{i % 7}" }}\n' for i in range(n))).encode()


def _pom_moves(size: int) -> bytes:
    n = size // 128
    return ("@@ -1 +1 @@\n <version>1</version>\n <properties>\n"
            + "".join(f"-<k{i}>1</k{i}>\n+<k{i}>2</k{i}>\n" for i in range(n)) + " </properties>\n"
            + " <dependency>\n <groupId>g</groupId>\n <artifactId>a</artifactId>\n"
            + " <version>${k1}</version>\n" * n).encode()


HOSTILE_EDITS = [
    (lambda size: _context("<a>" * (size // 3)), "properties"),
    (lambda size: _context("<properties>\n" + "<a>1</a>\n" * (size // 8)), "lines"),
    (lambda size: _context("[versions]\n" + 'a = "1"\n' * (size // 8)), "keys"),
    (lambda size: _context("<!--" * (size // 4)), "comments"),
    (lambda size: _context("[versions]\n" + "a" * size + ' = "1'), "a long key"),
    (_catalog_moves, "catalog moves"),
    (_pom_moves, "pom moves"),
]


# 1 MiB texts under a 2 CPU-s budget, no ratio, until suite round 32: each is refused the same at 16, 64 and 1024 KiB
@each_case(("reader", "text", "what"), [(reader, text, f"{name} {what}") for text, what in HOSTILE_EDITS
                                        for name, reader in (("pom", _pom_edits), ("catalog", _catalog_edits))],
           ids=lambda value: value if isinstance(value, str) else "")
def test_hostile_property_and_key_lines_are_refused_in_linear_time(reader: Callable[[bytes], None],
                                                                    text: Callable[[int], bytes], what: str) -> None:
    assert_linear(reader, text, budget=0.125)  # the old budget per character


def test_whole_file_readers_agree_on_the_fixtures() -> None:
    assert {d.name for d in parse_pom(POM_PATH, POM.encode())} >= {"org.apache.logging.log4j:log4j-api"}
    assert {d.version for d in parse_version_catalog(CATALOG_PATH, CATALOG.encode())} >= {"1.9.0"}
