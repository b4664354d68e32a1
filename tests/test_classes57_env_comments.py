"""A `.env`'s comment lines run nothing (classes57, issue 12, class A of snap53).

The `.env` Compose reads by itself is a definition the CI readers read (`COMPOSE_FILE=…`), and every path-like word of
a definition counts as run. So heroku/python-getting-started's `# This is used by gunicorn.conf.py and Django's
settings.py` made `gunicorn.conf.py` ci.context.ci-run. A comment runs nothing, whether Compose reads the file or a
shell sources it, so whole-line comments are dropped. They are kept when such a line may be something else: a line
continued into it (`\\`), a here-document, or a quote a value leaves open.
"""

from __future__ import annotations

from pathlib import Path

from tables import each_case

from gatekeeper.classify import walkpaths
from gatekeeper.classify.ciruns import named_in
from tests.gitrepo import two_commits
from tests.test_classify_context import tree_files

HEROKU = ("# This file specifies the environment variables that will be set when using the\n"
          "# `heroku local` command locally during development.\n\n"
          "# This is used by gunicorn.conf.py and Django's settings.py to set appropriate\n"
          "# configuration for development vs production.\n"
          'ENVIRONMENT="development"\n')
NAMED = ["gunicorn.conf.py", "scripts/seed.sh", "tools/run.js", "deploy/values.yaml", "conf/app.toml"]


@each_case("named", NAMED)
@each_case("comment", ["# used by {}\n", "  # see {} too\n", "\t#{}\n", "#!{}\n"])
def test_a_comment_names_nothing(comment: str, named: str) -> None:
    text = "A=1\n" + comment.format(named) + "B='x y'\n"
    scripts, composed, _ = named_in(".env", text)
    assert not any(named.rpartition("/")[2] in pattern for pattern in scripts + composed), scripts


@each_case(("text", "why"), [
    ("RUN=./go \\\n# tools/run.sh\n", "a line continued into the comment"),
    ("X=$(cat <<EOF\n# tools/run.sh\nEOF\n)\n", "a here-document"),
    ('X="first\n# tools/run.sh\n"\n', "a double quote left open"),
    ("X='first\n# tools/run.sh\n'\n", "a single quote left open"),
])
def test_kept_whole_when_a_comment_line_may_be_something_else(text: str, why: str) -> None:
    assert any("run.sh" in pattern for pattern in named_in(".env", text)[0]), why


def test_what_is_not_a_comment_is_still_read() -> None:
    scripts, composed, _ = named_in("deploy/.env", "# the stack\nCOMPOSE_FILE=stack.yml:ops.yml\nHOOK=./hook.sh\n")
    assert any("hook.sh" in p for p in scripts) and any("stack.yml" in p for p in composed), (scripts, composed)


def test_other_definitions_keep_reading_their_comments() -> None:
    """A non-YAML definition's comment stays over-read (a review, never an allow); a YAML workflow's comment names
    nothing since the label92 round (yamlcomments.py, tests/test_classify_ninetyfirst_classes.py)."""
    text = "on: push\njobs:\n  a:\n    steps:\n      # ./tools/run.sh\n      - run: echo hi\n"
    assert not any("run.sh" in p for p in walkpaths.shown_names(".github/workflows/ci.yml", text)[0])
    jenkins = "pipeline {\n  stages {\n    stage('a') {\n      steps {\n        // sh './tools/run.sh'\n"
    jenkins += "        sh 'echo'\n      }\n    }\n  }\n}\n"
    assert any("run.sh" in p for p in named_in("Jenkinsfile", jenkins)[0])


def test_heroku_shape_with_the_commits(tmp_path: Path) -> None:
    base = {".env": HEROKU, "gunicorn.conf.py": "workers = 2\n", "settings.py": "DEBUG = False\n"}
    repo, first, head = two_commits(tmp_path / "repo", base, {"gunicorn.conf.py": "workers = 3\n",
                                                              "settings.py": "DEBUG = True\n"})
    found = tree_files(repo, f"{first}..{head}")
    assert (found["gunicorn.conf.py"].bucket, found["settings.py"].bucket) == ("src", "src"), found


def test_an_uncommented_reference_still_raises(tmp_path: Path) -> None:
    env = HEROKU + "COMPOSE_FILE=deploy/stack.yml\n"
    base = {".env": env, "deploy/stack.yml": "services:\n  web:\n    image: nginx\n"}
    repo, first, head = two_commits(tmp_path / "repo", base, {"deploy/stack.yml": "services: {}\n"})
    assert tree_files(repo, f"{first}..{head}")["deploy/stack.yml"].bucket == "iac"
