"""Files written with their modes, committed twice in a scratch repository, the patch `git diff` writes between the
commits with the caller's options, and the size gate's decisions on it: the harness red team 31's and attack 25's
binary-executable attack tests share (each file wrote its own copy)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import POLICY_DIR
from gitdiffs import commit_patch
from gitrepo import GitRepo
from incli import run_cli

Files = dict[str, tuple[bytes, int]]  # path: (bytes, mode)

# The first bytes of three kinds of compiled program (each holds a NUL: git diffs it as binary), then a body.
BODY = bytes(range(256)) * 8
PROGRAMS = {
    "elf": b"\x7fELF\x02\x01\x01" + b"\0" * 9 + b"\x02\x00\x3e\x00" + BODY,
    "mach-o": b"\xcf\xfa\xed\xfe\x07\x00\x00\x01" + BODY,
    "pe": b"MZ\x90\x00\x03\x00\x00\x00" + BODY,
}
# How the gate is asked: the packet and its patch; the same with the commits (`--tree`); the commits alone.
MODES = ("patch", "packet and tree", "tree")


def size_gates(root: Path, base: Files, head: Files, diff: tuple[str, ...], modes: tuple[str, ...] = MODES,
               gone: tuple[str, ...] = (),
               check: Callable[[bytes], None] | None = None) -> list[tuple[int, dict[str, Any]]]:
    """(exit code, decision) of `gate --enable size` in each of `modes`: `base` committed over a README, then `head`
    written with `gone` removed; the patch is `git diff DIFF BASE HEAD` (`check` sees it first)."""
    repo = GitRepo(root / "repo")
    repo.write("README.md", "app\n")
    for path, (data, mode) in base.items():
        repo.write(path, data, mode=mode)
    first = repo.commit("base")
    for path in gone:
        repo.git("rm", "-q", "--", path)
    for path, (data, mode) in head.items():
        repo.write(path, data, mode=mode)
    second = repo.commit("head")
    patch = root / "change.diff"
    patch.write_bytes(commit_patch(repo, first, second, *diff))
    if check is not None:
        check(patch.read_bytes())
    packet = root / "packet.json"
    done = run_cli(["packet", str(patch), "--out", str(packet), "--policy", str(POLICY_DIR)], text=True)
    assert done.returncode == 0, done.stderr
    flags = ["--policy", str(POLICY_DIR), "--format", "json", "--enable", "size"]
    tree = ["--tree", f"{first}..{second}", "--repo", str(repo.root)]
    with_packet = ["gate", str(packet), "--patch", str(patch), *flags]
    argv = {"patch": with_packet, "packet and tree": [*with_packet, *tree], "tree": ["gate", *flags, *tree]}
    out = []
    for mode in modes:
        done = run_cli(argv[mode], text=True)
        assert "Traceback" not in done.stderr, done.stderr
        out.append((done.returncode, json.loads(str(done.stdout))))
    return out


def rule_ids(decision: dict[str, Any]) -> set[str]:
    return {reason["rule"] for reason in decision["reasons"]}
