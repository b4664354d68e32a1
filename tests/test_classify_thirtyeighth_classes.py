"""Classes of misses the thirty-eighth label set showed (bench/classify_accuracy/thirtyeighth.tsv), one test each.

The first is no miss of a label but of the gate itself: techno-tim/launchpad's `authserver.conf` (an INI file with
CRLF line ends and a long block of comment lines) held `gatekeeper classify --tree` for more than 600 s. Every
pattern that skipped comment or blank lines as `(?:#[^\\n]*)?\\r?\\n` let a CRLF line end match two ways (the `\\r` in
the comment or in `\\r?`), so a run of n such lines that failed to lead to a match was tried 2**n ways.
"""

from __future__ import annotations

import random
import re
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tables import each_case

from gatekeeper.classify import ansible, platformshapes, sniff
from gatekeeper.classify.manifestshapes import manifest_shape, monitoring_settings
from gatekeeper.classify.shapes import shape
from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files

# The patterns as they were before the fix, to compare the fixed ones with where backtracking is cheap (few lines).
_OLD_INVENTORY_HOSTS = re.compile(
    r"^\[[A-Za-z0-9_.-]+\][ \t]*\r?\n(?:[ \t]*(?:[#;][^\n]*)?\r?\n)*"
    r"[A-Za-z0-9][A-Za-z0-9_.:-]*(?<!:)"
    r"(?:\[[0-9a-z:]+\][A-Za-z0-9_.-]*)?(?:[ \t]+[A-Za-z_][A-Za-z0-9_]*=\S*[^\s:])*[ \t]*\r?$", re.MULTILINE)
_OLD_COMMENT = re.compile(rb"\A(?:[ \t]*(?:(?:#|//)[^\n]*)?\r?\n)*[ \t]*(?:(?:#|//)[^\n]*)?\Z")
_OLD_TALOS = re.compile(
    r"^machine:[ \t]*\r?\n(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]+(?:install|kubelet)[ \t]*:", re.MULTILINE)


@contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    """Fail (rather than hang the suite) when the block runs longer than `seconds`."""
    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"took more than {seconds} s")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _comment_block(lines: int, mark: str, end: str) -> str:
    return "".join(f"{mark} setting {i}: what it does, written as the server's sample does{end}" for i in range(lines))


BOMBS: list[tuple[str, Callable[[], object]]] = [
    # an INI file of a game server: a [section], then CRLF comment lines, then `LogsDir = ""` (no inventory host)
    ("ini-inventory", lambda: ansible.ansible(
        "docker/wow-auth/etc/authserver.conf",
        "[authserver]\r\n\r\n" + _comment_block(60, "#", "\r\n") + 'LogsDir = ""\r\n')),
    ("ini-inventory-semicolons", lambda: ansible.ansible(
        "conf/app.ini", "[main]\r\n" + _comment_block(60, ";", "\r\n") + "key = value\r\n")),
    # a window of comment lines that ends in code: not only comments
    ("only-comments", lambda: sniff.only_comments(
        (_comment_block(60, "//", "\r\n") + "int main(void) { return 0; }\r\n").encode())),
    # a `machine:` key (not Talos') followed by CRLF comments and an unindented line
    ("talos-machine", lambda: platformshapes.platform_shape(
        "machine.yaml", "machine:\r\n" + _comment_block(60, "#", "\r\n") + "name: build-host\r\n")),
    ("buildkite-plugin", lambda: platformshapes.platform_shape(
        "plugin.yml", "name: x\r\nconfiguration:\r\n" + _comment_block(60, "#", "\r\n") + "other: 1\r\n")),
    # reckoner's bounded look-ahead: lines that start with long runs of blanks
    ("reckoner", lambda: platformshapes.platform_shape(
        "course.yml", "charts:\nminimum_versions:\n" + ("\t" * 3000 + "x\n") * 8 + "y: 1\n")),
]


@each_case("run", [run for _, run in BOMBS], ids=[name for name, _ in BOMBS])
def test_comment_runs_with_crlf_line_ends_are_read_in_linear_time(run: Callable[[], object]) -> None:
    with _deadline(5):
        run()


