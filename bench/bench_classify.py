"""Benchmark: classify 100,000 paths with the shipped rules, in-process and through the CLI.

Run: .venv/bin/python bench/bench_classify.py [--count N] [--repeat R]

Paths imitate a large monorepo (services in several languages, nested packages with their
manifests, test fixtures, docs, CI, charts, Terraform, assets), generated from a fixed seed.
A second, adversarial set gives every path its own folder and file name, so that the
per-folder and per-name caches never hit: that is the matcher's cold cost.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from gatekeeper.classify import classify_changes, load_rules  # noqa: E402
from gatekeeper.model import FileChange  # noqa: E402

POLICY = REPO_ROOT / "policies"

LANGS = {
    "go": (["cmd", "internal", "pkg"], [".go", "_test.go"], ["go.mod", "go.sum"]),
    "ts": (
        ["src", "lib", "components", "hooks", "utils"],
        [".ts", ".tsx", ".test.ts", ".css"],
        ["package.json", "tsconfig.json"],
    ),
    "py": (["src", "app", "tests"], [".py", "_test.py"], ["pyproject.toml", "requirements.txt", "uv.lock"]),
    "java": (
        ["src/main/java/com/acme", "src/test/java/com/acme"],
        [".java", "Test.java"],
        ["pom.xml", "build.gradle.kts"],
    ),
    "rs": (["src", "benches", "tests"], [".rs"], ["Cargo.toml", "Cargo.lock"]),
}
WORDS = ("auth", "billing", "search", "catalog", "orders", "users", "events", "ingest", "render", "gateway", "cache",
         "store", "queue", "metrics", "report", "admin", "export", "import", "notify", "session", "policy", "ledger")
EXTRA = [
    ".github/workflows/ci.yml", ".github/workflows/release.yml", ".github/dependabot.yml", ".github/CODEOWNERS",
    ".github/ISSUE_TEMPLATE/bug.md", ".gitlab-ci.yml", "Jenkinsfile", ".circleci/config.yml", "README.md",
    "LICENSE", "AGENTS.md", ".pre-commit-config.yaml", "Makefile", ".editorconfig", "renovate.json",
]


def realistic_paths(count: int, seed: int = 1) -> list[str]:
    """A monorepo-like path list.

    Shaped after a real tree (120k files of /usr and a virtualenv: 11% distinct folders, 57%
    distinct file names): a few thousand packages, each with a handful of folders and many files.
    """
    rng = random.Random(seed)
    paths: list[str] = list(EXTRA)
    packages = [
        (f"{rng.choice(('services', 'packages', 'libs', 'apps'))}/{rng.choice(WORDS)}-{i}", rng.choice(list(LANGS)))
        for i in range(max(count // 60, 10))
    ]
    folders = {
        pkg: ["/".join([pkg, rng.choice(LANGS[lang][0]), *(rng.choice(WORDS) for _ in range(rng.randint(0, 3)))])
              for _ in range(rng.randint(2, 12))]
        for pkg, lang in packages
    }
    while len(paths) < count:
        pkg, lang = rng.choice(packages)
        roots, exts, manifests = LANGS[lang]
        kind = rng.random()
        if kind < 0.74:
            name = f"{rng.choice(WORDS)}_{rng.choice(WORDS)}{rng.randint(0, 20) or ''}{rng.choice(exts)}"
            paths.append(f"{rng.choice(folders[pkg])}/{name}")
        elif kind < 0.78:
            paths.append(f"{pkg}/{rng.choice(manifests)}")
        elif kind < 0.86:
            fixture = rng.choice(("testdata", "tests/fixtures", "__fixtures__", "spec/fixtures"))
            name = rng.choice(("input.json", "Dockerfile", "main.tf", "x.yaml", f"case{rng.randint(1, 300)}.txt"))
            paths.append(f"{pkg}/{fixture}/{rng.choice(WORDS)}/{name}")
        elif kind < 0.90:
            paths.append(f"docs/{rng.choice(WORDS)}/{rng.choice(WORDS)}-{rng.randint(1, 300)}.md")
        elif kind < 0.93:
            paths.append(f"{pkg}/{rng.choice(('Dockerfile', 'README.md', 'AGENTS.md', 'values.yaml'))}")
        elif kind < 0.96:
            env = rng.choice(("dev", "stage", "prod"))
            name = rng.choice(("main.tf", "variables.tf", "outputs.tf", ".terraform.lock.hcl"))
            paths.append(f"infra/{env}/{rng.choice(WORDS)}-{rng.randint(1, 20)}/{name}")
        elif kind < 0.98:
            paths.append(f"charts/{rng.choice(WORDS)}/templates/{rng.choice(WORDS)}-{rng.randint(1, 50)}.yaml")
        else:
            ext = rng.choice(("png", "svg", "woff2"))
            paths.append(f"{pkg}/assets/{rng.choice(WORDS)}-{rng.randint(1, 999)}.{ext}")
    return paths[:count]


def adversarial_paths(count: int) -> list[str]:
    """Every path in its own folder with its own file name: no cache hit at all."""
    return [f"src/m{i % 97}/d{i}/f{i}.{('go', 'tf', 'yml', 'json')[i % 4]}" for i in range(count)]


def timed(func, repeat: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        runs.append(time.perf_counter() - start)
    return min(runs), statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--listing", type=Path, help="Also time a real path list, e.g. the output of `git ls-files`.")
    args = parser.parse_args()
    n, repeat = args.count, args.repeat

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {n:,} paths, best/median of {repeat}")
    best, med = timed(lambda: load_rules(POLICY), repeat)
    rules = load_rules(POLICY)
    print(
        f"load_rules (shipped, {len(rules.rules)} rules, "
        f"{sum(len(r.globs) for r in rules.rules + rules.tag_rules)} globs): "
        f"{best * 1000:.1f} ms / {med * 1000:.1f} ms"
    )

    real = realistic_paths(n)
    print(f"realistic set: {len(set(p.rpartition('/')[0] for p in real)):,} distinct folders, "
          f"{len(set(p.rpartition('/')[2] for p in real)):,} distinct file names")
    worst = adversarial_paths(n)
    sets = [("realistic", real), ("adversarial (no cache hits)", worst)]
    if args.listing:
        listed = [line for line in args.listing.read_text(errors="surrogateescape").splitlines() if line]
        sets.append((f"listing {args.listing.name} ({len(listed):,} paths)", listed))

    def match_all(paths: list[str]):  # type: ignore[no-untyped-def]
        def run() -> None:
            fresh = load_rules(POLICY)  # cold caches every run; the load is not timed separately
            start = time.perf_counter()
            for path in paths:
                fresh.match(path)
            run.elapsed.append(time.perf_counter() - start)  # type: ignore[attr-defined]
        run.elapsed = []  # type: ignore[attr-defined]
        return run

    for label, paths in sets:
        run = match_all(paths)
        timed(run, repeat)
        times = run.elapsed  # type: ignore[attr-defined]
        print(f"RuleSet.match, {label}: {min(times):.3f} s / {statistics.median(times):.3f} s  "
              f"({min(times) / len(paths) * 1e6:.2f} us per path)")

    changes = [FileChange(path=p, old_path=None, status="modified") for p in real]
    best, med = timed(lambda: classify_changes(changes, load_rules(POLICY)), repeat)
    print(f"classify_changes (FileChange -> ClassifiedFile, incl. load_rules), realistic: {best:.3f} s / {med:.3f} s")

    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "paths.txt"
        listing.write_text("\n".join(real) + "\n")
        for fmt in ("text", "json"):
            cmd = [sys.executable, "-m", "gatekeeper", "classify", "--paths", str(listing), "--format", fmt]

            def cli(cmd: list[str] = cmd) -> None:
                done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO_ROOT)
                if done.returncode != 0:
                    raise SystemExit(done.stderr.decode())

            best, med = timed(cli, repeat)
            print(f"CLI classify --paths FILE --format {fmt} (whole process): {best:.3f} s / {med:.3f} s")
        best, med = timed(
            lambda: subprocess.run([sys.executable, "-m", "gatekeeper", "--version"], capture_output=True), repeat
        )
        print(f"  of which interpreter + CLI start-up (gatekeeper --version): {best:.3f} s / {med:.3f} s")


if __name__ == "__main__":
    main()
