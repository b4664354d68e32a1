"""Red team 13, second round, `--tree`: a change to the configuration the gate reads, where the tag rules do not look.

Under `--tree` the gate reads `gatekeeper.yaml` and the bundle from BASE, so a change to them is judged by BASE's;
once merged, it is what every later gate reads, and the `guardrails` policy exists to send it to a human. The tag
rules name `/policies/**` and `gatekeeper.yaml`, not the bundle BASE's `policy_dir` names (`security/gate`), a
`--policy` folder inside the checkout, nor `policies` below the folder a monorepo runs the gate in (`svc/policies`):
`gate --tree --enable guardrails` allowed (exit 0) a change that switches `core` off in the bundle's manifest,
rewrites its policy, renames it away or deletes its tests, in every layout below (16 variants on d650397).

The gate is the truth of which files it read: its decision names the bundle (digest of BASE's copy), and the
finding must name exactly the changed files of that bundle; the same edits in a copy the gate does not read stay
allowed.
"""

from __future__ import annotations

import json
import posixpath
import shutil
from collections.abc import Callable
from pathlib import Path

from conftest import POLICY_DIR
from tables import each_case

from gatekeeper.policy.bundle import bundle_digest
from tests.gitrepo import GitRepo
from tests.incli import reviewed_paths, run_cli

# Where the bundle lies, what BASE holds to make the gate read it there, the folder the gate runs in, and its flags.
LAYOUTS: dict[str, tuple[str, dict[str, str], str, tuple[str, ...]]] = {
    "policy_dir": ("security/gate", {"gatekeeper.yaml": "policy_dir: security/gate\n"}, "", ()),
    "policy_dir-yml": ("ops/gk", {"gatekeeper.yml": "policy_dir: ops/gk\n"}, "", ()),
    "policy-flag": ("security/gate", {}, "", ("--policy", "security/gate")),
    "subfolder-default": ("svc/policies", {}, "svc", ()),
}


def _core_off(bundle: Path) -> list[str]:
    manifest = json.loads((bundle / ".manifest").read_text())
    manifest["metadata"]["policies"]["core"]["default"] = False
    (bundle / ".manifest").write_text(json.dumps(manifest, indent=2) + "\n")
    return [".manifest"]


def _rewrite(bundle: Path) -> list[str]:
    with (bundle / "core" / "policy.rego").open("a") as out:
        out.write("\n# tuned\n")
    return ["core/policy.rego"]


def _rename(bundle: Path) -> list[str]:
    """Out of the bundle: only the old side is in it (the finding names a rename by its new path)."""
    (bundle / "size" / "policy.rego").rename(bundle.parent / "size-policy.rego.off")
    return ["../size-policy.rego.off"]


def _delete_tests(bundle: Path) -> list[str]:
    (bundle / "core" / "policy_test.rego").unlink()
    return ["core/policy_test.rego"]


EDITS: dict[str, Callable[[Path], list[str]]] = {
    "manifest-core-off": _core_off, "policy-rewritten": _rewrite, "policy-renamed": _rename,
    "tests-deleted": _delete_tests,
}
CASES = [(layout, edit) for layout in LAYOUTS for edit in EDITS]


def _gate(repo: GitRepo, base: str, head: str, cwd: str, flags: tuple[str, ...]) -> tuple[int, dict[str, object]]:
    done = run_cli(["gate", "--tree", f"{base}..{head}", "--repo", repo.root, "--format", "json",
                    "--enable", "guardrails", *flags], cwd=repo.root / cwd, text=True)
    assert "Traceback" not in done.stderr
    return done.returncode, json.loads(done.stdout)


def _scene(root: Path, layout: str, edit: str, copy: bool) -> tuple[GitRepo, str, str, list[str]]:
    """BASE with the bundle where `layout` puts it (and, with `copy`, a second copy of it the gate does not read);
    HEAD applies `edit` to the bundle the gate reads, or only to the copy. The changed repository paths."""
    folder, files, _, _ = LAYOUTS[layout]
    repo = GitRepo(root)
    repo.write("src/app.py", "x = 1\n")
    shutil.copytree(POLICY_DIR, repo.root / folder)
    if copy:
        shutil.copytree(POLICY_DIR, repo.root / "examples/bundle")
    for path, text in files.items():
        repo.write(path, text)
    base = repo.commit("base")
    target = "examples/bundle" if copy else folder
    changed = [posixpath.normpath(f"{target}/{name}") for name in EDITS[edit](repo.root / target)]
    return repo, base, repo.commit("head"), changed


