"""ansible-playbook under its other names, for the deploy commands a CI line runs (deployruns.py; classes58).

`ansible-navigator run PLAYBOOK` (in an execution environment or not) and `python -m ansible playbook` / `python -m
ansible.cli.playbook` run the same playbook with the same options as `ansible-playbook PLAYBOOK`.
"""

from __future__ import annotations

from gatekeeper.lazy_pattern import lazy

__all__ = ["PYTHON_ANSIBLE", "aliases", "command_name"]

PYTHON_ANSIBLE = lazy(r"-m[ \t]+ansible(?:[ \t]+playbook\b|\.cli\.playbook\b)")
# ansible-playbook under other names (classes58): `ansible-navigator run PLAYBOOK` (in an execution environment or
# not) and `python -m ansible playbook` / `python -m ansible.cli.playbook` run the same playbook with the same options;
# the navigator's own options that take a value are left out (`--mode stdout` names no playbook)
_NAVIGATOR_VALUED = frozenset({
    "-m", "--mode", "--ee", "--execution-environment", "--eei", "--execution-environment-image", "--pp",
    "--pull-policy", "--ce", "--container-engine", "--cmdline", "--lf", "--log-file", "--ll", "--log-level", "--la",
    "--log-append", "--pa", "--pull-arguments", "--penv", "--pass-environment-variable", "--senv",
    "--set-environment-variable", "--eev", "--execution-environment-volume-mounts", "--co", "--container-options",
    "--pae", "--playbook-artifact-enable", "--pas", "--playbook-artifact-save-as", "--dc", "--display-color",
    "--ecmd", "--exec-command", "--osc4", "--osc4-enable"})


def command_name(word: str) -> str:
    """The command a word runs: its file name, lower case, without `.exe`."""
    return word.rpartition("/")[2].lower().removesuffix(".exe")


def aliases(words: list[str]) -> list[str]:
    """`words` with ansible-playbook's other names spelled `ansible-playbook` (_NAVIGATOR_VALUED): `ansible-navigator
    [options] run ...`, `python3 -m ansible playbook ...`, `python -m ansible.cli.playbook ...`."""
    for at, word in enumerate(words):
        if command_name(word) == "ansible-navigator":
            rest = _navigator_free(words[at + 1:])
            plain = [item for item in rest if not item.startswith("-")]
            if plain[:1] == ["run"]:  # not `images`, `collections`, `exec -- …` (read as any launcher)
                rest.remove("run")
                return [*words[:at], "ansible-playbook", *rest]
        elif command_name(word).startswith("python") and words[at + 1:at + 2] == ["-m"]:
            if words[at + 2:at + 3] == ["ansible.cli.playbook"]:
                return [*words[:at], "ansible-playbook", *words[at + 3:]]
            if words[at + 2:at + 4] == ["ansible", "playbook"]:
                return [*words[:at], "ansible-playbook", *words[at + 4:]]
    return words


def _navigator_free(args: list[str]) -> list[str]:
    """`args` without the navigator's own options and their values (`--mode stdout`, `--ee false`, `-m=stdout`)."""
    out, skip = [], False
    for word in args:
        if skip:
            skip = False
        elif word.partition("=")[0] in _NAVIGATOR_VALUED:
            skip = "=" not in word
        else:
            out.append(word)
    return out
