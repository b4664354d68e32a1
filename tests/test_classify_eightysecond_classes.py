"""The eighty-second set's classes (issue 12; bench/classify_accuracy/eightysecond.tsv, a held-out-like mixed set).

- **A script a container runs as its entrypoint** (`ci.context.ci-run`). A job that starts a container with the
  checkout mounted and hands it a repository script as the entrypoint (`docker run -v $PWD:/workspace
  --workdir=/workspace --entrypoint=/workspace/tests/charts/test.sh helm`: deliverybot/helm's test workflow) runs
  that script as surely as `docker run img bash /workspace/tests/charts/test.sh` does. The walk read absolute paths
  where a command or an interpreter's script stands (checkoutpaths.py), not the value of `--entrypoint`, and the
  script stayed `src`. Now `--entrypoint PATH` and `--entrypoint=PATH` of `docker`, `podman` and `nerdctl` `run`
  (also `docker container run`, `docker compose run`) name their path as a command does: by its last parts when
  absolute (a tail the tree holds), as itself when relative.
"""

from __future__ import annotations

import json
from pathlib import Path

from citools import BLOCK_DEFINITIONS, one_tree_runs
from conftest import POLICY_DIR
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import run_cli
from tables import each_case

from gatekeeper.classify import checkoutpaths
from gatekeeper.classify.platformshapes import platform_shape
from gatekeeper.classify.ruleset import load_rules
from gatekeeper.classify.sniff import sniff

RULES = load_rules(Path(__file__).resolve().parent.parent / "policies")

# (the command line, the script it runs): the separate and the glued option, quoted, relative to the work folder,
# docker, podman, nerdctl, `docker container run` and `docker compose run`, the option before and after the mounts
ENTRYPOINT_RUNS = [
    ("docker run --rm -i -v $PWD:/workspace --workdir=/workspace --entrypoint=/workspace/tests/charts/test.sh helm",
     "tests/charts/test.sh"),
    ('docker run --rm -v "$(pwd)":/src --entrypoint /src/ci/lint.sh alpine', "ci/lint.sh"),
    ('docker run --rm --entrypoint="/app/tools/check.sh" -v "$PWD:/app" img:1', "tools/check.sh"),
    ("podman run --rm -v .:/w:Z --entrypoint '/w/hack/verify.sh' quay.io/x/y", "hack/verify.sh"),
    ("nerdctl run --rm -v $PWD:/src --entrypoint=/src/build/e2e/run.py python:3.12", "build/e2e/run.py"),
    ("docker container run --rm -v $PWD:/w -w /w --entrypoint=./scripts/e2e.sh img", "scripts/e2e.sh"),
    ("docker compose run --rm --entrypoint /code/bin/migrate.sh web", "bin/migrate.sh"),
]
SCRIPTS = {path: "#!/bin/sh\necho run\n" for _, path in ENTRYPOINT_RUNS}


def _files(definition: str, text: str, line: str) -> dict[str, str]:
    return {definition: text.format(line=line), **SCRIPTS, "run-tests.sh": "#!/bin/sh\n", "main.go": "package main\n"}


@each_case("definition, text", BLOCK_DEFINITIONS, ids=lambda d: d if isinstance(d, str) and "/" in d else None)
@each_case("line, script", ENTRYPOINT_RUNS)
def test_a_script_a_container_runs_as_its_entrypoint_is_ci(definition: str, text: str, line: str,
                                                          script: str) -> None:
    runs = one_tree_runs(_files(definition, text, line))
    assert isinstance(runs, dict)
    assert script in runs, (definition, line)
    assert not (set(SCRIPTS) - {script}) & set(runs), line  # the other scripts stay unnamed


# Look-alikes: an entrypoint that is a system program or a single name, a path no file of the tree has, another
# program's `--entrypoint` (a Go flag of the project's own tool), and the option printed
LOOKALIKE_LINES = [
    "docker run --rm --entrypoint=/usr/local/bin/run-tests.sh img",
    "docker run --rm --entrypoint /bin/sh img -c 'echo hi'",
    "docker run --rm -v $PWD:/w --entrypoint=/w/tools/missing.sh img",
    "go run . --entrypoint=/src/ci/lint.sh",
]


@each_case("definition, text", BLOCK_DEFINITIONS, ids=lambda d: d if isinstance(d, str) and "/" in d else None)
@each_case("line", LOOKALIKE_LINES)
def test_entrypoints_that_name_no_checkout_script_name_nothing(definition: str, text: str, line: str) -> None:
    runs = one_tree_runs(_files(definition, text, line))
    assert isinstance(runs, dict)
    assert "run-tests.sh" not in runs and "main.go" not in runs
    assert not set(SCRIPTS) & set(runs), line


