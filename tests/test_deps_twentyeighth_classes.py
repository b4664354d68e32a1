"""Classes of misses the twenty-eighth blind set of bot update commits found (bench/deps_bumps_twentyeighth.tsv).

- A git gem moved to another commit under its gemspec's version (RevenueCat's purchases-android and
  purchases-flutter: Dependabot's "bump fastlane-plugin-revenuecat_internal from `b4e1e7f` to `7fbbe66`", 10 commits,
  both modes): the Gemfile.lock `GIT` section's `revision:` moved and nothing else, so the delta named no change (the
  second sweep's `partial` problem said the location moved). A GIT gem's version now carries its section's revision:
  the gem is named `changed` at its commit, beside the problem, which stays.
- A Makefile image a tag variable named `…_IMAGE_TAG` sets (grafana/tempo's `build/tools.mk`: `TOOLS_IMAGE ?=
  grafana/tempo-ci-tools` beside `TOOLS_IMAGE_TAG ?= main-d182bec-20260603-154614`, pulled by a recipe; 5 commits,
  both modes): the tag variable was read as an image (its name says IMAGE too) and its tag, a build name, was no
  version; and an image variable holding a whole `image:tag` (`TEMPO_CI_TOOLS_IMAGE ?= grafana/…:main-…`, run by a
  variable holding `docker run`) was no pair at all.
- A Gradle catalog's `alias = "group:artifact:version"` whose `[libraries]` header the hunk does not show
  (JakeWharton/diffuse, Automattic's pocket-casts-android; from the patch): refused whole; now named as shown beside
  a `partial` problem (only a `[versions]` key could hold such a string too).
- A Gradle wrapper bump that drops the `#Fri Dec 19 …` timestamp comment older `wrapper` tasks wrote (RevenueCat; from
  the patch): the comment line read as an edit beside the bump; a properties file's comment is no setting.
- The first class in Cargo (found among the earlier sets' rows: firezone/firezone's "bump aya from `15a0de1` to
  `0a82062`", the ninth set): a Cargo.lock `source = "git+…#<commit>"` moved under unchanged versions named nothing;
  a git-sourced entry's version now carries its source and commit (gatekeeper/deps/cargogit.py).

Real-shaped files written for these tests, look-alikes and malformed input.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.bundler import gemfile_lock_hunks, parse_gemfile_lock
from gatekeeper.deps.cataloglines import catalog_line
from gatekeeper.deps.model import ManifestError, PartlyShown
from gatekeeper.deps.toolfiles import parse_makefile
from tests.deltas import accuracy_bench, moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits


def _bumped(root: Path, files: dict[str, str], edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    repo, base, head = edited_commits(root, files, edits)
    return _tree(repo, base, head), _patch(repo, base, head)


# --- 1. a git gem moved to another commit under its version ----------------------------------------------------------

OLD_REV, NEW_REV = "b4e1e7fa7fe4e0a53ca357305e6bd716a7dbe084", "7fbbe6656995ac24dddb0c426843c870301074c7"
GEMFILE = """\
source "https://rubygems.org"

gem "fastlane", "~> 2.228"
gem "fastlane-plugin-versioning_android"

plugins_path = File.join(File.dirname(__FILE__), "fastlane", "Pluginfile")
eval_gemfile(plugins_path) if File.exist?(plugins_path)
"""
LOCK = f"""\
GIT
  remote: https://github.com/example-org/fastlane-plugin-example_internal
  revision: {OLD_REV}
  branch: main
  specs:
    fastlane-plugin-example_internal (0.1.0)
      nokogiri

GEM
  remote: https://rubygems.org/
  specs:
    fastlane (2.228.0)
      addressable (>= 2.8, < 3.0.0)
    fastlane-plugin-versioning_android (0.1.1)
    nokogiri (1.18.9)
      racc (~> 1.4)
    racc (1.8.1)

PATH
  remote: vendor/local_plugin
  specs:
    fastlane-plugin-local (0.2.0)

PLATFORMS
  ruby

DEPENDENCIES
  fastlane (~> 2.228)
  fastlane-plugin-example_internal!
  fastlane-plugin-local!
  fastlane-plugin-versioning_android

BUNDLED WITH
   2.6.9
