"""Bazel environment lines that point the build's tools at other programs or hosts (issue 12, the classes56 round).

`--repo_env=NAME=VALUE` sets a variable for every repository rule (the rules that find the C++ compiler, Python, the
JDK, and that download), `--action_env` and `--host_action_env` for every build action. Decided by what the line does,
as the hook lines are (platformshapes.bazel_line):

- **runs a program** (`ci`, as `--workspace_status_command`): a variable that names the program or the folders
  programs are found in: `CC`, `CXX`, `LD`, `PATH`, `BAZEL_SH`, `BAZEL_LLVM`, `PYTHON_BIN_PATH`, `JAVA_HOME`,
  `LD_PRELOAD`, and any `*_BIN`, `*_BIN_PATH`, `*_BINARY`, `*_COMPILER`, `*_EXECUTABLE`, `*_WRAPPER`, `*_HOME`; and a
  variable that makes the shell, an interpreter, the JVM, git or the compiler driver load or run a file (red team 40):
  `BASH_ENV` (every non-interactive bash sources it), `NODE_OPTIONS`, `JAVA_TOOL_OPTIONS`, `RUBYOPT`, `PERL5OPT`,
  `GIT_SSH_COMMAND`, `GIT_CONFIG_GLOBAL`, `PKG_CONFIG`, and any `*PATH` (`PYTHONPATH`: a `sitecustomize.py` runs first),
  `*FLAGS` (`CFLAGS=-B…`, `RUSTFLAGS=-Clinker=…`, `GOFLAGS=-toolexec=…`), `*OPTS` (`BAZEL_CXXOPTS`, `JAVA_OPTS`),
  `*_OPTIONS`, `*_COMMAND`, `*_LINKER`, `*_ENV`; git settings through the environment (`GIT_CONFIG_KEY_<n>`), an
  exported bash function (`BASH_FUNC_git%%`), `MAKEFILES`, CMake's toolchain and project-include files,
  `CCACHE_PREFIX`, npm's user or global config (attack 34). A repository file such a line names
  (`--repo_env=CC=%workspace%/tools/cc_wrapper.sh`, `NODE_OPTIONS=--require=%workspace%/tools/hook.js`: each word, and
  what follows an option's `=` or `:` or a glued short option's letter) is `ci` too (bazelhooks.named).
- **changes what the build fetches** (`deps`, as `--registry`): a proxy, index, registry or mirror variable
  (`HTTPS_PROXY`, `GOPROXY`, `GOSUMDB`, `PIP_INDEX_URL`, `NPM_CONFIG_REGISTRY`, any `*_URL`, `*_MIRROR`, `*_REGISTRY`,
  `*_PROXY`), or any value that is a URL.

A line without a value (`--action_env=CC`) passes the caller's variable through and names nothing; other variables
(`LANG`, `TMPDIR`, `CGO_ENABLED`, a test's `--test_env`) are neither.
"""

from __future__ import annotations

from gatekeeper.classify.bazelrc import RcLine, option_values
from gatekeeper.lazy_pattern import lazy

ENV_OPTIONS = ("repo_env", "action_env", "host_action_env")
_PROGRAMS = frozenset({
    "CC", "CXX", "CPP", "LD", "AR", "AS", "NM", "STRIP", "OBJCOPY", "OBJDUMP", "GCOV", "LLVM_CONFIG", "PATH", "SHELL",
    "BAZEL_SH", "BAZEL_LLVM", "BAZEL_VC", "BAZEL_VS", "BAZEL_PYTHON", "PYTHON", "PYTHON3", "JAVA", "JAVAC", "GOROOT",
    "GO", "NODE", "NPM", "RUSTC", "CARGO", "LD_LIBRARY_PATH", "LD_PRELOAD", "DYLD_LIBRARY_PATH",
    "DYLD_INSERT_LIBRARIES",
    "DEVELOPER_DIR", "CUDA_PATH", "CUDA_TOOLKIT_PATH", "CUDNN_INSTALL_PATH", "CLANG_CUDA_COMPILER_PATH",
    "GCC_HOST_COMPILER_PATH",
    # what the shell, interpreters, the JVM, git and compiler drivers load or run (red team 40)
    "BASH_ENV", "ENV", "ZDOTDIR", "PYTHONSTARTUP", "PYTHONHOME", "RUBYOPT", "RUBYLIB", "PERL5OPT", "PERL5LIB",
    "PERLLIB", "GIT_SSH", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_PARAMETERS", "GIT_TEMPLATE_DIR", "PKG_CONFIG", "MAKE", "LD_AUDIT", "LDSHARED",
    # files make and CMake read as code, ccache's prefix program, npm's config (its script-shell) (attack 34)
    "MAKEFILES", "CMAKE_TOOLCHAIN_FILE", "CMAKE_PROJECT_INCLUDE", "CMAKE_PROJECT_INCLUDE_BEFORE",
    "CMAKE_PROJECT_TOP_LEVEL_INCLUDES", "CCACHE_PREFIX", "NPM_CONFIG_USERCONFIG", "NPM_CONFIG_GLOBALCONFIG"})
# git settings through the environment (`GIT_CONFIG_KEY_0=core.sshCommand`), an exported bash function (attack 34)
_PROGRAM_PREFIXES = ("GIT_CONFIG_", "BASH_FUNC_")
_NOT_FILES = ("GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_")  # a count and a setting's name: no file
_PROGRAM_SUFFIXES = ("_BIN", "_BIN_PATH", "_BINARY", "_COMPILER", "_EXECUTABLE", "_WRAPPER", "_HOME", "PATH", "FLAGS",
                     "OPTS", "_OPTIONS", "_COMMAND", "_LINKER", "_ENV")
_HOSTS = frozenset({"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GONOSUMCHECK",
                    "GOPRIVATE", "GOINSECURE", "GOFLAGS", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS",
                    "NPM_CONFIG_REGISTRY", "YARN_REGISTRY", "UV_INDEX_URL", "UV_DEFAULT_INDEX", "CARGO_HTTP_PROXY",
                    "BAZELISK_BASE_URL"})
_HOST_SUFFIXES = ("_URL", "_URLS", "_MIRROR", "_MIRRORS", "_REGISTRY", "_PROXY", "_INDEX", "_INDEX_URL")
# an option and its `=`/`:` (`--require=`, `-javaagent:`, `-Clinker=`), else a short option's letter (`-r`, `-B`)
_OPTION = lazy(r"-{1,2}[A-Za-z][\w.-]*[=:]|-[A-Za-z]")
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
    return name in _PROGRAMS or name.endswith(_PROGRAM_SUFFIXES) or name.startswith(_PROGRAM_PREFIXES)


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
    """The files the line's program variables name (not a folder variable's): each word of the value, and what follows
    an option's `=` or `:` (`--require=x.js`, `-javaagent:x.jar`) or a glued short option's letter (`-rboot.rb`)."""
    out = []
    for name, value in _settings(line):
        if not _is_program(name) or name in _FOLDERS or name.endswith("_HOME") or name.startswith(_NOT_FILES):
            continue
        for word in value.split():
            out.append(word)
            if word.startswith("-") and (glued := _OPTION.match(word)) is not None:
                out.append(word[glued.end():])
    return out
