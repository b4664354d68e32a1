"""The cileft70 round: what CI loads or runs that the walk did not follow (issue 12).

- A report or notice template a tool CI runs renders (nats.go's `go-licenses report ./... --template
  dependencies.tpl`, `pandoc --template`, trivy's `--template @x.tpl`): the tool's own settings, `ci`.
- The run settings a .NET project names (`<RunSettingsFilePath>`) where CI runs `dotnet test`.
- The checks visor runs (`visor --config branch_suggestion.yml`: a `type: command` check's `exec:` is shell).
"""

from __future__ import annotations

import pytest
from citools import BLOCK_DEFINITIONS, one_tree_runs, tree_runs, with_line
from cpucost import assert_linear, repeated

from gatekeeper.classify import ciconfigs, runsettings

DEFINITIONS = [*BLOCK_DEFINITIONS, ("ci/release.sh", "#!/usr/bin/env bash\nset -euo pipefail\n{line}\n")]


# --- a report template a tool renders ----------------------------------------------------------------------------

TEMPLATES = {"dependencies.tpl": "{{ range . }}| {{ .Name }} | {{ .LicenseName }} |\n{{ end }}\n",
             "tools/report/html.tpl": "<html>{{ range . }}{{ .Target }}{{ end }}</html>\n",
             "docs/changes_template.html": "$body$\n", "README.md": "# acme\n", "main.go": "package main\n"}


@pytest.mark.parametrize(("line", "named"), [
    ("go-licenses report ./... --template dependencies.tpl > dependencies.md", "dependencies.tpl"),
    ("go-licenses report ./... --template=dependencies.tpl", "dependencies.tpl"),
    ("go run github.com/google/go-licenses@v1.6.0 report ./... --template dependencies.tpl", "dependencies.tpl"),
    ("$(go env GOPATH)/bin/go-licenses report --ignore github.com/acme ./... --template ./dependencies.tpl",
     "dependencies.tpl"),
    ("trivy fs --format template --template \"@tools/report/html.tpl\" -o report.html .", "tools/report/html.tpl"),
    ("trivy image --format template --template @./tools/report/html.tpl acme:ci", "tools/report/html.tpl"),
    ("grype dir:. -o template -t tools/report/html.tpl", "tools/report/html.tpl"),
    ("syft scan dir:. -o template --template tools/report/html.tpl", "tools/report/html.tpl"),
    ("pandoc --lua-filter x.lua CHANGELOG.md -t gfm --template docs/changes_template.html -o notes.md",
     "docs/changes_template.html"),
    ("pandoc README.md --template=docs/changes_template.html", "docs/changes_template.html"),
])
@pytest.mark.parametrize(("definition", "template"), DEFINITIONS)
def test_a_report_template_a_tool_renders_is_ci(definition: str, template: str, line: str, named: str) -> None:
    found = tree_runs(with_line(definition, template, line, TEMPLATES))
    assert named in found, found
    assert "README.md" not in found and "main.go" not in found


@pytest.mark.parametrize("line", [
    "echo go-licenses report ./... --template dependencies.tpl",  # an echo's words
    "# go-licenses report ./... --template dependencies.tpl",  # a comment
    "go-licenses save ./... --save_path third_party",  # no template
    "kubectl get pod x --template='{{.status.podIP}}'",  # an inline template of another tool
    "helm version --template={{.Version}}",
    "trivy fs --format template --template '{{ range . }}{{ .Target }}{{ end }}' .",  # inline, not a file
    "nix flake init --template github:acme/templates",
    "az deployment group create --template-file dependencies.tpl",  # deployruns' (iac), not a report
])
def test_report_template_lookalikes(line: str) -> None:
    runs = one_tree_runs(with_line(*BLOCK_DEFINITIONS[0], line, TEMPLATES))
    assert isinstance(runs, dict)
    assert not any(runs.get(path, ("",))[0].startswith("ci.") for path in ("dependencies.tpl", "tools/report/html.tpl"))


