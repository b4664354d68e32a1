"""The generator's view of the filesystem: one ordered mount plan that both backends carry out.

Everything is read-only (the root bound over itself, submounts included); /dev holds a few device
nodes, read-only; /proc belongs to the sandbox's PID namespace; /tmp is a private tmpfs; the
caller's homes, /run, /var/tmp, credential stores and every listening unix socket of the host are
covered by empty read-only mounts. Only the workspace and the exchange folder are bound writable;
the generator's HOME is a private tmpfs like its /tmp. bwrap gets the plan as its options; the
`unshare` shim carries it out itself (fsguard.py, standard library only), so the two backends
cannot drift apart.
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import stat
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gatekeeper.runner.fsguard import PROC_COVERED

# Service sockets (docker.sock, D-Bus, systemd, ssh-agent under /run/user) and shared scratch space.
HIDDEN_ALWAYS = ("/run", "/var/run", "/var/tmp", "/home", "/root")
# Host secrets a root runner's generator could otherwise read (mode 0600/0640, owned by root).
HOST_SECRETS = ("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/ssl/private",
                "/etc/sudoers", "/etc/sudoers.d", "/var/lib/docker", "/var/lib/containers")
# Relative to every home folder: hidden even when that home itself cannot be (HOME=/).
CREDENTIAL_STORES = (
    ".ssh", ".aws", ".azure", ".config/gcloud", ".config/gh", ".docker", ".kube", ".gnupg", ".netrc",
    ".git-credentials", ".npmrc", ".pypirc", ".config/git/credentials",
)
# Variables that point tools at credentials or agent sockets outside the default places.
CREDENTIAL_VARIABLES = (
    "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "GOOGLE_APPLICATION_CREDENTIALS", "CLOUDSDK_CONFIG",
    "DOCKER_CONFIG", "KUBECONFIG", "GH_CONFIG_DIR", "AZURE_CONFIG_DIR", "GNUPGHOME", "NETRC", "SSH_AUTH_SOCK",
    "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "NPM_CONFIG_USERCONFIG", "PIP_CONFIG_FILE",
)
# Handled by their own mounts: a private tmpfs, a minimal /dev, the sandbox's own /proc.
_OWN_MOUNTS = ("/tmp", "/dev", "/proc")
# The runner's own interpreter and package: the bwrap shim runs from them inside the sandbox.
RUNNER_FILES = tuple(dict.fromkeys((sys.prefix, sys.base_prefix, sys.exec_prefix,
                                    str(Path(__file__).resolve().parent.parent.parent))))


@dataclass(frozen=True, slots=True)
class Mount:
    """One step: `root` (all read-only), `dev`, `proc`, `tmp` (private tmpfs), `hide` (empty read-only
    folder), `cover` (an empty read-only file over a file or socket), `ro` / `rw` (bind source at target),
    `device` (a device node bound read-only, bwrap only)."""

    kind: str
    target: str
    source: str = ""


@dataclass(frozen=True, slots=True)
class Plan:
    """The ordered mounts; later ones go on top of earlier ones."""

    mounts: tuple[Mount, ...]

    def bind(self, source: Path, target: Path, *, writable: bool = False) -> Plan:
        """This plan plus one bind after all others, so it is on top (even of a cover over a listening socket
        at that path): a model relay's socket, say."""
        return Plan((*self.mounts, Mount("rw" if writable else "ro", str(target), str(source))))

    def device(self, path: str) -> Plan:
        """This plan plus the device node at `path`, for the shim alone: bwrap only (the `unshare` shim opens
        what it needs before it mounts anything), and the shim unmounts it before the generator starts."""
        return Plan((*self.mounts, Mount("device", path, path)))

    def to_json(self) -> str:
        """The plan as the `unshare` shim reads it (one argv word)."""
        return json.dumps([[m.kind, m.target, m.source] for m in self.mounts])

    def bwrap_args(self) -> list[str]:
        """The plan as bubblewrap options, in order; empty folders become read-only once filled."""
        args: list[str] = []
        later: list[str] = []
        for m in self.mounts:
            if m.kind == "root":
                args += ["--ro-bind", "/", "/"]
            elif m.kind == "dev":
                args += ["--dev", m.target]
                later += ["--remount-ro", m.target]
            elif m.kind == "proc":
                # bwrap covers these only where it can write them by its own test, which passes them as root.
                args += ["--proc", m.target]
                for name in PROC_COVERED:
                    if os.path.lexists(f"/proc/{name}"):
                        args += ["--ro-bind", f"/proc/{name}", f"{m.target}/{name}"]
            elif m.kind == "tmp":
                args += ["--tmpfs", m.target]
            elif m.kind == "hide":
                args += ["--tmpfs", m.target]
                later += ["--remount-ro", m.target]
            elif m.kind == "cover":
                # A socket or file gone since the plan leaves nothing to cover, and bwrap could not make its
                # mount point in the read-only root (a host service's socket vanishing must not fail the run).
                if os.path.lexists(m.target):
                    args += ["--ro-bind", os.devnull, m.target]
            elif m.kind == "device":
                # Not remounted read-only: bwrap would add nodev. The shim unmounts it once it holds it open.
                args += ["--dev-bind", m.source, m.target]
            else:
                args += ["--bind" if m.kind == "rw" else "--ro-bind", m.source, m.target]
        return args + later


