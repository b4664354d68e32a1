"""The command a wrapper program runs, after a redirection or inside `$(…)` (attack 37; read by ciruns.named).

ciruns reads a command at its segment's first word, after `sudo`/`env`/`nice`/`time` alone, and a task runner after
`sudo`/`time`/`exec`. The shell runs the same command behind a wrapper that takes options and operands of its own
(`timeout 60 tools/gen`, `nice -n 5`, `sudo -E`, `env -i PATH=/usr/bin`, `xvfb-run -a`, `flock /tmp/l`, `su runner -c
'…'`, `poetry run`, `… | xargs -n1 tools/gen`, `find . -exec tools/gen {} +`, `timeout 600 make test`), after a
redirection (`>build.log tools/gen`, `2>&1 tools/gen`) and inside `$(…)` (`V=$(tools/gen)`: the `)` was glued to the
word). `commands(line)` gives each such segment again with the wrapper, its options and operands, the redirections
and the parentheses taken off, for ciruns to read as a command; a wrapper whose command it cannot place gives none.
"""

from __future__ import annotations

from typing import NamedTuple

from gatekeeper.lazy_pattern import lazy

__all__ = ["commands"]


class _Wrapper(NamedTuple):
    operands: int  # operands before the command (`timeout DURATION`, `flock FILE`, `poetry run`); -1: none is one
    valued: frozenset[str]  # options whose value is the next word (`nice -n 5`, `sudo -u root`)
    commanding: frozenset[str]  # options whose value is the command (`su -c '…'`, `find -exec`, `nix-shell --run`)
    verbs: frozenset[str]  # the first operand must be one of these for a command to follow (`poetry run`)


def _w(operands: int, valued: str = "", commanding: str = "", verbs: str = "") -> _Wrapper:
    return _Wrapper(operands, frozenset(valued.split()), frozenset(commanding.split()), frozenset(verbs.split()))


_SHELL_C = _w(1, "-s --shell -g --group -G --supp-group -w --whitelist-environment", "-c --command")
_RUN = _w(1, "-e --env -C --directory -p --project -n --name --prefix --manifest-path -E --environment", "", "run")
WRAPPERS = {
    "timeout": _w(1, "-s --signal -k --kill-after"), "nice": _w(0, "-n --adjustment"),
    "ionice": _w(0, "-c --class -n --classdata -p -P -u"), "chrt": _w(1), "taskset": _w(1), "stdbuf": _w(0, "-i -o -e"),
    "setsid": _w(0), "flock": _w(1, "-w --timeout -E --conflict-exit-code", "-c --command"),
    "xvfb-run": _w(0, "-n --server-num -s --server-args -e --error-file -f --auth-file -p --xauth-protocol"),
    "dbus-run-session": _w(0, "--config-file --dbus-daemon"), "fakeroot": _w(0, "-l --lib -i -s"),
    "strace": _w(0, "-o -e -p -s -u -E -a -b -I -O -S -P -X"), "ltrace": _w(0, "-o -e -p -s -u -a -n"),
    "valgrind": _w(0), "time": _w(0, "-f --format -o --output"), "env": _w(0, "-u --unset -C --chdir", "-S"),
    "sudo": _w(0, "-u --user -g --group -h --host -p --prompt -C --close-from -D --chdir -r --role -t --type -U "
                  "--other-user -T --command-timeout"),
    "doas": _w(0, "-u -C"), "su": _SHELL_C, "runuser": _w(0, "-u --user -g --group -G --supp-group -s --shell",
                                                         "-c --command"),
    "sg": _w(1, "", "-c"), "script": _w(-1, "-E --echo -I --log-in -O --log-out -B --log-io -T --log-timing -m",
                                        "-c --command"),
    "exec": _w(0, "-a"), "command": _w(0), "unshare": _w(0), "nsenter": _w(0, "-t --target"), "prlimit": _w(0, "-p"),
    "setpriv": _w(0), "chronic": _w(0), "unbuffer": _w(0), "catchsegv": _w(0), "nohup": _w(0),
    "retry": _w(0, "-t --tries -d --delay -m --min -x --max"),
    "perf": _w(1, "-e --event -o --output -p --pid -r -c", "", "stat record trace"),
    "nix-shell": _w(-1, "-p --packages -I -A --attr", "--run --command"), "nix": _w(-1, "", "-c --command"),
    "poetry": _RUN, "pipenv": _RUN, "pdm": _RUN, "hatch": _RUN, "rye": _RUN, "pixi": _RUN, "conda": _RUN,
    "mamba": _RUN, "micromamba": _RUN, "bundle": _RUN._replace(verbs=frozenset({"exec"})),
    "direnv": _w(2, "", "", "exec"),
    "xargs": _w(0, "-a --arg-file -d --delimiter -E -I -L --max-lines -n --max-args -P --max-procs -s --max-chars"),
    "find": _w(-1, "", "-exec -execdir -ok -okdir"), "parallel": _w(0, "-j --jobs -S --sshlogin --joblog"),
    "watch": _w(0, "-n --interval"),
}
_KEPT = 32  # words of a command kept (a line of 8,000 nested `timeout 1` wrappers must not write each rest again)
_PLAIN = frozenset({"!", "if", "elif", "while", "until", "then", "do", "else", "call", "@", "+", "-"})
_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")
# a command's place (ciruns' segments; a `{` only at a word's start: `xargs -I{} tools/gen {}`)
_SEGMENTS = lazy(r"&&|\|\||[;&|(`]|(?<!\S)\{|\$\(|\b(?:then|do|else)\b")
# a word as the shell reads it: its quoted parts (`-s '-screen 0'`, `-c 'sh tools/gen'`) belong to it
_WORD = lazy(r"""(?:[^\s'"]++|'[^']*+'|"[^"]*+")++""")
# what stands before a command on a definition's line: a YAML key (`- run: |`), a Jenkins step's quoted command
_KEY = lazy(r"^[ \t]*+(?:-[ \t]++)?+(?:[\w-]++[ \t]*+:(?:[ \t]++|$)(?:[|>][-+]?+[ \t]*+)?+(?:-[ \t]++)?+)?+"
            r"(?:(?:sh|bat|pwsh|powershell)[ \t]++(?=['\"]))?+")
