"""Red team 13, kustomization references: the same kustomization in two folders named files for the first only.

`treereads.kustomize_references` read each kustomization blob once, and resolved what it names against the folder
of the first path holding that blob. Overlays are copied between environments (`dev/`, `prod/`) byte for byte, so
an identical kustomization at a second folder named nothing: the JSON patch, generator file or env file it applies
from outside its own folder was `src`, and `gate --tree` said allow (exit 0) for an edit of it, on an up-to-date
branch. Every copy now resolves against its own folder (a blob is still read once). The truth is
`kustomizerefs.referenced` of each copy at its own path."""

from __future__ import annotations

import contextlib
import json

import pytest
from gitrepo import GitRepo

from gatekeeper.classify import kustomizerefs
from gatekeeper.cli import main

# Forms that name a file outside the kustomization's folder (one level up), none of which content sniffing sees.
TEXTS = {
    "json patch": "resources:\n  - ../base\npatches:\n  - path: ../patch.json\n    target: {kind: Deployment}\n",
    "generator": "configMapGenerator:\n  - name: app\n    files:\n      - ../app.properties\n    envs:\n"
                 "      - ../app.env\n",
    "legacy 6902": "patchesJson6902:\n  - target: {kind: Deployment, name: web}\n    path: ../ops.json\n",
}
NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
# Folders of different depths, in tree order: only the first of each text was resolved.
FOLDERS = ("a/one", "b/two/overlay", "c/three/four/prod")
BODIES = {".json": '[{"op": "add", "path": "/x", "value": 1}]\n', ".properties": "a=1\n", ".env": "A=1\n"}


def _layout() -> tuple[dict[str, str], set[str]]:
    """(every kustomization: text, every file some copy names), generated over forms, names and folders."""
    files: dict[str, str] = {}
    named: set[str] = set()
    for n, (form, text) in enumerate(TEXTS.items()):
        for folder in FOLDERS:
            path = f"f{n}/{folder}/{NAMES[(n + len(folder)) % len(NAMES)]}"
            files[path] = text
            named.update(kustomizerefs.referenced(path, text))
        assert len({kustomizerefs.referenced(p, t)[0] for p, t in files.items() if t == text}) == len(FOLDERS), form
    return files, named


def _body(path: str) -> str:
    return next(body for ending, body in BODIES.items() if path.endswith(ending))


@pytest.fixture(scope="module")
def commits(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, str, str, set[str]]:
    repo = GitRepo(tmp_path_factory.mktemp("kustomize-copies") / "repo")
    files, named = _layout()
    targets = {path for path in named if path.endswith(tuple(BODIES))}
    for path, text in files.items():
        repo.write(path, text)
    for path in targets:
        repo.write(path, _body(path))
    base = repo.commit("copied overlays")
    for path in targets:
        repo.write(path, _body(path).replace("1", "2"))
    return repo, base, repo.commit("edit what the overlays apply"), targets


def test_each_copy_names_its_own_files(commits: tuple[GitRepo, str, str, set[str]],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, head, targets = commits
    capsys.readouterr()
    with contextlib.chdir(repo.root):
        assert main(["classify", "--tree", f"{base}..{head}", "--format", "json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    assert set(files) == targets
    missed = sorted(path for path, f in files.items() if f["bucket"] != "iac")
    assert not missed, [(path, files[path]["rule"]) for path in missed]


def test_the_gate_reviews_an_edit_a_second_copy_applies(commits: tuple[GitRepo, str, str, set[str]],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, head, targets = commits
    capsys.readouterr()
    code = main(["gate", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3, decision["reasons"]
    assert {p for reason in decision["reasons"] for p in reason.get("paths", ())} == targets
