"""Red team 15, `--tree`: a file a requirements file includes (`-r`/`-c`) under a name no rule reads.

pip reads `-r tools/dev.txt` and `-c tools/pins.txt` (resolved against the including file's folder) as requirements
of its own: every line installs, or constrains what installs. Red team 9 made a new `-r` line a dependency, but the
included file itself was `src` (its name is no requirements file's) and the delta did not read it, so a later edit
that added `evil-pkg==1.0`, swapped its `--index-url`, or downgraded a pin was allowed by `gate --tree --enable deps`
(exit 0). A file a requirements file of either tree includes (followed through further includes) is now `deps`
(`deps.context.requirements-include`), which the `deps` policy reviews when no delta explains it. Look-alikes (a
file no requirements file names, a URL, a path above the root) stay unnamed.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import two_commits

from gatekeeper.cli import main
from gatekeeper.deps.pypi import included_files

BASE = {
    "requirements.txt": "-r tools/dev.txt\n--constraint=tools/pins.txt\nrequests==2.31.0\n",
    "tools/dev.txt": "six==1.16.0\n-r ../lib/more.txt  # chained\n",
    "lib/more.txt": "attrs==23.1.0\n",
    "tools/pins.txt": "requests==2.31.0\n",
    "services/api/requirements/base.txt": "-r ../../../shared/common.txt\n",  # services/api/requirements/ holds it
    "shared/common.txt": "idna==3.6\n",
    "docs/notes.txt": "six\n",
}
EDITED = {
    "tools/dev.txt": "--index-url https://evil.example/simple\nsix==1.16.0\n-r ../lib/more.txt\n",
    "lib/more.txt": "attrs==23.1.0\nevil-pkg==1.0\n",
    "tools/pins.txt": "requests==1.0.0\n",
    "shared/common.txt": "idna==3.6\nevil-pkg==1.0\n",
}
PLAIN = {"docs/notes.txt": "six\nevil\n"}


def test_the_included_paths_resolve_as_pip_resolves_them() -> None:
    text = b"-r a.txt\n--requirement=../b.txt\n-c c.txt # pins\n-r https://x.example/r.txt\n-r /etc/r.txt\n-r ../../x\n"
    assert included_files("sub/requirements.txt", text) == ["sub/a.txt", "b.txt", "sub/c.txt"]


def test_an_included_file_is_a_deps_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, head = two_commits(tmp_path / "repo", BASE, {**EDITED, **PLAIN})
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        assert main(["classify", "--tree", f"{base}..{head}", "--format", "json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    assert {p: files[p]["bucket"] for p in EDITED} == dict.fromkeys(EDITED, "deps"), {p: files[p] for p in EDITED}
    assert files["docs/notes.txt"]["bucket"] != "deps"
    code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json",
                 "--enable", "deps"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3
    assert {p for r in decision["reasons"] for p in r.get("paths", ())} == set(EDITED), decision["reasons"]