"""
_GEM = "fastlane-plugin-example_internal"
_REMOTE = "https://github.com/example-org/fastlane-plugin-example_internal"


def test_a_git_gem_moved_to_another_commit_is_named_at_it_beside_the_problem(tmp_path: Path) -> None:
    whole, from_patch = _bumped(tmp_path, {"Gemfile": GEMFILE, "Gemfile.lock": LOCK},
                                {"Gemfile.lock": {OLD_REV: NEW_REV}})
    for delta in (whole, from_patch):
        assert moves(delta) == {("bundler", _GEM, f"0.1.0 from GIT {_REMOTE} revision:{OLD_REV}",  # type: ignore[attr-defined]
                                 f"0.1.0 from GIT {_REMOTE} revision:{NEW_REV}")}
        assert [c.change for c in delta.changes] == ["changed"]  # type: ignore[attr-defined]
        assert partial(delta, "Gemfile.lock")  # type: ignore[arg-type]  # the moved location stays a problem


def test_a_git_gem_bumped_with_its_commit_is_changed_not_upgraded(tmp_path: Path) -> None:
    whole, _ = _bumped(tmp_path, {"Gemfile": GEMFILE, "Gemfile.lock": LOCK},
                       {"Gemfile.lock": {OLD_REV: NEW_REV, "example_internal (0.1.0)": "example_internal (0.2.0)"}})
    assert {(c.name, c.change) for c in whole.changes} == {(_GEM, "changed")}  # type: ignore[attr-defined]


def test_only_a_git_sections_revision_is_a_gems_commit() -> None:
    found = {d.name: d.version for d in parse_gemfile_lock("Gemfile.lock", LOCK.encode())}
    assert found[_GEM] == f"0.1.0 from GIT {_REMOTE} revision:{OLD_REV}"
    assert found["fastlane-plugin-local"] == "0.2.0 from PATH vendor/local_plugin"  # the GIT section's ended
    assert found["nokogiri"] == "1.18.9"
    # look-alikes: a `revision:` in a GEM section, one that is no commit, one indented as a spec's requirement
    odd = LOCK.replace("  remote: https://rubygems.org/\n", "  remote: https://rubygems.org/\n  revision: abcdef0\n")
    odd = odd.replace(f"  revision: {OLD_REV}", "  revision: main; rm -rf /")
    found = {d.name: d.version for d in parse_gemfile_lock("Gemfile.lock", odd.encode())}
    assert found[_GEM] == f"0.1.0 from GIT {_REMOTE}" and found["nokogiri"] == "1.18.9"
    nested = LOCK.replace(f"  revision: {OLD_REV}", f"      revision: {OLD_REV}")
    assert {d.name: d.version for d in parse_gemfile_lock("Gemfile.lock", nested.encode())}[_GEM] == \
        f"0.1.0 from GIT {_REMOTE}"


def test_a_hunk_that_does_not_show_the_revision_reads_no_commit() -> None:
    from gatekeeper.deps.hunks import CHANGED, HUNK
    body = "\n".join([HUNK, "  branch: main", "  specs:", CHANGED + f"    {_GEM} (0.2.0)", "      nokogiri"])
    assert {(d.name, d.version) for d in gemfile_lock_hunks("Gemfile.lock", body.encode())} == {(_GEM, "0.2.0")}


@each_case("body", [
    b"GIT\n  revision:\n  specs:\n    x (1)\n", b"GIT\n  revision: " + b"f" * 5000 + b"\n",
    b"GIT\n\x00revision: abcdef0\n    x (1)\n",
    "GIT\n  revision: \u0661\u0662\u0663\u0664\u0665\u0666\u0667\n  specs:\n    x (1)\n".encode(),
])
def test_malformed_revisions_do_not_crash(body: bytes) -> None:
    for dep in parse_gemfile_lock("Gemfile.lock", body):
        assert "revision:" not in dep.version


def test_the_benchmark_names_a_git_gem_by_its_commit() -> None:
    bench = accuracy_bench()
    got = f"0.1.0 from GIT {_REMOTE} revision:{NEW_REV}"
    assert bench._same_version("7fbbe66", got)
    assert not bench._same_version("b4e1e7f", got)


# --- 2. Makefile images: a `…_IMAGE_TAG` variable, a whole `image:tag` in one variable -----------------------------

TOOLS_MK = """\
TOOL_DIR     ?= tools
TOOL_CONFIG  ?= $(TOOL_DIR)/tools.go

TOOLS_IMAGE ?= example/project-ci-tools
TOOLS_IMAGE_TAG ?= main-057ddf9-20260526-210749

