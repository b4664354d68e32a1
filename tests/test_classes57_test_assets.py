""".NET test projects' data folders and fuzzing corpora are test data (classes57, issue 12, class J of snap53).

A test tree's data folders were src (`testdata.test-trees`), but only under a folder named `test`/`tests`/`spec`:
a .NET test project is a folder named `<Project>.Tests` (`osu.Game.Tests/Resources/Samples/test-sample.ogg`,
`NzbDrone.Core.Test/Files/TestArchive.zip`), and a fuzzer's inputs sit in `fuzz/corpus/`, `fuzz-afl/in/` or a
`*_seed_corpus/` folder. Their images, archives and binaries fell to `other.binary-assets`, their manifests to deps.
Now they are test data like the others. The ci/iac yield still comes first (a Dockerfile or a CI definition there
keeps its bucket), and so does a fuzz target's own Cargo.toml, which sits beside the corpus, not in it.
"""

from __future__ import annotations

import json
from pathlib import Path

from tables import each_case

from tests.gitrepo import GitRepo
from tests.incli import run_cli

TEST_DATA = [  # real shapes from the labelled sets, then generated variants of each folder shape
    "osu.Game.Tests/Resources/Samples/test-sample.ogg",
    "osu.Game.Rulesets.Osu.Tests/Resources/Testing/Beatmaps/slider-paths-edge-case-expected-conversion.json",
    "src/NzbDrone.Core.Test/Files/TestArchive.zip", "src/Microsoft.DotNet.SignTool.Tests/Resources/test.vsix",
    "fuzz-afl/in/webp/id_000000,orig_tbbn0g04.webp", "fuzz/corpus/message/Handshake.16833941846957128371.bin",
    "extras/fuzzing/json_seed_corpus/WeatherUnderground.json", "core/lib/fuzz/corpus/collision-matching/complex.seed",
    *[f"src/Acme.{kind}/{folder}/{name}" for kind, folder in (("Tests", "Resources"), ("Test", "Resources"),
      ("UnitTests", "Resources"), ("Tests", "TestData"), ("Tests", "Files"), ("Test", "Files"))
      for name in ("logo.png", "sample.zip", "nested/data.bin", "package.json", "font.ttf")],
    *[f"{root}/{name}" for root in ("fuzz/corpus", "fuzz/seeds", "fuzz-afl/in", "fuzz_libfuzzer/in", "fuzz/in",
      "parser/png_seed_corpus") for name in ("a.png", "id_000001", "deep/x.gz", "Cargo.lock")],
]
UNCHANGED = {  # look-alikes and what outranks test data: (path, bucket)
    "osu.Game/Resources/Samples/click.ogg": "other",  # the product's own resources
    "Contests/Resources/logo.png": "other",  # no test project: no dot before Tests
    "Acme.Tests.Helpers/Resources/logo.png": "other",  # a helper project, not a test project's folder
    "docs/resources/diagram.png": "other", "corpus/words.bin": "other", "fuzzy/corpus/a.bin": "other",
    "fuzz/Cargo.toml": "deps", "fuzz/Cargo.lock": "deps",  # the fuzz target's own package
    "fuzz/corpus/Dockerfile": "iac", "fuzz-afl/in/main.tf": "iac",  # the ci/iac yield comes first
    "Acme.Tests/Resources/.gitlab-ci.yml": "ci", "fuzz/corpus/.gitlab-ci.yml": "ci",
}


def _paths(root: Path, paths: list[str], policy: str | None = None) -> dict[str, str]:
    listing = root / "paths.txt"
    listing.write_text("\n".join(paths) + "\n")
    done = run_cli(["classify", "--paths", str(listing), "--format", "json",
                    *(["--policy", policy] if policy else [])], text=True)
    assert done.returncode == 0, done.stderr
    return {f["path"]: f["bucket"] + " " + f["rule"] for f in json.loads(done.stdout)["files"]}


def test_test_project_data_and_fuzz_corpora_are_test_data(tmp_path: Path) -> None:
    found = _paths(tmp_path, TEST_DATA)
    assert {path: got for path, got in found.items() if not got.startswith("src testdata.")} == {}


@each_case(("path", "bucket"), sorted(UNCHANGED.items()))
def test_look_alikes_and_higher_buckets_keep_theirs(tmp_path: Path, path: str, bucket: str) -> None:
    assert _paths(tmp_path, [path])[path].split()[0] == bucket


def test_with_the_commits_too(tmp_path: Path) -> None:
    """A real repository: `--tree` reaches the same rule (no marker or reader raises these files)."""
    repo = GitRepo(tmp_path / "repo")
    files = {"osu.Game.Tests/osu.Game.Tests.csproj": "<Project Sdk=\"Microsoft.NET.Sdk\" />\n",
             "osu.Game.Tests/Resources/Samples/test-sample.ogg": "OggS\0\0fake",
             "fuzz/Cargo.toml": "[package]\nname = \"fuzz\"\nversion = \"0.0.0\"\n",
             "fuzz/corpus/message/Handshake.1.bin": "\x16\x03\x01\0\x05hello"}
    for path, text in files.items():
        repo.write(path, text)
    first = repo.commit("base")
    for path, text in files.items():
        repo.write(path, text + "x")
    head = repo.commit("head")
    done = run_cli(["classify", "--tree", f"{first}..{head}", "--repo", str(repo.root), "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    got = {f["path"]: (f["bucket"], f["rule"]) for f in json.loads(done.stdout)["files"]}
    assert got["osu.Game.Tests/Resources/Samples/test-sample.ogg"] == ("src", "testdata.test-trees")
    assert got["fuzz/corpus/message/Handshake.1.bin"] == ("src", "testdata.test-trees")
    assert got["fuzz/Cargo.toml"][0] == "deps"
