"""What the shipped `deps` policy decides on real dependency-update commits: do bot bumps queue normally?

The issue's promise: "a Renovate-style bump queues normally while a new package goes to a human". For a seeded
sample of the commits in the bench/deps_bumps*.tsv collections (bot commits "update X to vY"), this gates the
commit's patch with its packet, `--tree PARENT..COMMIT`, the default policies swapped for `deps` alone, and
groups the outcomes by what the commit did to X (the delta's own change of X: an upgrade within the allowed
level, beyond it, an action or image move, ...). Each review or deny lists its rules, so a false alarm's class
is visible (a go.sum read version by version gave every Go bump a `deps.downgrade`).

    python bench/bench_deps_policy.py [--per-set N] [--seed S] [--mirrors DIR] [--show K]

Runs in one process (the CLI's `main`, one engine child per gate); repositories come from the local mirrors
(each cloned `--shared --no-checkout` into a temporary folder: the gate's `--tree` binds a work tree).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gatekeeper.cli import main as gatekeeper  # noqa: E402

BENCH = Path(__file__).resolve().parent
POLICIES = BENCH.parent / "policies"
SETS = ("deps_bumps.tsv", "deps_bumps_other.tsv", "deps_bumps_third.tsv", "deps_bumps_fifth.tsv",
        "deps_bumps_sixth.tsv")


def rows(name: str) -> list[tuple[str, str, str, str]]:
    out = []
    for line in (BENCH / name).read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split("\t")
        out.append((fields[0], fields[1], fields[2], fields[3]))
    return out


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = gatekeeper(argv)
    return code, out.getvalue()


def kind_of(decision: dict, package: str, version: str) -> str:
    """What the delta says the commit did to the named package (the first change of it, `to` Y preferred)."""
    changes = [c for c in decision.get("dependencies", {}).get("changes", []) if c.get("name") == package]
    if not changes:
        return "not named"
    exact = [c for c in changes if str(c.get("to") or "").lstrip("v") == version.lstrip("v")] or changes
    c = exact[0]
    if c["ecosystem"] in ("docker", "github-actions"):
        return f"{c['ecosystem']} {c['change']}"
    return f"{c['change']} {c.get('level') or ''}".strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-set", type=int, default=60)
    parser.add_argument("--seed", default="deps-policy")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--show", type=int, default=3, help="examples listed per (kind, rules) group")
    args = parser.parse_args()
    outcomes: dict[str, Counter[str]] = defaultdict(Counter)
    examples: dict[tuple[str, str], list[str]] = defaultdict(list)
    skipped = 0
    with tempfile.TemporaryDirectory(prefix="gatekeeper-deps-policy-") as tmp:
        work = Path(tmp)
        for name in SETS:
            sample = rows(name)
            random.Random(f"{args.seed}:{name}").shuffle(sample)
            for repo, commit, package, version in sample[:args.per_set]:
                mirror = args.mirrors / repo.replace("/", "+") / "repo"
                git_dir = work / repo.replace("/", "+")
                if mirror.is_dir() and not git_dir.exists():  # the gate's --tree wants a work tree: an empty one
                    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(mirror), str(git_dir)],
                                   capture_output=True)
                diff = subprocess.run(["git", "-C", str(git_dir), "diff", "--binary", f"{commit}^", commit],
                                      capture_output=True)
                if not git_dir.is_dir() or diff.returncode != 0:
                    skipped += 1
                    continue
                patch, packet = work / "p.diff", work / "p.json"
                patch.write_bytes(diff.stdout)
                packet.unlink(missing_ok=True)
                code, _ = run(["packet", str(patch), "--out", str(packet), "--policy", str(POLICIES)])
                if code != 0:
                    skipped += 1
                    continue
                code, out = run(["gate", str(packet), "--patch", str(patch), "--policy", str(POLICIES),
                                 "--tree", f"{commit}^..{commit}", "--repo", str(git_dir), "--disable", "core",
                                 "--enable", "deps", "--format", "json"])
                if code not in (0, 1, 3):
                    outcomes["gate error"][str(code)] += 1
                    examples[("gate error", str(code))].append(f"{repo} {commit[:10]}")
                    continue
                decision = json.loads(out)
                kind = kind_of(decision, package, version)
                rules = ",".join(sorted({r["rule"] for r in decision["reasons"]})) or "-"
                outcomes[kind][f"{decision['outcome']} {rules}"] += 1
                examples[(kind, rules)].append(f"{repo} {commit[:10]} {package} {version}")
    total = sum(sum(c.values()) for c in outcomes.values())
    print(f"{total} commits gated ({skipped} skipped: mirror or commit missing), deps policy alone, --tree")
    for kind, counter in sorted(outcomes.items(), key=lambda kv: -sum(kv[1].values())):
        n = sum(counter.values())
        allowed = sum(v for k, v in counter.items() if k.startswith("allow"))
        print(f"\n{kind}: {n} commits, {allowed} allowed ({100 * allowed / n:.1f}%)")
        for verdict, count in counter.most_common():
            print(f"  {count:4d}  {verdict}")
            rules = verdict.partition(" ")[2]
            for line in examples[(kind, rules)][:args.show] if not verdict.startswith("allow") else []:
                print(f"          {line}")


if __name__ == "__main__":
    main()
