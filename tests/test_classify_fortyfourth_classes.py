"""Classes of misses the forty-fourth label set showed (bench/classify_accuracy/fortyfourth.tsv), one test each: the
files a Salt state imports (`import_yaml`) or installs (`salt://`) under ordinary names, Talos machine-configuration
patches whose first key the content rule did not know (`network:`, `userVolumes:`), and sops' creation rules."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.saltfiles import named
from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, assert_path_rule, patch_files, tree_files

# neg-serg/salt's shape: masterless states in states/, their data in states/data/, installed files in states/configs/
_KERNEL_STATE = """{% import_yaml 'data/kernel_params.yaml' as kp %}
limine-kernel-params:
  file.replace:
    - name: /boot/limine.conf
    - pattern: '^cmdline:.*'
    - repl: 'cmdline: {{ kp.common | join(" ") }}'
"""
_LOKI_STATE = """grafana-provider:
  file.managed:
    - name: /etc/grafana/provisioning/dashboards/salt.yaml
    - source: salt://configs/grafana-dashboards-provider.yaml
    - makedirs: True
"""
# a nested state whose import is relative to the file roots (states/), not to its own folder
_NESTED_STATE = """{%- import_json "data/models.json" as models -%}
{% import_text 'data/banner.txt' as banner %}
comfyui-models:
  cmd.run:
    - name: fetch-models {{ models | join(' ') }}
