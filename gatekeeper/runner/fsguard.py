"""Carrying out the mount plan inside the `unshare` sandbox, and checking it in either backend.

Standard library only: runs inside the sandbox, in the shim, before the generator starts. Every
mount is made read-only in place (the shim has its own mount namespace), then the plan's steps
(mounts.py) go on top. A nested user and mount namespace finally locks it all: root in it can
neither unmount a cover nor make a read-only mount writable again.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Sequence

MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_REC = 0x4000
MS_RELATIME = 0x200000
ST_RDONLY = 0x1
ST_RELATIME = 0x1000
_KEPT_FLAGS = 0x2 | 0x4 | 0x8 | 0x400 | 0x800  # nosuid nodev noexec noatime nodiratime
CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
# What bwrap's --proc covers too: writing there reaches the host kernel (sysrq-trigger reboots it).
PROC_COVERED = ("sys", "sysrq-trigger", "irq", "bus")
_libc = ctypes.CDLL(None, use_errno=True)

Step = Sequence[str]  # [kind, target, source], see mounts.Mount


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    args = [None if v is None else v.encode() for v in (source, target, fstype)]
    if _libc.mount(args[0], args[1], args[2], flags, None if data is None else data.encode()) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount {target}: {os.strerror(err)}")


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(text)


def _lock() -> None:
    # Mounts copied into a mount namespace of a less privileged user namespace are locked together.
    uid, gid = os.geteuid(), os.getegid()
    if _libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"unshare: {os.strerror(err)}")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1\n")
    _write("/proc/self/gid_map", f"{gid} {gid} 1\n")


def _remount(path: str, *, read_only: bool) -> None:
    # A remount must repeat the flags the mount already has (nosuid, ...): they may be locked.
    have = os.statvfs(path).f_flag
    flags = (have & _KEPT_FLAGS) | (MS_RELATIME if have & ST_RELATIME else 0) | (MS_RDONLY if read_only else 0)
    _mount(None, path, None, MS_BIND | MS_REMOUNT | flags)


def _unescape(field: str) -> str:
    # mountinfo writes space, tab, newline and backslash as 3-digit octal escapes.
    out, i = bytearray(), 0
    raw = field.encode("utf-8", "surrogateescape")
    while i < len(raw):
        if raw[i : i + 1] == b"\\" and raw[i + 1 : i + 4].isdigit():
            out.append(int(raw[i + 1 : i + 4], 8))
            i += 4
        else:
            out.append(raw[i])
            i += 1
    return out.decode("utf-8", "surrogateescape")


def mount_table() -> list[tuple[str, bool]]:
    """(mount point, read-only) of every mount this process's namespace has, in mount order."""
    with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as handle:
        rows = [line.split() for line in handle if line.strip()]
    return [(_unescape(row[4]), "ro" in row[5].split(",")) for row in rows]


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _read_only_tree(top: str, skip: Sequence[str] = ()) -> None:
    for point in dict.fromkeys(p for p, ro in mount_table() if _under(p, top) and not ro):
        if any(_under(point, s) for s in skip) or not os.path.lexists(point):
            continue  # the sandbox's own /proc; a mount point its parent mount hides
        _remount(point, read_only=True)


def _mountpoint(target: str, folder: bool) -> None:
    if os.path.lexists(target):
        return
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if folder:
        os.mkdir(target)
    else:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))


def _dev(target: str, devices: dict[str, int]) -> None:
    _mount("tmpfs", target, "tmpfs", MS_NOSUID, "mode=755")
    for name, fd in devices.items():
        _mountpoint(f"{target}/{name}", folder=False)
        _mount(f"/proc/self/fd/{fd}", f"{target}/{name}", None, MS_BIND)
    for name, to in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                     ("stderr", "/proc/self/fd/2"), ("ptmx", "pts/ptmx")):
        os.symlink(to, f"{target}/{name}")
    for name in ("shm", "pts"):
        os.mkdir(f"{target}/{name}")
    try:
        _mount("devpts", f"{target}/pts", "devpts", MS_NOSUID, "newinstance,ptmxmode=0666,mode=620")
    except OSError:
        pass  # no pseudo-terminals: a confinement is not weakened by that


