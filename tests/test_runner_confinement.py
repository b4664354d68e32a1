"""The generator's filesystem confinement, attacked from inside both backends with real files and sockets.

One generator run per backend carries every probe (writes, planted code, secrets, sockets, a canary
in the caller's environment, remount tricks); the tests below each assert one part of its report.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from runbundle import BACKENDS, RUN_STATE, HostServer, gk, gk_in, origin_repo, secrets_base, use_bundle

import gatekeeper
from gatekeeper import gitcmd
from gatekeeper.errors import RunError
from gatekeeper.runner import sandbox
from gatekeeper.runner.relay_bridge import reachable_path

REPO_ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(gatekeeper.__file__).resolve().parent
CREDENTIALS = (".ssh/id_ed25519", ".aws/credentials", ".config/gcloud/credentials.db", ".config/gh/hosts.yml",
               ".docker/config.json", ".netrc", ".git-credentials")

PROBE = r'''
import json, os, socket, subprocess, sys
cfg = json.load(open(sys.argv[1]))
token, canaries = cfg["token"], [c[::-1] for c in cfg["reversed_canaries"]]  # never literally on disk
report = {"created": {}, "appended": {}, "read": {}, "listed": {}, "connect": {}, "canary_seen": [], "remount": ""}
run_dir = os.path.dirname(os.getcwd())
for folder in cfg["targets"] + [run_dir, os.path.join(run_dir, "logs"), os.path.join(run_dir, "checkpoints")]:
    try:
        fd = os.open(os.path.join(folder, "gk-probe-" + token), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, b"planted\n")
        os.close(fd)
        report["created"][folder] = "written"
    except OSError as exc:
        report["created"][folder] = exc.strerror
for path in cfg["append"] + [os.path.join(run_dir, "state.json"), os.path.join(run_dir, "workspace-git-config")]:
    try:
        with open(path, "a") as handle:
            handle.write("\nimport os; open(os.environ.get('GK_PLANTED', '/dev/null'), 'w').write('ran')\n")
        report["appended"][path] = "written"
    except OSError as exc:
        report["appended"][path] = exc.strerror
# A hard link from the writable workspace to a read-only file would be a way to write it.
report["linked"] = {}
for source in [cfg["append"][0], os.path.join(run_dir, "state.json")]:
    name = "hardlink-" + os.path.basename(source)
    try:
        os.link(source, name)
        with open(name, "a") as handle:
            handle.write("planted\n")
        report["linked"][source] = "written"
    except OSError as exc:
        report["linked"][source] = exc.strerror
for path in cfg["secret_files"] + cfg["host_secret_files"]:
    try:
        report["read"][path] = open(path).read()
    except OSError as exc:
        report["read"][path] = exc.strerror
for path in cfg["secret_dirs"]:
    try:
        report["listed"][path] = os.listdir(path)
    except OSError as exc:
        report["listed"][path] = exc.strerror
def reachable(address):  # a path past 107 bytes (a long TMPDIR) through the folder's /proc/self/fd entry
    if address.startswith("@"):
        return address.replace("@", "\0", 1)
    if len(os.fsencode(address)) < 108:
        return address
    folder = os.open(os.path.dirname(address), os.O_PATH | os.O_DIRECTORY)
    return "/proc/self/fd/%d/%s" % (folder, os.path.basename(address))
for address in cfg["sockets"]:
    conn = socket.socket(socket.AF_UNIX)
    conn.settimeout(2)
    try:
        conn.connect(reachable(address))
        report["connect"][address] = "connected: " + conn.recv(100).decode()
    except OSError as exc:
        report["connect"][address] = exc.strerror or type(exc).__name__
    finally:
        conn.close()

def look(where, data):
    for canary in canaries:
        if canary.encode() in data:
            report["canary_seen"].append(where)

look("environment", "\n".join(f"{k}={v}" for k, v in os.environ.items()).encode())
for pid in [p for p in os.listdir("/proc") if p.isdigit()] + [str(cfg["decoy_pid"])]:
    for name in ("environ", "cmdline"):
        try:
            look(f"/proc/{pid}/{name}", open(f"/proc/{pid}/{name}", "rb").read())
        except OSError:
            pass
for top in cfg["scan"]:
    for folder, _dirs, files in os.walk(top):
        for name in files:
            try:
                look(os.path.join(folder, name), open(os.path.join(folder, name), "rb").read(1 << 20))
            except OSError:
                pass
# With caps of its own (unshare) or a user namespace made for it (bwrap), try to make the root writable again.
tries = f"mount -o remount,bind,rw / ; mount -o remount,bind,rw /usr ; touch /usr/gk-probe-{token}"
for argv in (["sh", "-c", tries], ["unshare", "-r", "-m", "sh", "-c", tries]):
    done = subprocess.run(argv, capture_output=True, text=True)
    report["remount"] += done.stderr
open("probe-ok.txt", "w").write("the workspace is writable\n")
with open("/tmp/gk-private-" + token, "w") as private:
    private.write("private tmp\n")
report["tmp_writable"] = os.path.exists("/tmp/gk-private-" + token)
with open(os.path.join(os.environ["HOME"], "gk-private-" + token), "w") as private:
    private.write("private home\n")
report["home"] = os.environ["HOME"]
print("PROBE " + json.dumps(report))
'''


def UnixServer(address: str) -> HostServer:  # noqa: N802 - reads like the class it used to be
    """A unix socket server (path or abstract `@name`) that answers and counts whoever connects."""
    return HostServer(b"host service\n", unix=address)


@dataclass(frozen=True)
class Outcome:
    """One backend's probe run: its report and what the test planted on the host."""

    backend: str
    report: dict
    summary: dict
    targets: list[str]
    token: str
    canaries: list[str]
    home: Path
    servers: list[HostServer]
    verify_digest: str
    planted_marker: Path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module", params=BACKENDS)
