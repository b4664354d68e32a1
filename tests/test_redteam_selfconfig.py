"""Red-team regressions: a patch that rewrites the gate's own configuration in the checkout it is judged in.

The shipped GitHub workflow example checks out the pull request and lets the gate read
`./gatekeeper.yaml` and `./policies` from it. An agent-written change that also edits those
would be judged by rules it wrote itself: it must not get `allow`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo

from gatekeeper.cli import main

ALLOW, DENY, ERROR, REVIEW = 0, 1, 2, 3
WORKFLOW = ".github/workflows/evil.yml"
# The core policy with its review rules gone: compiles, declares its rules, finds nothing.
LAX_CORE = (
    "# METADATA\n# title: t\n# description: d\n# custom:\n#   version: 1.0.0\n#   owner: o\n"
    "#   rules:\n#     - core.ci\n#     - core.iac\npackage gatekeeper.policies.core\n\nimport rego.v1\n"
)


@pytest.fixture
def checkout(git_repo: GitRepo) -> GitRepo:
    """A repository that keeps its gate bundle in ./policies, as docs/ci.md suggests."""
    shutil.copytree(POLICY_DIR, git_repo.root / "policies")
    git_repo.write("src/a.py", "x = 1\n")
    git_repo.commit()
    return git_repo


def _gate_in(repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             *args: str, cwd: Path | None = None) -> tuple[int, str]:
    """Take the agent's patch and packet, leave it applied in the checkout (a PR checkout), run the gate there."""
    patch, packet = tmp_path / "change.diff", tmp_path / "packet.json"
    repo.save_patch(patch)
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == 0
    monkeypatch.chdir(cwd or repo.root)
    capsys.readouterr()
    code = main(["gate", str(packet), "--patch", str(patch), *args])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


