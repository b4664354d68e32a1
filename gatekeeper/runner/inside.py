"""The shim that runs first inside the sandbox: loopback up, egress probe, then the generator.

Standard library only, started as `python -I -S` (no site: nothing of site-packages, its .pth files included,
runs or is imported inside, and every run starts ~25 ms of CPU sooner); its modules keep their imports few for
the same reason. In a PID namespace it is PID 1: it forwards
termination signals to the generator and reaps orphans; when it exits the kernel ends every
process left in the namespace, so a killed run leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import signal
import sys

from gatekeeper.runner import catchall, fsguard
from gatekeeper.runner.egress import bring_loopback_up, probe
from gatekeeper.runner.relay_bridge import client_environment, read_secret, start_bridge

EXIT_NOT_ISOLATED = 97  # the probe found a way out although isolation was required
EXIT_NOT_PROTECTED = 96  # the filesystem could not be confined as planned
EXIT_NO_RELAY = 95  # the model relay's socket could not be bridged
EXIT_KEPT_CAPS = 94  # the capabilities the catch-all needed could not all be dropped
EXIT_NOT_FOUND = 127
EXIT_NOT_EXECUTABLE = 126


def _write_json(path: str, obj: object) -> None:
    # A fresh name made here, never one found (what tempfile.mkstemp does, without importing it). Renamed whole
    # into place, not fsynced: the runner reads it once the sandbox has ended, and a run resumed after a crash
    # deletes it before its new attempt (the shim writes it up to three times a start, ~6 ms of disk wait each).
    tmp = f"{path}.{os.urandom(8).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        json.dump(obj, handle, indent=2)
        handle.write("\n")
    os.replace(tmp, path)


def _no_descriptor_passes_on() -> None:
    """What subprocess's close_fds did, before a plain posix_spawn: no descriptor of the shim's but 0, 1 and 2
    reaches the generator. Those Python opened are non-inheritable already; this covers any the shim was handed."""
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(3, os.sysconf("SC_OPEN_MAX")))
    for fd in fds:
        if fd > 2:
            try:
                if os.get_inheritable(fd):
                    os.set_inheritable(fd, False)
            except OSError:  # the listing's own, closed since
                pass


def _supervise(command: list[str]) -> int:
    child: int | None = None

    def forward(signum: int, _frame: object) -> None:
        if child is not None:
            try:
                os.kill(child, signum)
            except ProcessLookupError:
                pass

    # Installed before the child exists: PID 1 ignores any signal it has no handler for.
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, forward)
    _no_descriptor_passes_on()
    try:
        # posix_spawnp, not subprocess (whose import costs every sandbox start ~8 ms of CPU): looked up on PATH as
        # subprocess would, the signals Python ignores back at their defaults (subprocess's restore_signals), and
        # a command that cannot be run reported here, as subprocess reported it.
        child = os.posix_spawnp(command[0], command, os.environ, setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
    except FileNotFoundError:
        print(f"gatekeeper sandbox: command not found: {command[0]}", file=sys.stderr)
        return EXIT_NOT_FOUND
    except PermissionError:
        print(f"gatekeeper sandbox: command not executable: {command[0]}", file=sys.stderr)
        return EXIT_NOT_EXECUTABLE
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            return 0
        except InterruptedError:
            continue
        if pid == child:
            return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


def _confine(steps: list[list[str]], apply: bool, runner_mounts: str | None) -> str | None:
    """None once the plan is in force (carried out here when `apply`), else why not."""
    try:
        if apply:
            # Remounting the runner's own namespace read-only would confine nothing and break the host.
            if runner_mounts is None or os.readlink("/proc/self/ns/mnt") == runner_mounts:
                return "not in a mount namespace of its own"
            fsguard.apply(steps)
        problems = fsguard.unconfined(steps)
    except OSError as exc:
        return str(exc)
    return "; ".join(problems[:5]) or None


def main(argv: list[str]) -> int:
    """`inside --probe-out FILE [--require-denied] [--egress-fd FD [--drop-caps]] [--mounts JSON
    [--apply-mounts RUNNER_MNT_NS]] -- COMMAND...`: probe, route the network to the catch-all, confine the
    filesystem (or check bwrap did), then run and supervise COMMAND."""
    if "--" not in argv:
        print("gatekeeper sandbox: usage: inside --probe-out FILE [--require-denied] [--mounts JSON] -- COMMAND",
              file=sys.stderr)
        return 2
    split = argv.index("--")
    options, command = argv[:split], argv[split + 1 :]
    probe_out = options[options.index("--probe-out") + 1]
    loopback_error = bring_loopback_up()
    result = probe()
    result["loopback_error"] = loopback_error
    _write_json(probe_out, result)
    if "--require-denied" in options and result["network"] != "denied":
        print(
            "gatekeeper sandbox: the network is not isolated inside the sandbox "
            f"(interfaces up: {result.get('interfaces_up')}, routes out: {result.get('routes_out')}); "
            "refusing to run the generator",
            file=sys.stderr,
        )
        return EXIT_NOT_ISOLATED
    out = int(options[options.index("--egress-fd") + 1]) if "--egress-fd" in options else None
    device = _catch_all(result) if out is not None else None
    if "--drop-caps" in options:
        # bwrap as root: the shim alone held the device node and the capabilities to use it; both go now.
        try:
            catchall.hide_device()
            catchall.drop_capabilities()
        except OSError as exc:
            print(f"gatekeeper sandbox: cannot give up what the catch-all needed: {exc}; refusing to run the "
                  "generator", file=sys.stderr)
            return EXIT_KEPT_CAPS
    if "--mounts" in options:
        runner_mounts = options[options.index("--apply-mounts") + 1] if "--apply-mounts" in options else None
        why = _confine(json.loads(options[options.index("--mounts") + 1]), "--apply-mounts" in options, runner_mounts)
        result["protected"] = why is None
        _write_json(probe_out, result)  # the exchange folder stays writable
        if why is not None:
            print(f"gatekeeper sandbox: cannot confine the filesystem: {why}; refusing to run the generator",
                  file=sys.stderr)
            return EXIT_NOT_PROTECTED
        # The working directory was entered before the mounts: enter it again, through the workspace's bind.
        os.chdir(os.getcwd())
    if device is not None and not catchall.resolver_in_force():
        result.update(egress_recording="unavailable",
                      egress_error=f"/etc/resolv.conf does not name only the catch-all's resolver {catchall.RESOLVER}")
    if out is not None:
        os.set_inheritable(out, False)
        catchall.report(out, str(result["egress_recording"]), result.get("egress_error"))  # type: ignore[arg-type]
        if device is not None:
            catchall.start(device, out)
        _write_json(probe_out, result)
    if "--relay" in options:
        apis = [options[i + 1] for i, opt in enumerate(options) if opt == "--relay-api"]
        try:
            # The relay serves only connections that open with its secret, which the runner hands this process alone.
            secret = read_secret(int(options[options.index("--relay-key-fd") + 1]))
            port = start_bridge(options[options.index("--relay") + 1], secret)
        except (OSError, ValueError) as exc:
            print(f"gatekeeper sandbox: cannot reach the model relay: {exc}; refusing to run the generator",
                  file=sys.stderr)
            return EXIT_NO_RELAY
        # The generator's environment, as the runner built it, plus the relay's address and a placeholder key.
        os.environ.update(client_environment(port, apis))
    if device is not None:
        try:
            catchall.keep_from_tracing()
        except OSError as exc:
            print(f"gatekeeper sandbox: cannot keep the catch-all from the generator: {exc}; refusing to run it",
                  file=sys.stderr)
            return EXIT_KEPT_CAPS
    code = _supervise(command)
    if device is not None and out is not None:
        catchall.end_stragglers()
        catchall.finish(out)
    return code


def _catch_all(result: dict[str, object]) -> int | None:
    """The catch-all device (catchall.py), or None with the reason in the probe: the run then says its
    egress went unrecorded, and a policy reviews it."""
    try:
        device = catchall.setup()
    except OSError as exc:
        result.update(egress_recording="unavailable", egress_error=f"no catch-all device: {exc.strerror or exc}")
        return None
    result.update(egress_recording="recorded", egress_error=None)
    return device
