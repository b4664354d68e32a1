"""The labelled accuracy data (bench/classify_accuracy/*.tsv) stays well-formed and balanced.

The benchmark reads it; a malformed row would silently drop out of every measurement. The sets:
labels.tsv (development), independent.tsv (other repositories), heldout.tsv, fresh.tsv, fifth.tsv, sixth.tsv,
seventh.tsv, eighth.tsv, ninth.tsv, tenth.tsv, eleventh.tsv, twelfth.tsv, thirteenth.tsv, fourteenth.tsv,
fifteenth.tsv, sixteenth.tsv, seventeenth.tsv, eighteenth.tsv, nineteenth.tsv, twentieth.tsv, twentyfirst.tsv,
twentysecond.tsv, twentythird.tsv, twentyfourth.tsv, twentyfifth.tsv, twentysixth.tsv, twentyseventh.tsv,
twentyeighth.tsv, twentyninth.tsv, thirtieth.tsv, thirtyfirst.tsv, thirtysecond.tsv, thirtythird.tsv,
thirtyfourth.tsv, thirtyfifth.tsv, thirtysixth.tsv, thirtyseventh.tsv, thirtyeighth.tsv, thirtyninth.tsv,
fortieth.tsv, fortyfirst.tsv, fortysecond.tsv, fortythird.tsv, fortyfourth.tsv, fortyfifth.tsv, fortysixth.tsv,
fortyseventh.tsv, fortyeighth.tsv, fortyninth.tsv, fiftieth.tsv, fiftyfirst.tsv, fiftysecond.tsv
and fiftythird.tsv
(measured blind before any rule changed for them); no repository is in two of them, so no
set can leak into another.
The fifty-fourth set (fiftyfourth.tsv, 27 newly fetched repositories) and the fifty-fifth (fiftyfifth.tsv, 22 mirrored
repositories) were measured blind the same way.
The fifty-sixth (fiftysixth.tsv, 26 mirrored and 10 newly fetched repositories), the fifty-seventh (fiftyseventh.tsv, 25
newly fetched infrastructure and CI repositories) and the fifty-eighth (fiftyeighth.tsv, 35 mirrored repositories, 245
files: 3 a repository from the path rules' ci/iac/deps groups, 4 uniformly at random) were measured blind the same way.
The fifty-ninth (fiftyninth.tsv, 22 more mirrored repositories, 154 files, drawn the same way) was measured blind too.
The sixtieth (sixtieth.tsv, the last 20 mirrored repositories in no set and 12 newly fetched ones in ecosystems the sets
hold few of, 192 files: 3 a repository from the path rules' ci/iac/deps groups, 3 uniformly at random) was measured
blind the same way. The sixty-first (sixtyfirst.tsv, 24 newly fetched repositories weighted to CI, 218 files) was
measured blind too.
The sixty-second (sixtysecond.tsv, 22 newly fetched ordinary repositories, 132 files drawn as the sixtieth's) was
measured blind the same way, and so was the sixty-third (sixtythird.tsv, 24 more, 144 files drawn the same way).
The sixty-fourth (sixtyfourth.tsv, 27 newly fetched repositories weighted to infrastructure, 215 files drawn as the
fifty-fourth's) was measured blind too. The sixty-fifth (sixtyfifth.tsv, 23 newly fetched repositories weighted to CI,
216 files: about 5 files CI definitions reach and 4 at random or look-alikes each, as the sixty-first's) was measured
blind too.
The sixty-sixth (sixtysixth.tsv, 24 newly fetched ordinary repositories, many in ecosystems the sets hold few of, 141
files drawn as the sixtieth's) was measured blind the same way.
The sixty-seventh (sixtyseventh.tsv, 22 newly fetched repositories weighted to CI, 216 files drawn as the sixty-fifth's)
was measured blind too.
The sixty-eighth (sixtyeighth.tsv, 24 newly fetched repositories weighted to infrastructure: applications that ship
their own deployment and infrastructure repositories, 144 files drawn as the sixtieth's) was measured blind the same
way, and so was the sixty-ninth (sixtyninth.tsv, 30 newly fetched ordinary repositories across languages, 180 files
drawn as the sixtieth's).
The seventieth (seventieth.tsv, 21 newly fetched ordinary repositories weighted to CI, 203 files drawn as the
sixty-seventh's) was measured blind too.
The seventy-first (seventyfirst.tsv, 34 newly fetched ordinary repositories across languages, 204 files drawn as the
sixtieth's) was measured blind the same way, and so was the seventy-second (seventysecond.tsv, 28 newly fetched ordinary
applications that deploy themselves, 203 files weighted to their infrastructure, CI and deploy folders).
The seventy-third (seventythird.tsv, 34 newly fetched ordinary repositories across languages, 203 files drawn as the
sixtieth's) was measured blind the same way.
The seventy-fourth (seventyfourth.tsv, 31 newly fetched repositories weighted to what CI runs and loads, 293 files
drawn as the seventieth's) was measured blind too.
The seventy-sixth (seventysixth.tsv, 31 newly fetched ordinary applications that deploy themselves, 225 files weighted
to their infrastructure, CI and deploy folders, drawn as the seventy-second's) was measured blind the same way.
The seventy-fifth (seventyfifth.tsv, 38 newly fetched ordinary repositories across languages, 228 files drawn as the
sixtieth's) was measured blind the same way, and so was the seventy-seventh (seventyseventh.tsv, 33 newly fetched
ordinary repositories across languages, 196 files drawn as the sixtieth's).
The seventy-eighth (seventyeighth.tsv, 39 newly fetched repositories weighted to CI that is spread out or less common,
283 files picked by hand) was measured blind too, and so was the seventy-ninth (seventyninth.tsv, 46 newly fetched
repositories weighted to infrastructure and dependency files under ordinary names, 240 files), and so was the
eighty-second (eightysecond.tsv, 40 newly fetched repositories of every kind, infrastructure-weighted, 427 files
drawn by a fixed rule).
The eighty-first (eightyfirst.tsv, 44 newly fetched repositories weighted to CI that runs the project's own tooling,
324 files picked by hand) was measured blind too.
The eightieth (eightieth.tsv, 40 newly fetched repositories weighted to CI other than GitHub Actions, 271 files picked
by hand) was measured blind the same way, and so was the eighty-third (eightythird.tsv, 32 newly fetched repositories
weighted to dependency files under ordinary and unusual layouts, 309 files drawn by a fixed rule), and so was the
eighty-fourth (eightyfourth.tsv, 42 newly fetched repositories of every kind, infrastructure-weighted, 420 files drawn
by a fixed rule), and so was the eighty-fifth (eightyfifth.tsv, 45 newly fetched repositories weighted to CI in the
ecosystems the sets hold fewer of, 384 files drawn by a fixed rule), and so was the eighty-sixth (eightysixth.tsv, 46
newly fetched repositories of every kind and language, 431 files drawn by a fixed rule), and so was the eighty-seventh
(eightyseventh.tsv, 39 newly fetched repositories weighted to CI whose task runners and build tools hand work to
files, 354 files drawn by a fixed rule), and so was the eighty-eighth (eightyeighth.tsv, 30 newly fetched repositories
of every kind, 269 files drawn by a fixed rule), and so was the eighty-ninth (eightyninth.tsv, 30 newly fetched
repositories in languages the sets hold fewer of and infrastructure kinds, 277 files drawn by a fixed rule), and so was
the ninetieth (ninetieth.tsv, 22 newly fetched repositories of every kind, 8 of them infrastructure, 231 files drawn by
a fixed rule), and so was the ninety-first (ninetyfirst.tsv, 30 newly fetched repositories of every kind, 13 of them
infrastructure, 312 files drawn by a fixed rule), and so was the ninety-second (ninetysecond.tsv, 31 newly fetched
repositories of every kind, weighted to CI other than GitHub Actions, 305 files drawn by a fixed rule), and so was the
ninety-third (ninetythird.tsv, 32 newly fetched repositories, 21 of them infrastructure of many kinds, 317 files drawn
by a fixed rule).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tables import each_case

REPO_ROOT = Path(__file__).resolve().parent.parent
SETS = REPO_ROOT / "bench" / "classify_accuracy"
LABELS = SETS / "labels.tsv"
LABEL_SETS = [SETS / "labels.tsv", SETS / "independent.tsv", SETS / "heldout.tsv", SETS / "fresh.tsv",
              SETS / "fifth.tsv", SETS / "sixth.tsv", SETS / "seventh.tsv", SETS / "eighth.tsv",
              SETS / "ninth.tsv", SETS / "tenth.tsv", SETS / "eleventh.tsv", SETS / "twelfth.tsv",
              SETS / "thirteenth.tsv", SETS / "fourteenth.tsv", SETS / "fifteenth.tsv",
              SETS / "sixteenth.tsv", SETS / "seventeenth.tsv",
              SETS / "eighteenth.tsv", SETS / "nineteenth.tsv", SETS / "twentieth.tsv",
              SETS / "twentyfirst.tsv", SETS / "twentysecond.tsv", SETS / "twentythird.tsv",
              SETS / "twentyfourth.tsv", SETS / "twentyfifth.tsv",
              SETS / "twentysixth.tsv", SETS / "twentyseventh.tsv",
              SETS / "twentyeighth.tsv", SETS / "twentyninth.tsv",
              SETS / "thirtieth.tsv", SETS / "thirtyfirst.tsv",
              SETS / "thirtysecond.tsv", SETS / "thirtythird.tsv",
              SETS / "thirtyfourth.tsv", SETS / "thirtyfifth.tsv",
              SETS / "thirtysixth.tsv", SETS / "thirtyseventh.tsv",
              SETS / "thirtyeighth.tsv", SETS / "thirtyninth.tsv",
              SETS / "fortieth.tsv", SETS / "fortyfirst.tsv",
              SETS / "fortysecond.tsv", SETS / "fortythird.tsv",
              SETS / "fortyfourth.tsv", SETS / "fortyfifth.tsv",
              SETS / "fortysixth.tsv", SETS / "fortyseventh.tsv",
              SETS / "fortyeighth.tsv",
              SETS / "fortyninth.tsv",
              SETS / "fiftieth.tsv", SETS / "fiftyfirst.tsv",
              SETS / "fiftysecond.tsv",
              SETS / "fiftythird.tsv",
              SETS / "fiftyfourth.tsv",
              SETS / "fiftyfifth.tsv",
              SETS / "fiftysixth.tsv",
              SETS / "fiftyseventh.tsv",
              SETS / "fiftyeighth.tsv",
              SETS / "fiftyninth.tsv",
              SETS / "sixtieth.tsv",
              SETS / "sixtyfirst.tsv",
              SETS / "sixtysecond.tsv",
              SETS / "sixtythird.tsv",
              SETS / "sixtyfourth.tsv",
              SETS / "sixtyfifth.tsv",
              SETS / "sixtysixth.tsv",
              SETS / "sixtyseventh.tsv",
              SETS / "sixtyeighth.tsv",
              SETS / "sixtyninth.tsv",
              SETS / "seventieth.tsv",
              SETS / "seventyfirst.tsv",
              SETS / "seventysecond.tsv",
              SETS / "seventythird.tsv",
              SETS / "seventyfourth.tsv",
              SETS / "seventyfifth.tsv",
              SETS / "seventysixth.tsv",
              SETS / "seventyseventh.tsv",
              SETS / "seventyeighth.tsv",
              SETS / "seventyninth.tsv",
              SETS / "eightieth.tsv",
              SETS / "eightyfirst.tsv",
              SETS / "eightysecond.tsv",
              SETS / "eightythird.tsv",
              SETS / "eightyfourth.tsv",
              SETS / "eightyfifth.tsv",
              SETS / "eightysixth.tsv",
              SETS / "eightyseventh.tsv",
              SETS / "eightyeighth.tsv",
              SETS / "eightyninth.tsv",
              SETS / "ninetieth.tsv",
              SETS / "ninetyfirst.tsv",
              SETS / "ninetysecond.tsv",
              SETS / "ninetythird.tsv"]
BUCKETS = {"ci", "iac", "deps", "src", "other"}


def rows(path: Path = LABELS) -> list[list[str]]:
    text = path.read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


@each_case("path", LABEL_SETS, ids=lambda p: p.name)
def test_every_row_is_complete_and_valid(path: Path) -> None:
    bad = []
    for number, fields in enumerate(rows(path), start=1):
        if len(fields) != 5:
            bad.append((number, "fields", fields))
            continue
        repo, commit, path, bucket, reason = fields
        if not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repo):
            bad.append((number, "repo", repo))
        if not re.fullmatch(r"[0-9a-f]{40}", commit):
            bad.append((number, "commit", commit))
        if not path or path.startswith("/") or ".." in path.split("/") or path != path.strip():
            bad.append((number, "path", path))
        if bucket not in BUCKETS:
            bad.append((number, "bucket", bucket))
        if not reason.strip():
            bad.append((number, "reason", reason))
    assert bad == []


@each_case("path", LABEL_SETS, ids=lambda p: p.name)
def test_one_label_per_file_and_one_commit_per_repository(path: Path) -> None:
    keys = Counter((fields[0], fields[2]) for fields in rows(path))
    assert [key for key, n in keys.items() if n > 1] == []
    commits: dict[str, set[str]] = {}
    for fields in rows(path):
        commits.setdefault(fields[0], set()).add(fields[1])
    assert {repo: c for repo, c in commits.items() if len(c) > 1} == {}


def test_the_set_is_large_and_covers_every_bucket() -> None:
    data = rows()
    assert len(data) >= 1500
    assert len({fields[0] for fields in data}) >= 40
    per_bucket = Counter(fields[3] for fields in data)
    assert min(per_bucket[b] for b in BUCKETS) >= 100, per_bucket


def test_no_repository_is_in_two_sets() -> None:
    repos = [{fields[0] for fields in rows(path)} for path in LABEL_SETS]
    shared = {(a, b): repos[a] & repos[b] for a in range(len(repos)) for b in range(a + 1, len(repos))}
    assert {pair: both for pair, both in shared.items() if both} == {}
