"""Classes of misses the thirty-ninth blind set of update commits found (bench/deps_bumps_thirtyninth.tsv).

- A Makefile's `<TOOL>_VERSION` variable of a tool released on GitHub was not read: dexidp/dex's `GOLANGCI_VERSION =
  2.12.2` (a person's "Update GOLANGCI_VERSION to 2.12.2") and Kong's `GRPCURL_VERSION ?= 1.9.2` ("bump grpcurl from
  1.8.5 to 1.9.2") named no dependency, though the build downloads that release. Such a variable of a tool the delta
  knows by name (tools._RELEASED: the same list a workflow's `GO_VERSION:`-style keys and shell lines are read by) is
  read now, with `--tree` and from the hunk; a variable set twice (or by override, define, a target or eval) is not
  read, as before, nor one under a Renovate annotation (the annotation's reading names it), nor any other variable.
- Dependabot's rust-toolchain ecosystem names `rust-toolchain.toml`'s channel "rust-toolchain" (apache/arrow-rs): the
  benchmark's matcher takes it for the toolchain the delta names `rust`.

Real-shaped files written for these tests (the layouts of those repositories), look-alikes and hostile input.
"""

from __future__ import annotations

from pathlib import Path

from gatekeeper.deps.toolfiles import parse_makefile
from tests.deltas import accuracy_bench, bench_change, each_fast, moves
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

# dexidp/dex's layout: a block of tool versions under a comment, the recipes below download each
DEX = """\
OUT_DIR ?= bin
VERSION ?= $(shell ./scripts/git-version)
LD_FLAGS="-w -X main.version=$(VERSION)"

# Dependency versions
GOLANGCI_VERSION   = 2.4.0
GOTESTSUM_VERSION ?= 1.12.0
PROTOC_VERSION     = 29.3

bin/golangci-lint:
\t@mkdir -p bin
\tcurl -sfL https://raw.githubusercontent.com/golangci/golangci-lint/master/install.sh | \\
\t  sh -s -- -b ./bin v${GOLANGCI_VERSION}
"""

# Kong's layout: `?=` defaults, one of them misspelt (BAZLISK), a library version beside them
KONG = """\
OS := $(shell uname | awk '{print tolower($$0)}')
MACHINE := $(shell uname -m)

KONG_SOURCE_LOCATION ?= $(ROOT_DIR)
GRPCURL_VERSION ?= 1.8.5
BAZLISK_VERSION ?= 1.19.0
H2CLIENT_VERSION ?= 0.4.4

bin/grpcurl:
\t@curl -s -S -L \\
\t\thttps://github.com/fullstorydev/grpcurl/releases/download/v$(GRPCURL_VERSION)/\\
\t\tgrpcurl_$(GRPCURL_VERSION)_$(OS)_$(MACHINE).tar.gz | tar xz -C bin;
"""


def _bumped(root: Path, body: str, edits: dict[str, str], name: str = "Makefile") -> tuple[object, object]:
    repo, base, head = edited_commits(root, {name: body}, {name: edits})
    return _tree(repo, base, head), _patch(repo, base, head)


def test_dex_golangci_version_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, DEX, {"GOLANGCI_VERSION   = 2.4.0": "GOLANGCI_VERSION   = 2.12.2"})
    want = {("tool", "golangci/golangci-lint", "2.4.0", "2.12.2")}
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in tree.changes} == want, tree
    assert {(c.ecosystem, c.name, c.from_version, c.to_version) for c in patch.changes} == want, patch
    assert not tree.problems and not patch.problems


def test_kong_grpcurl_default_is_read_and_its_neighbours_name_nothing(tmp_path: Path) -> None:
    tree, patch = _bumped(tmp_path, KONG, {"GRPCURL_VERSION ?= 1.8.5": "GRPCURL_VERSION ?= 1.9.2"})
    assert moves(tree) == moves(patch) == {("tool", "fullstorydev/grpcurl", "1.8.5", "1.9.2")}, (tree, patch)
    # BAZLISK (a misspelling) and H2CLIENT are no tool the delta knows: moving them names nothing, as before
    tree, patch = _bumped(tmp_path / "b", KONG, {"BAZLISK_VERSION ?= 1.19.0": "BAZLISK_VERSION ?= 1.20.0",
                                                 "H2CLIENT_VERSION ?= 0.4.4": "H2CLIENT_VERSION ?= 0.4.5"})
    assert not tree.changes and not patch.changes, (tree, patch)