def test_patch_adding_gatekeeper_yaml_that_disables_core(
    checkout: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout.write("gatekeeper.yaml", "disable: [core]\n")
    checkout.write(WORKFLOW, "on: push\n")
    code, err = _gate_in(checkout, tmp_path, monkeypatch, capsys)
    assert code == ERROR and "gatekeeper.yaml" in err


def test_patch_pointing_policy_dir_at_its_own_bundle(
    checkout: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(POLICY_DIR, checkout.root / "lax")
    (checkout.root / "lax" / "core" / "policy.rego").write_text(LAX_CORE)
    (checkout.root / "lax" / "core" / "policy_test.rego").unlink()
    checkout.write("gatekeeper.yaml", "policy_dir: lax\n")
    checkout.write(WORKFLOW, "on: push\n")
    code, err = _gate_in(checkout, tmp_path, monkeypatch, capsys)
    assert code == ERROR and "gatekeeper.yaml" in err


def test_patch_rewriting_the_bundle_in_use(
    checkout: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (checkout.root / "policies" / "core" / "policy.rego").write_text(LAX_CORE)
    (checkout.root / "policies" / "core" / "policy_test.rego").unlink()
    checkout.write(WORKFLOW, "on: push\n")
    code, err = _gate_in(checkout, tmp_path, monkeypatch, capsys)
    assert code == ERROR and "policies/core/policy.rego" in err


def test_bundle_change_judged_from_a_subfolder_of_the_checkout(
    checkout: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (checkout.root / "policies" / "core" / "policy.rego").write_text(LAX_CORE)
    (checkout.root / "policies" / "core" / "policy_test.rego").unlink()
    checkout.write(WORKFLOW, "on: push\n")
    code, err = _gate_in(checkout, tmp_path, monkeypatch, capsys, "--policy", "../policies", cwd=checkout.root / "src")
    assert code == ERROR and "policies/core/policy.rego" in err


def test_same_change_judged_with_a_bundle_outside_the_checkout_is_decided(
    checkout: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A trusted bundle from elsewhere (the base branch, the action's own) judges the change normally.
    checkout.write("gatekeeper.yaml", "disable: [core]\n")
    checkout.write(WORKFLOW, "on: push\n")
    trusted = tmp_path / "trusted"
    shutil.copytree(POLICY_DIR, trusted)
    patch, packet = tmp_path / "change.diff", tmp_path / "packet.json"
    checkout.save_patch(patch)
    assert main(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)]) == 0
    monkeypatch.chdir(tmp_path)
    assert main(["gate", str(packet), "--patch", str(patch), "--policy", str(trusted)]) == REVIEW


def test_unrelated_patch_in_a_checkout_with_its_own_bundle_is_decided(
    checkout: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout.write("src/a.py", "x = 2\n")
    assert _gate_in(checkout, tmp_path, monkeypatch, capsys)[0] == ALLOW
    checkout.write(WORKFLOW, "on: push\n")
    assert _gate_in(checkout, tmp_path, monkeypatch, capsys)[0] == REVIEW


def test_patch_deleting_the_gatekeeper_yaml_that_enabled_deps(
    git_repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    git_repo.write("gatekeeper.yaml", "enable: [deps]\n")
    git_repo.write("go.mod", "module x\n")
    git_repo.commit()
    (git_repo.root / "gatekeeper.yaml").unlink()
    git_repo.write("go.mod", "module x\n\nrequire evil.example/x v1.0.0\n")
    code, err = _gate_in(git_repo, tmp_path, monkeypatch, capsys, "--policy", str(POLICY_DIR))
    assert code == ERROR and "gatekeeper.yaml" in err


def test_patch_deleting_the_default_policies_folder(
    checkout: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without ./policies the gate falls back to the shipped bundle: the repository's own is gone.
    shutil.rmtree(checkout.root / "policies")
    checkout.write("src/a.py", "x = 3\n")
    code, err = _gate_in(checkout, tmp_path, monkeypatch, capsys)
    assert code == ERROR and "policies" in err


def test_patch_adding_a_policies_bundle_where_the_gate_fell_back_to_the_shipped_one(
    git_repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The action's default: ./policies when it is a bundle, else its own. The patch brings one.
    git_repo.write("src/a.py", "x = 1\n")
    git_repo.commit()
    shutil.copytree(POLICY_DIR, git_repo.root / "policies")
    (git_repo.root / "policies" / "core" / "policy.rego").write_text(LAX_CORE)
    (git_repo.root / "policies" / "core" / "policy_test.rego").unlink()
    git_repo.write(WORKFLOW, "on: push\n")
    code, err = _gate_in(git_repo, tmp_path, monkeypatch, capsys)
    assert code == ERROR and "policies" in err


def test_guard_matches_parents_case_and_spellings(tmp_path: Path) -> None:
    from gatekeeper.errors import PolicyError
    from gatekeeper.model import ClassifiedFile, FileChange
    from gatekeeper.policy.selfguard import guarded_paths, refuse_self_change

    (tmp_path / ".git").mkdir()
    guarded = guarded_paths(tmp_path, [(Path("tools/gate/policies"), "the policy bundle in use")])
    assert [g.path for g in guarded] == ["tools/gate/policies"]

    def touches(path: str, old: str | None = None) -> bool:
        change = FileChange(path=path, old_path=old, status="renamed" if old else "modified")
        try:
            refuse_self_change([ClassifiedFile(change, "src", "src.default")], guarded)
        except PolicyError:
            return True
        return False

    assert touches("tools/gate/policies/core/policy.rego")
    assert touches("Tools/Gate/POLICIES/.manifest")  # a case-insensitive checkout
    assert touches("tools")  # a link or gitlink replacing a parent folder
    assert touches("tools/gate")
    assert touches("tools\\gate\\policies\\x.rego")
    assert touches("src/x.rego", old="tools/gate/policies/x.rego")  # moved away
    assert not touches("tools/gate/policies-old/x")
    assert not touches("tools/gatekeeper.yaml")
    assert not touches("src/policies/x")
