from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# CI explores the same examples on every run (a red build is reproducible); a developer's run explores anew.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True, scope="session")
def _compile_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The gate's compile-check cache (XDG_CACHE_HOME) lives in a session folder, never in the user's home."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))

from gitrepo import GitRepo  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = REPO_ROOT / "policies"


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    """An empty git repository in a temporary folder."""
    return GitRepo(tmp_path / "repo")


@pytest.fixture
def runner_bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Work in tmp_path with a small bundle in ./policies, as the runner tests need (tests/runbundle.py)."""
    from runbundle import use_bundle

    use_bundle(tmp_path, monkeypatch)