# an output redirection and its target (`>log`, `2>&1`, `&>>out`, `>|f`); an input one keeps its file (`bash <steps`)
_OUTPUT = lazy(r"(?<![0-9])[0-9]*+(?:&>>?+|>>?+&?+|>\|)[ \t]*+[^\s;&|<>()'\"`]*+")
_INPUT = lazy(r"(?<![<])<(?![<(])")
_BEFORE = "('\"`;&|{$!"  # what may stand glued before a wrapper's name (`$(timeout`, `sh 'nice`)


def commands(line: str) -> list[str]:
    """Each command of `line` that stands behind a wrapper, a redirection or a `$(`'s `)`, from its first word."""
    if "<" not in line and ">" not in line and ")" not in line and not _named(line):
        return []  # most lines (a set lookup a word, not a 70-name alternation at every character: ~+20% walk CPU)
    cleaned = _INPUT.sub(" ", _OUTPUT.sub(" ", line)) if "<" in line or ">" in line else line
    cleaned = cleaned.replace("\\'", "'").replace('\\"', '"')  # a Groovy string's escaped quotes
    out: list[str] = []
    redirected = cleaned != line
    for segment in _SEGMENTS.split(cleaned):
        segment = _KEY.sub("", segment, count=1)
        inside = segment.partition(")")[0].strip() if ")" in segment else ""
        glued = "/" in inside or " " in inside  # `$(tools/gen)`, `$(python3 -m tcms)`; not `$(VAR)`, `f(x)`
        if not (redirected or glued or _named(segment)):
            continue  # most lines with a `)`: `$(VAR)`, `f(x)`; read as they are
        words = [word.replace("'", "").replace('"', "") for word in _WORD.findall(segment.replace(")", " "))]
        starts = _unwrapped(words)
        out += [" ".join(words[at:at + _KEPT]) for at in starts]
        if not starts and (redirected or glued):
            out.append(" ".join(words[:_KEPT]))
    return [command for command in out if command.strip()]


def _named(text: str) -> bool:
    """Does a word of `text` name a wrapper?"""
    return any(word.lstrip(_BEFORE).rpartition("/")[2] in WRAPPERS for word in text.split())


def _unwrapped(words: list[str]) -> list[int]:
    """Where the commands behind the wrappers `words` start with are (none when they start with no wrapper)."""
    at, starts = 0, []
    while at < len(words):
        word = words[at]
        spec = WRAPPERS.get(word.rpartition("/")[2])
        if spec is None:
            if word in _PLAIN or _ASSIGNMENT.match(word) is not None:
                at += 1
                continue
            break
        at, commanded = _operands(spec, words, at + 1)
        starts += commanded
        if at < 0:
            return starts
        while at < len(words) and (words[at] in _PLAIN or _ASSIGNMENT.match(words[at]) is not None):
            at += 1  # `env -i PATH=/usr/bin make`: the command after the assignments
        if at < len(words) and WRAPPERS.get(words[at].rpartition("/")[2]) is None:
            starts.append(at)  # a wrapper in a wrapper (`sudo -E timeout 60 …`): its command only
    return starts


def _operands(spec: _Wrapper, words: list[str], at: int) -> tuple[int, list[int]]:
    """(where the wrapped command starts, or -1 when no operand is one; the commands its options hold)."""
    operands, ended, commanded, verb = spec.operands, False, [], bool(spec.verbs)
    while at < len(words):
        word = words[at]
        if word == "--" and not ended:
            ended, at = True, at + 1
            continue
        if word.startswith("-") and not ended:
            name = word.partition("=")[0]
            short = f"-{name[-1]}" if not name.startswith("--") and len(name) > 2 else name
            if "=" not in word and (name in spec.commanding or short in spec.commanding):
                commanded.append(at + 1)
                at += 2
            else:
                at += 2 if "=" not in word and (name in spec.valued or short in spec.valued) else 1
            continue
        if verb and word not in spec.verbs:
            return -1, commanded  # `poetry install`, `bundle install --path vendor/bundle`: no command
        if operands:
            operands -= 1 if operands > 0 else 0
            verb, at = False, at + 1
            continue
        return at, commanded
    return -1, commanded
