"""Review 67b: `gate --output` naming a file the gate reads. When the gate cannot decide (exit 2), withdraw_output
removes the file at --output (red team 49): with `--output decisions.jsonl --log decisions.jsonl` that was the decision
log (the chain's earlier records gone, the next record opening a new one), with `--output packet.json` the packet, and
so the patch, the trust file, the signing key (the approvals and advisories are folders: click refuses a
file there); when it can decide, the report
replaced the file. An --output that names the directory entry of a file the gate reads (any spelling: `./`, `..`, an
absolute path, a symlinked folder on the way) is refused now (exit 2, one line) and nothing is removed or written.
Look-alikes: a link at --output to the log (the link is replaced, the log stays), a hard link, another file."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from gatekeeper.ci.github_action import run_step
from gatekeeper.errors import ExitCode
from tests.gitrepo import GitRepo
from tests.incli import run_cli

INPUTS = ("packet.json", "change.diff", "decisions.jsonl", "decisions.jsonl.head", "signers", "key.pem")
_LOG = ("decisions.jsonl", "decisions.jsonl.head")  # appended by each run: its earlier records must stay


@pytest.fixture()
def work(tmp_path: Path) -> Path:
    repo = GitRepo(tmp_path / "src")
    repo.write("README.md", "x\n")
    repo.commit("base")
    repo.write("src/app.py", "print(1)\n")
    repo.save_patch(tmp_path / "change.diff")
    done = run_cli(["packet", "change.diff", "--out", "packet.json", "--run-id", "run-1"], cwd=tmp_path, text=True)
    assert done.returncode == 0, done.stderr
    done = run_cli(["gate", "packet.json", "--patch", "change.diff", "--log", "decisions.jsonl"], cwd=tmp_path,
                   text=True)
    assert done.returncode in (0, 3), done.stderr
    for name in ("signers", "key.pem"):
        (tmp_path / name).write_text(f"{name}\n")
    (tmp_path / "bad.json").write_text("{not json\n")
    (tmp_path / "sub").mkdir()
    os.symlink(".", tmp_path / "here")
    return tmp_path


def _spellings(name: str, root: Path) -> list[str]:
    return [name, f"./{name}", f"sub/../{name}", str(root / name), f"here/{name}", f"here/./here/{name}"]


def _args(packet: str, output: str, extra: tuple[str, ...] = ()) -> list[str]:
    return ["gate", packet, "--patch", "change.diff", "--log", "decisions.jsonl", "--output", output, *extra]


@pytest.mark.parametrize("packet", ["packet.json", "bad.json"])  # decided / could not decide
@pytest.mark.parametrize("name", INPUTS)
def test_an_output_that_names_a_file_the_gate_reads_is_refused(work: Path, packet: str, name: str) -> None:
    name = packet if name == "packet.json" else name
    extra = {"signers": ("--trust", "signers"), "key.pem": ("--sign", "key.pem")}.get(name, ())
    files = (*INPUTS, "bad.json")
    before = {input_: (work / input_).read_bytes() for input_ in files}
    failed = []
    for output in _spellings(name, work):
        done = run_cli(_args(packet, output, extra), cwd=work, text=True)
        after = {input_: (work / input_).read_bytes() if (work / input_).exists() else b"" for input_ in files}
        changed = [input_ for input_ in files if input_ not in _LOG and after[input_] != before[input_]]
        changed += [] if after[_LOG[0]].startswith(before[_LOG[0]]) else [_LOG[0]]  # a record appended, none lost
        changed += [] if after[_LOG[1]].startswith(b'{"hash": ') else [_LOG[1]]  # still a head file
        if done.returncode != ExitCode.ERROR or changed or "--output" not in done.stderr:
            failed.append((output, done.returncode, changed))
        for input_, data in before.items():
            (work / input_).write_bytes(data)  # the next spelling starts from the same files
    assert not failed, failed


@pytest.mark.parametrize("packet", ["packet.json", "bad.json"])
def test_a_signed_summary_beside_the_output_that_is_an_input_is_refused(work: Path, packet: str) -> None:
    os.rename(work / "key.pem", work / "report.intoto.json")
    before = (work / "report.intoto.json").read_bytes()
    done = run_cli(_args(packet, "report", ("--sign", "report.intoto.json")), cwd=work, text=True)
    assert done.returncode == ExitCode.ERROR
    assert (work / "report.intoto.json").exists() and (work / "report.intoto.json").read_bytes() == before


@pytest.mark.parametrize("kind", ["symlink", "hardlink", "other"])
def test_an_output_beside_the_inputs_is_written_or_withdrawn_as_before(work: Path, kind: str) -> None:
    log = (work / "decisions.jsonl").read_bytes()
    if kind == "symlink":
        os.symlink("decisions.jsonl", work / "report.json")
    elif kind == "hardlink":
        os.link(work / "packet.json", work / "report.json")
    packet = (work / "packet.json").read_bytes()
    done = run_cli(_args("bad.json", "report.json"), cwd=work, text=True)
    assert done.returncode == ExitCode.ERROR
    assert not os.path.lexists(work / "report.json")  # withdrawn: not this run's report
    assert (work / "packet.json").read_bytes() == packet
    assert (work / "decisions.jsonl").read_bytes().startswith(log)  # the failure record appended, nothing lost
    done = run_cli(_args("packet.json", "report.json"), cwd=work, text=True)
    assert done.returncode in (0, 3), done.stderr
    assert (work / "report.json").is_file()


@pytest.mark.parametrize("status", ["exit 2", "exit 0"])
@pytest.mark.parametrize("name", ["p.json", "p.diff", "decisions.jsonl", "decisions.jsonl.head"])
def test_the_action_refuses_a_report_file_that_is_an_input(tmp_path: Path, status: str, name: str) -> None:
    python = tmp_path / "python"
    python.write_text(f"#!/bin/sh\n{status}\n")  # a gate that could not decide, or wrote no decision
    python.chmod(0o755)
    for file in ("p.json", "p.diff", "decisions.jsonl", "decisions.jsonl.head"):
        (tmp_path / file).write_text(f"{file}\n")
    os.symlink(".", tmp_path / "here")
    failed = []
    for spelling in (str(tmp_path / name), str(tmp_path / "here" / name), str(tmp_path / "here" / ".." / name)):
        env = {"INPUT_PACKET": str(tmp_path / "p.json"), "INPUT_PATCH": str(tmp_path / "p.diff"),
               "INPUT_FORMAT": "sarif", "INPUT_OUTPUT": spelling, "INPUT_LOG": str(tmp_path / "decisions.jsonl")}
        result = run_step(env, io.StringIO(), io.StringIO(), python=str(python))
        if result.exit_code != ExitCode.ERROR or not (tmp_path / name).exists():
            failed.append(spelling)
        (tmp_path / name).write_text(f"{name}\n")
    assert not failed
