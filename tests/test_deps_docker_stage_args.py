"""A Dockerfile's `ARG <TOOL>_VERSION=` moved in a hunk that shows no `FROM` (round 57; jenkins-infra/docker-builder's
"bump checkstyle-typos to 0.2.0": `ARG TYPOS_CHECKSTYLE_VERSION=0.2.0` over the `RUN curl …/v${…}/…` it feeds, 100
lines below the file's only FROM). A `FROM` reads only the ARGs above the first FROM, and nothing but `ARG`, comments
and parser directives may stand there; so a hunk showing an instruction only a stage holds (`RUN`, `ENV`, `COPY`, …)
above the ARG, or below it with no FROM between, proves the ARG a stage's, which no FROM can read: it is read as the
whole file reads it (`--tree` named the tool, the patch named only `partial`). An ARG the hunk cannot place (only ARG,
comment and blank lines around it, a witness that may be a continuation's or a heredoc's text, a FROM between) stays a
`partial` problem naming nothing, as before. A project's own version (`ARG APP_VERSION=`, `BUILD_VERSION`) is no tool
in either mode."""

from __future__ import annotations

from pathlib import Path

import pytest
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.deps.docker import dockerfile_hunks, parse_dockerfile
from gatekeeper.deps.hunks import CHANGED, HUNK
from gatekeeper.deps.model import ManifestError, PartlyRead
from tests.deltas import moves, partial
from tests.deltas import patch as _patch
from tests.deltas import tree as _tree
from tests.gitrepo import edited_commits

_HEAD = "FROM jenkins/inbound-agent:3309.v27b_9314fd1a_4-1-jdk17\n\nUSER root\n\n" + "".join(
    f"RUN apt-get install -y --no-install-recommends pkg{i} \\\n  && rm -rf /var/lib/apt/lists/*\n\n" for i in range(8))


def _stage(key: str, value: str, witness: str) -> str:
    """A stage deep below the only FROM: `witness` above the ARG, the download that uses it below."""
    return (_HEAD + f"{witness}\n\n"
            f"ARG {key}_VERSION={value}\n"
            "RUN curl --silent --location --output /tmp/t.tar.gz \\\n"
            f'  "https://example.org/v${{{key}_VERSION}}/t.tgz" \\\n'
            "  && tar -xzf /tmp/t.tar.gz -C /usr/local/bin\n\n" + "".join(f"RUN echo step{i}\n" for i in range(8))
            + 'ENTRYPOINT ["/usr/local/bin/agent"]\n')


_TOOLS = [("TYPOS_CHECKSTYLE", "typos-checkstyle"), ("KUBECTL", "kubectl"), ("BAZEL", "bazel"), ("GH", "gh"),
          ("HELM", "helm/helm"), ("CONTAINER_STRUCTURE_TEST", "container-structure-test")]
_VALUES = [("0.1.1", "0.2.0"), ("v1.30.2", "v1.31.0"), ('"7.4.1"', '"8.0.0"')]
_WITNESSES = ["RUN typos --help", "ENV PATH=/opt/bin:$PATH", "WORKDIR /tmp", "COPY entry.sh /usr/local/bin/",
              "USER jenkins", "LABEL org.example.tool=t"]


@each_case("key,tool", _TOOLS)
@each_case("old,new", _VALUES)
def test_a_stage_arg_is_named_from_a_hunk_without_its_from(tmp_path: Path, key: str, tool: str, old: str,
                                                           new: str) -> None:
    body = _stage(key, old, "RUN typos --help")
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": body},
                                      {"Dockerfile": {f"{key}_VERSION={old}": f"{key}_VERSION={new}"}})
    patch, tree = _patch(repo, base, head), _tree(repo, base, head)
    want = ("tool", tool, old.strip('"'), new.strip('"'))
    assert want in moves(tree), tree
    assert moves(patch) == moves(tree) and not partial(patch, "Dockerfile"), patch


@each_case("witness", _WITNESSES)
@each_case("context", ["-U2", "-U3", "-U5"])  # -U1 shows only a blank line above the ARG: see _UNPLACED
def test_any_stage_instruction_the_hunk_shows_places_the_arg(tmp_path: Path, witness: str, context: str) -> None:
    body = _stage("KUBECTL", "1.30.2", witness)
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": body},
                                      {"Dockerfile": {"KUBECTL_VERSION=1.30.2": "KUBECTL_VERSION=1.31.0"}})
    patch = _patch(repo, base, head, context)
    assert moves(patch) == {("tool", "kubectl", "1.30.2", "1.31.0")} and not partial(patch, "Dockerfile"), patch


def test_the_instruction_below_places_it_too(tmp_path: Path) -> None:
    # the commit's own shape: the RUN right below the ARG, the lines above a RUN's continuation
    above = "RUN curl -sL x \\\n  && chmod a+x /usr/local/bin/typos \\\n  && typos --help"
    body = _stage("TYPOS_CHECKSTYLE", "0.1.1", above)
    edit = {"TYPOS_CHECKSTYLE_VERSION=0.1.1": "TYPOS_CHECKSTYLE_VERSION=0.2.0"}
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": body}, {"Dockerfile": edit})
    patch = _patch(repo, base, head, "-U2")
    assert moves(patch) == {("tool", "typos-checkstyle", "0.1.1", "0.2.0")} and not partial(patch, "Dockerfile")