def outcome(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Outcome]:
    backend: str = request.param
    try:
        sandbox.select(backend)
    except RunError as exc:  # only a backend that truly cannot run here is skipped
        pytest.skip(f"{backend} unavailable here: {exc.what}")
    tmp = tmp_path_factory.mktemp(f"confine-{backend}")
    # The caller's home lies outside /tmp (which is private anyway), where nothing else would hide it.
    base = Path(tempfile.mkdtemp(prefix=".gk-confine-", dir=secrets_base()))
    decoy = None
    servers: list[HostServer] = []
    try:
        token, canary = secrets.token_hex(8), "GKCANARY" + secrets.token_hex(12)
        home = base / "home"
        for rel in CREDENTIALS:
            (home / rel).parent.mkdir(parents=True, exist_ok=True)
            (home / rel).write_text(f"secret {rel} {token}\n")
        (tmp / "work").mkdir()
        with pytest.MonkeyPatch.context() as mp:
            use_bundle(tmp / "work", mp)
            servers = [UnixServer(str(tmp / "host.sock")), UnixServer(str(base / "svc.sock")),
                       UnixServer(f"@gk-confine-{token}")]
            # A host process whose environment holds the canary: its /proc entry must be out of reach.
            decoy = subprocess.Popen([shutil.which("sleep") or "sleep", "120"], env={"GK_DECOY": canary})
            site = sysconfig.get_paths()["purelib"]
            run_root = home / ".local" / "state" / "gatekeeper" / "runs"
            targets = [site, str(PACKAGE), str(PACKAGE / "runner"), str(home), str(home / ".ssh"), "/etc", "/usr",
                       "/usr/local/bin", sys.prefix, str(Path(sys.executable).parent), str(REPO_ROOT), str(base),
                       str(tmp / "work" / "policies"), "/var/tmp", "/dev/shm", "/dev", "/", "/root", "/home",
                       "/run", "/var", "/opt", "/sys/fs/cgroup", str(run_root)]
            appends = [str(PACKAGE / "verify.py"), str(PACKAGE / "runner" / "run.py"), str(Path(site) / "x.pth")]
            config = {
                "token": token, "reversed_canaries": [canary[::-1]], "targets": targets, "append": appends,
                "secret_files": [str(home / rel) for rel in CREDENTIALS],
                "host_secret_files": [p for p in ("/etc/shadow", "/etc/gshadow") if os.path.exists(p)],
                "secret_dirs": [str(home), str(home / ".ssh"), str(home / ".aws")],
                "sockets": [s.address for s in servers], "decoy_pid": decoy.pid,
                "scan": ["/tmp", "/run", "/var/tmp", "/dev/shm", str(home), str(base)],
            }
            (tmp / "probe.json").write_text(json.dumps(config))
            (tmp / "probe.py").write_text(PROBE)
            planted_marker = tmp / "planted-code-ran"
            env = {**os.environ, "HOME": str(home), "GK_CANARY_TOKEN": canary, "AWS_SECRET_ACCESS_KEY": canary,
                   "GK_PLANTED": str(planted_marker)}
            env.pop("XDG_STATE_HOME", None)
            before = _digest(PACKAGE / "verify.py")
            done = gk("run", "--repo", str(origin_repo(tmp).root), "--sandbox", backend, "--format", "json",
                      "--", sys.executable, str(tmp / "probe.py"), str(tmp / "probe.json"), env=env)
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        log = (Path(summary["run_dir"]) / "logs" / "stdout.log").read_text()
        lines = [ln for ln in log.splitlines() if ln.startswith("PROBE ")]
        assert len(lines) == 1, log + (Path(summary["run_dir"]) / "logs" / "stderr.log").read_text()
        yield Outcome(backend, json.loads(lines[0][6:]), summary, targets, token, [canary], home, servers, before,
                      planted_marker)
    finally:
        for server in servers:
            server.close()
        if decoy is not None:
            decoy.kill()
            decoy.wait()
        shutil.rmtree(base, ignore_errors=True)


