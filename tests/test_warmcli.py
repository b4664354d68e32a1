"""tests/warmcli.py: to a shell script, the served `gatekeeper` is the installed one (streams, status, folder,
environment, umask, stdin), so the docs' blocks that run through it check what a reader's shell would see."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import GitRepo
from tables import each_case
from warmcli import served

BIN = Path(sys.executable).parent

# Each property a script can see, in as few commands as show it (a cold `gatekeeper` costs ~0.3 CPU-s).
SCRIPTS = [
    "gatekeeper nosuch",  # a usage error: stderr only, exit 2
    # folder, umask, stdin: `--out` under `cd sub`, its new folder made under umask 077, the patch read from stdin
    "cd sub && umask 077 && gatekeeper packet --run-id r1 /dev/stdin --out new/here.json < ../patch.diff && "
    "stat -c %a new && gatekeeper verify new/here.json --patch ../patch.diff",
    "COLUMNS=50 gatekeeper verify --help | head -4",  # the environment (help wrapped to COLUMNS), a pipe as stdout
    # exit 2 and its line, stderr into the pipe; the arguments byte for byte: one not UTF-8 holding a space, one empty
    "gatekeeper verify \"$(printf 'missing\\377 x.json')\" --patch '' 2>&1",
]


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    root = tmp_path_factory.mktemp("warmcli")
    repo = GitRepo(root / "repo")
    repo.write("src/app.py", "x = 1\n")
    repo.commit()
    repo.write("src/app.py", "x = 2\n")
    (root / "work").mkdir()
    repo.save_patch(root / "work" / "patch.diff")
    (root / "work" / "sub").mkdir()
    with served(root / "server", dict(os.environ)) as warm:
        yield root / "work", warm


def run(script: str, work: Path, first_on_path: Path) -> tuple[int, str, str]:
    env = {**os.environ, "PATH": f"{first_on_path}{os.pathsep}{os.environ['PATH']}", "LC_ALL": "C.UTF-8"}
    done = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=work, env=env, capture_output=True,
                          text=True, timeout=120)
    return done.returncode, done.stdout.replace(str(work), "WORK"), done.stderr.replace(str(work), "WORK")


@each_case("script", SCRIPTS, ids=["usage-error", "folder-umask-stdin", "env-pipe", "exit-2"])
def test_a_script_sees_the_served_command_as_the_installed_one(script: str, folders: tuple[Path, Path],
                                                               tmp_path: Path) -> None:
    work, warm = folders
    installed, served_ = tmp_path / "installed", tmp_path / "served"
    shutil.copytree(work, installed)
    shutil.copytree(work, served_)
    expected = run(script, installed, BIN)
    assert run(script, served_, warm) == expected
    assert sorted(p.name for p in served_.rglob("*")) == sorted(p.name for p in installed.rglob("*"))


def test_the_served_command_is_not_the_installed_script(folders: tuple[Path, Path]) -> None:
    # Otherwise the comparison above would compare the installed script with itself.
    work, warm = folders
    code, out, _ = run("command -v gatekeeper", work, warm)
    assert (code, out.strip()) == (0, str(warm / "gatekeeper"))
    assert not (warm / "gatekeeper").read_text(encoding="utf-8").count("gatekeeper.cli")


def _tracer() -> str:
    strace = shutil.which("strace")
    if strace is None or subprocess.run([strace, "-o", os.devnull, "true"], capture_output=True).returncode != 0:
        pytest.skip("needs strace, allowed to trace its child, to hold the client back")
    return strace


def test_a_client_held_back_after_its_request_still_reports_the_command(folders: tuple[Path, Path]) -> None:
    """On a loaded machine the server can run a quick command and close the connection before the client, which
    sent its whole request, takes its next step. Held back there (strace delays each of its later sends and
    receives by half a second), the client still exits with the command's status and adds nothing to its output:
    a send of nothing to the closed server had failed with EPIPE after the command succeeded (seen once in the
    docs' test, under load)."""
    work, warm = folders
    strace = _tracer()
    held = [strace, "-f", "-o", os.devnull, "-e", "inject=sendto,recvfrom:delay_enter=500000"]
    for args in (["--version"], ["nosuch"]):
        expected = subprocess.run([str(warm / "gatekeeper"), *args], cwd=work, capture_output=True, text=True,
                                  timeout=60)
        done = subprocess.run([*held, str(warm / "gatekeeper"), *args], cwd=work, capture_output=True, text=True,
                              timeout=60)
        assert (done.returncode, done.stdout, done.stderr) == (expected.returncode, expected.stdout, expected.stderr)
    assert expected.returncode == 2