TOOLS_CMD = docker run --rm -t -v ${PWD}:/tools $(TOOLS_IMAGE):$(TOOLS_IMAGE_TAG)

.PHONY: tools-image
tools-image:
\t@echo "=== [ tools-image ]: Building tools image..."
\t@docker build -t $(TOOLS_IMAGE) -f ./tools/Dockerfile .

.PHONY: tools-pull
tools-pull:
\t@docker pull $(TOOLS_IMAGE):$(TOOLS_IMAGE_TAG)
"""
MAKEFILE = """\
GOPATH := $(shell go env GOPATH)
BUILD_IMAGE ?= example/build-image:0.34.6
# built by: .github/workflows/docker-ci-tools.yml
CI_TOOLS_IMAGE ?= example/project-ci-tools:main-2c55cd0-20260421-172344
DOCS_IMAGE ?= example/docs-base:latest

BUF = docker run --rm -u ${shell id -u} -v${PWD}:/src -w/src --entrypoint /usr/local/bin/buf ${CI_TOOLS_IMAGE}

.PHONY: gen-proto
gen-proto:
\t$(BUF) generate

.PHONY: gen-parser
gen-parser:
\tdocker run --rm -v${PWD}:/src/project ${BUILD_IMAGE} gen-parser
"""
_NEW_TAG = "main-d182bec-20260603-154614"


@pytest.mark.parametrize(("path", "text", "parsed", "image", "tag", "far_before"), [
    # a tag variable named `…_IMAGE_TAG` pairs with its image
    ("build/tools.mk", TOOLS_MK, {("example/project-ci-tools", "main-057ddf9-20260526-210749")},
     "example/project-ci-tools", "main-057ddf9-20260526-210749", "\nTOOLS_CMD ="),
    # an image variable holding a whole reference is read where it runs
    ("Makefile", MAKEFILE, {("example/build-image", "0.34.6"),
                            ("example/project-ci-tools", "main-2c55cd0-20260421-172344")},
     "example/project-ci-tools", "main-2c55cd0-20260421-172344", "\nBUF ="),
])
def test_a_makefile_image_tag_move_is_named(tmp_path: Path, path: str, text: str, parsed: set[tuple[str, str]],
                                            image: str, tag: str, far_before: str) -> None:
    assert {(d.name, d.version) for d in parse_makefile(path, text.encode())} == parsed
    whole, from_patch = _bumped(tmp_path, {path: text}, {path: {tag: _NEW_TAG}})
    want = {("docker", image, tag, _NEW_TAG)}
    assert moves(whole) == want and not whole.problems  # type: ignore[attr-defined]
    assert moves(from_patch) == want and not partial(from_patch, path)  # type: ignore[arg-type]
    # the run lines far below the hunk (grafana/tempo's): named as shown, beside a problem
    far = text.replace(far_before, "\n# one\n# two\n# three\n# four" + far_before)
    _, from_patch = _bumped(tmp_path / "far", {path: far}, {path: {tag: _NEW_TAG}})
    assert moves(from_patch) == want and partial(from_patch, path)  # type: ignore[arg-type]


@each_case(("old", "new"), [
    ("TOOLS_IMAGE_TAG ?= main-057ddf9-20260526-210749", "TOOLS_IMAGE_TAG ?= latest"),  # a channel, no build
    ("TOOLS_IMAGE_TAG ?= main-057ddf9-20260526-210749", "TOOLS_IMAGE_TAG ?= $(GIT_SHA)"),  # not read
    ("@docker pull $(TOOLS_IMAGE):$(TOOLS_IMAGE_TAG)", "@docker push $(TOOLS_IMAGE):$(TOOLS_IMAGE_TAG)"),
    ("@docker pull $(TOOLS_IMAGE):$(TOOLS_IMAGE_TAG)", "@echo docker pull $(TOOLS_IMAGE):$(TOOLS_IMAGE_TAG)"),
])
def test_tag_variable_look_alikes(old: str, new: str) -> None:
    body = TOOLS_MK.replace(old, new).replace("TOOLS_CMD = docker run", "TOOLS_CMD = echo")
    assert parse_makefile("build/tools.mk", body.encode()) == []


@each_case(("old", "new"), [
    ("CI_TOOLS_IMAGE ?= example/project-ci-tools:main-2c55cd0-20260421-172344",
     "CI_TOOLS_IMAGE ?= example/project-ci-tools:edge"),  # a channel
    ("CI_TOOLS_IMAGE ?= example/project-ci-tools:main-2c55cd0-20260421-172344",
     "CI_TOOLS_IMAGE ?= sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"),  # a digest part
    ("CI_TOOLS_IMAGE ?= example/project-ci-tools:main-2c55cd0-20260421-172344",
     "CI_TOOLS_IMAGE ?= localhost:5000/ci-tools:1.2"),  # a registry's port: not read
    ("CI_TOOLS_IMAGE ?= example/project-ci-tools:main-2c55cd0-20260421-172344",
     "CI_TOOLS_PATH ?= example/project-ci-tools:main-2c55cd0-20260421-172344"),  # no image variable
    ("BUF = docker run", "BUF = echo docker run"),  # names, runs nothing
    ("--entrypoint /usr/local/bin/buf ${CI_TOOLS_IMAGE}", "--entrypoint /usr/local/bin/buf ${CI_TOOLS_IMAGE}:2"),
])
def test_whole_reference_look_alikes(old: str, new: str) -> None:
    body = MAKEFILE.replace(old, new)
    assert ("example/build-image", "0.34.6") in {(d.name, d.version) for d in parse_makefile("Makefile", body.encode())}
    assert not [d for d in parse_makefile("Makefile", body.encode())
                if d.name not in ("example/build-image",)]


def test_a_whole_reference_set_twice_is_refused() -> None:
    body = MAKEFILE.replace("DOCS_IMAGE ?=", "CI_TOOLS_IMAGE := evil/tools:1.0\nDOCS_IMAGE ?=")
    with pytest.raises(ManifestError):
        parse_makefile("Makefile", body.encode())


def test_the_benchmark_names_a_dated_tag_by_its_date() -> None:
    bench = accuracy_bench()
    assert bench._same_version("20260603", _NEW_TAG)
    assert not bench._same_version("20260604", _NEW_TAG)
    assert not bench._same_version("154614", _NEW_TAG.replace("-154614", ""))  # no such part


# --- 3. a Gradle catalog library in string notation, its header not shown -------------------------------------------

CATALOG = """\
[versions]
# Keep this values in sync with bundletool's dependencies.
aapt2Proto = "8.7.1-12006047"
protobufJava = "3.25.5"

