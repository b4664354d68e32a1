"""The one table of command wrappers, and the commands behind them (attack 37, cileft65; read by ciruns.named).

A CI line runs its command behind a wrapper program that takes options and operands of its own (`sudo -E`, `timeout
60 tools/gen`, `nice -n 5`, `env -i PATH=/usr/bin`, `xvfb-run -a`, `flock /tmp/l`, `su runner -c '…'`, `poetry run`,
`uv run`, `python -m pytest`, `builtin source`, `busybox sh`, `npx gulp`, `… | xargs -n1 tools/gen`, `find . -exec
tools/gen {} +`), a debugger's or an emulator's (`gdb --args ./x`, `lldb -- ./x`, `qemu-aarch64 -L /usr/aarch64 ./x`),
a container's with the repository mounted (`docker run -v "$(pwd)":/w -w /w img ./x`, `podman run --mount
type=bind,source=.,target=/src img /src/x`: the paths below the mount are the repository's), after a redirection
(`>build.log tools/gen`, `2>&1 tools/gen`), inside `$(…)` (`V=$(tools/gen)`) and in a `case` arm (`build) ./x ;;`).
`commands(line)` gives each such command again with the wrapper, its options and operands, the redirections and the
parentheses taken off; every reader of a command (commandlines.scripts, taskrunners.line_files, toolreads.line_files)
reads the line and these, and knows no wrapper of its own (issue 13: one table). A wrapper whose command it cannot
place gives none; a container without the repository mounted runs the image's own programs and gives none.
Label 91: a shell's `-c` string (`sh -c "bundle exec rake spec"`, `bash -e -o pipefail -c '…'`) is a command too,
also inside a container without a mount (read from where the step runs: the string names the job's files as the line
would), and so is the command of `docker exec CONTAINER …` and `docker compose [-f F] exec|run [OPTS] SERVICE …`
(`docker-compose`, `podman-compose`): a running container or a service, read from where the step runs. Misses 11:
`uv run -m x`, `coverage run -m x|SCRIPT` (also behind `python -m coverage`) are python's; `ruby -S thor` runs thor."""

from __future__ import annotations

from typing import NamedTuple

from gatekeeper.lazy_pattern import lazy

__all__ = ["PLAIN", "behind", "command_start", "commands", "innermost", "spec"]


class _Wrapper(NamedTuple):
    operands: int  # operands before the command (`timeout DURATION`, `flock FILE`, `poetry run`); -1: none is one
    valued: frozenset[str]  # options whose value is the next word (`nice -n 5`, `sudo -u root`)
    commanding: frozenset[str]  # options whose value is the command (`su -c '…'`, `find -exec`, `python -m`)
    verbs: frozenset[str]  # the first operand must be one of these for a command to follow (`poetry run`)
    mounts: bool = False  # a container's: its command runs only the repository's files it mounts (docker run -v)
    python: bool = False  # its `-m NAME` is python's module (`uv run -m x`)


def _w(operands: int, valued: str = "", commanding: str = "", verbs: str = "", mounts: bool = False) -> _Wrapper:
    return _Wrapper(operands, frozenset(valued.split()), frozenset(commanding.split()), frozenset(verbs.split()),
                    mounts)


_SHELL_C = _w(1, "-s --shell -g --group -G --supp-group -w --whitelist-environment", "-c --command")
_RUN = _w(1, "-e --env -C --directory -p --project -n --name --prefix --manifest-path -E --environment --with "
             "--python --group --extra --package --env-file --index", "", "run")
_CONTAINER = _w(2, "-v --volume --mount -w --workdir -e --env --env-file -u --user --name --network --net -p "
                   "--publish --entrypoint --platform -l --label -m --memory --cpus --shm-size --add-host --device "
                   "--cap-add --cap-drop --security-opt --ulimit --gpus --pull --hostname -h --tmpfs --volumes-from "
                   "--runtime --ipc --pid --restart --log-driver --log-opt --group-add --userns --dns --cidfile "
                   "--health-cmd --label-file --mac-address --memory-swap --stop-signal --storage-opt --uts",
                "", "run", mounts=True)  # `docker run [OPTIONS] IMAGE COMMAND`: the verb and the image
