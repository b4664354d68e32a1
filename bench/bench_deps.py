"""Benchmark the dependency delta on a 10,000-file change holding a handful of manifests.

Builds a real repository: a base with 20,000 files (of them 6 dependency files, plus a large
package-lock.json and go.sum), and a head commit changing 10,000 source files and the 6 dependency
files. Times, in-process (as the gate will call it):
  * tree_delta (git objects: tree listings, then only the touched dependency files and their siblings);
  * patch_delta (one streaming pass over the 10,000-file patch);
and, for the "proportional to the manifests touched" claim, tree_delta on the same repository when
the head changes only source files (no dependency file touched).

    python bench/bench_deps.py [--files N] [--runs R] [--lock-packages N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gatekeeper.deps.sources import Delta, patch_delta, tree_delta  # noqa: E402
from gatekeeper.gitobjects import GitObjects

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@e.invalid", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@e.invalid", "GIT_CONFIG_NOSYSTEM": "1"}

def _tree(repo: Path, base: str, head: str) -> Delta:
    with GitObjects(repo) as git:
        return tree_delta(git, base, head)



def git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True, capture_output=True).stdout


def lock(packages: int, bump: bool) -> str:
    entries = {"": {"name": "web", "dependencies": {"p0": "^1.0.0", "p1": "^1.0.0"}}}
    for i in range(packages):
        version = "1.0.1" if bump and i == 0 else "1.0.0"
        entries[f"node_modules/p{i}"] = {"version": version, "resolved": f"https://registry.npmjs.org/p{i}/-/p{i}.tgz",
                                         "integrity": "sha512-" + "a" * 86}
    return json.dumps({"name": "web", "lockfileVersion": 3, "packages": entries}, indent=2) + "\n"


def write_sources(repo: Path, count: int, salt: str) -> None:
    for i in range(count):
        folder = repo / "src" / f"pkg{i % 100}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"file{i}.go").write_text(f"package pkg{i % 100}\n\n// {salt}\nfunc F{i}() int {{ return {i} }}\n")


def build(root: Path, files: int, packages: int) -> tuple[Path, str, str, str]:
    repo = root / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    write_sources(repo, files * 2, "base")
    (repo / "web").mkdir()
    (repo / "web/package.json").write_text('{"dependencies": {"p0": "^1.0.0", "p1": "^1.0.0"}}\n')
    (repo / "web/package-lock.json").write_text(lock(packages, False))
    (repo / "svc").mkdir()
    (repo / "svc/go.mod").write_text("module x\n\nrequire (\n\tgithub.com/a/b v1.0.0\n)\n")
    (repo / "svc/go.sum").write_text("".join(f"github.com/m{i}/x v1.0.{i % 9} h1:abc=\n" for i in range(packages)))
    (repo / "requirements.txt").write_text("requests==2.31.0\n")
    (repo / "Dockerfile").write_text("FROM python:3.11-slim\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD").decode().strip()
    write_sources(repo, files, "head")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "sources only")
    sources_only = git(repo, "rev-parse", "HEAD").decode().strip()
    (repo / "web/package-lock.json").write_text(lock(packages, True))
    (repo / "svc/go.mod").write_text("module x\n\nrequire (\n\tgithub.com/a/b v1.1.0\n)\n")
    with open(repo / "svc/go.sum", "a") as handle:
        handle.write("github.com/a/b v1.1.0 h1:new=\n")
    (repo / "requirements.txt").write_text("requests==2.32.0\nhttpx==0.27.0\n")
    (repo / "Dockerfile").write_text("FROM python:3.12-slim\n")
    (repo / ".github/workflows").mkdir(parents=True)
    (repo / ".github/workflows/ci.yml").write_text("jobs:\n  a:\n    steps:\n      - uses: actions/checkout@v4\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "deps")
    head = git(repo, "rev-parse", "HEAD").decode().strip()
    return repo, base, sources_only, head


def timed(runs: int, call) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    samples, result = [], None
    for _ in range(runs):
        started = time.perf_counter()
        result = call()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples), result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lock-packages", type=int, default=2_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        repo, base, sources_only, head = build(root, args.files, args.lock_packages)
        patch = root / "change.diff"
        patch.write_bytes(git(repo, "diff", "--binary", base, head))
        changed = len(git(repo, "diff", "--name-only", base, head).splitlines())
        print(f"change: {changed} files ({patch.stat().st_size / 1e6:.1f} MB patch), lock: {args.lock_packages} "
              f"packages, repository: {args.files * 2 + 6} files")
        t_tree, delta = timed(args.runs, lambda: _tree(repo, base, head))
        print(f"tree_delta  (--tree BASE..HEAD): {t_tree * 1000:7.1f} ms median of {args.runs}; "
              f"{len(delta.changes)} changes, {len(delta.problems)} problems")  # type: ignore[attr-defined]
        t_patch, pdelta = timed(args.runs, lambda: patch_delta(patch))
        print(f"patch_delta (PATCH):             {t_patch * 1000:7.1f} ms median of {args.runs}; "
              f"{len(pdelta.changes)} changes, {len(pdelta.problems)} problems")  # type: ignore[attr-defined]
        t_none, _ = timed(args.runs, lambda: _tree(repo, base, sources_only))
        print(f"tree_delta, no dependency file touched: {t_none * 1000:7.1f} ms (one diff-tree, nothing parsed)")
        for change in delta.changes:  # type: ignore[attr-defined]
            print(f"  {change.manifest}: {change.name} {change.from_version} -> {change.to_version} ({change.change})")


if __name__ == "__main__":
    main()
