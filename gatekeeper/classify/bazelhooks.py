"""The programs a `.bazelrc` makes Bazel run on every build (issue 12, classes52).

`build --workspace_status_command=tools/status.sh` runs that script at the start of every build, and
`common --credential_helper=%workspace%/tools/cred.sh` (also `--credential_helper=*.example.com=tools/cred.py`) runs
that program whenever Bazel fetches from a remote cache, executor or download host, handing it the URL and taking
the credentials it prints. Both run on an ordinary `bazel build`, unasked, on every developer's machine and in every
CI job that builds with Bazel; a credential helper also sees every secret it prints. `--run_under=tools/wrap.sh` runs
before every `bazel run` and `bazel test` target. The scripts were `src` (the catch-all) and an edit of them allowed.
A file any Bazel run-control file of any tree (a file whose name ends in `bazelrc`: `.bazelrc`, `ci.bazelrc`,
`tools/remote.bazelrc`) names so is `ci` (`ci.context.bazel-hook`), as a file a CI step runs by path is: the
principle of docs/classification.md's "Files developer tools run or obey" (a machine runs it by itself on an ordinary
action: `ci`). A path is resolved against the run-control file's folder and each folder above it (the workspace root
is one of them); `%workspace%/` and `$(pwd)/` are taken off; a word with a variable matches nothing; a label
(`//tools:wrap`) is a target, not looked up. Found as heatfiles.Shipped finds what Heat templates ship (the
run-control files in the folders above a changed file and their direct sub-folders), and those of every other folder
(`everywhere`: `.bazelrc` imports `%workspace%/config/bazel/remote.bazelrc`, whose paths are the workspace's; attack
31); `--experimental_credential_helper` is the credential helper's name before Bazel 6.3. The workspace's
`tools/bazel`, which Bazel's launcher and Bazelisk run instead of Bazel, is `ci` by its path rule. *Limits:* a
run-control file under another name (`.bazelrc.ci`, what `import` names as `tools/ci.rc`) is not read, nor a
`--bazelrc=` a command line passes (ciconfigs.py makes that file `ci` when CI passes it). From a patch alone, the
run-control files the patch shows, as far as it shows them (patchcontext.py).
"""

from __future__ import annotations

from gatekeeper.classify.bazelenv import env_programs
from gatekeeper.classify.bazelrc import option_values, rc_lines
from gatekeeper.classify.heatfiles import PAST, Shipper
from gatekeeper.classify.markers import against_ancestors
from gatekeeper.classify.sniff import FULL_READ
from gatekeeper.lazy_pattern import lazy

__all__ = ["BAZEL", "RULE", "is_rc", "named"]

RULE = "ci.context.bazel-hook"
_HOOKS = tuple(f"{prefix}{name}" for prefix in ("", "experimental_") for name in (
    "workspace_status_command", "credential_helper", "run_under", "shell_executable", "server_javabase",
    "host_jvm_args"))
_AGENT = lazy(r"^-(?:javaagent|agentpath):([^=\s]+)")  # a --host_jvm_args agent's file (red team 38)
_PREFIXES = ("%workspace%/", "$(pwd)/", "${PWD}/", "$PWD/", "./")


def is_rc(path: str) -> bool:
    """A file read as Bazel run control: its name ends in `bazelrc` (`.bazelrc`, `ci.bazelrc`), as BAZEL's types."""
    return path.lower().endswith("bazelrc")


def named(rc: str, data: bytes) -> tuple[str, ...]:
    """The repository paths a run-control file's hook options name, against each folder above it."""
    out: list[str] = []
    for line in rc_lines(data.decode("utf-8", "replace")):  # as Bazel reads it: quotes, escapes, continuations
        for option, value in [*option_values(line, _HOOKS), *(("env", v) for v in env_programs(line))]:
            option = option.removeprefix("experimental_")
            if option == "credential_helper" and "=" in value:
                value = value.rpartition("=")[2]  # SCOPE=PATH
            if option == "host_jvm_args":
                value = agent.group(1) if (agent := _AGENT.match(value)) else ""
            for word in value.split():
                for prefix in _PREFIXES:
                    word = word.removeprefix(prefix)
                if word and not word.startswith(("/", "//", "@", "-")) and not any(c in word for c in "$`*?"):
                    out += against_ancestors(rc, word)
    if len(data) > FULL_READ:
        out.append(PAST)  # a hook line may follow what is read (red team 38: every file near counts)
    return tuple(dict.fromkeys(out))


BAZEL = Shipper(RULE, ("bazelrc",), named, "makes Bazel run {path} on every build (workspace status, credential "
                "helper or run_under)", "Bazel run-control files read for the programs they run", everywhere=True)
