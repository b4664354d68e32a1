"""Classes of misses the forty-fifth blind set of update commits found (bench/deps_bumps_fortyfifth.tsv).

- A Dockerfile's `ARG BUILD_FROM` with no default, read by `FROM ${BUILD_FROM}:5.1` (Home Assistant's builder
  convention: the base image is a build argument, home-assistant/docker's "Update base image to 5.1", 1), was taken as
  an empty default: the delta named an image with an empty name at `5.1`. An ARG without a default is now left as
  written, as an ARG never declared is: the image is named `${BUILD_FROM}` (its tag moves), never "".
- Kotlin's dependency notation `kotlin("compiler-embeddable", kotlinVersion)` (openrewrite/rewrite's rewrite-kotlin
  script, "Update kotlin-compiler-embeddable to 2.3.20", 1) was read by nothing, and the moved `val kotlinVersion`
  was masked as a version literal: the commit was no change and no problem, a silent pass. It is read now as
  `org.jetbrains.kotlin:kotlin-<module>` at the literal or script variable it gives (`version =` too), both modes;
  from a patch a moved variable stays `partial` as before.
- A Cargo manifest's minimum Rust, `rust-version = "1.85"` in `[package]` or `[workspace.package]` (clap's "Bump MSRV
  to 1.85", 1; a second one was found through its workflow's toolchain), was residue: the move was a `partial`
  problem and named nothing. It is the tool `rust` at that version now (`--tree`), as go.mod's `go` directive and
  Terraform's `required_version` are; an inherited `rust-version.workspace = true` names nothing.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and hostile input first.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.deps import cargo, docker, gradle, residue
from tests.deltas import accuracy_bench, both_edited, each_fast, moves, partial

# --- Dockerfile: an ARG with no default ------------------------------------------------------------------------------

# home-assistant/docker's generic/Dockerfile (its shape: the base image is the builder's build argument)
HA_GENERIC = """\
ARG BUILD_FROM
FROM ${BUILD_FROM}:5.0

WORKDIR /usr/src

COPY homeassistant homeassistant
RUN pip3 install --no-cache-dir -r homeassistant/requirements_all.txt

WORKDIR /config
CMD [ "python3", "-m", "homeassistant", "--config", "/config" ]
"""


def test_hostile_arg_lines_are_fast_and_name_no_empty_image() -> None:
    body = "".join(f"ARG A{i}\nFROM ${{A{i}}}:{i}\n" for i in range(5000))
    each_fast([(lambda: docker.from_images(body), "5000 ARG/FROM pairs")], 5.0)
    assert all(name for name, _, _ in docker.from_images(body))


def test_home_assistant_base_move_names_the_build_argument_both_modes(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"generic/Dockerfile": HA_GENERIC},
                              {"generic/Dockerfile": {"${BUILD_FROM}:5.0": "${BUILD_FROM}:5.1"}})
    want = {("docker", "${BUILD_FROM}", "5.0", "5.1")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    bench = accuracy_bench()
    assert bench._same_name("${BUILD_FROM}", tree.changes[0])


@each_case("body, images", [
    ("ARG BUILD_FROM\nFROM ${BUILD_FROM}:5.1\n", [("${BUILD_FROM}", "5.1", "")]),
    ("ARG BUILD_FROM\nFROM $BUILD_FROM\n", [("$BUILD_FROM", "latest", "")]),  # the add-ons' shape: no tag
    ("FROM ${NEVER_DECLARED}:1.0\n", [("${NEVER_DECLARED}", "1.0", "")]),  # as before: as written
    # a default, even an empty one written as such, is the builder's value
    ("ARG BASE=alpine\nFROM ${BASE}:3.20\n", [("alpine", "3.20", "")]),
    ("ARG REG=\nFROM ${REG}alpine:3.20\n", [("alpine", "3.20", "")]),
    ("ARG REG=\"\"\nFROM ${REG}alpine:3.20\n", [("alpine", "3.20", "")]),
    # a shell default of an ARG with none is the word, as the builder does with no --build-arg
    ("ARG BASE\nFROM ${BASE:-debian}:12\n", [("debian", "12", "")]),
    ("ARG SUFFIX\nFROM alpine${SUFFIX:+-x}:3.20\n", [("alpine", "3.20", "")]),
    # a later ARG with a default gives the value the first, default-less one did not
    ("ARG BASE\nARG BASE=ubuntu\nFROM ${BASE}:24.04\n", [("ubuntu", "24.04", "")]),
    ("ARG IMG\nFROM ${IMG}@sha256:" + "a" * 64 + "\n", [("${IMG}", "", "sha256:" + "a" * 64)]),
    ("ARG IMG\nFROM golang:1.22 AS build\nCOPY --from=${IMG}:2.0 /x /x\n",
     [("golang", "1.22", ""), ("${IMG}", "2.0", "")]),
])
def test_arg_without_default_shapes(body: str, images: list[tuple[str, str, str]]) -> None:
    assert docker.from_images(body) == images


# --- Gradle Kotlin DSL: kotlin(module, version) --------------------------------------------------------------------

# openrewrite/rewrite's rewrite-kotlin/build.gradle.kts (its shape: the plugin's own version, and the compiler's
# modules at a version of the script)
REWRITE_KOTLIN = """\
import org.jetbrains.kotlin.gradle.dsl.JvmTarget

