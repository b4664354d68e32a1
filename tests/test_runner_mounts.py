"""The mount plan: what it hides, covers, shows and leaves writable, for hostile homes, PATHs and variables."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from runbundle import HAVE_BWRAP, secrets_base, use_bundle

from gatekeeper.errors import RunError
from gatekeeper.runner import fsguard, mounts, sandbox
from gatekeeper.runner import run as runner
from gatekeeper.runner.inside import EXIT_NOT_PROTECTED

REPO_ROOT = Path(__file__).resolve().parent.parent


def _plan(tmp_path: Path, environ: dict[str, str], needed: tuple[str, ...] = (), sockets: tuple[str, ...] = ()
          ) -> mounts.Plan:
    run = tmp_path / "runs" / "r1"
    (run / "workspace").mkdir(parents=True)
    return mounts.plan(run_dir=run, writable=(run / "workspace",), needed=needed, environ=environ, sockets=sockets)


def _kinds(plan: mounts.Plan, kind: str) -> list[str]:
    return [m.target for m in plan.mounts if m.kind == kind]


def _home(tmp_path: Path) -> Path:
    # A home outside /tmp and /root, where only the plan can hide it; a folder of its own (two xdist workers'
    # tmp_path can have the same name, and this folder is shared by every worker and run of the checkout).
    home = Path(tempfile.mkdtemp(prefix=f".gk-home-{tmp_path.name}-", dir=os.path.realpath(secrets_base())))
    for store in (".ssh", ".aws", ".config/gh"):
        (home / store).mkdir(parents=True, exist_ok=True)
    (home / ".netrc").write_text("machine x password y\n")
    (home / "bin").mkdir(exist_ok=True)
    return home


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    path = _home(tmp_path)
    yield path
    subprocess.run(["rm", "-rf", str(path)], check=True)


def test_everything_is_read_only_and_only_the_writable_folders_are_bound_writable(tmp_path: Path) -> None:
    plan = _plan(tmp_path, {"HOME": "/root"})
    assert [m.kind for m in plan.mounts[:4]] == ["root", "dev", "proc", "tmp"]
    assert _kinds(plan, "rw") == [str(tmp_path / "runs" / "r1" / "workspace")]
    # On top of the read-only run directory; only covers come after.
    assert [m.kind for m in plan.mounts if m.kind != "cover"][-1] == "rw"
    assert str(tmp_path / "runs" / "r1") in _kinds(plan, "ro")
    for always in ("/run", "/root", "/var/tmp"):
        if os.path.isdir(always) and not os.path.islink(always):
            assert always in _kinds(plan, "hide")


def test_the_callers_home_is_hidden_and_a_path_entry_in_it_is_shown_without_the_home(
        tmp_path: Path, home: Path) -> None:
    (home / ".ssh" / "id_ed25519").write_text("key\n")
    (home / "bin" / "keys").symlink_to(home / ".ssh")
    (home / "bin" / "all").symlink_to(home)
    plan = _plan(tmp_path, {"HOME": str(home)}, needed=(str(home / "bin"), str(home), str(home / ".ssh"),
                                                         str(home / ".ssh" / ".."), str(home / ".ssh" / "id_ed25519"),
                                                         str(home / "bin" / "keys"), str(home / "bin" / "all")))
    assert str(home) in _kinds(plan, "hide")
    shown = _kinds(plan, "ro")
    assert str(home / "bin") in shown
    # Neither the home itself nor a store in it comes back, however the PATH spells it.
    assert shown.count(str(home / "bin")) == 1 and not [p for p in shown if p.startswith(str(home)) and
                                                          p != str(home / "bin")]


def test_home_slash_hides_the_credential_stores_one_by_one(tmp_path: Path, home: Path) -> None:
    # HOME=/ cannot be hidden whole; its stores still are. Simulated with the stores a variable points at.
    plan = _plan(tmp_path, {"HOME": "/", "AWS_SHARED_CREDENTIALS_FILE": str(home / ".netrc"),
                            "GH_CONFIG_DIR": str(home / ".config" / "gh"), "SSH_AUTH_SOCK": str(home / ".ssh")})
    assert "/" not in _kinds(plan, "hide")
    assert str(home / ".netrc") in _kinds(plan, "cover")
    assert {str(home / ".config" / "gh"), str(home / ".ssh")} <= set(_kinds(plan, "hide"))


def test_every_listening_unix_socket_outside_the_hidden_folders_is_covered(tmp_path: Path, home: Path) -> None:
    path = home / "svc.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        server.listen(1)
        found = mounts.listening_sockets()
        assert str(path) in found  # read from the kernel's own table, not guessed
        plan = _plan(tmp_path, {"HOME": "/root"}, sockets=tuple(found))
    assert str(path) in _kinds(plan, "cover")
    # Sockets in folders that are hidden anyway need no cover of their own.
    assert not [c for c in _kinds(plan, "cover") if c.startswith(("/tmp/", "/run/"))]


def test_a_socket_in_a_shown_folder_is_covered_after_the_folder_is_bound_back(tmp_path: Path, home: Path) -> None:
    path = home / "bin" / "agent.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        server.listen(1)
        plan = _plan(tmp_path, {"HOME": str(home)}, needed=(str(home / "bin"),), sockets=(str(path),))
    targets = [m.target for m in plan.mounts]
    assert str(home / "bin") in _kinds(plan, "ro") and str(path) in _kinds(plan, "cover")
    assert targets.index(str(path)) > targets.index(str(home / "bin"))


def test_a_relay_socket_is_one_more_bind_on_top(tmp_path: Path) -> None:
    plan = _plan(tmp_path, {"HOME": "/root"}).bind(tmp_path / "relay.sock", Path("/run/gatekeeper/relay.sock"))
    assert plan.mounts[-1] == mounts.Mount("ro", "/run/gatekeeper/relay.sock", str(tmp_path / "relay.sock"))
    args = plan.bwrap_args()
    assert args[args.index(str(tmp_path / "relay.sock")) - 1] == "--ro-bind"
    assert json.loads(plan.to_json())[-1] == ["ro", "/run/gatekeeper/relay.sock", str(tmp_path / "relay.sock")]


def test_bwrap_makes_the_emptied_folders_read_only_after_everything_is_bound(tmp_path: Path) -> None:
    args = _plan(tmp_path, {"HOME": "/root"}).bwrap_args()
    first_remount = args.index("--remount-ro")
    assert all(a == "--remount-ro" for a in args[first_remount::2])
    assert "--bind" in args[:first_remount] and "--dev" in args and "--proc" in args


def test_the_check_from_inside_sees_an_unconfined_filesystem() -> None:
    # Run on the host itself, the shim's check must find the plan not in force (it would refuse to go on).
    problems = fsguard.unconfined([[m.kind, m.target, m.source] for m in mounts.BASE.mounts])
    assert "/ is writable" in problems


def test_the_shim_refuses_to_remount_the_runners_own_namespace(tmp_path: Path) -> None:
    # Inside a throw-away mount namespace, told that this namespace is the runner's: it must not touch it.
    marker = tmp_path / "generator-ran"
    probe = tmp_path / "probe.json"
    argv = sandbox.wrap(sandbox.Sandbox("unshare", ("unshare",)), probe, ("touch", str(marker)), mounts.BASE)
    shim = argv[argv.index("-c"):]
    at = shim.index("--apply-mounts")
    code = (
        "import os, subprocess, sys; args = sys.argv[1:]; "
        f"args[{at} + 1] = os.readlink('/proc/self/ns/mnt'); "
        "sys.exit(subprocess.run([sys.executable, '-I', *args]).returncode)"
    )
    done = subprocess.run(["unshare", "--mount", "--net", "--", sys.executable, "-I", "-c", code, *shim],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == EXIT_NOT_PROTECTED, done.stderr
    assert "not in a mount namespace of its own" in done.stderr
    assert not marker.exists()


@pytest.mark.parametrize("backend", ["unshare", "bwrap"])
def test_a_socket_gone_since_the_plan_does_not_stop_the_sandbox(tmp_path: Path, home: Path, backend: str) -> None:
    # A host service's socket (another job's, a test's) vanishes, folder and all, between the plan and the
    # sandbox's start: nothing is left to cover, and the read-only root has no place for its mount point.
    try:
        box = sandbox.select(backend)
    except RunError as exc:
        pytest.skip(f"{backend} unavailable here: {exc.what}")
    folder = home / "svc"
    folder.mkdir()
    path, kept = folder / "gone.sock", home / "kept.sock"
    with socket.socket(socket.AF_UNIX) as server, socket.socket(socket.AF_UNIX) as other:
        server.bind(str(path))
        other.bind(str(kept))
        other.listen(1)
        plan = _plan(tmp_path, {"HOME": "/root"}, sockets=(str(path), str(kept)))
        assert {str(path), str(kept)} <= set(_kinds(plan, "cover"))
        path.unlink()
        folder.rmdir()
        marker = tmp_path / "runs" / "r1" / "workspace" / "generator-ran"
        probe = marker.parent / "probe.json"  # in the writable workspace: /tmp is the sandbox's own
        command = ("sh", "-c", f'test -c "{kept}" && touch "{marker}"')  # the one still there is covered
        done = subprocess.run(sandbox.wrap(box, probe, command, plan), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert marker.exists()
    assert json.loads(probe.read_text())["protected"] is True


@pytest.mark.skipif(not HAVE_BWRAP, reason="bwrap not installed")
def test_a_socket_gone_after_bwraps_arguments_were_built_is_known_as_the_cause(tmp_path: Path, home: Path) -> None:
    # The plan's check comes before bwrap mounts anything: a socket can still vanish in between, and bwrap then
    # cannot make its mount point in the read-only root. The runner must tell that from any other failure.
    try:
        box = sandbox.select("bwrap")
    except RunError as exc:
        pytest.skip(f"bwrap unavailable here: {exc.what}")
    folder = home / "svc"
    folder.mkdir()
    path = folder / "gone.sock"
    probe = tmp_path / "runs" / "r1" / "workspace" / "probe.json"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        server.listen(1)
        plan = _plan(tmp_path, {"HOME": "/root"}, sockets=(str(path),))
        argv = sandbox.wrap(box, probe, ("true",), plan)
    path.unlink()
    folder.rmdir()
    log = tmp_path / "stderr.log"
    with open(log, "wb") as err:
        done = subprocess.run(argv, stderr=err, timeout=60)
    assert done.returncode != 0 and not probe.exists()
    assert sandbox.lost_a_cover(plan, probe, log), log.read_text()
    # Not for a failure of another kind, nor once the shim has run.
    assert not sandbox.lost_a_cover(plan, probe, tmp_path / "no-such.log")
    probe.write_text("{}")
    assert not sandbox.lost_a_cover(plan, probe, log)


@pytest.mark.skipif(not HAVE_BWRAP, reason="bwrap not installed")
def test_the_runner_starts_the_sandbox_again_when_a_socket_vanished_meanwhile(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        sandbox.select("bwrap")
    except RunError as exc:
        pytest.skip(f"bwrap unavailable here: {exc.what}")
    folder = home / "svc"
    folder.mkdir()
    path = folder / "gone.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(1)
    wrap, wrapped = sandbox.wrap, []

    def vanishing(*args: object, **kwargs: object) -> list[str]:
        argv = wrap(*args, **kwargs)  # type: ignore[arg-type]
        wrapped.append(str(path) in argv)
        if not server.fileno() < 0:  # the other job ends right after the runner built bwrap's arguments
            server.close()
            path.unlink()
            folder.rmdir()
        return argv

    monkeypatch.setattr(sandbox, "wrap", vanishing)
    (tmp_path / "origin").mkdir()
    for args in (["init", "-q", "-b", "main"], ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit",
                                                 "-q", "--allow-empty", "-m", "base"]):
        subprocess.run(["git", *args], cwd=tmp_path / "origin", check=True)
    use_bundle(tmp_path, monkeypatch)
    lines: list[str] = []
    request = runner.RunRequest(command=("sh", "-c", "echo x > x.txt"), repo=str(tmp_path / "origin"),
                                sandbox="bwrap", timeout=60)
    result = runner.start(request, out=tmp_path / "runs", environ={"PATH": "/usr/bin:/bin"}, progress=lines.append)
    assert wrapped == [True, False]  # covered at first; gone, so not planned, the second time
    assert any("a socket it was to cover vanished meanwhile; starting it again" in line for line in lines), lines
    assert result.exit_code == 0 and "+x" in result.run.patch.read_text()
    assert str(path) in (result.run.logs / "stderr.log").read_text()  # the failed start's error stays in the log
