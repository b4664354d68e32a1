"""Classes of misses the thirty-sixth label set found (bench/classify_accuracy/thirtysixth.tsv: 62 repositories of
mobile apps, C/C++, JVM and .NET applications, PHP, Ruby, Elixir, data/ML and games, many repositories and few files
each, measured blind first), each with the look-alikes it must leave alone: Taskcluster's taskgraph folder (its worker
images and requirements), Open Build Service workflows, GitReleaseManager settings, vendored code under `3rdparty/`
and `3rd-party/`, a .NET project folder named `*.Framework/` (not an Apple framework bundle), Service Fabric
manifests, a conda environment under any name (by content), and build-tool, code-service and cloud-workspace
settings. The real repository below checks them with the commits and from the patch."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.buildshapes import build_shape
from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # Taskcluster's taskgraph: the whole CI, its worker images and the decision task's requirements
    ("taskcluster/docker/screenshots/Dockerfile", "ci", "ci.taskcluster"),
    ("taskcluster/requirements.in", "ci", "ci.taskcluster"),
    ("taskcluster/kinds/build/kind.yml", "ci", "ci.taskcluster"),
    ("taskcluster/focusios_taskgraph/transforms/build.py", "ci", "ci.taskcluster"),
    ("taskcluster/scripts/build.sh", "ci", "ci.taskcluster"),
    ("taskcluster/__init__.py", "src", None),  # a client library's package named taskcluster/
    ("taskcluster/aio/asyncclient.py", "src", None),
    ("docs/taskcluster/docker/Dockerfile", "iac", None),  # not at the root: an ordinary Dockerfile
    # Open Build Service and GitReleaseManager
    (".obs/workflows.yml", "ci", "ci.open-build-service"),
    (".obs/workflows.yaml", "ci", "ci.open-build-service"),
    ("docs/obs/workflows.yml", "src", None),
    ("GitReleaseManager.yaml", "ci", "ci.gitreleasemanager"),
    ("src/GitReleaseManager/Program.cs", "src", None),
    # vendored code under the other spellings of third_party/
    ("3rdparty/dawn/src/tint/lang/spirv/reader/lower/decompose_strided_matrix.h", "deps", "deps.vendored-nested"),
    ("3rd-party/eigen-3.3.7/doc/UsingNVCC.dox", "deps", "deps.vendored-nested"),
    ("3rd-party/tbb/examples/parallel_for/polygon_overlay/speedup.gif", "deps", "deps.vendored-nested"),
    ("3rd_party/zlib/zlib.h", "deps", "deps.vendored-nested"),
    # after the CI, IaC and manifest rules: what those name keeps its kind (Pants keeps its manifests there)
    ("3rdparty/lib/Dockerfile", "iac", "iac.containers"), ("3rdparty/lib/Jenkinsfile", "ci", None),
    ("3rdparty/python/requirements.txt", "deps", "deps.pip.manifest"),
    ("3rdparty/jvm/default.lock", "src", "src.pants-third-party"),  # Pants' declarations: content raises them
    # GoogleTest copied with its version in the folder name, at any depth
    ("test/googletest-1.16.0/googletest/test/googletest-output-test-golden-lin.txt", "deps", "deps.vendored-nested"),
    ("test/googletest-1.16.0/LICENSE", "deps", "deps.vendored-nested"),
    ("test/googletest-1.16.0/docs/index.md", "deps", "deps.vendored-nested"),
    ("tests/gtest-1.7.0/include/gtest/gtest.h", "deps", "deps.vendored-nested"),
    ("test/googletest-1.16.0/ci/linux-presubmit.sh", "deps", "deps.vendored-nested"),
    ("test/googletest_main.cc", "src", None), ("docs/googletest-1.16.md", "src", None),
    ("test/googletest-1.16.0/.github/workflows/ci.yml", "deps", None),  # a copy's workflows never run
    ("src/3rdparty.cpp", "src", None), ("docs/3rdparty/index.md", "src", None),
    # a .NET project folder named *.Framework/ holds the project's own code
    ("MonoGame.Framework/Utilities/System.Numerics.Vectors/Quaternion.cs", "src", "src.dotnet-framework-projects"),
    ("Acme.Framework/Services/Clock.vb", "src", "src.dotnet-framework-projects"),
    ("Frameworks/Sparkle.framework/Headers/SUUpdater.h", "deps", "deps.vendored"),  # an Apple bundle stays vendored
    ("vendor/Acme.Framework/Clock.cs", "deps", "deps.vendored"),  # vendored .NET code stays vendored
    (".github/Acme.Framework/Clock.cs", "ci", None),
    # Service Fabric manifests
    ("samples/ServiceFabric/OcelotApplication/OcelotApplicationApiGatewayPkg/ServiceManifest.xml", "iac",
     "iac.service-fabric"),
    ("VotingApplication/ApplicationPackageRoot/ApplicationManifest.xml", "iac", "iac.service-fabric"),
    ("app/src/main/AndroidManifest.xml", "src", None),
    # build-tool, code-service and cloud-workspace settings
    (".cmake-format", "other", "other.build-tool-settings"),
    (".cmake-format.yaml", "other", "other.build-tool-settings"),
    ("GitVersion.yml", "other", "other.build-tool-settings"),
    (".codacy.yml", "other", "other.code-services"),
    (".codedocs", "other", "other.code-services"),
    ("dynamic_theme/idx-template.nix", "other", "other.cloud-workspaces"),
    (".idx/dev.nix", "other", "other.cloud-workspaces"),
    ("cmake/format.cmake", "src", None), ("nix/modules/idx.nix", "src", None),
])
def test_path_rules_of_the_thirty_sixth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


_MLFLOW_CONDA = """name: tutorial
channels:
  - defaults
