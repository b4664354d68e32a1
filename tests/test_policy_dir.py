"""Policy bundle resolution, one rule for every command: flag, gatekeeper.yaml, ./policies, the shipped one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from diffcheck import BUNDLE_REVISION, make_bundle
from gitrepo import GitRepo

from gatekeeper.cli import main
from gatekeeper.errors import UsageError
from gatekeeper.policy_dir import RULES_FILE, resolve_policy_dir, shipped_policy_dir


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory holding a ./policies bundle and a second bundle under team/."""
    root = tmp_path / "project"
    make_bundle(root / "policies")
    make_bundle(root / "team" / "bundle")
    monkeypatch.chdir(root)
    return root


def test_the_flag_comes_first(project: Path) -> None:
    (project / "gatekeeper.yaml").write_text("policy_dir: team/bundle\n")
    assert resolve_policy_dir(project / "policies") == project / "policies"


def test_gatekeeper_yaml_comes_before_the_policies_folder(project: Path) -> None:
    (project / "gatekeeper.yaml").write_text("policy_dir: team/bundle\n")
    assert resolve_policy_dir(None) == project / "team" / "bundle"


def test_then_the_policies_folder_then_the_shipped_bundle(project: Path) -> None:
    assert resolve_policy_dir(None) == project / "policies"
    (project / "policies" / ".manifest").unlink()
    assert resolve_policy_dir(None) == shipped_policy_dir()


def test_a_config_naming_no_bundle_is_an_error_that_names_the_file(project: Path) -> None:
    (project / "gatekeeper.yaml").write_text("policy_dir: nowhere\n")
    with pytest.raises(UsageError, match="not a policy bundle") as caught:
        resolve_policy_dir(None)
    assert caught.value.where == str(project / "nowhere")
    assert "gatekeeper.yaml" in (caught.value.hint or "")


def test_classify_needs_only_the_rules_file(project: Path) -> None:
    rules_only = project / "rules-only"
    rules_only.mkdir()
    (rules_only / RULES_FILE).write_bytes((project / "policies" / RULES_FILE).read_bytes())
    (project / "gatekeeper.yaml").write_text("policy_dir: rules-only\n")
    assert resolve_policy_dir(None, marker=RULES_FILE) == rules_only
    with pytest.raises(UsageError, match="not a policy bundle"):
        resolve_policy_dir(None)
    with pytest.raises(UsageError, match=f"no {RULES_FILE} in this folder"):
        resolve_policy_dir(project / "team", marker=RULES_FILE)


@pytest.fixture
def change(git_repo: GitRepo, tmp_path: Path) -> tuple[Path, Path]:
    """A real patch and the packet built from it with the shipped bundle."""
    git_repo.write("src/app.py", "a = 1\n")
    git_repo.commit()
    git_repo.write("src/app.py", "a = 2\n")
    patch = git_repo.save_patch(tmp_path / "change.diff")
    packet = tmp_path / "change.packet.json"
    assert main(["packet", str(patch), "--policy", str(shipped_policy_dir()), "--out", str(packet)]) == 0
    return patch, packet


COMMANDS = {
    "classify": lambda patch, packet: ["classify", str(patch)],
    "packet": lambda patch, packet: ["packet", str(patch)],
    "verify": lambda patch, packet: ["verify", str(packet), "--patch", str(patch)],
    "gate": lambda patch, packet: ["gate", str(packet), "--patch", str(patch)],
    "run": lambda patch, packet: ["run", "--repo", str(patch.parent), "--", "true"],
    "test": lambda patch, packet: ["test"],
    "policy list": lambda patch, packet: ["policy", "list"],
    "policy history": lambda patch, packet: ["policy", "history"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_reads_the_policy_dir_of_gatekeeper_yaml(
    command: str, change: tuple[Path, Path], project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "gatekeeper.yaml").write_text("policy_dir: nowhere\n")
    (project / "nowhere").mkdir()
    capsys.readouterr()
    assert main(COMMANDS[command](*change)) == 2
    err = capsys.readouterr().err
    assert str(project / "nowhere") in err and "Traceback" not in err


def test_packet_records_the_revision_of_the_configured_bundle(
    change: tuple[Path, Path], project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = project / "team" / "bundle" / ".manifest"
    manifest.write_text(json.dumps({"revision": "team-7", "roots": ["gatekeeper"]}))
    (project / "gatekeeper.yaml").write_text("policy_dir: team/bundle\n")
    capsys.readouterr()
    assert main(["packet", str(change[0])]) == 0
    assert "team-7" in capsys.readouterr().out
    (project / "gatekeeper.yaml").unlink()
    assert main(["packet", str(change[0])]) == 0
    assert BUNDLE_REVISION in capsys.readouterr().out
