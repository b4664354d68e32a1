"""Under `--tree BASE..HEAD` the gate's configuration comes from BASE's git objects, never the checkout.

Every scene is a real repository: `main` holds the trusted configuration, the pull request `pr`
commits the agent's change (which also tampers with the gate's configuration) plus its patch and
packet under `.agent/`, and the gate runs in that checkout, as CI runs it. The change always adds a
workflow file, which the base's `core` policy sends to review: any other outcome means the change
configured its own judge.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import POLICY_DIR
from gitrepo import GitRepo
from shipped import bundle_name

from gatekeeper.cli import main
from gatekeeper.config_source import repo_path
from gatekeeper.policy import bundle as policy_bundle
from gatekeeper.policy.bundle import bundle_digest

ALLOW, DENY, ERROR, REVIEW = 0, 1, 2, 3
WORKFLOW = ".github/workflows/evil.yml"
# Compiles and defines `review`, but never finds anything: a bundle that waves everything through.
WAVE_THROUGH = (
    "# METADATA\n# title: t\n# description: d\n# custom:\n#   version: 9.0.0\n#   owner: o\n"
    "#   rules:\n#     - core.ci\n#     - core.iac\npackage gatekeeper.policies.core\n\nimport rego.v1\n\n"
    'review contains f if {\n\tfalse\n\tf := {"rule": "core.ci", "msg": "never"}\n}\n'
)
# Compiles, declares its rules, defines none.
NO_RULES = WAVE_THROUGH.split("\n\nreview")[0] + "\n"


def lax_bundle(folder: Path, core: str = WAVE_THROUGH) -> Path:
    shutil.copytree(POLICY_DIR, folder)
    (folder / "core" / "policy.rego").write_text(core)
    (folder / "core" / "policy_test.rego").unlink()
    return folder


class Scene:
    """`main` with the trusted configuration; `pr` with the agent's change, its patch and packet."""

    def __init__(self, tmp: Path, *, bundle: bool = True, base_files: dict[str, str] | None = None) -> None:
        self.tmp = tmp
        self.repo = GitRepo(tmp / "repo")
        if bundle:
            shutil.copytree(POLICY_DIR, self.repo.root / "policies")
        self.repo.write("src/app.py", "x = 1\n")
        for path, text in (base_files or {}).items():
            self.repo.write(path, text)
        self.base = self.repo.commit("base")
        self.repo.branch("pr")

    def change(self, tamper: Callable[[Path], None]) -> Scene:
        """The agent's change: `tamper(root)` plus a new workflow file, committed; then patch and packet."""
        tamper(self.repo.root)
        self.repo.write(WORKFLOW, "on: push\njobs: {steal: {runs-on: x, steps: [{run: env}]}}\n")
        data = self.repo.staged_patch()
        self.repo.commit("agent change")
        agent = self.repo.root / ".agent"
        agent.mkdir(exist_ok=True)
        (agent / "patch.diff").write_bytes(data)
        assert main(["packet", str(agent / "patch.diff"), "--out", str(agent / "packet.json"),
                     "--policy", str(POLICY_DIR)]) == 0
        self.repo.commit("agent patch and packet")
        return self

    def gate(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *extra: str,
             cwd: str = "", tree: bool = True) -> tuple[int, dict[str, object] | None, str]:
        folder = self.repo.root / cwd
        folder.mkdir(parents=True, exist_ok=True)
        monkeypatch.chdir(folder)
        agent = self.repo.root / ".agent"
        argv = ["gate", str(agent / "packet.json"), "--patch", str(agent / "patch.diff"), "--format", "json", *extra]
        if tree:
            argv += ["--tree", "main..pr"]
        capsys.readouterr()
        code = main(argv)
        out, err = capsys.readouterr()
        assert "Traceback" not in err
        return code, (json.loads(out) if out.strip() else None), err


Shared = Callable[[Callable[[Path], None]], "Scene"]


