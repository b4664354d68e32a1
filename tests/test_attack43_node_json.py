"""Attack 43: a `.json` name Node loads as a module.

ci left 69 made a JSON file a Node line requires data (`node -p "require('./pkg/package.json').version"`: parsed, its
scripts not run), by the name's ending read without case: `./data/site.JSON` was data. Node picks a loader by the
extension as spelled (`Module._extensions` holds `.json`, not `.JSON`): `require('./tools/meta.JSON')` runs the file as
JavaScript. And a `.json` name that is a symlink to a module (`tools/link.json -> gen.js`): Node resolves the link and
picks the loader by the target's extension, so `gen.js` runs. On main 57b027c an edit of such a file that CI requires
exited 0. The truth is real `node`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, POLICIES, one_tree_runs
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import treereads
from gatekeeper.classify.ciwalk import ci_runs
from gatekeeper.classify.ruleset import load_rules
from gatekeeper.gitobjects import TreeEntry

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
        if template is LINES[0]:  # node once a name (its start costs ~0.4 CPU-s): the line forms load alike
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


# (the link's name below tools/, its target, the file the target is): Node runs the target
LINKS = [("link.json", "gen.js", "tools/gen.js"), ("link.json", "gen.cjs", "tools/gen.cjs"),
         ("meta/link.json", "../gen.js", "tools/gen.js"), ("link.json", "lib/x.js", "tools/lib/x.js")]


def _linked_runs(files: dict[str, str], links: dict[str, str]) -> dict[str, tuple[str, str]] | bool:
    """ci_runs of a one-tree repository holding `files` and the symlinks `links` (path: target)."""
    tree = {path: TreeEntry("100644", f"{index:040x}") for index, path in enumerate(files)}
    tree |= {path: TreeEntry("120000", f"{index + len(files):040x}") for index, path in enumerate(links)}
    blobs = {tree[path].oid: text.encode() for path, text in (*files.items(), *links.items())}

    def read(entry: TreeEntry) -> bytes:
        return blobs[entry.oid]
    actions = treereads.local_actions((tree,), read)
    return ci_runs((tree,), read, actions if isinstance(actions, dict) else {}, load_rules(POLICIES))


@needs_node
def test_a_json_name_linked_to_a_module_runs_it(tmp_path: Path) -> None:
    wrong = []
    for index, ((link, target, real), template) in enumerate((k, t) for k in LINKS for t in LINES[:2]):
        line = template.format(name=link)
        if template is LINES[0]:
            work = tmp_path / f"l{index}"
            (work / real).parent.mkdir(parents=True, exist_ok=True)
            (work / real).write_text(CODE)
            (work / "tools" / link).parent.mkdir(parents=True, exist_ok=True)
            (work / "tools" / link).symlink_to(target)
            mark = work / "ran"
            subprocess.run(["bash", "-c", line], cwd=work, env={**os.environ, "MARK": str(mark)},
                           capture_output=True, timeout=60)
            assert mark.exists(), (link, target, line)
        for definition, block in BLOCK_DEFINITIONS:
            body = line.replace("\\", "\\\\") if definition == "Jenkinsfile" else line
            runs = _linked_runs({definition: block.format(line=body), real: CODE, "README.md": "x\n"},
                                {f"tools/{link}": target})
            assert isinstance(runs, dict)
            if f"tools/{link}" not in runs:  # the link is CI's: the gate classifies its target with it
                wrong.append((definition, line, target))
    assert not wrong, f"{len(wrong)} wrong\n" + "\n".join(map(repr, wrong))


def test_a_json_file_a_module_requires_stays_data() -> None:
    """The look-alike: a regular JSON file (and its package.json's scripts) a module requires is not named."""
    runs = one_tree_runs({BLOCK_DEFINITIONS[0][0]: BLOCK_DEFINITIONS[0][1].format(line="node tools/ver.js"),
                          "tools/ver.js": "console.log(require('./pkg/package.json').version)\n",
                          "tools/pkg/package.json": '{"scripts": {"x": "sh run.sh"}}\n', "tools/pkg/run.sh": "id\n"})
    assert isinstance(runs, dict)
    assert "tools/ver.js" in runs and "tools/pkg/package.json" not in runs and "tools/pkg/run.sh" not in runs


def test_the_edited_link_target_needs_a_human(tmp_path: Path) -> None:
    """Real git: a workflow requires `tools/link.json`, a symlink to gen.js; an edit of gen.js is CI's."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-c", "user.email=a@example.com", "-c", "user.name=a", *args], cwd=tmp_path,
                              check=True, capture_output=True, text=True).stdout.strip()
    git("init", "-q")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(BLOCK_DEFINITIONS[0][1].format(
        line=LINES[0].format(name="link.json")))
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "gen.js").write_text(CODE)
    (tmp_path / "tools" / "link.json").symlink_to("gen.js")
    git("add", "-A")
    git("commit", "-qm", "base")
    (tmp_path / "tools" / "gen.js").write_text(CODE + "require('child_process');\n")
    git("commit", "-qam", "edit")
    code, decision = tree_gate(tmp_path, git("rev-parse", "HEAD~1"), git("rev-parse", "HEAD"))
    assert code == 3, decision["reasons"]