def _variants(seed: str, count: int) -> Iterator[str]:
    """Short texts of headers, comment, blank and CR-only lines in every line-end style, and host-like lines."""
    rnd = random.Random(seed)
    pieces = ["# c", "; c", "#", "  # c\r", "", "  ", "\r", "host1", "host1 a=b", "host1:", "db[01:02].x", "k = v",
              "machine:", "  install:", "  kubelet:", "//x"]
    for _ in range(count):
        lines = [rnd.choice(["[group]", "machine:", "#x"])] + [rnd.choice(pieces) for _ in range(rnd.randint(0, 6))]
        yield "".join(line + rnd.choice(["\n", "\r\n", "\r\r\n"]) for line in lines)


@each_case("seed", ["a", "b", "c"])
def test_the_fixed_patterns_match_what_the_old_ones_matched(seed: str) -> None:
    for text in _variants(seed, 400):
        old = _OLD_INVENTORY_HOSTS.search(text)
        new = ansible._INVENTORY_HOSTS.search(text)
        assert (old and old.span()) == (new and new.span()), text
        assert bool(_OLD_COMMENT.match(text.encode())) == sniff.only_comments(text.encode()), text
        assert (_OLD_TALOS.search(text) is None) == (platformshapes._TALOS_MACHINE.search(text) is None), text


@each_case(("path", "bucket", "rule"), [
    # a dot-folder named .ci holds CI at any depth; mise's file tasks keep CI's tasks in ci/
    ("hack/.ci/verify-commits.sh", "ci", "ci.script-folders-nested"),
    ("tools/release/.ci/publish.py", "ci", "ci.script-folders-nested"),
    ("mise-tasks/ci/detect.py", "ci", "ci.script-folders-nested"),
    (".mise/tasks/ci/render", "ci", "ci.script-folders-nested"),
    (".config/mise/tasks/ci/lint.sh", "ci", "ci.script-folders-nested"),
    (".ci/x.sh", "ci", "ci.script-folders"),  # the root one keeps its rule
    ("mise-tasks/packer/deregister-ami.sh", "src", None),  # other tasks are the developers'
    ("src/ci/detect.py", "src", None), ("pkg/.cilium/config.go", "src", None), ("docs/.ci.md", "src", None),
])
def test_path_rules_of_the_thirty_eighth_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


_ALLMAN_PIPELINE = """pipeline
{
   agent none
   stages
   {
      stage('Install and Validate')
      {
        steps
        {
          sh 'molecule test'
        }
      }
   }
}
"""
_JOB_DSL_CLASS = """package analytics

class WarehouseTransformsCI{
    public static def job = { dslFactory, allVars ->
        dslFactory.job("warehouse-transforms-ci"){
            disabled(true)
            steps { shell('make test') }
        }
    }
}
"""


@each_case(("text", "ci"), [
    (_ALLMAN_PIPELINE, True),
    (_ALLMAN_PIPELINE.replace("\n", "\r\n"), True),
    ("node('linux')\n{\n  stage('build') { sh 'make' }\n}\n", True),
    (_JOB_DSL_CLASS, True),
    ("    factory.pipelineJob(name) {\n      definition { cps { script(readFileFromWorkspace(p)) } }\n    }\n", True),
    ("job('seed') {\n  scm { git('https://example.invalid/jobs.git') }\n}\n", True),
    # Groovy that is no pipeline: a method named job with no literal name, a map key, a Gradle task
    ("def job(Map args) {\n  return args.name\n}\nprintln job(name: 'x')\n", False),
    ("class Pipeline {\n  def pipeline = [stages: []]\n}\n", False),
    ("task pipeline {\n  doLast { println 'x' }\n}\n", False),
])
def test_jenkins_pipelines_in_allman_style_and_job_dsl_on_a_factory(text: str, ci: bool) -> None:
    found = shape("smoke-test.groovy", text)
    assert (found is not None and found[:2] == ("ci", "ci.content.jenkins-pipeline")) == ci, found


