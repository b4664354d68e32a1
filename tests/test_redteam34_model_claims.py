"""Red team 34: the generator's own word about its model, signed by the runner, was the model "that answered".

With the model relay, `model.served` is the relay's record of what the provider answered. Without it, the packet's
`model.reported` is whatever the generator wrote into `GATEKEEPER_MODEL_REPORT` (`reported_by: "generator"`). The
runner signs the packet, so with `gate --trust` the claim counts as verified, and `provenance` took it as the model
that served the run. But in an isolating sandbox without a relay the network is denied (`sandbox.network: denied`,
the runner's own signed claim): no model outside could have answered, so the report names a model the run cannot
have used (a script, or a local model under any name). A generator that changes only source files and reports the
requested model was allowed with `--enable provenance --enable sandbox`. Now `provenance.unreachable` sends it to a
human; a run through the relay, or one that reports nothing, is judged as before.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from incli import run_cli
from runbundle import BACKENDS

POLICY_DIR = Path(__file__).resolve().parent.parent / "policies"
REPORTS = "open('src.py', 'a').write('x = 1\\n')\nimport os\n" \
          "open(os.environ['GATEKEEPER_MODEL_REPORT'], 'w').write('{\"model\": \"model-a\"}')\n"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_cli(args, cwd=cwd, text=True)  # type: ignore[return-value]


@pytest.fixture(scope="module")
def trust(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    home = tmp_path_factory.mktemp("model-claims")
    # In-process: the key is this fixture's setup (the real `keys generate` process is tests/test_attest_flow.py's).
    line = _cli("keys", "generate", "--name", "runner", "--out", str(home / "keys"), cwd=home)
    assert line.returncode == 0, line.stderr
    (home / "allowed_signers").write_text(line.stdout.strip() + "\n")
    return home / "keys" / "runner.key", home / "allowed_signers"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_self_reported_model_without_a_relay_is_not_the_model_that_answered(tmp_path: Path, backend: str,
                                                                                trust: tuple[Path, Path]) -> None:
    key, signers = trust
    repo = GitRepo(tmp_path / "origin")
    repo.write("src.py", "print('hi')\n")
    repo.commit()
    (tmp_path / "gen.py").write_text(REPORTS)
    done = _cli("run", "--repo", str(repo.root), "--out", str(tmp_path / "runs"), "--sandbox", backend, "--model",
                "model-a", "--sign-key", str(key), "--policy", str(POLICY_DIR), "--format", "json", "--",
                sys.executable, str(tmp_path / "gen.py"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    packet = json.loads(Path(summary["packet"]).read_text())
    assert packet["sandbox"]["network"] == "denied" and packet.get("relay") is None
    assert packet["model"]["reported"] == "model-a" and packet["model"].get("served") is None
    gate = _cli("gate", summary["packet"], "--patch", summary["patch"], "--policy", str(POLICY_DIR), "--enable",
                "provenance", "--enable", "sandbox", "--trust", str(signers), "--base-commit",
                packet["repository"]["base_commit"], "--format", "json", cwd=tmp_path)
    decision = json.loads(gate.stdout)
    assert decision["attestation"]["verified"] is True, gate.stderr
    rules = {r["rule"] for r in decision["reasons"]}
    assert "provenance.unreachable" in rules, decision["reasons"]
    assert gate.returncode == 3 and decision["outcome"] == "review"