"""
_PROVIDER = "apiVersion: 1\nproviders:\n  - name: salt\n    type: file\n    options:\n      path: /var/lib/dash\n"


@each_case(("state", "text", "want"), [
    ("states/kernel.sls", _KERNEL_STATE, {"states/data/kernel_params.yaml", "data/kernel_params.yaml"}),
    ("states/loki.sls", _LOKI_STATE, {"states/configs/grafana-dashboards-provider.yaml",
                                       "configs/grafana-dashboards-provider.yaml"}),
    ("states/video/base.sls", _NESTED_STATE, {f"{base}data/{name}" for base in ("states/video/", "states/", "")
                                             for name in ("models.json", "banner.txt")}),
    # a source in a list, quoted, and a bare one after a key
    ("salt/web.sls", "nginx:\n  file.managed:\n    - source:\n      - 'salt://web/files/nginx.conf'\n"
                     "    - template: jinja\n", {"salt/web/files/nginx.conf", "web/files/nginx.conf"}),
    # look-alikes: an absolute path, another scheme, a path built by Jinja, a path leaving the repository, a URL
    ("states/x.sls", "a:\n  file.managed:\n    - source: /srv/salt/x.conf\n", set()),
    ("states/x.sls", "a:\n  file.managed:\n    - source: https://example.org/x.conf\n", set()),
    ("states/x.sls", "{% import_yaml data_file as d %}\n", set()),
    ("states/x.sls", "{% import_yaml '../../../etc/passwd' as d %}\n", set()),
    ("states/x.sls", "b:\n  cmd.run:\n    - name: curl http://salt//nothing\n", set()),
])
def test_what_a_salt_state_names(state: str, text: str, want: set[str]) -> None:
    assert set(named(state, text.encode())) == want


def test_salt_state_data_and_sources_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """A masterless Salt tree: the data a state imports and the file it installs are iac with the commits; a data
    file no state names, a dotfile and a document stay where the rules put them."""
    git_repo.write("states/kernel.sls", _KERNEL_STATE)
    git_repo.write("states/loki.sls", _LOKI_STATE)
    git_repo.write("states/video/base.sls", _NESTED_STATE)
    git_repo.write("states/data/kernel_params.yaml", "common:\n  - quiet\n")
    git_repo.write("states/data/unused.yaml", "items: []\n")
    git_repo.write("states/data/models.json", "[]\n")
    git_repo.write("states/configs/grafana-dashboards-provider.yaml", _PROVIDER)
    git_repo.write("dotfiles/dot_config/kitty/kitty.conf", "font_size 11\n")
    git_repo.write("docs/data.md", "# data\n")
    git_repo.commit("base")
    texts = {
        "states/data/kernel_params.yaml": "common:\n  - quiet\n  - mitigations=off\n",
        "states/data/unused.yaml": "items: [a]\n",
        "states/data/models.json": '["sdxl"]\n',
        "states/configs/grafana-dashboards-provider.yaml": _PROVIDER.replace("/var/lib/dash", "/srv/dash"),
        "dotfiles/dot_config/kitty/kitty.conf": "font_size 12\n",
        "docs/data.md": "# data files\n",
    }
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    want = {"states/data/kernel_params.yaml": "iac", "states/data/models.json": "iac",
            "states/configs/grafana-dashboards-provider.yaml": "iac", "states/data/unused.yaml": "src",
            "dotfiles/dot_config/kitty/kitty.conf": "src", "docs/data.md": "src"}
    assert {path: files[path].bucket for path in want} == want
    for path in ("states/data/kernel_params.yaml", "states/configs/grafana-dashboards-provider.yaml"):
        assert files[path].rule == "iac.context.salt-file", files[path]
    assert "states/kernel.sls" in files["states/data/kernel_params.yaml"].evidence
    # from the patch alone no state is shown: nothing is raised by one
    patched = patch_files(git_repo, tmp_path)
    assert all(patched[path].rule != "iac.context.salt-file" for path in want), patched
    assert patched["states/data/kernel_params.yaml"].bucket == "src"


def test_a_state_removed_with_its_data_still_names_it(git_repo: GitRepo) -> None:
    """Either tree's states count: a change that deletes the state and edits its data file is still reviewed."""
    git_repo.write("states/kernel.sls", _KERNEL_STATE)
    git_repo.write("states/data/kernel_params.yaml", "common:\n  - quiet\n")
    git_repo.commit("base")
    git_repo.git("rm", "-q", "states/kernel.sls")
    git_repo.write("states/data/kernel_params.yaml", "common:\n  - init=/bin/sh\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["states/data/kernel_params.yaml"].bucket == "iac", files["states/data/kernel_params.yaml"]


_USER_VOLUMES = """# USB SSD user volumes
machine:
  userVolumes:
    - name: longhorn-ssd
      provisioning:
        maxSize: 1TB
"""


@each_case(("path", "text", "rule"), [
    ("talos/patches/usb-ssd-uservolumes.yaml", _USER_VOLUMES, "iac.content.talos"),
    ("talos/patches/network.yaml", "machine:\n  network:\n    hostname: node-1\n    nameservers: [1.1.1.1]\n",
     "iac.content.talos"),
    ("patches/logging.yaml", "machine:\n\n  logging:\n    destinations:\n      - endpoint: udp://10.0.0.1:514\n",
     "iac.content.talos"),
    ("patches/pods.yaml", "machine:\n  pods:\n    - apiVersion: v1\n      kind: Pod\n", "iac.content.talos"),
    ("controlplane.yaml", "machine:\n  token: abc.def\n  controlPlane:\n    scheduler:\n      disabled: true\n",
     "iac.content.talos"),
    ("env.yaml", "machine:\r\n  env:\r\n    https_proxy: http://proxy:3128\r\n", "iac.content.talos"),
    # look-alikes: a key nested deeper, a kas build file's machine name, a word that only begins like a key
    ("config/app.yaml", "settings:\n  machine:\n    network: lan\n", None),
    ("kas-poky-rpi.yml", "header:\n  version: 8\nmachine: raspberrypi4\ndistro: poky\n", None),
    ("ml/train.yaml", "machine:\n  networking_mode: bridge\n", None),
])
def test_talos_patches_by_their_first_key(path: str, text: str, rule: str | None) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert (signal.rule if signal else None) == rule, signal


@each_case(("path", "bucket", "rule"), [
    (".sops.yaml", "other", "other.lint-format"),
    ("home-ops/.sops.yaml", "other", "other.lint-format"),
    (".sops.yml", "other", "other.lint-format"),
    # look-alikes: an encrypted file is what the rules say of its name, a workflow stays ci, and so does the
    # Kubernetes folder's name
    ("kubernetes/.sops.yaml", "iac", "iac.kubernetes"),
    ("secrets/app.sops.yaml", "src", None),
    (".github/workflows/.sops.yaml", "ci", None),
])
def test_sops_creation_rules(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)
