"""Classes of misses the fifty-third blind set (bench/deps_bumps_fiftythird.tsv) showed, each with look-alikes that
must not match and malformed variants that are a finding, never a crash or a silent pass.

- A runtime a version manager installs in a RUN or run line (jenkins-infra/docker-builder's "Update Node to 20.12.1":
  `asdf install nodejs 20.11.1` → `20.12.1` inside a `RUN bash -c "…"`): no reader read asdf's or mise's commands, so
  the bump named nothing in either mode. `asdf install|global|local|set|shell TOOL VERSION…` and `mise|rtx
  install|use|exec|x|i|u [options] TOOL@VERSION…` now name the tool at each exact version, as `.tool-versions` and
  `mise.toml` name it (`nodejs` is `node`, `golang` is `go`, `core:` dropped).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.actions import parse_workflow
from gatekeeper.deps.daggermod import dagger_json_line, parse_dagger_json
from gatekeeper.deps.dockerruns import parse_dockerfile
from gatekeeper.deps.govendor import parse_vendor_conf, parse_vendor_sh
from gatekeeper.deps.gradle import parse_build_script
from gatekeeper.deps.gradleprops import catalog_variables
from gatekeeper.deps.model import Dependency, ManifestError, PartlyShown
from gatekeeper.deps.poetrylines import poetry_line
from gatekeeper.deps.registry import format_for
from gatekeeper.deps.runlines import installs
from gatekeeper.deps.toolfiles import parse_makefile
from tests.deltas import accuracy_bench, bench_change, both_edited, each_fast, moves, partial, refused

# --- asdf and mise installs in RUN and run lines ----------------------------------------------------------------------

# jenkins-infra/docker-builder's Dockerfile (its shape: asdf cloned, then plugins added and versions installed in one
# `bash -c` string over continuation lines)
DOCKER_BUILDER = """\
FROM jenkins/inbound-agent:3206.vb_15dcf73f6a_9-3-jdk17