def _nothing(root: Path) -> None:
    """A change that touches nothing but adds the workflow file."""


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Shared:
    """`Scene(tmp).change(tamper)` on the default base, built once per module for each `tamper`: for the tests that
    only run the gate in it (which writes nothing in the checkout; their own files go to their `tmp_path`)."""
    built: dict[Callable[[Path], None], Scene] = {}

    def scene(tamper: Callable[[Path], None]) -> Scene:
        if tamper not in built:
            built[tamper] = Scene(tmp_path_factory.mktemp("scene")).change(tamper)
        return built[tamper]

    return scene


def _write(path: str, text: str) -> Callable[[Path], None]:
    def tamper(root: Path) -> None:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)

    return tamper


def _lax_policies(root: Path) -> None:
    shutil.rmtree(root / "policies", ignore_errors=True)
    lax_bundle(root / "policies")


def _manifest_core_off(root: Path) -> None:
    manifest = json.loads((root / "policies" / ".manifest").read_text())
    manifest["metadata"]["policies"]["core"]["default"] = False
    (root / "policies" / ".manifest").write_text(json.dumps(manifest))


def _symlinked_policies(root: Path) -> None:
    outside = lax_bundle(root.parent / "elsewhere")
    shutil.rmtree(root / "policies")
    (root / "policies").symlink_to(outside)


def _policy_dir_to_own_bundle(name: str) -> Callable[[Path], None]:
    def tamper(root: Path) -> None:
        lax_bundle(root / "lax")
        (root / name).write_text("policy_dir: lax\n")

    return tamper


