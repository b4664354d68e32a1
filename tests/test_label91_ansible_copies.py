"""Label 91, class 4: the files an Ansible play copies or renders onto its hosts (the ninetieth set: the MariaDB
settings `config/50-server.cnf` that keepalived_wordpress's playbook copies stayed `src`).

`copy:`/`template:` (short, `ansible.builtin.`, `ansible.legacy.`; block, free-form `src=` and flow forms) name by
`src:` a file Ansible ships to the managed hosts, resolved as Ansible resolves it: a role's `files/` (`templates/`),
its own folder, the playbook's folder and its `files/`/`templates/`, `{{ playbook_dir }}`/`{{ role_path }}`. The file
is `iac` whatever its suffix (`.cnf`, extension-less). On 6e8c4930 7 of the 8 variants (plays with no conventional
name) left their file `src` and `gate --tree` allowed its edit (exit 0); a role's `files/` was already the role's.
Look-alikes stay `src`: a `copy:` key in YAML that is no play or task list, a file beside one the play copies,
`content:` with no `src:`, an absolute `src:`.
"""

from __future__ import annotations

import pytest
from changecase import variant_rules
from cpucost import assert_linear, repeated

from gatekeeper.classify import ansiblecopies

PLAY = "- name: db\n  hosts: db\n  become: true\n  tasks:\n"
VARIANTS = [  # (the YAML file, its text, the file it ships), each in a folder of its own
    ("deploy.yml", PLAY + "    - name: settings\n      copy:\n        src: config/50-server.cnf\n"
     "        dest: /etc/mysql/mariadb.conf.d/50-server.cnf\n", "config/50-server.cnf"),
    ("deploy.yml", PLAY + "    - copy: src=config/my.cnf dest=/etc/mysql/my.cnf mode=0644\n", "config/my.cnf"),
    ("deploy.yml", PLAY + "    - ansible.builtin.copy: {src: conf/app.cnf, dest: /etc/app.cnf}\n", "conf/app.cnf"),
    ("deploy.yml", PLAY + "    - ansible.builtin.template:\n        src: \"{{ playbook_dir }}/conf/site.cnf\"\n"
     "        dest: /etc/site.cnf\n", "conf/site.cnf"),
    ("deploy.yml", PLAY + "    - copy:\n        src: keep_web1\n        dest: /etc/keepalived/keepalived.conf\n",
     "files/keep_web1"),
    ("ansible/site-db.yml", PLAY + "    - ansible.legacy.template:\n        src: db.cnf\n        dest: /etc/db.cnf\n",
     "ansible/templates/db.cnf"),
    ("roles/db/tasks/mysql.yml", "- name: settings\n  copy:\n    src: 50-server.cnf\n    dest: /etc/mysql/\n",
     "roles/db/files/50-server.cnf"),
    ("deploy.yml", PLAY + "    - copy:\n        src: \"conf/{{ item }}.cnf\"\n        dest: /etc/\n"
     "      loop: [a, b]\n", "conf/a.cnf"),
]
LOOK_ALIKES = [  # (the YAML file, its text, a file it does not ship)
    ("settings.yml", "copy:\n  src: config/x.cnf\n  dest: out/\n", "config/x.cnf"),
    ("deploy.yml", PLAY + "    - copy:\n        src: config/a.cnf\n        dest: /etc/a.cnf\n", "config/b.cnf"),
    ("deploy.yml", PLAY + "    - copy:\n        content: \"[mysqld]\\n\"\n        dest: /etc/x.cnf\n", "config/x.cnf"),
    ("deploy.yml", PLAY + "    - copy:\n        src: /etc/x.cnf\n        dest: /etc/y.cnf\n        remote_src: true\n",
     "etc/x.cnf"),
]
BEFORE, AFTER = "[mysqld]\nbind-address = 127.0.0.1\n", "[mysqld]\nbind-address = *\nskip-grant-tables\n"


@pytest.fixture(scope="module")
def reached(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    code, rules = variant_rules(tmp_path_factory.mktemp("copies"), [*VARIANTS, *LOOK_ALIKES], BEFORE, AFTER)
    assert code == 3
    return rules


@pytest.mark.parametrize("number", range(len(VARIANTS)), ids=[path for _, _, path in VARIANTS])
def test_a_file_a_play_copies_is_iac(reached: dict[str, str], number: int) -> None:
    assert reached.get(f"v{number}/{VARIANTS[number][2]}") == "core.iac"  # before: 7 of 8 allowed


@pytest.mark.parametrize("number", range(len(LOOK_ALIKES)), ids=[path for _, _, path in LOOK_ALIKES])
def test_a_file_no_play_copies_stays_src(reached: dict[str, str], number: int) -> None:
    assert f"v{len(VARIANTS) + number}/{LOOK_ALIKES[number][2]}" not in reached


def test_the_reader_resolves_as_ansible() -> None:
    text = (PLAY + "    - copy: src=my.cnf dest=/etc/\n").encode()
    assert {"deploy/files/my.cnf", "deploy/my.cnf"} <= set(ansiblecopies.copied("deploy/site.yml", text))


def test_the_reader_is_linear() -> None:
    assert_linear(lambda text: ansiblecopies.copied("site.yml", text.encode()),
                  repeated("- hosts: a\n  copy:\n    src: x{{ y\n   copy: src= ", head="- hosts: all\n"), budget=0.02)