def test_an_entrypoint_on_a_continued_line_of_a_script_ci_runs() -> None:
    script = ("#!/bin/bash\nset -e\ndocker run --rm \\\n  -v \"$PWD:/repo\" \\\n"
              "  --entrypoint /repo/deploy/smoke/check.sh \\\n  img:1\n")
    files = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line="bash ci/build.sh"),
             "ci/build.sh": script, "deploy/smoke/check.sh": "#!/bin/sh\n", "deploy/smoke/other.sh": "#!/bin/sh\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert "deploy/smoke/check.sh" in runs
    assert "deploy/smoke/other.sh" not in runs


def test_the_test_workflow_of_a_container_action_runs_its_chart_test(tmp_path: Path) -> None:
    # deliverybot/helm's shape, with the commits, through classify --tree on a real repository
    workflow = ("name: Test\non: ['push']\njobs:\n  test:\n    runs-on: 'ubuntu-latest'\n    steps:\n"
                "    - uses: actions/checkout@v1\n    - name: build\n      run: 'docker build -t helm .'\n"
                "    - name: charts\n      run: 'docker run --rm -i -v $PWD:/workspace --workdir=/workspace"
                " --entrypoint=/workspace/tests/charts/test.sh helm'\n")
    files = {".github/workflows/test.yml": workflow, "Dockerfile": "FROM alpine:3.10\n",
             "tests/charts/test.sh": "#!/bin/bash\nset -e\nhelm lint charts/app --strict\n",
             "tests/charts/other.sh": "#!/bin/bash\necho unused\n", "index.js": "console.log(1)\n"}
    repo, base, head = two_commits(tmp_path / "r", {"README.md": "x\n"}, files)
    done = run_cli(["classify", "--tree", f"{base}..{head}", "--repo", repo.root, "--policy", POLICY_DIR,
                    "--format", "json"], text=True)
    got = {f["path"]: (f["bucket"], f["rule"]) for f in json.loads(str(done.stdout))["files"]}
    assert got["tests/charts/test.sh"] == ("ci", "ci.context.ci-run")
    assert got["tests/charts/other.sh"][0] == "src"
    assert got["index.js"][0] == "src"


# Hostile lines for the entrypoint reader: one line of many engine and `run` words and options (each option once read
# from the line's `run`), and many lines each holding the option
@each_case("unit, head", [
    ("docker run --entrypoint=/w/a/b.sh ", "x "),
    ("docker podman nerdctl run run --entrypoint ", ""),
    ("docker run -v $PWD:/w --entrypoint /w/t/x.sh img\n", ""),
    ("--entrypoint=/a/b/c ", "docker run "),
])
def test_the_entrypoint_reader_is_linear(unit: str, head: str) -> None:
    assert_linear(checkoutpaths.commanded, repeated(unit, head), budget=0.5)


# - **helmfile state files under any YAML name** (`iac.content.helmfile`): bn-digital/helm keeps its helmfiles in a
#   `helmfiles/` folder (`default.yaml`, `app.yaml`, `cms.yaml`, ...; `helmfile -f helmfiles/app.yaml`), and the path
#   rules know `helmfile.yaml` and `helmfile.d/` only. Read by content: a top-level `helmDefaults:` (only helmfile has
#   it), a top-level `releases:` whose items name a `chart:`, or a top-level `helmfiles:` listing other state files.
HELMFILE_DEFAULTS = "helmDefaults:\n  historyMax: 3\n  createNamespace: true\n  cleanupOnFail: true\n"
HELMFILE_RELEASES = """repositories:
  - name: bitnami
    url: https://charts.bitnami.com/bitnami

releases:
  - name: cache
    namespace: '{{ requiredEnv "APP_NAME" }}'
    chart: bitnami/redis
    version: 17.3.7
    values:
      - values/redis.yaml.gotmpl
"""
HELMFILE_GOTMPL = """bases:
  - environments.yaml
---
{{ $env := .Environment.Name }}
releases:
{{- range $name, $app := .Values.apps }}
- name: {{ $name }}
  chart: ./charts/app
  installed: {{ $app.enabled | default true }}
{{- end }}
"""
HELMFILE_INCLUDES = """helmfiles:
  - path: website.yaml
    values:
      - imageRegistryUrl: '{{ requiredEnv "DOCKER_REGISTRY" }}'
  - cms.yaml
environments:
  default: {}
"""
# look-alikes: a docs site's release list, a chart's Chart.yaml, an app's settings with a `chart` word, a Markdown page
RELEASE_NOTES = "releases:\n  - version: 1.4.0\n    date: 2024-05-01\n    notes: Faster start\n"
CHART_YAML = "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n  - name: redis\n    version: 17.x\n"
APP_SETTINGS = "dashboard:\n  chart: line\n  releases: 3\n"

