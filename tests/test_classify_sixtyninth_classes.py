"""The classes of misses the sixty-ninth label set found (bench/classify_accuracy/sixtyninth.tsv: 30 ordinary
repositories fetched for it, measured blind first), with the look-alikes they must leave alone.

- A server's own `-c` option in a container's start command read as pip's constraints option. The requirements reader
  (pipinstalls.py) takes a `"-c", "FILE"` pair of string literals as an install's constraints file wherever it stands
  in an installer's text (a noxfile's `session.install("-c", "pins.txt")`, a Python list handed to pip). In the exec
  form of a Dockerfile's `CMD`/`ENTRYPOINT`/`HEALTHCHECK CMD` and a Compose service's `command:`/`entrypoint:`/`test:`
  list the same pair is the started program's own option, almost always its configuration file (`snmptrapd -c
  /etc/snmp/snmptrapd.conf` in zabbix-docker, `gunicorn -c gunicorn_conf.py`, `supervisord -c ...`, `postgres -c
  key=value`, `python -c CODE`), and the file it named, matched as a path suffix, was `deps` with the commits (the
  image's `conf/etc/snmp/snmptrapd.conf`). Now such a pair inside a start command's list that names no installer (no
  `pip`, `uv`, `conda`, `mamba`, `install`, `sync`, `requirement`, `constraint`, `override`) is not read; everything
  else stays as it was: a start command that installs, `RUN` lists, noxfile calls and bare Python lists, `-r` and the
  long options, and a start command whose list does not close within 1 KiB (fail closed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify import RuleSet, load_rules
from gatekeeper.classify.pipinstalls import PathIndex, installed_requirements

REPO_ROOT = Path(__file__).resolve().parent.parent

# A program's own -c option in a start command: (installer text, the file no longer read as constraints).
# Real-shaped: zabbix-docker's snmptraps image, gunicorn's examples, AdGuard Home's continued CMD, AppFlowy Cloud's
# Compose postgres, supervisord and nginx images.
START_COMMANDS = [
    ('CMD ["/usr/sbin/snmptrapd", "-n", "-t", "-X", "-C", "-c", "/etc/snmp/snmptrapd.conf", "-Lo", "-A"]\n',
     "etc/snmp/snmptrapd.conf"),
    ('CMD ["gunicorn", "-c", "gunicorn_conf.py", "app:app"]\n', "gunicorn_conf.py"),
    ('CMD ["gunicorn", "embedding_service.main:app", "-c", "embedding_service/gunicorn_conf.py"]\n',
     "embedding_service/gunicorn_conf.py"),
    ('ENTRYPOINT ["/opt/adguardhome/AdGuardHome"]\n\nCMD [ \\\n\t"--no-check-update", \\\n'
     '\t"-c", "/opt/adguardhome/conf/AdGuardHome.yaml", \\\n\t"-w", "/opt/adguardhome/work" \\\n]\n',
     "opt/adguardhome/conf/AdGuardHome.yaml"),
    ('ENTRYPOINT ["/usr/bin/supervisord", "-c", "/etc/supervisor/supervisord.conf"]\n',
     "etc/supervisor/supervisord.conf"),
    ('CMD ["nginx", "-c", "/etc/nginx/nginx.conf", "-g", "daemon off;"]\n', "etc/nginx/nginx.conf"),
    ("cmd [ 'uwsgi', '-c', 'deploy/uwsgi.yml' ]\n", "deploy/uwsgi.yml"),
    ('HEALTHCHECK --interval=30s --timeout=3s CMD ["/bin/probe", "-c", "probe.yaml"]\n', "probe.yaml"),
    ('services:\n  cron:\n    image: alpine:3.22\n    command: ["/usr/sbin/crond", "-f", "-c", "/etc/crontabs"]\n',
     "etc/crontabs"),
    ("services:\n  worker:\n    entrypoint: ['celery', '-A', 'app', 'worker', '-c', 'conf/celery.cfg']\n",
     "conf/celery.cfg"),
    ('services:\n  web:\n    healthcheck:\n      test: ["CMD", "/app/check", "-c", "check.toml"]\n', "check.toml"),
    ('    - command: ["/bin/server", "-c", "/config/server.yaml"]\n', "config/server.yaml"),
]
# Generated: every start-command form with programs of many kinds and their configuration files.
PROGRAMS = ["snmptrapd", "/usr/sbin/haproxy", "gunicorn", "supervisord", "redis-sentinel", "/app/bin/server",
            "telegraf", "php-fpm"]
FORMS = ['CMD ["{p}", "-c", "{f}"]\n', 'ENTRYPOINT [ "{p}", "-c", "{f}" ]\n', "Cmd ['{p}','-c','{f}']\n",
         'HEALTHCHECK CMD ["{p}", "-c", "{f}"]\n', "services:\n  s:\n    command: [\"{p}\", \"-c\", \"{f}\"]\n",
         "services:\n  s:\n    entrypoint: ['{p}', '-c', '{f}']\n"]
GENERATED = [(form.format(p=program, f=f"/etc/{i}/{j}.conf"), f"etc/{i}/{j}.conf")
             for i, program in enumerate(PROGRAMS) for j, form in enumerate(FORMS)]


@each_case("text, named", START_COMMANDS + GENERATED)
def test_a_programs_own_c_option_in_a_start_command_is_no_constraints_file(text: str, named: str) -> None:
    assert named not in installed_requirements(text)


# Look-alikes that must stay read: (installer text, the file still read as requirements or constraints).
STILL_READ = [
    ('session.install("-c", "constraints.txt", "-e", ".")\n', "constraints.txt"),
    ('    session.install(\n        "-r",\n        "requirements/test.txt",\n        "-c",\n'
     '        "requirements/pins.txt",\n    )\n', "requirements/pins.txt"),
    ('PINS = ["-c", "ci/pins.txt"]\nsession.install(*PINS)\n', "ci/pins.txt"),
    ('RUN ["pip", "install", "-c", "constraints.txt", "."]\n', "constraints.txt"),
    ('CMD ["pip", "install", "-c", "pins.txt", "app"]\n', "pins.txt"),
    ('CMD ["python", "-m", "pip", "install", "-c", "pins.txt", "app"]\n', "pins.txt"),
    ('ENTRYPOINT ["uv", "pip", "sync", "-c", "pins.txt", "req.txt"]\n', "pins.txt"),
    ('CMD ["micromamba", "run", "-c", "pins.txt"]\n', "pins.txt"),
    ('CMD ["/app/start", "--constraint-file", "-c", "pins.txt"]\n', "pins.txt"),
    ('CMD ["app", "-r", "requirements/prod.txt"]\n', "requirements/prod.txt"),  # only -c is narrowed
    ('CMD ["app", "--constraint", "pins.txt"]\n', "pins.txt"),
    ('CMD ["app"]\nsubprocess.run(["pip", "install", "-c", "pins.txt"])\n', "pins.txt"),
    ('CMD ["app"]\ninstall_args = ["-c", "pins.txt"]\n', "pins.txt"),  # after the start command's list closed
    ('CMD ["app", ' + '"x", ' * 300 + '"-c", "pins.txt"]\n', "pins.txt"),  # no close within 1 KiB: fail closed
    ('command: ["app", "-c" ]\nsession.install("-c", "pins.txt")\n', "pins.txt"),
]


@each_case("text, named", STILL_READ)
def test_installs_and_lists_outside_start_commands_stay_read(text: str, named: str) -> None:
    assert named in installed_requirements(text)


def test_the_image_config_is_no_longer_a_requirements_include() -> None:
    # zabbix-docker's snmptraps image, matched against its tree as the reader matches (a path suffix).
    dockerfile = ('FROM alpine:3.22\nCOPY ["conf/etc/snmp/snmptrapd.conf", "/etc/snmp/"]\n'
                  'CMD ["/usr/sbin/snmptrapd", "-n", "-t", "-X", "-C", "-c", "/etc/snmp/snmptrapd.conf", "-Lo"]\n')
    paths = ["Dockerfiles/snmptraps/alpine/Dockerfile", "Dockerfiles/snmptraps/alpine/conf/etc/snmp/snmptrapd.conf"]
    assert PathIndex(paths).matching(installed_requirements(dockerfile), dockerfile) == []
    nox = 'session.install("-c", "Dockerfiles/snmptraps/alpine/conf/etc/snmp/snmptrapd.conf")\n'
    assert PathIndex(paths).matching(installed_requirements(nox), nox) == [paths[1]]


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


# supervisord's and Net-SNMP's settings in an image's root file system overlay (`conf/etc/...`, `rootfs/etc/...`):
# settings of a server baked into the image, `other` as nginx's and supervisord's in a docker/ folder are. Real-shaped:
# zabbix-docker's images (one folder an image and a base OS), linuxserver-style `root/etc/`.
SERVER_SETTINGS = [
    "Dockerfiles/web-apache-pgsql/ol/conf/etc/supervisor/conf.d/supervisord_zabbix.conf",
    "Dockerfiles/web-nginx-mysql/alpine/conf/etc/supervisor/supervisord.conf",
    "Dockerfiles/snmptraps/alpine/conf/etc/snmp/snmptrapd.conf",
    "Dockerfiles/snmptraps/ubuntu/conf/etc/snmp/snmptrapd.conf",
    "rootfs/etc/supervisor/conf.d/app.conf",
    "root/etc/supervisord.conf",
    "images/agent/etc/snmp/snmpd.conf",
    "build/etc/supervisor/conf.d/worker.ini",
]


@each_case("path", SERVER_SETTINGS)
def test_server_settings_in_an_image_overlay_are_other(rules: RuleSet, path: str) -> None:
    assert (rules.match(path).bucket, rules.match(path).rule) == ("other", "other.image-server-settings")


# Look-alikes that keep what their tree makes them: a role's or chart's copy (iac), a CI folder's (ci), a deploy
# folder's (iac), test data, vendored code, and other files beside them (a trap handler script, a logrotate entry).
KEPT = [
    ("roles/web/files/etc/supervisor/conf.d/app.conf", "iac"),
    ("roles/snmp/templates/etc/snmp/snmpd.conf", "iac"),
    ("charts/x/files/etc/supervisor/conf.d/a.conf", "iac"),
    ("deploy/etc/supervisor/conf.d/x.conf", "iac"),
    (".github/docker/etc/supervisor/conf.d/a.conf", "ci"),
    ("tests/fixtures/etc/snmp/snmpd.conf", "src"),
    ("vendor/github.com/x/etc/supervisor/a.conf", "deps"),
    ("Dockerfiles/snmptraps/alpine/conf/usr/sbin/zabbix_trap_handler.sh", "src"),
    ("Dockerfiles/snmptraps/alpine/conf/etc/logrotate.d/zabbix_snmptraps", "src"),
    ("src/supervisor/config.py", "src"),
    ("docs/etc/snmp/snmpd.conf.md", "src"),
]


@each_case("path, bucket", KEPT)
def test_look_alikes_keep_their_bucket(rules: RuleSet, path: str, bucket: str) -> None:
    assert rules.match(path).bucket == bucket