# `docker exec [OPTIONS] CONTAINER COMMAND`, `docker compose [-f FILE] exec|run [OPTIONS] SERVICE COMMAND` (label 91): a
# running container's or a service's command, read from where the step runs (no mount says where the files are)
_EXEC = _CONTAINER._replace(valued=_CONTAINER.valued | {"--index", "-f", "--file", "--project-directory",
                                                        "--project-name", "--profile", "--ansi", "--progress",
                                                        "--parallel", "-c", "--context", "-H", "--host",
                                                        "--log-level"},
                            verbs=frozenset({"exec", "run"}), mounts=False)
# the client's own options before its verb (`docker --context ci exec …`, `podman --log-level debug run …`, review 70b)
_CLIENT = frozenset({"--config", "-c", "--context", "-H", "--host", "-l", "--log-level", "--tlscacert", "--tlscert",
                     "--tlskey", "--url", "--connection", "--root", "--runroot", "--storage-driver", "--identity",
                     "--cgroup-manager", "--tmpdir", "--namespace", "-n", "--address", "-a"})
_PYTHON = _w(-1, "-W -X -Q", "-m")  # `python -m pytest`: the module runs as its command does (`-c CODE` runs none)
# `coverage run [OPTIONS] (-m MODULE | SCRIPT)`, `uv run -m MODULE`: python's (misses 11: the module read as a command)
_COVERAGE = _w(1, "--rcfile --source --include --omit --data-file --context --concurrency", "-m", "run")._replace(
    python=True)
_UV = _RUN._replace(commanding=frozenset({"-m", "--module"}), python=True)
_QEMU = _w(0, "-L -cpu -E -U -g -s -B -R -d -D -p -r -seed -trace -plugin -0")  # user-mode: `qemu-aarch64 -L / ./x`
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
    "exec": _w(0, "-a"), "command": _w(0), "builtin": _w(0), "busybox": _w(0), "toybox": _w(0),  # attack 39
    "unshare": _w(0), "nsenter": _w(0, "-t --target"), "prlimit": _w(0, "-p"),
    "setpriv": _w(0), "chronic": _w(0), "unbuffer": _w(0), "catchsegv": _w(0), "nohup": _w(0),
    "retry": _w(0, "-t --tries -d --delay -m --min -x --max"),
    "perf": _w(1, "-e --event -o --output -p --pid -r -c", "", "stat record trace"),
    "nix-shell": _w(-1, "-p --packages -I -A --attr", "--run --command"), "nix": _w(-1, "", "-c --command"),
    "poetry": _RUN, "pipenv": _RUN, "pdm": _RUN, "hatch": _RUN, "rye": _RUN, "pixi": _RUN, "conda": _RUN,
    "mamba": _RUN, "micromamba": _RUN, "uv": _UV, "bundle": _RUN._replace(verbs=frozenset({"exec"})),
    "uvx": _w(0, "--from --with -p --python --index"), "pipx": _w(1, "--spec --python --index-url", "", "run"),
    "npx": _w(0, "-p --package -c --call"), "bunx": _w(0, "-p --package"),
    "pnpm": _w(1, "-C --dir -F --filter", "", "exec dlx"),
    "composer": _w(1, "-d --working-dir", "", "exec"),  # `composer exec codecept run`: vendor/bin's (review 70b)
    "coverage": _COVERAGE, "python": _PYTHON, "py": _PYTHON, "direnv": _w(2, "", "", "exec"),
    "go": _w(1, "-modfile", "", "tool"),  # `go tool mage -v ci`: a module's tool (Go 1.24), the eighty-seventh set
    "xargs": _w(0, "-a --arg-file -d --delimiter -E -I -L --max-lines -n --max-args -P --max-procs -s --max-chars"),
    "find": _w(-1, "", "-exec -execdir -ok -okdir"), "parallel": _w(0, "-j --jobs -S --sshlogin --joblog"),
    "watch": _w(0, "-n --interval"), "ruby": _w(-1, "-I -r -E -C -e", "-S"), "jruby": _w(-1, "-I -r -E -C -e", "-S"),
    # npm's environment setters (the eighty-first set: fnm's `cross-env NODE_OPTIONS=... jest`): the assignments after
    # them are skipped as `env`'s are, `--` ends dotenv's and dotenvx's options
    "cross-env": _w(0), "cross-env-shell": _w(0), "dotenv": _w(0, "-e -v -p -c"),
    "env-cmd": _w(0, "-f --file -e --environments -r --rc-file"),
    "dotenvx": _w(1, "-f --env-file -fk --env-keys-file -e --env --convention", "", "run"),
    # debuggers, profilers, emulators: the program they run is their first operand (`gdb -p PID` runs none)
    "gdb": _w(0, "-ex -x -iex -ix -cd -d -s -e -se -c -p --pid --core --command --eval-command --directory", "--args"),
    "lldb": _w(0, "-o -O -s -S -k -K -f --file -c --core -p --attach-pid -n --attach-name --one-line"),
    "heaptrack": _w(0, "-o --output"), "rr": _w(1, "", "", "record"), "sde": _w(0), "sde64": _w(0), "qemu": _QEMU,
    "docker": _CONTAINER, "podman": _CONTAINER, "nerdctl": _CONTAINER,
    "docker-compose": _EXEC, "podman-compose": _EXEC,
}
_GO_ONLY = frozenset({"go"})  # a wrapper only with its verb `tool`: most Go lines (`go test ./...`) are not read again
_KEPT = 32  # words of a command kept (a line of 8,000 nested `timeout 1` wrappers must not write each rest again)
PLAIN = frozenset({"!", "if", "elif", "while", "until", "then", "do", "else", "call", "@", "+", "-"})  # the shell's
_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")
_ASSIGNED = lazy(r"[ \t]*+[A-Za-z_][A-Za-z0-9_]*+=")  # a command's segment that starts with an assignment
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
# a `case` arm's patterns before its command (`build|all) ./x ;;`, `case "$1" in (linux) ./x`): the command after
_CASE_ARM = lazy(r"(?:^|;;|(?:^[ \t]*+(?:-[ \t]++)?+(?:[\w-]++:[ \t]++)?+|[;&|(]|\b(?:then|do|else))[ \t]*+case"
                 r"[ \t]++[^\s;]++[ \t]++in\b)[ \t]*+\(?+[^\s()$`;&|]++(?:\|[^\s()$`;&|]++)*+\)[ \t]++(?=[^\s;])")