ATTACKS: dict[str, Callable[[Path], None]] = {
    "gatekeeper.yaml disables core": _write("gatekeeper.yaml", "disable: [core]\n"),
    "gatekeeper.yml disables core": _write("gatekeeper.yml", "disable: [core]\n"),
    "gatekeeper.yaml enables nothing but a lax policy": _write("gatekeeper.yaml", "disable: [core]\nenable: [size]\n"),
    "gatekeeper.yaml points at the change's bundle": _policy_dir_to_own_bundle("gatekeeper.yaml"),
    "gatekeeper.yml points at the change's bundle": _policy_dir_to_own_bundle("gatekeeper.yml"),
    "core rewritten to find nothing": _write("policies/core/policy.rego", WAVE_THROUGH),
    "core left without rules": _write("policies/core/policy.rego", NO_RULES),
    "bundle replaced": _lax_policies,
    "core off by default in the manifest": _manifest_core_off,
    "bundle deleted (fall back to the shipped one)": lambda root: shutil.rmtree(root / "policies"),
    "bundle replaced by a symlink out of the checkout": _symlinked_policies,
    "classification rules emptied": _write("policies/classification.yaml", "rules: []\n"),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_change_cannot_configure_its_own_judge(
    attack: str, shared: Shared, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = shared(ATTACKS[attack])
    code, decision, err = scene.gate(capsys, monkeypatch)
    assert code == REVIEW, err
    assert decision is not None and decision["enabled"] == ["core"]
    bundle = decision["bundle"]
    assert isinstance(bundle, dict)
    assert bundle["digest"] == bundle_digest(POLICY_DIR)  # BASE's bundle, byte for byte
    assert bundle["commit"] == scene.base  # the last commit that changed it, as of BASE
    assert any(r["rule"] == "core.ci" and WORKFLOW in r.get("paths", []) for r in decision["reasons"])  # type: ignore[union-attr, index]


@pytest.mark.parametrize("policy", ["policies", "./src/../policies", "{root}/policies", "{outside_link}"])
def test_a_policy_flag_inside_the_checkout_is_read_from_base(
    policy: str, tmp_path: Path, shared: Shared,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = shared(_lax_policies)
    link = tmp_path / "trusted-looking"
    link.symlink_to(scene.repo.root / "policies")  # outside the checkout, but it leads into it
    flag = policy.format(root=scene.repo.root, outside_link=link)
    code, decision, err = scene.gate(capsys, monkeypatch, "--policy", flag)
    assert code == REVIEW, err
    assert decision is not None and decision["bundle"]["digest"] == bundle_digest(POLICY_DIR)  # type: ignore[index]


def test_the_bundle_read_from_base_asks_git_nothing_of_its_export(
    shared: Shared, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Its commit is BASE's last change of the folder (objects.last_change); `git log`/`git status` in the exported
    # copy, outside any repository, answered nothing the gate used: two git processes a gate, gone.
    asked: list[Path] = []
    monkeypatch.setattr(policy_bundle, "start_git_state", lambda folder: asked.append(folder) or (lambda: (None, None)))
    scene = shared(_lax_policies)
    code, decision, err = scene.gate(capsys, monkeypatch)
    assert code == REVIEW, err
    assert asked == []
    assert decision is not None and decision["bundle"]["commit"] == scene.base  # type: ignore[index]


@pytest.mark.parametrize("attack", ["gatekeeper.yaml disables core", "bundle replaced", "core left without rules"])
def test_from_a_subfolder_the_subfolder_config_is_read_from_base(
    attack: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The gate reads gatekeeper.yaml and ./policies relative to where it runs: at BASE, the same place.
    scene = Scene(tmp_path, base_files={"tools/gate/gatekeeper.yaml": "policy_dir: ../../policies\n"})

    def tamper(root: Path) -> None:
        ATTACKS[attack](root)
        (root / "tools/gate/gatekeeper.yaml").write_text("disable: [core]\n")

    scene.change(tamper)
    code, decision, err = scene.gate(capsys, monkeypatch, cwd="tools/gate")
    assert code == REVIEW, err
    assert decision is not None and decision["bundle"]["commit"] == scene.base  # type: ignore[index]


def test_a_bundle_the_change_adds_where_base_had_none_is_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scene = Scene(tmp_path, bundle=False).change(_lax_policies)
    code, decision, err = scene.gate(capsys, monkeypatch)
    assert code == REVIEW, err
    # The default bundle decided (the shipped one, or a site's renamed copy of it), never the change's.
    assert decision is not None and decision["bundle"]["name"] == bundle_name()  # type: ignore[index]


def test_base_configuration_is_obeyed_even_when_the_change_deletes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scene = Scene(tmp_path, base_files={"gatekeeper.yaml": "enable: [deps]\n", "go.mod": "module x\n"})

    def tamper(root: Path) -> None:
        (root / "gatekeeper.yaml").unlink()
        (root / "go.mod").write_text("module x\n\nrequire evil.example/x v1.0.0\n")

    scene.change(tamper)
    code, decision, err = scene.gate(capsys, monkeypatch)
    assert code == REVIEW, err
    assert decision is not None and decision["enabled"] == ["core", "deps"]
    # Without --tree the checkout is the configuration, and the self-guard refuses the change.
    code, _, err = scene.gate(capsys, monkeypatch, tree=False)
    assert code == ERROR and "gatekeeper.yaml" in err


def test_a_policy_folder_outside_the_checkout_is_the_ci_owners_choice(
    tmp_path: Path, shared: Shared, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trusted = tmp_path / "trusted"
    shutil.copytree(POLICY_DIR, trusted)
    manifest = json.loads((trusted / ".manifest").read_text())
    manifest["metadata"]["policies"]["guardrails"]["default"] = True
    (trusted / ".manifest").write_text(json.dumps(manifest))
    scene = shared(_lax_policies)
    code, decision, err = scene.gate(capsys, monkeypatch, "--policy", str(trusted))
    assert code == REVIEW, err
    assert decision is not None and decision["enabled"] == ["core", "guardrails"]
    assert decision["bundle"]["digest"] == bundle_digest(trusted)  # type: ignore[index]


@pytest.mark.parametrize(
    ("base_files", "extra", "message"),
    [
        ({"gatekeeper.yaml": "disable: [core]\n"}, (), "no policy is enabled"),
        ({}, ("--disable", "core"), "no policy is enabled"),
        ({}, ("--disable", "core", "--dry-run"), "no policy is enabled"),
        ({"policies/core/policy.rego": NO_RULES}, (), "defines no deny, review or warn rule"),
        ({"gatekeeper.yaml": "policy_dir: nowhere\n"}, (), "not a policy bundle at main"),
        ({"gatekeeper.yaml": "bogus: 1\n"}, (), "main:gatekeeper.yaml"),
    ],
)
def test_a_base_that_enables_nothing_cannot_decide(
    base_files: dict[str, str], extra: tuple[str, ...], message: str, tmp_path: Path,
    shared: Shared, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = Scene(tmp_path, base_files=base_files).change(_nothing) if base_files else shared(_nothing)
    code, decision, err = scene.gate(capsys, monkeypatch, *extra)
    assert code == ERROR and decision is None and message in err, err


def test_symlinks_in_base_configuration_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scene = Scene(tmp_path)
    scene.repo.git("checkout", "-q", "main")
    scene.repo.symlink("policies/lib/evil.rego", "/etc/passwd")
    scene.repo.commit("a symlink in the bundle")
    scene.repo.git("checkout", "-q", "-B", "pr")
    scene.change(lambda root: None)
    code, _, err = scene.gate(capsys, monkeypatch)
    assert code == ERROR and "symlink" in err
    (scene.repo.root / "gatekeeper.yaml").symlink_to("/etc/passwd")
    scene.repo.git("checkout", "-q", "main")
    scene.repo.symlink("gatekeeper.yaml", "/etc/hostname")
    scene.repo.commit("a symlinked config")
    scene.repo.git("checkout", "-q", "-B", "pr")
    scene.change(lambda root: None)
    code, _, err = scene.gate(capsys, monkeypatch)
    assert code == ERROR and "main:gatekeeper.yaml" in err


def test_a_base_whose_policies_folder_is_a_link_is_refused_not_replaced_by_the_shipped_bundle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    central = lax_bundle(tmp_path / "central")
    scene = Scene(tmp_path, bundle=False)
    scene.repo.git("checkout", "-q", "main")
    scene.repo.symlink("policies", str(central))
    scene.repo.commit("policies from a central checkout")
    scene.repo.git("checkout", "-q", "-B", "pr")
    scene.change(lambda root: None)
    code, decision, err = scene.gate(capsys, monkeypatch)
    assert code == ERROR and decision is None and "main:policies" in err and "symlink" in err


def test_an_unknown_base_cannot_decide(
    shared: Shared, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = shared(_nothing)
    monkeypatch.chdir(scene.repo.root)
    code = main(["gate", ".agent/packet.json", "--patch", ".agent/patch.diff", "--tree", "nosuch..pr"])
    assert code == ERROR and "unknown revision 'nosuch'" in capsys.readouterr().err


def test_no_policy_enabled_is_never_allow_without_tree_either(
    tmp_path: Path, shared: Shared, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = shared(_nothing)
    empty = tmp_path / "none-on"
    shutil.copytree(POLICY_DIR, empty)
    manifest = json.loads((empty / ".manifest").read_text())
    manifest["metadata"]["policies"]["core"]["default"] = False
    (empty / ".manifest").write_text(json.dumps(manifest))
    for extra in (["--policy", str(empty)], ["--policy", str(lax_bundle(tmp_path / "norules", NO_RULES))],
                  ["--policy", str(POLICY_DIR), "--disable", "core"]):
        code, decision, err = scene.gate(capsys, monkeypatch, *extra, tree=False)
        assert code == ERROR and decision is None, (extra, err)


# -- repo_path: inside or outside the checkout, whatever the spelling ------------------------------


def test_repo_path_spellings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    top = tmp_path / "repo"
    (top / "a" / "b").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (top / "out-link").symlink_to(outside)
    (tmp_path / "in-link").symlink_to(top / "a")
    monkeypatch.chdir(top / "a")
    cases = {
        "b": "a/b", ".": "a", "..": "", "./b/../b": "a/b", str(top / "a" / "b"): "a/b",
        "../out-link": "out-link",  # the spelling is inside: BASE decides (git holds no symlink target there)
        str(tmp_path / "in-link" / "b"): "a/b",  # outside, but it resolves into the checkout
        str(outside): None, "../..": None, "../../outside": None, str(tmp_path / "repo-sibling"): None,
    }
    for spelling, expected in cases.items():
        assert repo_path(top, Path(spelling)) == expected, spelling
    # Generated: every folder below the top, spelled relative and absolute, is inside; its parents are not.
    for depth in range(4):
        folder = top.joinpath(*(f"d{i}" for i in range(depth)))
        rel = os.path.relpath(folder, top / "a")
        want = "/".join(f"d{i}" for i in range(depth))
        assert repo_path(top, Path(rel)) == want
        assert repo_path(top, folder) == want
        assert repo_path(top, Path(str(folder) + "/.")) == want
    assert repo_path(top, tmp_path) is None


@pytest.mark.parametrize("config", ["disable: [core]\n", "disable: [core]\nenable: [size]\n"])
def test_the_issue_case_a_config_hidden_behind_a_header_git_reads_otherwise(
    config: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue #11, holes 1 + 3: gatekeeper.yaml as a binary section whose `diff --git` line git reads as
    # gatekeeper.yaml while a naive parser reads another name. With --tree the checkout's file is never read.
    scene = Scene(tmp_path)
    (scene.repo.root / ".git" / "info").mkdir(exist_ok=True)
    (scene.repo.root / ".git" / "info" / "attributes").write_text("gatekeeper.yaml binary\n")
    scene.repo.write("gatekeeper.yaml", config)
    scene.repo.write(WORKFLOW, "on: push\n")
    honest = scene.repo.staged_patch()
    header = b"diff --git a/gatekeeper.yaml b/gatekeeper.yaml\n"
    assert header in honest
    crafted = b'diff --git a/gatekeeper.yaml "b/gatekeeper.yaml" c/gatekeeper.yaml "b/gatekeeper.yaml"\n'
    data = honest.replace(header, crafted)
    scene.repo.commit("agent change")
    agent = scene.repo.root / ".agent"
    agent.mkdir()
    (agent / "patch.diff").write_bytes(data)
    numstat = scene.repo.git("apply", "--numstat", "-z", str(agent / "patch.diff"))
    assert b"\tgatekeeper.yaml\0" in numstat  # git's own reading of the crafted header
    # The header is refused wherever it is read (git-exact names); the packet is made from the honest patch.
    assert main(["packet", str(agent / "patch.diff"), "--out", str(agent / "packet.json"),
                 "--policy", str(POLICY_DIR)]) == 2
    (tmp_path / "honest.diff").write_bytes(honest)
    assert main(["packet", str(tmp_path / "honest.diff"), "--out", str(agent / "packet.json"),
                 "--policy", str(POLICY_DIR)]) == 0
    scene.repo.commit("agent patch and packet")
    code, decision, err = scene.gate(capsys, monkeypatch)
    assert code == 2 and decision is None and "diff --git" in err, err
    (agent / "patch.diff").write_bytes(honest)  # the same change, named plainly: judged by BASE's config
    code, decision, err = scene.gate(capsys, monkeypatch)
    assert code == REVIEW, err
    assert decision is not None and decision["enabled"] == ["core"]


def test_repo_elsewhere_reads_base_at_its_top(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # For a caller that names the clone (`repo`) and runs elsewhere: BASE's top-level configuration.
    from gatekeeper.config_source import gate_configuration
    from gatekeeper.revrange import resolve_range

    scene = Scene(tmp_path, base_files={"gatekeeper.yaml": "enable: [deps]\n"}).change(_lax_policies)
    elsewhere = tmp_path / "elsewhere-cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    with gate_configuration(None, resolve_range("main..HEAD", scene.repo.root)) as found:
        assert found.config.enable == ("deps",) and found.config.label == "main:gatekeeper.yaml"
        assert found.bundle.digest == bundle_digest(POLICY_DIR) and found.guarded == ()
        assert found.base == scene.base


def test_an_oversized_base_configuration_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gatekeeper.config_source import MAX_CONFIG_BYTES

    scene = Scene(tmp_path, base_files={"gatekeeper.yaml": "# pad\n" * (MAX_CONFIG_BYTES // 6 + 1)})
    scene.change(lambda root: None)
    code, decision, err = scene.gate(capsys, monkeypatch)
    assert code == ERROR and "larger than" in err and "main:gatekeeper.yaml" in err
