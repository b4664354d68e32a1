"""Review of what reaches the generator and the runner's git from the caller's environment; the runs root."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import gk, gk_in, origin_repo

from gatekeeper.errors import UsageError
from gatekeeper.runner import rundir

pytestmark = pytest.mark.usefixtures("runner_bundle")




def test_a_callers_git_dir_does_not_redirect_the_clone(tmp_path: Path) -> None:
    # `gatekeeper run` started from a git hook inherits GIT_DIR & co.: the clone must not fetch into,
    # or check out over, the caller's repository.
    repo = origin_repo(tmp_path)
    sha = subprocess.run(["git", "-C", str(repo.root), "rev-parse", "HEAD"], capture_output=True, text=True,
                         check=True).stdout.strip()
    victim = GitRepo(tmp_path / "victim")
    env = {**os.environ, "GIT_DIR": str(victim.root / ".git"), "GIT_WORK_TREE": str(victim.root),
           "GIT_INDEX_FILE": str(victim.root / ".git" / "index")}
    for ref in (sha, None):
        args = ["--ref", ref] if ref else []
        # In-process: the clone's environment is made from os.environ at the call, which `env` replaces for it.
        done = gk_in("run", "--repo", str(repo.root), *args, "--out", str(tmp_path / "runs"), "--sandbox",
                     "unshare", "--format", "json", "--", "sh", "-c", "echo x > x.txt", env=env)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["repository"]["base_commit"] == sha
    assert not (victim.root / ".git" / "FETCH_HEAD").exists()
    assert not (victim.root / "README.md").exists()
    head = subprocess.run(["git", "-C", str(victim.root), "rev-parse", "-q", "--verify", "HEAD"],
                          capture_output=True, text=True)
    assert head.returncode != 0  # still unborn: nothing was checked out into it


ENV_DUMP = "import json, os; print('ENV=' + json.dumps(sorted(os.environ)))"


def test_only_allowlisted_names_reach_the_generator(tmp_path: Path) -> None:
    repo = origin_repo(tmp_path)
    script = tmp_path / "dump.py"
    script.write_text(ENV_DUMP)
    leaky = {"PYTHONPATH": "/x", "PYTHONSTARTUP": "/x", "GIT_DIR": "/x", "GIT_CONFIG_PARAMETERS": "'a.b=c'",
             "SSH_AUTH_SOCK": "/tmp/ssh-x/agent.1", "GITHUB_TOKEN": "t", "BASH_ENV": "/x", "ENV": "/x",
             "PROMPT_COMMAND": "x", "NODE_OPTIONS": "--x", "LD_LIBRARY_PATH": "/x"}
    env = {**os.environ, **leaky}
    done = gk("run", "--repo", str(repo.root), "--out", str(tmp_path / "runs"), "--sandbox", "unshare",
              "--pass-env", "NODE_OPTIONS", "--format", "json", "--", sys.executable, str(script), env=env)
    assert done.returncode == 0, done.stderr
    log = Path(json.loads(done.stdout)["logs"]["stdout"]).read_text()
    names = set(json.loads(log.split("ENV=", 1)[1].splitlines()[0]))
    allowed = {"PATH", "LANG", "TZ", "TERM", "HOME", "GATEKEEPER_RUN_ID", "GATEKEEPER_MODEL_REPORT", "NODE_OPTIONS"}
    assert names - allowed <= {n for n in names if n.startswith("LC_")}
    assert not names & (set(leaky) - {"NODE_OPTIONS"})


def test_default_runs_root_ignores_a_relative_or_empty_home(monkeypatch: pytest.MonkeyPatch) -> None:
    home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    expected = home / ".local/state/gatekeeper/runs"
    for value in ("relative/home", ""):
        assert rundir.default_runs_root({"HOME": value}) == expected
    assert rundir.default_runs_root({}) == expected
    explicit = rundir.default_runs_root({"HOME": "/srv/h", "XDG_STATE_HOME": "."})
    assert explicit == Path("/srv/h/.local/state/gatekeeper/runs")


def test_no_home_at_all_is_a_usage_error_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def nobody(_uid: int) -> object:
        raise KeyError("no passwd entry")

    monkeypatch.setattr(pwd, "getpwuid", nobody)
    with pytest.raises(UsageError, match="--out"):
        rundir.default_runs_root({})