_ARM = 512  # characters of an arm read for its command
# the working folder written as a command (`$(pwd)`, `${PWD}`, `` `pwd` ``): the root where a line runs
_CWD = lazy(r"""\$\(pwd\)|`pwd`|\$\{PWD\}|\$PWD\b""")
_MOUNT_KEYS = ("source=", "src=", "target=", "destination=", "dst=")
_SUBSTITUTION = lazy(r"\$\([^()]*+\)")  # `-u $(id -u):$(id -g)` among a container's options: one word
# a shell that runs its `-c` string (label 91: `sh -c "bundle exec rake spec"`, `bash -lc '…'`, `docker run IMG sh -c`)
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "sh.exe", "bash.exe"})
_SHELL_LINE = lazy(r"(?<![\w.-])(?:ba|da|z|k|a|mk)?+sh(?:\.exe)?+[ \t]++[-+]")
_SHELLED = lazy(r"[ \t]*+(?:[\w.-]*+/)*+(?:ba|da|z|k|a|mk)?+sh(?:\.exe)?+[ \t]")
_NESTED = 3  # shell strings read inside shell strings (`sh -c "bash -c 'make'"`)


def spec(name: str) -> _Wrapper | None:
    """The table's row of a program named `name` (`python3.12` is `python`'s, `qemu-aarch64-static` `qemu`'s)."""
    found = WRAPPERS.get(name)
    if found is None and name[:1] in "pq":
        trimmed = name.rstrip("0123456789.").removesuffix("w")
        if trimmed in ("python", "py", "pypy"):
            return _PYTHON
        if name.startswith("qemu-") and not name.startswith(("qemu-system-", "qemu-img", "qemu-nbd")):
            return _QEMU
    return found


