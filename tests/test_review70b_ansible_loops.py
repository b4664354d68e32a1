"""Review 70b: the files an Ansible task copies through its loop (`src: "{{ item }}"` with `with_items:`/`loop:`).

`copy: src: "{{ item }}"` ships each item of the task's `with_items:`, `loop:` or `with_fileglob:` (a list below the
key, a flow list, or mappings whose `src:` the path is: `src: "{{ item.src }}"`): each is a file the play copies onto
its hosts, as a literal `src:` is (label 91). On 779774c6 every such file stayed `src` and `gate --tree` allowed its
edit: 6 of the 6 variants. Read fail-closed: a file that takes a `src` from a loop variable counts every loop item of
the file as a source (a glob names its folder). Look-alikes: a loop item of a file whose `src:` is literal, a loop
whose items are absolute paths, a list under a key that is no loop (`tags:`).
"""

from __future__ import annotations

import pytest
from changecase import variant_rules
from cpucost import assert_linear, repeated

from gatekeeper.classify import ansiblecopies

PLAY = "- name: db\n  hosts: db\n  become: true\n  tasks:\n"
VARIANTS = [  # (the YAML file, its text, the file it ships), each in a folder of its own
    ("deploy.yml", PLAY + "    - copy:\n        src: \"{{ item }}\"\n        dest: /etc/\n      with_items:\n"
     "        - conf/a.cnf\n        - conf/b.cnf\n", "conf/b.cnf"),
    ("deploy.yml", PLAY + "    - name: x\n      loop: [conf/a.cnf, 'conf/c.cnf']\n      ansible.builtin.template:\n"
     "        src: '{{ item }}'\n        dest: /etc/\n", "conf/c.cnf"),
    ("deploy.yml", PLAY + "    - copy: src={{ item.src }} dest={{ item.dest }}\n      loop:\n"
     "        - { src: conf/d.cnf, dest: /etc/d.cnf }\n", "conf/d.cnf"),
    ("deploy.yml", PLAY + "    - copy:\n        src: \"{{ item.src }}\"\n        dest: \"{{ item.dest }}\"\n"
     "      with_items:\n        - src: keep.conf\n          dest: /etc/keep.conf\n", "files/keep.conf"),
    ("deploy.yml", PLAY + "    - copy:\n        src: \"{{ item }}\"\n        dest: /etc/\n      with_fileglob:\n"
     "        - conf/*.cnf\n", "conf/e.cnf"),
    ("deploy.yml", PLAY + "    - block:\n        - template:\n            src: \"{{ item }}\"\n"
     "            dest: /etc/\n          with_items:\n            - conf/f.cnf\n", "conf/f.cnf"),
]
LOOK_ALIKES = [  # (the YAML file, its text, a file it does not ship)
    ("deploy.yml", PLAY + "    - copy:\n        src: conf/a.cnf\n        dest: /etc/\n    - debug: msg={{ item }}\n"
     "      with_items:\n        - conf/b.cnf\n", "conf/b.cnf"),
    ("deploy.yml", PLAY + "    - copy:\n        src: \"{{ item }}\"\n        dest: /etc/\n        remote_src: true\n"
     "      with_items:\n        - /etc/a.cnf\n", "etc/a.cnf"),
    ("deploy.yml", PLAY + "    - copy:\n        src: \"{{ item }}\"\n        dest: /etc/\n      tags:\n"
     "        - conf/g.cnf\n", "conf/g.cnf"),
]
BEFORE, AFTER = "[mysqld]\nbind-address = 127.0.0.1\n", "[mysqld]\nbind-address = *\nskip-grant-tables\n"


@pytest.fixture(scope="module")
def reached(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return variant_rules(tmp_path_factory.mktemp("loops"), [*VARIANTS, *LOOK_ALIKES], BEFORE, AFTER)[1]


@pytest.mark.parametrize("number", range(len(VARIANTS)), ids=[text[-40:] for _, text, _ in VARIANTS])
def test_a_file_a_loop_copies_is_iac(reached: dict[str, str], number: int) -> None:
    assert reached.get(f"v{number}/{VARIANTS[number][2]}") == "core.iac"  # before: 6 of 6 allowed


@pytest.mark.parametrize("number", range(len(LOOK_ALIKES)), ids=[text[-40:] for _, text, _ in LOOK_ALIKES])
def test_a_file_no_loop_copies_stays_src(reached: dict[str, str], number: int) -> None:
    assert f"v{len(VARIANTS) + number}/{LOOK_ALIKES[number][2]}" not in reached


def test_the_reader_is_linear() -> None:
    assert_linear(lambda text: ansiblecopies.copied("site.yml", text.encode()),
                  repeated("  with_items:\n    - a/b{{\n  copy:\n    src: '{{ item }}'\n  loop: [x, y\n",
                           head="- hosts: all\n"), budget=0.02)