[libraries]
aapt2Proto = { module = "com.android.tools.build:aapt2-proto", version.ref = "aapt2Proto" }
protobuf = { module = "com.google.protobuf:protobuf-java", version.ref = "protobufJava" }
apkSigner = "com.android.tools.build:apksig:8.7.1"
clikt = "com.github.ajalt.clikt:clikt:5.0.1"
junit = "junit:junit:4.13.2"
assertk = "com.willowtreeapps.assertk:assertk:0.28.1"
okio = "com.squareup.okio:okio:3.9.1"
byteunits = "com.jakewharton.byteunits:byteunits:0.9.1"
asm = "org.ow2.asm:asm:9.7"
diffUtils = "io.github.java-diff-utils:java-diff-utils:4.12"
picnic = "com.jakewharton.picnic:picnic:0.7.0"
mordant = "com.github.ajalt.mordant:mordant:3.0.0"
kotlinPlugin = "org.jetbrains.kotlin:kotlin-gradle-plugin:2.0.20"

[plugins]
spotless = "com.diffplug.spotless:6.25.0"
"""


def test_a_string_notation_library_below_its_unshown_header_is_named_beside_a_problem(tmp_path: Path) -> None:
    whole, from_patch = _bumped(tmp_path, {"gradle/libs.versions.toml": CATALOG},
                                {"gradle/libs.versions.toml": {"org.ow2.asm:asm:9.7\"": "org.ow2.asm:asm:9.7.1\""}})
    want = {("maven", "org.ow2.asm:asm", "9.7", "9.7.1")}
    assert moves(whole) == want and not whole.problems  # type: ignore[attr-defined]
    assert moves(from_patch) == want  # type: ignore[arg-type]
    assert partial(from_patch, "gradle/libs.versions.toml")  # type: ignore[arg-type]


@pytest.mark.parametrize("line", [
    'asm = "org.ow2.asm:asm:9.7.1"',
    'kotlin-plugin = "org.jetbrains.kotlin:kotlin-gradle-plugin:2.0.21" # bumped by Renovate',
])
def test_the_line_reader_names_it_as_shown(line: str) -> None:
    side = [("okio = \"com.squareup.okio:okio:3.9.1\"", False), (line, True)]
    with pytest.raises(PartlyShown) as caught:
        catalog_line(side, 1)
    assert [pair[:3] for pair in caught.value.pairs] == [
        (line.split('"')[1].rsplit(":", 1)[0], line.split('"')[1].rsplit(":", 1)[1], "maven")]


@each_case("line", [
    # a plugin's `"dotted.id:1.0"` string is named as shown beside its problem since round 30
    # (test_deps_thirtieth_classes.py); an id without a dot, or no digit-led version, stays refused
    'spotless = "spotless:6.25.0"',
    'spotless = "com.diffplug.spotless:latest"',
    'kotlin = "2.0.21"',  # a [versions] key: its uses are elsewhere
    'odd = "a:b:c:d"',  # no Gradle notation
    'odd = "org.ow2.asm::9.7.1"',  # an empty part
    'odd = "org.ow2.asm:asm:9.7 ; rm"',  # a space: no version
    'odd = "org.ow2.asm:asm:$asmVersion"',
])
def test_look_alikes_stay_refused(line: str) -> None:
    with pytest.raises(ManifestError) as caught:
        catalog_line([(line, True)], 0)
    assert not isinstance(caught.value, PartlyShown)


def test_a_shown_libraries_header_needs_no_problem() -> None:
    side = [("[libraries]", False), ('asm = "org.ow2.asm:asm:9.7.1"', True)]
    assert catalog_line(side, 1) == [("org.ow2.asm:asm", "9.7.1", "maven", "", "asm")]


# --- 4. a Gradle wrapper's timestamp comment dropped beside its bump -------------------------------------------------

WRAPPER = """\
#Fri Dec 19 09:04:47 CET 2025
distributionBase=GRADLE_USER_HOME
distributionPath=wrapper/dists
distributionUrl=https\\://services.gradle.org/distributions/gradle-8.13-bin.zip
networkTimeout=10000
validateDistributionUrl=true
zipStoreBase=GRADLE_USER_HOME
zipStorePath=wrapper/dists
"""
_URL = "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.13-bin.zip"
_PATH = "test-apps/sizetesting/gradle/wrapper/gradle-wrapper.properties"


def test_a_dropped_timestamp_comment_rides_with_the_bump(tmp_path: Path) -> None:
    whole, from_patch = _bumped(tmp_path, {_PATH: WRAPPER}, {_PATH: {
        "#Fri Dec 19 09:04:47 CET 2025\n": "", _URL: _URL.replace("8.13", "8.14.3")}})
    for delta in (whole, from_patch):
        assert moves(delta) == {("tool", "gradle", "8.13", "8.14.3")}  # type: ignore[arg-type]
        assert not delta.problems  # type: ignore[attr-defined]


@pytest.mark.parametrize(("old", "new"), [
    ("distributionBase=GRADLE_USER_HOME", "distributionBase=PROJECT"),  # a setting moved beside the bump
    ("validateDistributionUrl=true", "validateDistributionUrl=false"),  # the check turned off
    ("#Fri Dec 19 09:04:47 CET 2025\n", "distributionUrl=https\\://127.0.0.1:9/gradle.zip\\\n#not a comment\n"),
])
def test_other_wrapper_edits_beside_the_bump_stay_problems(tmp_path: Path, old: str, new: str) -> None:
    _, from_patch = _bumped(tmp_path, {_PATH: WRAPPER}, {_PATH: {old: new, _URL: _URL.replace("8.13", "8.14.3")}})
    assert partial(from_patch, _PATH)  # type: ignore[arg-type]


# --- 5. a Cargo.lock crate from a git repository moved to another commit (the first class, in Cargo) ----------------

CARGO_TOML = """\
[workspace]
members = ["bpf-common", "ebpf-turn-router"]
resolver = "2"

