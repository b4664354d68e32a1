"""Benchmark: every labelled set of bench/classify_accuracy/ in one mode, per set and as a union.

Run: .venv/bin/python bench/classify_accuracy_sets.py [--mode tree] [--source DIR] [--mirror DIR]
     [--timeout S] [--format text|json]

A rule change must not lose a file on any set: this runs bench_classify_accuracy's own code over
each `*.tsv` (the real CLI per repository, as that benchmark does) and prints, per set and for the
union of all sets, the overall accuracy and the recall of ci, iac and deps. `--format json` also
keeps each set's misses, so two runs (before and after a change) can be compared file by file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_classify_accuracy as accuracy  # noqa: E402  (a sibling script, not a package)

SETS = Path(__file__).resolve().parent / "classify_accuracy"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=accuracy.MODES, default="tree")
    parser.add_argument("--source", type=Path, default=accuracy.REPO_ROOT)
    parser.add_argument("--policy", type=Path)
    parser.add_argument("--mirror", type=Path,
                        default=Path(os.environ.get("GATEKEEPER_BENCH_MIRROR", "/work/.mirror")))
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    source = args.source.resolve()
    run = accuracy.Classifier(source, (args.policy or source / "policies").resolve(), args.timeout)
    began = time.perf_counter()
    union: list[accuracy.Outcome] = []
    rows: dict[str, dict[str, object]] = {}
    notes: list[str] = []
    for tsv in sorted(SETS.glob("*.tsv")):
        outcomes = accuracy.run_mode(args.mode, accuracy.read_labels(tsv), args.mirror, run, notes)
        union += outcomes
        rows[tsv.stem] = accuracy.summary(outcomes)
    rows["union"] = accuracy.summary(union)
    seconds = time.perf_counter() - began
    if args.format == "json":
        print(json.dumps({"mode": args.mode, "source": str(source), "seconds": round(seconds, 1),
                          "sets": rows, "notes": notes}, indent=1))
        return 0
    print(f"mode {args.mode}, gatekeeper {source} ({seconds:.0f} s)")
    print(f"{'set':16} {'files':>6} {'overall':>8} {'ci':>7} {'iac':>7} {'deps':>7}")
    for name, doc in rows.items():
        buckets = doc["buckets"]
        assert isinstance(buckets, dict)
        print(f"{name:16} {doc['files']:6} {accuracy.pct(doc['accuracy']):>8} "
              + " ".join(f"{accuracy.pct(buckets[b]['recall']):>7}" for b in ("ci", "iac", "deps")))
    for note in notes:
        print(f"note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
