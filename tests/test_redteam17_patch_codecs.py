"""Red team 17, deps: red team 16's open limit, a requirements file's `coding:` declaration the patch does not show.

pip decodes a requirements file by a PEP 263 declaration in its first two lines; red team 16 made the delta do the
same, and from a patch it counts when a hunk shows it. A base that already declares `# -*- coding: utf-7 -*-`, and a
change far below it (`flask==3.0.1  # pinned +AAo-evil==1.0`: `+AAo-` is a line break in UTF-7), gave a patch whose
hunk shows neither line: for the delta a bump of flask, for pip a bump and `evil==1.0`. `gate PACKET --patch PATCH
--enable deps` said allow (exit 0; with the commits 3). A changed line that a line-breaking codec (UTF-7,
`unicode_escape`, `raw_unicode_escape`) reads as more than one line is now a partial problem from the patch alone
(`deps.unreadable`, exit 3): run with --tree. pip's own parser is the truth for the hidden line.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from gitrepo import two_commits
from tables import each_case

from gatekeeper.cli import main

with contextlib.suppress(ImportError):
    import setuptools  # noqa: F401  (before pip's distutils: tests/test_redteam16_requirements_lines.py)
req_file = pytest.importorskip("pip._internal.req.req_file")
pip_session = pytest.importorskip("pip._internal.network.session")

FILLER = "".join(f"pkg{i}==1.0\n" for i in range(8))  # keeps the first lines out of the hunk
HIDDEN = {"utf-7": "# pinned +AAo-evil==1.0", "utf-7 unterminated": "# pinned +AAo evil==1.0",
          "unicode_escape": "# pinned \\nevil==1.0", "raw_unicode_escape": "# pinned \\u000aevil==1.0"}


def _gate_patch(tmp_path: Path, base: str, head: str) -> tuple[int, list[dict[str, object]], Path]:
    repo, old, new = two_commits(tmp_path / "repo", {"requirements.txt": base}, {"requirements.txt": head})
    patch, packet = tmp_path / "change.diff", tmp_path / "packet.json"
    patch.write_bytes(repo.git("diff", "--binary", old, new))
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["packet", str(patch), "--out", str(packet)]) == 0
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["gate", str(packet), "--patch", str(patch), "--format", "json", "--enable", "deps"])
    return code, json.loads(out.getvalue())["reasons"], repo.root / "requirements.txt"


@each_case("variant", HIDDEN)
def test_a_hidden_line_under_a_declaration_the_patch_leaves_out_is_reviewed(tmp_path: Path, variant: str) -> None:
    declaration = f"# -*- coding: {variant.split()[0]} -*-\n"
    code, reasons, head = _gate_patch(tmp_path, f"{declaration}{FILLER}flask==3.0.0\n",
                                      f"{declaration}{FILLER}flask==3.0.1  {HIDDEN[variant]}\n")
    parsed = req_file.parse_requirements(str(head), session=pip_session.PipSession())
    names = {r.requirement.partition("==")[0] for r in parsed}
    assert "evil" in names  # what pip installs
    assert code == 3, reasons
    assert [(r["rule"], r["paths"]) for r in reasons] == [("deps.unreadable", ["requirements.txt"])]


@pytest.mark.parametrize("line", ["torch==2.1.0+cu118", "jaxlib==0.4.1+cuda11.cudnn86", "six==1.16.0  # C:\\pins"])
def test_a_local_version_or_a_backslash_stays_an_explained_bump(tmp_path: Path, line: str) -> None:
    old = line.replace("2.1.0", "2.0.0").replace("0.4.1", "0.4.0").replace("1.16.0", "1.15.0")
    code, reasons, _ = _gate_patch(tmp_path, f"# pins\n{FILLER}{old}\n", f"# pins\n{FILLER}{line}\n")
    assert "deps.unreadable" not in {r["rule"] for r in reasons}, reasons
    assert code == 0, reasons
