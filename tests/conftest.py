from __future__ import annotations

import gc
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from gatekeeper.policy import engine, forkserver

# No per-example deadline (hypothesis's default is 200 ms): on a loaded 2-core machine an example's wall time
# says nothing about the property, and one slow example fails the run as "unreliable". Timing is for bench/.
settings.register_profile("dev", deadline=None)
# CI explores the same examples on every run (a red build is reproducible); a developer's run explores anew.
settings.register_profile("ci", parent=settings.get_profile("dev"), derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The suite judges as a developer's machine does, outside any CI job: the gate reads the job's identity and event
# from GitHub Actions' and GitLab CI's variables (a signed packet must name the CI's repository, the PR base comes
# from the event), so a run of this suite inside such a job would judge as that job. Tests that need a CI set the
# variables themselves.
for _name in [name for name in os.environ if name.startswith(("GITHUB_", "GITLAB_", "CI_"))]:
    del os.environ[_name]

# Bytecode is written even where PYTHONDONTWRITEBYTECODE is set, as `make pytest` runs (`env -u`), for a pytest started
# any other way too (a shell that sets it: this project's VMs do): without cached .pyc files each worker redoes the
# assertion rewriting of every test module it imports (~13 CPU-s a worker, suite round 27) and each `gatekeeper` process
# the tests start compiles every module it imports. Where the folders are not writable nothing is written, as before.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

sys.path.insert(0, str(Path(__file__).parent))

from hypothesis_tables import seed_utf8_table  # noqa: E402
from loopback_only import install as _loopback_only  # noqa: E402
from proctree import living_children  # noqa: E402

_loopback_only()


@pytest.fixture(autouse=True, scope="session")
def _compile_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The gate's compile-check cache (XDG_CACHE_HOME) lives in a session folder, never in the user's home."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))


@pytest.fixture(autouse=True, scope="session")
def _hypothesis_utf8_table() -> None:
    """Hypothesis' UTF-8 table, written in 0.15 CPU-s where a fresh clone has none (hypothesis: ~1.3 CPU-s a worker);
    a session fixture, not configure: hypothesis refuses storage writes while it initialises."""
    seed_utf8_table()


from checkout_git import checkout_state_once  # noqa: E402
from gitrepo import GitRepo  # noqa: E402
from rewrite_once import write_rewritten_bytecode  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
POLICY_DIR = REPO_ROOT / "policies"


@pytest.fixture(autouse=True, scope="session")
def _checkout_git_state() -> Iterator[None]:
    """The git state of this checkout's `policies/`, asked of git once while nothing it depends on moves, not three
    git processes for each of the ~700 gates that load the shipped bundle in place (tests/checkout_git.py)."""
    with checkout_state_once():
        yield


@pytest.fixture(params=["plain", "served"])
def fork_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[forkserver.Server | None]:
    """The engine's children forked by this process (None) or by a fresh fork server (gatekeeper/policy/forkserver.py):
    a behaviour of the engine's isolation holds on both."""
    if request.param == "plain":
        monkeypatch.setattr(forkserver, "ENABLED", False)
        yield None
        return
    monkeypatch.setattr(forkserver, "ENABLED", True)
    monkeypatch.setattr(forkserver, "MIN_RESIDENT_MB", 0)  # whatever this process's size
    served = forkserver.restart(engine._PRELOAD)
    assert served is not None and not served.dead
    yield served
    assert not served.dead  # no test here may have broken it by accident
    until = time.monotonic() + 10  # a child that answered may still be exiting (freeing its heap)
    while living_children(served.process.pid) and time.monotonic() < until:
        time.sleep(0.01)
    assert living_children(served.process.pid) == []  # every child it forked ended once its caller was done


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    """An empty git repository in a temporary folder."""
    return GitRepo(tmp_path / "repo")


@pytest.fixture
def runner_bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Work in tmp_path with a small bundle in ./policies, as the runner tests need (tests/runbundle.py)."""
    from runbundle import use_bundle

    use_bundle(tmp_path, monkeypatch)


# The longest tests (end-to-end runs, each 10-60 s of wall time on two busy cores) start first, so that
# pytest-xdist's workers end together instead of one finishing them alone while the other idles.
# Node-id prefixes; a stale entry only loses its head start.
START_FIRST = (
    "tests/test_walkthrough.py",
    "tests/test_runner_demo.py",
    "tests/test_docs.py::test_shell_blocks_run_as_documented",
    "tests/test_imports.py::test_every_module_imports_first_in_a_fresh_interpreter",
    "tests/test_fixtures.py::test_regeneration_is_byte_identical",
    "tests/test_diff_properties.py::test_damaged_patches_through_the_cli",
    "tests/test_attest_flow.py",
    "tests/test_runner_relay_sandbox.py",
    "tests/test_audit_line.py::test_the_reader_never_raises",
    "tests/test_runner_run.py::test_usage_errors",
    "tests/test_audit_replay.py::test_end_to_end_through_the_cli",
    "tests/test_redteam_sniff_redos.py",
    "tests/test_test_cmd.py",
    "tests/test_reports_real.py",
    "tests/test_fixtures.py::test_runner_passes",
    "tests/test_crosscheck.py",
    "tests/test_runner_resume.py",
    "tests/test_runnerreview_process.py",
)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """pytest-xdist's controller writes the test modules' rewritten bytecode before it starts the workers (which
    would each rewrite every module where none is cached: tests/rewrite_once.py)."""
    if session.config.pluginmanager.has_plugin("dsession"):
        write_rewritten_bytecode(session.config)


# The collector's thresholds for the run, once collection's heap is frozen: a young pass every 20,000 allocations
# instead of 700, an older one every 20 of them. The tests make little cyclic garbage (reference counting frees the
# rest), and each full pass walked what the run added since the freeze (compiled patterns, rule indexes, imported SDKs):
# ~7 % of a worker's CPU at the defaults on an even sample of 1,340 tests, ~2 % at these (suite round 30).
RUN_GC_THRESHOLDS = (20_000, 20, 20)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[None]:
    """What collection builds lives until the session ends (the test modules, ~7,000 items, hypothesis' tables and
    the package): the garbage collector stays off while it is built (its full passes walked the growing heap again
    and again: half of collection's collector time), then the heap is frozen out of the collector for the run."""
    gc.disable()
    try:
        yield
    finally:
        gc.collect()
        gc.freeze()
        gc.set_threshold(*RUN_GC_THRESHOLDS)
        gc.enable()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(START_FIRST))  # stable: the rest keep their order


# The run's temporary folders (tmp_path, and every tempfile of the tests and the processes they start) in memory
# where the machine has a tmpfs with room for them, unless TMPDIR says where: the tests build ~4,000 scratch git
# repositories, bundle and fixture copies. On a disk mounted with `discard` (this project's 2-core VMs) creating and
# removing such files costs ~25 times the system CPU it costs on tmpfs, and each fsync waits on the disk.
# (Not where /dev/shm is small, e.g. Docker's 64 MiB, nor where it forbids executing: tests run scripts they write.)
# The runner's sandbox shows /tmp as a private tmpfs and /dev (so /dev/shm) read-only: a path under either that a run
# does not bind is out of the generator's sight alike; only a generator's write beside what the run binds differs
# (kept unseen in the private /tmp, refused under /dev/shm), so a sandbox test writes in the workspace what the host
# side must see.
_MEMORY = Path("/dev/shm")
_ROOM = 2 << 30


def _memory_tmp() -> Path | None:
    try:
        stat = os.statvfs(_MEMORY)
    except OSError:
        return None
    if stat.f_flag & (os.ST_NOEXEC | os.ST_RDONLY) or stat.f_bavail * stat.f_frsize < _ROOM:
        return None
    folder = _MEMORY / f"gatekeeper-tests-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return None
    return folder if folder.is_dir() and not folder.is_symlink() and folder.stat().st_uid == os.getuid() else None


if "TMPDIR" not in os.environ and (_tmp := _memory_tmp()) is not None:
    os.environ["TMPDIR"] = str(_tmp)
    tempfile.tempdir = str(_tmp)
