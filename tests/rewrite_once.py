"""The test modules' assertion-rewritten bytecode, written once by pytest-xdist's controller before its workers start.

Where no current `.pyc` exists (a fresh clone, CI, a test file changed by a merge), every worker collects every test
module at the same time, finds no cached bytecode and rewrites and compiles it itself: ~4.4 CPU-s a worker for the
~250 modules, the same work twice with two workers. The controller writes each missing or stale one first, with
pytest's own rewriter and writer (so the workers read it as their own), and a worker finds them all current.
Where they are current, this reads each test file and 16 bytes of its `.pyc` (~30 ms). pytest's rewriter is not a
public API: where its names are missing, nothing is written and the workers rewrite as before.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest


def _test_files(config: pytest.Config) -> Iterator[Path]:
    patterns = config.getini("python_files")
    for arg in config.args:
        path = config.invocation_params.dir / arg.split("::")[0]
        candidates = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for candidate in candidates:
            if candidate.is_file() and any(fnmatch.fnmatch(candidate.name, p) for p in patterns):
                yield candidate


def write_rewritten_bytecode(config: pytest.Config) -> int:
    """Rewrite and cache every collected test module whose pytest `.pyc` is missing or stale; how many it wrote."""
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc, assertstate_key, get_cache_dir
        state = config.stash[assertstate_key]
    except (ImportError, KeyError):
        return 0
    if sys.dont_write_bytecode or state.mode != "rewrite":
        return 0
    written = 0
    for source in _test_files(config):
        pyc = get_cache_dir(source) / (source.name[:-3] + PYC_TAIL)
        try:
            with open(pyc, "rb") as cached:
                header = cached.read(16)
        except OSError:
            header = b""
        # pytest's checked-hash header: magic, flags 3, the source's hash (what its own reader checks)
        source_hash = importlib.util.source_hash(source.read_bytes())
        if header == importlib.util.MAGIC_NUMBER + b"\x03\x00\x00\x00" + source_hash[:8]:
            continue
        pyc.parent.mkdir(exist_ok=True)
        source_hash, code = _rewrite_test(source, config)
        written += _write_pyc(state, code, source_hash, pyc)
    return written
