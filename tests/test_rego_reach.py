"""Each Rego test file is built with only the modules it can reach (`reached_modules`): never fewer than it reads.

The attacks: a test that reads a module some way the reference scan could miss would pass when that module is left
out (`not <its rule>` is true of an undefined rule). Every test below reads a module whose `flag` is true, so it must
FAIL; with the flag false the same test passes, so the failure comes from the module being there. Each attack is its
own test file: a file that reads `data` whole keeps every module for all its tests, which would hide the others.
(A test cannot read `data` whole as an operand, `walk(data, ...)`: its own rule is in it, a recursion error.)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gatekeeper.policy.bundle import load_bundle
from gatekeeper.testing.rego_source import reached_modules
from gatekeeper.testing.rego_tests import discover_test_files, is_test_module, run_test_files

REPO_ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = REPO_ROOT / "policies"

POLICY = """# METADATA
# title: Demo
# description: Reviews CI files.
# custom:
#   version: 1.0.0
#   owner: security
#   rules: [demo.ci]
package gatekeeper.policies.demo

import rego.v1

review contains {"rule": "demo.ci", "msg": "ci files changed"} if {
\tsome f in input.files
\tf.bucket == "ci"
}
"""

# The modules the attacks read, each only by one route. FLAG is replaced by true or false.
MODULES = {
    "lib/other.rego": "package gatekeeper.lib.other\n\nimport rego.v1\n\nflag := FLAG\n",
    # read only through lib/chain.rego's reference, never by a test file itself
    "lib/deep.rego": "package gatekeeper.lib.deep\n\nimport rego.v1\n\nvalue := FLAG\n",
    "lib/chain.rego": "package gatekeeper.lib.chain\n\nimport rego.v1\n\nchained if data.gatekeeper.lib.deep.value\n",
    # a rule of the test file's own package, defined in another file
    "lib/same.rego": "package gatekeeper.policies.same_test\n\nimport rego.v1\n\nhelper := FLAG\n",
    # a module whose package lies ABOVE the reference `data.gatekeeper.lib.upper.flag`: its rule's head is a path
    "lib/upper.rego": "package gatekeeper.lib\n\nimport rego.v1\n\nupper.flag := FLAG\n",
}

ATTACKS = {
    "whole_data": ("gatekeeper.policies.whole_test", 'not data["gatekeeper"].lib.other.flag'),
    "object_get": ("gatekeeper.policies.get_test", 'object.get(data.gatekeeper.lib, ["other", "flag"], 0) != true'),
    "walk": ("gatekeeper.policies.walk_test", 'count([v | walk(data.gatekeeper.lib, [p, v]); v == "MARK"]) == 0'),
    "parent_alias": ("gatekeeper.policies.alias_test", "not gk.lib.other.flag", "import data.gatekeeper as gk"),
    "dynamic_key": ("gatekeeper.policies.key_test", 'not data.gatekeeper.lib[concat("", ["oth", "er"])].flag'),
    "chain": ("gatekeeper.policies.chain_test", "not data.gatekeeper.lib.chain.chained"),
    "same_package": ("gatekeeper.policies.same_test", "not helper"),
    "ref_head": ("gatekeeper.policies.head_test", "not data.gatekeeper.lib.upper.flag"),
}


def make_bundle(root: Path, flag: bool) -> Path:
    root.mkdir(parents=True)
    (root / ".manifest").write_text(json.dumps({
        "revision": "test-1", "roots": ["gatekeeper"],
        "metadata": {"name": "reach", "policies": {"demo": {"default": True}}, "params": {}},
    }))
    shutil.copy(POLICY_DIR / "classification.yaml", root / "classification.yaml")
    (root / "demo").mkdir()
    (root / "demo" / "policy.rego").write_text(POLICY)
    (root / "lib").mkdir()
    for name, text in MODULES.items():
        (root / name).write_text(text.replace("FLAG", json.dumps(flag)))
    # `walk` looks for a value, so the marker module holds one only when the flag is on
    (root / "lib" / "mark.rego").write_text(
        "package gatekeeper.lib.mark\n\nimport rego.v1\n\nvalue := " + ('"MARK"' if flag else '"none"') + "\n")
    for attack, (package, body, *imports) in ATTACKS.items():
        header = "\n".join(["import rego.v1", *imports])
        (root / "demo" / f"{attack}_test.rego").write_text(
            f"package {package}\n\n{header}\n\ntest_{attack} if {{\n\t{body}\n}}\n")
    return root


@pytest.mark.parametrize("flag", [True, False])
def test_every_module_a_test_reads_is_built_with_it(tmp_path: Path, flag: bool) -> None:
    bundle = load_bundle(make_bundle(tmp_path / "b", flag), lint_tests=False)
    results = run_test_files(bundle, discover_test_files(bundle), candidates=frozenset({"demo.ci"}), timeout=20)
    got = {r.name: r.status for r in results}
    expected = "fail" if flag else "pass"
    assert got == {f"test_{attack}": expected for attack in ATTACKS}, got


def _modules(root: Path) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    bundle = load_bundle(root, lint_tests=False)
    modules = {name: text for name, text in bundle.modules.items() if not is_test_module(name)}
    files = {Path(f.shown).name if root != POLICY_DIR else Path(f.shown).parent.name:  # the attack, the policy
             (f.source, f.package or "") for f in discover_test_files(bundle)}
    return modules, files


def test_the_scan_keeps_what_each_attack_reads_and_everything_for_data_whole(tmp_path: Path) -> None:
    modules, files = _modules(make_bundle(tmp_path / "b", True))
    kept = {name: {Path(m).relative_to(tmp_path / "b").as_posix() for m in reached_modules(modules, *files[name])}
            for name in files}
    everything = {Path(m).relative_to(tmp_path / "b").as_posix() for m in modules}
    library = {f"lib/{n}.rego" for n in ("other", "deep", "chain", "upper", "mark")}  # under data.gatekeeper.lib
    assert kept["whole_data_test.rego"] == everything  # `data[...]`: data read whole
    assert kept["parent_alias_test.rego"] == everything  # all of data.gatekeeper
    for name in ("object_get", "walk", "dynamic_key"):  # what a function or a computed key reads under a prefix
        assert kept[f"{name}_test.rego"] == library, name
    assert kept["chain_test.rego"] == {"lib/chain.rego", "lib/deep.rego", "lib/upper.rego"}  # upper: package above
    assert kept["same_package_test.rego"] == {"lib/same.rego"}
    assert kept["ref_head_test.rego"] == {"lib/upper.rego"}


def test_a_module_above_the_reference_and_one_without_a_package_are_kept() -> None:
    upper = "package gatekeeper.lib\n\nimport rego.v1\n\nupper.flag := true\n"
    unrelated = "package gatekeeper.policies.other\n\nimport rego.v1\n\nx := 1\n"
    test = "package gatekeeper.policies.t_test\n\nimport rego.v1\n\ntest_x if { not data.gatekeeper.lib.upper.flag }\n"
    assert reached_modules({"u.rego": upper, "o.rego": unrelated}, test, "gatekeeper.policies.t_test") == {
        "u.rego": upper}
    no_package = "import rego.v1\n\nx := 1\n"
    with_none = {"u.rego": upper, "o.rego": unrelated, "n.rego": no_package}
    assert reached_modules(with_none, test, "gatekeeper.policies.t_test") == with_none


def test_comments_strings_and_fields_named_data_read_nothing() -> None:
    other = "package gatekeeper.policies.other\n\nimport rego.v1\n\nx := 1\n"
    test = ('package gatekeeper.policies.t_test\n\nimport rego.v1\n\n# reads `data` whole? no: a comment\n'
            'test_x if {\n\ts := "data and data.gatekeeper.policies.other"\n\tobj := {"data": 1}\n'
            '\tobj.data == 1\n\ts != ""\n}\n')
    assert reached_modules({"o.rego": other}, test, "gatekeeper.policies.t_test") == {}


def test_the_shipped_test_files_each_reach_their_policy_and_the_library_only() -> None:
    """The speed-up itself: each shipped test file builds three of the bundle's eight modules (it would go unseen if
    the scan kept everything, the safe side)."""
    modules, files = _modules(POLICY_DIR)
    assert len(files) == 6
    for name, (source, package) in files.items():
        policy = package.removeprefix("gatekeeper.policies.").removesuffix("_test")
        kept = {Path(m).relative_to(POLICY_DIR).as_posix() for m in reached_modules(modules, source, package)}
        assert kept == {f"{policy}/policy.rego", "lib/findings.rego", "lib/testing.rego"}, name