def test_the_probe_ran_and_could_write_where_it_may(outcome: Outcome) -> None:
    # The controls: a probe that could write nowhere would make every test below pass for nothing.
    assert outcome.report["tmp_writable"] is True
    assert "+the workspace is writable" in Path(outcome.summary["patch"]).read_text()
    assert not Path(f"/tmp/gk-private-{outcome.token}").exists()  # the private /tmp is not the host's
    # Nor is the generator's HOME (RUN/home): scratch space that never reaches the run directory.
    assert outcome.report["home"] == str(Path(outcome.summary["run_dir"]) / "home")
    assert not (Path(outcome.report["home"]) / f"gk-private-{outcome.token}").exists()


def test_writes_outside_the_workspace_fail(outcome: Outcome) -> None:
    created = outcome.report["created"]
    assert set(outcome.targets) < set(created)
    for folder, result in created.items():
        assert result != "written", f"{outcome.backend}: the generator wrote into {folder}"
        assert not (Path(folder) / f"gk-probe-{outcome.token}").exists()
    assert not Path(f"/usr/gk-probe-{outcome.token}").exists(), outcome.report["remount"]


def test_the_runners_install_cannot_be_planted_in(outcome: Outcome) -> None:
    for path, result in [*outcome.report["appended"].items(), *outcome.report["linked"].items()]:
        assert result != "written", f"{outcome.backend}: the generator wrote to {path}"
    assert len(outcome.report["linked"]) == 2
    assert _digest(PACKAGE / "verify.py") == outcome.verify_digest
    assert not outcome.planted_marker.exists()


def test_home_secrets_are_not_visible(outcome: Outcome) -> None:
    for path, result in outcome.report["read"].items():
        if path.startswith("/etc/"):
            # A root runner's generator would read the host's password hashes: covered (empty, or the cover
            # is a device node bwrap's nodev bind will not open).
            assert result in ("", "Permission denied"), (path, result)
        else:
            assert outcome.token not in result and result == "No such file or directory", (path, result)
    for path, result in outcome.report["listed"].items():
        # The caller's home is empty but for the way down to the run directory (~/.local/state/...).
        assert result in ([], [".local"], "No such file or directory"), (path, result)


