"""Starlark version records and Bazel-mirrored downloads (round 58's misses, bazelbuild/rules_kotlin and rules_java):

- rules_kotlin's versions.bzl keeps each download as `NAME = version(version = "2.3.10", url_templates = [".../
  JetBrains/kotlin/releases/download/v{version}/kotlin-compiler-{version}.zip"], sha256 = …)`: "Update Kotlin to
  2.3.10" moved the `version` and `sha256` lines and named nothing in either mode (gatekeeper/deps/bzlversions.py);
- rules_java's `http_archive` of java_tools lists `https://mirror.bazel.build/bazel_java_tools/…` beside the GitHub
  release at tag `java_v11.12`: a list with a non-GitHub URL was not read, and the tag led by the project's name was
  no version (gatekeeper/deps/bazelrepos.py).
Look-alikes: a template without `{version}`, a version that is no literal, two templates naming different packages,
a URL of another host, a list of mirror URLs alone, a tag that only ends in digits.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cpucost import assert_linear, repeated

from gatekeeper.deps.bazelrepos import parse_repos
from tests.deltas import both_edited, moves, partial

PATH = "src/main/starlark/core/repositories/versions.bzl"
SHA_A, SHA_B = "a" * 64, "b" * 64

# the shape of rules_kotlin's versions.bzl (2026): records of a `version(...)` helper inside `versions = struct(...)`
KOTLIN = '''\
def _use_repository(name, version, rule, **kwargs):
    http_archive_arguments = dict(kwargs)
    http_archive_arguments["sha256"] = version.sha256
    rule(name = name, **http_archive_arguments)

def version(version, url_templates, sha256, strip_prefix_template = ""):
    return struct(version = version, url_templates = url_templates, sha256 = sha256)

versions = struct(
    RULES_NODEJS_VERSION = "5.5.3",
    PINTEREST_KTLINT = version(
        version = "1.6.0",
        url_templates = [
            "https://github.com/pinterest/ktlint/releases/download/{version}/ktlint",
        ],
        sha256 = "5ba1ac917a06b0f02daaa60d10abbedd2220d60216af670c67a45b91c74cf8bb",
    ),
    KOTLIN_CURRENT_COMPILER_RELEASE = version(
        version = "2.3.0",
        url_templates = [
            "https://github.com/JetBrains/kotlin/releases/download/v{version}/kotlin-compiler-{version}.zip",
        ],
        sha256 = "SHA_A",
    ),
    KOTLIN_BUILD_TOOLS_IMPL = version(
        version = "2.3.0",
        url_templates = [
            "https://repo1.maven.org/maven2/org/jetbrains/kotlin/kotlin-build-tools-impl/{version}/kotlin-build-tools-impl-{version}.jar",
        ],
        sha256 = "SHA_B",
    ),
    use_repository = _use_repository,
)
'''.replace("SHA_A", SHA_A).replace("SHA_B", SHA_B)

# (record text at 1.0.0, what it names) — the record is the file's only one; `{v}` is where the version goes
RECORDS = {
    "version() list": ('X = version(\n    version = "{v}",\n    url_templates = [\n'
                       '        "https://github.com/o/tool/releases/download/v{{version}}/tool-{{version}}.zip",\n'
                       '    ],\n    sha256 = "SHA",\n)\n', ("tool", "o/tool")),
    "struct() one": ('TOOL = struct(\n    version = "{v}",\n    sha256 = "SHA",\n'
                     '    url_template = "https://github.com/o/tool/releases/download/{{version}}/tool.tar.gz",\n)\n',
                     ("tool", "o/tool")),
    "mirror list": ('_T = _version(\n    version = "{v}",\n    url_templates = [\n'
                    '        "https://mirror.bazel.build/github.com/o/tool/releases/download/tool-v{{version}}/t.zip",\n'
                    '        "https://github.com/o/tool/releases/download/tool-v{{version}}/t.zip",\n    ],\n'
                    '    sha256 = "SHA",\n)\n', ("tool", "o/tool")),
    "maven central": ('LIB = version(\n    version = "{v}",\n    url_templates = [\n'
                      '        "https://repo1.maven.org/maven2/com/example/lib-core/{{version}}/lib-core-{{version}}.jar",\n'
                      '    ],\n    sha256 = "SHA",\n)\n', ("maven", "com.example:lib-core")),
    "maven apache": ('    LIB = version(\n        version = "{v}",\n        url_templates = ['
                     '"https://repo.maven.apache.org/maven2/io/x/y/{{version}}/y-{{version}}.jar"],\n'
                     '        sha256 = "SHA",\n    ),\n', ("maven", "io.x:y")),
}
VERSIONS = (("1.0.0", "1.1.0"), ("2.3.0", "2.3.10"), ("0.9", "1.0.0-RC2"))


@pytest.mark.parametrize("case", sorted(RECORDS))
@pytest.mark.parametrize(("old", "new"), VERSIONS)
def test_a_version_record_is_named_in_both_modes(tmp_path: Path, case: str, old: str, new: str) -> None:
    shape, (ecosystem, name) = RECORDS[case]
    before = "load(\"//x:y.bzl\", \"z\")\n\n" + shape.format(v=old).replace("SHA", SHA_A) + "\n# end\n"
    after = before.replace(f'"{old}"', f'"{new}"').replace(SHA_A, SHA_B)
    tree, patch = both_edited(tmp_path, {"third_party/versions.bzl": before}, {"third_party/versions.bzl": {
        before: after}})
    want = {(ecosystem, name, old, new)}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


def test_rules_kotlin_update_kotlin(tmp_path: Path) -> None:
    """9b518fbf's shape: the compiler's and the build tools' version and sha256 lines moved."""
    after = KOTLIN.replace('"2.3.0"', '"2.3.10"').replace(SHA_A, "c" * 64).replace(SHA_B, "d" * 64)
    tree, patch = both_edited(tmp_path, {PATH: KOTLIN}, {PATH: {KOTLIN: after}})
    want = {("tool", "JetBrains/kotlin", "2.3.0", "2.3.10"),
            ("maven", "org.jetbrains.kotlin:kotlin-build-tools-impl", "2.3.0", "2.3.10")}
    assert moves(tree) == want == moves(patch), (tree, patch)
    assert not patch.problems, patch


