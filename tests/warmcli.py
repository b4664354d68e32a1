"""`gatekeeper` for shell scripts, served by forking an interpreter that has already imported it.

The docs' shell blocks run ~70 `gatekeeper` commands; a cold one spends ~0.25 s of CPU starting Python
and importing the command before it does anything. Here a server imports every command once; the
`gatekeeper` that scripts find first on PATH is a small client (`python -I -S`, no site, no import but the
socket's C module) that hands the server its argv, working folder, environment (as bytes), umask and its own
stdin, stdout and stderr (the file descriptors themselves), waits, and exits with the command's status. Per command the
server forks a process that takes those descriptors as 0, 1 and 2, enters the folder, takes the
environment, and runs the console script's `main()` to its end, then ends as an interpreter ends
(non-daemon threads joined, atexit handlers, the standard streams flushed; a flush that fails ends the
ordinary way, reported and exit 120), so the command writes to the very pipe or file the script gave
it, reads the script's stdin, and its exit status is the script's `$?`.

What a served command does not share with an installed one is its start-up: the interpreter and the
imports (every command's module, loaded before it runs), and what the server's reading of the shipped
bundle left in memory (parsed rules and lint results, kept by the bytes they came from); and its
teardown: it exits (os._exit) without freeing every module and object one by one (~0.1 s of CPU a
command), so a `__del__` that only teardown would run does not run. Start-up is what
tests/test_packaging.py, tests/test_first_run.py and the CLI boundary tests check with real `gatekeeper` processes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_SERVER = r'''
import atexit, importlib, os, runpy, socket, sys, threading
import regopy  # what every gate loads before it forks its engine child (policy/engine.py)
import gatekeeper.ci.github_action  # what the GitHub Action's gate step runs (python mode)
import gatekeeper.ci.gitlab  # what examples/gitlab-ci.yml runs after the gate (python mode)
from gatekeeper.cli import COMMAND_MODULES, main
for module in sorted(set(COMMAND_MODULES.values())):
    importlib.import_module(f"gatekeeper.cli.{module}")
MODE = sys.argv[3]  # "gatekeeper": argv is the command's; "python": argv is `-I -m MODULE ARGS` (see served_python)
# The shipped bundle read once: what a process remembers of bytes it has seen (the Rego modules' lint, the globs,
# the classification rules, by their content) every command inherits, wherever the page's copy of them lies.
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy_dir import shipped_policy_dir
load_bundle(shipped_policy_dir())

def receive(conn):
    """The client's request (see _CLIENT: NUL-separated bytes) and its three descriptors."""
    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    size = int.from_bytes(data[:8], "big")
    data = data[8:]
    while len(data) < size:
        chunk = conn.recv(1 << 16)
        if not chunk:
            os._exit(70)
        data += chunk
    fields = data.split(b"\0")
    count = int(fields[3])
    return {"umask": int(fields[0]), "cwd": fields[1], "executable": os.fsdecode(fields[2]),
            "argv": [os.fsdecode(arg) for arg in fields[4:4 + count]],
            "env": dict(item.split(b"=", 1) for item in fields[4 + count:])}, fds

