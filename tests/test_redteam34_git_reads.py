"""Red team 34: files in the workspace's `.git` that change what the runner's own git READS (outside the sandbox).

Red team 33 stopped the runner's git from writing through links below `.git`; what git reads there was still the
generator's:
- `objects/info/alternates` (absolute or relative paths) adds a host object store: an index entry, or the base
  commit seen through a replace ref, that names an object of that store puts its content into the patch, or (on a
  resume, `git checkout` of the base) into the work tree the resumed generator reads;
- `refs/replace/<base>` makes the resume's `git checkout BASE` check out another tree;
- the generator's own index and `info/exclude` decided what the capture staged: an entry whose stat matches keeps
  the object id the generator wrote there (not the file's content), `--assume-unchanged` hides a change, and an
  excluded file is left out, so the patch was not the work tree the generator left.
Now the capture and the checkpoints never read the workspace's git folder (their own store, index and excludes; the
base's objects copied in at clone time), and a workspace with an alternates file is refused at capture (exit 2) and
cloned again on a resume. Each case is checked against real git: the leaked content really is what git would read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from runbundle import gk_in, origin_repo

pytestmark = pytest.mark.usefixtures("runner_bundle")

SECRET = "TOP SECRET 34: only the host may read this\n"

# argv: mode, the host store, the secret blob's id. Runs in the workspace, inside the sandbox.
GENERATOR = r"""
import hashlib, os, subprocess, sys
mode, store, secret = sys.argv[1], sys.argv[2], sys.argv[3]

def git(*args, data=None):
    return subprocess.run(["git", *args], input=data, capture_output=True, check=True).stdout.decode().strip()

def index_entry_says(path, oid):
    # The entry keeps the file's stat (git trusts it) and names `oid` instead of the file's blob.
    old = bytes.fromhex(git("rev-parse", ":" + path))
    data = bytearray(open(".git/index", "rb").read())
    at = data.index(old)
    data[at:at + 20] = bytes.fromhex(oid)
    body = bytes(data[:-20])
    open(".git/index", "wb").write(body + hashlib.sha1(body).digest())

def stage(path, text):
    open(path, "w").write(text)
    os.utime(path, (946684800, 946684800))  # long before the index: not "racily clean", git trusts the stat
    git("add", path)

if mode.startswith("alternates"):
    line = store if mode == "alternates" else os.path.relpath(store, os.path.join(".git", "objects"))
    name = "http-alternates" if mode == "alternates-http" else "alternates"
    os.makedirs(".git/objects/info", exist_ok=True)
    open(os.path.join(".git/objects/info", name), "w").write(line + "\n")
    if name == "alternates":
        stage("leak.txt", "x" * len("TOP SECRET 34: only the host may read this\n"))
        index_entry_says("leak.txt", secret)
    else:
        open("leak.txt", "w").write("plain\n")
elif mode == "index-oid":
    hidden = git("hash-object", "-w", "--stdin", data=b"hidden from the work tree\n")
    stage("shown.txt", "what the work tree holds\n")
    index_entry_says("shown.txt", hidden)
elif mode == "assume-unchanged":
    open("README.md", "a").write("changed under the flag\n")
    git("update-index", "--assume-unchanged", "README.md")
elif mode == "skip-worktree":
    open("README.md", "a").write("changed under the flag\n")
    git("update-index", "--skip-worktree", "README.md")
elif mode == "exclude":
    open(".git/info/exclude", "a").write("hidden.txt\n")
    open("hidden.txt", "w").write("left out of the patch\n")
