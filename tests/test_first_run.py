"""The README's first-run flow as a new user runs it: a fresh clone, its `.venv`, then `gatekeeper`.

The clone's `.venv` is this test run's own virtualenv (tests may not install from the network);
the README block after "not on your `PATH`" runs with a PATH that holds no gatekeeper.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT

FIRST_RUN = re.compile(r"not on your `PATH`.*?```sh\n(.*?)```", re.S)


def first_run_block(root: Path) -> str:
    found = FIRST_RUN.search((root / "README.md").read_text(encoding="utf-8"))
    assert found, "README.md lost its first-run block"
    return found.group(1)


@pytest.mark.skipif(not (Path(sys.prefix) / "bin" / "activate").exists(), reason="tests do not run in a virtualenv")
def test_readme_first_run_works_from_a_fresh_clone(tmp_path: Path) -> None:
    clone = tmp_path / "gatekeeper"
    # The committed tree, as a new user gets it (the README read below is the clone's).
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO_ROOT), str(clone)], check=True,
                   capture_output=True)
    (clone / ".venv").symlink_to(sys.prefix)  # what `make setup` would have made
    bare_path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                                if p and not (Path(p) / "gatekeeper").exists())
    env = {"PATH": bare_path, "HOME": str(tmp_path), "LC_ALL": "C.UTF-8"}
    assert shutil.which("gatekeeper", path=bare_path) is None  # as on a new user's machine
    done = subprocess.run(["bash", "-eo", "pipefail", "-c", first_run_block(clone)], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"gatekeeper, version \d", done.stdout), done.stdout
    # Without the README's step the command is not found: the test checks the step, not a lucky PATH.
    done = subprocess.run(["bash", "-c", "gatekeeper --version"], cwd=clone, env=env, capture_output=True, text=True)
    assert done.returncode == 127
    # The other way the README names.
    done = subprocess.run([str(clone / ".venv/bin/gatekeeper"), "--version"], cwd=clone, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "version" in done.stdout