def test_the_record_is_named_by_its_key() -> None:
    deps = {d.name: d for d in parse_repos(PATH, KOTLIN.encode())}
    assert deps["JetBrains/kotlin"].alias == "KOTLIN_CURRENT_COMPILER_RELEASE"
    assert deps["pinterest/ktlint"].version == "1.6.0"


LOOKALIKES = {
    "no {version}": 'X = version(\n    version = "1.0.0",\n    url_templates = ["https://github.com/o/t/releases/'
                    'download/v1.0.0/t.zip"],\n)\n',
    "variable version": 'X = version(\n    version = V,\n    url_templates = ["https://github.com/o/t/releases/'
                        'download/v{version}/t.zip"],\n)\n',
    "two packages": 'X = version(\n    version = "1.0.0",\n    url_templates = [\n        "https://github.com/o/t/'
                    'releases/download/v{version}/t.zip",\n        "https://github.com/o/u/releases/download/'
                    'v{version}/u.zip",\n    ],\n)\n',
    "another host": 'X = version(\n    version = "1.0.0",\n    url_templates = ["https://127.0.0.1:9/o/t/'
                    '{version}/t.zip"],\n)\n',
    "built by +": 'X = version(\n    version = "1.0.0",\n    url_templates = ["https://github.com/o/t/releases/'
                  'download/v" + "{version}/t.zip"],\n)\n',
    "nested call": 'X = version(\n    version = "1.0.0",\n    url_templates = mirrors("https://github.com/o/t/releases/'
                   'download/v{version}/t.zip"),\n)\n',
    "tag without it": 'X = version(\n    version = "1.0.0",\n    url_templates = ["https://github.com/o/t/releases/'
                      'download/latest/t-{version}.zip"],\n)\n',
}


