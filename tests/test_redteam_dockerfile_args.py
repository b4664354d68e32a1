"""Red team: a Dockerfile without an extension whose first instruction is `ARG` (the documented way to choose the
base image: `ARG BASE=python:3.12` then `FROM ${BASE}`) was not a Dockerfile to the content tier: only a first
`FROM` counted, so `app/web` built by `docker build -f app/web .` came out src. Docker allows only ARG (and parser
directives, which are comments) before the first FROM; they are skipped, continuation lines included.
"""

from __future__ import annotations

from gitrepo import GitRepo
from tables import each_case
from test_classify_context import RULES, tree_files

from gatekeeper.classify.sniff import sniff

DOCKERFILES = [
    "# syntax=docker/dockerfile:1\nARG BASE=python:3.12-slim\nFROM ${BASE}\nRUN id\n",
    "ARG A=1 \\\n    B=2\nfrom alpine\n",
    "\n  arg VERSION\n# a comment\nARG OTHER=x\nFROM --platform=$BUILDPLATFORM golang:${VERSION} AS build\n",
    "ARG X=\"a \\\\\nFROM b\"\nFROM scratch\n",
]
NOT_DOCKERFILES = ["ARG is a word\nthen prose\n", "ARG X=1\nRUN id\n", "#!/bin/sh\nARG=1\necho FROM here\n"]


@each_case("text", DOCKERFILES)
def test_args_before_from_still_make_a_dockerfile(text: str) -> None:
    found = sniff("app/web", text.encode(), RULES.context)
    assert found is not None and found.rule == "iac.content.dockerfile"


@each_case("text", NOT_DOCKERFILES)
def test_a_file_whose_first_instruction_after_args_is_not_from_is_not_one(text: str) -> None:
    found = sniff("app/web", text.encode(), RULES.context)
    assert found is None or found.rule != "iac.content.dockerfile"


def test_the_commits_classify_it_as_iac(git_repo: GitRepo) -> None:
    git_repo.write("app/README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("app/web", DOCKERFILES[0])
    git_repo.commit("head")
    assert tree_files(git_repo)["app/web"].rule == "iac.content.dockerfile"
