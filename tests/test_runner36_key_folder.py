"""Runner 36 (red team of the runner): the private keys beside the runner's signing key.

The sandbox shows the host read-only except known secret places, and covers the runner's own `--sign-key` file.
`gatekeeper keys generate --out keys` writes every role's key into one folder, and docs/security-teams.md keeps the
runner's, the approver's and the gate's keys side by side (`keys/runner.key`, `keys/alice.key`, `keys/gate.key`):
a generator read `alice.key` (the approver's private key) and put it into its patch — the change under review
carries the key that approves it, and any reader of the pull request has it. Now every private key in the signing
key's folder (named `*.key` / `*.pem`, or holding `PRIVATE KEY` in its first 4 KiB; a link counted by its target)
is covered as the signing key is. Other files there stay visible.

The folder must lie where the sandbox shows the host (not under /tmp, /dev/shm or a home, which it hides whole), so
the test makes it inside the checkout, under a name of its own, and removes it.
"""

from __future__ import annotations

import json
import shutil
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import GitRepo
from incli import run_cli
from runbundle import BACKENDS, gk_in

pytestmark = pytest.mark.usefixtures("runner_bundle")

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("runner.key", "alice.key", "gate.key", "deploy.pem", "approver-secret", "linked.key", "notes.txt")
STEAL = """import sys
from pathlib import Path
for name in sys.argv[1].split(","):
    try:
        data = (Path(sys.argv[2]) / name).read_text(errors="replace")
    except OSError as exc:
        data = f"unreadable: {exc.strerror}"
    Path("seen-" + name + ".txt").write_text(data + "\\n")
"""


@pytest.fixture
def key_folder() -> Iterator[Path]:
    """keys/ as the walkthrough makes it (runner, approver, gate), a PEM key, a key under another name, a link to
    a key elsewhere, and a plain note: in a folder the sandbox shows."""
    base = ROOT / f".runner36-keys-{uuid.uuid4().hex[:12]}"
    folder = base / "keys"
    try:
        for name, role in (("runner", "runner"), ("alice", "approver"), ("gate", "gate")):
            done = run_cli(["keys", "generate", "--name", name, "--role", role, "--out", str(folder)], text=True)
            assert done.returncode == 0, done.stderr
        (folder / "deploy.pem").write_text((folder / "gate.key").read_text())
        (folder / "approver-secret").write_text((folder / "alice.key").read_text())
        (base / "elsewhere").mkdir()
        (base / "elsewhere" / "bob").write_text("-----BEGIN PRIVATE KEY-----\nbob\n-----END PRIVATE KEY-----\n")
        (folder / "linked.key").symlink_to(base / "elsewhere" / "bob")
        (folder / "notes.txt").write_text("a note beside the keys\n")
        yield folder
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_private_key_beside_the_signing_key_reaches_the_patch(tmp_path: Path, key_folder: Path,
                                                                  backend: str) -> None:
    origin = GitRepo(tmp_path / "origin")
    origin.write("a.py", "x = 1\n")
    origin.commit()
    (tmp_path / "steal.py").write_text(STEAL)
    done = gk_in("run", "--repo", str(origin.root), "--out", str(tmp_path / "runs"), "--sandbox", backend,
                 "--sign-key", str(key_folder / "runner.key"), "--format", "json", "--", sys.executable,
                 str(tmp_path / "steal.py"), ",".join(NAMES), str(key_folder))
    assert done.returncode == 0, done.stderr[-3000:]
    patch = Path(json.loads(done.stdout)["patch"]).read_text()
    assert "a note beside the keys" in patch  # the control: the folder itself is shown, the sandbox read it
    assert "PRIVATE KEY" not in patch and "bob" not in patch, [ln for ln in patch.splitlines() if "+++" in ln]
