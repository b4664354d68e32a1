"""Red team 18: PEP 723 inline script metadata is a dependency manifest.

`uv run tools/report.py` (and `pipx run`, `hatch run`, `pdm run`) installs what the script's `# /// script` block
declares before running it. An edit adding `"evil-pkg==1.0"` to that block was `src`: `gate --enable deps` said allow
(exit 0) with `--tree` and from the patch; now the script is `deps` (`deps.content.inline-script-metadata`) and the
deps policy reviews it (exit 3). Variants: the block at the top, after a shebang and a docstring, with CRLF line ends,
a block whose header the patch's hunk does not show (its `# dependencies =` line does), an added script. A Python file
without the block stays `src`.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from gitrepo import GitRepo, two_commits
from incli import run_cli, tree_gate

from gatekeeper.classify.inlinemeta import signal

BLOCK = '# /// script\n# requires-python = ">=3.11"\n# dependencies = [\n#   "requests<3",\n# ]\n# ///\n'
SCRIPTS = {  # name: (path, base text or None for an added script)
    "top": ("tools/report.py", BLOCK + "import requests\n"),
    "docstring": ("scripts/fetch.py", '#!/usr/bin/env -S uv run\n"""Fetch."""\n' + BLOCK + "print(1)\n"),
    "crlf": ("scripts/win.py", (BLOCK + "print(1)\n").replace("\n", "\r\n")),
    "long-block": ("scripts/long.py", "# /// script\n" + "".join(f"# x{i} = 1\n" for i in range(12))
                   + '# dependencies = [\n#   "six",\n# ]\n# ///\nprint(1)\n'),
    "added": ("scripts/new.py", None),
}
EVIL = '#   "evil-pkg==1.0",\n'


def _repo(tmp: Path) -> tuple[Path, str, str]:
    base = {path: text for path, text in SCRIPTS.values() if text is not None}
    base["src/plain.py"] = "print(1)\n"
    head = {path: text.replace("# ]", EVIL + "# ]") for path, text in base.items() if path != "src/plain.py"}
    head["scripts/win.py"] = base["scripts/win.py"].replace("# ]\r\n", EVIL.replace("\n", "\r\n") + "# ]\r\n")
    head["scripts/new.py"] = BLOCK.replace("# ]", EVIL + "# ]") + "print(1)\n"
    head["src/plain.py"] = "print(2)\n"
    repo, old, new = two_commits(tmp / "repo", base, head)
    return repo.root, old, new


@pytest.mark.parametrize("mode", ["tree", "patch"])
def test_the_deps_gate_reviews_inline_dependencies(tmp_path: Path, mode: str) -> None:
    root, old, new = _repo(tmp_path)
    if mode == "tree":
        code, decision = tree_gate(root, old, new, None, "--enable", "deps")
    else:
        patch, packet = tmp_path / "change.diff", tmp_path / "packet.json"
        patch.write_bytes(GitRepo(root).git("diff", "--binary", old, new))
        with contextlib.chdir(root):
            assert run_cli(["packet", patch, "--out", packet]).returncode == 0
        done = run_cli(["gate", packet, "--patch", patch, "--format", "json", "--enable", "deps"], text=True)
        code, decision = done.returncode, json.loads(done.stdout)
    assert code == 3, decision["reasons"]
    reviewed = {path for reason in decision["reasons"] for path in reason.get("paths", ())}
    assert {path for path, _ in SCRIPTS.values()} <= reviewed, reviewed
    assert "src/plain.py" not in reviewed


def test_the_block_as_pep_723_finds_it() -> None:
    assert signal(BLOCK.encode()) is not None
    assert signal(b"# ///script\nprint(1)\n") is None  # PEP 723 needs the space
    assert signal(b"x = '# /// script'\n") is None  # not a comment line
