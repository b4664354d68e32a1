"""Attack 24: the configurations beside a file (siblingrefs.py) as a way to stall the gate.

With the commits every Terraform/Packer/... configuration holding `../` is read once (up to 4,096 a tree), and each
of its paths with a variable part that leaves its folder (up to 256 a configuration) was kept in one list that every
changed file walked: configurations x patterns x changed files. 1,000 configurations of 256 such paths and 500
changed shell scripts took 31.6 s of CPU on b7942c9 (4,096 and 5,000 would take about an hour), a stall anyone can
commit. The patterns are now looked up by the folders a changed file lies in; the same file is still named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cpucost import within_cpu
from gitrepo import GitRepo

from gatekeeper.cli import main

CONFIGS, PATTERNS, CHANGED = 300, 256, 300


def _stack(number: int) -> str:
    return "".join(f'locals {{\n  t{j} = templatefile("../../shared/d{number}x{j}/t-${{var.x}}.tpl", {{}})\n}}\n'
                   for j in range(PATTERNS))


def test_many_patterns_beside_many_changed_files_stay_cheap(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    repo = GitRepo(tmp_path / "repo")
    for number in range(CONFIGS):
        repo.write(f"stacks/s{number}/main.tf", _stack(number))
    for number in range(CHANGED):
        repo.write(f"app/f{number}.sh", "echo a\n")
    repo.write("shared/d7x9/t-prod.tpl", "a\n")
    base = repo.commit("base")
    for number in range(CHANGED):
        repo.write(f"app/f{number}.sh", "echo b\n")
    repo.write("shared/d7x9/t-prod.tpl", "b\n")  # named by stacks/s7's pattern: still iac
    head = repo.commit("head")
    capsys.readouterr()

    def classified() -> str:
        assert main(["classify", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--format", "json"]) == 0
        return capsys.readouterr().out

    # b7942c9: ~6 s of CPU on this machine (300 x 256 patterns walked for each of 300 files); indexed: ~1 s. Since the
    # VM's restart (about half as fast) the indexed walk costs 2.5-3.3 s, the unindexed one would ~12.
    files = {f["path"]: f for f in json.loads(within_cpu(6.0, classified))["files"]}
    assert files["shared/d7x9/t-prod.tpl"]["bucket"] == "iac", files["shared/d7x9/t-prod.tpl"]
    assert {files[f"app/f{n}.sh"]["bucket"] for n in range(CHANGED)} == {"src"}
