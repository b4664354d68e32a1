"""`gatekeeper deps` on a real git repository: --tree through git objects, a patch alone, the CLI boundary."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gatekeeper.deps.renovatecustom import CONFIG_FILES
from gatekeeper.deps.sources import Delta, patch_delta, tree_delta
from gatekeeper.gitobjects import GitObjects
from tests.gitrepo import GitRepo
from tests.incli import run_cli

LOCK = {"name": "web", "lockfileVersion": 3, "packages": {
    "": {"name": "web", "dependencies": {"react": "^18.2.0"}, "devDependencies": {"vite": "^5.0.0"}},
    "node_modules/react": {"version": "18.2.0"},
    "node_modules/loose-envify": {"version": "1.4.0"},
    "node_modules/vite": {"version": "5.0.10", "dev": True}}}
GO_MOD = "module x\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b {}\n\tgithub.com/c/d v0.3.0 // indirect\n)\n"
PKG = {"name": "web", "dependencies": {"react": "^18.2.0"}, "devDependencies": {"vite": "^5.0.0"}}

def _tree(repo: Path, base: str, head: str) -> Delta:
    with GitObjects(repo) as git:
        return tree_delta(git, base, head)



def _json(value: object) -> str:
    return json.dumps(value, indent=2) + "\n"


@pytest.fixture()
def repo(tmp_path: Path) -> tuple[GitRepo, str, str]:
    """A monorepo: a JS workspace (lockfile-only bump), a Go service, a Python tool (manifest without lock),
    a Dockerfile and a workflow, plus a malformed Cargo.toml and an unrelated source file."""
    r = GitRepo(tmp_path / "repo")
    r.write("apps/web/package.json", _json(PKG))
    r.write("apps/web/package-lock.json", _json(LOCK))
    r.write("apps/web/yarn.lock", '# yarn lockfile v1\n\nms@^2.1.1:\n  version "2.1.1"\n  resolved "x"\n')
    r.write("svc/go.mod", GO_MOD.format("v1.2.0"))
    r.write("tools/requirements.txt", "click==8.1.7\nrich==13.7.0\n")
    r.write("Dockerfile", "FROM python:3.11-slim\n")
    r.write(".github/workflows/ci.yml", "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n"
            "      - uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11\n")
    r.write("crates/x/Cargo.toml", '[dependencies]\nserde = "1"\n')
    r.write("src/main.c", "int main(){}\n")
    base = r.commit("base")
    lock = json.loads(json.dumps(LOCK))
    lock["packages"]["node_modules/react"]["version"] = "18.3.1"  # a lockfile-only bump
    lock["packages"]["node_modules/left-pad"] = {"version": "1.3.0"}  # a new transitive one
    r.write("apps/web/package-lock.json", _json(lock))
    r.write("apps/web/yarn.lock", '# yarn lockfile v1\n\nms@^2.1.1:\n  version "2.1.3"\n  resolved "x"\n')
    r.write("svc/go.mod", GO_MOD.format("v1.1.0"))
    r.write("tools/requirements.txt", "click==8.1.7\nrich==13.7.0\nhttpx==0.27.0\n")
    r.write("Dockerfile", "FROM python:3.12-slim\n")
    r.write(".github/workflows/ci.yml", "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n"
            "      - uses: actions/checkout@v4\n")
    r.write("crates/x/Cargo.toml", "[dependencies\nserde = \n")
    r.write("src/main.c", "int main(){return 0;}\n")
    r.write("new/pyproject.toml", '[project]\nname = "n"\ndependencies = ["attrs>=23"]\n')
    head = r.commit("head")
    return r, base, head


def _rows(changes) -> set[tuple[object, ...]]:  # type: ignore[no-untyped-def]
    return {(c.manifest, c.name, c.from_version, c.to_version, c.change, c.direct, c.scope) for c in changes}


EXPECTED = {
    ("apps/web/package-lock.json", "react", "18.2.0", "18.3.1", "upgraded", True, "runtime"),
    ("apps/web/package-lock.json", "left-pad", None, "1.3.0", "added", False, "runtime"),
    ("apps/web/yarn.lock", "ms", "2.1.1", "2.1.3", "upgraded", False, "runtime"),  # package.json does not declare ms
    ("svc/go.mod", "github.com/a/b", "v1.2.0", "v1.1.0", "downgraded", True, "runtime"),
    ("tools/requirements.txt", "httpx", None, "0.27.0", "added", True, "runtime"),
    ("Dockerfile", "python", "3.11-slim", "3.12-slim", "upgraded", True, "build"),
    (".github/workflows/ci.yml", "actions/checkout", "b4ffde65f46336ab88eb53be808477a3936bae11", "v4", "changed",
     True, "build"),
    ("new/pyproject.toml", "attrs", None, ">=23", "added", True, "runtime"),
}


def test_tree_mode(repo: tuple[GitRepo, str, str]) -> None:
    r, base, head = repo
    delta = _tree(r.root, base, head)
    assert _rows(delta.changes) == EXPECTED
    assert [(p.manifest, p.kind) for p in delta.problems] == [("crates/x/Cargo.toml", "unparsable")]
    assert "head: not valid TOML" in delta.problems[0].msg
    assert not any(c.partial for c in delta.changes)


def test_patch_mode_reads_hunks_of_line_oriented_files(repo: tuple[GitRepo, str, str], tmp_path: Path) -> None:
    r, base, head = repo
    patch = tmp_path / "p.diff"
    patch.write_bytes(r.git("diff", "--binary", base, head))
    delta = patch_delta(patch)
    got = _rows(delta.changes)
    # A patch alone cannot say which lock entries are direct: every one counts as direct (fail closed).
    assert got == {row[:5] + (True, row[6]) for row in EXPECTED}
    # Cargo.toml shows only hunks and is not line-oriented: a partial problem, not a guess.
    assert {p.manifest: p.kind for p in delta.problems} == {"crates/x/Cargo.toml": "partial"}
    partial = {c.manifest: c.partial for c in delta.changes}
    assert partial["new/pyproject.toml"] is False and partial["svc/go.mod"] is True


def test_tree_mode_reads_only_touched_manifests(repo: tuple[GitRepo, str, str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    r, base, head = repo
    read: list[str] = []
    original = GitObjects.blob

    def spy(self: GitObjects, oid: str, limit: int | None = None) -> bytes:
        read.append(oid)
        return original(self, oid, limit)

    monkeypatch.setattr(GitObjects, "blob", spy)
    _tree(r.root, base, head)
    # 7 touched dependency files on both sides, 1 added (one side), and package.json once per side for
    # yarn.lock (package-lock v3 names its direct dependencies itself); never src/main.c or unchanged files. And
    # BASE's Renovate config looked up by its names (renovatecustom.py: none here, so nothing more is read).
    assert len(read) == 2 * 7 + 1 + 2 + len(CONFIG_FILES)


def run(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "gatekeeper", "deps", *args], cwd=cwd, input=stdin,
                          capture_output=True, timeout=60)


def test_cli_both_modes(repo: tuple[GitRepo, str, str]) -> None:
    # The two --tree reports in-process (tests/incli.py); the patch on standard input through a real process: its
    # pipe, exit code and stdout as a shell sees them.
    r, base, head = repo
    done = run_cli(["deps", "--tree", f"{base}..{head}", "--format", "json"], cwd=r.root)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert set(doc) == {"changes", "problems"}
    first = doc["changes"][0]
    assert set(first) >= {"ecosystem", "name", "purl", "manifest", "from", "to", "change", "direct", "scope"}
    react = next(c for c in doc["changes"] if c["name"] == "react")
    assert react["purl"] == "pkg:npm/react@18.3.1" and react["ecosystem"] == "npm"
    text = run_cli(["deps", "--tree", "HEAD~1..HEAD"], cwd=r.root)
    assert text.returncode == 0 and b"apps/web/package-lock.json" in text.stdout
    assert b"upgraded" in text.stdout and b"crates/x/Cargo.toml: unparsable" in text.stdout
    patch = r.git("diff", "--binary", base, head)
    piped = run("-", "--format", "json", cwd=r.root, stdin=patch)
    assert piped.returncode == 0, piped.stderr
    assert {c["name"] for c in json.loads(piped.stdout)["changes"]} >= {"httpx", "attrs", "ms"}


def test_cli_advisories(repo: tuple[GitRepo, str, str], tmp_path: Path) -> None:
    r, base, head = repo
    osv = tmp_path / "osv"
    osv.mkdir()
    (osv / "GHSA-x.json").write_text(json.dumps({"id": "GHSA-test-0001", "affected": [
        {"package": {"ecosystem": "PyPI", "name": "httpx"},
         "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"fixed": "0.28.0"}]}]}]}))
    done = run_cli(["deps", "--tree", f"{base}..{head}", "--format", "json", "--advisories", str(osv)], cwd=r.root)
    vulns = {c["name"]: c["vulnerabilities"] for c in json.loads(done.stdout)["changes"]}
    assert vulns["httpx"] == ["GHSA-test-0001"] and vulns["attrs"] == []


@pytest.mark.parametrize("args, message", [
    ((), b"give either a PATCH or --tree"),
    (("p.diff", "--tree", "a..b"), b"give either a PATCH or --tree"),
    (("--tree", "HEAD"), b"not a commit range"),
    (("--tree", "a...b"), b"not a commit range"),
    (("--tree", "nope..HEAD"), b"unknown revision"),
    (("--tree", "HEAD~1..HEAD", "--advisories", "missing"), b"advisories folder does not exist"),
    (("missing.diff",), b"cannot read the patch"),
    (("--format", "yaml", "--tree", "HEAD~1..HEAD"), b"Invalid value"),
])
def test_cli_errors_are_one_line_exit_2(repo: tuple[GitRepo, str, str], args: tuple[str, ...],
                                        message: bytes) -> None:
    # In-process (tests/incli.py): the subject is the message and the exit code; the real process's exit 2 is
    # test_malformed_patch_exit_2's.
    done = run_cli(["deps", *args], cwd=repo[0].root)
    assert done.returncode == 2 and message in done.stderr and b"Traceback" not in done.stderr
    assert done.stdout == b""


def test_malformed_patch_exit_2(tmp_path: Path) -> None:
    (tmp_path / "bad.diff").write_bytes(b"diff --git a/x b/x\n@@ -1 +1 @@\n")
    done = run("bad.diff", cwd=tmp_path)
    assert done.returncode == 2 and b"Traceback" not in done.stderr


def test_submodule_pointer_moves(tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("README", "x\n")
    old, new = "1" * 40, "2" * 40
    r.git("add", "-A")
    r.git("update-index", "--add", "--cacheinfo", f"160000,{old},vendor/lib")
    r.git("commit", "-q", "-m", "base")
    base = r.git("rev-parse", "HEAD").decode().strip()
    r.git("update-index", "--cacheinfo", f"160000,{new},vendor/lib")
    r.git("commit", "-q", "-m", "bump")
    head = r.git("rev-parse", "HEAD").decode().strip()
    want = {("vendor/lib", "vendor/lib", old, new, "changed", True, "build")}
    assert _rows(_tree(r.root, base, head).changes) == want
    patch = tmp_path / "p.diff"
    patch.write_bytes(r.git("diff", "--binary", base, head))
    delta = patch_delta(patch)
    assert _rows(delta.changes) == want and delta.changes[0].partial is False
