"""The runner's sandbox: loopback-only egress test, secrets scrubbing, bwrap, failing closed, `none`.

What the sandbox lets the generator do runs in-process (runbundle.gk_in), and so does the choice of backend by
PATH and failing closed (the backends are looked up on os.environ's PATH at the call, which the call's `env`
replaces); the secrets in the runner's own environment go through a real process (runbundle.gk): everything the
process and its children write to its stdout and stderr is searched for them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from forkcli import fork_cli
from gitrepo import GitRepo
from runbundle import BACKENDS, EVERYTHING_IS_SRC, HAVE_BWRAP, RUN_STATE, HostServer, gk, gk_in, origin_repo

from gatekeeper.runner import egress, sandbox

pytestmark = pytest.mark.usefixtures("runner_bundle")


def origin(tmp_path: Path) -> Path:
    return origin_repo(tmp_path).root


def LoopbackServer() -> HostServer:  # noqa: N802 - reads like the class it used to be
    """A TCP server on the host's 127.0.0.1 that counts the connections it accepted."""
    return HostServer(b"hello from the host\n")


CONNECT = """
import socket, sys
port = int(sys.argv[1])
# Loopback inside the sandbox works: a server of our own on 127.0.0.1 answers.
own = socket.socket(); own.bind(("127.0.0.1", 0)); own.listen(1)
probe = socket.create_connection(own.getsockname(), timeout=2); probe.close()
print("own-loopback: ok")
try:
    with socket.create_connection(("127.0.0.1", port), timeout=2) as conn:
        print("host-server:", conn.recv(100).decode().strip())
except OSError as exc:
    print("host-server: unreachable", type(exc).__name__)
"""


ESCAPE = """
import os, shutil, subprocess, sys
host_pid = sys.argv[2]
nsenter = shutil.which("nsenter")
for target in (f"/proc/{host_pid}/ns/net", "/proc/1/ns/net") if nsenter else ():
    done = subprocess.run([nsenter, f"--net={target}", "cat", "/proc/net/dev"], capture_output=True, text=True)
    names = sorted(line.split(":")[0].strip() for line in done.stdout.splitlines()[2:])
    print("escape", target, "rc", done.returncode, "interfaces", names)
"""


@dataclass
class NetworkRun:
    """One run per backend whose generator tries the host's loopback server, then the host's network namespace."""

    backend: str
    summary: dict
    log: str  # the generator's stdout log
    accepted_before: int  # connections the server took from a normal host process, before the run
    accepted_after: int


@pytest.fixture(scope="module", params=BACKENDS)
def network_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> NetworkRun:
    backend, tmp_path = request.param, tmp_path_factory.mktemp("network")
    server = LoopbackServer()
    try:
        script = tmp_path / "connect.py"
        script.write_text(CONNECT)
        # A normal process on the host reaches the server.
        normal = subprocess.run([sys.executable, str(script), str(server.port)], capture_output=True, text=True,
                                timeout=30)
        assert "host-server: hello from the host" in normal.stdout
        accepted = server.accepted
        (tmp_path / "escape.py").write_text(CONNECT + ESCAPE)
        (tmp_path / "policies").mkdir()
        (tmp_path / "policies" / ".manifest").write_text('{"revision": "runner-test", "roots": ["gatekeeper"]}')
        (tmp_path / "policies" / "classification.yaml").write_text(EVERYTHING_IS_SRC)
        done = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--sandbox", backend,
                     "--policy", str(tmp_path / "policies"), "--format", "json", "--", sys.executable,
                     str(tmp_path / "escape.py"), str(server.port), str(os.getpid()))
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        log = (Path(summary["run_dir"]) / "logs" / "stdout.log").read_text()
        return NetworkRun(backend, summary, log, accepted, server.accepted)
    finally:
        server.close()


