"""Accuracy of the dependency delta on real dependency-update commits of public repositories.

Each case in bench/deps_bumps.tsv is (repository, commit, package, version) taken from a bot's
single-package update commit ("Bump X from A to B", "Update dependency X to vY"). The delta between
the commit's parent and the commit (`--tree`, through git objects) must name X with version Y.
Only that list is kept in bench/; the repositories are read from local mirrors (the search tool's
`fetch github:owner/name` writes them to /work/.mirror/owner+name/repo).

    python bench/bench_deps_accuracy.py [--mirrors DIR] [--mode tree|patch] [--collect N]  # --collect rewrites the TSV
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gatekeeper.deps.model import Change  # noqa: E402
from gatekeeper.deps.sources import patch_delta, tree_delta  # noqa: E402
from gatekeeper.deps.versions import base_version  # noqa: E402
from gatekeeper.gitobjects import GitObjects  # noqa: E402

DATA = Path(__file__).with_name("deps_bumps.tsv")
REPOS = ("actions/checkout", "gin-gonic/gin", "sharkdp/bat", "pallets/flask", "renovatebot/github-action")
_PREFIX = r"^(?:[a-z]+(?:\([^)]*\))?!?:\s*)?"
SUBJECTS = [
    re.compile(_PREFIX + r"bump (\S+) from (\S+) to (\S+?)(?: in \S+)?(?: \(#\d+\))?$", re.IGNORECASE),
    re.compile(_PREFIX + r"update (?:dependency |module |action |image )?(\S+)(?: docker tag)? to v?(\S+?)"
               r"(?: \(#\d+\))?$",
               re.IGNORECASE),
]


def mirror(root: Path, repo: str) -> Path:
    return root / repo.replace("/", "+") / "repo"


def collect(root: Path, per_repo: int) -> list[tuple[str, str, str, str]]:
    """Single-package update commits (one parent) whose subject names the package and its new version."""
    cases = []
    for repo in REPOS:
        log = subprocess.run(["git", "log", "--all", "--no-merges", "--format=%H%x00%s", "-i", "-E",
                              "--grep=(bump|update) "], cwd=mirror(root, repo), capture_output=True, check=True)
        found = 0
        for line in log.stdout.decode(errors="replace").splitlines():
            sha, _, subject = line.partition("\0")
            for pattern in SUBJECTS:
                m = pattern.match(subject.strip())
                if m and "group" not in subject and " and " not in subject:
                    name, version = m.group(1).strip("`"), m.group(m.lastindex or 1).strip("`").rstrip(".")
                    if not re.match(r"^(v?\d|[0-9a-f]{7,40}$)", version) or not _touches_files(root, repo, sha):
                        break  # "update font to sans-serif"; an empty commit: no bump to find
                    cases.append((repo, sha, name, version))
                    found += 1
                    break
            if found >= per_repo:
                break
    return cases


def _touches_files(root: Path, repo: str, sha: str) -> bool:
    done = subprocess.run(["git", "diff-tree", "--no-commit-id", "--name-only", "-r", f"{sha}^", sha],
                          cwd=mirror(root, repo), capture_output=True)
    return done.returncode == 0 and bool(done.stdout.strip())


def _same_version(want: str, got: str | None) -> bool:
    if not got:
        return False
    want, got = want.removeprefix("v"), got.removeprefix("v")
    if re.fullmatch(r"[0-9a-f]{7,40}", want):
        return got.startswith(want)  # submodules: the subject names an abbreviated commit
    got = got.split("@")[0]  # a docker image's `tag@digest`
    got = (base_version(got) or got).removeprefix("v")
    # Renovate names a major or minor update by its prefix ("to v5"): 5.0.0 and 5.1.2 both fit.
    return got == want or got.split(".")[: len(want.split("."))] == want.split(".")


def _same_name(want: str, change: Change) -> bool:
    norm = lambda s: re.sub(r"[-_.]+", "-", s).lower()  # noqa: E731 - PEP 503 for PyPI, harmless elsewhere
    return norm(change.name) == norm(want) or norm(change.name).endswith("/" + norm(want)) and \
        change.ecosystem == "git-submodule"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--mode", choices=("tree", "patch"), default="tree",
                        help="patch: the delta of `git diff --binary parent commit` alone")
    parser.add_argument("--collect", type=int, default=0, help="rewrite the TSV with up to N cases per repository")
    args = parser.parse_args()
    if args.collect:
        cases = collect(args.mirrors, args.collect)
        DATA.write_text("".join("\t".join(c) + "\n" for c in cases))
        print(f"wrote {len(cases)} cases to {DATA}")
    cases = [tuple(line.split("\t")) for line in DATA.read_text().splitlines() if line and not line.startswith("#")]
    hits = named = 0
    misses: list[str] = []
    started = time.perf_counter()
    for repo, sha, name, version in cases:
        if args.mode == "patch":
            patch = subprocess.run(["git", "diff", "--binary", f"{sha}^", sha], cwd=mirror(args.mirrors, repo),
                                   capture_output=True, check=True).stdout
            delta = patch_delta(None, io.BytesIO(patch))
        else:
            with GitObjects(mirror(args.mirrors, repo)) as git:
                delta = tree_delta(git, f"{sha}^", sha)
        named += any(_same_name(name, c) for c in delta.changes)
        if any(_same_name(name, c) and (_same_version(version, c.to_version) or _same_version(version, c.to_tag))
               for c in delta.changes):
            hits += 1
        else:
            seen = ", ".join(f"{c.name}@{c.to_version}" for c in delta.changes[:4]) or "no changes"
            misses.append(f"  {repo} {sha[:12]} {name} {version}: {seen}; problems: {len(delta.problems)}")
    elapsed = time.perf_counter() - started
    print(f"{named}/{len(cases)} commits name X; "
          f"{hits}/{len(cases)} commits name X with version Y ({100 * hits / max(len(cases), 1):.1f}%), "
          f"{elapsed:.1f} s ({1000 * elapsed / max(len(cases), 1):.0f} ms per commit)")
    print("\n".join(misses))


if __name__ == "__main__":
    main()
