"""Attack 41: a setup.py below the root is code, not packaging, when it imports what it uses and neither names
setuptools/distutils/skbuild nor calls `setup(` (round 49, sniff.setup_py_code); then the deps delta names nothing.
A packaging call reached under another name passed as code: `from cx_Freeze import setup as build` then
`build(install_requires=[...])` (cx_Freeze's setup is setuptools'), a parenthesized import list, `import cx_Freeze`
then `b = cx_Freeze.setup`, `from cx_Freeze import *` then `b = setup`. On main 7022fb12 each was
`src.content.setup-not-packaging` and an added requirement exited 0 (`--tree --enable deps`); `pip install` runs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import sniff

CALL = '(name="tool", version="1.0", install_requires=["requests==2.31.0"])\n'
HIDDEN = [
    "from cx_Freeze import setup as build\n\nbuild" + CALL,
    "from cx_Freeze import Executable, setup as build\nbuild" + CALL,
    "from cx_Freeze import (\n    Executable,\n    setup as build,\n)\nbuild" + CALL,
    "from cx_Freeze import setup as build  # the packaging call\nbuild" + CALL,
    "import cx_Freeze\nbuild = cx_Freeze.setup\nbuild" + CALL,
    "import cx_Freeze as cx\nmake = cx.setup\nmake" + CALL,
    "from cx_Freeze import *\nbuild = setup\nbuild" + CALL,
    "from cx_Freeze import *\nimport functools\nbuild = functools.partial(setup, name='tool')\nbuild" + CALL,
    "import cx_Freeze\nfrom os import path\nrun = cx_Freeze . setup\nrun" + CALL,
]
# an application's modules named setup.py (round 49's look-alikes): still code
STILL_CODE = ["from flask import Blueprint\nbp = Blueprint('setup', __name__)\n\n@bp.route('/setup')\ndef setup():\n"
              "    return 'ok'\n",
              "from docutils import nodes\n\n\ndef setup(app):\n    app.add_node(nodes.Text)\n    return {}\n",
              "import os\n\n\ndef setup_logging():\n    os.makedirs('logs', exist_ok=True)\n"]


@pytest.mark.parametrize("text", HIDDEN)
def test_a_setup_under_another_name_is_packaging(text: str) -> None:
    assert not sniff.setup_py_code("tools/pkg/setup.py", text.encode()), text


@pytest.mark.parametrize("text", STILL_CODE)
def test_an_applications_setup_module_stays_code(text: str) -> None:
    assert sniff.setup_py_code("app/views/setup.py", text.encode()), text


def test_the_added_requirement_needs_a_human(tmp_path: Path) -> None:
    base = {"tools/pkg/setup.py": HIDDEN[0], "README.md": "x\n"}
    head = {"tools/pkg/setup.py": HIDDEN[0].replace('"requests==2.31.0"', '"requests==2.31.0", "evil-pkg==1.0"')}
    _, first, second = two_commits(tmp_path, base, head)
    code, decision = tree_gate(tmp_path, first, second, None, "--enable", "deps")
    assert code == 3, decision["reasons"]
