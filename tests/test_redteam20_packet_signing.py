"""Red team: a packet the runner cannot sign (a half-written run), made by the agent inside.

A JSON string may hold a lone surrogate (`"\\ud800"`), and Python keeps file names that are not UTF-8 as
surrogate escapes. packet.json is written ASCII-escaped, so both reach it; the signed envelope's payload was
encoded as UTF-8, which has no form for a lone surrogate: `run --sign-key` wrote packet.json, then died with a
UnicodeEncodeError traceback before packet.intoto.json. The generator inside the sandbox controls both inputs
(its model report, the names of the files it writes); a hostile upstream controls the model the relay records,
and `gate --sign` signs what the packet says the same way. The payload is now ASCII-escaped JSON too: the
same statement, readable by every JSON reader, and every signature made before verifies as it did.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from gitrepo import GitRepo
from incli import run_cli
from tables import each_case

from gatekeeper.attest.decision import sign_decision
from gatekeeper.attest.keys import generate, load_signer, parse_trust
from gatekeeper.attest.packet import check_packet, sign_packet

ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = ROOT / "policies"

GENERATOR = r"""
import os
open("notes.md", "w").write("notes\n")
fd = os.open(b"caf\xe9-\xff.txt", os.O_WRONLY | os.O_CREAT, 0o644)
os.write(fd, b"a file whose name is not UTF-8\n")
os.close(fd)
open(os.environ["GATEKEEPER_MODEL_REPORT"], "w").write('{"model": "model-\\ud800-a"}')
"""

STRANGE = ["model-\ud800", "\udcff", "caf\udce9.txt", "\U0001f600\ud83d", "\x00\x1f\x7f", "\u2028\u2029", "\ufeff"]


@each_case("value, where", [(value, where) for value in STRANGE for where in ["model", "path"]])
def test_the_runner_signs_whatever_string_the_packet_holds(tmp_path: Path, value: str, where: str) -> None:
    private, _, trusted = generate("runner", tmp_path / "keys")
    packet = {"diff": {"sha256": "ab" * 32}, "model": {"reported": value if where == "model" else "m"},
              "files": [{"path": value if where == "path" else "a.txt"}]}
    envelope = sign_packet(load_signer(private), packet)
    written = tmp_path / "packet.json"
    written.write_text(json.dumps(packet, ensure_ascii=True))  # as the runner writes it
    (tmp_path / "packet.intoto.json").write_text(json.dumps(envelope))
    trust = parse_trust(trusted.line() + "\n", "allowed_signers")
    assert check_packet(written, json.loads(written.read_text()), trust).verified
    decision = {"outcome": "review", "bundle": {"name": value, "revision": "r", "digest": "ef" * 32},
                "decided_at": "2026-12-01T00:00:00Z"}
    assert sign_decision(load_signer(private), decision, "ab" * 32)["signatures"]


def test_a_generator_cannot_leave_its_run_half_signed(tmp_path: Path) -> None:
    """A real run (unshare): a model report holding a lone surrogate and a file named in Latin-1 bytes."""
    repo = GitRepo(tmp_path / "origin")
    repo.write("gen.py", GENERATOR)
    repo.commit()
    private, _, trusted = generate("runner", tmp_path / "keys")
    (tmp_path / "allowed_signers").write_text(trusted.line() + ' namespaces="gatekeeper-packet"\n')
    done = run_cli(["run", "--repo", str(repo.root), "--out", str(tmp_path / "runs"), "--sandbox", "unshare",
                    "--model", "model-a", "--sign-key", str(private), "--policy", str(POLICY_DIR), "--format",
                    "json", "--", sys.executable, "gen.py"], cwd=tmp_path, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    run = json.loads(done.stdout)
    packet_file = Path(run["packet"])
    assert packet_file.with_name("packet.intoto.json").is_file()
    packet = json.loads(packet_file.read_text())
    # Runner 36: a reported model that is not printable (the lone surrogate) is not used; the file name that is not
    # UTF-8 still has to be signed.
    assert packet["model"]["reported"] is None
    gate = run_cli(["gate", str(packet_file), "--patch", run["patch"], "--trust", "allowed_signers", "--policy",
                    str(POLICY_DIR), "--base-commit", packet["repository"]["base_commit"], "--format", "json"],
                   cwd=tmp_path, text=True)
    attestation = json.loads(gate.stdout)["attestation"]
    assert attestation["verified"] is True and attestation["signer"] == "runner", attestation