def commands(line: str) -> list[str]:
    """Each command of `line` that stands behind a wrapper, a redirection, a `$(`'s `)` or a `case` arm's pattern,
    from its first word; each text once."""
    shells = ("sh " in line or "sh\t" in line) and _SHELL_LINE.search(line) is not None  # `bash -…`, not `git push`
    if "<" not in line and ">" not in line and ")" not in line and "=" not in line and not shells \
            and not _named(line):
        return []  # most lines (a set lookup a word, not a 70-name alternation at every character: ~+20% walk CPU)
    cleaned = _INPUT.sub(" ", _OUTPUT.sub(" ", line)) if "<" in line or ">" in line else line
    cleaned = cleaned.replace("\\'", "'").replace('\\"', '"')  # a Groovy string's escaped quotes
    cleaned = _CWD.sub(".", cleaned) if "pwd" in cleaned or "PWD" in cleaned else cleaned  # `-v "$(pwd)":/w`
    out: list[list[str]] = []
    redirected = cleaned != line
    texts = [cleaned]
    if "$(" in cleaned and ("docker" in cleaned or "podman" in cleaned or "nerdctl" in cleaned or "=" in cleaned):
        # a container's options read whole too; an assignment's value (`V=$(git describe) make release`) one word
        texts.append(_SUBSTITUTION.sub("_", cleaned))
    # `build) ./x ;;`: a case arm's command (its pattern's `)` is no command's part), a bounded piece after it
    arms = [_SEGMENTS.split(cleaned[arm.end():arm.end() + _ARM], maxsplit=1)[0] for arm in _CASE_ARM.finditer(cleaned)]
    parts = [(_KEY.sub("", part, count=1), False) for text in texts for part in _SEGMENTS.split(text)]
    for segment, arm in (*parts, *((segment, True) for segment in arms)):
        inside = segment.partition(")")[0].strip() if ")" in segment else ""
        glued = arm or "/" in inside or " " in inside  # `$(tools/gen)`, `$(python3 -m tcms)`; not `$(VAR)`, `f(x)`
        shelled = shells and _SHELLED.match(segment) is not None
        if not (redirected or glued or shelled or _named(segment) or _ASSIGNED.match(segment) is not None):
            continue  # most lines with a `)` or a `=`: `$(VAR)`, `f(x)`, `--opt=x`; read as they are
        words = [word.replace("'", "").replace('"', "") for word in _WORD.findall(segment.replace(")", " "))]
        found = _unwrapped(words)
        found += _inside([words, *found]) if shelled or found else []
        out += found
        if not found and (redirected or glued):
            out.append(words)
    # each command once: the readers of a command depend on its text alone, and a line of 26,000 `python -m ` gives
    # one command 26,000 times (~90 us a reading)
    return list(dict.fromkeys(text for command in out if (text := " ".join(command[:_KEPT])).strip()))


def _inside(commands: list[list[str]]) -> list[list[str]]:
    """The commands the shells of `commands` run from their `-c` strings, and those behind their wrappers, _NESTED
    strings deep."""
    out: list[list[str]] = []
    fresh = commands
    for _ in range(_NESTED):
        inner = [command for each in fresh if (command := _shell_command(each))]
        inner += [behind for command in inner for behind in _unwrapped(command)]
        out += inner
        fresh = inner
    return out


def _shell_command(words: list[str]) -> list[str]:
    """The words of the string a shell at the start of `words` runs by `-c` (`bash -e -o pipefail -c 'make test'`:
    `make test`; a string the line's `&&` cut, its rest), or none."""
    at = 0
    while at < len(words) and (words[at] in PLAIN or _ASSIGNMENT.match(words[at]) is not None):
        at += 1
    if at >= len(words) or words[at].rpartition("/")[2] not in _SHELLS:
        return []
    at += 1
    while at < len(words) and words[at][:1] in ("-", "+") and words[at] != "--":
        word = words[at]
        if word[:1] == "-" and word[1:].isascii() and word[1:].isalpha() and "c" in word:  # `-c`, `-lc`, `-euxc`
            rest = words[at + 1 + (words[at + 1:at + 2] == ["--"]):at + 1 + _KEPT]  # `bash -c -- '…'`
            return [*rest[0].split()[:_KEPT], *rest[1:]] if rest else []
        valued = word[:2] != "--" and word[-1:] in ("o", "O") or word in ("--rcfile", "--init-file")
        at += 2 if valued else 1  # `-o pipefail`, `-euo pipefail`, `--rcfile ci/rc`
    return []


def innermost(words: list[str]) -> list[str]:
    """The command `words` run behind their leading wrappers (`sudo -E bash` is `bash`), else `words` as they are:
    a pipe's reader hands its file to the interpreter a wrapper runs (`cat tools/gen | sudo bash`, attack 38)."""
    row = spec(words[0].rpartition("/")[2]) if words else None
    found = _unwrapped(words) if row is not None else []
    # an interpreter behind them is the command (`sudo PYTHONPATH=t python -m x`: its module is read, review 70b), also
    # behind python's own module (`python -m coverage run -m x`: misses 11)
    python = [each for each in found[row is _PYTHON:] if each and spec(each[0].rpartition("/")[2]) is _PYTHON]
    return python[0] if python else words if row is _PYTHON else found[-1] if found else words


