"""Classes of misses the forty-third label set showed (bench/classify_accuracy/fortythird.tsv), one test each:
HashiCorp agent configurations kept as JSON under ordinary names, Ansible Galaxy requirements under the names
OpenStack-Ansible and purpose-named copies give them, Cluster API's Tilt provider and settings files, and cloud-init
user data in its archive and Jinja-template forms."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, assert_path_rule, patch_files, tree_files

# learn-consul-docker's client agent, as a compose file mounts it into /consul/config/
_CONSUL_CLIENT = """{
    "node_name": "consul-client",
    "data_dir": "/consul/data",
    "retry_join":[
        "consul-server"
     ]
}
"""
_CONSUL_SERVER = """{
  "datacenter": "dc1",
  "data_dir": "/opt/consul",
  "server": true,
  "bootstrap_expect": 3,
  "encrypt": "{{ consul_gossip_key }}",
  "ui_config": {"enabled": true}
}
"""
_NOMAD_AGENT = '{\n  "data_dir": "/var/lib/nomad",\n  "bind_addr": "0.0.0.0",\n  "client": {"enabled": true}\n}\n'
_VAULT_SERVER = """{
  "listener": {
    "tcp": {"address": "0.0.0.0:8200", "tls_disable": true}
  },
  "storage": {"raft": {"path": "/vault/file", "node_id": "vault_1"}},
  "api_addr": "http://127.0.0.1:8200",
  "ui": true
}
"""
_VAULT_LIST = '{"listener": [{"tcp": {"address": "127.0.0.1:8200"}}], "backend": {"file": {"path": "/vault"}}}\n'


@each_case(("path", "text", "rule"), [
    ("datacenter-deploy/client.json", _CONSUL_CLIENT, "iac.content.hashicorp-agent"),
    ("consul/config/server.json", _CONSUL_SERVER, "iac.content.hashicorp-agent"),
    ("roles/consul/templates/consul.json.j2", _CONSUL_SERVER, "iac.content.hashicorp-agent"),
    ("nomad/agent.json", _NOMAD_AGENT, "iac.content.hashicorp-agent"),
    ("vault/config/vault.json", _VAULT_SERVER, "iac.content.hashicorp-agent"),
    ("docker/vault.json", _VAULT_LIST, "iac.content.hashicorp-agent"),
    ("client.json", _CONSUL_CLIENT.replace("\n", "\r\n"), "iac.content.hashicorp-agent"),
    # look-alikes: an application's settings with a data folder, a key named like an agent's without one, a Vault
    # policy, a YAML file (no HashiCorp agent reads YAML), an npm manifest
    ("config/settings.json", '{"data_dir": "/var/lib/app", "port": 8080, "log_level": "info"}\n', None),
    ("config/crypto.json", '{"encrypt": true, "bind_addr": "0.0.0.0"}\n', None),
    ("policies/app.json", '{"path": {"secret/data/app/*": {"capabilities": ["read"]}}}\n', None),
    ("listener.json", '{"listener": {"http": {"port": 80}}, "storage": {"kind": "disk"}}\n', None),
    ("consul.yaml", "data_dir: /opt/consul\nretry_join:\n  - server\n", None),
    ("package.json", '{"name": "agent", "version": "1.0.0", "scripts": {"start": "node ."}}\n', None),
])
def test_hashicorp_agent_configurations_in_json(path: str, text: str, rule: str | None) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert (signal.rule if signal else None) == rule, signal
    if signal:
        assert signal.bucket == "iac"


@each_case(("path", "bucket", "rule"), [
    # OpenStack-Ansible's names, at the root and in a role's tests/ (which an Ansible marker claims for iac)
    ("ansible-role-requirements.yml", "deps", "deps.ansible.manifest"),
    ("tests/ansible-role-requirements.yml", "deps", "deps.ansible.manifest"),
    ("ansible-collection-requirements.yml", "deps", "deps.ansible.manifest"),
    ("ansible-role-requirements.yaml", "deps", "deps.ansible.manifest"),
    # requirements named for a purpose in Ansible's own folders
    ("collections/requirements.packer.yml", "deps", "deps.ansible.manifest"),
    ("ansible/roles/requirements.molecule.yaml", "deps", "deps.ansible.manifest"),
    # look-alikes: a task file that installs Python requirements, a workflow, a Helm 2 file, a docs page
    ("tasks/install_python_requirements.yml", "iac", "iac.ansible"),
    (".github/workflows/pin-requirements.yml", "ci", None),
    ("requirements.timeout.yml", "src", "src.default"),
    ("docs/collections/requirements.md", "src", None),
    ("collections/ansible_collections/acme/tools/requirements.txt", "deps", None),
])
def test_ansible_requirements_under_other_names(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


@each_case(("path", "bucket"), [
    ("tilt-provider.json", "iac"),
    ("tilt-provider.yaml", "iac"),
    ("test/extension/tilt-provider.yaml", "iac"),  # a test extension the development cluster deploys
    ("test/infrastructure/vcsim/tilt-provider.yaml", "iac"),
    ("tilt-settings.yaml", "iac"),
    ("tilt-settings.json", "iac"),
    # look-alikes: Tilt's extension cache, a docs page about the file
    ("tilt_modules/extensions.json", "src"),
    ("docs/book/src/developer/tilt.md", "src"),
])
def test_tilt_provider_and_settings_files(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


_GALAXY = ("---\n- name: apt_package_pinning\n  src: https://opendev.org/openstack/openstack-ansible-apt_package_pinning\n"
           "  scm: git\n  version: master\n")
_FILLER = "".join(f"  Queue{n}:\n    Type: AWS::SQS::Queue\n    Properties:\n      DelaySeconds: {n}\n"
                  for n in range(12))
_CFN = f"AWSTemplateFormatVersion: '2010-09-09'\nResources:\n{_FILLER}  Fn:\n    Properties:\n      Timeout: 30\n"


def test_the_forty_third_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """An Ansible role with its test run (os_nova's tests/ folder), a Consul compose tutorial, a Cluster API
    provider's Tilt files, and a CloudFormation template hidden under a requirements name."""
    git_repo.write("README.md", "# role\n")
    git_repo.write("tasks/main.yml", "- name: install\n  ansible.builtin.package:\n    name: nova\n")
    git_repo.write("tests/test.yml", "- hosts: all\n  roles:\n    - os_nova\n")
    git_repo.write("tests/inventory", "[all]\nlocalhost\n")
    git_repo.write("collections/requirements.infra.yml", _CFN)
    git_repo.write("datacenter-deploy/docker-compose.yml",
                   "services:\n  consul-client:\n    image: hashicorp/consul:1.20\n"
                   "    volumes:\n      - ./client.json:/consul/config/client.json\n")
    git_repo.commit("base")
    texts = {
        "tests/ansible-role-requirements.yml": _GALAXY,
        "collections/requirements.packer.yml": "collections:\n  - name: ansible.posix\n    version: 1.5.4\n",
        "datacenter-deploy/client.json": _CONSUL_CLIENT,
        "config/settings.json": '{"data_dir": "/var/lib/app", "port": 8080}\n',
        "tilt-provider.json": '{"name": "hetzner", "config": {"image": "ghcr.io/example/caph"}}\n',
        "collections/requirements.infra.yml": _CFN.replace("Timeout: 30", "Timeout: 900"),
    }
    want = {"tests/ansible-role-requirements.yml": "deps", "collections/requirements.packer.yml": "deps",
            "datacenter-deploy/client.json": "iac", "config/settings.json": "src", "tilt-provider.json": "iac",
            "collections/requirements.infra.yml": "iac"}
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["datacenter-deploy/client.json"].rule == "iac.content.hashicorp-agent"
    assert files["collections/requirements.infra.yml"].rule == "iac.content.cloudformation"
    patched = patch_files(git_repo, tmp_path)
    for path in ("tests/ansible-role-requirements.yml", "datacenter-deploy/client.json", "tilt-provider.json"):
        assert patched[path].bucket == want[path], patched[path]
    # the template's edit deep in its Resources shows no Galaxy key: unsettled from the patch, never plain deps
    hidden = patched["collections/requirements.infra.yml"]
    assert hidden.bucket == "iac" or "needs-context" in hidden.tags, hidden


_ARCHIVE = """#cloud-config-archive

- type: foo/wark
  filename: bar
  content: |
    This is my payload
  launch-index: 1
- content: |
    #cloud-config
    runcmd:
      - echo hello
"""


@each_case(("path", "text", "rule"), [
    ("doc/examples/cloud-config-archive-launch-index.txt", _ARCHIVE, "iac.content.cloud-init"),
    ("user-data", _ARCHIVE.replace("\n", "\r\n"), "iac.content.cloud-init"),
    ("templates/user-data.yaml", "## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostname }}\n",
     "iac.content.cloud-init"),
    ("init/archive.yml", "## template: jinja\n#cloud-config-archive\n- content: x\n", "iac.content.cloud-init"),
    ("cloud.yaml", "#cloud-config\npackages: [nginx]\n", "iac.content.cloud-init"),
    # look-alikes: the marker not on the first line, another word after it, a Jinja header above something else
    ("notes.md", "Write this:\n#cloud-config-archive\n", None),
    ("docs/cloud-configuration.txt", "#cloud-configuration notes\n- item\n", None),
    ("page.html", "## template: jinja\n<html></html>\n", None),
])
def test_cloud_init_archives_and_templates(path: str, text: str, rule: str | None) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert (signal.rule if signal else None) == rule, signal