# What every sandbox starts from (also what `sandbox.select` tries a backend with).
BASE = Plan((Mount("root", "/"), Mount("dev", "/dev"), Mount("proc", "/proc"), Mount("tmp", "/tmp")))


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def trial() -> Plan:
    """What `sandbox.select` tries a backend with: BASE, plus the runner's interpreter when it lives in /tmp."""
    shown = [p for p in RUNNER_FILES if _under(p, "/tmp")]
    return Plan((*BASE.mounts, *(Mount("ro", p, os.path.realpath(p)) for p in shown)))


def _homes(environ: Mapping[str, str]) -> list[str]:
    homes = [environ.get("HOME", "")]
    try:
        homes.append(pwd.getpwuid(os.geteuid()).pw_dir)
    except KeyError:
        pass
    return [h for h in homes if os.path.isabs(h)]


def _existing(paths: Iterable[str]) -> list[str]:
    resolved = []
    for path in paths:
        real = os.path.realpath(path)
        if real != "/" and os.path.lexists(real):
            resolved.append(real)
    return list(dict.fromkeys(resolved))


def secret_places(environ: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """What the generator must not see (resolved, existing): folders that hold secrets among other things
    (homes, /run, ...), and the credential stores themselves (in every home, or named by a variable)."""
    homes = _homes(environ)
    stores = [os.path.join(home, store) for home in homes for store in CREDENTIAL_STORES]
    for name in CREDENTIAL_VARIABLES:
        stores += [p for p in environ.get(name, "").split(os.pathsep) if os.path.isabs(p)]
    host_keys = sorted(glob.glob("/etc/ssh/ssh_host_*key"))
    return _existing([*HIDDEN_ALWAYS, *homes]), _existing([*stores, *HOST_SECRETS, *host_keys])


def key_files(key: Path, limit: int = 4096) -> list[str]:
    """The runner's signing key and every private key in its folder (resolved): `keys generate --out` writes every
    role's key into one folder, and an approver's or the gate's key beside the runner's would sign for the generator.
    A key is a regular file (a link counted by its target) named `*.key`/`*.pem`, or holding `PRIVATE KEY` in its
    first 4 KiB. The first `limit` entries of the folder are read."""
    found = [str(key)]
    try:
        with os.scandir(key.parent) as entries:
            names = [entry.path for _, entry in zip(range(limit), entries, strict=False)]
    except OSError:
        return found
    for path in names:
        real = os.path.realpath(path)
        if path.endswith((".key", ".pem")) or _holds_private_key(real):
            found.append(real)
    return list(dict.fromkeys(found))


def _holds_private_key(path: str) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a FIFO there must not block the run
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and b"PRIVATE KEY" in os.read(fd, 4096)
    except OSError:
        return False
    finally:
        os.close(fd)


def listening_sockets(table: str = "/proc/net/unix") -> list[str]:
    """Paths of the unix sockets bound in the runner's network namespace (a socket file crosses netns)."""
    try:
        with open(table, encoding="utf-8", errors="surrogateescape") as handle:
            rows = handle.read().splitlines()[1:]
    except OSError:
        return []
    paths = []
    for row in rows:
        fields = row.split(None, 7)
        if len(fields) == 8 and fields[7].startswith("/"):
            paths.append(fields[7])
    return list(dict.fromkeys(paths))


def _shown(needed: Iterable[str], folders: Sequence[str], secrets: Sequence[str], stores: Sequence[str],
           rehidden: Sequence[str] = ()) -> list[str]:
    # A needed path strictly below a hidden folder is bound back read-only, unless it holds a secret place
    # or lies in a credential store: a PATH entry naming a home must not bring the home (and ~/.ssh) back,
    # and no argument brings back a key (`-- agent ~/.ssh/id_ed25519` sees nothing there).
    shown = []
    for path in needed:
        if not os.path.isabs(path) or not os.path.exists(path):
            continue
        path, real = os.path.normpath(path), os.path.realpath(path)
        below = any(_under(path, f) and path != f for f in folders)
        # Judged by where it leads: a link in a PATH folder may point at the home itself.
        # (`rehidden`: hidden again after the binds, so a folder holding one may be shown: plan's runs folder; a secret
        # file is covered after every bind too, so only a secret folder keeps the folder holding it out of sight.)
        holds = any(_under(s, real) for s in [*secrets, *folders] if s not in rehidden and not os.path.isfile(s))
        inside = any(_under(real, s) for s in stores)
        if below and not holds and not inside:
            shown.append(path)
    return list(dict.fromkeys(shown))


def plan(
    *, run_dir: Path, writable: Sequence[Path], needed: Sequence[str], environ: Mapping[str, str],
    private: Sequence[Path] = (), sockets: Sequence[str] | None = None, keys: Sequence[Path] = (),
) -> Plan:
    """The mounts for one run: read-only everything, hidden secrets, `needed` shown, `writable` bound writable,
    `private` folders (the generator's HOME) private writable tmpfs like /tmp; `keys` (the runner's own
    signing key, and the private keys beside it: key_files) covered wherever they are, like a credential store."""
    containers, stores = secret_places(environ)
    # The runs folder holds the other runs (their work trees, patches, logs): hidden like a home, with this run's
    # folder shown again below (runner 37: a generator read an earlier run's work through `../..`).
    runs = _existing([str(run_dir.parent)])
    containers = list(dict.fromkeys([*containers, *runs]))
    stores = list(dict.fromkeys([*stores, *_existing(f for p in keys for f in key_files(p))]))
    socket_paths = listening_sockets() if sockets is None else list(sockets)
    places = [*containers, *stores]
    folders = [p for p in places if os.path.isdir(p) and not os.path.islink(p)]
    hidden = [f for f in folders if not any(_under(f, o) for o in _OWN_MOUNTS)]
    # Outermost only: a folder inside a hidden one is already out of sight.
    hidden = [f for f in sorted(set(hidden)) if not any(_under(f, h) and f != h for h in hidden)]
    out_of_sight = [*hidden, *_OWN_MOUNTS]
    mounts = list(BASE.mounts)
    mounts += [Mount("hide", h) for h in hidden]
    secrets = [*stores, *[c for c in containers if c not in hidden and c not in runs]]
    shown = _shown([*RUNNER_FILES, *needed], out_of_sight, secrets, stores, runs)
    mounts += [Mount("ro", path, os.path.realpath(path)) for path in shown]
    # A shown folder holding the runs folder (a generator beside `--out`, docs review 53) brings it back: hide it again.
    mounts += [Mount("hide", r) for r in runs if any(_under(r, os.path.realpath(p)) for p in shown)]
    mounts.append(Mount("ro", str(run_dir), str(run_dir)))
    mounts += [Mount("rw", str(p), str(p)) for p in writable]
    mounts += [Mount("tmp", str(p)) for p in private]
    files = [p for p in places if p not in folders]
    for sock in socket_paths:
        try:
            if stat.S_ISSOCK(os.lstat(sock).st_mode):
                files.append(os.path.realpath(sock))
        except OSError:
            continue
    # Last, so that no bind above brings one back (a socket in a shown folder, in the run directory).
    visible = [*shown, str(run_dir)]
    covered = [f for f in dict.fromkeys(files)
               if not any(_under(f, o) for o in out_of_sight) or any(_under(f, v) for v in visible)]
    mounts += [Mount("cover", f) for f in covered]
    return Plan(tuple(mounts))