# - **DigitalOcean App Platform app specifications under any YAML name** (`iac.content.do-app-spec`): 1Password's
#   scim-examples keeps one as `do-app-platform-op-cli/op-scim-bridge.yaml` (`doctl apps create --spec FILE`); the path
#   rules know `.do/` only. Read by content: a top-level component list (`services:`, `workers:`, `jobs:`,
#   `static_sites:`, `functions:`, `databases:`) beside a key only an app spec writes (`instance_size_slug:`, an
#   `image:` block's `registry_type: DOCKER_HUB|DOCR|GHCR`).
DO_SPEC = """name: op-scim-bridge
services:
  - image:
      registry: library
      registry_type: DOCKER_HUB
      repository: redis
    instance_count: 1
    instance_size_slug: apps-s-1vcpu-0.5gb
    name: op-scim-redis
"""
DO_SPEC_GITHUB = """name: sample
region: nyc
static_sites:
  - name: web
    github:
      repo: acme/site
      branch: main
    build_command: npm run build
workers:
  - name: queue
    instance_size_slug: basic-xxs
    run_command: node worker.js
"""
COMPOSE = "services:\n  web:\n    image: nginx:1.27\n    ports:\n      - 80:80\n"
SIZES = "sizes:\n  instance_size_slug: s-1vcpu-1gb\n"  # a data file with the word, no component list


@each_case(("name", "text", "rule"), [
    ("helmfiles/default.yaml", HELMFILE_DEFAULTS, "iac.content.helmfile"),
    ("deploy/releases.yaml", HELMFILE_RELEASES, "iac.content.helmfile"),
    ("environments/prod/apps.yml", HELMFILE_RELEASES, "iac.content.helmfile"),
    ("deploy/apps.yaml.gotmpl", HELMFILE_GOTMPL, "iac.content.helmfile"),
    ("helmfiles/app.yaml", HELMFILE_INCLUDES, "iac.content.helmfile"),
    ("do-app-platform-op-cli/op-scim-bridge.yaml", DO_SPEC, "iac.content.do-app-spec"),
    ("deploy/app-spec.yml", DO_SPEC_GITHUB, "iac.content.do-app-spec"),
    ("docs/releases.yaml", RELEASE_NOTES, None), ("config/app.yaml", APP_SETTINGS, None),
    ("docs/helmfile.md", HELMFILE_DEFAULTS, None), ("compose/app.yaml", COMPOSE, None),
    ("data/sizes.yaml", SIZES, None), ("charts/app/values.json", CHART_YAML, None),
])
def test_helmfiles_and_app_platform_specs_by_content(name: str, text: str, rule: str | None) -> None:
    shape = platform_shape(name.rpartition("/")[2], text)
    assert (shape[1] if shape else None) == rule, (name, shape)
    signal = sniff(name, text.encode(), RULES.context)  # a template may be raised by the Helm-template shape first
    if rule is not None:
        assert signal is not None and signal.bucket == "iac", (name, signal)
    else:  # the look-alikes keep what they had (a compose file stays compose's)
        assert signal is None or signal.rule not in ("iac.content.helmfile", "iac.content.do-app-spec"), (name, signal)


def test_a_helmfile_folder_with_the_commits(tmp_path: Path) -> None:
    files = {"helmfiles/default.yaml": HELMFILE_DEFAULTS, "helmfiles/app.yaml": HELMFILE_INCLUDES,
             "helmfiles/website.yaml": HELMFILE_RELEASES, "docs/releases.yaml": RELEASE_NOTES,
             "README.md": "# charts\n", "do/op-scim-bridge.yaml": DO_SPEC}
    repo, base, head = two_commits(tmp_path / "r", {"LICENSE": "MIT\n"}, files)
    done = run_cli(["classify", "--tree", f"{base}..{head}", "--repo", repo.root, "--policy", POLICY_DIR,
                    "--format", "json"], text=True)
    got = {f["path"]: f["bucket"] for f in json.loads(str(done.stdout))["files"]}
    assert [got[p] for p in ("helmfiles/default.yaml", "helmfiles/app.yaml", "helmfiles/website.yaml")] == ["iac"] * 3
    assert got["do/op-scim-bridge.yaml"] == "iac"
    assert got["docs/releases.yaml"] == "src" and got["README.md"] == "src"


@each_case("unit, head", [
    ("releases:\n", ""),
    ("# c\n", "helmfiles:\n"),
    ("helmfiles:\n  -\n", ""),
    ("  - name: a\n    registry_type: DOCR\n", "services:\n"),
    ("instance_size_slug: x\n", ""),
])
def test_the_helmfile_and_app_spec_shapes_are_linear(unit: str, head: str) -> None:
    assert_linear(lambda text: platform_shape("apps.yaml", text), repeated(unit, head), budget=0.5)
