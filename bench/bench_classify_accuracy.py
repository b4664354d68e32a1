"""Benchmark: classification accuracy on hand-labelled files of real public repositories.

Run: .venv/bin/python bench/bench_classify_accuracy.py [--mirror DIR] [--mode paths|patch|tree]... [--timeout S]
     [--repo OWNER/NAME]... [--source DIR] [--policy DIR] [--format text|json] [--check]

`bench/classify_accuracy/labels.tsv` holds the labels (repository, commit, path, bucket, reason);
the repositories themselves are not part of this project. Each one is read from a bare mirror
`<mirror>/<owner>+<name>/repo` (default mirror: $GATEKEEPER_BENCH_MIRROR, else /work/.mirror);
a repository or commit that is not there is skipped with a note. Every mode asks the CLI, so it
measures the public contract, not a library shortcut:

  paths  `gatekeeper classify --paths FILE`: path rules alone (the baseline of issue 12); needs no
         mirror, since it reads nothing but the labelled paths.
  patch  `gatekeeper classify PATCH` on `git diff --binary <empty tree> <commit> -- <labelled paths>`:
         what a patch alone lets the classifier see (each file added whole, no repository context).
  tree   `gatekeeper classify --tree BASE..HEAD --repo <scratch>`: the classifier with the
         repository's git objects (markers from the tree, content from blobs), where HEAD has the
         labelled commit's tree and BASE the empty tree, in a scratch repository that borrows the
         mirror's objects. Skipped with a note when this gatekeeper has no --tree.

For each mode: recall and precision per bucket, overall accuracy, review recall (files labelled
ci or iac that reach ci or iac, so the default policy asks a human; and the same counting files
tagged needs-context, which the shipped core policy also sends to a human), the confusion matrix
and every miss. --labels picks the label set (bench/classify_accuracy/: labels.tsv, the development
set; independent.tsv, a second set from other repositories; heldout.tsv and fresh.tsv,
measured blind before any rule changed for them). --check
exits 1 when a mode misses the targets of issue 12 (recall of ci, iac and deps >= 98%, overall >=
95%). --source runs the gatekeeper of another checkout (a branch under review) with its own policies
unless --policy says otherwise; it writes no bytecode there.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
LABELS = Path(__file__).resolve().parent / "classify_accuracy" / "labels.tsv"
BUCKETS = ("ci", "iac", "deps", "src", "other")
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's well-known empty tree
TARGET_RECALL = {"ci": 0.98, "iac": 0.98, "deps": 0.98}
TARGET_OVERALL = 0.95
MODES = ("paths", "patch", "tree")
SCRATCH_IDENTITY = {
    "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid", "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
}


@dataclass(frozen=True, slots=True)
class Label:
    repo: str
    commit: str
    path: str
    bucket: str
    reason: str


@dataclass(frozen=True, slots=True)
class Classifier:
    """Which gatekeeper runs, with which bundle, and how long one run may take."""

    source: Path  # a gatekeeper checkout
    policy: Path
    timeout: float  # a classifier that hangs is a finding, not a reason for the benchmark to hang


@dataclass(frozen=True, slots=True)
class Outcome:
    label: Label
    bucket: str  # "none" when the classifier did not report the path
    rule: str
    needs_context: bool = False  # tagged needs-context: the shipped core policy sends it to a human


def read_labels(path: Path) -> list[Label]:
    """The labels file: tab-separated, '#' starts a comment line."""
    labels = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 5 or fields[3] not in BUCKETS:
            raise SystemExit(f"{path}:{number}: expected repo, commit, path, bucket ({'|'.join(BUCKETS)}), reason")
        labels.append(Label(*fields))
    return labels


def mirror_dir(mirror: Path, repo: str) -> Path:
    """The bare git directory of `repo` in the mirror (a non-bare snapshot keeps it in repo/.git)."""
    git_dir = mirror / repo.replace("/", "+", 1) / "repo"
    return git_dir / ".git" if (git_dir / ".git").is_dir() else git_dir


def git(git_dir: Path, *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None) -> bytes:
    done = subprocess.run(
        ["git", "--git-dir", str(git_dir), "-c", "core.quotePath=false", *args],
        input=stdin, capture_output=True, check=False, env={**os.environ, **(env or {})},
    )
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args[:3])}: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def source_env(source: Path) -> dict[str, str]:
    """The environment that runs the gatekeeper package of `source` (and leaves its tree unwritten)."""
    return {**os.environ, "PYTHONPATH": str(source), "PYTHONDONTWRITEBYTECODE": "1"}


def gatekeeper(args: list[str], cwd: Path, run: Classifier) -> dict[str, str]:
    """path -> "bucket rule" from `gatekeeper classify ... --format json`."""
    cmd = [sys.executable, "-m", "gatekeeper", "classify", *args, "--policy", str(run.policy), "--format", "json"]
    try:
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, check=False, env=source_env(run.source),
                              timeout=run.timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"gatekeeper classify took more than {run.timeout:g} s (killed)") from None
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip()
        raise RuntimeError(f"gatekeeper classify exit {done.returncode}: {why}")
    return {f["path"]: f"{f['bucket']} {f.get('rule', '?')} {','.join(f.get('tags') or []) or '-'}"
            for f in json.loads(done.stdout)["files"]}


def missing_blobs(git_dir: Path, commit: str) -> list[str]:
    """Paths of `commit` whose blob the mirror lacks (snapshots leave out files of 4 MiB and more)."""
    blobs: dict[str, str] = {}
    for entry in git(git_dir, "ls-tree", "-r", "-z", commit).split(b"\0"):
        meta, _, name = entry.decode("utf-8", "surrogateescape").partition("\t")
        if meta.split()[1:2] == ["blob"]:
            blobs[name] = meta.split()[2]
    checks = "".join(f"{sha}\n" for sha in blobs.values()).encode()
    answer = git(git_dir, "cat-file", "--batch-check", stdin=checks).decode().splitlines()
    return [name for name, line in zip(blobs, answer, strict=True) if line.endswith(" missing")]


def classify_repo(mode: str, git_dir: Path, commit: str, paths: list[str], run: Classifier) -> dict[str, str]:
    with tempfile.TemporaryDirectory(prefix="gk-accuracy-") as tmp:
        work = Path(tmp)
        if mode == "patch":
            patch = git(git_dir, "--literal-pathspecs", "diff", "--binary", "--no-renames", "--no-ext-diff",
                        "--no-textconv", EMPTY_TREE, commit, "--", *paths)
            (work / "change.diff").write_bytes(patch)
            return gatekeeper([str(work / "change.diff")], work, run)
        repo, base, head = scratch_history(git_dir, commit, work)
        return gatekeeper(["--tree", f"{base}..{head}", "--repo", str(repo)], work, run)


def scratch_history(git_dir: Path, commit: str, work: Path) -> tuple[Path, str, str]:
    """A scratch repository borrowing the mirror's objects, with a commit of the empty tree and,
    on top of it, a commit of `commit`'s tree: --tree wants commits with a common history, and
    the mirror is never written to."""
    repo = work / "scratch.git"
    subprocess.run(["git", "init", "-q", "--bare", str(repo)], check=True)
    (repo / "objects" / "info" / "alternates").write_text(f"{(git_dir / 'objects').resolve()}\n")
    tree = f"{commit}^{{tree}}"
    missing = missing_blobs(git_dir, commit)
    if missing:
        # The labelled tree without the files whose content the snapshot lacks, so that a
        # classifier reading every blob can run; such files are left out of the patch mode too.
        (work / "empty").mkdir()
        index = {"GIT_INDEX_FILE": str(work / "index"), "GIT_WORK_TREE": str(work / "empty")}  # never checked out
        git(repo, "read-tree", tree, env=index)
        spec = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in missing)
        git(repo, "update-index", "--force-remove", "-z", "--stdin", stdin=spec, env=index)
        tree = git(repo, "write-tree", env=index).decode().strip()
    base = git(repo, "commit-tree", EMPTY_TREE, "-m", "empty", env=SCRATCH_IDENTITY).decode().strip()
    head = git(repo, "commit-tree", tree, "-p", base, "-m", "labelled", env=SCRATCH_IDENTITY).decode().strip()
    return repo, base, head


def has_tree_option(source: Path) -> bool:
    # Run from an empty folder: `python -m` puts the working folder first on sys.path.
    with tempfile.TemporaryDirectory(prefix="gk-accuracy-") as tmp:
        done = subprocess.run([sys.executable, "-m", "gatekeeper", "classify", "--help"], capture_output=True,
                              text=True, check=False, env=source_env(source), cwd=tmp)
    return "--tree" in done.stdout


def run_mode(mode: str, labels: list[Label], mirror: Path, run: Classifier, notes: list[str]) -> list[Outcome]:
    by_repo: dict[tuple[str, str], list[Label]] = defaultdict(list)
    for label in labels:
        by_repo[(label.repo, label.commit)].append(label)
    outcomes = []
    if mode == "paths":
        # Path rules see nothing but the path: one run over every distinct path serves every repository.
        with tempfile.TemporaryDirectory(prefix="gk-accuracy-") as tmp:
            listing = Path(tmp) / "paths.txt"
            listing.write_text("".join(f"{p}\n" for p in sorted({lab.path for lab in labels})), encoding="utf-8")
            got = gatekeeper(["--paths", str(listing)], Path(tmp), run)
        for label in labels:
            outcomes.append(outcome(label, got))
        return outcomes
    for (repo, commit), group in sorted(by_repo.items()):
        git_dir = mirror_dir(mirror, repo)
        if not git_dir.is_dir():
            notes.append(f"{mode}: skipped {repo}: no mirror at {git_dir}")
            continue
        try:
            git(git_dir, "cat-file", "-e", f"{commit}^{{commit}}")
        except RuntimeError:
            notes.append(f"{mode}: skipped {repo}: commit {commit[:12]} not in the mirror")
            continue
        paths = [label.path for label in group]
        gone = set(missing_blobs(git_dir, commit)) & set(paths)
        if gone and mode in ("patch", "tree"):
            notes.append(f"{mode}: {repo}: {len(gone)} labelled file(s) without a blob in the mirror, left out")
            group = [label for label in group if label.path not in gone]
            paths = [label.path for label in group]
        try:
            got = classify_repo(mode, git_dir, commit, paths, run)
        except RuntimeError as err:
            notes.append(f"{mode}: skipped {repo}: {err}")
            continue
        for label in group:
            outcomes.append(outcome(label, got))
    return outcomes


def outcome(label: Label, got: dict[str, str]) -> Outcome:
    bucket, rule, tags = (got.get(label.path, "none - -").split(" ") + ["-"])[:3]
    return Outcome(label, bucket, rule, "needs-context" in tags.split(","))


def summary(outcomes: list[Outcome]) -> dict[str, object]:
    confusion: Counter[tuple[str, str]] = Counter((o.label.bucket, o.bucket) for o in outcomes)
    per_bucket = {}
    for b in BUCKETS:
        labelled = sum(n for (lab, _), n in confusion.items() if lab == b)
        predicted = sum(n for (_, got), n in confusion.items() if got == b)
        hit = confusion[(b, b)]
        per_bucket[b] = {
            "labelled": labelled, "predicted": predicted, "correct": hit,
            "recall": hit / labelled if labelled else None, "precision": hit / predicted if predicted else None,
        }
    infra = [o for o in outcomes if o.label.bucket in ("ci", "iac")]
    total = len(outcomes)
    return {
        "files": total,
        "repositories": len({o.label.repo for o in outcomes}),
        "accuracy": sum(o.bucket == o.label.bucket for o in outcomes) / total if total else None,
        "review_recall": sum(o.bucket in ("ci", "iac") for o in infra) / len(infra) if infra else None,
        # what the shipped policies send to a human: ci or iac, or (patch context) tagged needs-context
        "review_recall_with_needs_context": (
            sum(o.bucket in ("ci", "iac") or o.needs_context for o in infra) / len(infra) if infra else None),
        "needs_context": sum(o.needs_context for o in outcomes),
        "buckets": per_bucket,
        "confusion": {lab: {got: confusion[(lab, got)] for got in (*BUCKETS, "none")} for lab in BUCKETS},
        "misses": [
            {"repo": o.label.repo, "path": o.label.path, "label": o.label.bucket, "got": o.bucket,
             "rule": o.rule, "reason": o.label.reason}
            for o in outcomes if o.bucket != o.label.bucket
        ],
    }


def pct(value: object) -> str:
    return f"{value * 100:5.1f}%" if isinstance(value, float) else "    -"


def render_text(mode: str, doc: dict[str, object], seconds: float, misses: int | None) -> str:
    lines = [f"== mode {mode}: {doc['files']} labelled files from {doc['repositories']} repositories "
             f"({seconds:.1f} s)"]
    lines.append(f"overall accuracy {pct(doc['accuracy'])}   review recall (ci+iac -> ci or iac) "
                 f"{pct(doc['review_recall'])}, with needs-context {pct(doc['review_recall_with_needs_context'])} "
                 f"({doc['needs_context']} files tagged needs-context)")
    lines.append("bucket  labelled  recall  precision")
    buckets = doc["buckets"]
    assert isinstance(buckets, dict)
    for b in BUCKETS:
        s = buckets[b]
        lines.append(f"{b:6}  {s['labelled']:8}  {pct(s['recall'])}  {pct(s['precision'])}")
    lines.append("confusion (rows: label, columns: classifier)")
    lines.append("        " + "".join(f"{c:>7}" for c in (*BUCKETS, "none")))
    confusion = doc["confusion"]
    assert isinstance(confusion, dict)
    for lab in BUCKETS:
        lines.append(f"{lab:6}  " + "".join(f"{confusion[lab][c]:7}" for c in (*BUCKETS, "none")))
    listed = doc["misses"]
    assert isinstance(listed, list)
    lines.append(f"misses: {len(listed)}")
    for m in sorted(listed, key=lambda m: (m["label"], m["got"], m["repo"], m["path"]))[:misses]:
        lines.append(f"  {m['label']:>5} -> {m['got']:<5} {m['rule']:<24} {m['repo']}: {m['path']}  # {m['reason']}")
    return "\n".join(lines)


def below_target(doc: dict[str, object]) -> list[str]:
    failed = []
    buckets = doc["buckets"]
    assert isinstance(buckets, dict)
    for b, target in TARGET_RECALL.items():
        recall = buckets[b]["recall"]
        if recall is not None and recall < target:
            failed.append(f"{b} recall {recall:.3f} < {target}")
    accuracy = doc["accuracy"]
    if isinstance(accuracy, float) and accuracy < TARGET_OVERALL:
        failed.append(f"overall {accuracy:.3f} < {TARGET_OVERALL}")
    return failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--mirror", type=Path, default=Path(os.environ.get("GATEKEEPER_BENCH_MIRROR", "/work/.mirror")))
    parser.add_argument("--source", type=Path, default=REPO_ROOT, help="gatekeeper checkout to run (default: this one)")
    parser.add_argument("--policy", type=Path, help="policy bundle (default: the source's policies/)")
    parser.add_argument("--mode", action="append", choices=MODES, help="default: every mode this gatekeeper has")
    parser.add_argument("--repo", action="append", help="only this repository (OWNER/NAME; repeatable)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--misses", type=int, default=None, help="list at most N misses per mode (default: all)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a mode misses the issue-12 targets")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per classify run (default: 600)")
    args = parser.parse_args()

    labels = read_labels(args.labels)
    source = args.source.resolve()
    run = Classifier(source, (args.policy or source / "policies").resolve(), args.timeout)
    if args.repo:
        labels = [label for label in labels if label.repo in set(args.repo)]
    modes = args.mode or [m for m in MODES if m != "tree" or has_tree_option(source)]
    notes: list[str] = []
    if not args.mode and "tree" not in modes:
        notes.append("tree: skipped: this gatekeeper's classify has no --tree")
    if not args.mirror.is_dir():
        notes.append(f"no mirror folder {args.mirror}: only the paths mode measures anything "
                     "(fetch the repositories named in the labels file into it)")

    results, failed = {}, []
    for mode in modes:
        began = time.perf_counter()
        outcomes = run_mode(mode, labels, args.mirror, run, notes)
        doc = summary(outcomes)
        seconds = time.perf_counter() - began
        doc["seconds"] = round(seconds, 2)
        results[mode] = doc
        failed += [f"{mode}: {f}" for f in below_target(doc)] if outcomes else []
        if args.format == "text":
            print(render_text(mode, doc, seconds, args.misses), flush=True)
            print()
    if args.format == "json":
        print(json.dumps({"labels": str(args.labels), "modes": results, "notes": notes}, indent=2))
    else:
        print(f"gatekeeper: {run.source}, policies: {run.policy}")
        print(f"labels: {len(labels)} files from {len({label.repo for label in labels})} repositories "
              f"({args.labels.relative_to(REPO_ROOT) if args.labels.is_relative_to(REPO_ROOT) else args.labels})")
        for note in notes:
            print(f"note: {note}")
    if args.check and failed:
        print("below target: " + "; ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
