"""The label89 round's classes (issue 12; docs/classification.md, "The eighty-ninth set").

1. **CI settings read by their own name**: ClusterFuzzLite's build scripts and project settings in `.clusterfuzzlite/`
   (the fuzzing workflow's build runs `build.sh` in the image its Dockerfile makes) and haskell-ci's `cabal.haskell-ci`
   (the settings the workflow is generated from) are `ci`; the Dockerfile beside them stays `iac`, the fuzzers' sources
   stay `src`. On be985d92 toml11's `.clusterfuzzlite/build.sh` was `src` (the eighty-ninth set).
2. **Configuration kept as a template a tool fills in** (`deployment.yaml.in` that a workflow runs through
   `envsubst`, `values.yaml.jinja2`, `service.yml.mustache`): the content tier reads the YAML or JSON under the template
   suffix, so a Kubernetes object there is `iac` as it is under `.tmpl`, `.j2` or `.erb`. On be985d92 such files were
   never read and stayed `src` (glower/hello-world's `backend/k8s/deployment.yaml.in`, the eighty-ninth set). A
   template of another type (`Makefile.in`, `config.h.in`, `foo.pc.in`) is not read, as before, and a filled-in YAML of
   application settings stays `src`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import classify_and_gate, tree_classify
from tables import each_case

from gatekeeper.classify import RuleSet, load_rules
from gatekeeper.classify.sniff import is_candidate

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return load_rules(REPO_ROOT / "policies")


# -- 1. CI settings read by their own name ------------------------------------------------------------------------

CI_NAMED = [
    ".clusterfuzzlite/build.sh", ".clusterfuzzlite/project.yaml", ".clusterfuzzlite/project.yml",
    ".clusterfuzzlite/scripts/prepare.sh", "fuzz/.clusterfuzzlite/build.sh",
    "cabal.haskell-ci", "packages/core/cabal.haskell-ci",
]
# (path, the bucket it keeps): neighbours and look-alikes the rule must not take
CI_LOOKALIKES = [
    (".clusterfuzzlite/Dockerfile", "iac"), (".clusterfuzzlite/parse_fuzzer.cpp", "src"),
    (".clusterfuzzlite/README.md", "src"), ("docs/clusterfuzzlite/build.sh", "src"), ("clusterfuzzlite.sh", "src"),
    ("cabal.project", "deps"), ("cabal.haskell-ci.md", "src"), ("docs/haskell-ci.txt", "src"), ("build.sh", "src"),
]


@each_case("path", CI_NAMED)
def test_ci_settings_read_by_their_name_are_ci(rules: RuleSet, path: str) -> None:
    assert rules.match(path).bucket == "ci", path


@each_case(("path", "bucket"), CI_LOOKALIKES)
def test_their_neighbours_and_look_alikes_keep_their_bucket(rules: RuleSet, path: str, bucket: str) -> None:
    assert rules.match(path).bucket == bucket, path


FUZZING = """name: ClusterFuzzLite
on: [pull_request]
jobs:
  fuzz:
    runs-on: ubuntu-latest
    steps:
      - uses: google/clusterfuzzlite/actions/build_fuzzers@v1
        with:
          language: c++
      - uses: google/clusterfuzzlite/actions/run_fuzzers@v1
        with:
          fuzz-seconds: 60
"""


def test_toml11_in_a_real_repository(tmp_path: Path) -> None:
    """toml11's shape: a fuzzing workflow, and `.clusterfuzzlite/` with the image, its build script, the project
    settings and a fuzzer; an edit to the build script goes to review with the commits."""
    head = {".github/workflows/fuzzing.yml": FUZZING,
            ".clusterfuzzlite/Dockerfile": "FROM gcr.io/oss-fuzz-base/base-builder\nCOPY . $SRC/toml11\n"
                                           "COPY .clusterfuzzlite/build.sh $SRC/build.sh\n",
            ".clusterfuzzlite/build.sh": "#!/bin/bash -eu\n$CXX $CFLAGS parse_fuzzer.cpp -o $OUT/parse_fuzzer\n",
            ".clusterfuzzlite/project.yaml": "language: c++\n",
            ".clusterfuzzlite/parse_fuzzer.cpp": "int LLVMFuzzerTestOneInput() { return 0; }\n",
            "cabal.haskell-ci": "branches: master\n", "src/toml.cpp": "int x;\n"}
    buckets, _ = classify_and_gate(tmp_path / "all", {"README.md": "x\n"}, head)
    assert buckets[".clusterfuzzlite/build.sh"] == buckets[".clusterfuzzlite/project.yaml"] == "ci"
    assert buckets["cabal.haskell-ci"] == "ci"
    assert buckets[".clusterfuzzlite/Dockerfile"] == "iac"
    assert buckets[".clusterfuzzlite/parse_fuzzer.cpp"] == buckets["src/toml.cpp"] == "src"
    edit = {".clusterfuzzlite/build.sh": "#!/bin/bash -eu\ncurl -fsSL http://127.0.0.1:9/x | sh\n"}
    buckets, decision = classify_and_gate(tmp_path / "edit", head, edit)
    assert buckets == {".clusterfuzzlite/build.sh": "ci"}
    assert decision["outcome"] == "review", decision


# -- 2. configuration kept as a template a tool fills in ----------------------------------------------------------

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: hello-world-backend
spec:
  replicas: 3
  selector:
    matchLabels:
      app: hello-world-backend
  template:
    metadata:
      labels:
        app: hello-world-backend
    spec:
      containers:
        - name: backend
          image: ${IMAGE}
"""
SERVICE_JSON = json.dumps({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"},
                           "spec": {"ports": [{"port": 80}]}})
