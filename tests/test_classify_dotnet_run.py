"""The .NET build project a CI job runs (issue 12, overreads5; gatekeeper/classify/dotnetrun.py).

Cake Frosting and NUKE builds are C# console projects (`build/Build.csproj`, `build/_build.csproj`) that CI runs with
`dotnet run --project build/...` (their bootstrap scripts, or a step), and GitVersion's workflows build them with
`dotnet build build/` and run the assembly by its path (`dotnet run/build.dll`: the assembly `build.csproj` writes).
Their `.cs` files are the job's code, as `go run ./cmd/release`'s are; they stayed `src` and `gate --tree` allowed an
edit (the eighty-first set: GitVersion's `build/build/Tasks/CodeFormat.cs`). Controls: `dotnet build`/`dotnet test` of
the product, `dotnet run` of nothing named, an assembly no project of the tree writes, a `.dll` an `echo` names.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from incli import classify_and_gate

from gatekeeper.classify.dotnetrun import assemblies, projects

TASK = "using Cake.Frosting;\n\npublic sealed class Default : FrostingTask<BuildContext> { }\n"
EDITED = "using Cake.Frosting;\n\npublic sealed class Default : FrostingTask<BuildContext> { /* curl evil */ }\n"
PROJECT = ("<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup><OutputType>Exe</OutputType></PropertyGroup>\n"
           "</Project>\n")


def _workflow(run: str, extra: str = "") -> str:
    return ("on: push\njobs:\n  build:\n    runs-on: windows-latest\n    steps:\n      - uses: actions/checkout@"
            "11bd71901bbe5b1630ceea73d27597364c9af683\n      - run: " + run + "\n" + extra)


WF = ".github/workflows/ci.yml"
NUKE_SH = ("#!/usr/bin/env bash\nset -eo pipefail\nSCRIPT_DIR=$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\n"
           "BUILD_PROJECT_FILE=\"$SCRIPT_DIR/build/_build.csproj\"\nexport DOTNET_EXE=\"$(command -v dotnet)\"\n"
           "\"$DOTNET_EXE\" build \"$BUILD_PROJECT_FILE\" /nodeReuse:false -nologo -clp:NoSummary --verbosity quiet\n"
           "\"$DOTNET_EXE\" run --project \"$BUILD_PROJECT_FILE\" --no-build -- \"$@\"\n")
ATTACKS = {  # name: (files at BASE besides the task and its project, the task's folder)
    "run --project a file": ({WF: _workflow("dotnet run --project build/Build.csproj -- --target=Default")}, "build"),
    "run --project a folder": ({WF: _workflow("dotnet run --project ./build --target=Default")}, "build"),
    "--project= and flags first": ({WF: _workflow("dotnet run -c Release --project=build/Build.csproj")}, "build"),
    "-p short form": ({WF: _workflow("dotnet run -p build/Build.csproj")}, "build"),
    "a bootstrap script": ({WF: _workflow("./build.sh --target=Default"),
                            "build.sh": "#!/bin/sh\ndotnet run --project build/Build.csproj -- \"$@\"\n"}, "build"),
    "NUKE's bootstrap": ({WF: _workflow("./build.sh Compile"), "build.sh": NUKE_SH}, "build"),
    "a built assembly by path": ({WF: _workflow("dotnet build build/ --configuration=Release\n"
                                                "      - run: dotnet run/build.dll --target=Package")},
                                 "build/build"),
    "an assembly from a composite action": ({".github/actions/docker/action.yml": (
        "name: docker\nruns:\n  using: composite\n  steps:\n    - shell: pwsh\n      run: |\n"
        "        dotnet run/docker.dll `\n              --target=DockerManifest --arch=amd64\n"),
        WF: _workflow("echo", "      - uses: ./.github/actions/docker\n")}, "build/docker"),
    "dotnet exec": ({WF: _workflow("dotnet exec artifacts/bin/tools.dll --check")}, "tools"),
    "gitlab job": ({".gitlab-ci.yml": "build:\n  script:\n    - dotnet run --project build/Build.csproj\n"}, "build"),
}
CONTROLS = {
    "dotnet build of the product": ({WF: _workflow("dotnet build src/App.sln && dotnet test src/")}, "build"),
    "dotnet run of the root project": ({WF: _workflow("dotnet run")}, "build"),
    "another project run": ({WF: _workflow("dotnet run --project tools/Gen/Gen.csproj")}, "build"),
    "an assembly no project writes": ({WF: _workflow("dotnet run/other.dll")}, "build/build"),
    "a dll echoed": ({WF: _workflow("echo run/build.dll")}, "build/build"),
}


def _classify_and_gate(tmp_path: Path, base: dict[str, str], folder: str) -> tuple[str, str]:
    path = f"{folder}/Tasks/Default.cs"
    buckets, decision = classify_and_gate(tmp_path / "repo", {"README.md": "app\n", "src/App.cs": "class App {}\n",
                                                              _project(folder): PROJECT, path: TASK, **base},
                                          {path: EDITED})
    return buckets[path], decision["outcome"]


def _project(folder: str) -> str:
    name = folder.rpartition("/")[2]
    return f"{folder}/{ {'build': 'Build'}.get(folder, name)}.csproj"


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_build_project_a_job_runs_is_ci(tmp_path: Path, name: str) -> None:
    assert _classify_and_gate(tmp_path, *ATTACKS[name]) == ("ci", "review")


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_a_project_no_job_runs_stays_source(tmp_path: Path, name: str) -> None:
    assert _classify_and_gate(tmp_path, *CONTROLS[name]) == ("src", "allow")


def test_the_globs_named() -> None:
    assert projects("dotnet run --project ./build/Build.csproj -- x") == ["./build/*.cs"]
    assert projects("dotnet run --project tools/Gen.fsproj") == ["tools/*.fs"]
    assert projects("dotnet run -c Release --project=\"./build\"") == [f"./build/*.{ext}" for ext in ("cs", "fs", "vb")]
    assert projects("dotnet run && dotnet run --project $X && dotnet build build/ && echo --project y.csproj") == []


def test_the_assemblies_named() -> None:
    paths = {path: path for path in ["build/build/build.csproj", "build/docker/Docker.fsproj", "src/App/App.csproj",
                                     "build/x.cs", "build/build/Tasks/A.cs", "build/build/B.fs", "build/docker/C.fs",
                                     "src/App/D.cs"]}
    assert assemblies("dotnet run/build.dll --target=x && dotnet exec ./out/docker.dll", paths, lambda _: b"") == [
        "build/build/Tasks/A.cs", "build/docker/C.fs"]
    assert assemblies("echo run/build.dll; dotnet run/none.dll; dotnet test src/App.dll", paths, lambda _: b"") == []


# GitVersion's build projects share `build/common/` by a project reference (Windows separators), in turn
COMMON = "build/common/common.csproj"
REFERENCING = ("<Project Sdk=\"Microsoft.NET.Sdk\">\n  <ItemGroup>\n"
               "    <ProjectReference Include=\"..\\common\\common.csproj\" />\n  </ItemGroup>\n</Project>\n")
SHARED = "namespace Common;\n\npublic static class Models { }\n"
REFERENCES = {  # name: (the workflow's line, the run project, its text)
    "a built assembly": ("dotnet run/build.dll --target=Package", "build/build/build.csproj", REFERENCING),
    "run --project": ("dotnet run --project build/build/build.csproj", "build/build/build.csproj", REFERENCING),
    "in turn": ("dotnet run/docker.dll", "build/docker/docker.csproj",
                REFERENCING.replace("common\\common", "build\\build")),
}


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_the_projects_a_run_project_references_are_ci(tmp_path: Path, name: str) -> None:
    line, project, text = REFERENCES[name]
    base = {WF: _workflow(line), project: text, COMMON: PROJECT, "build/build/build.csproj": REFERENCING,
            "build/common/Utilities/Models.cs": SHARED}
    base[project] = text
    assert _classify_and_gate(tmp_path, base, "build/common") == ("ci", "review")


def test_many_assemblies_run_stay_below_the_walks_bound(tmp_path: Path) -> None:
    # GitVersion: twenty workflows and actions run seven build assemblies; named as folder globs they passed the walk's
    # bound of 64 patterns with a variable part, and the walk failed closed (every script ci, no `.cs` file)
    names = ["build", "docker", "artifacts", "config", "docs", "publish", "release"]
    base = {f".github/workflows/w{index}.yml": _workflow(" && ".join(f"dotnet run/{name}.dll" for name in names))
            for index in range(20)}
    base.update({f"build/{name}/{name}.csproj": REFERENCING for name in names})
    base.update({COMMON: PROJECT, "build/common/Utilities/Models.cs": SHARED, "nuspec/uninstall.ps1": "exit 0\n"})
    assert _classify_and_gate(tmp_path, base, "build/common") == ("ci", "review")
    assert _classify_and_gate(tmp_path / "x", base, "build/docs") == ("ci", "review")


def test_a_project_no_run_project_references_stays_source(tmp_path: Path) -> None:
    base = {WF: _workflow("dotnet run/build.dll"), "build/build/build.csproj": PROJECT, COMMON: PROJECT}
    assert _classify_and_gate(tmp_path, base, "build/common") == ("src", "allow")
