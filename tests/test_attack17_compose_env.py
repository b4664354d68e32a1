"""Attack 17: red team 21's `iac.content.compose-env` read Compose's settings in a `.env`-named file only as
`KEY=value` at a line's start, while compose-go's dotenv parser (which `docker compose` reads `.env` with) also takes
the YAML form `KEY: value`, a statement after a quoted value on the same line, `export` without a space, and any
Unicode space before a key; and the documented `.env.*` and `*.env` names were never read (not candidate types). Each
variant below switched which Compose files or engine run and was `src` with the commits, so `gate --tree` allowed
it. Application variables and `COMPOSE_PROJECT_NAME` stay `src`."""

from __future__ import annotations

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files

COMPOSE = """services:
  web:
    image: ghcr.io/acme/shop:1.4.2
    ports:
      - "8080:8080"
"""
DEBUG = """services:
  web:
    privileged: true
    volumes:
      - /:/host
"""
BASE_ENV = "APP_NAME=shop\nLOG_LEVEL=info\n"


@each_case(("path", "text"), [
    (".env", BASE_ENV + "COMPOSE_FILE: compose.yaml:compose.debug.yaml\n"),
    (".env", 'APP_NAME="shop" COMPOSE_FILE=compose.yaml:compose.debug.yaml\nLOG_LEVEL=info\n'),
    (".env", BASE_ENV + "exportCOMPOSE_PROFILES=debug\n"),
    (".env", BASE_ENV + "\fCOMPOSE_FILE=compose.yaml:compose.debug.yaml\n"),
    (".env", BASE_ENV + "DOCKER_HOST : ssh://deploy@build.example.net\n"),
    (".env.local", BASE_ENV + "COMPOSE_FILE=compose.yaml:compose.debug.yaml\n"),
    (".env.production", BASE_ENV + "export COMPOSE_FILE=compose.yaml:compose.debug.yaml\n"),
    ("config/prod.env", BASE_ENV + "COMPOSE_FILE=compose.yaml:compose.debug.yaml\n"),
])
def test_compose_settings_in_env_files_are_iac(git_repo: GitRepo, path: str, text: str) -> None:
    git_repo.write("compose.yaml", COMPOSE)
    git_repo.write("compose.debug.yaml", DEBUG)
    git_repo.write(path, BASE_ENV)
    git_repo.commit("base")
    git_repo.write(path, text)
    git_repo.commit("head")
    item = tree_files(git_repo)[path]
    assert (item.bucket, item.rule) == ("iac", "iac.content.compose-env"), item


@each_case(("path", "text"), [
    (".env", BASE_ENV + "COMPOSE_PROJECT_NAME=shop\n"),
    (".env", BASE_ENV + "MY_COMPOSE_FILE=compose.yaml\nDOCKER_HOSTNAME=web\n"),
    (".env.local", BASE_ENV + "DATABASE_URL=postgres://shop@localhost/shop\n"),
    ("config/test.env", "REDIS_URL=redis://localhost:6379/0\n"),
])
def test_application_variables_stay_src(git_repo: GitRepo, path: str, text: str) -> None:
    git_repo.write("compose.yaml", COMPOSE)
    git_repo.write(path, "APP_NAME=shop\n")
    git_repo.commit("base")
    git_repo.write(path, text)
    git_repo.commit("head")
    assert tree_files(git_repo)[path].bucket == "src"