def test_host_loopback_server_is_unreachable_from_the_generator(network_run: NetworkRun) -> None:
    summary, stdout_log = network_run.summary, network_run.log
    assert network_run.accepted_before == 1
    assert "own-loopback: ok" in stdout_log
    assert "host-server: unreachable" in stdout_log
    assert network_run.accepted_after == 1  # nothing from the sandbox got through
    packet = json.loads(Path(summary["packet"]).read_text())
    assert packet["sandbox"]["backend"] == network_run.backend
    assert packet["sandbox"]["network"] == "denied"
    assert packet["sandbox"]["egress_checked"] is True
    probe = json.loads((Path(summary["run_dir"]) / "exchange" / "sandbox-probe.json").read_text())
    assert probe["interfaces_up"] == [] and probe["routes_out"] == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_secrets_do_not_reach_the_generator_patch_or_packet(tmp_path: Path, backend: str) -> None:
    secrets = {"GITHUB_TOKEN": "ghp_SECRETvalue0123456789", "AWS_SECRET_ACCESS_KEY": "aws/SECRET+value/9876"}
    env = {**os.environ, **secrets, "DEPLOY_HINT": "passed-on-purpose-42"}
    done = gk("run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--sandbox", backend,
              "--pass-env", "DEPLOY_HINT", "--format", "json", "--", "sh", "-c", "env > seen-env.txt; env",
              env=env)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    run_dir = Path(summary["run_dir"])
    patch = Path(summary["patch"]).read_text()
    assert "+DEPLOY_HINT=passed-on-purpose-42" in patch  # the named variable did pass
    packet_text = Path(summary["packet"]).read_text()
    packet = json.loads(packet_text)
    assert "DEPLOY_HINT" in packet["sandbox"]["env_passed"]
    assert "passed-on-purpose-42" not in packet_text  # names only, never values
    everything = [patch, packet_text, done.stdout, done.stderr]
    everything += [p.read_text(errors="replace") for p in run_dir.rglob("*") if p.is_file() and ".git" not in p.parts]
    for name, value in secrets.items():
        assert name not in packet["sandbox"]["env_passed"]
        for text in everything:
            assert value not in text
            assert f"{name}=" not in text


@pytest.mark.skipif(shutil.which("nsenter") is None, reason="nsenter not installed")
def test_generator_cannot_reenter_the_host_network_namespace(network_run: NetworkRun) -> None:
    # As root, a plain `unshare --net` would let the generator `setns` back into the host's namespace.
    attempts = [line for line in network_run.log.splitlines() if line.startswith("escape ")]
    assert len(attempts) == 2
    for line in attempts:
        assert line.endswith("interfaces []") or line.endswith("interfaces ['lo']"), line


# It ends once a checkpoint (the runner's `git add`) has run with the filter in place, however slow the machine.
PLANT = RUN_STATE + """
import sys
marker = sys.argv[1]
open(".gitattributes", "w").write("* filter=evil\\n")
with open(".git/config", "a") as config:
    config.write(f'[filter "evil"]\\n\\tclean = tee {marker}\\n')
open("README.md", "w").write("changed\\n")
wait_for_state(lambda state: state["checkpoints"], timeout=30)
"""


def test_a_planted_git_filter_never_runs_outside_the_sandbox(tmp_path: Path) -> None:
    # The runner's own `git add` runs outside the sandbox: a filter the generator defines must not run there.
    marker = tmp_path / "filter-ran"
    script = tmp_path / "plant.py"
    script.write_text(PLANT)
    done = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--sandbox", "unshare",
                 "--checkpoint-interval", "0.2", "--format", "json", "--", sys.executable, str(script), str(marker))
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    patch = Path(json.loads(done.stdout)["patch"]).read_text()
    assert "+changed" in patch and "+* filter=evil" in patch


def test_auto_fails_closed_when_nothing_isolates(tmp_path: Path) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    env = {**os.environ, "PATH": str(empty)}
    out = tmp_path / "runs"
    # In-process: the backends are looked up on os.environ's PATH at the call, which `env` replaces for it.
    done = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(out), "--", "true", env=env)
    assert done.returncode == 2
    assert "cannot isolate the generator" in done.stderr and "--sandbox none" in done.stderr
    assert not out.exists()