plugins {
    id("org.openrewrite.build.language-library")
    kotlin("jvm") version "2.2.21"
}

val kotlinVersion = "2.2.0"

dependencies {
    compileOnly(project(":rewrite-core"))

    implementation(project(":rewrite-java"))

    implementation(kotlin("compiler-embeddable", kotlinVersion))
    implementation(kotlin("reflect", kotlinVersion))
    implementation(kotlin("stdlib", kotlinVersion))

    testImplementation("com.squareup:javapoet:1.13.0")
}
"""
KOTLIN = "org.jetbrains.kotlin:kotlin-"


def test_hostile_kotlin_calls_are_fast() -> None:
    calls = [
        "implementation(kotlin(\"" + "a" * 200_000 + "\", \"1.0\"))",
        "implementation(" + "kotlin(\"x\", " * 30_000 + "\"1.0\"" + ")" * 30_000,
        "implementation(kotlin(\"x\"," + " " * 200_000 + "v))",
        "kotlin(\"x\", version = " + "=" * 100_000,
    ]
    each_fast([(lambda c=c: gradle.parse_build_script("b.gradle.kts", c.encode()), c[:30]) for c in calls], 1.0)


def test_rewrite_kotlin_compiler_move_is_read_with_tree(tmp_path: Path) -> None:
    path = "rewrite-kotlin/build.gradle.kts"
    tree, patch = both_edited(tmp_path, {path: REWRITE_KOTLIN},
                              {path: {'val kotlinVersion = "2.2.0"': 'val kotlinVersion = "2.3.20"'}})
    assert moves(tree) == {("maven", f"{KOTLIN}{m}", "2.2.0", "2.3.20")
                           for m in ("compiler-embeddable", "reflect", "stdlib")}, tree
    assert partial(patch, path)  # a variable's definition alone cannot be tied to its packages from a patch
    bench = accuracy_bench()
    assert any(bench._same_name("kotlin-compiler-embeddable", c) for c in tree.changes)


def test_a_literal_kotlin_module_line_is_read_from_the_patch(tmp_path: Path) -> None:
    path = "build.gradle.kts"
    body = 'dependencies {\n    testImplementation(kotlin("test", "1.9.0"))\n    implementation(kotlin("stdlib"))\n}\n'
    tree, patch = both_edited(tmp_path, {path: body}, {path: {'"test", "1.9.0"': '"test", "1.9.10"'}})
    assert moves(tree) == moves(patch) == {("maven", f"{KOTLIN}test", "1.9.0", "1.9.10")}, (tree, patch)
    assert not partial(patch, path)
    [dep] = [d for d in gradle.parse_build_script(path, body.encode()) if d.name == f"{KOTLIN}test"]
    assert dep.scope == "dev"


@each_case("line, named", [
    ('implementation(kotlin("reflect", "2.0.0"))', [(f"{KOTLIN}reflect", "2.0.0")]),
    ('implementation(kotlin("reflect", version = "2.0.0"))', [(f"{KOTLIN}reflect", "2.0.0")]),
    ("implementation(kotlin('reflect', '2.0.0'))", []),  # Kotlin strings are double-quoted: not this call
    ('api(kotlin("stdlib-jdk8", kv))', [(f"{KOTLIN}stdlib-jdk8", "2.1.0")]),  # the script's variable
    ('api(kotlin("stdlib", unknownVersion))', [(f"{KOTLIN}stdlib", "$unknownVersion")]),  # kept as written
    ('implementation(kotlin("stdlib"))', []),  # no version: the plugin's
    ('kotlin("jvm") version "2.0.0"', [("org.jetbrains.kotlin.jvm", "2.0.0")]),  # the plugin, as before
    ('implementation(kotlin("stdlib", "${kv}"))', [(f"{KOTLIN}stdlib", "2.1.0")]),
    ('implementation(kotlin("stdlib", "$kv-RC"))', [(f"{KOTLIN}stdlib", "$kv-RC")]),  # a template: as written
    ('implementation(kotlin("stdlib", listOf("1")))', []),
    ('// implementation(kotlin("stdlib", "1.0"))', []),  # a comment
    ('implementation(notkotlin("stdlib", "1.0"))', []),
    ('implementation(kotlin("", "1.0"))', []),
])
def test_kotlin_module_shapes_and_look_alikes(line: str, named: list[tuple[str, str]]) -> None:
    body = 'val kv = "2.1.0"\n' + line + "\n"
    found = [(d.name, d.version) for d in gradle.parse_build_script("build.gradle.kts", body.encode())]
    assert found == named, found


def test_a_moved_kotlin_module_is_no_code_change() -> None:
    base = REWRITE_KOTLIN.encode()
    head = REWRITE_KOTLIN.replace('"2.2.0"', '"2.3.20"').encode()
    assert not gradle.code_changed("build.gradle.kts", base, head)


# --- Cargo: the minimum Rust a manifest declares -------------------------------------------------------------------

# clap-rs/clap's root Cargo.toml (its shape: a workspace whose members inherit the package keys)
CLAP_ROOT = """\
[workspace]
resolver = "2"
members = [
  "clap_builder",
  "clap_derive",
]

