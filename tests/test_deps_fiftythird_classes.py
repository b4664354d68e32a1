"""Classes of misses the fifty-third blind set (bench/deps_bumps_fiftythird.tsv) showed, each with look-alikes that
must not match and malformed variants that are a finding, never a crash or a silent pass.

- A runtime a version manager installs in a RUN or run line (jenkins-infra/docker-builder's "Update Node to 20.12.1":
  `asdf install nodejs 20.11.1` → `20.12.1` inside a `RUN bash -c "…"`): no reader read asdf's or mise's commands, so
  the bump named nothing in either mode. `asdf install|global|local|set|shell TOOL VERSION…` and `mise|rtx
  install|use|exec|x|i|u [options] TOOL@VERSION…` now name the tool at each exact version, as `.tool-versions` and
  `mise.toml` name it (`nodejs` is `node`, `golang` is `go`, `core:` dropped).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps.dockerruns import parse_dockerfile
from gatekeeper.deps.model import Dependency
from gatekeeper.deps.runlines import installs
from tests.deltas import both_edited, each_fast, moves

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
