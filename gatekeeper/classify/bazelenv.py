"""Bazel environment lines that point the build's tools at other programs or hosts (issue 12, the classes56 round).

`--repo_env=NAME=VALUE` sets a variable for every repository rule (the rules that find the C++ compiler, Python, the
JDK, and that download), `--action_env` and `--host_action_env` for every build action. Decided by what the line does,
as the hook lines are (platformshapes.bazel_line):

- **runs a program** (`ci`, as `--workspace_status_command`): a variable that names the program or the folders
  programs are found in: `CC`, `CXX`, `LD`, `PATH`, `BAZEL_SH`, `BAZEL_LLVM`, `PYTHON_BIN_PATH`, `JAVA_HOME`,
  `LD_PRELOAD`, and any `*_BIN`, `*_BIN_PATH`, `*_BINARY`, `*_COMPILER`, `*_EXECUTABLE`, `*_WRAPPER`, `*_HOME`. A
  repository file such a line names (`--repo_env=CC=%workspace%/tools/cc_wrapper.sh`) is `ci` too (bazelhooks.named).
- **changes what the build fetches** (`deps`, as `--registry`): a proxy, index, registry or mirror variable
  (`HTTPS_PROXY`, `GOPROXY`, `GOSUMDB`, `PIP_INDEX_URL`, `NPM_CONFIG_REGISTRY`, any `*_URL`, `*_MIRROR`, `*_REGISTRY`,
  `*_PROXY`), or any value that is a URL.

A line without a value (`--action_env=CC`) passes the caller's variable through and names nothing; other variables
(`LANG`, `TMPDIR`, `CGO_ENABLED`, a test's `--test_env`) are neither.
"""

from __future__ import annotations

from gatekeeper.classify.bazelrc import RcLine, option_values

ENV_OPTIONS = ("repo_env", "action_env", "host_action_env")
_PROGRAMS = frozenset({
    "CC", "CXX", "CPP", "LD", "AR", "AS", "NM", "STRIP", "OBJCOPY", "OBJDUMP", "GCOV", "LLVM_CONFIG", "PATH", "SHELL",
    "BAZEL_SH", "BAZEL_LLVM", "BAZEL_VC", "BAZEL_VS", "BAZEL_PYTHON", "PYTHON", "PYTHON3", "JAVA", "JAVAC", "GOROOT",
    "GO", "NODE", "NPM", "RUSTC", "CARGO", "LD_LIBRARY_PATH", "LD_PRELOAD", "DYLD_LIBRARY_PATH",
    "DYLD_INSERT_LIBRARIES",
    "DEVELOPER_DIR", "CUDA_PATH", "CUDA_TOOLKIT_PATH", "CUDNN_INSTALL_PATH", "CLANG_CUDA_COMPILER_PATH",
    "GCC_HOST_COMPILER_PATH"})
_PROGRAM_SUFFIXES = ("_BIN", "_BIN_PATH", "_BINARY", "_COMPILER", "_EXECUTABLE", "_WRAPPER", "_HOME")
_HOSTS = frozenset({"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GONOSUMCHECK",
                    "GOPRIVATE", "GOINSECURE", "GOFLAGS", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS",
                    "NPM_CONFIG_REGISTRY", "YARN_REGISTRY", "UV_INDEX_URL", "UV_DEFAULT_INDEX", "CARGO_HTTP_PROXY",
                    "BAZELISK_BASE_URL"})
_HOST_SUFFIXES = ("_URL", "_URLS", "_MIRROR", "_MIRRORS", "_REGISTRY", "_PROXY", "_INDEX", "_INDEX_URL")
# Variables whose value is a folder list or a folder, not one program file: not looked up as a repository file.
_FOLDERS = frozenset({"PATH", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "GOROOT", "DEVELOPER_DIR", "CUDA_PATH",
                      "CUDA_TOOLKIT_PATH", "CUDNN_INSTALL_PATH"})


def _settings(line: RcLine) -> list[tuple[str, str]]:
    out = []
    for _, setting in option_values(line, ENV_OPTIONS):
        name, equals, value = setting.partition("=")
        if equals and value.strip():
            out.append((name.strip().upper(), value.strip()))
    return out


def _is_program(name: str) -> bool:
    return name in _PROGRAMS or name.endswith(_PROGRAM_SUFFIXES)


def env_effect(line: RcLine) -> str | None:
    """`ci` when the line points the build at another program, `deps` at another host, else None."""
    found = None
    for name, value in _settings(line):
        if _is_program(name):
            return "ci"
        if name in _HOSTS or name.endswith(_HOST_SUFFIXES) or "://" in value:
            found = "deps"
    return found


def env_programs(line: RcLine) -> list[str]:
    """The program files the line's program variables name (a value that is one word, not a folder variable)."""
    return [value for name, value in _settings(line) if _is_program(name) and name not in _FOLDERS
            and not name.endswith("_HOME") and " " not in value]
