"""The part of the policy input the gate hands over after the engine child started (policy.late): the child gets
exactly the value, waits no longer than the parent lives, and the gate decides as it did when it computed the
whole input first."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from gatekeeper import gate as gate_module
from gatekeeper.classify.treecontext import TreeContext
from gatekeeper.packet import build_packet, derive
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.findings import Evaluation
from gatekeeper.policy.isolate import start_isolated
from gatekeeper.policy.late import Late
from tests.gitrepo import GitRepo


def _get(late: Late) -> Any:
    return late.get()


@pytest.mark.parametrize("value", [{"ok": True, "differences": []},
                                   {"ok": False, "differences": [f'path "{i}"\\x' * 3 for i in range(20_000)]}])
def test_the_child_gets_the_value_put_after_the_fork(value: dict[str, Any]) -> None:
    late = Late()
    job = start_isolated(_get, late, timeout=30)
    late.forked()
    time.sleep(0.05)  # the child is waiting already
    late.put(value)  # larger than a pipe's buffer in the second case: written by a thread
    assert job.result() == value


def test_a_closed_late_value_ends_the_child_with_an_error() -> None:
    late = Late()
    job = start_isolated(_get, late, timeout=30)
    late.close()
    with pytest.raises(Exception, match="LateValueMissing"):
        job.result()


def test_another_child_holding_the_pipe_does_not_keep_the_value_from_the_reader() -> None:
    late = Late()
    holder = start_isolated(time.sleep, 1.5, timeout=30)  # a fork that keeps copies of both ends
    job = start_isolated(_get, late, timeout=30)
    late.forked()
    started = time.monotonic()
    late.put([1, 2, 3])
    assert job.result() == [1, 2, 3]
    assert time.monotonic() - started < 1.4
    holder.result()


def test_put_to_a_child_that_is_gone_neither_blocks_nor_raises() -> None:
    late = Late()
    late.forked()  # no child reads: the pipe is broken for a large value
    late.put("x" * 1_000_000)
    late.close()


def test_the_gate_decides_as_before_when_the_claims_are_compared_late(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """decide (integrity handed over late) and verify + evaluate (integrity first) give the same input and
    findings, for an honest packet and for one whose claims differ from the patch; a comparison that fails
    cancels the engine child and raises its error."""
    bundle = load_bundle(Path(__file__).resolve().parent.parent / "policies")
    names = list(gate_module.resolve_enabled(bundle, ["deps"]))
    repo = GitRepo(tmp_path / "repo")
    repo.write("package.json", '{"dependencies": {"a": "^1.0.0"}}\n')
    repo.write("src/a.py", "x = 1\n")
    base = repo.commit()
    repo.write(".github/workflows/ci.yml", "on: push\njobs:\n  a:\n    steps:\n      - uses: actions/checkout@v4\n")
    repo.write("package.json", '{"dependencies": {"a": "^1.0.0", "b": "^2.0.0"}}\n')
    repo.write("src/a.py", "x = 2\n")
    patch = repo.save_patch(tmp_path / "change.diff")
    head = repo.commit("head")
    honest = build_packet(derive(patch, bundle.rules), bundle.rules, run_id="r1")
    lying = {**honest, "files": [dict(f, bucket="src") for f in honest["files"]]}
    for packet in (honest, lying):
        for tree in (False, True):
            context = TreeContext(repo.root, base, head, bundle.rules) if tree else None
            try:
                decision = gate_module.decide(dict(packet), patch, bundle, names, timeout=30, context=context)
                verified = gate_module.verify(dict(packet), patch, bundle, names, context=context)
            finally:
                if context is not None:
                    context.close()
            (found,) = Evaluation(bundle, names, [verified.input], timeout=30).results()
            assert decision.input_digest == gate_module.digest(verified.input)
            assert [r for r in decision.reasons if r.policy != "gatekeeper"] == found
            assert found  # the new dependency and the unpinned action are reviewed
    assert any(r.rule == gate_module.INTEGRITY_RULE for r in gate_module.decide(
        dict(lying), patch, bundle, names, timeout=30).reasons)

    def broken(*args: object) -> list[str]:
        raise RuntimeError("compare failed")

    monkeypatch.setattr(gate_module, "compare", broken)
    before = set(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else set()
    with pytest.raises(RuntimeError, match="compare failed"):
        gate_module.decide(dict(honest), patch, bundle, names, timeout=30)
    time.sleep(0.1)
    after = set(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else set()
    assert len(after - before) == 0  # no writer thread left behind
    monkeypatch.undo()

    def no_delta(*args: object) -> object:
        raise RuntimeError("delta failed")

    monkeypatch.setattr(gate_module, "tree_dependencies", no_delta)  # under --tree the delta comes after the fork
    with TreeContext(repo.root, base, head, bundle.rules) as context, pytest.raises(RuntimeError, match="delta"):
        gate_module.decide(dict(honest), patch, bundle, names, timeout=30, context=context)
