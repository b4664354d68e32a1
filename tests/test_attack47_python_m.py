"""Attack 47: `python -m tools.mod` imports `tools/__init__.py` and `tools/mod/__init__.py` before `__main__.py`; only
the module's file and `__main__.py` were read, and an edit to the package's `__init__.py` was exit 0 on f0c3df6e. Real
python is the truth of what it imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from citools import LINE_DEFINITIONS, tree_runs, with_line
from gitrepo import two_commits
from incli import tree_gate
from tables import each_case

FILES = {"tools/__init__.py": "", "tools/mod/__init__.py": "", "tools/mod/__main__.py": "", "tools/rel.py": "",
         "tools/other/__init__.py": "", "src/app/__init__.py": "", "toolsx/__init__.py": ""}
# (the line, a file it imports)
RUNS = [("python -m tools.mod", "tools/mod/__init__.py"), ("python3 -m tools.mod --push", "tools/__init__.py"),
        ("python -m tools.rel", "tools/__init__.py"), ("uv run python -m tools.mod", "tools/mod/__init__.py"),
        ("poetry run python -m tools.mod", "tools/mod/__init__.py"),
        ("python -u -m tools.mod", "tools/mod/__init__.py")]


def test_python_imports_each_package_first(tmp_path: Path) -> None:
    for path in FILES:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(f"print({path!r})\n")
    done = subprocess.run([sys.executable, "-m", "tools.mod"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["tools/__init__.py", "tools/mod/__init__.py", "tools/mod/__main__.py"]


@each_case(("definition", "template", "line", "target"), [(*d, *run) for d in LINE_DEFINITIONS[:3] for run in RUNS])
def test_the_packages_on_the_way_are_ci(definition: str, template: str, line: str, target: str) -> None:
    assert target in tree_runs(with_line(definition, template, line, FILES))


@each_case("target", ["tools/other/__init__.py", "src/app/__init__.py", "toolsx/__init__.py"])
def test_other_packages_stay_src(target: str) -> None:
    assert target not in tree_runs(with_line(*LINE_DEFINITIONS[0], "python -m tools.mod", FILES))


def test_the_edit_needs_a_human(tmp_path: Path) -> None:
    base = {**FILES, LINE_DEFINITIONS[0][0]: LINE_DEFINITIONS[0][1].format(line="python -m tools.mod")}
    _, first, second = two_commits(tmp_path / "repo", base, {"tools/mod/__init__.py": "import os\nos.system('id')\n"})
    code, decision = tree_gate(tmp_path / "repo", first, second, None)
    assert code == 3, decision["reasons"]