[workspace.dependencies]
aya = { git = "https://github.com/example-rs/aya", features = ["async_tokio"] }
aya-log = { git = "https://github.com/example-rs/aya" }
anyhow = "1.0.100"
"""
OLD_COMMIT, NEW_COMMIT = "15a0de1b363e51d55d0fca4245df54a61e8d5521", "0a820625034baa661850465626a30b1e62fb5bab"
CARGO_LOCK = f"""\
# This file is automatically @generated by Cargo.
# It is not intended for manual editing.
version = 4

[[package]]
name = "anyhow"
version = "1.0.100"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "a23eb6b1614318a8071c9b2521f36b424b2c83db5eb3a0fead4a6c0809af6e61"

[[package]]
name = "aya"
version = "0.14.0"
source = "git+https://github.com/example-rs/aya#{OLD_COMMIT}"
dependencies = [
 "anyhow",
 "aya-obj",
]

[[package]]
name = "aya-log"
version = "0.2.1"
source = "git+https://github.com/example-rs/aya#{OLD_COMMIT}"
dependencies = [
 "aya",
]

[[package]]
name = "aya-obj"
version = "0.2.1"
source = "git+https://github.com/example-rs/aya#{OLD_COMMIT}"

[[package]]
name = "bpf-common"
version = "0.1.0"
dependencies = [
 "aya",
 "aya-log",
]
"""
_AYA = "git+https://github.com/example-rs/aya"


def test_a_git_crate_moved_to_another_commit_is_named_at_it_beside_the_problem(tmp_path: Path) -> None:
    whole, from_patch = _bumped(tmp_path, {"Cargo.toml": CARGO_TOML, "Cargo.lock": CARGO_LOCK},
                                {"Cargo.lock": {OLD_COMMIT: NEW_COMMIT}})
    want = {("cargo", name, f"{version} from {_AYA} revision:{OLD_COMMIT}",
             f"{version} from {_AYA} revision:{NEW_COMMIT}")
            for name, version in (("aya", "0.14.0"), ("aya-log", "0.2.1"), ("aya-obj", "0.2.1"))}
    for delta in (whole, from_patch):
        assert moves(delta) == want  # type: ignore[arg-type]
        assert {c.change for c in delta.changes} == {"changed"}  # type: ignore[attr-defined]
        assert partial(delta, "Cargo.lock")  # type: ignore[arg-type]


def test_a_crates_io_bump_and_a_path_crate_are_as_before(tmp_path: Path) -> None:
    whole, from_patch = _bumped(tmp_path, {"Cargo.toml": CARGO_TOML, "Cargo.lock": CARGO_LOCK}, {
        "Cargo.toml": {'anyhow = "1.0.100"': 'anyhow = "1.0.101"'},
        "Cargo.lock": {'version = "1.0.100"': 'version = "1.0.101"'}})
    for delta in (whole, from_patch):
        assert ("cargo", "anyhow", "1.0.100", "1.0.101") in moves(delta)  # type: ignore[arg-type]
        assert {c.change for c in delta.changes if c.name == "anyhow"} == {"upgraded"}  # type: ignore[attr-defined]


def test_a_source_line_the_hunk_shows_without_its_entry_names_no_commit(tmp_path: Path) -> None:
    repo, base, head = edited_commits(tmp_path, {"Cargo.toml": CARGO_TOML, "Cargo.lock": CARGO_LOCK},
                                      {"Cargo.lock": {OLD_COMMIT: NEW_COMMIT}})
    delta = _patch(repo, base, head, "-U0")
    assert not [c for c in delta.changes if "revision:" in (c.to_version or "")]
    assert partial(delta, "Cargo.lock")


@each_case("source", [
    "registry+https://github.com/rust-lang/crates.io-index",
    "sparse+https://index.example.com/",
    "git+https://github.com/example-rs/aya?branch=main",  # no commit
    "git+https://github.com/example-rs/aya#main",  # a branch, no commit
    "git+https://github.com/example-rs/aya#" + "g" * 40,
    "path+file:///work/aya",
])
def test_source_look_alikes_carry_no_commit(source: str) -> None:
    from gatekeeper.deps.cargogit import locked_version
    assert locked_version("0.14.0", source) == "0.14.0"


def test_a_branch_or_rev_query_stays_part_of_the_place() -> None:
    from gatekeeper.deps.cargogit import locked_version
    assert locked_version("0.14.0", f"git+https://github.com/example-rs/aya?rev=15a0de1#{OLD_COMMIT}") == \
        f"0.14.0 from git+https://github.com/example-rs/aya?rev=15a0de1 revision:{OLD_COMMIT}"


def test_the_benchmark_names_a_sourced_version_by_its_version() -> None:
    bench = accuracy_bench()
    assert bench._same_version("0.15.0", f"0.15.0 from {_AYA} revision:{NEW_COMMIT}")
    assert bench._same_version("0a82062", f"0.14.0 from {_AYA} revision:{NEW_COMMIT}")
    assert not bench._same_version("0.14.1", f"0.14.0 from {_AYA} revision:{NEW_COMMIT}")
