"""Review of the runner's own git commands: nothing the generator plants may run outside the sandbox.

The runs and the resume after planted hooks are in-process (runbundle.gk_in): the runner's git commands are
child processes either way."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from runbundle import BACKENDS, RUN_STATE, gk_in, origin_repo

pytestmark = pytest.mark.usefixtures("runner_bundle")


def origin(tmp_path: Path) -> Path:
    return origin_repo(tmp_path).root


def run(
    tmp_path: Path, script: str, marker: Path, *extra: str, backend: str = "unshare", names: Sequence[str] = (),
) -> tuple[int, dict, str]:
    path = tmp_path / "gen.py"
    path.write_text(script)
    done = gk_in("run", "--repo", str(origin(tmp_path)), "--out", str(tmp_path / "runs"), "--sandbox", backend,
                 "--format", "json", *extra, "--", sys.executable, str(path), str(marker), *names)
    return done.returncode, (json.loads(done.stdout) if done.stdout.strip() else {}), done.stderr


# A `commondir` file makes git read its config (filters included) from another folder: one in the workspace, which the
# runner's git outside the sandbox sees too (a folder outside it, e.g. beside the run directory, would be the
# sandbox's private tmpfs under /tmp, or not writable at all under another temporary folder).
COMMONDIR = """
import os, sys
marker = sys.argv[1]
evil = os.path.abspath("evil-common")
os.makedirs(evil, exist_ok=True)
with open(os.path.join(evil, "config"), "w") as config:
    config.write(f'[core]\\n\\trepositoryformatversion = 0\\n[filter "evil"]\\n\\tclean = touch {marker}; cat\\n')
for sub in ("objects", "refs"):
    os.makedirs(os.path.join(evil, sub), exist_ok=True)
open(".git/commondir", "w").write(evil + "\\n")
open(".gitattributes", "w").write("* filter=evil\\n")
open("README.md", "w").write("changed\\n")
"""


def test_a_commondir_file_cannot_bring_in_a_filter(tmp_path: Path) -> None:
    marker = tmp_path / "commondir-filter-ran"
    code, _summary, err = run(tmp_path, COMMONDIR, marker)
    assert not marker.exists(), err
    assert code in (0, 2), err


# The runner's saved copy of the clone's config lives in the run directory, on the shared filesystem.
SAVED_COPY = """
import sys
marker = sys.argv[1]
try:
    with open("../workspace-git-config", "a") as config:
        config.write(f'[filter "evil"]\\n\\tclean = touch {marker}; cat\\n')
    print("saved copy: written")
except OSError as exc:
    print("saved copy:", type(exc).__name__)
open(".gitattributes", "w").write("* filter=evil\\n")
open("README.md", "w").write("changed\\n")
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_saved_git_config_cannot_be_rewritten_from_the_sandbox(tmp_path: Path, backend: str) -> None:
    marker = tmp_path / "saved-copy-filter-ran"
    code, summary, err = run(tmp_path, SAVED_COPY, marker, backend=backend)
    assert not marker.exists(), err
    assert code == 0, err
    assert "saved copy: OSError" in Path(summary["logs"]["stdout"]).read_text()


# Root inside the sandbox holds capabilities over its own mount namespace: it must still not be able to
# take the read-only run directory apart again.
UNDO = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
run = os.path.dirname(os.getcwd())
for attempt in ("umount", "remount", "unshare"):
    if attempt == "umount":
        libc.umount2(run.encode(), 2)  # MNT_DETACH
    elif attempt == "remount":
        libc.mount(None, run.encode(), None, 0x1000 | 0x20, None)  # MS_BIND | MS_REMOUNT, read-write
    else:
        os.system("unshare --user --map-root-user --mount sh -c 'umount -l %s; mount -o remount,bind,rw %s' 2>/dev/null"
                  % (run, run))
    try:
        open(os.path.join(run, "state.json"), "a").close()
        print(attempt + ": writable")
    except OSError:
        print(attempt + ": read-only")
open("README.md", "w").write("changed\\n")
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_generator_cannot_unmount_the_read_only_run_directory(tmp_path: Path, backend: str) -> None:
    code, summary, err = run(tmp_path, UNDO, tmp_path / "unused", backend=backend)
    assert code == 0, err
    out = Path(summary["logs"]["stdout"]).read_text()
    assert "writable" not in out and out.count("read-only") == 3, out


# While the generator runs, checkpoints stage the workspace: a filter planted between the runner's
# config restore and its `git add` would run outside the sandbox.
RACE = """
import sys, time
marker = sys.argv[1]
open(".gitattributes", "w").write("* filter=evil\\n")
stanza = f'[filter "evil"]\\n\\tclean = touch {marker}; cat\\n'
end = time.monotonic() + 2.5
n = 0
while time.monotonic() < end:
    n += 1
    open("README.md", "w").write(f"changed {n}\\n")
    text = open(".git/config").read()
    if "evil" not in text:
        open(".git/config", "a").write(stanza)
"""


