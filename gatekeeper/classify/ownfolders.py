"""A script's own folder, written as that folder (attack 47, tests/test_attack47_own_folders.py).

`$PSScriptRoot`, `$(dirname "$0")`, `${BASH_SOURCE%/*}` and cmd's `%~dp0` are the folder of the script that holds
them. Read as `.`, they were resolved from the repository's root as well as the script's folder (ciruns.resolved),
so `Get-ChildItem "$PSScriptRoot\\*.ps1" | % { & $_ }` in `build/all.ps1` made every `*.ps1` of the repository `ci`
(label80's over-read). In a PowerShell or cmd script they are now its folder's path. A shell script's forms are still
`.` (resolved from the root too: `bash "$(dirname "$0")/a.sh"` names the root's `a.sh`; shellvars.py reads them), as
in a YAML `run:`, whose `$0` is the step's own shell file.
"""

from __future__ import annotations

import re

from gatekeeper.lazy_pattern import lazy

__all__ = ["DIRNAME", "localized"]

# A script's own folder (`$(dirname "$0")`, `$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)`, `${0%/*}`)
_OWN = r"""\$\(dirname[ \t]+["']?\$(?:0|\{0\}|\{?BASH_SOURCE(?:\[0\])?\}?)["']?\)"""
DIRNAME = lazy(rf"""\$\(cd[ \t]+["']?{_OWN}["']?(?:[ \t]*&&[ \t]*pwd(?:[ \t]+-P)?)?\)|{_OWN}"""
            r"|\$\{0%/\*\}|\$\{BASH_SOURCE(?:\[0\])?%/\*\}")
_PS_ROOT = lazy(r"\$(?:PSScriptRoot\b|\{PSScriptRoot\})", re.IGNORECASE)
_CMD_ROOT = lazy(r"%~dp0\\?+", re.IGNORECASE)
_POWERSHELL = (".ps1", ".psm1")
_CMD = (".cmd", ".bat")
_TOX = ("tox.ini", "tox.toml")
_TOX_ROOT = lazy(r"\{(?:toxinidir|tox_root|/)\}")


def localized(path: str, text: str) -> str:
    """`text` of the file at `path` with its own folder's expressions as that folder (`.` at the root); PowerShell's
    `\\` as `/` (its escape is the backtick: `$PSScriptRoot\\x.ps1` is `x.ps1` there, over-reads 1)."""
    folder, _, name = path.rpartition("/")
    folder = folder or "."
    lower = name.lower()
    if lower.endswith(_POWERSHELL):
        text = text.replace("\\", "/") if "\\" in text else text
        return _PS_ROOT.sub(folder, text) if "PSScriptRoot" in text or "psscriptroot" in text.lower() else text
    if lower in _TOX:  # tox's own folder, and its separator: `changedir = {toxinidir}{/}tests` (the label93 round)
        return _TOX_ROOT.sub(lambda found: "/" if found.group() == "{/}" else folder, text) if "{" in text else text
    if lower.endswith(_CMD):
        return _CMD_ROOT.sub(lambda _: f"{folder}\\", text) if "%~" in text else text
    return text  # a shell script's `$(dirname "$0")`: shellvars.py reads its forms
