"""Red team 22: the files a Compose file hands its containers were `src` with the commits, and the gate allowed them.

A service's `env_file:` is its containers' environment as much as its `environment:` is (`LD_PRELOAD=`,
`NODE_OPTIONS=--require ...` there change what runs), `label_file:` its labels (a reverse proxy's routing), and the
top-level `configs:`/`secrets:` `file:` entries are mounted into the containers (an nginx.conf). Red team 14 took in
the `.env` Compose interpolates; these were never read: `gate --tree` allowed each edit (exit 0). Now a Compose file
names them (composerefs.builds) and they are `iac` (iac.context.compose-build), in every YAML form Compose takes.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import two_commits
from tests.incli import tree_gate
from tests.test_classify_context import tree_files

CASES = {
    "env_file": ({"compose.yaml": "services:\n  web:\n    image: nginx\n    env_file: web.env\n",
                  "web.env": "MODE=prod\n"}, {"web.env": "MODE=prod\nLD_PRELOAD=/tmp/x.so\n"}, "web.env"),
    "env_file_list": ({"compose.yaml": "services:\n  web:\n    image: nginx\n    env_file:\n      - common.env\n"
                       "      - path: ./cfg/web.env\n        required: false\n", "common.env": "A=1\n",
                       "cfg/web.env": "B=1\n"}, {"cfg/web.env": "B=1\nNODE_OPTIONS=--require /x.js\n"}, "cfg/web.env"),
    "env_file_flow": ({"ops/docker-compose.yml": "services:\n  web: {image: nginx, env_file: [../conf/web.env]}\n",
                       "conf/web.env": "A=1\n"}, {"conf/web.env": "A=2\n"}, "conf/web.env"),
    "configs": ({"compose.yaml": "services:\n  web:\n    image: nginx\n    configs: [nginx]\nconfigs:\n  nginx:\n"
                 "    file: ./nginx/nginx.conf\n", "nginx/nginx.conf": "server {}\n"},
                {"nginx/nginx.conf": "server { listen 80; }\n"}, "nginx/nginx.conf"),
    "secrets": ({"compose.yaml": "services:\n  web:\n    image: nginx\n    secrets: [tls]\nsecrets:\n  tls:\n"
                 "    file: certs/key.txt\n", "certs/key.txt": "k\n"}, {"certs/key.txt": "k2\n"}, "certs/key.txt"),
    "label_file": ({"compose.yaml": "services:\n  web:\n    image: nginx\n    label_file: ./labels.txt\n",
                    "labels.txt": "traefik.enable=false\n"}, {"labels.txt": "traefik.enable=true\n"}, "labels.txt"),
}


@each_case("case", sorted(CASES))
def test_a_file_compose_hands_its_containers_is_iac(tmp_path: Path, case: str) -> None:
    base, head, target = CASES[case]
    repo, first, last = two_commits(tmp_path / "repo", base, head)
    item = tree_files(repo)[target]
    assert (item.bucket, item.rule) == ("iac", "iac.context.compose-build"), item
    code, decision = tree_gate(repo.root, first, last)
    assert (code, decision["outcome"]) == (3, "review"), decision  # a8393f2: 0, allow


def test_a_file_no_compose_file_names_stays_src(tmp_path: Path) -> None:
    repo, _, _ = two_commits(tmp_path / "repo", {
        "compose.yaml": "services:\n  web:\n    image: nginx\n    env_file: web.env\n", "web.env": "A=1\n",
        "docs/example.env": "A=1\n", "app/settings.txt": "x\n"},
        {"docs/example.env": "A=2\n", "app/settings.txt": "y\n"})
    files = tree_files(repo)
    assert (files["docs/example.env"].bucket, files["app/settings.txt"].bucket) == ("src", "src")