USER root
RUN apt-get update && apt-get install -y --no-install-recommends make curl unzip && rm -rf /var/lib/apt/lists/*

USER jenkins
ARG ASDF_VERSION=0.14.0
RUN bash -c "git clone https://github.com/asdf-vm/asdf.git $HOME/.asdf --branch v${ASDF_VERSION} && \\
  . $HOME/.asdf/asdf.sh && \\
  asdf plugin add ruby https://github.com/asdf-vm/asdf-ruby.git && \\
  asdf install ruby 2.7.7 && \\
  asdf install ruby 3.2.1 && \\
  asdf global ruby 2.7.7 && \\
  asdf plugin add nodejs https://github.com/asdf-vm/asdf-nodejs.git && \\
  asdf install nodejs 18.14.0 && \\
  asdf global nodejs 18.14.0"

LABEL io.jenkins-infra.tools="azure-cli,git,make,gh,nodejs,npm,jenkins-inbound-agent,netlify-deploy,asdf"
"""


def test_docker_builders_asdf_bumps_in_both_modes(tmp_path: Path) -> None:
    edits = {"Dockerfile": {"asdf install ruby 3.2.1": "asdf install ruby 3.2.2",
                            "asdf install nodejs 18.14.0 && \\\n  asdf global nodejs 18.14.0":
                            "asdf install nodejs 18.15.0 && \\\n  asdf global nodejs 18.15.0"}}
    tree, patch = both_edited(tmp_path, {"Dockerfile": DOCKER_BUILDER}, edits)
    for delta in (tree, patch):
        named = {(e, n, t) for e, n, _, t in moves(delta)}
        assert ("tool", "ruby", "3.2.2") in named, moves(delta)
        assert ("tool", "node", "18.15.0") in named, moves(delta)


def test_docker_builders_second_node_line_from_a_patch(tmp_path: Path) -> None:
    """"Update Node to 20.12.1": the last line of the `bash -c` string, its closing quote on it, alone in the hunk."""
    body = DOCKER_BUILDER.replace('asdf global nodejs 18.14.0"', "asdf global nodejs 18.14.0 && \\\n"
                                  '  asdf install nodejs 20.11.1"')
    tree, patch = both_edited(tmp_path, {"Dockerfile": body}, {"Dockerfile": {'20.11.1"': '20.12.1"'}})
    for delta in (tree, patch):
        assert ("tool", "node", "20.11.1", "20.12.1") in moves(delta), moves(delta)


def _tools(line: str) -> set[tuple[str, str, str]]:
    return {(d.ecosystem, d.name, d.version) for d in installs(".github/workflows/ci.yml", line)}


# (a command line, the (tool, version) pairs it installs at an exact version)
NAMED = [
    ("asdf install nodejs 20.12.1", {("node", "20.12.1")}),
    ("asdf install golang 1.22.3", {("go", "1.22.3")}),
    ("asdf install python 3.12.4 3.11.9", {("python", "3.12.4"), ("python", "3.11.9")}),
    ("asdf global ruby 3.3.0", {("ruby", "3.3.0")}),
    ("asdf local terraform 1.9.0", {("hashicorp/terraform", "1.9.0")}),
    ("asdf set -u kubectl 1.30.2", {("kubectl", "1.30.2")}),
    ("asdf shell java 21.0.2", {("java", "21.0.2")}),
    ('asdf install nodejs "20.12.1"', {("node", "20.12.1")}),
    ('  asdf install nodejs 20.12.1"', {("node", "20.12.1")}),
    ("run: asdf install nodejs v20.12.1", {("node", "v20.12.1")}),
    ("- asdf install nodejs 20.12.1", {("node", "20.12.1")}),
    (". ~/.asdf/asdf.sh && asdf install nodejs 20.12.1 && asdf global nodejs 20.12.1", {("node", "20.12.1")}),
    ("sudo -E asdf install nodejs 20.12.1; npm ci", {("node", "20.12.1")}),
    ("if true; then asdf install nodejs 20.12.1; fi", {("node", "20.12.1")}),
    ("mise install node@20.12.1", {("node", "20.12.1")}),
    ("mise install node@20.12.1 python@3.12.4", {("node", "20.12.1"), ("python", "3.12.4")}),
    ("mise use -g go@1.22.3", {("go", "1.22.3")}),
    ("mise use --global golang@1.22.3", {("go", "1.22.3")}),
    ("mise -y use --env ci node@20.1.0", {("node", "20.1.0")}),
    ("mise i core:node@20.12.1", {("node", "20.12.1")}),
    ("mise u -g nodejs@20.12.1", {("node", "20.12.1")}),
    ("mise x node@20.12.1 -- npm ci", {("node", "20.12.1")}),
    ("mise exec python@3.12.4 -- python -m build", {("python", "3.12.4")}),
    ("rtx install node@20.12.1", {("node", "20.12.1")}),
    ("mise install npm:prettier@3.3.3", {("npm:prettier", "3.3.3")}),
    ("mise use -g cargo:ripgrep@14.1.0", {("cargo:ripgrep", "14.1.0")}),
    ("mise install 'aqua:cli/cli@2.55.0'", {("aqua:cli/cli", "2.55.0")}),
    ("mise use npm:@biomejs/biome@1.9.4", {("npm:@biomejs/biome", "1.9.4")}),
]
# look-alikes: no exact version, another subcommand, no command at all
UNNAMED = [
    "asdf install", "asdf install nodejs", "asdf install nodejs latest", "asdf install nodejs latest:20",
    "asdf install nodejs ref:main", "asdf install nodejs $NODE_VERSION", "asdf global nodejs system",
    "asdf plugin add nodejs https://github.com/asdf-vm/asdf-nodejs.git", "asdf plugin-add nodejs 1.2.3",
    "asdf reshim nodejs 20.12.1", "asdf uninstall nodejs 20.12.1", "asdf list nodejs 20",
    "echo asdf install nodejs 20.12.1", "# asdf install nodejs 20.12.1", "myasdf install nodejs 20.12.1",
    "mise install", "mise use node", "mise use node@latest", "mise use node@lts", "mise install node@$V",
    "mise use -g node@^20", "mise use node@20.*", "mise uninstall node@20.12.1", "mise upgrade node@20.12.1",
    "mise run build@1.2.3",
    "mise x -- node@20.12.1", "mise exec -- npm i left-pad@1.3.0 && true", "mise install @1.2.3",
    "echo mise use node@20.12.1", "premise install node@20.12.1", "mise trust 1.2.3",
]


@each_case("line, named", NAMED)
def test_version_manager_installs_name_each_tool(line: str, named: set[tuple[str, str]]) -> None:
    assert {(n, v) for e, n, v in _tools(line) if e == "tool"} == named, line


@each_case("line", UNNAMED)
def test_look_alikes_name_no_tool(line: str) -> None:
    assert not {t for t in _tools(line) if t[0] == "tool"}, line


def test_an_arg_default_is_substituted_into_the_install() -> None:
    found = parse_dockerfile("Dockerfile", b"FROM debian:12\nARG NODE=20.12.1\n"
                                           b"RUN asdf install nodejs ${NODE} && asdf global nodejs ${NODE}\n")
    assert Dependency("tool", "node", "20.12.1", "Dockerfile", True, "build") in found


@pytest.mark.parametrize("line", [
    "asdf install " + "a " * 200_000, "asdf install nodejs " + "1." * 200_000, "mise use " + "-g " * 200_000,
    "mise " + "-x " * 200_000 + "use node@1", "mise install " + "n@" * 200_000, "asdf " * 200_000,
    "mise install " + "@" * 400_000, "&& asdf set " * 50_000,
])
def test_hostile_version_manager_lines_are_read_fast(line: str) -> None:
    each_fast([(lambda: installs("ci.yml", line), line[:40])], 1.0)


# --- Go's vendoring before modules: vndr's vendor.conf and Docker's hack/vendor.sh -----------------------------------

# containerd's hack/vendor.sh of 2016 (its shape: the helper sourced, then one `clone` line a package)
VENDOR_SH = """\
#!/usr/bin/env bash
set -e

cd "$(dirname "$BASH_SOURCE")/.."
rm -rf vendor/
source 'hack/.vendor-helpers.sh'

clone git github.com/Sirupsen/logrus v0.10.0
clone git github.com/cloudfoundry/gosigar 3ed7c74352dae6dc00bdc8c74045375352e3ec05
clone git github.com/golang/protobuf 3c84672111d91bb5ac31719e112f9f7126a0e26e
clone git github.com/opencontainers/runc eb217f273125d3e4d6731389fe804e46e0b14ac6
clone git github.com/opencontainers/runtime-spec f955d90e70a98ddfb886bd930ffd076da9b67998
clone git golang.org/x/net 991d3e32f76f19ee6d9caadb3a22eae8d23315f7 https://github.com/golang/net.git
clone git google.golang.org/grpc ab0be5212fb225475f2087566eded7da5d727960 https://github.com/grpc/grpc-go.git
clone hg code.google.com/p/go.net 84a4013f96e0

clean
"""
# moby's vendor.conf of 2018 (its shape: comments, blank lines, a source after some refs, a trailing comment)
VENDOR_CONF = """\
# the following lines are in sorted order, FYI
github.com/Azure/go-ansiterm d6e3b3328b783f23731bc4d058875b0371ff8109
github.com/Microsoft/hcsshim v0.6.11
github.com/docker/libtrust 9cbd2a1374f46905c68a4eb3694a130610adc62a
golang.org/x/net 0ed95abb35c445290478a5348a7b38bb154135fd
google.golang.org/grpc v1.12.0 https://github.com/grpc/grpc-go.git

# containerd
github.com/containerd/containerd 63522d9eaa5a0443d225642c4b6f4f5fdedf932b # v1.1.1
"""


def test_containerds_vendor_sh_bumps_in_both_modes(tmp_path: Path) -> None:
    edits = {"hack/vendor.sh": {"ab0be5212fb225475f2087566eded7da5d727960": "v1.0.1-GA",
                                "eb217f273125d3e4d6731389fe804e46e0b14ac6": "85873d917e86676e44ccb80719fcb47a794676a1"}}
    tree, patch = both_edited(tmp_path, {"hack/vendor.sh": VENDOR_SH}, edits)
    for delta in (tree, patch):
        assert {("go", "google.golang.org/grpc", "ab0be5212fb225475f2087566eded7da5d727960 from "
                 "https://github.com/grpc/grpc-go.git", "v1.0.1-GA from https://github.com/grpc/grpc-go.git"),
                ("go", "github.com/opencontainers/runc", "eb217f273125d3e4d6731389fe804e46e0b14ac6",
                 "85873d917e86676e44ccb80719fcb47a794676a1")} == moves(delta), moves(delta)


def test_mobys_vendor_conf_bumps_in_both_modes(tmp_path: Path) -> None:
    edits = {"vendor.conf": {"v1.12.0 https": "v1.13.0 https", "hcsshim v0.6.11": "hcsshim v0.6.12"}}
    tree, patch = both_edited(tmp_path, {"vendor.conf": VENDOR_CONF}, edits)
    for delta in (tree, patch):
        assert {("go", "google.golang.org/grpc", "v1.12.0 from https://github.com/grpc/grpc-go.git",
                 "v1.13.0 from https://github.com/grpc/grpc-go.git"),
                ("go", "github.com/Microsoft/hcsshim", "v0.6.11", "v0.6.12")} == moves(delta), moves(delta)


def test_a_source_swapped_under_one_ref_is_a_change(tmp_path: Path) -> None:
    edits = {"vendor.conf": {"grpc/grpc-go.git": "someone/grpc-go.git"}}
    tree, patch = both_edited(tmp_path, {"vendor.conf": VENDOR_CONF}, edits)
    for delta in (tree, patch):
        assert [(c.name, c.change) for c in delta.changes] == [("google.golang.org/grpc", "changed")]


@each_case("path, read", [
    ("vendor.conf", True), ("hack/vendor.sh", True),
    ("docs/vendor.conf", False), ("etc/vendor.conf", False), ("x/hack/vendor.sh", False), ("vendor.sh", False),
    ("hack/vendor.bash", False), ("hack/.vendor-helpers.sh", False), ("Vendor.conf", False),
])
def test_only_the_root_vendor_files_are_read(path: str, read: bool) -> None:
    fmt = format_for(path)
    assert (fmt is not None and fmt.name in ("vendor.conf", "vendor.sh")) == read, path


def _pins(parse: Callable[[str, bytes], list[Dependency]], body: str) -> set[tuple[str, str]]:
    return {(d.name, d.version) for d in parse("f", body.encode())}


@each_case("line, pin", [
    ("clone git github.com/a/b v1.2.3", ("github.com/a/b", "v1.2.3")),
    ("  clone git github.com/a/b v1.2.3  # pinned for CVE", ("github.com/a/b", "v1.2.3")),
    ("clone\tgit\tgopkg.in/yaml.v2\t53feefa2559fb8dfa8d81baad31be332c97d6c77",
     ("gopkg.in/yaml.v2", "53feefa2559fb8dfa8d81baad31be332c97d6c77")),
    ("clone hg bitbucket.org/ww/goautoneg 75cd24fc2f2c", ("bitbucket.org/ww/goautoneg", "75cd24fc2f2c")),
    ("clone bzr launchpad.net/gocheck 87", ("launchpad.net/gocheck", "87")),
    ("clone git golang.org/x/sys d4feaf1 https://github.com/golang/sys.git",
     ("golang.org/x/sys", "d4feaf1 from https://github.com/golang/sys.git")),
])
def test_vendor_sh_clone_lines(line: str, pin: tuple[str, str]) -> None:
    assert _pins(parse_vendor_sh, f"#!/bin/sh\nsource helpers\n{line}\nclean\n") == {pin}


@each_case("body", [
    "clone() {\n  vcs=$1\n}\n", "# clone git github.com/a/b v1\n", "echo clone git github.com/a/b v1\n",
    "git clone github.com/a/b v1\n", "cloned git github.com/a/b v1\n", "clone svn github.com/a/b v1\n",
    "for p in $x; do :; done\n",
])
def test_vendor_sh_look_alikes_name_nothing(body: str) -> None:
    assert _pins(parse_vendor_sh, body) == set()


@each_case("parse, body", [
    (parse_vendor_sh, "clone git github.com/a/b\n"), (parse_vendor_sh, 'clone git "$pkg" "$rev"\n'),
    (parse_vendor_sh, "clone git github.com/a/b v1 $URL\n"),
    (parse_vendor_sh, "clone git github.com/a/b v1\nclone git github.com/a/b v2\n"),
    (parse_vendor_conf, "github.com/a/b\n"), (parse_vendor_conf, "[settings]\nx = 1\n"),
    (parse_vendor_conf, "github.com/a/b v1 https://x/y.git extra\n"), (parse_vendor_conf, "github.com/a/b v1\n" * 2),
    (parse_vendor_conf, "github.com/a/b $(cat REV)\n"), (parse_vendor_conf, "\x00\xff\n"),
])
def test_malformed_vendor_files_are_problems(parse: Callable[[str, bytes], list[Dependency]], body: str) -> None:
    with pytest.raises(ManifestError):
        parse("f", body.encode("latin-1"))


def test_a_malformed_vendor_conf_is_a_problem_in_both_modes(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"vendor.conf": VENDOR_CONF}, {"vendor.conf": {"v0.6.11": "v0.6.12 a b"}})
    for delta in (tree, patch):
        assert not delta.changes and any(p.manifest == "vendor.conf" for p in delta.problems), delta


@pytest.mark.parametrize("body", [
    "a" * 60_000 + " v1\n", ("github.com/" + "a/" * 30_000 + " v1\n"), "clone git " + "a " * 30_000 + "\n",
    "github.com/a/b " + " " * 60_000 + "v1\n", "g v1 " + "h" * 60_000 + "#\n",
])
def test_hostile_vendor_lines_are_read_fast(body: str) -> None:
    each_fast([(lambda: refused(lambda: parse_vendor_conf("f", body.encode())), body[:30]),
               (lambda: refused(lambda: parse_vendor_sh("f", ("clone git " + body).encode())), body[:30])], 1.0)


# --- the benchmark: mix's git dependency is named with its source -----------------------------------------------------

@each_case("ecosystem, name, want, same", [
    ("hex", "hackney@git+https://github.com/benoitc/hackney.git", "hackney", True),
    ("hex", "hackney@git+https://github.com/benoitc/hackney.git", "Hackney", True),
    ("pub", "flutter_sodium@git+https://github.com/x/flutter_sodium.git", "flutter_sodium", True),
    ("hex", "hackney_ex@git+https://github.com/benoitc/hackney.git", "hackney", False),
    ("hex", "plug@git+https://github.com/benoitc/hackney.git", "hackney", False),
    ("npm", "hackney@git+https://github.com/benoitc/hackney.git", "hackney", False),
])
def test_a_mix_git_dependency_is_its_package_to_the_benchmark(ecosystem: str, name: str, want: str, same: bool) -> None:
    assert accuracy_bench()._same_name(want, bench_change(ecosystem, name)) is same


# --- a kubebuilder Makefile's envtest Kubernetes version --------------------------------------------------------------

# konflux-ci/release-service-catalog's Makefile (the kubebuilder v3 layout: the Kubernetes version of the control plane
# binaries setup-envtest downloads for the tests, beside the setup-envtest tool's own version)
KUBEBUILDER_MAKEFILE = """\
# Image URL to use all building/pushing image targets
IMG ?= $(IMAGE_TAG_BASE):$(TAG_NAME)
# ENVTEST_K8S_VERSION refers to the version of kubebuilder assets to be downloaded by envtest binary.
ENVTEST_K8S_VERSION = 1.23

# Get the currently used golang install path (in GOPATH/bin, unless GOBIN is set)
ifeq (,$(shell go env GOBIN))
GOBIN=$(shell go env GOPATH)/bin
else
GOBIN=$(shell go env GOBIN)
endif

.PHONY: test
test: manifests generate fmt vet envtest ## Run tests.
\tKUBEBUILDER_ASSETS="$(shell $(ENVTEST) use $(ENVTEST_K8S_VERSION) -p path)" go test ./... -coverprofile cover.out

ENVTEST = $(shell pwd)/bin/setup-envtest
ENVTEST_VERSION ?= release-0.17
"""


def test_kubebuilders_envtest_version_in_both_modes(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"Makefile": KUBEBUILDER_MAKEFILE},
                              {"Makefile": {"ENVTEST_K8S_VERSION = 1.23": "ENVTEST_K8S_VERSION = 1.27.1"}})
    for delta in (tree, patch):
        assert ("tool", "envtest", "1.23", "1.27.1") in moves(delta), moves(delta)


@each_case("line, version", [
    ("ENVTEST_K8S_VERSION = 1.27.1", "1.27.1"), ("ENVTEST_K8S_VERSION ?= 1.30.0", "1.30.0"),
    ("ENVTEST_K8S_VERSION := 1.34.x", "1.34.x"), ("KUBEBUILDER_ENVTEST_KUBERNETES_VERSION ?= 1.33.0", "1.33.0"),
    ("export ENVTEST_K8S_VERSION ?= v1.31.0", "v1.31.0"), ("ENVTEST_KUBERNETES_VERSION = 1.29.3", "1.29.3"),
])
def test_envtest_kubernetes_variables(line: str, version: str) -> None:
    found = parse_makefile("Makefile", f"{line}\n\ntest:\n\tgo test ./...\n".encode())
    assert [(d.ecosystem, d.name, d.version) for d in found] == [("tool", "envtest", version)], found


@each_case("body", [
    "ENVTEST_VERSION ?= release-0.19\n",  # setup-envtest's own version: another tool
    "ENVTEST_K8S_VERSION ?= $(shell go list -m -f '{{ .Version }}' k8s.io/api | awk -F'[v.]' '{print $$3}')\n",
    "ENVTEST_K8S_VERSION = latest\n", "ENVTEST_K8S_VERSION = 1.27.1\nENVTEST_K8S_VERSION = 1.28.0\n",
    "# ENVTEST_K8S_VERSION = 1.27.1\n", "MY_ENVTEST_K8S_VERSION_OLD = 1.27.1\n", "K8S_VERSION = 1.27.1\n",
])
def test_envtest_look_alikes_name_nothing(body: str) -> None:
    assert not [d for d in parse_makefile("Makefile", body.encode()) if d.name == "envtest"], body


@each_case("want", ["kubebuilder-tools", "envtest", "ENVTEST_K8S_VERSION", "envtest-k8s"])
def test_the_benchmark_knows_envtest_by_its_spellings(want: str) -> None:
    assert accuracy_bench()._same_name(want, bench_change("tool", "envtest"))


# --- a Poetry dependency from a patch: PEP 440 operators, and a table header above the hunk ---------------------------

# pandas-dev/pandas-stubs' pyproject.toml of 2022 (its shape: the dev table's header three lines above mypy, pandas
# further down, out of a three-line hunk's reach)
PANDAS_STUBS = """\
[tool.poetry]
name = "pandas-stubs"
version = "1.5.0.220926"
description = "Type annotations for pandas"
license = "BSD-3-Clause"
packages = [{ "include" = "pandas-stubs" }]

[tool.poetry.dependencies]
python = ">=3.8,<3.11"
types-pytz = ">= 2022.1.1"

[tool.poetry.dev-dependencies]
mypy = "==0.971"
pyarrow = ">=9.0.0"
pytest = ">=7.1.2"
pyright = ">=1.1.266"
poethepoet = "0.16.0"
loguru = ">=0.6.0"
pandas = "1.4.4"
typing-extensions = ">=4.2.0"
matplotlib = "~=3.5.0"
pre-commit = ">=2.19.0"
black = ">=22.8.0"
isort = ">=5.10.1"
openpyxl = ">=3.0.10"
tables = { version = "==3.7.0", python = "<3.11" }

[build-system]
requires = ["poetry-core>=1.0.0"]
build-backend = "poetry.core.masonry.api"

[tool.black]
target-version = ['py38']

[tool.mypy]
python_version = "3.8"
"""


def test_pandas_stubs_mypy_pinned_with_an_operator_in_both_modes(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"pyproject.toml": PANDAS_STUBS},
                              {"pyproject.toml": {'mypy = "==0.971"': 'mypy = "==0.982"'}})
    for delta in (tree, patch):
        assert ("pip", "mypy", "==0.971", "==0.982") in moves(delta), (moves(delta), delta.problems)
    assert not partial(patch, "pyproject.toml"), patch.problems


def test_pandas_stubs_pandas_under_a_header_above_the_hunk(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"pyproject.toml": PANDAS_STUBS},
                              {"pyproject.toml": {'pandas = "1.4.4"': 'pandas = "1.5.0"'}})
    for delta in (tree, patch):
        assert ("pip", "pandas", "1.4.4", "1.5.0") in moves(delta), (moves(delta), delta.problems)
    assert partial(patch, "pyproject.toml"), "its table is not shown: named beside a `partial` problem"
    assert not partial(tree, "pyproject.toml")


@each_case("old, new", [
    ('pytest = ">=7.1.2"', 'pytest = "!=7.2.0,>=7.1.2"'), ('matplotlib = "~=3.5.0"', 'matplotlib = "~=3.6.0"'),
    ('tables = { version = "==3.7.0", python = "<3.11" }', 'tables = { version = "==3.8.0", python = "<3.11" }'),
    ('loguru = ">=0.6.0"', 'loguru = "==0.7.*"'), ('black = ">=22.8.0"', 'black = "== 22.10.0"'),
])
def test_pep440_operators_in_poetry_tables_from_a_patch(tmp_path: Path, old: str, new: str) -> None:
    tree, patch = both_edited(tmp_path, {"pyproject.toml": PANDAS_STUBS}, {"pyproject.toml": {old: new}})
    name = old.split(" ", 1)[0]
    assert {m[1] for m in moves(patch)} == {name} == {m[1] for m in moves(tree)}, (moves(patch), patch.problems)


@each_case("old, new", [
    ('python_version = "3.8"', 'python_version = "3.9"'),  # [tool.mypy]'s, its header shown: refused as before
    ("target-version = ['py38']", "target-version = ['py39']"),
    ('version = "1.5.0.220926"', 'version = "1.5.1.220926"'),  # the package's own
    ('requires = ["poetry-core>=1.0.0"]', 'requires = ["poetry-core>=1.1.0"]'),
])
def test_poetry_look_alikes_name_no_dependency(tmp_path: Path, old: str, new: str) -> None:
    _, patch = both_edited(tmp_path, {"pyproject.toml": PANDAS_STUBS}, {"pyproject.toml": {old: new}})
    assert not {m for m in moves(patch) if m[1] in ("python_version", "target-version", "version")}, moves(patch)


@each_case("line", [
    'python_version = "3.9"', 'version = "1.2.3"', 'python = "^3.9"', 'requires-python = ">=3.9"',
    'minversion = "7.0"', 'target-version = "py39"', 'mypy = "==0.982', 'mypy = "=== 0.982"',
    'mypy = { git = "https://github.com/python/mypy.git", tag = "v0.982" }', 'mypy = "==0.982; ls"',
    'MYPY = "==0.982"', 'mypy.version = "==0.982"', "mypy = '''==0.982'''",
])
def test_a_line_with_no_header_above_it_that_is_no_poetry_entry_names_nothing(line: str) -> None:
    side = [("x = 1", False), ("", False), (line, True)]
    try:
        found = poetry_line(side, 2)
    except PartlyShown as shown:
        found = shown.pairs
    except ManifestError:
        found = []
    assert not found, line


def test_a_multi_line_string_in_the_hunk_refuses_the_poetry_line() -> None:
    side = [('description = """', False), ('pandas = "1.5.0"', True), ('"""', False)]
    with pytest.raises(ManifestError) as refused_:
        poetry_line(side, 1)
    assert not isinstance(refused_.value, PartlyShown) or not refused_.value.pairs


@pytest.mark.parametrize("line", [
    'a = "==' + "1." * 30_000 + '"', 'a = "' + "==1," * 20_000 + '"', 'a = "==1' + " " * 60_000 + ',"',
    'a = "==' + "1" * 60_000 + '.*"', '"' + "a" * 60_000 + ' = "==1"', "a" * 60_000 + ' = "==1"',
    'a = { version = "==1", ' + "x = 1, " * 8_000 + "}",
])
def test_hostile_poetry_lines_are_read_fast(line: str) -> None:
    each_fast([(lambda: refused(lambda: poetry_line([("[tool.poetry.dependencies]", False), (line, True)], 1)),
                line[:30]), (lambda: refused(lambda: poetry_line([(line, True)], 0)), line[:30])], 1.0)


# --- a CI matrix of tool versions a setup action reads ----------------------------------------------------------------

# a Node library's CI (the common shape: the matrix's `node-version` handed to actions/setup-node)
NODE_CI = """\
name: CI
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        node-version: [18.x, 20.x]
        os: [ubuntu-22.04]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: ${{ matrix.node-version }}
      - run: npm ci && npm test
  lint:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python-version:
          - "3.11"
          - "3.12"
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: ${{ matrix.python-version }}
"""


def _tool_versions(delta: object) -> set[tuple[str, str | None]]:
    return {(m[1], m[3]) for m in moves(delta) if m[0] == "tool"}  # type: ignore[arg-type]


def test_a_flow_matrix_of_node_versions_in_both_modes(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {".github/workflows/ci.yml": NODE_CI},
                              {".github/workflows/ci.yml": {"[18.x, 20.x]": "[20.x, 22.x]"}})
    for delta in (tree, patch):
        assert ("node", "22.x") in _tool_versions(delta), moves(delta)
        assert ("node", "20.x") not in _tool_versions(delta), "a version kept is no change"


def test_a_block_matrix_of_python_versions_in_both_modes(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {".github/workflows/ci.yml": NODE_CI},
                              {".github/workflows/ci.yml": {'- "3.12"': '- "3.12"\n          - "3.13"'}})
    for delta in (tree, patch):
        assert ("python", "3.13") in _tool_versions(delta), moves(delta)


def _read(body: str) -> set[tuple[str, str, str]]:
    return {(d.ecosystem, d.name, d.version) for d in parse_workflow(".github/workflows/ci.yml", body.encode())}


@each_case("matrix, named", [
    ("node-version: [18.x, 20.x]", {("node", "18.x"), ("node", "20.x")}),
    ("node-version: ['18', \"20\", 22]", {("node", "18"), ("node", "20"), ("node", "22")}),
    ("go-version: [ '1.22', '1.23' ]  # supported", {("go", "1.22"), ("go", "1.23")}),
    ("python-version: [\"3.9\", \"3.10\", \"pypy-3.10\"]", {("python", "3.9"), ("python", "3.10")}),
    ("java-version: [17, 21]", {("java", "17"), ("java", "21")}),
    ("python-version:\n          - '3.11'\n          - 3.12  # newest", {("python", "3.11"), ("python", "3.12")}),
    ("ruby-version:\n        - '3.2'\n        - head", {("ruby", "3.2")}),
])
def test_matrix_lists_of_a_setup_input_name_each_version(matrix: str, named: set[tuple[str, str]]) -> None:
    body = f"jobs:\n  t:\n    strategy:\n      matrix:\n        {matrix}\n    steps:\n      - run: make\n"
    assert {(n, v) for e, n, v in _read(body) if e == "tool"} == named, body


@each_case("matrix", [
    "node-version: [lts/*, latest]", "node: [18, 20]", "versions: [1.2, 1.3]", "node-version: ${{ fromJSON(x) }}",
    "node-version: []", "node-version:\n          - lts/*\n          - current",
    "include:\n          - name: a\n            value: 1.2", "exclude:\n          - 1.2\n          - 1.3",
    "python:\n          - '3.11'", "node-version:\n        other: 1\n        - 20",
])
def test_matrix_look_alikes_name_no_tool(matrix: str) -> None:
    body = f"jobs:\n  t:\n    strategy:\n      matrix:\n        {matrix}\n    steps:\n      - run: make\n"
    assert not {t for t in _read(body) if t[0] == "tool"}, body


def test_a_block_list_ends_at_the_next_key() -> None:
    body = ("jobs:\n  t:\n    strategy:\n      matrix:\n        node-version:\n          - 20\n        experimental:\n"
            "          - 1.5\n    steps:\n      - run: make\n")
    assert {(n, v) for e, n, v in _read(body) if e == "tool"} == {("node", "20")}


@pytest.mark.parametrize("line", [
    "node-version: [" + "1," * 30_000 + "]", "node-version: [" + " " * 60_000, "node-version:\n" + "  - 1\n" * 20_000,
    "node-version: [" + "[" * 30_000 + "]",
])
def test_hostile_matrices_are_read_fast(line: str) -> None:
    each_fast([(lambda: refused(lambda: parse_workflow("w.yml", f"jobs:\n {line}\n".encode())), line[:30])], 1.0)


# --- a Dagger module's dagger.json (a known lead) ---------------------------------------------------------------------

# kpenfound/dagger-modules' golang/dagger.json (its shape: the engine, the SDK, one remote dependency pinned)
DAGGER_JSON = """\
{
  "name": "golang",
  "engineVersion": "v0.12.4",
  "sdk": "go",
  "dependencies": [
    {
      "name": "wolfi",
      "source": "github.com/shykes/daggerverse/wolfi@v0.1.4",
      "pin": "3d608cb5e6b4b18036a471400bc4e6c753f229d7"
    },
    {
      "name": "lib",
      "source": "../lib"
    }
  ],
  "source": "."
}
"""


def test_dagger_engine_version_in_both_modes(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"golang/dagger.json": DAGGER_JSON},
                              {"golang/dagger.json": {'"v0.12.4"': '"v0.12.5"'}})
    for delta in (tree, patch):
        assert moves(delta) == {("tool", "dagger", "v0.12.4", "v0.12.5")}, (moves(delta), delta.problems)


def test_a_dagger_dependency_moved_to_another_pin(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"dagger.json": DAGGER_JSON}, {"dagger.json": {
        "wolfi@v0.1.4": "wolfi@v0.1.5", "3d608cb5e6b4b18036a471400bc4e6c753f229d7":
        "9a4e1c70d8b2e6f5a3c1b0d9e8f7a6b5c4d3e2f1"}})
    assert moves(tree) == {("git", "github.com/shykes/daggerverse/wolfi", "3d608cb5e6b4b18036a471400bc4e6c753f229d7",
                            "9a4e1c70d8b2e6f5a3c1b0d9e8f7a6b5c4d3e2f1")}, moves(tree)
    assert partial(patch, "dagger.json") and not patch.changes, "a dependency's lines are read with --tree only"


@each_case("body, named", [
    ('{"engineVersion": "v0.18.1"}', {("tool", "dagger", "v0.18.1")}),
    ('{"name": "x", "sdk": {"source": "python"}, "engineVersion": "v0.13.0"}', {("tool", "dagger", "v0.13.0")}),
    ('{"sdk": {"source": "github.com/dagger/dagger/sdk/elixir@v0.13.0"}}',
     {("git", "github.com/dagger/dagger/sdk/elixir", "v0.13.0")}),
    ('{"dependencies": [{"name": "a", "source": "gitlab.com/o/r/m@main", "pin": "abc1234"}]}',
     {("git", "gitlab.com/o/r/m", "abc1234")}),
    ('{"dependencies": [{"name": "a", "source": "./a"}, {"name": "b", "source": "../b"}]}', set()),
    ('{"name": "x", "sdk": "go", "source": "."}', set()),
])
def test_dagger_json_forms(body: str, named: set[tuple[str, str, str]]) -> None:
    assert {(d.ecosystem, d.name, d.version) for d in parse_dagger_json("dagger.json", body.encode())} == named


@each_case("body", [
    "{", "[]", '{"engineVersion": 12}', '{"dependencies": [{"source": "github.com/o/r/m"}]}',
    '{"dependencies": {"a": 1}}', '{"dependencies": [{"source": "github.com/o/r m@v1"}]}',
    '{"sdk": {"source": 1}}', '{"dependencies": ["github.com/o/r@v1"]}',
])
def test_malformed_dagger_json_is_a_problem(body: str) -> None:
    with pytest.raises(ManifestError):
        parse_dagger_json("dagger.json", body.encode())


@each_case("side, index", [
    ([('  "name": "golang",', False), ('  "engineVersion": "v0.12.5",', True)], 1),  # no root shown
    ([("{", False), ('  "sdk": {', False), ('    "engineVersion": "v0.12.5"', True)], 2),  # nested
    ([("{", False), ('  "engineVersion": 12,', True)], 1), ([("{", False), ('  "name": "golang2",', True)], 1),
])
def test_dagger_json_lines_that_are_refused(side: list[tuple[str, bool]], index: int) -> None:
    with pytest.raises(ManifestError):
        dagger_json_line(side, index)


@pytest.mark.parametrize("source", ["a" * 60_000, "a." * 30_000 + "com/x", "github.com" + "/a" * 30_000,
                                    "github.com/o/r@" + "@" * 60_000, "github.com/o/r" + "." * 60_000])
def test_hostile_dagger_sources_are_read_fast(source: str) -> None:
    body = ('{"dependencies": [{"name": "a", "source": "' + source + '"}]}').encode()
    each_fast([(lambda: refused(lambda: parse_dagger_json("dagger.json", body)), source[:30])], 1.0)


# --- a build script's coordinate built from the version catalog (a known lead: Kotlin-built coordinates) -------------

# LeoColman/Petals' layout: the catalog's `kotlin` key feeds its own entries and the root script's buildscript classpath
PETALS_CATALOG = """\
[versions]
agp = "8.13.0"
kotlin = "2.3.20"
kotlin-coroutines = "1.10.2"

[libraries]
kotlin-reflect = { module = "org.jetbrains.kotlin:kotlin-reflect", version.ref = "kotlin" }

[plugins]
kotlinx-serialization = { id = "org.jetbrains.kotlin.plugin.serialization", version.ref = "kotlin" }
"""
PETALS_ROOT = """\
buildscript {
  repositories {
    google()
    mavenCentral()
  }
  dependencies {
    classpath("org.jetbrains.kotlin:kotlin-gradle-plugin:${libs.versions.kotlin.get()}")
    classpath("com.android.tools.build:gradle:${libs.versions.agp.get()}")
  }
}
"""
PETALS_APP = """\
plugins {
  id("com.android.application")
}

dependencies {
  implementation("org.jetbrains.kotlinx:kotlinx-coroutines-android:${libs.versions.kotlin.coroutines.get()}")
  testImplementation("org.jetbrains.kotlin:kotlin-test:$kotlinTest")
}
"""


def _petals(tmp_path: Path, edits: dict[str, dict[str, str]]) -> tuple[object, object]:
    files = {"gradle/libs.versions.toml": PETALS_CATALOG, "build.gradle.kts": PETALS_ROOT,
             "app/build.gradle.kts": PETALS_APP, "settings.gradle.kts": 'include(":app")\n'}
    return both_edited(tmp_path, files, edits)


def test_petals_kotlin_key_moves_the_root_scripts_classpath(tmp_path: Path) -> None:
    tree, patch = _petals(tmp_path, {"gradle/libs.versions.toml": {'kotlin = "2.3.20"': 'kotlin = "2.4.0"'}})
    named = moves(tree)  # type: ignore[arg-type]
    assert ("maven", "org.jetbrains.kotlin:kotlin-gradle-plugin", "2.3.20", "2.4.0") in named, named
    assert ("maven", "org.jetbrains.kotlin:kotlin-reflect", "2.3.20", "2.4.0") in named, named
    assert not {m for m in named if m[1].startswith(("com.android", "org.jetbrains.kotlinx"))}, "other keys: no move"
    assert partial(patch, "gradle/libs.versions.toml"), "from a patch a key's other uses are not shown"  # type: ignore[arg-type]


def test_a_dashed_key_is_its_dotted_accessor(tmp_path: Path) -> None:
    tree, _ = _petals(tmp_path, {"gradle/libs.versions.toml": {'kotlin-coroutines = "1.10.2"':
                                                               'kotlin-coroutines = "1.10.3"'}})
    assert ("maven", "org.jetbrains.kotlinx:kotlinx-coroutines-android", "1.10.2", "1.10.3") in moves(tree), tree  # type: ignore[arg-type]


def test_a_touched_script_reads_the_catalog_too(tmp_path: Path) -> None:
    tree, _ = _petals(tmp_path, {"build.gradle.kts": {"${libs.versions.agp.get()}": "8.13.1"}})
    assert ("maven", "com.android.tools.build:gradle", "8.13.0", "8.13.1") in moves(tree), tree  # type: ignore[arg-type]


@each_case("reference, resolved", [
    ("${libs.versions.kotlin.get()}", "2.4.0"), ("${libs.versions.kotlin}", "${libs.versions.kotlin}"),  # a Provider
    ("${libs.versions.kotlin.coroutines.get()}", "1.10.3"),
    ("${libs.versions.kotlin.orNull}", "${libs.versions.kotlin.orNull}"),  # not read: as written
    ("${libs.versions.nope.get()}", "${libs.versions.nope.get()}"), ("${deps.versions.kotlin.get()}",
                                                                    "${deps.versions.kotlin.get()}"),
    ("${libs.versions.kotlin.get()}x", "${libs.versions.kotlin.get()}x"),
])
def test_catalog_references_in_a_script(reference: str, resolved: str) -> None:
    found = parse_build_script("build.gradle.kts", f'dependencies {{ implementation("g:a:{reference}") }}\n'.encode(),
                               catalog_variables(b'[versions]\nkotlin = "2.4.0"\nkotlin-coroutines = "1.10.3"\n'))
    assert [d.version for d in found] == [resolved], found


@each_case("body", [b"[versions\n", b'[versions]\nkotlin = { strictly = "2.4.0" }\n', b"\xff\xfe", b"[libraries]\n"])
def test_a_catalog_that_gives_no_plain_versions_gives_no_variables(body: bytes) -> None:
    assert not {k: v for k, v in catalog_variables(body).items() if v}, body


# --- a composite action's input default a step hands on (a known lead) ------------------------------------------------

# the common shape of a repository's own setup action (.github/actions/setup/action.yml), and vikunja's lint action
SETUP_ACTION = """\
name: Setup
description: Install the toolchain
inputs:
  node-version:
    description: The Node.js version
    required: false
    default: '20.11.1'
  lint-version:
    description: golangci-lint's version
    default: v2.13.0
  token:
    description: a token
runs:
  using: composite
  steps:
    - uses: actions/setup-node@v4
      with:
        node-version: ${{ inputs.node-version }}
    - uses: golangci/golangci-lint-action@v6
      with:
        version: ${{ inputs.lint-version }}
    - run: npm ci
      shell: bash
"""


def test_a_composite_actions_input_defaults_in_tree_mode(tmp_path: Path) -> None:
    tree, _ = both_edited(tmp_path, {".github/actions/setup/action.yml": SETUP_ACTION},
                          {".github/actions/setup/action.yml": {"'20.11.1'": "'20.12.1'", "v2.13.0": "v2.14.0"}})
    assert {("tool", "node", "20.11.1", "20.12.1"),
            ("tool", "golangci/golangci-lint", "v2.13.0", "v2.14.0")} <= moves(tree), moves(tree)


def _action_tools(body: str, path: str = "action.yml") -> set[tuple[str, str]]:
    return {(d.name, d.version) for d in parse_workflow(path, body.encode()) if d.ecosystem == "tool"}


@each_case("body, named", [
    (SETUP_ACTION, {("node", "20.11.1"), ("golangci/golangci-lint", "v2.13.0")}),
    (SETUP_ACTION.replace("${{ inputs.node-version }}", "${{inputs.node-version}}"),
     {("node", "20.11.1"), ("golangci/golangci-lint", "v2.13.0")}),
    (SETUP_ACTION.replace("${{ inputs.node-version }}", "${{ inputs.node-version || '18' }}"),
     {("golangci/golangci-lint", "v2.13.0")}),
    (SETUP_ACTION.replace("default: '20.11.1'", "default: lts/*"), {("golang" + "ci/golangci-lint", "v2.13.0")}),
    (SETUP_ACTION.replace("    default: '20.11.1'\n", ""), {("golangci/golangci-lint", "v2.13.0")}),
    (SETUP_ACTION.replace("inputs.lint-version", "inputs.token"), {("node", "20.11.1")}),
    (SETUP_ACTION.replace("runs:\n", "outputs:\n  default: 1.2.3\nruns:\n"),
     {("node", "20.11.1"), ("golangci/golangci-lint", "v2.13.0")}),
])
def test_composite_action_defaults(body: str, named: set[tuple[str, str]]) -> None:
    assert _action_tools(body) == named, _action_tools(body)


def test_a_workflows_inputs_are_not_an_actions() -> None:
    assert _action_tools(SETUP_ACTION, ".github/workflows/ci.yml") == set()


@pytest.mark.parametrize("body", [
    "inputs:\n" + "  a:\n    default: 1.0\n" * 10_000 + "runs:\n  steps:\n" + "    - run: x ${{ inputs.a }}\n" * 5_000,
    "inputs:\n  a:\n    default: 1\nruns:\n  steps:\n    - run: " + "${{ inputs." * 20_000 + "\n",
    "inputs:\n  a:\n    default: 1\nruns:\n  steps:\n    - run: " + "${{ inputs.a" + " " * 60_000 + "\n",
])
def test_hostile_action_inputs_are_read_fast(body: str) -> None:
    each_fast([(lambda: refused(lambda: parse_workflow("action.yml", body.encode())), body[:30])], 2.0)