"""


def _secret_store(tmp_path: Path) -> tuple[Path, str]:
    repo = GitRepo(tmp_path / "secret")
    repo.write("secret.txt", SECRET)
    repo.commit()
    blob = subprocess.run(["git", "-C", str(repo.root), "rev-parse", "HEAD:secret.txt"], capture_output=True,
                          text=True, check=True).stdout.strip()
    return repo.root / ".git" / "objects", blob


def _run(tmp_path: Path, mode: str, backend: str = "unshare") -> tuple[subprocess.CompletedProcess[str], Path, str]:
    store, blob = _secret_store(tmp_path)
    script = tmp_path / "gen.py"
    script.write_text(GENERATOR)
    out = tmp_path / "runs"
    done = gk_in("run", "--repo", str(origin_repo(tmp_path).root), "--out", str(out), "--sandbox", backend,
                 "--checkpoint-interval", "0.2", "--format", "json", "--", sys.executable, str(script), mode,
                 str(store), blob)
    run_dir = out / next(p.name for p in out.iterdir() if p.is_dir())
    return done, run_dir, blob


def _everything_written(run_dir: Path) -> str:
    """Every file of the run folder outside the workspace and the runner's own git folder, as text."""
    texts = []
    for path in sorted(run_dir.rglob("*")):
        if path.is_file() and not {"workspace", "checkpoint.git"} & set(path.relative_to(run_dir).parts):
            texts.append(path.read_bytes().decode(errors="replace"))
    return "\n".join(texts)


def test_the_attack_is_real_git_behaviour(tmp_path: Path) -> None:
    """Outside the runner, git does read the host store through the alternates file and the forged index entry."""
    store, blob = _secret_store(tmp_path)
    repo = origin_repo(tmp_path)
    (repo.root / ".git" / "objects" / "info" / "alternates").write_text(f"{store}\n")
    shown = subprocess.run(["git", "-C", str(repo.root), "cat-file", "-p", blob], capture_output=True, text=True)
    assert shown.stdout == SECRET


@pytest.mark.parametrize("mode", ["alternates", "alternates-relative", "alternates-http"])
@pytest.mark.parametrize("backend", ["unshare", "bwrap"])
def test_capture_reads_no_host_object_store(tmp_path: Path, mode: str, backend: str) -> None:
    done, run_dir, _ = _run(tmp_path, mode, backend)
    assert "TOP SECRET" not in _everything_written(run_dir) + done.stdout + done.stderr
    assert done.returncode == 2, done.stderr
    assert "alternates" in done.stderr, done.stderr
    assert not (run_dir / "patch.diff").exists()


@pytest.mark.parametrize(("mode", "expected"), [
    ("index-oid", "+what the work tree holds"),
    ("assume-unchanged", "+changed under the flag"),
    ("skip-worktree", "+changed under the flag"),
    ("exclude", "+left out of the patch"),
])
def test_the_patch_is_the_work_tree_not_the_generators_index(tmp_path: Path, mode: str, expected: str) -> None:
    done, run_dir, _ = _run(tmp_path, mode)
    assert done.returncode == 0, done.stderr
    patch = (run_dir / "patch.diff").read_text()
    assert expected in patch, patch
    assert "hidden from the work tree" not in patch
    for checkpoint in (run_dir / "checkpoints").glob("*.diff"):
        assert "hidden from the work tree" not in checkpoint.read_text()


# The first attempt plants, the resumed one reports what it finds in its work tree (into `found.txt`).
RESUME = r"""
import os, subprocess, sys
marker = os.path.join(os.path.dirname(os.environ["GATEKEEPER_MODEL_REPORT"]), "planted")
mode, store, secret = sys.argv[1], sys.argv[2], sys.argv[3]
def git(*args, data=None):
    return subprocess.run(["git", *args], input=data, capture_output=True, check=True).stdout.decode().strip()
if not os.path.exists(marker):
    open(marker, "w").close()
    base = git("rev-parse", "HEAD")
    if mode == "alternates":
        open(".git/objects/info/alternates", "w").write(store + "\n")
        entry = "100644 blob %s\tsecret.txt\n" % secret
    else:
        entry = "100644 blob %s\tplanted.txt\n" % git("hash-object", "-w", "--stdin", data=b"planted\n")
    tree = git("mktree", "--missing", data=entry.encode())
    fake = git("-c", "user.name=g", "-c", "user.email=g@example.invalid", "commit-tree", tree, "-m", "fake base")
    os.makedirs(".git/refs/replace", exist_ok=True)
    open(".git/refs/replace/" + base, "w").write(fake + "\n")
    sys.exit(0)
names = " ".join(sorted(n for n in os.listdir(".") if n != ".git"))
open("found.txt", "w").write(names + "\n")
for name in ("secret.txt", "planted.txt"):
    if os.path.exists(name):
        open("found.txt", "a").write(open(name).read())
"""