def test_the_commit_shape_read_whole_as_hunk_lines() -> None:
    side = ("  && chmod a+x /usr/local/bin/typos \\\n  && typos --help\n\n"
            "\0ARG TYPOS_CHECKSTYLE_VERSION=0.2.0\n\0RUN curl --silent --output /tmp/t \\\n"
            '  "https://github.com/halkeye/typos-json-to-checkstyle/releases/download/v${TYPOS_CHECKSTYLE_VERSION}/t"\n')
    found = dockerfile_hunks("Dockerfile", side.encode())
    assert ("typos-checkstyle", "0.2.0") in [(d.name, d.version) for d in found]


# --- look-alikes: the hunk cannot place the ARG, so it stays `partial` and names nothing ---------------------------

GLOBAL = ("# syntax=docker/dockerfile:1\n\n" + "".join(f"ARG PAD{i}=x\n" for i in range(8))
          + "ARG GO_VERSION=1.22.5\nARG ALPINE_VERSION=3.20\n\n" + "".join(f"# note {i}\n" for i in range(6))
          + "\nFROM golang:${GO_VERSION}-alpine${ALPINE_VERSION} AS build\nRUN go build ./...\n")


@each_case("context", ["-U0", "-U1", "-U3"])
def test_a_global_arg_stays_partial(tmp_path: Path, context: str) -> None:
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": GLOBAL},
                                      {"Dockerfile": {"GO_VERSION=1.22.5": "GO_VERSION=1.23.0"}})
    patch = _patch(repo, base, head, context)
    assert not patch.changes and partial(patch, "Dockerfile"), patch


_UNPLACED = {  # hunks.sides' shape: a changed line led by CHANGED, a context line as it is, HUNK between hunks
    # the only stage-looking line may be a continuation of the ARG instruction (or of anything) above the hunk
    "continued": "ARG A=1 \\\nRUN x\n\0ARG KUBECTL_VERSION=1.31.0\n",
    "continued after a comment": "ARG A=1 \\\n# a comment inside it\nRUN x\n\0ARG KUBECTL_VERSION=1.31.0\n",
    "continued after a blank line": "ARG A=1 \\\n\nRUN x\n\0ARG KUBECTL_VERSION=1.31.0\n",
    "first line of the hunk": "RUN x\n\0ARG KUBECTL_VERSION=1.31.0\n",
    "only a blank line above it": "\n\0ARG KUBECTL_VERSION=1.31.0\nRUN x\n",  # what -U1 shows: it may continue a line
    "in a comment": "ARG B=2\n# RUN x\n\0ARG KUBECTL_VERSION=1.31.0\n",
    "in a heredoc": "ARG B=2\nCOPY <<EOF /x\nRUN x\nEOF\n\0ARG KUBECTL_VERSION=1.31.0\n",
    "a FROM between, below": "ARG B=2\n\0ARG KUBECTL_VERSION=1.31.0\nFROM alpine:3.20\nRUN x\n",
    "only ARG lines": "ARG B=2\n\0ARG KUBECTL_VERSION=1.31.0\nARG C=3\n",
    "another hunk": "ARG B=2\nRUN x\n@@\n\0ARG KUBECTL_VERSION=1.31.0\n",
    "the ARG continued": "ARG B=2\nRUN x\n\0ARG KUBECTL_VERSION=1.31.0 \\\n",
}


@each_case("case", sorted(_UNPLACED))
def test_an_arg_the_hunk_cannot_place_names_nothing(case: str) -> None:
    side = _UNPLACED[case].replace("@@", HUNK).replace("\0", CHANGED)
    with pytest.raises(PartlyRead) as caught:
        dockerfile_hunks("Dockerfile", side.encode())
    assert "kubectl" not in [d.name for d in caught.value.found], case


# --- a project's own version is no tool, in both modes -------------------------------------------------------------

@each_case("key", ["APP", "BUILD", "RELEASE", "PROJECT", "APPLICATION"])
def test_a_projects_own_version_is_no_tool(tmp_path: Path, key: str) -> None:
    body = _stage(key, "0.0.0", "RUN true")
    assert all(d.name != key.lower() for d in parse_dockerfile("Dockerfile", body.encode()))
    repo, base, head = edited_commits(tmp_path, {"Dockerfile": body},
                                      {"Dockerfile": {f"{key}_VERSION=0.0.0": f"{key}_VERSION=1.0.0"}})
    patch, tree = _patch(repo, base, head), _tree(repo, base, head)
    assert not moves(tree) and not moves(patch) and not partial(patch, "Dockerfile"), patch


def test_a_word_holding_a_self_word_is_still_a_tool() -> None:
    body = _stage("APPTAINER", "1.3.4", "RUN true") + "ARG BUILDKIT_VERSION=0.16.0\n"
    names = {d.name for d in parse_dockerfile("Dockerfile", body.encode())}
    assert {"apptainer", "buildkit"} <= names, names


# --- malformed and hostile hunks: findings, never a crash; linear cost ---------------------------------------------

@each_case("side", [b"\x00\n" * 3, b"RUN \\\n" * 500 + b"ARG X_VERSION=1\n", b"<<<<<<\nARG X_VERSION=1\n",
                    "RUN \u2028x\nARG X_VERSION=1\n".encode(), b"\n\n\n"])
def test_malformed_hunks_are_findings(side: bytes) -> None:
    try:
        dockerfile_hunks("Dockerfile", side)
    except (PartlyRead, ManifestError):
        pass


def test_cost_is_linear_in_the_hunk() -> None:
    unit = f"RUN echo x\n{CHANGED}ARG K_VERSION=1.0\n"

    def read(text: str) -> object:
        try:
            return dockerfile_hunks("Dockerfile", text.encode())
        except (PartlyRead, ManifestError):
            return None

    assert_linear(read, repeated(unit, "FROM alpine:3.20\n", ""), budget=2.0)
