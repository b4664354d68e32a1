"""Red team: the files a gate reads signatures from (packet.intoto.json beside the packet, the approvals folder)
may be anything the checkout holds, and were read with `read_bytes()`: a FIFO blocked the gate for ever, and a
link to /dev/zero or /dev/urandom would read without end (not run here: it fills the memory). Now a signature file
that is not a regular file is refused at once (the packet's: a deny; an approval: not counted), and one is never
read past the envelope limit. Held before: a file over the limit was refused (after reading it whole).

Each gate is a process of its own with a time limit, forked from the test's process (tests/forkcli.py), which has
imported gatekeeper: not a cold `python -m gatekeeper` (~0.4 CPU-s each, eight of them), nor a served one (a server's
start and imports cost ~0.45 CPU-s, more than the eight forks). What is under test is how the gate reads the files, not
how a process starts (tests/test_packaging.py and the CLI boundary tests check that).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from forkcli import fork_cli
from incli import run_cli
from tables import each_case

from gatekeeper.attest.keys import generate, load_signer
from gatekeeper.attest.packet import sign_packet

ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = ROOT / "policies"
PATCH = ROOT / "fixtures" / "ci-workflow" / "patch.diff"


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("rt15-sigfiles")
    lines = [generate(name, home / "keys")[2].line() for name in ("runner", "alice")]
    lines = [f'{line} namespaces="gatekeeper-approval"' if line.startswith("alice ") else line for line in lines]
    (home / "allowed_signers").write_text("\n".join(lines) + "\n")
    shutil.copyfile(PATCH, home / "patch.diff")
    made = run_cli(["packet", "patch.diff", "--out", "packet.json", "--policy", str(POLICY_DIR)], cwd=home)
    assert made.returncode == 0
    packet = json.loads((home / "packet.json").read_text())
    (home / "packet.intoto.json").write_text(json.dumps(sign_packet(load_signer(home / "keys" / "runner.key"), packet)))
    return home


def _special(path: Path, kind: str) -> None:
    path.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link-to-fifo":
        os.mkfifo(path.with_name("elsewhere.fifo"))
        path.symlink_to(path.with_name("elsewhere.fifo"))
    elif kind == "folder":
        path.mkdir()
    else:  # over the envelope limit (16 MiB): a sparse file
        with open(path, "wb") as handle:
            handle.truncate(17 << 20)


def _gate(home: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """A process of its own with a time limit (killed past it): the FIFO variants blocked the gate for ever."""
    with contextlib.chdir(home):  # the child starts in the folder of the test's files, as `cwd=` would start it
        forked = fork_cli(["gate", "packet.json", "--patch", "patch.diff", "--trust", "allowed_signers", "--policy",
                           str(POLICY_DIR), "--format", "json", *extra], home.parent / "forked")
    try:
        return forked.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("the gate blocked on a signature file")


@each_case("kind", ["fifo", "link-to-fifo", "folder", "huge"])
def test_a_packet_signature_that_is_no_regular_file_is_a_deny_at_once(signed: Path, tmp_path: Path, kind: str) -> None:
    home = tmp_path / "w"
    shutil.copytree(signed, home)
    _special(home / "packet.intoto.json", kind)
    done = _gate(home)
    assert done.returncode == 1, done.stderr
    attestation = json.loads(done.stdout)["attestation"]
    assert attestation["failed"] is True and attestation["verified"] is False


@each_case("kind", ["fifo", "link-to-fifo", "folder", "huge"])
def test_an_approval_file_that_is_no_regular_file_is_not_counted_at_once(signed: Path, tmp_path: Path,
                                                                          kind: str) -> None:
    home = tmp_path / "w"
    shutil.copytree(signed, home)
    done = run_cli(["approve", "packet.json", "--patch", "patch.diff", "--trust", "allowed_signers", "--key",
                    "keys/alice.key", "--out", "approvals", "--policy", str(POLICY_DIR)], cwd=home, text=True)
    assert done.returncode == 0, done.stderr
    _special(home / "approvals" / "0-first.json", kind)
    done = _gate(home, "--approvals", "approvals")
    assert done.returncode == 0, done.stderr  # alice's approval still counts; the odd file does not
    problems = json.loads(done.stdout)["approvals"]["problems"]
    assert len(problems) == 1 and "0-first.json" in problems[0], problems