def test_template_names_cost_linear() -> None:
    """Each tool's words end at the next tool's: a line repeating a tool's name cost quadratic on main (12,000
    `goreleaser` words: 14 CPU-s)."""
    for unit in ("go-licenses report --template " + "a/" * 32 + "\n", "trivy fs --template @x ", "goreleaser ",
                 "python -m alembic "):
        assert_linear(ciconfigs.named, repeated(unit), budget=0.5)


# --- the run settings a .NET project names for `dotnet test` -----------------------------------------------------

RUNSETTINGS = ('<?xml version="1.0" encoding="utf-8"?>\n<RunSettings>\n  <DataCollectionRunSettings>\n'
               '    <DataCollectors><DataCollector friendlyName="XPlat code coverage" /></DataCollectors>\n'
               '  </DataCollectionRunSettings>\n</RunSettings>\n')


def _project(value: str, condition: str = "") -> str:
    return ('<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n'
            f'    <RunSettingsFilePath{condition}>{value}</RunSettingsFilePath>\n  </PropertyGroup>\n</Project>\n')


@pytest.mark.parametrize(("holder", "value", "named"), [
    ("tests/Acme.Tests/Acme.Tests.csproj", "$(MSBuildProjectDirectory)\\test.runsettings",
     "tests/Acme.Tests/test.runsettings"),
    ("tests/Acme.Tests/Acme.Tests.csproj", "$(MSBuildThisFileDirectory)..\\ci.runsettings", "tests/ci.runsettings"),
    ("tests/Acme.Tests/Acme.Tests.fsproj", "coverage.runsettings", "tests/Acme.Tests/coverage.runsettings"),
    ("Directory.Build.props", "$(MSBuildThisFileDirectory)build/ci.runsettings", "build/ci.runsettings"),
    ("tests/Directory.Build.props", "$(MSBuildThisFileDirectory)/ci.runsettings", "tests/ci.runsettings"),
    ("Directory.Build.props", "$(SolutionDir)ci.runsettings", "ci.runsettings"),
    ("Directory.Build.targets", "$(MSBuildProjectDirectory)/../../build/ci.runsettings", "build/ci.runsettings"),
])
@pytest.mark.parametrize("line", ["dotnet test --configuration Release", "dotnet test Acme.sln --no-build -v n",
                                  "sudo -E dotnet test"])
@pytest.mark.parametrize(("definition", "template"), DEFINITIONS)
def test_a_project_run_settings_are_ci_where_ci_runs_dotnet_test(definition: str, template: str, line: str,
                                                                 holder: str, value: str, named: str) -> None:
    files = {holder: _project(value), named: RUNSETTINGS, "other.runsettings": RUNSETTINGS,
             "src/Acme/Acme.csproj": _project("").replace("<RunSettingsFilePath></RunSettingsFilePath>", ""),
             "src/Acme/Program.cs": "class P {}\n"}
    found = tree_runs(with_line(definition, template, line, files))
    assert named in found, found
    assert not {"other.runsettings", "src/Acme/Program.cs", "src/Acme/Acme.csproj", holder} & found


@pytest.mark.parametrize("line", [
    "dotnet build --configuration Release",  # no test run
    "echo dotnet test",
    "# dotnet test",
    "dotnet pack",
    "dotnet tool run dotnet-test-lookalike",
])
def test_project_run_settings_lookalikes(line: str) -> None:
    files = {"tests/T/T.csproj": _project("$(MSBuildProjectDirectory)/test.runsettings"),
             "tests/T/test.runsettings": RUNSETTINGS}
    assert "tests/T/test.runsettings" not in tree_runs(with_line(*BLOCK_DEFINITIONS[0], line, files))


