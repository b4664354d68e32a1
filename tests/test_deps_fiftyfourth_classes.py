"""Classes of misses the fifty-fourth blind set (bench/deps_bumps_fiftyfourth.tsv) showed, each with look-alikes that
must not match and malformed variants that are a finding, never a crash or a silent pass.

- A requirement whose marker is glued to its direct reference (urllib3's dev-requirements.txt: `trio @
  git+https://…@e4c8…; python_version == "3.13"` is PEP 508, `…@e4c8…;python_version…` is not): pip ends a line that
  is not itself a URL at its first `;`, so pip installs it; the reader refused the whole file, and the file's bumps
  (cryptography, pyOpenSSL, pytest) named nothing.
- An EDN keyword whose name starts with a digit (next-jdbc's `:1.10` alias): Clojure's EDN reader reads it, ours
  refused the whole deps.edn.
- Bazel's `maybe(http_archive, name = …, urls = […])` (rules_swift's `_maybe`): the rule passed to the wrapper that
  declares it once; the call was not read, so three hand bumps named nothing.
- From a patch: a deps.edn library whose coordinate map goes on below its line (clojure-lsp's `clj-kondo/clj-kondo
  {:mvn/version "…"` over `:exclude […]}`), and a Cargo dependency's own table (`[dependencies.polars]`,
  `[target.'cfg(windows)'.dependencies.windows-sys]`) whose `version = "…"` line moved.
- A setup action's inputs that each pin one tool (DeLaGuardo/setup-clojure's `lein: 2.9.5`, `cli:`, `bb:`).
- A yarn.lock copy dropped beside the one copy left, above it in another release line (postcss's set-value 0.4.3 gone
  beside 2.0.1, "Bump set-value from 0.4.3 to 2.0.1"): read as a removal; now the dependents' move to that copy.
- A setup input read from the workflow's environment (unison's Bogdanp/setup-racket `version: ${{env.racket_version}}`
  over `env: racket_version: "8.14"`): the input was not read; now `${{ env.NAME }}` is the value the file's `env:`
  blocks give NAME, when they all give it one; and (deps53's lead) a reusable workflow's `${{ inputs.NAME }}` is its
  `on: workflow_call: inputs:` default, as an action file's is.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import edn
from gatekeeper.deps.actions import input_defaults, parse_workflow
from gatekeeper.deps.bazelrepos import parse_repos
from gatekeeper.deps.cljdeps import parse_deps_edn
from gatekeeper.deps.delta import diff
from gatekeeper.deps.model import Change, Dependency, ManifestError
from gatekeeper.deps.npm import parse_yarn_lock
from gatekeeper.deps.pypi import parse_requirements, pep508
from tests.deltas import both_edited, each_fast, moves, partial, refused

# --- 1. a marker glued to a direct reference in a requirements file ---------------------------------------------------

# urllib3/urllib3's dev-requirements.txt of January 2024 (its shape: pins, markers, and git references with markers
# glued to them)
URLLIB3_DEV = """\
h2==4.1.0
coverage==7.4.1
PySocks==1.7.1
pytest==7.4.4
pytest-timeout==2.1.0
pyOpenSSL==23.2.0
idna==3.4
trustme==1.1.0
cryptography==41.0.6
backports.zoneinfo==0.2.1;python_version<"3.9"
towncrier==23.6.0
pytest-memray==1.5.0;python_version<"3.13" and sys_platform!="win32" and implementation_name=="cpython"
trio==0.23.1;python_version<"3.13"
# We need a release of Trio newer than 0.24.0 to support CPython 3.13.
trio @ git+https://github.com/python-trio/trio@e4c8eb2d7ef59eeea1441656e392fe1b0870a374; python_version == "3.13"
Quart==0.19.4
quart-trio==0.11.1
hypercorn @ git+https://github.com/urllib3/hypercorn@urllib3-changes
httpx==0.25.2
cffi @ git+https://github.com/python-cffi/cffi@14723b0bbd127790c450945099db31018d80fa83; python_version == "3.13"
"""
TRIO_SHA = "e4c8eb2d7ef59eeea1441656e392fe1b0870a374"


def test_urllib3s_bumps_are_named_in_both_modes(tmp_path: Path) -> None:
    edits = {"dev-requirements.txt": {"cryptography==41.0.6": "cryptography==42.0.2",
                                      "pyOpenSSL==23.2.0": "pyOpenSSL==24.0.0"}}
    tree, patch = both_edited(tmp_path, {"dev-requirements.txt": URLLIB3_DEV}, edits)
    want = {("pip", "cryptography", "41.0.6", "42.0.2"), ("pip", "pyOpenSSL", "23.2.0", "24.0.0")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    assert not tree.problems and not patch.problems


def test_the_glued_reference_moving_is_its_change(tmp_path: Path) -> None:
    edits = {"dev-requirements.txt": {TRIO_SHA: "f" * 40}}
    tree, patch = both_edited(tmp_path, {"dev-requirements.txt": URLLIB3_DEV}, edits)
    for delta in (tree, patch):
        (change,) = delta.changes
        assert change.name == "trio" and (change.to_version or "").startswith("f" * 40), delta
        assert not delta.problems, delta


# (line, name, marker the options keep): pip splits a line that is no URL at its first `;`
GLUED = [
    (f'trio @ git+https://github.com/python-trio/trio@{TRIO_SHA};python_version == "3.13"', "trio",
     'python_version == "3.13"'),
    ('cffi @ git+https://github.com/python-cffi/cffi@main;python_version>="3.13"', "cffi", 'python_version >= "3.13"'),
    ("pkg @ https://files.example.invalid/pkg-1.0-py3-none-any.whl;sys_platform=='linux'", "pkg",
     'sys_platform == "linux"'),
    ("pkg[extra] @ https://files.example.invalid/pkg-1.0.tar.gz;os_name=='nt'", "pkg", 'os_name == "nt"'),
    ("pkg@git+https://example.invalid/o/pkg.git@v1.2;python_version<'3.12'", "pkg", 'python_version < "3.12"'),
]


@each_case("line, name, marker", GLUED)
def test_a_glued_marker_is_read_as_pip_reads_it(line: str, name: str, marker: str) -> None:
    (dep,) = parse_requirements("requirements.txt", f"{line}\n".encode())
    assert dep.name == name and marker in dep.options, dep


@each_case("line, name, marker", GLUED)
def test_a_glued_marker_reads_as_its_spaced_spelling(line: str, name: str, marker: str) -> None:
    spaced = line.replace(";", " ; ", 1)
    (glued,) = parse_requirements("requirements.txt", f"{line}\n".encode())
    (written,) = parse_requirements("requirements.txt", f"{spaced}\n".encode())
    assert (glued.name, glued.version, glued.options) == (written.name, written.version, written.options)


@each_case("line", [
    "trio @ git+https://example.invalid/trio;not a marker",  # what follows the `;` is no marker
    "trio @ git+https://example.invalid/trio;python_version ==",
    "trio @ ;python_version<'3'",  # no reference
    "@ git+https://example.invalid/x;python_version<'3'",  # no name
    "trio @ git+https://example.invalid/a b;python_version<'3'",  # a blank inside the reference
])
def test_a_glued_look_alike_is_still_refused(line: str) -> None:
    with pytest.raises(ManifestError):
        parse_requirements("requirements.txt", f"{line}\n".encode())


@each_case("line", [
    "./x;python_version<'3'",  # a local path's glued marker stays refused (round 29)
])
def test_a_local_paths_glued_marker_stays_refused(line: str) -> None:
    with pytest.raises(ManifestError):
        parse_requirements("requirements.txt", f"{line}\n".encode())


def test_pep508_lists_keep_packagings_reading() -> None:
    """pyproject.toml's lists are read by packaging, as pip reads them there: a `;` with no blank before it is part of
    the URL, so the glued text stays in the reference (and a change of it is a change of the reference)."""
    dep = pep508(f"trio @ git+https://github.com/python-trio/trio@{TRIO_SHA};python_version<'3'", "pyproject.toml",
                 "runtime")
    assert dep.version.endswith(";python_version<'3'") and not dep.options, dep


def test_a_plain_pin_with_a_glued_marker_is_unchanged() -> None:
    (dep,) = parse_requirements("requirements.txt", b'trio==0.23.1;python_version<"3.13"\n')
    assert (dep.name, dep.version) == ("trio", "0.23.1") and "python_version" in dep.options


# --- 2. an EDN keyword whose name starts with a digit -------------------------------------------------------------

# seancorfield/next-jdbc's deps.edn of 2023 (its shape: aliases named by Clojure versions)
NEXT_JDBC = """\
{:mvn/repos {"sonatype" {:url "https://oss.sonatype.org/content/repositories/snapshots/"}}
 :paths ["src" "resources"]
 :deps {org.clojure/clojure {:mvn/version "1.10.3"}
        org.clojure/java.data {:mvn/version "1.0.95"}
        camel-snake-kebab/camel-snake-kebab {:mvn/version "0.4.3"}}
 :aliases
 {;; for help: clojure -A:deps -T:build help/doc
  :build {:deps {io.github.clojure/tools.build {:mvn/version "0.9.4"}
                 slipset/deps-deploy {:mvn/version "0.2.1"}}
          :ns-default build}

  ;; versions to test against:
  :1.10 {:override-deps {org.clojure/clojure {:mvn/version "1.10.3"}}}
  :1.11 {:override-deps {org.clojure/clojure {:mvn/version "1.11.1"}}}
  :master {:override-deps {org.clojure/clojure {:mvn/version "1.12.0-master-SNAPSHOT"}}}

  ;; running tests/checks of various kinds:
  :test {:extra-paths ["test"]
         :extra-deps {io.github.cognitect-labs/test-runner
                      {:git/tag "v0.5.1" :git/sha "dfb30dd"}
                      org.clojure/test.check {:mvn/version "1.1.1"}}}}}
