"""Red team 27: a dependency list a manifest or build program reads from a file of any name.

A Gemfile's `eval_gemfile "Gemfile.local"` (or `instance_eval(File.read(...))`), a Podfile's `eval_podfile`, a Gradle
script's `apply from: file("gradle/versions.groovy")`, a `setup.py` that opens `reqs.list` or reads
`Path("requirements/base.pip").read_text()`: what such a file says is installed as the manifest's own lines, but its
name is no dependency file's, so an edit adding `evil-pkg` was `src` and `gate --tree --enable deps` said allow (exit 0;
from the patch alone too). With `--tree` the manifests of both trees are read and the files they name are `deps`
(`deps.context.included`, evidence MANIFEST:LINE); the delta reads what it can (requirements, a Gemfile's fragment,
an applied Gradle script) and names its changes. From a patch alone, what the patch shows of a manifest is read and a
name such a manifest may read is tagged `needs-context` (a review). Look-alikes beside each: a setup.py's README and
VERSION file, a gem's `require: "dotenv/load"`, a URL, a path above the root.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from incli import cli_result
from tables import each_case

from gatekeeper.classify.manifestreads import may_be_read, named, requirement_shaped
from gatekeeper.cli import main

# (manifest path, its text, the file it reads, that file's base text, its head text): one row per reader form.
CASES: list[tuple[str, str, str, str, str]] = [
    ("ruby/Gemfile", 'source "https://rubygems.org"\ngem "rails", "7.1.0"\neval_gemfile "Gemfile.local"\n',
     "ruby/Gemfile.local", 'gem "rake", "13.0.0"\n', 'gem "rake", "13.0.0"\ngem "evil-gem", "1.0.0"\n'),
    ("ruby2/Gemfile", "eval_gemfile File.expand_path(\"gems/extra.rb\", __dir__)\n",
     "ruby2/gems/extra.rb", 'gem "rspec", "3.12.0"\n', 'gem "rspec", "3.12.0"\ngem "evil-gem", "1.0.0"\n'),
    ("ruby3/Gemfile", 'instance_eval(File.read("Gemfile.shared"))\n',
     "ruby3/Gemfile.shared", 'gem "puma", "6.0.0"\n', 'source "https://evil.example"\ngem "puma", "6.0.0"\n'),
    ("ruby4/gems.rb", "eval_gemfile \"#{__dir__}/common/gems.txt\"\n",
     "ruby4/common/gems.txt", 'gem "puma", "6.0.0"\n', 'gem "puma", "6.0.0"\ngem "evil-gem"\n'),
    ("ios/Podfile", "platform :ios, '13.0'\ntarget 'App' do\n  eval_podfile 'Podfile.shared'\nend\n",
     "ios/Podfile.shared", "pod 'Alamofire', '5.0.0'\n", "pod 'Alamofire', '5.0.0'\npod 'EvilKit', '1.0'\n"),
    ("jvm/build.gradle", 'apply from: file("gradle/versions.groovy")\ndependencies { implementation libs.guava }\n',
     "jvm/gradle/versions.groovy", 'ext.libs = [guava: "com.google.guava:guava:30.0-jre"]\n',
     'ext.libs = [guava: "com.google.guava:guava:30.0-jre", evil: "com.evil:evil:1.0"]\n'),
    ("kts/build.gradle.kts", 'apply(from = "$rootDir/shared/libs.kts")\n',
     "kts/shared/libs.kts", 'dependencies { implementation("com.google.guava:guava:30.0-jre") }\n',
     'dependencies { implementation("com.google.guava:guava:30.0-jre")\n implementation("com.evil:evil:1.0") }\n'),
    ("py/setup.py", 'from pathlib import Path\nfrom setuptools import setup\n'
     'setup(name="x", install_requires=Path("requirements/base.pip").read_text().splitlines())\n',
     "py/requirements/base.pip", "requests==2.31.0\n", "requests==2.31.0\nevil-pkg==1.0\n"),
    ("py2/setup.py", 'import os\nfrom setuptools import setup\nwith open(os.path.join(HERE, "deps", "pins.list")) as f:'
     '\n    pins = f.read().splitlines()\nsetup(name="x", install_requires=pins)\n',
     "py2/deps/pins.list", "six==1.16.0\n", "--index-url https://evil.example/simple\nsix==1.16.0\n"),
    ("py3/setup.py", 'from setuptools import setup\n'
     'setup(name="x", install_requires=open("reqs.lst").read().split())\n',
     "py3/reqs.lst", "flask==2.0.0\n", "flask==2.0.0\nevil-pkg\n"),
    ("mvn/pom.xml", "<project><parent><groupId>g</groupId><artifactId>p</artifactId><version>1</version>"
     "<relativePath>../build/base-bom.xml</relativePath></parent></project>\n",
     "build/base-bom.xml", "<project><properties><guava.version>30.0</guava.version></properties></project>\n",
     "<project><properties><guava.version>20.0</guava.version></properties></project>\n"),
]
IDS = [case[2] for case in CASES]
# Files no manifest reads as dependencies (a README a setup.py opens for long_description, its VERSION file, a gem's
# `require:` path, a URL applied, a path above the root), each changed too.
LOOKALIKES = {
    "look/setup.py": 'from setuptools import setup\nsetup(name="x", long_description=open("README.md").read(),\n'
                     '      version=open("VERSION").read().strip())\n',
    "look/Gemfile": 'gem "dotenv", require: "dotenv/load"\n# eval_gemfile "notes.rb"\n',
    "look/build.gradle": 'apply from: "https://example.com/x.gradle"\napply from: "../../outside.gradle"\n',
}
LOOK_CHANGED = {"look/README.md": ("# x\n\nSome words here.\n", "# x\n\nOther words here.\n"),
                "look/VERSION": ("1.2.3\n", "1.2.4\n"), "look/notes.rb": ("x = 1\n", "x = 2\n"),
                "look/dotenv/load": ("a\n", "b\n")}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, str, str, str]:
    """One repository holding every case: (repo, base, head, the patch base..head)."""
    repo = GitRepo(tmp_path_factory.mktemp("rt27") / "repo")
    for manifest, text, target, before, _after in CASES:
        repo.write(manifest, text)
        repo.write(target, before)
    for path, text in LOOKALIKES.items():
        repo.write(path, text)
    for path, (before, _after) in LOOK_CHANGED.items():
        repo.write(path, before)
    base = repo.commit("base")
    for _manifest, _text, target, _before, after in CASES:
        repo.write(target, after)
    for path, (_before, after) in LOOK_CHANGED.items():
        repo.write(path, after)
    head = repo.commit("head")
    return repo, base, head, repo.git("diff", base, head).decode()


@pytest.fixture(scope="module")
def tree_files(repo: tuple[GitRepo, str, str, str]) -> dict[str, dict[str, Any]]:
    git, base, head, _patch = repo
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.chdir(git.root), contextlib.redirect_stdout(out):
        assert main(["classify", "--tree", f"{base}..{head}", "--format", "json"]) == 0
    out.flush()
    return {f["path"]: f for f in json.loads(out.buffer.getvalue())["files"]}  # type: ignore[attr-defined]


@each_case(("manifest", "text", "target", "before", "after"), CASES, ids=IDS)
def test_a_file_a_manifest_reads_is_deps_with_the_commits(tree_files: dict[str, dict[str, Any]], manifest: str,
                                                         text: str, target: str, before: str, after: str) -> None:
    found = tree_files[target]
    assert found["bucket"] == "deps", found
    if not manifest.endswith("pom.xml"):  # a POM's parent by relativePath: its own rule already (deps.maven...)
        assert found["rule"] == "deps.context.included", found


@each_case("path", sorted(LOOK_CHANGED))
def test_what_no_manifest_reads_as_dependencies_keeps_its_class(tree_files: dict[str, dict[str, Any]],
                                                                path: str) -> None:
    assert tree_files[path]["bucket"] != "deps", tree_files[path]


def test_the_gate_reviews_every_case_and_the_delta_names_what_it_reads(
        repo: tuple[GitRepo, str, str, str]) -> None:
    git, base, head, _patch = repo
    code, decision = cli_result(["gate", "--tree", f"{base}..{head}", "--repo", str(git.root), "--format", "json",
                           "--enable", "deps"])
    assert code == 3, decision
    by_rule: dict[str, set[str]] = {}
    for reason in decision["reasons"]:
        by_rule.setdefault(reason.get("rule") or reason.get("id"), set()).update(reason.get("paths", ()))
    flagged = set().union(*by_rule.values())
    assert {target for _m, _t, target, _b, _a in CASES} <= flagged, by_rule
    # Read in the format of the manifest that reads them: a new requirement, a new index, a new gem are named.
    assert {"py/requirements/base.pip", "py3/reqs.lst", "ruby/Gemfile.local"} <= by_rule.get("deps.new_direct", set())
    assert {"py2/deps/pins.list", "ruby3/Gemfile.shared"} <= by_rule.get("deps.new_registry", set())


def test_a_change_cannot_drop_the_reference_to_escape(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("Gemfile", 'gem "rails", "7.1.0"\neval_gemfile "extra/list.rb"\n')
    repo.write("extra/list.rb", 'gem "rake", "13.0.0"\n')
    base = repo.commit("base")
    repo.write("Gemfile", 'gem "rails", "7.1.0"\n')
    repo.write("extra/list.rb", 'gem "evil-gem", "1.0.0"\n')
    head = repo.commit("head")
    code, out = cli_result(["classify", "--tree", f"{base}..{head}", "--repo", str(repo.root), "--explain",
                      "extra/list.rb"])
    assert code == 0 and "deps.context.included" in out and "Gemfile:2 reads extra/list.rb" in out, out


def test_from_the_patch_what_it_shows_is_read_and_the_rest_needs_context(
        repo: tuple[GitRepo, str, str, str], tmp_path: Path) -> None:
    _git, _base, _head, patch = repo
    (tmp_path / "p.diff").write_text(patch, encoding="utf-8")
    code, out = cli_result(["classify", str(tmp_path / "p.diff"), "--format", "json"])
    files = {f["path"]: f for f in out["files"]}
    for target in ("ruby/Gemfile.local", "ruby2/gems/extra.rb", "kts/shared/libs.kts", "ruby3/Gemfile.shared",
                   "ios/Podfile.shared", "py/requirements/base.pip",
                   "py2/deps/pins.list", "py3/reqs.lst"):
        assert files[target]["bucket"] == "deps" or "needs-context" in files[target]["tags"], files[target]
    assert cli_result(["packet", str(tmp_path / "p.diff"), "--out", str(tmp_path / "packet.json")])[0] == 0
    code, decision = cli_result(["gate", str(tmp_path / "packet.json"), "--patch", str(tmp_path / "p.diff"), "--format",
                           "json", "--enable", "deps"])
    assert code == 3, decision  # was 0: allow
    # A patch that shows the manifest's reading line too: the file is deps from the patch alone.
    repo = GitRepo(tmp_path / "shown")
    repo.write("Gemfile", 'gem "rails", "7.1.0"\n')
    base = repo.commit("base")
    repo.write("Gemfile", 'gem "rails", "7.1.0"\neval_gemfile "vendor-list.rb"\n')
    repo.write("vendor-list.rb", 'gem "evil-gem", "1.0.0"\n')
    repo.commit("head")
    (tmp_path / "q.diff").write_bytes(repo.git("diff", base, "HEAD"))
    code, out = cli_result(["classify", str(tmp_path / "q.diff"), "--format", "json"])
    files = {f["path"]: f for f in out["files"]}
    assert code == 0 and files["vendor-list.rb"]["rule"] == "deps.context.included", files["vendor-list.rb"]


@each_case(("text", "expected"), [
    ("requests==2.31.0\nflask\n", True), ("-r base.txt\n--index-url https://x.example/simple\nsix\n", True),
    ("evil-pkg\n", True), ("1.2.3\n", False), ("# Title\n\nSome prose here.\n", False), ("", False),
    ('__version__ = "1.0"\n', False)])
def test_what_reads_as_a_requirements_list(text: str, expected: bool) -> None:
    assert requirement_shaped(text) is expected


@each_case(("path", "reader", "text", "expected"), [
    ("Gemfile", "ruby", 'eval_gemfile "../up.rb"\n', []),
    ("Gemfile", "ruby", 'gem "x", path: "vendor/x"\n', []),
    ("a/Podfile", "ruby", "eval_podfile 'Podfile.common'\n", ["a/Podfile.common"]),
    ("Podfile", "ruby", '  File.open("Pods/x.xcconfig", "w") { |f| f.write(text) }\n', ["Pods/x.xcconfig"]),
    ("build.gradle", "gradle", 'apply from: rootProject.file("gradle/deps.gradle")\n', ["gradle/deps.gradle"]),
    ("settings.gradle", "gradle", 'versionCatalogs { libs { from(files("cat/libs.toml")) } }\n', ["cat/libs.toml"]),
    ("build.gradle", "gradle", 'apply from: "${projectDir}/x/${name}.gradle"\n', []),
    # the build's root, not the subproject's folder (the docs review found both read at app/): every folder from the
    # script's up to the repository's, since the root is where settings.gradle is, at or above it (fail closed)
    ("app/build.gradle", "gradle", 'apply from: "$rootDir/shared/libs.gradle"\n',
     ["app/shared/libs.gradle", "shared/libs.gradle"]),
    ("android/app/build.gradle", "gradle", 'apply from: rootProject.file("deps.gradle")\n',
     ["android/app/deps.gradle", "android/deps.gradle", "deps.gradle"]),
    ("app/build.gradle", "gradle", 'apply from: "${projectDir}/x.gradle"\n', ["app/x.gradle"]),  # its own folder
    ("setup.py", "python", 'long_description=open("README.md").read()\n', ["README.md"]),  # kept only if shaped
])
def test_what_each_reader_names(path: str, reader: str, text: str, expected: list[str]) -> None:
    assert [target for target, _line, _says in named(path, reader, text)] == expected


@each_case(("path", "expected"), [
    ("Gemfile.local", True), ("ci/Podfile.shared", True), ("deps/common.pip", True), ("tools/reqs.list", True),
    ("requirements/base.in", True), ("ruby/gems/extra.rb", True), ("kts/shared/libs.kts", True),
    ("lib/app/models/user.rb", False), ("src/app.py", False), ("deps/main.go", False), ("docs/index.md", False)])
def test_which_names_need_context_from_a_patch(path: str, expected: bool) -> None:
    assert may_be_read(path) is expected