def run(request, fds):
    """The command, in this process, as the console script runs it: never returns."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.umask(request["umask"])
    os.chdir(request["cwd"])
    os.environb.clear()
    os.environb.update(request["env"])
    try:
        if MODE == "python":
            sys.stdin, sys.stdout, sys.stderr = streams()
            # As `python -I -m MODULE` started as the client: the module runs as __main__ with sys.argv[0] its file,
            # and sys.executable is the client (a virtualenv's python), so an interpreter the module starts is
            # served too.
            sys.executable = request["executable"]
            sys.argv = ["-m", *request["argv"][3:]]
            runpy.run_module(request["argv"][2], run_name="__main__", alter_sys=True)
            code = 0
        else:
            sys.argv = ["gatekeeper", *request["argv"]]
            sys.stdin, sys.stdout, sys.stderr = streams()
            code = main()
    except SystemExit as exc:
        code = exc.code
    end(code)

def end(code):
    """End as the interpreter ends (non-daemon threads joined, atexit handlers, the standard streams flushed),
    but without its teardown: freeing, object by object, the imports and the bundle shared with the server
    costs ~0.1 s of CPU, more than most commands. Anything unusual ends the ordinary way."""
    if code is None:
        code = 0
    if not isinstance(code, int):
        raise SystemExit(code)  # the interpreter prints it and exits 1
    threading._shutdown()
    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None and not stream.closed:
                stream.flush()
    except BaseException:
        raise SystemExit(code)  # the interpreter flushes again and reports it (exit 120), as an installed one does
    os._exit(code)

def streams():
    # As Python sets them up: stdout line-buffered on a terminal only, stderr always line-buffered.
    return (open(0, "r", encoding="utf-8", closefd=False),
            open(1, "w", encoding="utf-8", closefd=False, buffering=1 if os.isatty(1) else -1),
            open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False, buffering=1))

def handle(conn):
    """One client: fork the command, wait for it, send its status back."""
    request, fds = receive(conn)
    pid = os.fork()
    if pid == 0:
        conn.close()
        run(request, fds)
    for fd in fds:
        os.close(fd)
    _, status = os.waitpid(pid, 0)
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
    conn.sendall(str(code).encode())
    os._exit(0)

# Never outlive the test run that started us (a killed pytest cannot tear its fixtures down).
import ctypes, signal
ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
if os.getppid() != int(sys.argv[2]):
    os._exit(0)
server = socket.socket(socket.AF_UNIX)
address = sys.argv[1]
if len(os.fsencode(address)) >= 108:  # a long TMPDIR: the folder's /proc/self/fd entry is short
    address = "/proc/self/fd/%d/%s" % (os.open(os.path.dirname(address), os.O_PATH | os.O_DIRECTORY),
                                       os.path.basename(address))
server.bind(address)
server.listen(64)
print("ready", flush=True)
while True:
    conn, _ = server.accept()
    if os.fork() == 0:
        server.close()
        handle(conn)
    conn.close()
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass
'''

# The client imports nothing but the socket's C module (json and socket.py would double its ~16 ms of CPU a
# command). Its request is NUL-separated bytes, as no argument, variable or path can hold a NUL: umask, folder,
# its own path, the argument count, the arguments, then every NAME=VALUE of the environment.
_CLIENT = r'''#!{python} -IS
import _socket, os, sys
{select}fds = []
for fd in (0, 1, 2):
    try:
        os.fstat(fd)
        fds.append(fd)
    except OSError:  # a closed stream: the command gets /dev/null, as a fresh process would get an error
        fds.append(os.open(os.devnull, os.O_RDWR))
mask = os.umask(0)
os.umask(mask)
args = [os.fsencode(arg) for arg in sys.argv[1:]]
data = b"\0".join([b"%d" % mask, os.getcwdb(), os.fsencode(os.path.abspath(sys.argv[0])), b"%d" % len(args), *args,
                    *(name + b"=" + value for name, value in os.environb.items())])
data = len(data).to_bytes(8, "big") + data
client = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
address = {socket!r}
if len(os.fsencode(address)) >= 108:  # a long TMPDIR: the folder's /proc/self/fd entry is short
    address = "/proc/self/fd/%d/%s" % (os.open(os.path.dirname(address), os.O_PATH | os.O_DIRECTORY),
                                       os.path.basename(address))
client.connect(address)
sent = client.sendmsg([data], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, b"".join(fd.to_bytes(4, sys.byteorder)
                                                                               for fd in fds))])
# Only what is left: once all is sent, the server may run the command and close before this line runs (a loaded
# machine), and a send, even of nothing, to a closed peer fails with EPIPE after the command has succeeded.
if sent < len(data):
    client.sendall(data[sent:])
answer = b""
while chunk := client.recv(64):
    answer += chunk
if not answer:
    sys.stderr.write("gatekeeper (tests/warmcli.py): the server ended without the command's status\n")
    os._exit(70)
os._exit(int(answer))
'''


# The python client serves the two interpreters the GitHub Action's gate step starts (`-I -m
# gatekeeper.ci.github_action`, which starts `-I -m gatekeeper ARGS`) and the GitLab job's report step (`-I -m
# gatekeeper.ci.gitlab FILE`); any other use runs the real interpreter.
_PYTHON_SELECT = r'''args = sys.argv[1:]
if args[:2] != ["-I", "-m"] or not (args[2:] == ["gatekeeper.ci.github_action"] or args[2:3] == ["gatekeeper"]
                                    or args[2:3] == ["gatekeeper.ci.gitlab"]):
    os.execv({python!r}, [{python!r}, *args])
'''


@contextmanager
def served(folder: Path, env: dict[str, str]) -> Iterator[Path]:
    """A server for `gatekeeper` commands; yields a folder holding the `gatekeeper` client to put first on PATH."""
    with _server(folder, env, "gatekeeper") as client:
        yield client.parent


@contextmanager
def served_python(folder: Path, env: dict[str, str]) -> Iterator[Path]:
    """A server for `python -I -m gatekeeper.ci.github_action`, `python -I -m gatekeeper ARGS` and `python -I -m
    gatekeeper.ci.gitlab FILE`; yields the client, a `python` to stand in for a virtualenv's interpreter where
    gatekeeper is installed.

    The server runs isolated (`-I`) as the real ones do; what it cannot show is what isolation keeps out of a
    starting interpreter (a planted `gatekeeper/` folder, sitecustomize, PYTHON* variables): tests of that run
    the real interpreter (tests/test_action.py's hijack tests).
    """
    with _server(folder, env, "python") as client:
        yield client


@contextmanager
def _server(folder: Path, env: dict[str, str], mode: str) -> Iterator[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    socket_path = folder / f"{mode}.sock"
    client = folder / "bin" / mode
    client.parent.mkdir()
    select = _PYTHON_SELECT.format(python=sys.executable) if mode == "python" else ""
    client.write_text(_CLIENT.format(python=sys.executable, socket=str(socket_path), select=select), encoding="utf-8")
    client.chmod(0o755)
    flags = ["-I"] if mode == "python" else []
    server = subprocess.Popen([sys.executable, *flags, "-c", _SERVER, str(socket_path), str(os.getpid()), mode],
                              env=env, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        assert server.stdout is not None
        assert server.stdout.readline() == b"ready\n", f"the {mode} server did not start"
        yield client
    finally:
        try:
            os.killpg(server.pid, signal.SIGKILL)  # the server, and any command a failed test left running
        except ProcessLookupError:
            pass
        server.wait()
        server.stdout.close()  # type: ignore[union-attr]