"""


def test_next_jdbcs_tools_build_bump_is_named_in_both_modes(tmp_path: Path) -> None:
    edits = {"deps.edn": {'tools.build {:mvn/version "0.9.4"}': 'tools.build {:mvn/version "0.9.5"}'}}
    tree, patch = both_edited(tmp_path, {"deps.edn": NEXT_JDBC}, edits)
    want = {("maven", "io.github.clojure:tools.build", "0.9.4", "0.9.5")}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    assert not tree.problems
    assert partial(patch, "deps.edn"), patch  # its line opens an alias's map and its :deps: not the file's own


def test_the_aliases_named_by_versions_are_read() -> None:
    deps = parse_deps_edn("deps.edn", NEXT_JDBC.encode())
    aliases = {d.options for d in deps if d.name == "org.clojure:clojure"}
    assert any(":1.10" in o for o in aliases) and any(":1.11" in o for o in aliases), aliases


@each_case("word, name", [
    (":1.10", "1.10"), (":1", "1"), (":1.12.0-alpha", "1.12.0-alpha"), (":2x", "2x"), (":9/a", "9/a"),
    (":1.10/test", "1.10/test"),
])
def test_a_keyword_may_start_with_a_digit(word: str, name: str) -> None:
    assert edn.loads(f"{{{word} 1}}") == {edn.Keyword(name): edn.Number("1")}


@each_case("word", [
    ":", "::1", ":a/1", ":1/", ":a/", "::a", ":1/2",  # Clojure's reader refuses each: a name after `/` that is a
])                                                   # number, an empty name, an auto-resolved keyword
def test_a_keyword_look_alike_is_still_refused(word: str) -> None:
    with pytest.raises(ManifestError):
        edn.loads(f"{{{word} 1}}")


# --- 3. Bazel's maybe(http_archive, …) -------------------------------------------------------------------------------

# bazelbuild/rules_swift's swift/repositories.bzl of 2020 (its shape: a local `_maybe` wrapper, one call per repository)
RULES_SWIFT = '''\
"""Definitions for handling Bazel repositories used by the Swift rules."""

load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")

def _maybe(repo_rule, name, **kwargs):
    """Executes the given repository rule if it hasn't been executed already."""
    if not native.existing_rule(name):
        repo_rule(name = name, **kwargs)

