"""Red team 14, `--tree`: a local action whose `runs:` names files outside its own folder.

A workflow's `uses: ./tools/setup` makes every file in `tools/setup/` CI (red team 9). But GitHub's runner joins
a JavaScript action's `main:`/`pre:`/`post:` to the action's folder with no check that the result stays inside it
(actions/runner NodeScriptActionHandler: `Path.Combine(ActionDirectory, target)`), so `main: ../../dist/setup.js`
runs `dist/setup.js` with the job's token and secrets; a Docker action's `image: ../../docker/Dockerfile` builds
that file's folder. Only the root action's entry files (`uses: ./`) were read: an edit of `dist/setup.js` was `src`
and `core` allowed it (exit 0). Every local action's entry files now stand for their folders, as the root's do."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main

WORKFLOW = ("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./tools/setup\n"
            "      - uses: ./tools/image\n      - uses: ./tools/nested\n")
ACTIONS = {
    "tools/setup/action.yml": "name: setup\nruns:\n  using: node20\n  main: ../../dist/setup/index.js\n"
                              "  post: ./../../dist/post.js\n",
    "tools/image/action.yml": "name: image\nruns:\n  using: docker\n  image: ../../docker/action/Dockerfile\n",
    "tools/nested/action.yaml": "name: nested\nruns:\n  using: composite\n  steps:\n    - uses: ./tools/inner\n",
    "tools/inner/action.yml": "name: inner\nruns:\n  using: node20\n  pre: '../../lib/pre.js'\n  main: x.js\n",
}
EDITED = ["dist/setup/index.js", "dist/setup/chunk.js", "dist/post.js", "docker/action/entrypoint.sh",
          "lib/pre.js"]
PLAIN = ["src/app.js", "tools/README.txt", "dist.js"]  # named by no action


def test_the_files_a_local_action_runs_outside_its_folder_are_ci(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write(".github/workflows/ci.yml", WORKFLOW)
    for path, text in ACTIONS.items():
        repo.write(path, text)
    for path in EDITED + PLAIN:
        repo.write(path, "console.log(1)\n")
    base = repo.commit("base")
    for path in EDITED + PLAIN:
        repo.write(path, "console.log(2)\n")
    head = repo.commit("edit what the actions run")
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        assert main(["classify", "--tree", f"{base}..{head}", "--format", "json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    assert {p: files[p]["bucket"] for p in EDITED} == dict.fromkeys(EDITED, "ci"), {p: files[p] for p in EDITED}
    assert {p: files[p]["bucket"] for p in PLAIN} == dict.fromkeys(PLAIN, "src")
    code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3
    assert {p for r in decision["reasons"] for p in r.get("paths", ())} == set(EDITED), decision["reasons"]
