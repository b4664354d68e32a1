"""The wheel carries every module and the whole shipped bundle, and an installed gatekeeper finds it."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from shipped import shipped_only

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("build-src")
    # Build from a copy of the tracked files, so the checkout gets no build/ or egg-info droppings.
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout
    for name in filter(None, files.decode().split("\0")):
        source = REPO / name
        if source.is_file():
            target = build / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--verbose",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(out),
            str(build),
        ],
        check=True,
        capture_output=True,
    )
    (found,) = out.glob("gatekeeper-*.whl")
    (out / "build.log").write_bytes(done.stdout + done.stderr)
    return found


def test_the_build_gives_no_setuptools_warnings(wheel: Path) -> None:
    # A first install printed hundreds of lines: the license table and one warning per bundle folder.
    log = (wheel.parent / "build.log").read_text(errors="replace")
    assert "running bdist_wheel" in log  # the verbose log was captured, so an empty match means something
    assert "BuildBackendWarning" not in log and "SetuptoolsDeprecationWarning" not in log, log[-3000:]


def test_wheel_has_every_module_and_schema(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for source in (REPO / "gatekeeper").rglob("*"):
        if source.suffix in {".py", ".json"} and "__pycache__" not in source.parts:
            assert source.relative_to(REPO).as_posix() in names, f"{source} is not in the wheel"


@shipped_only
def test_wheel_has_the_whole_shipped_bundle(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    bundle = REPO / "policies"
    for source in bundle.rglob("*"):
        if source.is_file():
            assert f"gatekeeper/_bundle/{source.relative_to(bundle).as_posix()}" in names, f"{source} is missing"


def test_installed_gatekeeper_uses_its_bundled_policies(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = "from gatekeeper.policy_dir import resolve_policy_dir; print(resolve_policy_dir(None))"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(done.stdout.strip()) == site / "gatekeeper" / "_bundle"