def swift_rules_dependencies():
    """Fetches repositories that are dependencies of the `rules_swift` workspace."""
    _maybe(
        http_archive,
        name = "bazel_skylib",
        urls = [
            "https://github.com/bazelbuild/bazel-skylib/releases/download/0.9.0/bazel_skylib-0.9.0.tar.gz",
        ],
        sha256 = "1dde365491125a3db70731e25658dfdd3bc5dbdfd11b840b3e987ecf043c7ca0",
    )

    _maybe(
        http_archive,
        name = "build_bazel_apple_support",
        urls = [
            "https://github.com/bazelbuild/apple_support/releases/download/0.10.0/apple_support.0.10.0.tar.gz",
        ],
        sha256 = "741366f79d900c11e11d8efd6cc6c66a31bfb2451178b58e0b5edc6f1db17b35",
    )

    _maybe(
        http_archive,
        name = "build_bazel_rules_swift_index_import",
        build_file = "@build_bazel_rules_swift//third_party:build_bazel_rules_swift_index_import/BUILD.overlay",
        canonical_id = "index-import-5.3.2.6",
        urls = ["https://github.com/MobileNativeFoundation/index-import/releases/download/5.3.2.6/index-import.zip"],
        sha256 = "61a58363f56c5fd84d4ebebe0d9b5dd90c74ae170405a7b9018e8cf698e679de",
    )

    _maybe(
        swift_autoconfiguration,
        name = "build_bazel_rules_swift_local_config",
    )