@pytest.mark.parametrize("case", sorted(LOOKALIKES))
def test_lookalikes_name_nothing(case: str) -> None:
    assert parse_repos("x/versions.bzl", LOOKALIKES[case].encode()) == [], case


JAVA_TOOLS = '''\
load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")

def java_tools_repos():
    """Declares the remote java_tools repositories"""
    maybe(
        http_archive,
        name = "remote_java_tools",
        sha256 = "SHA_A",
        urls = [
            "https://mirror.bazel.build/bazel_java_tools/releases/java/v11.11/java_tools-v11.11.zip",
            "https://github.com/bazelbuild/java_tools/releases/download/java_v11.11/java_tools-v11.11.zip",
        ],
    )
'''.replace("SHA_A", SHA_A)


@pytest.mark.parametrize(("old", "new"), (("11.11", "11.12"), ("12.3", "13.0")))
def test_a_bazel_mirror_beside_a_github_release(tmp_path: Path, old: str, new: str) -> None:
    """rules_java 6e6bd70a's shape: the mirror URL is Bazel's copy of the GitHub release the list also names."""
    before = JAVA_TOOLS.replace("11.11", old)
    after = before.replace(old, new).replace(SHA_A, SHA_B)
    tree, patch = both_edited(tmp_path, {"java/repositories.bzl": before}, {"java/repositories.bzl": {before: after}})
    want = {("tool", "bazelbuild/java_tools", old, new)}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


MIRROR_LOOKALIKES = {
    "mirror alone": ['"https://mirror.bazel.build/bazel_java_tools/releases/java/v11.11/java_tools-v11.11.zip"'],
    "another host beside": ['"https://127.0.0.1:9/java/v11.11/java_tools-v11.11.zip"',
                            '"https://github.com/bazelbuild/java_tools/releases/download/java_v11.11/j.zip"'],
    "digits only at the end": ['"https://github.com/bazelbuild/java_tools/releases/download/java11/j.zip"'],
}


@pytest.mark.parametrize("case", sorted(MIRROR_LOOKALIKES))
def test_mirror_lookalikes_name_nothing(case: str) -> None:
    body = ('http_archive(\n    name = "j",\n    urls = [\n        ' + ",\n        ".join(MIRROR_LOOKALIKES[case])
            + ",\n    ],\n)\n")
    assert parse_repos("WORKSPACE", body.encode()) == [], case


def test_a_cut_record_from_a_patch_stays_partial(tmp_path: Path) -> None:
    """A hunk that shows the sha256 line but not the record's opening line is not read."""
    body = 'X = version(\n    version = "1.0.0",\n' + "".join(f'    a{i} = "1",\n' for i in range(12)) + \
        '    url_templates = ["https://github.com/o/t/releases/download/v{version}/t.zip"],\n' + \
        "".join(f'    b{i} = "1",\n' for i in range(12)) + f'    sha256 = "{SHA_A}",\n)\n'
    after = body.replace(SHA_A, SHA_B)
    tree, patch = both_edited(tmp_path, {"v.bzl": body}, {"v.bzl": {body: after}})
    assert not patch.changes and partial(patch, "v.bzl"), patch


def test_records_cost_linear() -> None:
    unit = ('R = version(\n    version = "1.0.0",\n    url_templates = ["https://github.com/o/t/releases/download/'
            'v{version}/t.zip"],\n    sha256 = "x",\n)\n')
    assert_linear(lambda text: parse_repos("v.bzl", text.encode()), repeated(unit, "", ""), budget=4.0)


