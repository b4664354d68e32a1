"""Red-team regressions: a patch that rewrites the gate's own configuration in the checkout it is judged in.

The shipped GitHub workflow example checks out the pull request and lets the gate read
`./gatekeeper.yaml` and `./policies` from it. An agent-written change that also edits those
would be judged by rules it wrote itself: it must not get `allow`.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from tables import each_case

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
    # A guard spelled in another Unicode normal form (as a Linux checkout may store it) still meets the patch.
    guarded = guarded_paths(tmp_path, [(Path("tools/ga\u0308te"), "the policy bundle in use")])
    assert touches("tools/g\u00e4te/x.rego") and touches("tools/ga\u0308te/x.rego") and touches("TOOLS/G\u00c4TE")
    assert not touches("tools/gate/x.rego")


# -- generated: the names real git writes, read by the patch parser, against the guard ---------------------

# (how the change is made in the checkout, refused?) The checkout keeps gatekeeper.yaml, ./policies and a
# second bundle that gatekeeper.yaml's policy_dir names; the gate runs at its top without --tree.
GUARD_CASES: list[tuple[str, Callable[[GitRepo], None], bool]] = [
    ("edit gatekeeper.yaml", lambda r: r.write("gatekeeper.yaml", "policy_dir: tools/gate\nenable: [deps]\n"), True),
    ("delete gatekeeper.yaml", lambda r: (r.root / "gatekeeper.yaml").unlink(), True),
    ("rename gatekeeper.yaml away", lambda r: r.move("gatekeeper.yaml", "docs/old-config.yaml"), True),
    ("add gatekeeper.yml beside it", lambda r: r.write("gatekeeper.yml", "disable: [core]\n"), True),
    ("rename a file onto gatekeeper.yml", lambda r: r.move("src/a.py", "gatekeeper.yml"), True),
    ("edit the policy_dir bundle", lambda r: r.write("tools/gate/core/policy.rego", "package x\n"), True),
    ("rename out of the policy_dir bundle", lambda r: r.move("tools/gate/core/policy.rego", "src/p.rego"), True),
    ("rename into the policy_dir bundle", lambda r: r.move("src/a.py", "tools/gate/lib/a.rego"), True),
    ("replace a parent folder by a file", lambda r: _replace_by_file(r, "tools"), True),
    ("upper-case GATEKEEPER.YAML", lambda r: r.write("GATEKEEPER.YAML", "disable: [core]\n"), True),
    ("mixed-case bundle path", lambda r: r.write("Tools/Gate/.manifest", "{}\n"), True),
    ("trailing dot (Windows)", lambda r: r.write("gatekeeper.yaml.", "disable: [core]\n"), True),
    ("trailing space (Windows)", lambda r: r.write("gatekeeper.yml ", "disable: [core]\n"), True),
    ("zero-width joiner (macOS)", lambda r: r.write("gatekeeper\u200c.yml", "disable: [core]\n"), True),
    ("backslash separator (Windows)", lambda r: r.write("tools\\gate\\core\\x.rego", "package x\n"), True),
    ("quoted name git escapes", lambda r: r.write("tools/gate/\"q\"\t.rego", "package x\n"), True),
    # Whole names only: none of these is the configuration in use.
    ("a gatekeeper.yaml in a subfolder", lambda r: r.write("src/gatekeeper.yaml", "disable: [core]\n"), False),
    ("a longer name", lambda r: r.write("gatekeeper.yaml.bak", "disable: [core]\n"), False),
    ("a prefixed name", lambda r: r.write("xgatekeeper.yaml", "disable: [core]\n"), False),
    ("a sibling of the bundle", lambda r: r.write("tools/gate-old/core/policy.rego", "package x\n"), False),
    ("./policies, unused while policy_dir is set", lambda r: r.write("policies/core/policy.rego", "x\n"), False),
    ("the dotted name the gate never reads", lambda r: r.write(".gatekeeper.yaml", "disable: [core]\n"), False),
]


def _replace_by_file(repo: GitRepo, folder: str) -> None:
    shutil.rmtree(repo.root / folder)
    repo.write(folder, "not a folder any more\n")


@each_case(("name", "change", "refused"), GUARD_CASES, ids=[case[0] for case in GUARD_CASES])
def test_guard_on_names_git_writes(
    name: str, change: Callable[[GitRepo], None], refused: bool, git_repo: GitRepo, tmp_path: Path
) -> None:
    from gatekeeper.classify import load_rules
    from gatekeeper.config_source import gate_configuration
    from gatekeeper.errors import PolicyError
    from gatekeeper.packet import derive
    from gatekeeper.policy.selfguard import refuse_self_change

    shutil.copytree(POLICY_DIR, git_repo.root / "tools" / "gate")
    shutil.copytree(POLICY_DIR, git_repo.root / "policies")
    git_repo.write("gatekeeper.yaml", "policy_dir: tools/gate\n")
    git_repo.write("src/a.py", "x = 1\n")
    git_repo.commit()
    old = Path.cwd()
    os.chdir(git_repo.root)
    try:  # what the gate guards: the configuration it loads (a broken bundle would stop it earlier)
        with gate_configuration(None, None) as found:
            guarded = found.guarded
    finally:
        os.chdir(old)
    change(git_repo)
    patch = git_repo.save_patch(tmp_path / "change.diff", "-M")
    files = derive(patch, load_rules(POLICY_DIR)).files
    try:
        refuse_self_change(files, guarded)
    except PolicyError as exc:
        assert refused, f"{name}: refused although it is not the configuration: {exc}"
        assert "a change cannot be judged by configuration it brings along" in str(exc)
    else:
        assert not refused, f"{name}: the patch changes the configuration in use and was not refused"