_YTT_OVERLAY = """#@ load("@ytt:data", "data")
#@ load("@ytt:overlay", "overlay")
#@ deployment = overlay.subset({"kind": "Deployment"})
#@overlay/match by=overlay.and_op(deployment),expects="1+"
---
spec:
  template:
    spec:
      #@overlay/match missing_ok=True
      serviceAccountName: rabbitmq-cluster-operator
"""
_OLM_ANNOTATIONS = """annotations:
  # Core bundle annotations.
  operators.operatorframework.io.bundle.mediatype.v1: registry+v1
  operators.operatorframework.io.bundle.manifests.v1: manifests/
  operators.operatorframework.io.bundle.metadata.v1: metadata/
  operators.operatorframework.io.bundle.package.v1: splunk
  operators.operatorframework.io.bundle.channels.v1: stable
"""


@each_case(("name", "text", "rule"), [
    ("cluster-operator-namespace-scope-overlay.yml", _YTT_OVERLAY, "iac.content.ytt"),
    ("values.yml", "#@data/values\n---\nnamespace: rabbitmq-system\n", "iac.content.ytt"),
    ("annotations.yaml", _OLM_ANNOTATIONS, "iac.content.olm-bundle-metadata"),
    ("annotations.yaml", '{"annotations": {"operators.operatorframework.io.bundle.package.v1": "x"}}', None),  # JSON
    # look-alikes: a YAML comment that starts with #@ but is no directive, prose about ytt, a doc's annotations
    ("notes.yml", "#@todo: rename\nkey: value\n", None),
    ("README.yml", "text: use ytt with #@ load(\"@ytt:overlay\")\n", None),
    ("annotations.yaml", "annotations:\n  example.com/owner: team\n", None),
    ("overlay.md", _YTT_OVERLAY, None),
])
def test_ytt_overlays_and_olm_bundle_metadata(name: str, text: str, rule: str | None) -> None:
    found = manifest_shape(name, text)
    assert (found[1] if found else None) == rule, found


def test_the_thirty_eighth_classes_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    """liv-io's layout: roles at the root without meta/ (tasks/main.yml marks them), beside the content classes."""
    git_repo.write("README.md", "# Ansible roles for Debian\n")
    git_repo.commit("base")
    texts = {
        "blackbox_exporter/tasks/main.yml": "---\n- name: Install\n  ansible.builtin.include_tasks: install.yml\n",
        "blackbox_exporter/templates/blackbox.yml": "{{ansible_managed|comment(decoration='#')}}\n\nmodules:\n"
                                                    "{% for item in blackbox_exporter_config %}\n  {{item.name}}:\n"
                                                    "{% endfor %}\n",
        "blackbox_exporter/templates/blackbox.cfg": "check process blackbox_exporter matching \"blackbox\"\n",
        "grafana/tasks/main.yaml": "---\n- name: Install grafana\n  ansible.builtin.apt:\n    name: grafana\n",
        "grafana/templates/grafana.ini": "{{ansible_managed|comment(decoration='#')}}\n[server]\nhttp_port = 3000\n",
        "grafana/VERSION": "0.5.0\n",
        "grafana/CHANGES.md": "# CHANGES\n",
        "app/tasks/main.py": "print('a Python package with a tasks module')\n",
        "app/templates/index.html": "<html></html>\n",
        "scripts/smoke-test.groovy": _ALLMAN_PIPELINE,
        "olm/templates/scope-overlay.yml": _YTT_OVERLAY,
        "bundle/metadata/annotations.yaml": _OLM_ANNOTATIONS,
    }
    want = {"blackbox_exporter/templates/blackbox.yml": "iac", "blackbox_exporter/templates/blackbox.cfg": "iac",
            "grafana/templates/grafana.ini": "iac", "grafana/VERSION": "src", "grafana/CHANGES.md": "src",
            "app/templates/index.html": "src", "scripts/smoke-test.groovy": "ci",
            "olm/templates/scope-overlay.yml": "iac", "bundle/metadata/annotations.yaml": "iac"}
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["grafana/templates/grafana.ini"].rule == "iac.marker.ansible-role-tasks"
    patched = patch_files(git_repo, tmp_path)
    content = ["scripts/smoke-test.groovy", "olm/templates/scope-overlay.yml", "bundle/metadata/annotations.yaml"]
    assert {path: patched[path].bucket for path in content} == {path: want[path] for path in content}


