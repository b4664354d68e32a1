"""Benchmark what `--tree` context costs the gate: the same 10,000-file change gated with and without it.

Builds a real repository whose base holds a Helm chart, a kustomization and an Ansible project, and
whose head commit adds N files (by default 10,000 Go files, as bench_gate.py; `--yaml-share` turns a
share of them into YAML candidates whose content is read). Times, cold (a new process each run):
- `gate PACKET --patch P` (packet and gate classify from the patch alone),
- `gate PACKET --patch P --tree BASE..HEAD` with a packet built with `--tree` (the CI flow),
- the same with a patch-context packet (the gate then re-derives the packet's claims twice),
- `classify --tree BASE..HEAD --format json`.
Target (issue 12): the gate with --tree within 0.5 s of the gate without it, on a 2-core machine.

    python bench/bench_context.py [--files N] [--runs R] [--yaml-share F] [--iac-manifest]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_gate import POLICIES, adopt_orphans, compile_bytecode, git, reap_orphans  # noqa: E402

DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: svc{i}\nspec:\n  replicas: 1\n"
SETTINGS = "server:\n  port: {i}\nfeatures:\n  flag: true\n"
GO_MOD_PULUMI = "module example.invalid/bench\n\ngo 1.22\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.120.0\n"


def make_repo(root: Path, count: int, yaml_share: float, iac_manifest: bool) -> tuple[Path, Path, Path]:
    repo = root / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    base = [("charts/web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 0.1.0\n"),
            ("deploy/overlays/prod/kustomization.yaml", "resources: [../../base]\n"),
            ("ops/ansible.cfg", "[defaults]\ninventory = hosts\n"), ("README.md", "# bench\n")]
    if iac_manifest:  # the worst case of the manifest gate: every changed Go file sits below a go.mod naming Pulumi
        base.append(("go.mod", GO_MOD_PULUMI))
    for path, text in base:
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    yaml_every = round(1 / yaml_share) if yaml_share else 0
    for i in range(count):
        folder = repo / "src" / f"pkg{i % 100}"
        folder.mkdir(parents=True, exist_ok=True)
        if yaml_every and i % yaml_every == 0:
            (folder / f"file{i}.yaml").write_text((DEPLOYMENT if i % 2 else SETTINGS).format(i=i))
        else:
            (folder / f"file{i}.go").write_text(f"package pkg{i % 100}\n\nfunc F{i}() int {{ return {i} }}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "head")
    patch = root / "change.diff"
    patch.write_bytes(git(repo, "diff", "--binary", "main~1", "main"))
    packets = []
    for name, extra in (("patch.json", []), ("tree.json", ["--tree", "main~1..main"])):
        packet = root / name
        subprocess.run([sys.executable, "-m", "gatekeeper", "packet", str(patch), "--out", str(packet),
                        "--policy", str(POLICIES), *extra], cwd=repo, check=True, capture_output=True)
        packets.append(packet)
    return repo, packets[0], packets[1]


def cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(command: list[str], cwd: Path, runs: int) -> tuple[list[float], list[float]]:
    """Wall time and CPU time (user + system, the gate and its engine child) of each run.

    CPU time is the steadier number on a shared machine: other tenants stretch wall time, not CPU time.
    """
    times, cpu = [], []
    for _ in range(runs):
        started, cpu_before = time.perf_counter(), cpu_seconds()
        done = subprocess.run(command, cwd=cwd, capture_output=True)
        times.append(time.perf_counter() - started)
        reap_orphans()
        cpu.append(cpu_seconds() - cpu_before)
        if done.returncode not in (0, 1, 3):
            raise SystemExit(f"{command[3]} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return times, cpu


def in_process(repo: Path, patch: Path, runs: int) -> None:
    """What --tree adds inside the gate, timed alone: reading the two trees, and tiers 2-3 over the change."""
    from gatekeeper.classify import load_rules
    from gatekeeper.classify.change import classify_changes
    from gatekeeper.classify.context import refine
    from gatekeeper.classify.patchcontext import PatchContext
    from gatekeeper.classify.treecontext import TreeContext
    from gatekeeper.diff import parse_patch
    from gatekeeper.revrange import resolve_range

    rules = load_rules(POLICIES)
    changes = list(parse_patch(patch))
    files = classify_changes(changes, rules)
    for name in ("patch", "tree"):
        build, tiers = [], []
        for _ in range(runs):
            started = time.perf_counter()
            context = (TreeContext(resolve_range("main~1..main", repo), rules) if name == "tree"
                       else PatchContext(patch, changes, rules.context))
            built = time.perf_counter()
            refine(files, rules, context)
            tiers.append(time.perf_counter() - built)
            build.append(built - started)
            if isinstance(context, TreeContext):
                context.close()
        print(f"in-process, {name} context: build median {statistics.median(build):.3f} s, "
              f"tiers 2-3 over {len(files)} files median {statistics.median(tiers):.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--yaml-share", type=float, default=0.0, help="share of the files that are YAML (0..1)")
    parser.add_argument("--iac-manifest", action="store_true",
                        help="a root go.mod that names Pulumi: --tree then reads every changed Go file's imports")
    args = parser.parse_args()
    adopt_orphans()
    compile_bytecode()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="gatekeeper-bench-") as tmp:
        root = Path(tmp)
        repo, patch_packet, tree_packet = make_repo(root, args.files, args.yaml_share, args.iac_manifest)
        gk = [sys.executable, "-m", "gatekeeper"]
        # A generous evaluation limit: on a loaded shared machine the engine can pass the default 10 s, and a
        # timed-out run measures nothing (the limit does not change what a run that finishes costs).
        gate = [*gk, "gate", "--patch", str(root / "change.diff"), "--policy", str(POLICIES), "--format", "json",
                "--timeout", "300"]
        cases = {
            "gate, patch packet, no --tree": [*gate, str(patch_packet)],
            "gate, tree packet, --tree": [*gate, str(tree_packet), "--tree", "main~1..main"],
            "gate, patch packet, --tree": [*gate, str(patch_packet), "--tree", "main~1..main"],
            "classify --tree --format json": [*gk, "classify", "--tree", "main~1..main", "--format", "json",
                                              "--policy", str(POLICIES)],
        }
        medians, mins, cpus = {}, {}, {}
        for name, command in cases.items():
            times, cpu = timed(command, repo, args.runs)
            medians[name], mins[name], cpus[name] = statistics.median(times), min(times), statistics.median(cpu)
            print(f"{name:<32} {args.files} files ({args.yaml_share:.0%} YAML): wall min {min(times):.3f} s, "
                  f"median {medians[name]:.3f} s; CPU median {cpus[name]:.3f} s ({args.runs} cold runs)")
        in_process(repo, root / "change.diff", args.runs)
        base, tree = "gate, patch packet, no --tree", "gate, tree packet, --tree"
        print(f"--tree costs the gate {medians[tree] - medians[base]:+.3f} s wall (min-to-min "
              f"{mins[tree] - mins[base]:+.3f} s), "
              f"{cpus[tree] - cpus[base]:+.3f} s CPU (target: at most +0.5 s)")


if __name__ == "__main__":
    main()