@pytest.mark.parametrize("mode", ["alternates", "replace"])
def test_resume_checks_out_the_real_base(tmp_path: Path, mode: str) -> None:
    """A run whose runner died mid-generator (stage `cloned`) after the generator planted a replace ref for the base
    (and an alternates file): the resume's `git checkout BASE` must give the resumed generator the real base."""
    store, blob = _secret_store(tmp_path)
    script = tmp_path / "gen.py"
    script.write_text(RESUME)
    out = tmp_path / "runs"
    first = gk_in("run", "--repo", str(origin_repo(tmp_path).root), "--out", str(out), "--sandbox", "unshare",
                  "--format", "json", "--", sys.executable, str(script), mode, str(store), blob)
    run_dir = out / next(p.name for p in out.iterdir() if p.is_dir())
    assert (run_dir / "workspace" / ".git" / "refs" / "replace").is_dir(), first.stderr
    state_file = run_dir / "state.json"
    doc = json.loads(state_file.read_text())
    doc["stage"] = "cloned"  # as a runner killed during the generator would have left it
    state_file.write_text(json.dumps(doc))
    for name in ("patch.diff", "packet.json"):
        (run_dir / name).unlink(missing_ok=True)
    done = gk_in("run", "--resume", run_dir.name, "--out", str(out), "--format", "json")
    assert done.returncode == 0, done.stderr
    found = (run_dir / "workspace" / "found.txt").read_text()
    assert found == "README.md\n", found
    assert "TOP SECRET" not in _everything_written(run_dir)
    patch = (run_dir / "patch.diff").read_text()
    assert "+README.md" in patch and "planted" not in patch, patch


# argv: the nested form, a host repository's git folder. A folder holding `.git` is recorded as a gitlink: git reads
# that repository's HEAD (through a `.git` file's `gitdir:`, a nested `.git/commondir`, or a linked nested HEAD).
NESTED = r"""
import os, sys
form, host = sys.argv[1], sys.argv[2]
os.makedirs("sub/.git" if form != "gitfile" else "sub", exist_ok=True)
if form == "gitfile":
    open("sub/.git", "w").write("gitdir: " + host + "\n")
elif form == "commondir":
    open("sub/.git/HEAD", "w").write("ref: refs/heads/main\n")
    os.makedirs("sub/.git/objects")
    os.makedirs("sub/.git/refs")
    open("sub/.git/commondir", "w").write(host + "\n")
else:
    os.makedirs("sub/.git/objects")
    os.makedirs("sub/.git/refs")
    os.symlink(os.path.join(host, "refs", "heads", "main"), "sub/.git/HEAD")
open("sub/file.txt", "w").write("x\n")
"""


@pytest.mark.parametrize("form", ["gitfile", "commondir", "linked-head"])
def test_capture_reads_no_host_repository_through_a_nested_git(tmp_path: Path, form: str) -> None:
    host = GitRepo(tmp_path / "host")
    host.write("private.txt", "private\n")
    head = host.commit()
    subprocess.run(["git", "-C", str(host.root), "branch", "-M", "main"], check=True)
    script = tmp_path / "nested.py"
    script.write_text(NESTED)
    out = tmp_path / "runs"
    done = gk_in("run", "--repo", str(origin_repo(tmp_path).root), "--out", str(out), "--sandbox", "unshare",
                 "--format", "json", "--", sys.executable, str(script), form, str(host.root / ".git"))
    run_dir = out / next(p.name for p in out.iterdir() if p.is_dir())
    assert head not in _everything_written(run_dir) + done.stdout + done.stderr
    assert done.returncode == 2, done.stderr
    assert "sub/.git" in done.stderr
