"""Red team 14: the content proofs that lower a `setup.py` or `setup.cfg` from `deps` read them otherwise than
setuptools and Python do.

The `deps` policy reviews a `setup.cfg` or `setup.py` change no dependency delta explains (no parser reads them), so
the lowering (lowering.py) is the whole of its protection: a file lowered to `src`/`other` queues normally. The proof
was a handful of regular expressions; setuptools reads `setup.cfg` with configparser (a section header may carry text
after its `]`, or be indented; keys are lowercased and their dashes made underscores) and Python normalizes its
identifiers (NFKC: `ſetup` is `setup`) and joins lines inside brackets or after a backslash. Each attack below was
lowered and allowed; setuptools 84 reads `evil-dep` as a requirement of every `setup.cfg` here
(test_setuptools_reads_the_requirement checks that with the setuptools installed beside the tests, when there is one).
"""

from __future__ import annotations

import configparser
import warnings
from pathlib import Path

import pytest
from tables import each_case
from test_classify_context import RULES
from test_deps_gate import Case, Cases, gate, together, unreviewed

from gatekeeper.classify.setupcfg import setup_cfg
from gatekeeper.classify.sniff import sniff

TOOLS = "[flake8]\nmax-line-length = 100\n\n[isort]\nprofile = black\n"
CFG_ATTACKS = {
    "a header with text after its ], an uppercase key": TOOLS + "\n[options]  # runtime\nInstall_Requires =\n"
                                                            "    evil-dep>=1\n",
    "a header with text after its ], a dashed key": TOOLS + "\n[options]x\ninstall-requires = evil-dep>=1\n",
    "an indented header first, a dashed key": " [options]\n install-requires = evil-dep>=1\n\n" + TOOLS,
    "an indented metadata header, a dashed key": " [options.extras_require]\nEXTRA = evil-dep>=1\n\n" + TOOLS,
    # git calls the file binary, and the content reader stops at the NUL (kubectl's YAML reader does); configparser
    # reads on
    "a NUL byte before the packaging": TOOLS.replace("black", "black\0") + "\n[options]\ninstall_requires = evil-dep\n",
    "the packaging key from [DEFAULT]": "[DEFAULT]\nInstall_Requires = evil-dep>=1\n\n" + TOOLS
                                        + "\n[options]  # zip\nzip_safe = false\n",
}
PY_ATTACKS = {
    "NFKC identifiers": 'DOCUMENTATION = """a module"""\nfrom ſetuptools import ſetup\n\n'
                        'ſetup(name="x", install_requires=["evil-dep"])\n',
    "fullwidth identifiers": "import os\nfrom ｓｅｔｕｐｔｏｏｌｓ import ｓｅｔｕｐ\n\n"
                             "ｓｅｔｕｐ(name='x', install_requires=['evil-dep'])\n",
    "a backslash before (": "import importlib\n\nst = importlib.import_module('setup' 'tools')\n"
                            "st.setup \\\n    (name='x', install_requires=['evil-dep'])\n",
    "a newline inside brackets": "import importlib\n\nst = importlib.import_module('setup' 'tools')\n"
                                 "(st.setup\n    (name='x', install_requires=['evil-dep']))\n",
    "a call through getattr": "import sys\n\nst = sys.modules['setup' 'tools']\n"
                              "getattr(st, 'set' 'up')(name='x', install_requires=['evil-dep'])\n",
    "a call through __import__": "import os\n\n__import__('setup' 'tools').__dict__['set' 'up'](name='x')\n",
    "a call through pkgutil": "import pkgutil\n\npkgutil.resolve_name('setup' 'tools:set' 'up')(name='x')\n",
    "a call through a pickle": "import pickle\n\npickle.loads(b'csetup' b'tools\\nsetup\\n(tR.')\n",
}
# A module of code for its first 8 KiB (the window sniff reads) or 64 KiB (what a patch's section keeps), then
# packaging.
VIEW = "from flask import render_template\n\n\ndef setup():\n    return render_template('setup.html')\n"
PACKAGING = "\nfrom setuptools import setup\n\nsetup(name='x', install_requires=['evil-dep'])\n"
PY_ATTACKS |= {
    "packaging after the first 8 KiB": VIEW + "PAGES = 1\n" * 1000 + PACKAGING,
    "packaging after the first 64 KiB": VIEW + "PAGES = 1\n" * 7000 + PACKAGING,
}


def _cases() -> Cases:
    cases: Cases = {}
    for name, text in CFG_ATTACKS.items():
        cases[f"setup.cfg: {name}"] = ({"setup.cfg": TOOLS}, {"setup.cfg": text})
    for name, text in PY_ATTACKS.items():
        cases[f"setup.py: {name}"] = ({"README.md": "lib\n"}, {"lib/setup.py": text})  # added: one side to prove
    return cases


@pytest.mark.parametrize("tree", [False, True], ids=["patch", "tree"])
def test_a_disguised_setup_file_is_not_lowered(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               tree: bool) -> None:
    base, head, paths = together(_cases())
    # The root's setup.py added as an "Ansible module": pip runs the root's setup.py whatever it holds.
    head["setup.py"] = 'DOCUMENTATION = """a module"""\nimport os\n\nos.system("pip install evil-dep")\n'
    paths["the root's setup.py as an Ansible module"] = {"setup.py"}
    decision = gate(capsys, Case(tmp_path, base, head), tree)
    assert decision["outcome"] == "review", decision["reasons"]
    missed = unreviewed(decision, paths)
    assert not missed, sorted(missed)


@each_case("text", CFG_ATTACKS.values(), ids=CFG_ATTACKS.keys())
def test_no_tools_only_proof_for_a_setup_cfg_setuptools_reads_a_requirement_from(text: str) -> None:
    assert setup_cfg(text) is None


@each_case("text", PY_ATTACKS.values(), ids=PY_ATTACKS.keys())
def test_no_proof_for_a_setup_py_that_reaches_setuptools(text: str) -> None:
    assert sniff("lib/setup.py", text.encode(), RULES.context) is None


def test_setuptools_reads_the_requirement(tmp_path: Path) -> None:
    """The truth for CFG_ATTACKS: setuptools' own reading (configparser as setuptools sets it up)."""
    dist = pytest.importorskip("setuptools.dist")
    for name, text in CFG_ATTACKS.items():
        cfg = tmp_path / f"{len(name)}.cfg"
        cfg.write_text(text)
        found = dist.Distribution()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # setuptools warns of the uppercase and dashed keys it still reads
            found.parse_config_files([str(cfg)])
        assert "evil-dep" in str(found.command_options.get("options", {}) | found.command_options.get(
            "options.extras_require", {})), (name, found.command_options)


@each_case("text", [
    TOOLS, "[tool:pytest]\naddopts = -q\n\n[coverage:run]\nbranch = true\n",
    "[flake8]\nmax-line-length = 100\n# [options] in a comment\n",
])
def test_a_tools_only_setup_cfg_is_still_other(text: str) -> None:
    found = setup_cfg(text)
    assert found is not None and found[1] == "other.content.setup-cfg-tools"
    assert configparser.ConfigParser().read_string(text) is None  # what setuptools would read without error
