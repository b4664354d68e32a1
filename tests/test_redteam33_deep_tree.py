"""Red team 33: a generator that leaves a folder nest deeper than Python's recursion limit.

The runner walks the workspace after the generator (FIFOs, sockets and devices are removed before git reads there;
links below `.git` are refused) and before a resume restores it. `os.walk` recurses once per level on Python 3.11: a
1,100-level nest (a path of 2,200 bytes, well within PATH_MAX) made the capture, and every resume after it, end in
`internal error: RecursionError` — no patch, no packet, a run that could never be finished. Now the walk keeps its
own stack: the run finishes and its patch holds the deep file."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from runbundle import gk_in, origin_repo

from gatekeeper.runner.workspace import git_links, remove_special_files, remove_tree

pytestmark = pytest.mark.usefixtures("runner_bundle")


@pytest.fixture(autouse=True)
def _remove_the_nests(tmp_path: Path) -> Iterator[None]:
    """pytest's own clean-up of old temporary folders is shutil.rmtree: a nest left behind would crash it at the end
    of a later session (every session sharing the temporary root)."""
    yield
    for child in list(tmp_path.iterdir()):
        remove_tree(child)

DEPTH = 1100
NEST = f"""
import os, sys
os.chdir(sys.argv[1])
for _ in range({DEPTH}):
    os.mkdir("d")
    os.chdir("d")
open("deep.txt", "w").write("bottom\\n")
"""


def test_the_walks_keep_their_own_stack(tmp_path: Path) -> None:
    # Built by chdir steps, as a generator would: the walks must not recurse once per level.
    root = tmp_path / "tree"
    root.mkdir()
    here = Path.cwd()
    try:
        os.chdir(root)
        for _ in range(DEPTH):
            os.mkdir("d")
            os.chdir("d")
        os.mkfifo("fifo")
        os.symlink("/etc", "link")
    finally:
        os.chdir(here)
    depth = "/".join(["d"] * DEPTH)
    assert remove_special_files(root) == [f"{depth}/fifo"]
    assert git_links(root) == [f"{depth}/link"]


@pytest.mark.parametrize("where", [".", ".git"])
def test_a_deep_nest_still_gives_a_patch_and_a_packet(tmp_path: Path, where: str) -> None:
    script = tmp_path / "gen.py"
    script.write_text(NEST)
    done = gk_in("run", "--repo", str(origin_repo(tmp_path).root), "--out", str(tmp_path / "runs"), "--sandbox",
                 "unshare", "--format", "json", "--", sys.executable, str(script), where)
    assert "internal error" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    (run_dir,) = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    patch = (run_dir / "patch.diff").read_text()
    assert ("/d/deep.txt" in patch) == (where == "."), patch[:300]
    assert (run_dir / "packet.json").is_file()


def test_a_resume_clones_again_over_a_deep_nest(tmp_path: Path) -> None:
    """A run whose generator left the nest and a link below .git, and whose runner then died (stage `cloned`): the
    resume removes the workspace to clone the base again (shutil.rmtree also recurses once per level on 3.11)."""
    script = tmp_path / "gen.py"
    script.write_text("import os, sys\nmarker = os.path.join(os.path.dirname(os.environ['GATEKEEPER_MODEL_REPORT']), "
                      "'planted')\nif os.path.exists(marker):\n    open('later.txt', 'w').write('x\\n')\n"
                      "    sys.exit(0)\nopen(marker, 'w').close()\nos.symlink('/nowhere', '.git/planted-link')\n"
                      + NEST.replace("os.chdir(sys.argv[1])\n", ""))
    out = tmp_path / "runs"
    first = gk_in("run", "--repo", str(origin_repo(tmp_path).root), "--out", str(out), "--sandbox", "unshare",
                  "--format", "json", "--", sys.executable, str(script))
    assert first.returncode == 2 and "planted-link" in first.stderr, first.stderr
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    doc = json.loads((run_dir / "state.json").read_text())
    doc["stage"] = "cloned"  # as a runner killed during the generator would have left it
    (run_dir / "state.json").write_text(json.dumps(doc))
    done = gk_in("run", "--resume", run_dir.name, "--out", str(out), "--format", "json")
    assert "internal error" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    patch = (run_dir / "patch.diff").read_text()
    assert "later.txt" in patch and "deep.txt" not in patch
