"""Sandbox backends: how the generator's command line is wrapped so it gets no network.

`unshare` (util-linux) and `bwrap` (bubblewrap) give the generator its own network namespace
(only loopback) and its own PID namespace (killing the sandbox's first process ends everything
in it). `none` isolates nothing and is used only when asked for by name.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from gatekeeper.errors import RunError, UsageError

BACKENDS: tuple[str, ...] = ("auto", "unshare", "bwrap", "none")
_PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent.parent)


@dataclass(frozen=True, slots=True)
class Sandbox:
    """A chosen backend and the argv prefix that enters it."""

    backend: str  # "unshare" | "bwrap" | "none"
    prefix: tuple[str, ...]

    @property
    def isolates(self) -> bool:
        """Whether this backend promises a network namespace without a way out."""
        return self.backend != "none"


def _unshare_prefix() -> tuple[str, ...] | None:
    exe = shutil.which("unshare")
    if exe is None:
        return None
    # A user namespace even for root: root's capabilities then hold only inside the new namespaces,
    # so the generator cannot `setns` back into the host's network through a host process's /proc entry.
    # --mount-proc hides the host's processes; --kill-child: PID 1 dies with unshare (which dies with us).
    return (exe, "--net", "--map-root-user", "--pid", "--fork", "--kill-child", "--mount-proc", "--")


def _bwrap_prefix() -> tuple[str, ...] | None:
    exe = shutil.which("bwrap")
    if exe is None:
        return None
    # bwrap keeps root's capabilities unless told otherwise; without them root cannot leave the namespace.
    caps = ("--cap-drop", "ALL") if os.geteuid() == 0 else ()
    return (
        exe, "--unshare-net", "--unshare-pid", "--die-with-parent", *caps,
        "--dev-bind", "/", "/", "--proc", "/proc", "--",
    )


@cache
def _works(prefix: tuple[str, ...]) -> str | None:
    """None when a trivial command runs inside `prefix`, else why not (cached per process)."""
    try:
        done = subprocess.run(
            [*prefix, sys.executable, "-I", "-c", "pass"],
            stdin=subprocess.DEVNULL, capture_output=True, timeout=20,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"exit code {done.returncode}"
    return None


def select(requested: str) -> Sandbox:
    """The backend for `--sandbox requested`; fails closed (RunError) when it cannot isolate."""
    if requested not in BACKENDS:
        raise UsageError(f"unknown sandbox backend {requested!r}", hint=f"use one of {', '.join(BACKENDS)}")
    if requested == "none":
        return Sandbox("none", ())
    finders = {"bwrap": _bwrap_prefix, "unshare": _unshare_prefix}
    order = ("bwrap", "unshare") if requested == "auto" else (requested,)
    problems = []
    for name in order:
        prefix = finders[name]()
        if prefix is None:
            problems.append(f"{name}: not installed")
            continue
        why = _works(prefix)
        if why is None:
            return Sandbox(name, prefix)
        problems.append(f"{name}: {why}")
    raise RunError(
        "cannot isolate the generator: no sandbox backend works here (" + "; ".join(problems) + ")",
        where=f"--sandbox {requested}",
        hint="install bubblewrap or util-linux unshare with user namespaces enabled, "
        "or pass --sandbox none to run WITHOUT isolation (the packet then says network: unrestricted)",
    )


HIDDEN = ("/run",)  # service sockets (docker.sock, D-Bus, systemd) live here; a filesystem socket crosses netns


@dataclass(frozen=True, slots=True)
class Guard:
    """What of the filesystem the generator may not write: `read_only` except `writable`; `hide` covered."""

    read_only: Path
    writable: tuple[Path, ...]
    needed: tuple[str, ...] = ()  # folders the generator needs (its PATH, its program's folder)

    @property
    def hide(self) -> tuple[str, ...]:
        # Never hide the folder the run lives in (an --out under /run).
        return tuple(h for h in HIDDEN if not self.read_only.is_relative_to(h) and not Path(h).is_symlink())

    @property
    def show(self) -> tuple[str, ...]:
        """The needed folders under a hidden one, bound back read-only (NixOS keeps its PATH in /run)."""
        hidden = self.hide
        found = [os.path.normpath(p) for p in self.needed if os.path.isabs(p) and os.path.isdir(p)]
        # Strictly below: a PATH entry naming /run itself does not bring all of /run back.
        return tuple(dict.fromkeys(p for p in found if any(Path(p).is_relative_to(h) and p != h for h in hidden)))


def _bwrap_guard(guard: Guard) -> list[str]:
    args: list[str] = []
    for hidden in guard.hide:
        args += ["--tmpfs", hidden]
    for shown in guard.show:
        args += ["--ro-bind", os.path.realpath(shown), shown]
    args += ["--ro-bind", str(guard.read_only), str(guard.read_only)]
    for path in guard.writable:
        args += ["--bind", str(path), str(path)]
    return args


def wrap(sandbox: Sandbox, probe_out: Path, command: tuple[str, ...], guard: Guard | None = None, *,
         relay: Path | None = None, relay_apis: tuple[str, ...] = ()) -> list[str]:
    """The full argv: sandbox prefix (with `guard` in force), the probing shim, then the generator command.

    With `relay` (the model relay's socket), the shim bridges http://127.0.0.1:PORT inside to it and points
    the generator's SDKs (`relay_apis`) there."""
    prefix, options = list(sandbox.prefix), []
    if guard is not None and sandbox.backend == "bwrap":
        at = prefix.index("--proc")
        prefix[at:at] = _bwrap_guard(guard)
    elif guard is not None and sandbox.backend == "unshare":
        options += ["--protect", str(guard.read_only)]
        for path in guard.writable:
            options += ["--writable", str(path)]
        for hidden in guard.hide:
            options += ["--hide", hidden]
        for shown in guard.show:
            options += ["--show", shown]
    shim = (
        "import sys; sys.path.insert(0, sys.argv[1]); from gatekeeper.runner.inside import main; "
        "sys.exit(main(sys.argv[2:]))"
    )
    require = ["--require-denied"] if sandbox.isolates else []
    if relay is not None:
        options += ["--relay", str(relay), *(arg for api in relay_apis for arg in ("--relay-api", api))]
    return [
        *prefix, sys.executable, "-I", "-c", shim, _PACKAGE_PARENT,
        "--probe-out", str(probe_out), *require, *options, "--", *command,
    ]