def test_host_unix_sockets_are_unreachable(outcome: Outcome) -> None:
    for address, result in outcome.report["connect"].items():
        assert not result.startswith("connected"), f"{outcome.backend}: reached {address}"
    assert [s.accepted for s in outcome.servers] == [0, 0, 0]
    # The same sockets answer a process on the host: the test would see a way through.
    for server in outcome.servers:
        with socket.socket(socket.AF_UNIX) as conn:
            addr = server.address
            conn.connect(addr.replace("@", "\0", 1) if addr.startswith("@") else reachable_path(addr))
            assert conn.recv(100) == b"host service\n"


def test_the_callers_secrets_appear_nowhere_the_generator_can_read(outcome: Outcome) -> None:
    assert outcome.report["canary_seen"] == []
    run_dir = Path(outcome.summary["run_dir"])
    for path in run_dir.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            data = path.read_bytes()
            assert all(c.encode() not in data for c in outcome.canaries), path


@pytest.mark.usefixtures("runner_bundle")
def test_nothing_is_imported_after_the_generator_has_run(tmp_path: Path) -> None:
    # Every module the runner needs after the generator is loaded before it starts.
    script = """
import json, sys
from gatekeeper.cli import main
from gatekeeper.runner import generator
real, seen = generator.run, {}
def watched(*args, **kwargs):
    result = real(*args, **kwargs)
    seen["modules"] = set(sys.modules)
    return result
generator.run = watched
code = main(sys.argv[1:])
print("LATE " + json.dumps(sorted(set(sys.modules) - seen["modules"])), code)
"""
    done = subprocess.run(
        [sys.executable, "-I", "-c", script, "run", "--repo", str(origin_repo(tmp_path).root), "--out",
         str(tmp_path / "runs"), "--sandbox", "unshare", "--policy", str(tmp_path / "policies"), "--",
         "sh", "-c", "echo x > x.txt"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    late = [ln for ln in done.stdout.splitlines() if ln.startswith("LATE ")]
    assert late, done.stdout + done.stderr
    assert late[0] == "LATE [] 0"


PLANT_GIT = RUN_STATE + """
import os, stat, sys
marker = sys.argv[1]
for folder in (".", "bin", "tools/bin"):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "git")
    with open(path, "w") as handle:
        handle.write(f"#!/bin/sh\\necho ran >> {marker}\\nexec /usr/bin/git \\"$@\\"\\n")
    os.chmod(path, 0o755)
wait_for_state(lambda state: state["checkpoints"], timeout=30)  # a checkpoint ran with the programs in place
"""


@pytest.mark.usefixtures("runner_bundle")
def test_a_git_planted_in_the_workspace_never_runs_whatever_the_callers_path(tmp_path: Path) -> None:
    # The runner's git runs in the workspace: relative or empty PATH entries would find the generator's.
    for prefix in ("", ".", "./", "bin", "tools/bin", "./bin/../bin"):
        assert gitcmd.absolute_path(f"{prefix}:/usr/bin:{prefix}") == "/usr/bin"
    marker = tmp_path / "planted-git-ran"
    script = tmp_path / "plant.py"
    script.write_text(PLANT_GIT)
    env = {**os.environ, "PATH": f":.:bin:tools/bin:{os.environ['PATH']}:"}
    # In-process: the runner looks git up on os.environ's PATH at every call, which `env` replaces for it.
    done = gk_in("run", "--repo", str(origin_repo(tmp_path).root), "--out", str(tmp_path / "runs"), "--sandbox",
                 "unshare", "--checkpoint-interval", "0.2", "--format", "json", "--", sys.executable, str(script),
                 str(marker), env=env)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    patch = Path(json.loads(done.stdout)["patch"]).read_text()
    assert "tools/bin/git" in patch  # the planted programs were there, and captured as files
