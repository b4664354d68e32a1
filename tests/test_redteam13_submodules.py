"""Red team 13, submodules: a gitlink whose files a configuration reads was `deps` (allow with the default policy).

A gitlink in a CI or IaC folder takes that folder's bucket, and one a workflow runs as a local action is `ci`. But
a gitlink elsewhere whose files a kustomization applies (`resources: [../vendor/manifests/app.yaml]`), a GitLab
pipeline includes, a Terraform file reads (`source = "../modules/net"`), a Concourse task runs, or a symlink at a CI
path points into, was `deps` by `builtin.submodule`: bumping it changes what is applied or run without touching the
configuration, and `core` said allow (exit 0). Each reader now also asks, for a gitlink, whether what it names lies
at or inside the gitlink's folder (git checks the submodule's files out there)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from pathlib import Path

import pytest
from gitrepo import GitRepo

from gatekeeper.cli import main

OLD, NEW = "1" * 40, "2" * 40
FILES = {
    "deploy/kustomization.yaml": "resources:\n  - ../vendor/m1/app.yaml\n  - ../vendor/m2\npatches:\n"
                                 "  - path: ../vendor/m3/sub/p.json\n",
    ".gitlab-ci.yml": "include:\n  - local: ci-sub/jobs.yml\n  - local: /ci-abs/jobs.yml\n  - 'ci-glob/**/*.yml'\n",
    "infra/main.tf": 'module "net" {\n  source = "../modules/net"\n}\nresource "null_resource" "x" {\n'
                     '  provisioner "local-exec" {\n    command = "${path.module}/../vendor/tf/script.sh"\n  }\n}\n',
    ".github/workflows/ci.yml": "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: ./actions-sub\n"
                                "      - uses: ./vendor/act/setup\n",
    "task.yml": "platform: linux\nrun:\n  path: tasksub/run.sh\n",
}
LINKS = {".github/workflows/r.yml": "../../wfsub/r.yml", ".github/actions/s": "../../actsub/dir"}
# gitlink: the bucket the change must get (the reader that names a file inside it)
GITLINKS = {
    "vendor/m1": "iac", "vendor/m2": "iac", "vendor/m3": "iac",
    "ci-sub": "ci", "ci-abs": "ci", "ci-glob": "ci",
    "modules/net": "iac", "vendor/tf": "iac",
    "actions-sub": "ci", "vendor/act": "ci",
    "wfsub": "ci", "actsub": "ci",
    "tasksub": "ci",
    "lib/other": "deps",  # named by nothing: a dependency pin, as before
}


def bumped_submodules(folder: Path, gitlinks: Iterable[str] = GITLINKS) -> tuple[GitRepo, str, str]:
    """A repository of FILES and LINKS with `gitlinks` at OLD (base), then every one of them moved to NEW (head)."""
    repo = GitRepo(folder)
    for path, text in FILES.items():
        repo.write(path, text)
    for path, target in LINKS.items():
        repo.symlink(path, target)
    repo.git("add", "-A")
    for path in gitlinks:
        repo.git("update-index", "--add", "--cacheinfo", f"160000,{OLD},{path}")
    repo.git("commit", "-q", "-m", "base")
    base = repo.head()
    for path in gitlinks:
        repo.git("update-index", "--cacheinfo", f"160000,{NEW},{path}")
    repo.git("commit", "-q", "-m", "bump every submodule")
    return repo, base, repo.head()


@pytest.fixture(scope="module")
def commits(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, str, str]:
    return bumped_submodules(tmp_path_factory.mktemp("submodules") / "repo")


def test_a_bumped_submodule_is_judged_by_what_reads_its_files(commits: tuple[GitRepo, str, str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, head = commits
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        assert main(["classify", "--tree", f"{base}..{head}", "--format", "json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    got = {path: files[path]["bucket"] for path in GITLINKS}
    assert got == GITLINKS, {path: files[path]["rule"] for path in GITLINKS if got[path] != GITLINKS[path]}


def test_the_gate_reviews_them(commits: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, head = commits
    capsys.readouterr()
    code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3, decision["reasons"]
    reviewed = {path for reason in decision["reasons"] for path in reason.get("paths", ())}
    assert reviewed == {path for path, bucket in GITLINKS.items() if bucket != "deps"}, decision["reasons"]