# rules_java's JAVA_TOOLS_CONFIG (2025) and rules_python's coverage_deps.bzl (2024): download URLs as data
JAVA_CONFIG = '''\
JAVA_TOOLS_CONFIG = {
    "version": "v13.17",
    "release": "true",
    "artifacts": {
        "java_tools_linux": {
            "mirror_url": "https://mirror.bazel.build/bazel_java_tools/releases/java/v13.17/java_tools_linux-v13.17.zip",
            "github_url": "https://github.com/bazelbuild/java_tools/releases/download/java_v13.17/java_tools_linux-v13.17.zip",
            "sha": "SHA_A",
        },
    },
}
'''.replace("SHA_A", SHA_A)
COVERAGE = '''\
_coverage_deps = {
    "cp310": {
        "aarch64-apple-darwin": (
            "https://files.pythonhosted.org/packages/ed/2d/db83db65d0c3d457f993830b97271a80f11bdc051d86dd44405c436db147/coverage-7.4.1-cp310-cp310-macosx_11_0_arm64.whl",
            "SHA_A",
        ),
    },
}
'''.replace("SHA_A", SHA_A)


@pytest.mark.parametrize(("old", "new"), (("13.17", "13.18"), ("12.9", "13.0")))
def test_a_keyed_github_url_entry_is_named_in_both_modes(tmp_path: Path, old: str, new: str) -> None:
    before = JAVA_CONFIG.replace("13.17", old)
    after = before.replace(old, new).replace(SHA_A, SHA_B)
    tree, patch = both_edited(tmp_path, {"java/repositories.bzl": before}, {"java/repositories.bzl": {before: after}})
    want = {("tool", "bazelbuild/java_tools", old, new)}
    assert moves(tree) == want and not tree.problems, tree
    assert moves(patch) == want and not patch.problems, patch


@pytest.mark.parametrize(("old", "new"), (("7.4.1", "7.4.3"), ("6.5.0", "7.0.0")))
def test_a_pypi_wheel_url_is_named_with_tree(tmp_path: Path, old: str, new: str) -> None:
    """From a patch a bare URL line may be a cut http_archive's; right below a dict entry's `"key": (` the hunk shows
    it is data, read since round 59 (tests/test_deps_bzl_tuple_urls.py)."""
    before = COVERAGE.replace("7.4.1", old)
    after = before.replace(f"coverage-{old}-", f"coverage-{new}-").replace(SHA_A, SHA_B)
    tree, patch = both_edited(tmp_path, {"python/private/coverage_deps.bzl": before},
                              {"python/private/coverage_deps.bzl": {before: after}})
    assert moves(tree) == {("pip", "coverage", old, new)} and not tree.problems, tree
    assert moves(patch) == moves(tree) and not partial(patch, "python/private/coverage_deps.bzl"), patch


@pytest.mark.parametrize("url", [
    "https://127.0.0.1:9/o/t/releases/download/v1.0.0/t.zip",  # another host
    "https://github.com/o/t/blob/v1.0.0/README.md",  # no download
    "https://github.com/o/t/releases/download/latest/t.zip",  # no version
    "https://files.pythonhosted.org/packages/ab/cd/notawheel.txt",
])
def test_literal_lookalikes_name_nothing(url: str) -> None:
    body = f'X = {{\n    "url": "{url}",\n    "b": [\n        "{url}",\n    ],\n}}\n'
    assert parse_repos("x.bzl", body.encode()) == []


def test_a_url_inside_a_repository_rule_is_the_rule_readers() -> None:
    """An http_archive that also fetches from another host is not read; its GitHub line is not read apart."""
    body = ('http_archive(\n    name = "j",\n    urls = [\n        "https://127.0.0.1:9/j-v1.0.zip",\n'
            '        "https://github.com/o/j/releases/download/v1.0.0/j.zip",\n    ],\n)\n')
    assert parse_repos("WORKSPACE", body.encode()) == []
