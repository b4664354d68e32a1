"""Review of what the probe file must say before the runner trusts the sandbox."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from gatekeeper.errors import RunError
from gatekeeper.runner import run as runner
from gatekeeper.runner import rundir, sandbox
from gatekeeper.runner.inside import EXIT_NOT_PROTECTED


def test_a_run_directory_that_cannot_be_protected_stops_the_shim(tmp_path: Path) -> None:
    box = sandbox.select("unshare")
    probe = tmp_path / "probe.json"
    marker = tmp_path / "generator-ran"
    guard = sandbox.Guard(read_only=tmp_path / "missing", writable=(tmp_path,))
    argv = sandbox.wrap(box, probe, ("touch", str(marker)), guard)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    assert done.returncode == EXIT_NOT_PROTECTED and "cannot protect" in done.stderr
    assert not marker.exists()
    assert json.loads(probe.read_text())["protected"] is False


@pytest.mark.parametrize("protected", [False, None])
def test_the_runner_refuses_an_unshare_probe_without_protection(tmp_path: Path, protected: bool | None) -> None:
    run = rundir.create(tmp_path / "runs")
    doc: dict[str, object] = {"network": "denied", "egress_checked": True}
    if protected is not None:
        doc["protected"] = protected
    run.probe.write_text(json.dumps(doc))
    with pytest.raises(RunError, match="read-only"):
        runner._read_probe(run, sandbox.Sandbox("unshare", ("unshare",)))
    assert runner._read_probe(run, sandbox.Sandbox("bwrap", ("bwrap",)))["network"] == "denied"
