"""Red team 14, patch only: a bumped submodule whose files a configuration reads was `deps`, and `core` allowed it.

With the commits (`--tree`) a gitlink whose files a kustomization applies, a GitLab pipeline includes, a Terraform
file reads or a workflow runs as a local action is judged by that reader (red team 13). From a patch alone the
gitlink is all there is: the patch shows neither the submodule's files nor the configurations that leave them alone,
and `builtin.submodule` said `deps` with no `needs-context` tag, so `gate PACKET --patch PATCH` said allow (exit 0)
for a pointer bump that changes the manifests a kustomization applies. A gitlink the patch does not already show to
be `ci` or `iac` is now tagged `needs-context`, as a configuration-type file is: `core` sends it to a human."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from test_redteam13_submodules import GITLINKS, bumped_submodules

from gatekeeper.cli import main


def test_a_bumped_submodule_needs_context_from_a_patch_alone(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, _ = bumped_submodules(tmp_path / "repo", [*GITLINKS, ".github/actions/pinned"])
    patch, packet = tmp_path / "change.diff", tmp_path / "packet.json"
    patch.write_bytes(repo.git("diff", "--binary", base, "HEAD"))
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == 0
    capsys.readouterr()
    code = main(["gate", str(packet), "--patch", str(patch), "--policy", str(POLICY_DIR), "--format", "json"])
    decision = json.loads(capsys.readouterr().out)
    assert code == 3, decision
    reviewed = {path for reason in decision["reasons"] if reason["level"] == "review" for path in reason["paths"]}
    assert reviewed == {*GITLINKS, ".github/actions/pinned"}, decision["reasons"]
    # the one in a CI folder is ci by its path already; the others are unsettled, not raised
    assert main(["classify", str(patch), "--policy", str(POLICY_DIR), "--format", "json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    assert files[".github/actions/pinned"]["bucket"] == "ci"
    assert "needs-context" not in files[".github/actions/pinned"]["tags"]
    assert all(files[path]["bucket"] == "deps" and "needs-context" in files[path]["tags"] for path in GITLINKS)
