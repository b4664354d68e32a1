"""Review of the runner's own git commands: nothing the generator plants may run outside the sandbox."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import gk, use_bundle


@pytest.fixture(autouse=True)
def _bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_bundle(tmp_path, monkeypatch)


def origin(tmp_path: Path) -> Path:
    repo = GitRepo(tmp_path / "origin")
    repo.write("README.md", "# sample\n")
    repo.commit()
    return repo.root


def run(tmp_path: Path, script: str, marker: Path, *extra: str) -> tuple[int, dict, str]:
    path = tmp_path / "gen.py"
    path.write_text(script)
    done = gk("run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--sandbox", "unshare",
              "--format", "json", *extra, "--", sys.executable, str(path), str(marker))
    return done.returncode, (json.loads(done.stdout) if done.stdout.strip() else {}), done.stderr


# A `commondir` file makes git read its config (filters included) from another folder.
COMMONDIR = """
import os, sys
marker = sys.argv[1]
evil = os.path.abspath("../../evil-common")
os.makedirs(evil, exist_ok=True)
with open(os.path.join(evil, "config"), "w") as config:
    config.write(f'[core]\\n\\trepositoryformatversion = 0\\n[filter "evil"]\\n\\tclean = touch {marker}; cat\\n')
for sub in ("objects", "refs"):
    os.makedirs(os.path.join(evil, sub), exist_ok=True)
open(".git/commondir", "w").write(evil + "\\n")
open(".gitattributes", "w").write("* filter=evil\\n")
open("README.md", "w").write("changed\\n")
"""


def test_a_commondir_file_cannot_bring_in_a_filter(tmp_path: Path) -> None:
    marker = tmp_path / "commondir-filter-ran"
    code, _summary, err = run(tmp_path, COMMONDIR, marker)
    assert not marker.exists(), err
    assert code in (0, 2), err