def test_the_bench_names_them_as_the_messages_do() -> None:
    bench = accuracy_bench()
    assert bench._same_name("golangci-lint", bench_change("tool", "golangci/golangci-lint"))
    assert bench._same_name("grpcurl", bench_change("tool", "fullstorydev/grpcurl"))
    assert bench._same_name("rust-toolchain", bench_change("tool", "rust"))  # Dependabot's rust-toolchain ecosystem
    assert not bench._same_name("rust-toolchain", bench_change("tool", "cargo"))
    assert not bench._same_name("rust-toolchain", bench_change("cargo", "rust"))  # a crate named rust is no toolchain


def test_a_rust_toolchain_file_bump_is_the_rust_toolchain(tmp_path: Path) -> None:
    body = '# arrow-rs pins the toolchain CI builds with\n[toolchain]\nchannel = "1.97.1"\ncomponents = ["rustfmt"]\n'
    tree, patch = _bumped(tmp_path, body, {'"1.97.1"': '"1.98.0"'}, "rust-toolchain.toml")
    assert moves(tree) == moves(patch) == {("tool", "rust", "1.97.1", "1.98.0")}, (tree, patch)


def test_a_variable_set_twice_is_not_read(tmp_path: Path) -> None:
    # which value the build uses is the Makefile's logic (an ifeq, an override): the variable names nothing, as before
    twice = KONG.replace("GRPCURL_VERSION ?= 1.8.5\n", "ifeq ($(OS),darwin)\nGRPCURL_VERSION ?= 1.8.5\nelse\n"
                         "GRPCURL_VERSION ?= 1.8.1\nendif\n")
    tree, _ = _bumped(tmp_path, twice, {"GRPCURL_VERSION ?= 1.8.5": "GRPCURL_VERSION ?= 1.9.2"})
    assert not tree.changes, tree
    for odd in ("override GRPCURL_VERSION = 0.1.0\n", "define GRPCURL_VERSION\n1.0\nendef\n",
                "bin/grpcurl: GRPCURL_VERSION := 0.1.0\n"):
        assert parse_makefile("Makefile", (KONG + odd).encode()) == [], odd


def test_values_that_name_no_version_and_other_variables_name_nothing() -> None:
    for line in ("GOLANGCI_VERSION = latest", "GOLANGCI_VERSION ?= $(shell cat .golangci-version)",
                 "GOLANGCI_VERSION := main", "APP_VERSION = 1.2.3", "VERSION = 1.2.3", "GOTESTSUM_VERSION ?= 1.12.0",
                 "golangci_VERSION = 1.2.3", "GOLANGCI_VERSIONS = 1.2.3", "# GOLANGCI_VERSION = 1.2.3"):
        assert parse_makefile("Makefile", (line + "\n").encode()) == [], line


def test_a_variable_under_a_renovate_annotation_is_read_once() -> None:
    body = ("# renovate: datasource=github-releases depName=golangci/golangci-lint\n"
            "GOLANGCI_LINT_VERSION ?= v2.1.0\nGOLANGCI_VERSION = 2.1.0\n")
    found = parse_makefile("Makefile", body.encode())
    # the annotated line is the annotation's; the plain one below is read by its name; both the same tool
    assert [(d.name, d.version) for d in found] == [("golangci/golangci-lint", "v2.1.0"),
                                                     ("golangci/golangci-lint", "2.1.0")], found
    annotated_only = ("# renovate: datasource=github-releases depName=fullstorydev/grpcurl\n"
                      "GRPCURL_VERSION ?= 1.9.2\n")
    assert [(d.name, d.version) for d in parse_makefile("Makefile", annotated_only.encode())] == [
        ("fullstorydev/grpcurl", "1.9.2")]


def test_many_tool_variables_are_read_in_linear_time() -> None:
    lines = "".join(f"HELM_VERSION := 3.{i}\n" for i in range(60_000)).encode()
    spellings = "".join(f"{n}_VERSION := 1.{i}\n" for i in range(2_000)
                        for n in ("HELM", "KIND", "TRIVY", "GRPCURL", "UV")).encode()
    each_fast([(lambda: parse_makefile("Makefile", lines), "one variable set 60,000 times"),
               (lambda: parse_makefile("Makefile", spellings), "five tools' variables set 2,000 times each")], 2.0)
    assert parse_makefile("Makefile", lines) == []  # set more than once: not read
