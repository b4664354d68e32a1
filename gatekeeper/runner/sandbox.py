"""Sandbox backends: how the generator's command line is wrapped so it gets no network and a confined view
of the filesystem.

`unshare` (util-linux) and `bwrap` (bubblewrap) give the generator its own network namespace
(only loopback), its own PID namespace (killing the sandbox's first process ends everything
in it) and its own mount namespace, set up from one plan (mounts.py). `none` isolates nothing
and is used only when asked for by name.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gatekeeper.bounded import load_json
from gatekeeper.errors import LimitError, RunError, UsageError
from gatekeeper.gitcmd import absolute_path
from gatekeeper.runner import catchall, mounts
from gatekeeper.runner.mounts import Plan
from gatekeeper.runner.rundir import last_line, read_exchange

BACKENDS: tuple[str, ...] = ("auto", "unshare", "bwrap", "none")
_PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent.parent)
PROBE_MAX = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Sandbox:
    """A chosen backend and the argv prefix that enters it."""

    backend: str  # "unshare" | "bwrap" | "none"
    prefix: tuple[str, ...]

    @property
    def isolates(self) -> bool:
        """Whether this backend promises a network namespace without a way out and a confined filesystem."""
        return self.backend != "none"


def _which(name: str) -> str | None:
    # Absolute PATH folders only: the sandbox starts in the workspace, where "./bwrap" would be the clone's.
    found = shutil.which(name, path=absolute_path(os.environ.get("PATH", os.defpath)))
    return None if found is None else os.path.abspath(found)


def _unshare_prefix() -> tuple[str, ...] | None:
    exe = _which("unshare")
    if exe is None:
        return None
    # A user namespace even for root: root's capabilities then hold only inside the new namespaces,
    # so the generator cannot `setns` back into the host's network through a host process's /proc entry.
    # --mount-proc hides the host's processes; --kill-child: PID 1 dies with unshare (which dies with us).
    return (exe, "--net", "--map-root-user", "--pid", "--fork", "--kill-child", "--mount-proc", "--")


def _bwrap_prefix() -> tuple[str, ...] | None:
    exe = _which("bwrap")
    if exe is None:
        return None
    # bwrap keeps root's capabilities unless told otherwise; without them root cannot leave the namespace.
    caps = ("--cap-drop", "ALL") if os.geteuid() == 0 else ()
    # The mounts come from the run's plan (`wrap`); without one, bwrap would start in an empty root.
    # --as-pid-1: the shim is the namespace's PID 1 (it reaps orphans itself), which the kernel shields from
    # the generator's SIGKILL and SIGSTOP; as PID 2 it could be killed with packets still queued on its device.
    return (exe, "--unshare-net", "--unshare-pid", "--as-pid-1", "--die-with-parent", *caps, "--")


def _entered(prefix: tuple[str, ...], plan: Plan, extra: tuple[str, ...] = ()) -> list[str]:
    if Path(prefix[0]).name == "bwrap":
        return [*prefix[:-1], *extra, *plan.bwrap_args(), "--"]
    return list(prefix)


@cache
def _works(prefix: tuple[str, ...]) -> str | None:
    """None when a trivial command runs inside `prefix`, else why not (cached per process)."""
    try:
        done = subprocess.run(
            [*_entered(prefix, mounts.trial()), sys.executable, "-I", "-S", "-c", "pass"],
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


def wrap(sandbox: Sandbox, probe_out: Path, command: tuple[str, ...], plan: Plan, *,
         relay: Path | None = None, relay_apis: tuple[str, ...] = (), egress_fd: int | None = None,
         relay_key_fd: int | None = None) -> list[str]:
    """The full argv: sandbox prefix (bwrap: with `plan` as its mounts), the shim (`unshare`: carrying out
    `plan`; both: checking it is in force), then the generator command.

    With `relay` (the model relay's socket), the shim bridges http://127.0.0.1:PORT inside to it and points
    the generator's SDKs (`relay_apis`) there, opening each connection with the relay's secret, which it reads
    from the inherited pipe `relay_key_fd` (without it, it refuses to run the generator). With `egress_fd` (an
    inherited pipe), the shim routes the sandbox's network to its catch-all device and records every attempt there
    (catchall.py)."""
    options: list[str] = []
    extra: tuple[str, ...] = ()
    if sandbox.isolates:
        if egress_fd is not None:
            options += ["--egress-fd", str(egress_fd)]
            if sandbox.backend == "bwrap" and os.geteuid() == 0 and os.path.exists(catchall.TUN):
                # The shim needs CAP_NET_ADMIN over the sandbox's network (bwrap as root makes no user
                # namespace) to create the device and its routes, CAP_SYS_ADMIN to unmount the device node
                # once it holds it open, CAP_SETPCAP to empty the bounding set: it drops them all before the
                # generator starts (--drop-caps), and refuses to run it otherwise.
                extra = ("--cap-add", "CAP_NET_ADMIN", "--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETPCAP")
                plan = plan.device(catchall.TUN)
                options += ["--drop-caps"]
        options += ["--require-denied", "--mounts", plan.to_json()]
        if sandbox.backend == "unshare":
            options += ["--apply-mounts", os.readlink("/proc/self/ns/mnt")]
    if relay is not None:
        options += ["--relay", str(relay), *(arg for api in relay_apis for arg in ("--relay-api", api))]
        options += [] if relay_key_fd is None else ["--relay-key-fd", str(relay_key_fd)]
    shim = (
        "import sys; sys.path.insert(0, sys.argv[1]); from gatekeeper.runner.inside import main; "
        "sys.exit(main(sys.argv[2:]))"
    )
    prefix = _entered(sandbox.prefix, plan, extra) if sandbox.isolates else []
    return [*prefix, sys.executable, "-I", "-S", "-c", shim, _PACKAGE_PARENT, "--probe-out", str(probe_out), *options,
            "--", *command]


def lost_a_cover(plan: Plan, probe_out: Path, log: Path) -> bool:
    """Whether the sandbox failed to start because a path it was to cover vanished after the plan (another job's
    socket, removed with its folder): bwrap cannot make the mount point in its read-only root. The shim never
    ran (it writes the probe first, before any generator), and the sandbox's own error names that path."""
    if probe_out.exists():
        return False
    gone = [m.target for m in plan.mounts if m.kind == "cover" and not os.path.lexists(m.target)]
    if not gone:
        return False
    try:
        with open(log, "rb") as handle:
            handle.seek(max(0, os.fstat(handle.fileno()).st_size - 8192))
            tail = handle.read().decode(errors="replace").splitlines()
    except OSError:
        return False
    return any(line.startswith("bwrap: ") and target in line for line in tail for target in gone)


def read_probe(box: Sandbox, probe_out: Path, log: Path) -> dict[str, Any]:
    """What the shim found inside before it ran the generator; RunError unless the sandbox isolated as asked."""
    try:
        probe = load_json(read_exchange(probe_out, PROBE_MAX).decode("ascii"), str(probe_out))
        if not isinstance(probe, dict):
            raise ValueError("not an object")
    except (OSError, ValueError, LimitError):
        said = last_line(log)
        raise RunError(
            f"the sandbox ({box.backend}) did not start the generator: no egress check was recorded"
            + (f" (the log ends: {said})" if said else ""),
            where=str(log), hint="read the log for the sandbox's error; resume with --resume",
        ) from None
    if box.isolates and probe.get("network") != "denied":
        raise RunError(
            f"the {box.backend} sandbox left a way out (interfaces up: {probe.get('interfaces_up')}, "
            f"routes out: {probe.get('routes_out')}); the generator was not run",
            where=str(probe_out), hint="fix the sandbox setup or pass --sandbox none explicitly",
        )
    if box.isolates and probe.get("protected") is not True:
        # The shim checks from inside that the mount plan is in force (with unshare it also carried it out).
        raise RunError(
            f"the {box.backend} sandbox could not confine the filesystem (read-only outside the workspace); "
            "the generator was not run",
            where=str(log),
            hint="read the log for the reason; try the other backend, or pass --sandbox none explicitly",
        )
    return probe
