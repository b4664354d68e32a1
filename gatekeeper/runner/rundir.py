"""The run directory: where a run lives, its id, its lock, and its state file.

Layout of `<runs>/<run_id>/`: state.json (stage, request, results so far), workspace/ (the clone),
home/ (the generator's HOME), logs/{stdout,stderr}.log, checkpoints/NNNN.diff,
exchange/{sandbox-probe.json,model-report.json} (written from inside the sandbox), relay/relay.sock and
relay.jsonl (the model relay's socket and log, when the run has one), egress.jsonl and resolv.conf (the
record of attempts to reach the network around the relay, and the resolver shown inside), patch.diff,
packet.json.
Inside the sandbox only workspace/ and exchange/ are writable (home/ is a private tmpfs there).
"""

from __future__ import annotations

import errno
import fcntl
import os
import pwd
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from gatekeeper.errors import RunError, UsageError
from gatekeeper.packet import new_run_id
from gatekeeper.readable import printable

_RUN_ID = re.compile(r"[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}\Z")


def now() -> str:
    """The current UTC time as RFC 3339 with `+00:00`."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def default_runs_root(env: Mapping[str, str] = os.environ) -> Path:
    """`$XDG_STATE_HOME/gatekeeper/runs`, else `~/.local/state/gatekeeper/runs` (never /tmp)."""
    state = env.get("XDG_STATE_HOME")
    if state and os.path.isabs(state):
        return Path(state) / "gatekeeper" / "runs"
    return _home(env) / ".local" / "state" / "gatekeeper" / "runs"


def _home(env: Mapping[str, str]) -> Path:
    # A relative HOME would put the runs under whatever the current folder is (/tmp, say); an empty one, under /.
    home = env.get("HOME", "")
    if not os.path.isabs(home):
        try:
            home = pwd.getpwuid(os.getuid()).pw_dir
        except KeyError:
            home = ""
    if not os.path.isabs(home) or home == "/":
        raise UsageError("no home folder to keep runs in (HOME is not set, and the user has none)",
                         where="HOME", hint="pass --out DIR, or set XDG_STATE_HOME to an absolute path")
    return Path(home)


@dataclass(frozen=True, slots=True)
class RunDir:
    """Paths of one run's directory."""

    root: Path
    run_id: str

    @property
    def path(self) -> Path:
        return self.root / self.run_id

    @property
    def state(self) -> Path:
        return self.path / "state.json"

    @property
    def workspace(self) -> Path:
        return self.path / "workspace"

    @property
    def home(self) -> Path:
        return self.path / "home"

    @property
    def logs(self) -> Path:
        return self.path / "logs"

    @property
    def checkpoints(self) -> Path:
        return self.path / "checkpoints"

    @property
    def exchange(self) -> Path:
        """The one run folder (besides workspace/ and home/) that the sandbox may write."""
        return self.path / "exchange"

    @property
    def probe(self) -> Path:
        return self.exchange / "sandbox-probe.json"

    @property
    def relay_socket(self) -> Path:
        """The model relay's unix socket: in a folder of its own, read-only inside the sandbox."""
        return self.path / "relay" / "relay.sock"

    @property
    def relay_log(self) -> Path:
        """Every model call and refused attempt of the run (JSON lines), kept across --resume."""
        return self.path / "relay.jsonl"

    @property
    def egress_log(self) -> Path:
        """Every attempt to reach the network around the relay (JSON lines), kept across --resume."""
        return self.path / "egress.jsonl"

    @property
    def resolv_conf(self) -> Path:
        """The resolver configuration shown inside the sandbox: it names the catch-all's resolver."""
        return self.path / "resolv.conf"

    @property
    def model_report(self) -> Path:
        return self.exchange / "model-report.json"

    @property
    def patch(self) -> Path:
        return self.path / "patch.diff"

    @property
    def packet(self) -> Path:
        return self.path / "packet.json"

    @property
    def git_config_copy(self) -> Path:
        return self.path / "workspace-git-config"

    @property
    def checkpoint_index(self) -> Path:
        return self.path / "checkpoint.index"

    @property
    def snapshot_git(self) -> Path:
        return self.path / "checkpoint.git"


def create(root: Path) -> RunDir:
    """Make a fresh run directory under `root`."""
    root = root.expanduser().resolve()
    for _ in range(5):
        run = RunDir(root, new_run_id())
        try:
            run.path.mkdir(parents=True, exist_ok=False)
        except FileExistsError:
            continue
        except OSError as exc:
            raise RunError(f"cannot create the run directory: {exc.strerror}", where=str(run.path),
                           hint="pass --out DIR naming a writable folder") from exc
        for sub in (run.home, run.logs, run.checkpoints, run.exchange, run.relay_socket.parent):
            sub.mkdir()
        return run
    raise RunError("cannot pick a free run id", where=str(root))


def existing(root: Path, run_id: str) -> RunDir:
    """The run directory of `run_id` under `root` (raises UsageError when there is none)."""
    if not _RUN_ID.match(run_id):
        raise UsageError(f"not a run id: {run_id!r}", where="--resume",
                         hint="pass the run_id that `gatekeeper run` printed, e.g. 20260101T000000Z-0a1b2c3d")
    run = RunDir(root.expanduser().resolve(), run_id)
    if not run.state.is_file():
        raise UsageError(f"no run {run_id} here", where=str(run.path),
                         hint="pass --out DIR if the run was started with --out")
    return run


def read_exchange(path: Path, limit: int) -> bytes:
    """At most `limit` bytes of a file the sandbox wrote; OSError unless a regular file (no link, FIFO, device)."""
    # The generator may have swapped it for a FIFO (would block), a link to /dev/zero (endless) or to a secret.
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        data = os.read(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit} bytes", str(path))
    return data


def last_line(path: Path, window: int = 4096) -> str | None:
    """The last non-blank line in the final `window` bytes of a log, shown escaped and cut at 300 characters;
    None when there is none or the log cannot be read."""
    try:
        with path.open("rb") as handle:
            handle.seek(max(0, handle.seek(0, os.SEEK_END) - window))
            tail = handle.read(window)
    except OSError:
        return None
    lines = [line for line in tail.decode("utf-8", "replace").splitlines() if line.strip()]
    return printable(lines[-1].strip())[:300] if lines else None


class Lock:
    """An exclusive lock on a run directory, held while a runner works on it (released on death)."""

    def __init__(self, run: RunDir) -> None:
        self._path = run.path / ".lock"
        self._fd: int | None = None

    def __enter__(self) -> Lock:
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RunError("the run is in use by another gatekeeper process", where=str(self._path.parent),
                           hint="wait for it to finish, or stop it before resuming") from None
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