def test_plugins_vendored_into_a_godot_projects_addons_are_deps(git_repo: GitRepo, tmp_path: Path) -> None:
    """Pandora's layout: its own plugin beside gdUnit4, copied in from the Asset Library; a demo game in a sub-folder
    with Dialogic; a Kubernetes add-on catalogue's addons/ (no Godot project) is left alone."""
    git_repo.write("README.md", "# Pandora\n")
    git_repo.write("project.godot", '; Engine configuration file.\nconfig_version=5\n\n[application]\n\n'
                                    'config/name="Pandora"\nrun/main_scene="res://example/main.tscn"\n')
    git_repo.write("games/demo/project.godot", '[application]\nconfig/name="Escoria Demo Game"\n')
    git_repo.commit("base")
    texts = {
        "addons/gdUnit4/src/core/GdUnit4Version.gd": "class_name GdUnit4Version\nextends RefCounted\n",
        "addons/gdUnit4/LICENSE": "MIT License\n\nCopyright (c) 2023 Mike Schulze\n",
        "addons/gdUnit4/plugin.cfg": '[plugin]\nname="gdUnit4"\nauthor="Mike Schulze"\n',
        "addons/gdUnit4/Dockerfile": "FROM barichello/godot-ci:4.2\n",
        "addons/pandora/ui/texture_picker.gd": "@tool\nextends HBoxContainer\n",
        "addons/pandora/plugin.cfg": '[plugin]\nname="Pandora"\n',
        "games/demo/addons/dialogic/plugin.cfg": '[plugin]\nname="Dialogic"\n',
        "games/demo/addons/escoria-core/esc_item.gd": "extends Node\n",
        "games/demo/scenes/main.gd": "extends Node2D\n",
        "catalog/addons/velaux/metadata.yaml": "name: velaux\nversion: v1.9.4\n",
        "addons.gd": "extends Node\n",
    }
    want = {"addons/gdUnit4/src/core/GdUnit4Version.gd": "deps", "addons/gdUnit4/LICENSE": "deps",
            "addons/gdUnit4/plugin.cfg": "deps", "addons/gdUnit4/Dockerfile": "iac",
            "addons/pandora/ui/texture_picker.gd": "src",
            "addons/pandora/plugin.cfg": "src", "games/demo/addons/dialogic/plugin.cfg": "deps",
            "games/demo/addons/escoria-core/esc_item.gd": "src", "games/demo/scenes/main.gd": "src",
            "catalog/addons/velaux/metadata.yaml": "src", "addons.gd": "src"}
    for path, text in texts.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["addons/gdUnit4/LICENSE"].rule == "deps.context.godot-addon"
    patched = patch_files(git_repo, tmp_path)  # without project.godot in sight: the path tier's buckets
    assert patched["addons/gdUnit4/src/core/GdUnit4Version.gd"].bucket == "src"


_GRAFANA_DATASOURCE = """# config file version
apiVersion: 1

# list of datasources to insert/update depending
datasources:
  - name: Prometheus
    type: prometheus
    access: proxy
    url: http://prometheus:9090
"""
_ALERTMANAGER = """route:
    receiver: 'slack'

receivers:
    - name: 'slack'
      slack_configs:
          - send_resolved: true
"""


@each_case(("name", "text", "rule"), [
    ("datasource.yml", _GRAFANA_DATASOURCE, "other.content.grafana-provisioning"),
    ("dashboards.yaml", "apiVersion: 1\nproviders:\n  - name: default\n    folder: ''\n    type: file\n",
     "other.content.grafana-provisioning"),
    ("alerting.yaml", "apiVersion: 1\ngroups:\n  - orgId: 1\n    name: disk\n", "other.content.grafana-provisioning"),
    ("config.yml", _ALERTMANAGER, "other.content.alertmanager-config"),
    # look-alikes: a Kubernetes object (a version with a group), a values file with a datasources key, an app's routes
    ("datasource.yaml", "apiVersion: v1\nkind: ConfigMap\ndata:\n  datasources: x\n", None),
    ("values.yaml", "grafana:\n  datasources:\n    - name: x\n", None),
    ("routes.yml", "route:\n  - /home\nhandlers:\n  - index\n", None),
    ("datasource.json", '{"apiVersion": 1, "datasources": []}', None),
])
def test_grafana_provisioning_and_alertmanager_settings_are_other(name: str, text: str, rule: str | None) -> None:
    found = monitoring_settings(name, text)
    assert (found[1] if found else None) == rule, found