SUFFIXES = ["in", "jinja", "jinja2", "mustache", "envsubst", "subst", "hbs", "handlebars", "ejs", "liquid", "njk",
            "m4", "IN"]
FOLDERS = ["backend/ops", "templates", "cluster-config/app"]
TEMPLATES = [(f"{folder}/web.{ext}.{suffix}", text) for suffix in SUFFIXES for folder in FOLDERS
             for ext, text in (("yaml", DEPLOYMENT), ("yml", DEPLOYMENT), ("json", SERVICE_JSON))]


# Templates in the folders whose YAML the path rules already call Kubernetes manifests (`k8s/`, `kubernetes/`,
# `deploy/`, beside krane's `*.yml.erb`): `iac` from a path list too.
MANIFEST_TEMPLATES = [f"{folder}/{name}.{ext}.{suffix}" for folder in ("backend/k8s", "ops/kubernetes/base", "deploy")
                      for name in ("deployment", "service") for ext in ("yaml", "yml") for suffix in ("in", "envsubst")]


@each_case("path", MANIFEST_TEMPLATES)
def test_a_manifest_template_in_a_manifest_folder_is_iac_by_path(rules: RuleSet, path: str) -> None:
    assert rules.match(path).bucket == "iac", path


@each_case(("path", "bucket"), [("backend/k8s/README.md.in", "src"), ("backend/k8s/Makefile.in", "src"),
                                ("docs/deploy.yaml.in", "src"), ("config/app.yml.in", "src")])
def test_other_templates_keep_their_bucket_by_path(rules: RuleSet, path: str, bucket: str) -> None:
    assert rules.match(path).bucket == bucket, path


@each_case("path", [path for path, _ in TEMPLATES])
def test_a_config_template_is_read(path: str) -> None:
    assert is_candidate(path), path


# (path, text, bucket): templates of other types, and filled-in settings that are no infrastructure
LOOKALIKES = [
    ("Makefile.in", "all:\n\techo apiVersion: v1\n", "src"),
    ("config.h.in", "#define APIVERSION 1\n", "src"),
    ("lib/foo.pc.in", "prefix=@prefix@\nName: foo\n", "src"),
    ("docs/README.md.in", "```yaml\n" + DEPLOYMENT + "```\n", "src"),
    ("app/settings.yaml.in", "database:\n  host: @DB_HOST@\n  port: 5432\n", "src"),
    ("app/locale.json.in", json.dumps({"greeting": "hello", "kind": "text"}), "src"),
    ("tools/gen.py.in", "print('kind: Deployment')\n", "src"),
    ("lib/generators/app/templates/deployment.yaml.tt", DEPLOYMENT, "src"),  # a generator's Thor template
]


def test_templates_in_a_real_repository(tmp_path: Path) -> None:
    """Every template above is `iac` with the commits, the look-alikes keep their bucket."""
    head = {path: text for path, text in TEMPLATES} | {path: text for path, text, _ in LOOKALIKES}
    repo, first, second = two_commits(tmp_path, {"README.md": "x\n"}, head)
    files = tree_classify(repo.root, first, second)
    wrong = {path: files[path]["bucket"] for path, _ in TEMPLATES if files[path]["bucket"] != "iac"}
    assert wrong == {}
    assert {path: files[path]["bucket"] for path, _, _ in LOOKALIKES} == {path: b for path, _, b in LOOKALIKES}


def test_hello_world_in_a_real_repository(tmp_path: Path) -> None:
    """glower/hello-world's shape: the publish workflow fills the Deployment in and applies it; an edit to it goes to
    review with the commits."""
    workflow = ("on: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - uses: actions/checkout@v4\n"
                "      - run: envsubst < k8s/deployment.yaml.in | kubectl apply -f -\n")
    base = {".github/workflows/backend-publish.yaml": workflow, "backend/k8s/deployment.yaml.in": DEPLOYMENT,
            "backend/main.go": "package main\n"}
    edit = {"backend/k8s/deployment.yaml.in": DEPLOYMENT.replace("replicas: 3", "replicas: 1")
            + "          securityContext:\n            privileged: true\n"}
    buckets, decision = classify_and_gate(tmp_path, base, edit)
    assert buckets == {"backend/k8s/deployment.yaml.in": "iac"}
    assert decision["outcome"] == "review", decision