[workspace.package]
repository = "https://github.com/clap-rs/clap"
license = "MIT OR Apache-2.0"
edition = "2021"
rust-version = "1.74"  # MSRV
include = [
  "build.rs",
  "src/**/*",
]

[package]
name = "clap"
version = "4.5.20"
repository.workspace = true
rust-version.workspace = true

[dependencies]
clap_builder = { path = "./clap_builder", version = "=4.5.20", default-features = false }
"""
# a member crate that names its own minimum
MEMBER = """\
[package]
name = "clap_lex"
version = "0.7.2"
edition = "2021"
rust-version = "1.70.0"

[dependencies]
"""


def test_clap_msrv_bump_is_the_rust_tool_with_tree(tmp_path: Path) -> None:
    tree, _ = both_edited(tmp_path, {"Cargo.toml": CLAP_ROOT},
                          {"Cargo.toml": {'rust-version = "1.74"': 'rust-version = "1.85"'}})
    assert moves(tree) == {("tool", "rust", "1.74", "1.85")}, tree
    assert not partial(tree, "Cargo.toml"), tree.problems
    bench = accuracy_bench()
    assert bench._same_name("rust", tree.changes[0]) and bench._same_version("1.85", tree.changes[0].to_version)


def test_a_member_msrv_bump_is_the_rust_tool_with_tree(tmp_path: Path) -> None:
    path = "clap_lex/Cargo.toml"
    tree, _ = both_edited(tmp_path, {path: MEMBER}, {path: {'"1.70.0"': '"1.74"'}})
    assert moves(tree) == {("tool", "rust", "1.70.0", "1.74")}, tree
    assert not partial(tree, path)


@each_case("body, named", [
    ('[package]\nname = "a"\nrust-version = "1.85"\n', [("tool", "rust", "1.85", "build")]),
    ('[workspace.package]\nrust-version = "1.85"\n', [("tool", "rust", "1.85", "build")]),
    ('[package]\nname = "a"\nrust-version.workspace = true\n', []),  # inherited: the root names it
    ('[package]\nname = "a"\nrust-version = 185\n', []),  # no string: not read (and stays residue)
    ('[package]\nname = "a"\nrust-version = ""\n', []),
    ('[dependencies]\nrust-version = "1.85"\n', [("cargo", "rust-version", "1.85", "runtime")]),  # a crate so named
    ('[package.metadata]\nrust-version = "1.85"\n', []),  # a tool's metadata, not Cargo's
    ('[package]\nname = "a"\nrust-version = "' + "1" * 300 + '"\n', []),  # past the bound
])
def test_rust_version_shapes_and_look_alikes(body: str, named: list[tuple[str, str, str, str]]) -> None:
    found = [(d.ecosystem, d.name, d.version, d.scope) for d in cargo.parse_cargo_toml("Cargo.toml", body.encode())]
    assert found == named, found


def test_other_package_keys_stay_residue() -> None:
    base = b'[package]\nname = "a"\nrust-version = "1.74"\nbuild = "build.rs"\n'
    assert not residue.changed("Cargo.toml", base, base.replace(b'"1.74"', b'"1.85"'))
    assert residue.changed("Cargo.toml", base, base.replace(b'"build.rs"', b'"evil.rs"'))
    assert residue.changed("Cargo.toml", base, base.replace(b'"1.74"', b"185"))  # not read: residue as before


# --- Gradle: a moved version variable no read dependency uses (the silent class behind rewrite-kotlin's miss) --------

# the same script with the compiler's modules spelled through a call the readers do not know: before round 45 the
# moved variable was masked as a version literal and nothing read used it — no change and no problem
UNREAD_CALL = REWRITE_KOTLIN.replace('kotlin("compiler-embeddable", kotlinVersion)',
                                     'create("org.jetbrains.kotlin", "kotlin-compiler-embeddable", kotlinVersion)')
# nowinandroid-era root script (its shape: ext versions the modules' scripts read, and one the root's classpath reads)
ROOT_EXT = """\
buildscript {
    ext.kotlin_version = '1.9.0'
    ext.compose_version = '1.5.0'
    dependencies {
        classpath "org.jetbrains.kotlin:kotlin-gradle-plugin:$kotlin_version"
    }
}
"""
OKHTTP_USE = 'dependencies { implementation "com.squareup.okhttp3:okhttp:$okhttpVersion" }\n'
OKHTTP_OWN = ('allprojects {{\n  group = "com.squareup.okhttp3"\n  version = "{}"\n}}\n'
              'plugins {{ id("x") version "1" }}\n')


def test_hostile_scripts_with_many_variables_are_fast() -> None:
    base = "".join(f'val v{i} = "1.{i}"\nfoo(v{i})\n' for i in range(10_000)).encode()
    head = base.replace(b'"1.', b'"2.')
    each_fast([(lambda: gradle.code_changed("build.gradle.kts", base, head), "10,000 moved variables")], 5.0)
    assert gradle.code_changed("build.gradle.kts", base, head)


def test_a_moved_variable_an_unread_call_uses_is_partial_with_tree(tmp_path: Path) -> None:
    path = "rewrite-kotlin/build.gradle.kts"
    tree, _ = both_edited(tmp_path, {path: UNREAD_CALL},
                          {path: {'val kotlinVersion = "2.2.0"': 'val kotlinVersion = "2.3.20"'}})
    assert partial(tree, path), tree.problems  # kotlin("reflect"/"stdlib", …) move, the create(…) one is unread


@each_case("base, head, changed", [
    # a variable a read coordinate or kotlin() uses: explained by that dependency's move
    (REWRITE_KOTLIN, REWRITE_KOTLIN.replace('"2.2.0"', '"2.3.20"'), False),
    (ROOT_EXT, ROOT_EXT.replace("'1.9.0'", "'1.9.10'"), False),
    # a root ext version the modules' scripts read (none in this file): their moves explain it, with --tree
    (ROOT_EXT, ROOT_EXT.replace("'1.5.0'", "'1.5.1'"), False),
    # nowinandroid's init script: a formatter's version a spotless block reads, no package the readers know
    ('val ktlintVersion = "1.0.1"\nspotless { kotlin { ktlint(ktlintVersion) } }\n',
     'val ktlintVersion = "1.4.0"\nspotless { kotlin { ktlint(ktlintVersion) } }\n', True),
    # an `ext {}` block's entry a coordinate reads (okhttp's older root script)
    ("ext {\n    okhttpVersion = '4.12.0'\n}\n" + OKHTTP_USE,
     "ext {\n    okhttpVersion = '5.0.0'\n}\n" + OKHTTP_USE, False),
    # code-quality blocks' toolVersion, set directly or through a block's local so named (read as the tool)
    ('jacoco {\n    toolVersion = "0.8.11"\n}\ndetekt {\n    toolVersion.set("1.23.6")\n}\n',
     'jacoco {\n    toolVersion = "0.8.12"\n}\ndetekt {\n    toolVersion.set("1.23.6")\n}\n', False),
    ('spotbugs {\n    val toolVersion = "4.9.3"\n    this.toolVersion.set(toolVersion)\n}\n',
     'spotbugs {\n    val toolVersion = "4.9.4"\n    this.toolVersion.set(toolVersion)\n}\n', False),
    # a code-quality block's toolVersion through a variable (read as the tool)
    ('val pmdVersion = "7.0.0"\npmd {\n    toolVersion = pmdVersion\n}\n',
     'val pmdVersion = "7.1.0"\npmd {\n    toolVersion = pmdVersion\n}\n', False),
    # the project's own version (okhttp's "Prepare next development version."): a release, as before
    (OKHTTP_OWN.format("5.3.0"), OKHTTP_OWN.format("5.4.0-SNAPSHOT"), False),
    # a variable nothing in the script uses
    ('val unused = "1.0"\n', 'val unused = "2.0"\n', False),
    # used by a call no reader knows, or as the project's own version: reviewed
    ('val v = "1.0"\ndependencies { add("implementation", "g:a:" + v) }\n',
     'val v = "2.0"\ndependencies { add("implementation", "g:a:" + v) }\n', True),
    ('def appVersion = "1.0"\nversion = appVersion\n', 'def appVersion = "1.1"\nversion = appVersion\n', True),
    ("ext.toolsVersion = '34.0.0'\nandroid { buildToolsVersion toolsVersion }\n",
     "ext.toolsVersion = '35.0.0'\nandroid { buildToolsVersion toolsVersion }\n", True),
    # a name used elsewhere only in a `//` comment (openrewrite's commented-out coordinate) is no use
    ('val v = "1.0"\n// implementation("g:a:${v}")\n', 'val v = "2.0"\n// implementation("g:a:${v}")\n', False),
    ('val v = "1.0"\nfoo(v) // v\n', 'val v = "2.0"\nfoo(v) // v\n', True),
])
def test_moved_variable_shapes(base: str, head: str, changed: bool) -> None:
    assert gradle.code_changed("build.gradle", base.encode(), head.encode()) is changed