def command_start(words: list[str]) -> int:
    """Where the command `words` run behind their leading shell words and wrappers starts (`sudo -E timeout 60 cat f`:
    4, `cat`'s index), all words kept; -1 where a wrapper runs none (`poetry install`) or a container's (its files
    are the image's unless mounted: commands() reads those). jobenv.fed and deployruns.targets read from there."""
    at = 0
    while at < len(words):
        while at < len(words) and (words[at] in PLAIN or _ASSIGNMENT.match(words[at]) is not None):
            at += 1
        row = spec(words[at].rpartition("/")[2]) if at < len(words) else None
        if row is None:
            return at
        at = behind(words, at)
        if at < 0:
            return -1
    return at


def behind(words: list[str], at: int) -> int:
    """Where the command behind the wrapper `words[at]` starts (after its options and operands), or -1: none, or a
    container's or `python -m`'s (an image's program, a module: commands() and commandlines read those)."""
    row = spec(words[at].rpartition("/")[2])
    return -1 if row is None or row.mounts or row is _PYTHON else _operands(row, words, at + 1)[0]


def _named(text: str) -> bool:
    """Does a word of `text` name a wrapper?"""
    words = text.split()
    named = WRAPPERS.keys() & set(words)  # most lines that name one: a set's test of all words at once
    if named and ("tool" in words or not _GO_ONLY.issuperset(named)):  # `go` wraps only as `go tool`
        return True
    return any(spec(word.lstrip(_BEFORE).rpartition("/")[2]) is not None for word in words
               if word[:1] in _BEFORE or "/" in word or word[:1] in "pq")  # `$(timeout`, `/usr/bin/time`, `python3`


def _unwrapped(words: list[str]) -> list[list[str]]:
    """The commands behind the wrappers `words` start with (none when they start with no wrapper)."""
    at = 0
    found: list[list[str]] = []
    while at < len(words):
        word = words[at]
        row = spec(word.rpartition("/")[2])
        if row is None:
            if word in PLAIN or _ASSIGNMENT.match(word) is not None:
                at += 1
                continue
            if at and not found and any(_ASSIGNMENT.match(before) is not None for before in words[:at]):
                found.append(words[at:at + _KEPT])  # `CI=1 make test`, `TOXENV=lint tox`: the command after the
                # assignments the shell gives it (a task runner is read at a command's start)
            break
        start = _verb(words, at + 1) if row.mounts else at + 1
        if row.mounts and start < len(words) and words[start] in ("exec", "compose"):  # a running container's
            row, start = _EXEC, start + (words[start] == "compose")
        if row is _PYTHON:
            found.append(words[at:at + _KEPT])  # `$(python3 -m tcms)`: an interpreter's own command (commandlines)
        at, commanded = _operands(row, words, start)
        if row.mounts:  # a container's command: the repository's files by their paths in the container, or none
            inside = _mounts(words[start:at]) if at >= 0 else {}
            if not inside:  # the image's own files; but a shell's `-c` string is read from here (label 91)
                return [words[at:at + _KEPT]] if at >= 0 and _shell_command(words[at:at + _KEPT]) else []
            command = [_host_path(word, inside) for word in words[at:at + _KEPT]]
            folder = _host_path(_workdir(words[start:at]), inside)  # `-w /src/sub`: `./sub` (cileft66)
            if not folder.startswith("./") or not folder.strip("./"):
                return [command]  # no `-w`, the mount's root, or a folder the repository is not mounted at
            if shelled := _shell_command(command):  # a shell's string runs in the folder too (label 91)
                return [command, [_below(word, folder) for word in shelled]]
            return [command, [host if word.startswith("/") else _below(word, folder)
                              for word, host in zip(words[at:at + _KEPT], command, strict=True)]]
        nested = words[commanded[0]:commanded[0] + _KEPT] if row is _PYTHON and commanded else []
        found += [*(words[begin:begin + _KEPT] for begin in commanded), *(_unwrapped(nested) if nested and spec(
            nested[0]) is not None else []), *(["python", "-m", *words[begin:begin + _KEPT]] for begin in commanded
                                              if row.python)]  # the module as a command too (`pytest`: its conftest)
        if row is _COVERAGE and at >= 0:  # its script: python's (and `python -m coverage run -m x`'s module: above)
            return [*found, ["python", *words[at:at + _KEPT]]] if not commanded else found
        if at < 0:
            return found
        while at < len(words) and (words[at] in PLAIN or _ASSIGNMENT.match(words[at]) is not None):
            at += 1  # `env -i PATH=/usr/bin make`: the command after the assignments
        inner = spec(words[at].rpartition("/")[2]) if at < len(words) else None
        if at < len(words) and (inner is None or inner.operands < 0):
            found.append(words[at:at + _KEPT])  # a wrapper in a wrapper (`sudo -E timeout 60 …`): its command only,
            # but the one that may run none of its own (`poetry run python3 tools/gen`) is a command too
    return found