'''


def test_rules_swifts_bumps_are_named_in_both_modes(tmp_path: Path) -> None:
    edits = {"swift/repositories.bzl": {
        "download/0.9.0/bazel_skylib-0.9.0.tar.gz": "download/1.0.2/bazel-skylib-1.0.2.tar.gz",
        "1dde365491125a3db70731e25658dfdd3bc5dbdfd11b840b3e987ecf043c7ca0": "9" * 64,
        "download/5.3.2.6/index-import.zip": "download/5.7/index-import.tar.gz",
        '"index-import-5.3.2.6"': '"index-import-5.7"'}}
    tree, patch = both_edited(tmp_path, {"swift/repositories.bzl": RULES_SWIFT}, edits)
    want = {("tool", "bazelbuild/bazel-skylib", "0.9.0", "1.0.2"),
            ("tool", "MobileNativeFoundation/index-import", "5.3.2.6", "5.7")}
    assert moves(tree) == want, tree
    assert not tree.problems
    # git's hunks open at `http_archive,`: the `_maybe(` above, which says the rule is only passed on, is not shown;
    # since round 59 the call is read as `maybe(...)` and named beside that `partial` problem
    # (tests/test_deps_bzl_cut_openings.py)
    assert moves(patch) == want and partial(patch, "swift/repositories.bzl"), patch


def test_a_hunk_showing_the_maybe_call_whole_names_its_bump(tmp_path: Path) -> None:
    _, patch = both_edited(tmp_path, {"swift/repositories.bzl": RULES_SWIFT}, {"swift/repositories.bzl": {
        'name = "build_bazel_apple_support",': 'name = "build_bazel_apple_support",  # the tools',
        "download/0.10.0/apple_support.0.10.0.tar.gz": "download/0.11.0/apple_support.0.11.0.tar.gz"}})
    assert ("tool", "bazelbuild/apple_support", "0.10.0", "0.11.0") in moves(patch), patch


def test_each_maybe_call_of_a_release_is_read() -> None:
    deps = {(d.name, d.version, d.alias) for d in parse_repos("swift/repositories.bzl", RULES_SWIFT.encode())}
    assert deps == {("bazelbuild/bazel-skylib", "0.9.0", "bazel_skylib"),
                    ("bazelbuild/apple_support", "0.10.0", "build_bazel_apple_support"),
                    ("MobileNativeFoundation/index-import", "5.3.2.6", "build_bazel_rules_swift_index_import")}


URL = "https://github.com/o/r/releases/download/v1.2.3/r.tar.gz"


@each_case("call", [
    f'maybe(http_archive, name = "r", urls = ["{URL}"])',
    f'maybe(\n    http_archive,\n    name = "r",\n    url = "{URL}",\n)',
    f'_maybe(http_file, name = "r", urls = ["{URL}"], sha256 = "{"0" * 64}")',
    f'    maybe(\n        http_archive,\n        name = "r",\n        urls = ["{URL}"],\n    )',
])
def test_a_maybe_call_is_read_as_the_rule_it_passes(call: str) -> None:
    (dep,) = parse_repos("deps.bzl", f'load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")\n{call}\n'
                         .encode())
    assert (dep.name, dep.version, dep.alias) == ("o/r", "v1.2.3", "r")


@each_case("call", [
    f'maybe(git_repository, name = "r", urls = ["{URL}"])',  # another rule
    f'maybe(http_archive, name = "r", urls = ["{URL}".format(v)])',  # a URL built at load time
    f'mirrored(http_archive, name = "r", urls = ["{URL}"])',  # a wrapper that may rewrite its URLs
    f'maybe(http_archive, "r", urls = ["{URL}"])',  # a positional name
    f'x = "maybe(http_archive, name = \\"r\\", urls = [\\"{URL}\\"])"',  # a string
])
def test_a_maybe_look_alike_names_nothing(call: str) -> None:
    assert parse_repos("deps.bzl", f"{call}\n".encode()) == []


def test_a_maybe_call_not_read_is_held_on_either_side(tmp_path: Path) -> None:
    """A call one side reads and the other writes with a built URL is not a removal: heldvars makes it unparsable."""
    built = RULES_SWIFT.replace('"https://github.com/bazelbuild/bazel-skylib/releases/download/0.9.0/'
                                'bazel_skylib-0.9.0.tar.gz"', '"https://github.com/bazelbuild/bazel-skylib/releases/'
                                'download/{v}/bazel-skylib-{v}.tar.gz".format(v = SKYLIB)')
    tree, _ = both_edited(tmp_path, {"swift/repositories.bzl": RULES_SWIFT}, {"swift/repositories.bzl": {
        RULES_SWIFT: built}})
    assert not any(c.change == "removed" for c in tree.changes), tree
    assert tree.problems, tree


# --- 4. from a patch: a deps.edn coordinate going on below its line; a Cargo dependency's own table ------------------

# clojure-lsp/clojure-lsp's lib/deps.edn of 2026 (its shape: a coordinate with a discarded key and exclusions below)
CLOJURE_LSP_LIB = """\
{:paths ["src" "resources"]
 :deps {org.clojure/clojure {:mvn/version "1.12.0"}
        org.clojure/core.async {:mvn/version "1.8.741"}
        com.github.clj-easy/stub {:mvn/version "0.2.3"}
        rewrite-clj/rewrite-clj {:mvn/version "1.1.49"}
        dev.weavejester/cljfmt {:mvn/version "0.13.1"}
        com.googlecode.java-diff-utils/diffutils {:mvn/version "1.3.0"}
        medley/medley {:mvn/version "1.4.0"}
        anonimitoraf/clj-flx {:mvn/version "1.2.0"}
        clj-kondo/clj-kondo {:mvn/version "2026.08.05-20260820.165045-5"
                             #_#_:local/root "../../clj-kondo"
                             :exclude [com.cognitect/transit-clj
                                       babashka/fs]}
        com.fabiodomingues/clj-depend {:mvn/version "0.11.1"}
        org.clojure/tools.deps {:mvn/version "0.21.1467"}}
 :aliases {:test {:extra-deps {lambdaisland/kaocha {:mvn/version "1.91.1392"}}}}}
"""
OLD_KONDO, NEW_KONDO = "2026.08.05-20260820.165045-5", "2026.08.05-20260820.182726-6"


def test_clojure_lsps_kondo_bump_is_named_from_the_patch(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"lib/deps.edn": CLOJURE_LSP_LIB}, {"lib/deps.edn": {OLD_KONDO: NEW_KONDO}})
    want = {("maven", "clj-kondo:clj-kondo", OLD_KONDO, NEW_KONDO)}
    assert moves(tree) == moves(patch) == want, (tree, patch)
    assert not tree.problems
    assert partial(patch, "lib/deps.edn"), patch  # the rest of its coordinate may hold another source: not shown


def test_an_unclosed_coordinate_names_its_version_beside_a_problem(tmp_path: Path) -> None:
    body = CLOJURE_LSP_LIB.replace('medley/medley {:mvn/version "1.4.0"}',
                                   'medley/medley {:mvn/version "1.4.0"\n               :exclusions [a/b]}')
    _, patch = both_edited(tmp_path, {"lib/deps.edn": body}, {"lib/deps.edn": {'"1.4.0"': '"1.4.1"'}})
    assert moves(patch) == {("maven", "medley:medley", "1.4.0", "1.4.1")}, patch
    assert partial(patch, "lib/deps.edn"), patch


@each_case("line", [
    'clj-kondo/clj-kondo {:git/sha "abc"',  # another source
    'clj-kondo/clj-kondo {:mvn/version 1.0',  # no string
    'clj-kondo/clj-kondo {:mvn/version "1.0" :git/sha "abc"',  # two sources on the line
    '#_clj-kondo/clj-kondo {:mvn/version "1.0"',  # discarded
    'clj-kondo/clj-kondo {:mvn/version "1.0"}}}}} extra',
])
def test_an_unclosed_look_alike_names_nothing(tmp_path: Path, line: str) -> None:
    body = CLOJURE_LSP_LIB.replace(f'clj-kondo/clj-kondo {{:mvn/version "{OLD_KONDO}"', line)
    _, patch = both_edited(tmp_path, {"lib/deps.edn": CLOJURE_LSP_LIB}, {"lib/deps.edn": {CLOJURE_LSP_LIB: body}})
    assert not any(c.name == "clj-kondo:clj-kondo" and c.to_version not in (None, OLD_KONDO)
                   for c in patch.changes), patch
    assert partial(patch, "lib/deps.edn"), patch


# tokio-rs/mio's Cargo.toml of 2025 and elixir-nx/explorer's native/explorer/Cargo.toml of 2022 (their shapes: a
# dependency's own table, its features array running past a three-line hunk)
MIO = """\
[package]
name = "mio"
version = "1.0.4"
edition = "2021"
rust-version = "1.74"

[features]
os-poll = []
os-ext = ["os-poll", "windows-sys/Win32_System_Pipes", "windows-sys/Win32_Security"]
net = []

[target.'cfg(unix)'.dependencies]
libc = "0.2.159"

[target.'cfg(windows)'.dependencies.windows-sys]
version = "0.59"
features = [
  "Wdk_Foundation",                   # Required for AFD.
  "Wdk_Storage_FileSystem",           # Required for AFD.
  "Wdk_System_IO",                    # Required for AFD.
  "Win32_Foundation",                 # Basic types eg HANDLE
  "Win32_Networking_WinSock",         # winsock2 types/functions
  "Win32_Storage_FileSystem",         # Enables NtCreateFile
  "Win32_System_IO",                  # IO types like OVERLAPPED etc
  "Win32_System_WindowsProgramming",  # General future used for various types/funcs
]

[dev-dependencies]
env_logger = { version = "0.9.3", default-features = false }
rand = "0.8"
"""
EXPLORER = """\
[package]
name = "explorer"
version = "0.1.0"
edition = "2021"

[lib]
name = "explorer"
crate-type = ["cdylib"]

[dependencies]
anyhow = "1"
chrono = "0.4"
rand = { version = "0.8.4", features = ["alloc"] }
rustler = "0.23.0"
thiserror = "1"
mimalloc = { version = "*", default-features = false }

[dependencies.polars]
version = "0.21.1"
default-features = false
features = [
  "cross_join",
  "checked_arithmetic",
  "csv-file",
  "dtype-date",
  "dtype-datetime",
  "ipc",
  "json",
  "parquet",
  "performant",
]
"""


def test_mios_windows_sys_bump_is_named_from_the_patch(tmp_path: Path) -> None:
    edits = {"Cargo.toml": {'version = "0.59"': 'version = "0.60"',
                            '"Win32_Storage_FileSystem",         # Enables NtCreateFile\n':
                            '"Win32_Storage_FileSystem",         # Enables NtCreateFile\n'
                            '  "Win32_Security",                   # Enables NtCreateFile\n'}}
    tree, patch = both_edited(tmp_path, {"Cargo.toml": MIO}, edits)
    assert ("cargo", "windows-sys", "0.59", "0.60") in moves(tree), tree
    assert ("cargo", "windows-sys", "0.59", "0.60") in moves(patch), patch
    assert partial(patch, "Cargo.toml"), patch  # its features moved in a hunk that does not show the table's header


def test_explorers_polars_bump_is_named_from_the_patch(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"native/explorer/Cargo.toml": EXPLORER},
                              {"native/explorer/Cargo.toml": {'version = "0.21.1"': 'version = "0.22.1"'}})
    assert moves(tree) == moves(patch) == {("cargo", "polars", "0.21.1", "0.22.1")}, (tree, patch)
    assert partial(patch, "native/explorer/Cargo.toml"), patch  # the table runs on past the hunk


@each_case("header, name", [
    ("[dependencies.polars]", "polars"), ("[dev-dependencies.polars]", "polars"),
    ("[build-dependencies.polars]", "polars"), ("[workspace.dependencies.polars]", "polars"),
    ("[target.'cfg(windows)'.dependencies.polars]", "polars"),
    ('[target."x86_64-pc-windows-gnu".dev-dependencies.polars]', "polars"),
    ("[ dependencies . polars ]", "polars"), ('[dependencies."polars-core"]', "polars-core"),
])
def test_a_dependency_tables_version_is_named_from_a_hunk(tmp_path: Path, header: str, name: str) -> None:
    body = f'[package]\nname = "x"\nversion = "0.1.0"\n\n{header}\nversion = "0.21.1"\ndefault-features = false\n'
    _, patch = both_edited(tmp_path, {"Cargo.toml": body}, {"Cargo.toml": {'"0.21.1"': '"0.22.1"'}})
    assert moves(patch) == {("cargo", name, "0.21.1", "0.22.1")}, patch


@each_case("table", [
    '[dependencies.polars]\nversion = "0.21.1"\npackage = "polars-core"\n',  # renamed: another crate
    '[dependencies.polars]\ngit = "https://example.invalid/p"\nversion = "0.21.1"\n',  # another source
    '[dependencies.polars]\npath = "../polars"\nversion = "0.21.1"\n',
    '[dependencies.polars]\nregistry = "corp"\nversion = "0.21.1"\n',
    '[package]\nname = "x"\nversion = "0.21.1"\n',  # the project's own version
    '[workspace.package]\nversion = "0.21.1"\n',
    '[dependencies.polars.features]\nversion = "0.21.1"\n',  # a deeper table
    '[profile.release.package.polars]\nversion = "0.21.1"\n',
    '[patch.crates-io.polars]\nversion = "0.21.1"\n',
])
def test_a_tables_version_look_alike_names_no_crate_at_it(tmp_path: Path, table: str) -> None:
    body = f'[lib]\nname = "x"\n\n{table}\n[features]\ndefault = []\n'
    _, patch = both_edited(tmp_path, {"Cargo.toml": body}, {"Cargo.toml": {'"0.21.1"': '"0.22.1"'}})
    assert not any(c.to_version == "0.22.1" and c.name in ("polars", "polars-core") and c.change == "upgraded"
                   and not partial(patch, "Cargo.toml") for c in patch.changes), patch
    assert not any(c.name == "version" for c in patch.changes), patch


def test_a_version_line_with_no_header_shown_is_refused(tmp_path: Path) -> None:
    body = "[dependencies.polars]\n" + "".join(f'# {i}\n' for i in range(8)) + 'version = "0.21.1"\n'
    _, patch = both_edited(tmp_path, {"Cargo.toml": body}, {"Cargo.toml": {'"0.21.1"': '"0.22.1"'}})
    assert partial(patch, "Cargo.toml") and not patch.changes, patch


# --- 5. a setup action's inputs that each pin a tool ----------------------------------------------------------------

CLOJURE_LSP_CI = """\
name: CI
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - name: Prepare java
        uses: actions/setup-java@v1
        with:
          java-version: 1.8

      - name: Install leiningen
        uses: DeLaGuardo/setup-clojure@master
        with:
          lein: 2.9.3
          cli: 1.10.1.727
          bb: latest

      - name: Run tests
        run: lein test
"""


def test_clojure_lsps_lein_bump_is_named_in_both_modes(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {".github/workflows/ci.yml": CLOJURE_LSP_CI},
                              {".github/workflows/ci.yml": {"lein: 2.9.3": "lein: 2.9.5"}})
    assert moves(tree) == moves(patch) == {("tool", "lein", "2.9.3", "2.9.5")}, (tree, patch)


@each_case("key, tool", [
    ("lein", "lein"), ("cli", "clojure"), ("bb", "babashka"), ("boot", "boot"), ("clj-kondo", "clj-kondo"),
    ("cljfmt", "cljfmt"), ("cljstyle", "cljstyle"), ("zprint", "zprint"),
])
def test_each_setup_clojure_input_names_its_tool(key: str, tool: str) -> None:
    text = ("jobs:\n  a:\n    steps:\n      - uses: DeLaGuardo/setup-clojure@13.0\n        with:\n"
            f"          {key}: '1.2.3'\n")
    assert {(d.name, d.version) for d in parse_workflow(".github/workflows/a.yml", text.encode())
            if d.ecosystem == "tool"} == {(tool, "1.2.3")}


@each_case("text", [
    "      - uses: DeLaGuardo/setup-clojure@13.0\n        with:\n          lein: latest\n",  # no version
    "      - uses: DeLaGuardo/setup-clojure@13.0\n        with:\n          github-token: 1.2.3\n",  # another input
    "      - uses: other/setup-clojure@13.0\n        with:\n          lein: 1.2.3\n",  # another action
    "      - uses: DeLaGuardo/setup-clojure@13.0\n      - run: echo\n        env:\n          lein: 1.2.3\n",
    "      - uses: DeLaGuardo/setup-clojure@13.0\n    lein: 1.2.3\n",  # not under the step
])
def test_a_setup_clojure_look_alike_names_no_tool(text: str) -> None:
    deps = parse_workflow(".github/workflows/a.yml", f"jobs:\n  a:\n    steps:\n{text}".encode())
    assert not any(d.ecosystem == "tool" for d in deps), deps


# --- 6. a setup input read from the workflow's env ----------------------------------------------------------------

# unisonweb/unison's .github/workflows/bundle-ucm.yaml of 2024 (its shape: the version in the workflow's env, read by
# a setup action through ${{env.racket_version}})
UNISON = """\
name: bundle ucm

on:
  workflow_call:
    inputs:
      ref:
        required: true
        type: string

env:
  racket_version: "8.7"

jobs:
  package-racket-lib:
    runs-on: ubuntu-20.04
    steps:
      - uses: Bogdanp/setup-racket@v1.11
        with:
          architecture: 'x64'
          distribution: 'full'
          variant: 'CS'
          version: ${{env.racket_version}}
"""


def test_unisons_racket_bump_is_named_with_the_tree(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {".github/workflows/bundle-ucm.yaml": UNISON},
                              {".github/workflows/bundle-ucm.yaml": {'"8.7"': '"8.14"'}})
    assert moves(tree) == {("tool", "racket", "8.7", "8.14")}, tree
    assert moves(patch) == moves(tree), patch  # round 57: the lower-case env entry the hunk shows is the tool


STEP = "jobs:\n  a:\n    steps:\n      - uses: {action}\n        with:\n          {key}: {value}\n"


def _step_after(head: str, step: str) -> str:
    """`step`'s job under the `jobs:` that `head` already opens (one `jobs:` key: a workflow that gives it twice is
    refused, round 60)."""
    return step.removeprefix("jobs:\n") if head.startswith("jobs:\n") or "\njobs:\n" in head else step


@each_case("env, action, key, value, tool", [
    ("env:\n  racket_version: '8.7'\n", "Bogdanp/setup-racket@v1", "version", "${{ env.racket_version }}", "racket"),
    ("env:\n  NODE: 20.1.0\n", "actions/setup-node@v4", "node-version", "${{env.NODE}}", "node"),
    ("env:\n  GO: '1.22.2'\n", "actions/setup-go@v5", "go-version", '"${{ env.GO }}"', "go"),
    ("env:\n  LEIN: 2.9.5  # the build tool\n", "DeLaGuardo/setup-clojure@13", "lein", "${{ env.LEIN }}", "lein"),
    ("env:\n  A: x\n  helm: v3.15.2\n", "azure/setup-helm@v4", "version", "${{ env.helm }}", "helm/helm"),
])
def test_a_setup_input_from_the_env_names_its_tool(env: str, action: str, key: str, value: str, tool: str) -> None:
    text = env + STEP.format(action=action, key=key, value=value)
    found = {(d.name, d.version) for d in parse_workflow(".github/workflows/a.yml", text.encode())
             if d.ecosystem == "tool"}
    want = {"racket": "8.7", "node": "20.1.0", "go": "1.22.2", "lein": "2.9.5", "helm/helm": "v3.15.2"}[tool]
    assert (tool, want) in found, found


def test_a_job_level_env_is_read_too() -> None:
    text = ("jobs:\n  a:\n    env:\n      V: 8.7\n    steps:\n      - uses: Bogdanp/setup-racket@v1\n"
            "        with:\n          version: ${{ env.V }}\n")
    assert {(d.name, d.version) for d in parse_workflow(".github/workflows/a.yml", text.encode())} >= {
        ("racket", "8.7")}


@each_case("env", [
    "env:\n  V: 8.7\njobs:\n  b:\n    env:\n      V: 8.8\n",  # set to two values: which one is not read here
    "env:\n  V: ${{ secrets.V }}\n",  # no scalar
    "env:\n  V: latest\n",  # no version
    "env:\n  W: 8.7\n",  # another name
    "env:\n  S: |\n    V: 8.7\n",  # a block scalar's text
    "inputs:\n  V: 8.7\n",  # not an env block
    "env:\n  V:\n    nested: 8.7\n",
])
def test_an_env_look_alike_names_no_tool(env: str) -> None:
    text = env + _step_after(env, STEP.format(action="Bogdanp/setup-racket@v1", key="version", value="${{ env.V }}"))
    deps = parse_workflow(".github/workflows/a.yml", text.encode())
    assert not any(d.ecosystem == "tool" for d in deps), deps


# --- 6b. a reusable workflow's input defaults (deps53's lead) ------------------------------------------------------

# a reusable workflow in the shape of unison's bundle-ucm.yaml, its racket version an input with a default
REUSABLE = """\
name: bundle ucm

on:
  workflow_call:
    inputs:
      ref:
        required: true
        type: string
      racket-version:
        description: the Racket to build with
        type: string
        default: "8.7"
  workflow_dispatch:
    inputs:
      lint-version:
        default: v1.2.0

jobs:
  package-racket-lib:
    runs-on: ubuntu-20.04
    steps:
      - uses: Bogdanp/setup-racket@v1.11
        with:
          version: ${{ inputs.racket-version }}
      - uses: golangci/golangci-lint-action@v6
        with:
          version: ${{ inputs.lint-version }}
"""


def test_a_reusable_workflows_input_default_is_read_with_the_tree(tmp_path: Path) -> None:
    tree, _ = both_edited(tmp_path, {".github/workflows/bundle-ucm.yaml": REUSABLE},
                          {".github/workflows/bundle-ucm.yaml": {'"8.7"': '"8.14"'}})
    assert moves(tree) == {("tool", "racket", "8.7", "8.14")}, tree


@each_case("on", [
    "on:\n  workflow_call:\n    inputs:\n      v:\n        default: '8.7'\n",
    "on:\n  push:\n  workflow_call:\n    secrets:\n      t:\n        required: true\n    inputs:\n      v:\n"
    "        type: string\n        default: 8.7  # the default\n",
    "on:\n  workflow_call:\n    inputs:\n      w:\n        default: x\n      v:\n        default: \"8.7\"\n"
    "  pull_request:\n",
])
def test_a_workflow_call_inputs_default_names_the_tool(on: str) -> None:
    text = on + STEP.format(action="Bogdanp/setup-racket@v1", key="version", value="${{ inputs.v }}")
    assert ("racket", "8.7") in {(d.name, d.version) for d in parse_workflow(".github/workflows/a.yml",
                                                                              text.encode())}


@each_case("on", [
    "on:\n  workflow_dispatch:\n    inputs:\n      v:\n        default: '8.7'\n",  # a manual run's form
    "on:\n  workflow_call:\n    outputs:\n      v:\n        default: '8.7'\n",  # not its inputs
    "on:\n  workflow_call:\n    inputs:\n      v:\n        type: string\n",  # no default
    "on:\n  workflow_call:\n    inputs:\n      v:\n        default: ${{ github.ref }}\n",
    "on:\n  workflow_call:\n    inputs:\n      w:\n        default: '8.7'\n",  # another input
    "jobs:\n  x:\n    with:\n      inputs:\n        v:\n          default: '8.7'\n",  # not under workflow_call
])
def test_a_workflow_input_look_alike_names_no_tool(on: str) -> None:
    text = on + _step_after(on, STEP.format(action="Bogdanp/setup-racket@v1", key="version", value="${{ inputs.v }}"))
    deps = parse_workflow(".github/workflows/a.yml", text.encode())
    assert not any(d.ecosystem == "tool" for d in deps), deps


# --- 7. a lockfile copy dropped beside the one copy left -------------------------------------------------------------

def _yarn(entries: list[tuple[str, str, str]]) -> str:
    """A yarn v1 lockfile of (name, selectors, version) entries, in postcss's shape."""
    return "# yarn lockfile v1\n\n\n" + "".join(
        f'{sel}:\n  version "{v}"\n  resolved "https://registry.yarnpkg.com/{n}/-/{n}-{v}.tgz#{"0" * 40}"\n'
        f'  integrity sha512-{"A" * 86}==\n\n' for n, sel, v in entries)


# postcss/postcss's yarn.lock of 2021 (its shape: two copies of set-value, the old one's dependent moved to ^2.0.1)
POSTCSS_BASE = _yarn([("semver", "semver@^7.3.5", "7.3.5"), ("set-value", "set-value@^0.4.3", "0.4.3"),
                      ("set-value", "set-value@^2.0.0", "2.0.1"), ("slash", "slash@^3.0.0", "3.0.0")])
POSTCSS_HEAD = _yarn([("semver", "semver@^7.3.5", "7.3.5"),
                      ("set-value", "set-value@^2.0.0, set-value@^2.0.1", "2.0.1"), ("slash", "slash@^3.0.0", "3.0.0")])


def test_postcsss_set_value_dedupe_is_an_upgrade_with_the_tree(tmp_path: Path) -> None:
    package = '{"name": "postcss", "devDependencies": {"semver": "^7.3.5", "slash": "^3.0.0"}}\n'
    tree, patch = both_edited(tmp_path, {"package.json": package, "yarn.lock": POSTCSS_BASE},
                              {"yarn.lock": {POSTCSS_BASE: POSTCSS_HEAD}})
    assert moves(tree) == {("npm", "set-value", "0.4.3", "2.0.1")}, tree
    assert {c.level for c in tree.changes} == {"major"}
    # from a patch, which entries are direct is not known (package.json is not in it): the copy's removal, as before
    assert moves(patch) == {("npm", "set-value", "0.4.3", None)}, patch


@each_case("base, head, want", [
    (("0.4.3", "2.0.1"), ("2.0.1",), ("0.4.3", "2.0.1", "upgraded")),
    (("1.0.0", "3.2.0"), ("3.2.0",), ("1.0.0", "3.2.0", "upgraded")),
    (("0.1.0", "0.2.5"), ("0.2.5",), ("0.1.0", "0.2.5", "upgraded")),
])
def test_a_copy_dropped_beside_the_one_left_above_moved_there(base: tuple[str, ...], head: tuple[str, ...],
                                                               want: tuple[str, str, str]) -> None:
    changes = _lock_diff(base, head)
    assert [(c.from_version, c.to_version, c.change) for c in changes] == [want], changes


@each_case("base, head", [
    (("1.0.0", "2.0.1", "3.0.0"), ("2.0.1", "3.0.0")),  # two copies left: which took its dependents is not said
    (("2.0.1", "0.4.3"), ("0.4.3",)),  # the copy left is below it
    (("1.0.0",), ()),  # none left
    (("0.4.3", "2.0.1", "2.0.1-rc.1"), ("2.0.1", "2.0.1-rc.1")),
])
def test_a_copy_dropped_otherwise_stays_a_removal(base: tuple[str, ...], head: tuple[str, ...]) -> None:
    changes = _lock_diff(base, head)
    assert [c.change for c in changes] == ["removed"], changes


def _lock_diff(base: tuple[str, ...], head: tuple[str, ...]) -> list[Change]:
    old = _yarn([("x", f"x@^{v}", v) for v in base]).encode()
    new = _yarn([("x", f"x@^{v}", v) for v in head]).encode()
    indirect = lambda data: [dataclasses.replace(d, direct=False) for d in parse_yarn_lock("yarn.lock", data)]  # noqa: E731
    return diff(indirect(old), indirect(new), "yarn.lock")


def test_a_direct_entry_dropped_stays_a_removal() -> None:
    """A manifest's own entry is what its author wrote: the dedupe reading is a lockfile's, for indirect copies."""
    base = [Dependency("npm", "x", "0.4.3", "package.json", True, "runtime"),
            Dependency("npm", "x", "2.0.1", "package.json", True, "runtime")]
    assert [c.change for c in diff(base, base[1:], "package.json")] == ["removed"]


# --- hostile inputs -------------------------------------------------------------------------------------------------

def test_hostile_inputs_are_read_in_linear_time() -> None:
    big = 60_000
    each_fast([
        (lambda: refused(lambda: parse_requirements("r.txt", ("a @ " + "x;" * (big // 2) + "\n").encode())),
         "semicolons after a reference"),
        (lambda: refused(lambda: parse_requirements("r.txt", ("a @ git+https://x" + "@" * big + ";b\n").encode())),
         "at signs"),
        (lambda: refused(lambda: edn.loads("{" + ":1 1 " * (big // 5) + "}")), "digit keywords"),
        (lambda: refused(lambda: edn.loads("{:" + "1" * big + " 1}")), "a long digit keyword"),
        (lambda: parse_repos("a.bzl", ("maybe(" + " " * big + "http_archive,\n").encode()), "blanks in a maybe"),
        (lambda: parse_repos("a.bzl", ("maybe(http_archive," * (big // 18)).encode()), "maybe calls unclosed"),
        (lambda: parse_workflow(".github/workflows/a.yml", ("env:\n" + "  a: 1\n" * (big // 7)
                                                            + "x: ${{ env.a }}\n" * 2000).encode()), "env lines"),
        (lambda: parse_workflow(".github/workflows/a.yml", ("env:\n  a: " + "${{ env." * (big // 8) + "\n")
                                .encode()), "unclosed env references"),
        (lambda: refused(lambda: parse_workflow(".github/workflows/a.yml", (
            "on:\n" + "  workflow_call:\n    inputs:\n      v:\n        default: 1\n" * (big // 60)
            + "x: ${{ inputs.v }}\n" * 2000).encode())), "workflow_call blocks"),
        # the file gives `workflow_call` twice and is refused (round 60): its reader of defaults is timed alone
        (lambda: input_defaults(("on:\n" + "  workflow_call:\n    inputs:\n      v:\n        default: 1\n"
                                 * (big // 60)).splitlines(), workflow=True), "workflow_call blocks, their defaults"),
    ], 1.0)
