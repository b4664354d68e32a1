"""Misses 11: the files Ansible ships onto its hosts by a module other than `copy:`/`template:`, or through a loop
over a variable (review 70b's left; ansiblecopies.py).

`unarchive: src=files/app.tgz`, `assemble: src=fragments`, `script: files/setup.sh --x` (its free form's first word, or
`cmd:`), with the `ansible.builtin.` names, ship or run a file of the repository on every host, as `copy:` does; a `src:
"{{ item }}"` whose loop is a variable (`loop: "{{ files }}"`, `with_items: "{{ conf }}"`) may name any file of the
play's (or the role's) `files/` and `templates/` (fail closed: every one). On ed28b952 each stayed `src` and `gate
--tree` allowed its edit. Look-alikes: a URL or an absolute source, a `shell:` whose command names a path (run on the
host, not shipped), a variable loop whose task copies a literal `src`, and `synchronize:` (it deploys an application's
tree: over the mirrors its code would all be `iac`).
"""

from __future__ import annotations

import pytest
from changecase import variant_rules
from cpucost import assert_linear, repeated

from gatekeeper.classify import ansiblecopies

PLAY = "- name: app\n  hosts: app\n  become: true\n  tasks:\n"
VARIANTS = [  # (the YAML file, its text, the file it ships), each in a folder of its own
    ("deploy.yml", PLAY + "    - unarchive:\n        src: dist/app.tgz\n        dest: /opt/\n", "dist/app.tgz"),
    ("deploy.yml", PLAY + "    - ansible.builtin.unarchive: src=app.tgz dest=/opt/\n", "files/app.tgz"),
    ("deploy.yml", PLAY + "    - assemble:\n        src: fragments\n        dest: /etc/app.conf\n",
     "fragments/10-base.conf"),
    ("deploy.yml", PLAY + "    - script: tools/setup.sh --fast\n", "tools/setup.sh"),
    ("deploy.yml", PLAY + "    - ansible.builtin.script:\n        cmd: setup.sh --fast\n", "files/setup.sh"),
    ("deploy.yml", PLAY + "    - name: x\n      script: migrate.py\n      args:\n        chdir: /opt\n",
     "files/migrate.py"),
    ("deploy.yml", PLAY + "    - copy:\n        src: \"{{ item }}\"\n        dest: /etc/\n"
     "      loop: \"{{ conf_files }}\"\n", "files/app.ini"),
    ("deploy.yml", PLAY + "    - template:\n        src: '{{ item.src }}'\n        dest: '{{ item.dest }}'\n"
     "      with_items: '{{ templates }}'\n", "templates/app.conf.j2"),
    ("deploy.yml", PLAY + "    - name: x\n      loop: \"{{ lookup('vars', 'files') }}\"\n"
     "      ansible.builtin.copy: src={{ item }} dest=/etc/\n", "files/sub/app.ini"),
]
LOOK_ALIKES = [  # (the YAML file, its text, a file it does not ship)
    ("deploy.yml", PLAY + "    - unarchive:\n        src: https://127.0.0.1:9/app.tgz\n        dest: /opt/\n",
     "files/app.tgz"),
    ("deploy.yml", PLAY + "    - unarchive:\n        src: /tmp/app.tgz\n        dest: /opt/\n        remote_src: yes\n",
     "tmp/app.tgz"),
    ("deploy.yml", PLAY + "    - shell: tools/setup.sh --fast\n", "tools/setup.sh"),
    ("deploy.yml", PLAY + "    - ansible.posix.synchronize: src=api/ dest=/srv/api\n", "api/app.ini"),
    ("deploy.yml", PLAY + "    - copy:\n        src: app.ini\n        dest: /etc/\n      loop: \"{{ hosts }}\"\n",
     "files/other.ini"),
]
BEFORE, AFTER = "[app]\nbind = 127.0.0.1\n", "[app]\nbind = *\nauth = off\n"


@pytest.fixture(scope="module")
def gated(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, str]]:
    return variant_rules(tmp_path_factory.mktemp("sources"), [*VARIANTS, *LOOK_ALIKES], BEFORE, AFTER)


@pytest.fixture(scope="module")
def reached(gated: tuple[int, dict[str, str]]) -> dict[str, str]:
    return gated[1]


def test_gate_tree_asks_for_a_human(gated: tuple[int, dict[str, str]]) -> None:
    assert gated[0] == 3  # before: 0


@pytest.mark.parametrize("number", range(len(VARIANTS)), ids=[text[-40:] for _, text, _ in VARIANTS])
def test_a_file_a_play_ships_is_iac(reached: dict[str, str], number: int) -> None:
    assert reached.get(f"v{number}/{VARIANTS[number][2]}") == "core.iac"  # before: 9 of 9 allowed


@pytest.mark.parametrize("number", range(len(LOOK_ALIKES)), ids=[text[-40:] for _, text, _ in LOOK_ALIKES])
def test_a_file_no_play_ships_stays_src(reached: dict[str, str], number: int) -> None:
    assert f"v{len(VARIANTS) + number}/{LOOK_ALIKES[number][2]}" not in reached


@pytest.mark.parametrize("hostile", [
    repeated("  - script: a/b.sh x\n", head="- hosts: all\n  tasks:\n"),
    repeated("  - unarchive:\n      src: a{{\n    loop: '{{ x }}'\n", head="- hosts: all\n"),
    repeated("    script:\n      cmd: ", head="- hosts: all\n"),
    repeated("  - copy: src={{ item }}\n    loop: \"{{ x }}\"\n", head="- hosts: all\n")])
def test_the_reader_is_linear(hostile: object) -> None:
    # measured: at most 0.011 CPU-s at 64 KiB (load 16.3)
    assert_linear(lambda text: ansiblecopies.copied("site.yml", text.encode()), hostile,  # type: ignore[arg-type]
                  budget=0.05)