def test_cake_dotnet_test_reads_project_run_settings() -> None:
    files = {"build.cake": 'Task("Test").Does(() => {\n    DotNetTest("./Acme.sln");\n});\n',
             ".github/workflows/ci.yml": BLOCK_DEFINITIONS[0][1].format(line="dotnet cake build.cake"),
             "tests/T/T.csproj": _project("$(MSBuildProjectDirectory)/test.runsettings"),
             "tests/T/test.runsettings": RUNSETTINGS}
    assert "tests/T/test.runsettings" in tree_runs(files)


def test_project_run_settings_bounds_fail_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past runsettings.MAX_PROJECTS project files every `.runsettings` of the tree counts (fail closed)."""
    monkeypatch.setattr(runsettings, "MAX_PROJECTS", 4)
    files = {f"src/P{index}/P{index}.csproj": _project("") for index in range(6)}
    files |= {"tests/T/test.runsettings": RUNSETTINGS, "build/x.runsettings": RUNSETTINGS}
    found = tree_runs(with_line(*BLOCK_DEFINITIONS[0], "dotnet test", files))
    assert {"tests/T/test.runsettings", "build/x.runsettings"} <= found


def test_project_run_settings_cost_linear() -> None:
    for unit in ("<RunSettingsFilePath>$(A)$(B)x</RunSettingsFilePath>\n", "<RunSettingsFilePath " * 8,
                 "$(MSBuildThisFileDirectory)" * 8):
        assert_linear(lambda text: runsettings.settings_paths("t/T.csproj", text), repeated(unit), budget=0.5)
    for unit in ("dotnet test ", "dotnet ", "echo dotnet test\n"):
        assert_linear(runsettings.runs_tests, repeated(unit), budget=0.5)


# --- the checks visor runs ---------------------------------------------------------------------------------------

VISOR = ('version: "1.0"\nchecks:\n  analyze:\n    type: command\n    exec: |\n      set -e\n'
         '      RESULT=$(node scripts/jira/get-fixedversion.js "$PR_TITLE")\n      echo "$RESULT"\n')
VISOR_FILES = {"branch-suggestion/branch_suggestion.yml": VISOR, ".visor.yaml": VISOR.replace("scripts/", "tools/"),
               "branch-suggestion/scripts/jira/get-fixedversion.js": "console.log(1)\n",
               "tools/jira/get-fixedversion.js": "console.log(2)\n", "branch-suggestion/src/app.js": "x()\n"}


@pytest.mark.parametrize(("line", "named"), [
    ("cd branch-suggestion && visor --config branch_suggestion.yml --debug --tags remote",
     {"branch-suggestion/branch_suggestion.yml", "branch-suggestion/scripts/jira/get-fixedversion.js"}),
    ("npx -y @probelabs/visor@latest -c branch-suggestion/branch_suggestion.yml",
     {"branch-suggestion/branch_suggestion.yml", "branch-suggestion/scripts/jira/get-fixedversion.js"}),
    ("visor --tags remote", {".visor.yaml", "tools/jira/get-fixedversion.js"}),  # its default file
])
@pytest.mark.parametrize(("definition", "template"), DEFINITIONS)
def test_the_checks_visor_runs_are_ci(definition: str, template: str, line: str, named: set[str]) -> None:
    if definition == "ci/release.sh" and "-c" not in line.split() and "--config" not in line:
        named = set()  # the default file is looked for beside the script (ciruns.resolved), not where it is run
    found = tree_runs(with_line(definition, template, line, VISOR_FILES))
    assert named <= found, found
    assert "branch-suggestion/src/app.js" not in found


@pytest.mark.parametrize("line", ["echo visor --config branch-suggestion/branch_suggestion.yml",
                                  "npm install -g @probelabs/visor@0.1.185 --ignore-scripts",
                                  "# visor --config branch-suggestion/branch_suggestion.yml"])
def test_visor_lookalikes(line: str) -> None:
    found = tree_runs(with_line(*BLOCK_DEFINITIONS[0], line, VISOR_FILES))
    assert not {"branch-suggestion/branch_suggestion.yml", "branch-suggestion/scripts/jira/get-fixedversion.js",
                ".visor.yaml"} & found, found