def _verb(words: list[str], at: int) -> int:
    """Where a container client's verb stands: past its own options and a `container` (`docker -H h container exec`)."""
    while at < len(words) and words[at][:1] == "-":
        at += 2 if words[at] in _CLIENT else 1  # `--host=h`, `-D`, `--tls`: one word
    return at + 1 if at < len(words) and words[at] == "container" else at


def _operands(row: _Wrapper, words: list[str], at: int) -> tuple[int, list[int]]:
    """(where the wrapped command starts, or -1 when no operand is one; the commands its options hold)."""
    operands, ended, commanded, verb = row.operands, False, [], bool(row.verbs)
    while at < len(words):
        word = words[at]
        if word == "--" and not ended:
            ended, at = True, at + 1
            continue
        if word.startswith("-") and not ended:
            name = word.partition("=")[0]
            short = f"-{name[-1]}" if not name.startswith("--") and len(name) > 2 else name
            if "=" not in word and (name in row.commanding or short in row.commanding):
                commanded.append(at + 1)
                at += 2
            else:
                at += 2 if "=" not in word and (name in row.valued or short in row.valued) else 1
            continue
        if verb and word not in row.verbs:
            return -1, commanded  # `poetry install`, `bundle install --path vendor/bundle`: no command
        if operands:
            operands -= 1 if operands > 0 else 0
            verb, at = False, at + 1
            continue
        return at, commanded
    return -1, commanded


def _mounts(options: list[str]) -> dict[str, str]:
    """{a container's folder: the repository's folder mounted there} of a container's options (`-v .:/src`,
    `--volume=./tools:/t`, `--mount type=bind,source=.,target=/src`); a volume or a host folder is none."""
    mounts: dict[str, str] = {}
    for option, value in zip(options, [*options[1:], ""], strict=True):
        name, equals, glued = option.partition("=")
        value = glued if equals and name.startswith("--") else value
        if name in ("-v", "--volume") and ":" in value:
            source, _, target = value.partition(":")
            mounts[target.partition(":")[0]] = source
        elif name == "--mount" and ("source=" in value or "src=" in value):
            keys = dict(part.partition("=")[::2] for part in value.split(",") if part.startswith(_MOUNT_KEYS))
            mounts[keys.get("target", keys.get("destination", keys.get("dst", "")))] = keys.get(
                "source", keys.get("src", ""))
    return {target.rstrip("/"): folder for target, source in mounts.items()
            if target.startswith("/") and (folder := _repository_folder(source)) is not None}


def _workdir(options: list[str]) -> str:
    """The folder a container's command runs in (`-w /src/sub`, `--workdir=/src/sub`), or ""."""
    for option, value in zip(options, [*options[1:], ""], strict=True):
        name, equals, glued = option.partition("=")
        if name in ("-w", "--workdir"):
            return glued if equals else value
    return ""


def _below(word: str, folder: str) -> str:
    """A relative path of a container's command read from the repository's folder `folder` (`./sub`) it runs in:
    `./x.sh` and `tools/x.sh` are `./sub/x.sh` and `./sub/tools/x.sh`; an option, a name, an absolute path stay."""
    if word.startswith(("-", "/", "$")) or ("/" not in word and "." not in word):
        return word
    return f"{folder.rstrip('/')}/{word.removeprefix('./')}"


def _repository_folder(source: str) -> str | None:
    """The repository's folder a mount's source names (`.`, `./tools`, `tools`), or None (a volume, `/var/run`)."""
    if source in (".", "./") or source.startswith("./"):
        return source[2:].strip("/")
    return None


def _host_path(word: str, inside: dict[str, str]) -> str:
    """`/src/tools/gen` with `/src` the repository's root: `tools/gen`; other words as they are."""
    for target, folder in inside.items():
        if word == target or word.startswith(f"{target}/"):
            rest = word[len(target):].lstrip("/")
            return f"./{folder}/{rest}".replace("//", "/") if folder else f"./{rest}"
    return word