@each_case(("layout", "edit"), CASES, ids=[f"{layout}-{edit}" for layout, edit in CASES])
def test_a_change_to_the_bundle_the_gate_reads_is_a_guardrail_edit(tmp_path: Path, layout: str, edit: str) -> None:
    repo, base, head, changed = _scene(tmp_path / "repo", layout, edit, copy=False)
    code, decision = _gate(repo, base, head, LAYOUTS[layout][2], LAYOUTS[layout][3])
    assert decision["bundle"]["digest"] == bundle_digest(POLICY_DIR)  # type: ignore[index]  # BASE's, as read
    assert (code, decision["outcome"]) == (3, "review"), decision["reasons"]
    assert reviewed_paths(decision, "guardrails.edit") == set(changed)


@each_case("layout", list(LAYOUTS))
def test_the_same_change_to_a_bundle_the_gate_does_not_read_stays_allowed(tmp_path: Path, layout: str) -> None:
    repo, base, head, changed = _scene(tmp_path / "repo", layout, "policy-rewritten", copy=True)
    assert changed == ["examples/bundle/core/policy.rego"]
    code, decision = _gate(repo, base, head, LAYOUTS[layout][2], LAYOUTS[layout][3])
    assert (code, decision["outcome"], decision["reasons"]) == (0, "allow", [])


# The allowed-signers file `--trust` names inside the checkout is read from BASE too (config_source.trusted_file): a
# change that adds its own key there is trusted by every later gate (6 variants allowed on d650397).
SIGNER = "ci ed25519 fbeb6fdab245b46262ac666b4aeb9566d18e5eef2530eac8910555d8790a9f6e\n"
OTHER = "agent ed25519 0d4f1c2b3a495867768594a3b2c1d0e0f1e2d3c4b5a69788796a5b4c3d2e1f00\n"


def _written(text: str) -> Callable[[Path], Path]:
    def edit(path: Path) -> Path:
        path.write_text(text)
        return path
    return edit


# Each edit of the signers file at `path`: the path the change leaves it at (a finding names a rename's new path).
TRUST_EDITS: dict[str, Callable[[Path], Path]] = {
    "signer-added": _written(SIGNER + OTHER),
    "key-replaced": _written(OTHER),
    "renamed-away": lambda path: path.rename(path.parent.parent / "old-signers"),
}
TRUST_CASES = [(where, edit) for where in ("security/allowed_signers", "keys/ci.txt") for edit in TRUST_EDITS]


@each_case(("where", "edit"), TRUST_CASES, ids=[f"{w}-{e}" for w, e in TRUST_CASES])
def test_a_change_to_the_trusted_signers_the_gate_reads_is_a_guardrail_edit(tmp_path: Path, where: str,
                                                                              edit: str) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("src/app.py", "x = 1\n")
    repo.write(where, SIGNER)
    repo.write("examples/signers", SIGNER)  # a copy the gate does not read: its edit stays unnamed
    base = repo.commit("base")
    changed = TRUST_EDITS[edit](repo.root / where).relative_to(repo.root).as_posix()
    repo.write("examples/signers", SIGNER + OTHER)
    code, decision = _gate(repo, base, repo.commit("head"), "", ("--trust", where))
    assert (code, decision["outcome"]) == (3, "review"), decision["reasons"]
    assert reviewed_paths(decision, "guardrails.edit") == {changed}


def test_without_tree_the_working_directorys_signers_file_is_guarded_the_same(tmp_path: Path) -> None:
    """Without --tree the file is read from the working directory (a checkout of the target branch, docs/ci.md (c)):
    the patch that adds a key to it is a guardrail edit there too."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("keys/ci.txt", SIGNER)
    repo.commit("base")
    repo.write("keys/ci.txt", SIGNER + OTHER)
    patch = repo.save_patch(tmp_path / "patch.diff")
    repo.git("checkout", "-q", "--", ".")
    packet = tmp_path / "packet.json"
    assert run_cli(["packet", patch, "--out", packet]).returncode == 0
    done = run_cli(["gate", packet, "--patch", patch, "--trust", "keys/ci.txt", "--enable", "guardrails",
                    "--format", "json"], cwd=repo.root, text=True)
    assert done.returncode == 3, done.stderr
    assert reviewed_paths(json.loads(done.stdout), "guardrails.edit") == {"keys/ci.txt"}
