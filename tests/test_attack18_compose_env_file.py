"""Attack 18: Compose reads its settings (`COMPOSE_FILE`, `COMPOSE_PROFILES`, `DOCKER_HOST`, …) and its interpolation
variables from the `.env` of the project folder by itself (red team 21, attack 17 read those), but also from any file
a command names with `--env-file` (which replaces `.env`) or `.env` names in `COMPOSE_ENV_FILES`. Such a file under
any other name (`config/staging.conf`, `deploy.vars`) was src: a change adding `COMPOSE_FILE=compose.yml:evil.yml` to
the file the deploy job passes to `docker compose --env-file` switched which services run, and `gate --tree` allowed
it. A file a Compose command or `COMPOSE_ENV_FILES` names as an env file is iac, as a Compose file it names is."""

from __future__ import annotations

import pytest

from tests.gitrepo import GitRepo
from tests.incli import tree_gate
from tests.test_classify_context import tree_files

COMPOSE = "services:\n  web:\n    image: nginx:1.27\n    ports: ['8080:80']\n"
WORKFLOW = """name: deploy
on:
  push:
    branches: [main]
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: docker compose --env-file config/staging.conf up -d
      - run: docker-compose --env-file=config/legacy.cfg pull
      - run: make up
"""
MAKEFILE = "up:\n\tdocker compose --env-file deploy.vars up -d --wait\n"
SETTINGS = {
    "config/staging.conf": "COMPOSE_FILE=compose.yml:compose.evil.yml\n",
    "config/legacy.cfg": "DOCKER_HOST=tcp://203.0.113.9:2375\n",
    "deploy.vars": "COMPOSE_PROFILES=debug,miner\n",
    "config/extra.vars": "COMPOSE_FILE=compose.yml:compose.evil.yml\n",
}


@pytest.fixture
def repo(git_repo: GitRepo) -> GitRepo:
    git_repo.write(".github/workflows/deploy.yml", WORKFLOW)
    git_repo.write("Makefile", MAKEFILE)
    git_repo.write("compose.yml", COMPOSE)
    git_repo.write(".env", "COMPOSE_ENV_FILES=.env.shared,config/extra.vars\n")
    git_repo.write("config/app.conf", "LOG_LEVEL=info\n")
    for path in SETTINGS:
        git_repo.write(path, "TAG=1.27\n")
    git_repo.commit("base")
    for path, text in SETTINGS.items():
        git_repo.write(path, "TAG=1.27\n" + text)
    git_repo.write("config/app.conf", "LOG_LEVEL=debug\n")
    git_repo.commit("head")
    return git_repo


@pytest.mark.parametrize("path", sorted(SETTINGS))
def test_env_file_compose_reads_is_iac(repo: GitRepo, path: str) -> None:
    item = tree_files(repo)[path]
    assert item.bucket == "iac", item


def test_file_nothing_names_as_env_file_stays_src(repo: GitRepo) -> None:
    assert tree_files(repo)["config/app.conf"].bucket == "src"


def test_gate_reviews_compose_file_set_in_the_deploy_env_file(git_repo: GitRepo) -> None:
    git_repo.write(".github/workflows/deploy.yml", WORKFLOW)
    git_repo.write("compose.yml", COMPOSE)
    git_repo.write("config/staging.conf", "TAG=1.27\n")
    git_repo.commit("base")
    git_repo.write("config/staging.conf", "TAG=1.27\n" + SETTINGS["config/staging.conf"])
    git_repo.commit("head")
    code, decision = tree_gate(git_repo.root, "main~1", "main")
    assert code == 3, decision["reasons"]  # review (0 was allow on 5fb0bf2)
