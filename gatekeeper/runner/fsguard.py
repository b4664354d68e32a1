"""Mounts that keep the run directory out of the generator's reach (the `unshare` backend's share).

Standard library only: runs inside the sandbox, in the shim, before the generator starts. The
run directory is bound read-only with only the workspace, HOME and the exchange folder writable
again, and /run (where service sockets such as docker.sock live) is hidden under an empty tmpfs.
A nested user and mount namespace then locks those mounts: root in it cannot unmount them.
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
ST_RELATIME = 0x1000
_KEPT_FLAGS = 0x1 | 0x2 | 0x4 | 0x8 | 0x400 | 0x800  # rdonly nosuid nodev noexec noatime nodiratime
CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
_libc = ctypes.CDLL(None, use_errno=True)


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


def _remount_read_only(path: str) -> None:
    # A remount must repeat the flags the mount already has (nosuid, ...): they may be locked.
    have = os.statvfs(path).f_flag
    flags = (have & _KEPT_FLAGS) | (MS_RELATIME if have & ST_RELATIME else 0)
    _mount(None, path, None, MS_BIND | MS_REMOUNT | MS_RDONLY | flags)


def protect(read_only: str, writable: Sequence[str], hide: Sequence[str], show: Sequence[str] = ()) -> None:
    """Bind `read_only` read-only except `writable` below it, mount empty tmpfs on `hide` (but for
    the folders `show`, bound back read-only), and lock it all."""
    # Opened first: a path hidden by the mounts below stays reachable through its descriptor.
    keep = [(os.open(path, os.O_PATH | os.O_DIRECTORY), path) for path in writable]
    shown = [(os.open(os.path.realpath(path), os.O_PATH | os.O_DIRECTORY), path) for path in show]
    top = os.open(read_only, os.O_PATH | os.O_DIRECTORY)
    try:
        for path in hide:
            if os.path.isdir(path) and not os.path.islink(path):
                _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "mode=755")
        for fd, path in shown:
            os.makedirs(path, exist_ok=True)
            _mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
            _remount_read_only(path)
        _mount(f"/proc/self/fd/{top}", read_only, None, MS_BIND | MS_REC)
        _remount_read_only(read_only)
        for fd, path in keep:
            _mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
    finally:
        for fd, _ in keep + shown:
            os.close(fd)
        os.close(top)
    _lock()
