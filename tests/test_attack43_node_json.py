"""Attack 43: a `.json` name Node loads as a module.

ci left 69 made a JSON file a Node line requires data (`node -p "require('./pkg/package.json').version"`: parsed, its
scripts not run), by the name's ending read without case: `./data/site.JSON` was data. Node picks a loader by the
extension as spelled (`Module._extensions` holds `.json`, not `.JSON`): `require('./tools/meta.JSON')` runs the file as
JavaScript. On main 57b027c an edit of such a file that CI requires exited 0. The truth is real `node`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate

CODE = "require('fs').writeFileSync(process.env.MARK, 'x'); module.exports = {version: '1.0.0'}\n"
DATA = '{"version": "1.0.0"}\n'

# (the file's name, its text, the line CI runs)
LINES = ["VERSION=$(node -p \"require('./tools/{name}').version\")",
         "node -e \"console.log(require('./tools/{name}').version)\"",
         "node -p 'require(\"./tools/{name}\").version'"]
NAMES = [("meta.JSON", CODE), ("meta.Json", CODE), ("meta.jSoN", CODE), ("meta.JSon", CODE),
         # look-alikes: JSON Node parses
         ("meta.json", DATA)]

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="real node is the truth")


def _node_runs(tmp_path: Path, index: int, name: str, text: str, line: str) -> bool:
    work = tmp_path / f"w{index}"
    (work / "tools").mkdir(parents=True)
    (work / "tools" / name).write_text(text)
    mark = work / "ran"
    subprocess.run(["bash", "-c", line], cwd=work, env={**os.environ, "MARK": str(mark)}, capture_output=True,
                   timeout=60)
    return mark.exists()


@needs_node
def test_a_json_name_node_runs_as_code(tmp_path: Path) -> None:
    wrong = []
    for index, ((name, text), template) in enumerate((n, t) for n in NAMES for t in LINES):
        line = template.format(name=name)
        truth = _node_runs(tmp_path, index, name, text, line)
        assert truth == (text == CODE), (name, line)
        for definition, block in BLOCK_DEFINITIONS:
            indent = block.partition("{line}")[0].rpartition("\n")[2]
            body = line.replace("\\", "\\\\") if definition == "Jenkinsfile" else line
            runs = one_tree_runs({definition: block.format(line=body.replace("\n", f"\n{indent}")),
                                  f"tools/{name}": text, "README.md": "x\n"})
            assert isinstance(runs, dict)
            if (f"tools/{name}" in runs) != truth:
                wrong.append((definition, line))
    assert not wrong, f"{len(wrong)} wrong\n" + "\n".join(map(repr, wrong))


def test_the_edited_module_needs_a_human(tmp_path: Path) -> None:
    base = {".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line=LINES[0].format(name="meta.JSON")),
            "tools/meta.JSON": CODE, "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, {"tools/meta.JSON": CODE + "require('child_process');\n"})
    code, decision = tree_gate(tmp_path, first, second)
    assert code == 3, decision["reasons"]