def test_checkpoints_cannot_be_raced_into_running_a_filter(tmp_path: Path) -> None:
    marker = tmp_path / "race-filter-ran"
    code, _summary, err = run(tmp_path, RACE, marker, "--checkpoint-interval", "0.05")
    assert not marker.exists(), err
    assert code == 0, err


# Git cannot record FIFOs, sockets or devices, but opening one where git reads (.gitignore,
# .gitattributes, .git/info/exclude) blocks it forever: the runner must neither hang nor fail.
SPECIAL = """
import os, socket
os.mkfifo(".gitignore")
os.mkfifo(".gitattributes")
os.unlink(".git/info/exclude")
os.mkfifo(".git/info/exclude")
os.mkfifo("pipe")
socket.socket(socket.AF_UNIX).bind("sock")
open("README.md", "w").write("changed\\n")
"""


def test_fifos_and_sockets_in_the_workspace_do_not_hang_the_capture(tmp_path: Path) -> None:
    code, summary, err = run(tmp_path, SPECIAL, tmp_path / "unused")
    assert code == 0, err
    patch = Path(summary["patch"]).read_text()
    assert "+changed" in patch and "pipe" not in patch and "sock" not in patch


def test_a_checkpoint_blocked_by_a_fifo_is_skipped_not_hung(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gatekeeper.runner import run as runner
    from gatekeeper.runner import workspace

    monkeypatch.setattr(workspace, "CHECKPOINT_GIT_TIMEOUT", 0.5)
    script = tmp_path / "gen.py"
    # The generator ends once a checkpoint is recorded (the FIFO is gone by then), however slow the machine.
    script.write_text(RUN_STATE + "import os\nos.mkfifo('.gitignore')\nopen('README.md', 'w').write('x\\n')\n"
                      "wait_for_state(lambda state: state['checkpoints'], timeout=20)\n")
    lines: list[str] = []

    def progress(line: str) -> None:
        lines.append(line)
        if "checkpoint skipped" in line:  # one checkpoint was blocked: take the FIFO away
            for fifo in (tmp_path / "runs").glob("*/workspace/.gitignore"):
                fifo.unlink()

    request = runner.RunRequest(command=(sys.executable, str(script)), repo=str(origin(tmp_path)), sandbox="unshare",
                                checkpoint_interval=0.2, timeout=30)
    result = runner.start(request, out=tmp_path / "runs", environ={"PATH": "/usr/bin:/bin"}, progress=progress)
    assert result.state.generator is not None and result.state.generator["exit_code"] == 0
    assert any("checkpoint skipped" in line for line in lines), lines
    assert result.state.checkpoints, lines  # once the FIFO is gone, checkpoints work again
    assert "+x" in result.run.patch.read_text()


def test_a_linked_git_config_is_replaced_not_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me\n")
    script = f"import os\nos.unlink('.git/config')\nos.symlink({str(outside)!r}, '.git/config')\n"
    script += "open('README.md', 'w').write('changed\\n')\n"
    code, summary, err = run(tmp_path, script, tmp_path / "unused")
    assert code == 0, err
    assert outside.read_text() == "keep me\n"
    run_dir = Path(summary["run_dir"])
    config = run_dir / "workspace" / ".git" / "config"
    assert not config.is_symlink() and config.read_bytes() == (run_dir / "workspace-git-config").read_bytes()


# Hooks and config keys that would run a program: none may run in the runner's own git commands,
# neither at capture nor when a resume resets the workspace (checkout runs post-checkout).
HOOKS = """
import os, stat, sys
marker = sys.argv[1]
for hook in ("post-checkout", "post-index-change", "pre-commit", "reference-transaction", "pre-auto-gc"):
    path = os.path.join(".git", "hooks", hook)
    with open(path, "w") as handle:
        handle.write(f"#!/bin/sh\\necho {hook} >> {marker}\\n")
    os.chmod(path, 0o755)
with open(".git/config", "a") as config:
    config.write(f'[core]\\n\\tfsmonitor = echo fsmonitor >> {marker}\\n\\tpager = echo pager >> {marker}\\n'
                 f'[diff]\\n\\texternal = echo ext >> {marker}\\n[gc]\\n\\tauto = 1\\n')
open("README.md", "w").write("changed\\n")
"""


def test_planted_hooks_and_config_programs_never_run_at_capture_or_resume(tmp_path: Path) -> None:
    marker = tmp_path / "hook-ran"
    code, summary, err = run(tmp_path, HOOKS, marker)
    assert code == 0, err
    state = Path(summary["run_dir"]) / "state.json"
    doc = json.loads(state.read_text())
    doc["stage"] = "cloned"  # as a kill before the generator ended would leave it: resume resets the workspace
    state.write_text(json.dumps(doc))
    again = gk_in("run", "--resume", summary["run_id"], "--out", str(tmp_path / "runs"))
    assert again.returncode == 0, again.stderr
    assert not marker.exists(), marker.read_text()



NAMES = """
import sys
for name in sys.argv[2:]:
    with open(name.encode("utf-8", "surrogateescape"), "wb") as handle:
        handle.write(b"x\\n")
"""
ODD = ['quo"te.txt', "\udcff\udcfe.bin", "-dash.txt", "sp ace.txt", "a -> b.txt", "caf\u00e9.txt"]


def test_file_names_git_quotes_reach_the_patch_and_the_packet(tmp_path: Path) -> None:
    code, summary, err = run(tmp_path, NAMES, tmp_path / "unused", names=ODD)
    assert code == 0, err
    packet = json.loads(Path(summary["packet"]).read_text())
    assert packet["diff"]["file_count"] == len(ODD), packet["diff"]


def test_control_characters_in_names_stop_the_run_cleanly(tmp_path: Path) -> None:
    code, _summary, err = run(tmp_path, NAMES, tmp_path / "unused", names=["new\nline.txt", "tab\there.txt"])
    assert code == 2 and "unsafe path" in err and "Traceback" not in err
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert json.loads((run_dir / "state.json").read_text())["stage"] == "captured"
    assert (run_dir / "patch.diff").is_file() and not (run_dir / "packet.json").exists()


def test_fifos_in_the_generators_home_do_not_block_the_runners_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The runner's git runs with HOME = the generator's home: git reads ~/.config/git/{attributes,ignore}.
    from gatekeeper.runner import run as runner
    from gatekeeper.runner import workspace

    monkeypatch.setattr(workspace, "GIT_TIMEOUT", 5.0)
    script = tmp_path / "gen.sh"
    script.write_text('mkdir -p "$HOME/.config/git" && mkfifo "$HOME/.config/git/attributes" '
                      '"$HOME/.config/git/ignore" && echo x > x.txt\n')
    request = runner.RunRequest(command=("sh", str(script)), repo=str(origin(tmp_path)), sandbox="unshare", timeout=20)
    result = runner.start(request, out=tmp_path / "runs", environ={"PATH": "/usr/bin:/bin"}, progress=lambda _: None)
    assert result.exit_code == 0 and "+x" in result.run.patch.read_text()


# Attribute files the generator writes decide nothing about the patch: git reads `.gitattributes` (any folder),
# `.git/info/attributes` and macros defined there when it diffs, and `-diff`, `binary` or an undefined driver
# made a text file a binary section: no lines for the size policy, no text for the classifier.
ATTRIBUTE_FORMS = {
    "root_unset.txt": (".gitattributes", "root_unset.txt -diff"),
    "root_binary.txt": (".gitattributes", "root_binary.txt binary"),
    "root_driver.txt": (".gitattributes", "root_driver.txt diff=nosuchdriver"),
    "root_glob.yml": (".gitattributes", "*.yml -diff -text"),
    "sub/nested.txt": ("sub/.gitattributes", "nested.txt -diff"),
    "sub/deeper/star.txt": ("sub/.gitattributes", "** -diff"),
    "info_unset.txt": (".git/info/attributes", "info_unset.txt -diff"),
    "info_macro.txt": (".git/info/attributes", "[attr]hide -diff\ninfo_macro.txt hide"),
}
ATTRIBUTES = f"""
import os
forms = {ATTRIBUTE_FORMS!r}
for name, (where, line) in forms.items():
    for path in (name, where):
        if os.path.dirname(path):
            os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(where, "a") as attributes:
        attributes.write(line + "\\n")
    with open(name, "w") as text:
        text.write("".join(f"line {{i}} of {{name}}\\n" for i in range(7)))
"""


def test_attribute_files_the_generator_writes_do_not_turn_text_into_binary(tmp_path: Path) -> None:
    code, summary, err = run(tmp_path, ATTRIBUTES, tmp_path / "unused")
    assert code == 0, err
    patch = Path(summary["patch"]).read_text()
    assert "Binary files" not in patch and "GIT binary patch" not in patch, patch
    for name in ATTRIBUTE_FORMS:
        assert f"+++ b/{name}\n@@ -0,0 +1,7 @@\n" in patch, name
    packet = json.loads(Path(summary["packet"]).read_text())
    shown = {entry["path"]: (entry["additions"], entry["binary"]) for entry in packet["files"]}
    assert all(shown[name] == (7, False) for name in ATTRIBUTE_FORMS), shown