def _proc(target: str) -> None:
    for name in PROC_COVERED:
        path = f"{target}/{name}"
        if os.path.lexists(path):
            _mount(path, path, None, MS_BIND | MS_REC)
            _read_only_tree(path)


def apply(steps: Sequence[Step]) -> None:
    """Carry out the plan's steps in order, make the emptied folders read-only, and lock it all."""
    # Opened first: the mounts below hide the sources (a run directory under /tmp, a device in /dev).
    sources = {i: os.open(step[2], os.O_PATH) for i, step in enumerate(steps) if step[0] in ("ro", "rw")}
    devices = {name: os.open(f"/dev/{name}", os.O_PATH) for name in DEVICES if os.path.exists(f"/dev/{name}")}
    null = os.open(os.devnull, os.O_PATH)
    filled_later: list[str] = []
    try:
        for i, (kind, target, _source) in enumerate(steps):
            if kind == "root":
                _read_only_tree(target, skip=("/proc",))
            elif kind == "dev":
                _dev(target, devices)
                filled_later.append(target)
            elif kind == "proc":
                _proc(target)
            elif kind == "tmp":
                _mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
            elif kind == "hide":
                _mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, "mode=755")
                filled_later.append(target)
            elif kind == "cover":
                try:
                    _mount(f"/proc/self/fd/{null}", target, None, MS_BIND)
                    _remount(target, read_only=True)
                except FileNotFoundError:
                    continue  # gone since the plan (a host service's socket), even meanwhile: nothing to cover
            elif kind == "device":
                continue  # the shim opened the device before mounting; nothing else inside needs it
            elif kind in ("ro", "rw"):
                fd = sources[i]
                _mountpoint(target, folder=os.path.isdir(f"/proc/self/fd/{fd}"))
                _mount(f"/proc/self/fd/{fd}", target, None, MS_BIND | MS_REC)
                if kind == "ro":
                    _read_only_tree(target)
                else:
                    _remount(target, read_only=False)  # the bind copied the read-only flag of its source
            else:
                raise OSError(0, f"unknown mount step {kind!r}")
        for target in filled_later:
            _remount(target, read_only=True)
    finally:
        for fd in [*sources.values(), *devices.values(), null]:
            os.close(fd)
    _lock()


def unconfined(steps: Sequence[Step]) -> list[str]:
    """What of the plan is not in force, as seen from inside (empty when all is): both backends are checked."""
    writable = [t for kind, t, _ in steps if kind in ("rw", "tmp")]
    allowed = [*writable, "/proc", "/dev/pts", *(f"/dev/{d}" for d in DEVICES)]
    problems = []
    for point, read_only in mount_table():
        if read_only or any(_under(point, a) for a in allowed):
            continue
        if not os.path.lexists(point) or (os.statvfs(point).f_flag & ST_RDONLY):
            continue  # hidden below a later mount, or the mount on top of it is read-only
        problems.append(f"{point} is writable")
    for i, (kind, target, _) in enumerate(steps):
        # A writable mount later in the plan, at or above the target, is on top of it by design.
        on_top = any(k in ("rw", "tmp") and _under(target, t) for k, t, _ in steps[i + 1:])
        if kind not in ("hide", "cover", "ro", "root", "dev", "rw", "tmp"):
            continue
        try:
            flags = os.statvfs(target).f_flag
        except FileNotFoundError:
            if kind == "cover":
                continue  # skipped above (gone since the plan, or since): nothing at that path to be writable
            raise
        if kind in ("hide", "cover", "ro", "root", "dev") and not on_top and not flags & ST_RDONLY:
            problems.append(f"{target} is writable")
        if kind in ("rw", "tmp") and flags & ST_RDONLY:
            problems.append(f"{target} is read-only")
        if kind == "hide" and os.listdir(target) and not any(
                k in ("ro", "rw") and _under(t, target) for k, t, _ in steps):
            problems.append(f"{target} is not empty")
    for name in PROC_COVERED:
        path = f"/proc/{name}"
        if os.path.lexists(path) and not os.statvfs(path).f_flag & ST_RDONLY:
            problems.append(f"{path} is writable")
    return list(dict.fromkeys(problems))
