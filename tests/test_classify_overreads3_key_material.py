"""Over-reads 3, a miss: the SSH public keys an Ansible project installs were `src` (CVTS's
`ops/ansible/deploy_keys/jamie.pub`, the seventy-sixth set: `authorized_key: user=ubuntu key="{{ item }}"` with
`with_file: [deploy_keys/jamie.pub, …]`). A marker's `config` claim covered certificates (`crt`, `pem`, `cer`: what a
playbook or a kustomization installs) but not the rest of the same material: SSH public keys (`.pub`), private keys
(`.key`: a kustomization's `secretGenerator` `tls.key`) and ASCII-armoured signing keys (`.asc`: an apt repository's
key a role installs). An edit of one changes who may log in to the machines or what they trust.

Each is classified with `--tree` through a real repository, beside each marker whose claim is `config`; the same
files with no infrastructure around them, in test data, or in a skipped folder keep their buckets."""

from __future__ import annotations

from tables import each_case

from gatekeeper.classify.markers import CONFIG_EXTENSIONS
from tests.gitrepo import GitRepo
from tests.test_classify_markers import tree_files

KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleExampleExampleExampleExample jamie@laptop\n"
PRIVATE = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIExample\n-----END PRIVATE KEY-----\n"
ARMOURED = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBExample\n-----END PGP PUBLIC KEY BLOCK-----\n"
TASK = ("- name: keys\n  authorized_key: user=ubuntu key=\"{{ item }}\"\n  with_file:\n"
        "    - deploy_keys/jamie.pub\n")
# (marker file, its text, the project folder): each marker whose claim is `config`
PROJECTS = [
    ("ops/ansible/playbook.yaml", "- hosts: all\n  roles: [common]\n", "ops/ansible"),
    ("ops/ansible/ansible.cfg", "[defaults]\nroles_path = roles\n", "ops/ansible"),
    ("provision/inventory", "[web]\n192.0.2.10\n", "provision"),
    ("site/group_vars/all.yml", "user: ubuntu\n", "site"),
    ("manifests/prod/kustomization.yaml", "secretGenerator:\n- name: tls\n  files: [keys/tls.key]\n",
     "manifests/prod"),
]
FILES = {"deploy_keys/jamie.pub": KEY, "keys/tls.key": PRIVATE, "files/apt-repo.asc": ARMOURED,
         "id_ed25519.pub": KEY}


@each_case("marker, text, folder", PROJECTS)
def test_key_material_in_a_config_project_is_iac(git_repo: GitRepo, marker: str, text: str, folder: str) -> None:
    git_repo.write(marker, text)
    git_repo.write(f"{folder}/roles/common/tasks/users.yaml", TASK) if "ansible" in folder else None
    git_repo.commit("base")
    for name, content in FILES.items():
        git_repo.write(f"{folder}/{name}", content)
    git_repo.commit("head")
    files = tree_files(git_repo)
    got = {name: (files[f"{folder}/{name}"].bucket, files[f"{folder}/{name}"].rule.startswith("iac.marker."))
           for name in FILES}
    assert got == {name: ("iac", True) for name in FILES}


def test_look_alikes_keep_their_buckets(git_repo: GitRepo) -> None:
    git_repo.write("ops/ansible/playbook.yaml", "- hosts: all\n")
    git_repo.write("README.md", "# x\n")
    git_repo.commit("base")
    placed = {
        "keys/jamie.pub": "src",  # no infrastructure around it
        "docs/signing/release.asc": "src",
        "app/certs/dev.key": "src",
        "tests/fixtures/server.key": "src",  # test data stays test data
        "ops/ansible/library/fixtures.pub": "src",  # a skipped folder (module code)
        "ops/ansible/README.md": "src",  # documentation is never claimed by `config`
    }
    for path in placed:
        git_repo.write(path, KEY)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in placed} == placed


def test_the_claim_names_the_key_types() -> None:
    assert {"pub", "key", "asc"} <= CONFIG_EXTENSIONS