dependencies:
  - numpy>=1.14.3
  - pandas>=1.0.0
  - scikit-learn=0.19.1
  - pip:
    - mlflow
"""


@each_case(("name", "text", "deps"), [
    ("conda.yaml", _MLFLOW_CONDA, True),
    ("sar_conda.yaml", "name: module_env\nchannels:\n- defaults\ndependencies:\n- python=3.7\n- pip:\n  - pyspark\n",
     True),
    ("env.yml", "# an environment for the docs\r\nchannels:\r\n  - conda-forge\r\ndependencies:\r\n  - sphinx\r\n",
     True),
    # Helm 2's requirements.yaml: dependencies, no channels
    ("requirements.yaml", "dependencies:\n  - name: redis\n    version: 17.0.0\n    repository: oci://r.invalid\n",
     False),
    # a pubspec has an environment and a version, which conda does not read
    ("pubspec.yaml", "name: app\nversion: 1.0.0\nenvironment:\n  sdk: '>=3.0.0 <4.0.0'\nchannels: []\n"
                     "dependencies:\n  http: ^1.2.0\n", False),
    # an application's settings with a channels list
    ("settings.yaml", "channels:\n  - general\n  - random\nnotify: true\n", False),
    ("chat.yaml", "channels:\n  - general\ndependencies:\n  - db\nretries: 3\n", False),
])
def test_a_conda_environment_is_known_by_its_keys(name: str, text: str, deps: bool) -> None:
    found = build_shape(name, text)
    assert (found is not None and found[:2] == ("deps", "deps.content.conda-environment")) == deps, (name, found)


def test_the_thirty_sixth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a mobile app with a release pipeline and a training job\n")
    git_repo.commit("base")
    texts = {
        "taskcluster/docker/screenshots/Dockerfile": "FROM ubuntu:22.04\nRUN useradd -m worker\n",
        "taskcluster/requirements.in": "taskcluster-taskgraph>=7.1.0\n",
        ".obs/workflows.yml": "workflow:\n  steps:\n    - branch_package:\n        source_project: home:acme\n"
                              "        source_package: app\n  filters:\n    event: pull_request\n",
        "3rdparty/miniz/miniz.h": "/* miniz.c 3.0.2 - public domain deflate/inflate */\n#pragma once\n",
        "training/conda.yaml": _MLFLOW_CONDA,
        "training/MLproject": "name: tutorial\nconda_env: conda.yaml\nentry_points:\n  main:\n"
                              "    command: 'python train.py'\n",
        "App.Framework/Clock.cs": "namespace App.Framework;\npublic static class Clock { }\n",
    }
    want = {"taskcluster/docker/screenshots/Dockerfile": "ci", "taskcluster/requirements.in": "ci",
            ".obs/workflows.yml": "ci", "3rdparty/miniz/miniz.h": "deps", "training/conda.yaml": "deps",
            "training/MLproject": "src", "App.Framework/Clock.cs": "src"}
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["training/conda.yaml"].rule == "deps.content.conda-environment"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
