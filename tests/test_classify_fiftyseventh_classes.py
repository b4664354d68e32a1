"""Classes of misses the fifty-seventh label set showed (bench/classify_accuracy/fiftyseventh.tsv), one test each: a
`.buildkite/` folder below the root (a monorepo project's pipelines, a fixture's), Drone pipelines under a
`.drone.<variant>.yml` name, jsonnet that builds Tekton objects, and a Firecracker microVM's settings. Each with the
look-alikes that keep their bucket, and a real repository classified from its commits and from its patch."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.sniff import sniff
from tests.cpucost import assert_linear
from tests.gitrepo import GitRepo
from tests.test_classify_context import RULES, patch_files, tree_files


@each_case("path", [
    "services/api/.buildkite/pipeline.yml",  # a monorepo project's own, uploaded by a dynamic pipeline
    "services/api/.buildkite/hooks/pre-command",
    "packages/web/.buildkite/pipelines/deploy/pipeline.rb",  # buildkite-builder's Ruby pipelines
    "spec/fixtures/shared/.buildkite/pipelines/dummy/pipeline.rb",  # test data never lowers ci
    "tests/data/.buildkite/pipeline.yml",
    ".buildkite/pipeline.yml",  # the root's, as before
])
def test_a_buildkite_folder_at_any_depth_is_ci(path: str) -> None:
    assert RULES.match(path).bucket == "ci", RULES.match(path)


@each_case(("path", "bucket"), [
    ("vendor/github.com/acme/lib/.buildkite/pipeline.yml", "deps"),  # vendored code keeps its bucket
    ("node_modules/some-lib/.buildkite/pipeline.yml", "deps"),
    ("third_party/lib/.buildkite/pipeline.yml", "deps"),
    ("docs/buildkite/pipeline.md", "src"),  # not the dot folder
    ("src/buildkite_client.rb", "src"),
])
def test_buildkite_folder_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


@each_case("path", [
    ".drone.windows.yml",
    "test/out/.drone.object.yaml",  # a renderer's expected output: test data never lowers ci
    "build/.drone.arm64.yaml",
    ".drone.yml",  # as before
])
def test_a_drone_variant_name_is_ci(path: str) -> None:
    assert RULES.match(path).bucket == "ci", RULES.match(path)


@each_case(("path", "bucket"), [
    ("docs/drone.yaml", "src"),
    ("drone.yml", "src"),  # no leading dot: not Drone's name
    ("vendor/github.com/acme/lib/.drone.windows.yml", "deps"),
])
def test_drone_name_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, RULES.match(path)


# continusd/continusd's infrastructure/lib/tekton/pipeline.libsonnet shape, in our words
_TEKTON_JSONNET = """/**
  * A Tekton Pipeline with its run.
  */
{
  pipeline(name, tasks=[])::
    assert name != '' : 'a name';
    {
      apiVersion: 'tekton.dev/v1beta1',
      kind: 'Pipeline',
      metadata: { name: name },
      spec: { tasks: tasks },
    },
}
"""
_DEPLOYMENT_JSONNET = """{
  deployment(name, image):: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: name },
  },
}
"""


@each_case(("path", "text", "rule"), [
    ("infrastructure/lib/tekton/pipeline.libsonnet", _TEKTON_JSONNET, "ci.content.tekton"),
    ("ci/run.jsonnet", _TEKTON_JSONNET.replace("'", '"').replace("kind: \"Pipeline\"", "kind: \"PipelineRun\""),
     "ci.content.tekton"),
    ("ci/task.jsonnet", '{\n  "apiVersion": "tekton.dev/v1",\n  "kind": "Task",\n}\n', "ci.content.tekton"),
    # a Deployment first, then the Tekton task: each kind pairs with the apiVersion written before it
    ("lib/all.libsonnet", _DEPLOYMENT_JSONNET + _TEKTON_JSONNET, "ci.content.tekton"),
    ("lib/wf.libsonnet", "{\n  wf: {\n    apiVersion: 'argoproj.io/v1alpha1',\n    kind: 'Workflow',\n  },\n}\n",
     "ci.content.argo-workflows"),
])
def test_jsonnet_that_builds_a_ci_object_is_ci(path: str, text: str, rule: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == ("ci", rule), signal


@each_case(("path", "text"), [
    ("lib/k8s/deployment.libsonnet", _DEPLOYMENT_JSONNET),  # a Kubernetes object: iac by its path already
    ("lib/notes.libsonnet", "{\n  // kind: 'Pipeline' of tekton.dev, see the docs\n  version: 'tekton.dev/v1',\n}\n"),
    ("docs/pipeline.md", _TEKTON_JSONNET),  # not jsonnet by name
])
def test_jsonnet_look_alikes_are_not_raised_to_ci(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.bucket != "ci", signal


def test_the_jsonnet_shape_is_linear_in_hostile_input() -> None:
    """Thousands of apiVersion and kind lines that never pair into a ci object: one pass over each (no pairing of
    every kind with every apiVersion), at 64 and 256 KiB."""
    line = "  apiVersion: 'example.org/v1',\n  kind: 'Widget',\n"

    def read(text: bytes) -> None:
        signal = sniff("lib/widgets.libsonnet", text, RULES.context)
        assert signal is None or signal.bucket != "ci", signal

    assert_linear(read, lambda size: ("{\n" + line * (4 * size // len(line)) + "}\n").encode(), budget=1.0)


# vinnie357/mini-labs' labs/firecracker/vmconfig.json shape, in our words
_FIRECRACKER = """{
  "boot-source": {
    "kernel_image_path": "images/vmlinux",
    "boot_args": "console=ttyS0 reboot=k panic=1 pci=off"
  },
  "drives": [
    {"drive_id": "rootfs", "path_on_host": "images/rootfs.ext4", "is_root_device": true, "is_read_only": false}
  ],
  "machine-config": {"vcpu_count": 2, "mem_size_mib": 1024}
}
"""


@pytest.mark.parametrize(("path", "text"), [
    ("labs/firecracker/vmconfig.json", _FIRECRACKER),
    ("vm/config.json", _FIRECRACKER.replace("\n", "\r\n")),
])
def test_a_firecracker_microvm_definition_is_iac(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is not None and (signal.bucket, signal.rule) == ("iac", "iac.content.firecracker-vm"), signal


@each_case(("path", "text"), [
    ("app/settings.json", '{\n  "boot-source": "disk",\n  "theme": "dark"\n}\n'),  # one key only
    ("docs/firecracker.md", _FIRECRACKER),  # prose quoting it
    ("data/keys.json", '{"keys": ["boot-source", "machine-config"]}\n'),  # the words as values
])
def test_firecracker_look_alikes_keep_their_bucket(path: str, text: str) -> None:
    signal = sniff(path, text.encode(), RULES.context)
    assert signal is None or signal.rule != "iac.content.firecracker-vm", signal


def _write_repo(git_repo: GitRepo) -> None:
    git_repo.write("README.md", "# platform\n")
    git_repo.commit("base")
    git_repo.write("spec/fixtures/basic/.buildkite/pipelines/dummy/pipeline.rb",
                   "Buildkite::Builder.pipeline do\n  command(:basic)\nend\n")
    git_repo.write("test/out/.drone.object.yaml", '---\n"kind": "pipeline"\n"name": "one"\n"type": "docker"\n')
    git_repo.write("infrastructure/lib/tekton/pipeline.libsonnet", _TEKTON_JSONNET)
    git_repo.write("infrastructure/lib/k8s/deployment.libsonnet", _DEPLOYMENT_JSONNET)
    git_repo.write("labs/firecracker/vmconfig.json", _FIRECRACKER)
    git_repo.write("app/settings.json", '{\n  "boot-source": "disk"\n}\n')
    git_repo.commit("head")


_EXPECTED = {
    "spec/fixtures/basic/.buildkite/pipelines/dummy/pipeline.rb": "ci",
    "test/out/.drone.object.yaml": "ci",
    "infrastructure/lib/tekton/pipeline.libsonnet": "ci",
    "infrastructure/lib/k8s/deployment.libsonnet": "iac",
    "labs/firecracker/vmconfig.json": "iac",
    "app/settings.json": "src",
}


def test_a_real_repository_from_its_commits(git_repo: GitRepo) -> None:
    _write_repo(git_repo)
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in _EXPECTED} == _EXPECTED


def test_a_real_repository_from_its_patch(git_repo: GitRepo, tmp_path: Path) -> None:
    _write_repo(git_repo)
    files = patch_files(git_repo, tmp_path)
    assert {path: files[path].bucket for path in _EXPECTED} == _EXPECTED