def test_none_is_recorded_as_unrestricted(tmp_path: Path) -> None:
    done = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--sandbox", "none",
                 "--format", "json", "--", "true")
    assert done.returncode == 0, done.stderr
    packet = json.loads(Path(json.loads(done.stdout)["packet"]).read_text())
    assert packet["sandbox"]["backend"] == "none"
    assert packet["sandbox"]["network"] == "unrestricted"


@pytest.mark.skipif(not HAVE_BWRAP, reason="bwrap not installed")
def test_auto_prefers_bwrap(tmp_path: Path) -> None:
    done = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--format", "json", "--",
                 "true")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sandbox"]["backend"] == "bwrap"


def test_probe_on_the_host_sees_a_way_out_or_says_denied_truthfully() -> None:
    # The host's own namespace: the probe must not claim "denied" while a non-loopback interface is up.
    result = egress.probe()
    assert result["egress_checked"] is True
    if result["interfaces_up"] or result["routes_out"]:
        assert result["network"] == "unrestricted"


def test_probe_in_a_fresh_namespace_says_denied() -> None:
    code = (
        "from gatekeeper.runner import egress; import json; "
        "egress.bring_loopback_up(); print(json.dumps(egress.probe()))"
    )
    user = [] if os.geteuid() == 0 else ["--map-root-user"]
    done = subprocess.run(["unshare", "--net", *user, "--", sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=30, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["network"] == "denied"
    assert [i["name"] for i in result["interfaces"]] == ["lo"] and result["interfaces"][0]["up"] is True


def test_a_replaced_git_folder_stops_the_run(tmp_path: Path) -> None:
    elsewhere = GitRepo(tmp_path / "elsewhere")
    swap = f"rm -rf .git && echo 'gitdir: {elsewhere.root / '.git'}' > .git"
    done = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--sandbox", "unshare",
                 "--", "sh", "-c", swap)
    assert done.returncode == 2
    assert "replaced the workspace's .git folder" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("entry", ["", ".", "bin"])
def test_a_sandbox_program_is_never_found_through_a_relative_path_entry(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry: str) -> None:
    # The sandbox starts in the workspace: a relative PATH entry would pick the clone's own `bwrap`.
    (tmp_path / "bin").mkdir()
    for folder in (tmp_path, tmp_path / "bin"):
        for name in ("bwrap", "unshare"):
            (folder / name).write_text("#!/bin/sh\nexec \"$@\"\n")
            (folder / name).chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{entry}:{os.environ['PATH']}")
    for prefix in (sandbox._bwrap_prefix(), sandbox._unshare_prefix()):
        if prefix is not None:
            assert os.path.isabs(prefix[0]) and not prefix[0].startswith(str(tmp_path)), prefix[0]


WEAKER_UNSHARE = {
    # Drops every option: no namespace at all.
    "nothing": 'while [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n',
    # A network namespace but no mount (nor PID) namespace of its own.
    "no-mount-namespace": 'while [ "$1" != "--" ]; do shift; done\nshift\nexec {real} --net --map-root-user -- "$@"\n',
}


@pytest.mark.parametrize("weaker", sorted(WEAKER_UNSHARE))
def test_an_unshare_that_cannot_confine_is_refused_not_used_weaker(tmp_path: Path, weaker: str) -> None:
    # A stand-in `unshare` weaker than asked: the run must stop before the generator, whatever it says.
    # The whole CLI runs in a throw-away mount namespace of its own (a forked process, tests/forkcli.py), so even a
    # shim that wrongly went on could not remount anything of the host's.
    fake = tmp_path / "fake-bin"
    fake.mkdir()
    real = shutil.which("unshare")
    (fake / "unshare").write_text("#!/bin/sh\n" + WEAKER_UNSHARE[weaker].format(real=real))
    (fake / "unshare").chmod(0o755)
    marker = tmp_path / "generator-ran"
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
    done = fork_cli(["run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--sandbox", "unshare",
                     "--", "touch", str(marker)], tmp_path / "forked", env=env, binds={}).wait()
    assert done.returncode == 2, done.stderr
    assert not marker.exists()
    assert "the generator was not run" in done.stderr and "Traceback" not in done.stderr
