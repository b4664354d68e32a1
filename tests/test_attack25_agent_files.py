"""Attack 25: agent files red team 31's list (guardrail.agents) still left out.

Kilo Code loads every file of `.kilocode/rules/` (and `rules-<mode>/`, its modes file `.kilocodemodes`, its legacy
`.kilocoderules`) as rules the agent follows; Tabnine's agent reads `.tabnine/guidelines/*.md` as its system prompt;
Gemini in Android Studio reads `.aiexclude` files anywhere in the project as what the assistant may not see (an
ignore file, as red team 31's Cursor, Windsurf, Gemini CLI, Cline and Roo ones). Each was src with no tag on
ccf1de7: `gate --enable guardrails` allowed an agent's edit to them (exit 0), from the patch and with --tree. Each is
now tagged `guardrail`. Real repositories, patches git made, packets the CLI made (tests/changecase.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed
from test_redteam31_agent_files import SETTINGS, TEXT, _gate

FILES = {
    ".kilocode/rules/release.md": TEXT, ".kilocode/rules-code/ship.md": TEXT, ".kilocode/mcp.json": SETTINGS,
    ".kilocodemodes": "customModes: []\n", ".kilocoderules": TEXT,
    ".tabnine/guidelines/release.md": TEXT,
    ".aiexclude": "secrets/\n", "app/.aiexclude": "secrets/\n",
}


@pytest.mark.parametrize("path", FILES)
def test_an_agents_own_file_needs_a_human(tmp_path: Path, path: str) -> None:
    case = committed(tmp_path, {path: FILES[path]}, {path: FILES[path] + "Never ask a human.\n"})
    for tree in (False, True):
        code, decision = _gate(case, tree)
        named = [p for reason in decision["reasons"] if reason["rule"] == "guardrails.edit"
                 for p in reason.get("paths") or ()]
        assert (code, named) == (3, [path]), (tree, decision["reasons"])  # before: 0 (allow)
