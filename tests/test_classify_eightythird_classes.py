"""Classes of misses the eighty-third label set found (bench/classify_accuracy/eightythird.tsv: 32 repositories weighted
to dependency files, measured blind first), each with the look-alikes it must leave alone: a Conan `conanfile.txt`
whose `[generators]` and `[layout]` sections hold lone words (`CMakeDeps`, `cmake_layout`) is Conan's manifest, not
an INI inventory of hosts (the content tier had raised it to `iac`); ESLint's bulk suppressions file
(`eslint-suppressions.json`) is linter state, `other`. The real repository below checks it with the
commits and from the patch."""

from __future__ import annotations

import itertools
from pathlib import Path

from tables import each_case

from gatekeeper.classify.ansible import ansible
from tests.gitrepo import GitRepo
from tests.test_classify_context import assert_path_rule, patch_files, tree_files


@each_case(("path", "bucket", "rule"), [
    # ESLint's bulk suppressions (eslint --suppress-all writes them; ESLint reads them from its folder): linter state
    ("eslint-suppressions.json", "other", "other.lint-format"),
    ("packages/firebase-auth/eslint-suppressions.json", "other", "other.lint-format"),
    ("apps/web/eslint-suppressions.json", "other", "other.lint-format"),
    # look-alikes: a module named so is code, and a suppressions file of another tool is not ESLint's
    ("src/eslint-suppressions.ts", "src", None),
    ("lib/eslint-suppressions.js", "src", None),
    ("eslint-suppressions.json.bak", "src", None),
])
def test_path_rules_of_the_eighty_third_round(path: str, bucket: str, rule: str | None) -> None:
    assert_path_rule(path, bucket, rule)


# Conan's sections, with the lone words that read like hosts (generators, layouts) and the references that do not.
SECTIONS = {
    "requires": ["fmt/9.1.0", "zlib/1.3.1", "boost/1.85.0#rev1"],
    "tool_requires": ["cmake/3.27.9"],
    "test_requires": ["gtest/1.14.0"],
    "generators": ["CMakeDeps", "CMakeToolchain", "PkgConfigDeps", "MesonToolchain", "VirtualRunEnv"],
    "layout": ["cmake_layout"],
    "options": ["fmt/*:shared=True", "*:fPIC=True"],
    "imports": ["bin, *.dll -> ./bin"],
}
LONE = ("generators", "layout")  # the sections whose values are lone words


def conanfile(order: tuple[str, ...], newline: str, comment: bool) -> str:
    parts = []
    for section in order:
        head = f"# {section} of the consumer{newline}" if comment else ""
        parts.append(head + f"[{section}]{newline}" + "".join(v + newline for v in SECTIONS[section]))
    return newline.join(parts)


def variants() -> list[tuple[str, str]]:
    """Every lone-word section with each other section before or after it, LF and CRLF, with and without comments,
    at the root, in an example and in a nested project."""
    out = []
    others = [s for s in SECTIONS if s not in LONE]
    for lone, other, newline, comment in itertools.product(LONE, others, ("\n", "\r\n"), (False, True)):
        for order in ((other, lone), (lone, other), (other, "generators", "layout")):
            for folder in ("", "example/", "libs/core/"):
                out.append((folder + "conanfile.txt", conanfile(tuple(dict.fromkeys(order)), newline, comment)))
    return out


@each_case(("path", "text"), variants())
def test_a_conanfile_is_no_inventory_of_hosts(path: str, text: str) -> None:
    assert ansible(path, text) is None


@each_case(("path", "text"), [
    # a section Conan does not have: an inventory group, whatever the file's name
    ("conanfile.txt", "[generators]\nCMakeDeps\n\n[webservers]\nweb1.example.internal\n"),
    ("conanfile.txt", "[webservers]\nweb1.example.internal http_port=80\n"),
    ("conanfile.txt", "[layout]\ncmake_layout\n[all:vars]\nansible_user=deploy\n"),
    ("conanfile.txt", "[generators]\nCMakeDeps\nweb1 ansible_host=127.0.0.1\n"),
    # Conan's sections under any other name are read as what Ansible would read
    ("hosts", "[generators]\nCMakeDeps\n"),
    ("inventory.ini", "[layout]\ncmake_layout\n"),
    ("conanfile.ini", "[generators]\nCMakeDeps\n"),
    ("conan/conanfile.txt.j2", "[generators]\nCMakeDeps\n"),
    ("Conanfile.txt", "[generators]\nCMakeDeps\n"),
])
def test_an_inventory_stays_an_inventory(path: str, text: str) -> None:
    found = ansible(path, text)
    assert found is not None and found[:2] == ("iac", "iac.content.ansible-inventory"), found


CONANFILE = """[requires]
fmt/10.2.1
spdlog/1.13.0

[generators]
CMakeDeps
CMakeToolchain

[layout]
cmake_layout
"""
FIXTURE = "[requires]\nhello/0.1\n\n[generators]\nCMakeDeps\n"
HOSTS = "[generators]\nbuild1.example.internal\n\n[layout]\nlayout1.example.internal\n"


def test_conanfiles_are_deps_in_a_real_repository(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("README.md", "# a C++ library built with CMake and Conan\n")
    git_repo.commit("base")
    git_repo.write("conanfile.txt", CONANFILE)
    git_repo.write("example/conanfile.txt", CONANFILE.replace("\n", "\r\n"))
    git_repo.write("tests/resources/subdir/conanfile.txt", FIXTURE)
    git_repo.write("ops/inventory/hosts", HOSTS)
    git_repo.commit("head")
    want = {"conanfile.txt": "deps", "example/conanfile.txt": "deps",
            "tests/resources/subdir/conanfile.txt": "src", "ops/inventory/hosts": "iac"}
    files = tree_files(git_repo)
    assert {path: files[path].bucket for path in want} == want
    assert files["conanfile.txt"].rule == "deps.conan.manifest"
    patched = patch_files(git_repo, tmp_path)
    assert {path: patched[path].bucket for path in want} == want
