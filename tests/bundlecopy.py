"""A copy of the shipped policy bundle to break on purpose, and the compile check over it (tests only)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import POLICY_DIR

from gatekeeper.policy import compile_check
from gatekeeper.policy.bundle import load_bundle
from gatekeeper.policy.compile_check import CompileFailed

ALL = ("core", "deps", "guardrails", "provenance", "sandbox", "size")


def bundle_copy(tmp_path: Path) -> Path:
    root = tmp_path / "policies"
    shutil.copytree(POLICY_DIR, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first `old` in `path` by `new`; the 1-based line of the edit."""
    text = path.read_text()
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old):])
    return text[:at].count("\n") + 1


def check_bundle(root: Path, names: tuple[str, ...] = ALL) -> None:
    bundle = load_bundle(root)
    compile_check.check(bundle.modules_for(names), bundle.data(), timeout=20)


def failure(root: Path) -> CompileFailed:
    with pytest.raises(CompileFailed) as caught:
        check_bundle(root)
    return caught.value
