"""The cileft70 round: what CI loads or runs that the walk did not follow (issue 12).

- A report or notice template a tool CI runs renders (nats.go's `go-licenses report ./... --template
  dependencies.tpl`, `pandoc --template`, trivy's `--template @x.tpl`): the tool's own settings, `ci`.
- A Crystal program CI runs by path (`crystal run x.cr`, `crystal x.cr`), or builds and then runs (termisu's `crystal
  build run_specs.cr -o ./bin/run_specs`, then `kcov … ./bin/run_specs`); a build whose output no line runs stays the
  product's.
"""

from __future__ import annotations

import pytest
from citools import BLOCK_DEFINITIONS, one_tree_runs
from cpucost import assert_linear

from gatekeeper.classify import ciconfigs, datawords

DEFINITIONS = [*BLOCK_DEFINITIONS, ("ci/release.sh", "#!/usr/bin/env bash\nset -euo pipefail\n{line}\n")]


def _runs(files: dict[str, str]) -> set[str]:
    runs = one_tree_runs(files)
    assert isinstance(runs, dict), "the walk closed"
    return {path for path in runs if path in files}


def _with_line(definition: str, template: str, line: str, files: dict[str, str]) -> dict[str, str]:
    tree = {definition: template.format(line=line.replace("{", "{{").replace("}", "}}")), **files}
    if definition == "ci/release.sh":  # a workflow runs the script
        tree[".github/workflows/release.yml"] = BLOCK_DEFINITIONS[0][1].format(line="bash ci/release.sh")
    return tree


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
    found = _runs(_with_line(definition, template, line, TEMPLATES))
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
    runs = one_tree_runs(_with_line(*BLOCK_DEFINITIONS[0], line, TEMPLATES))
    assert isinstance(runs, dict)
    assert not any(runs.get(path, ("",))[0].startswith("ci.") for path in ("dependencies.tpl", "tools/report/html.tpl"))


def test_template_names_cost_linear() -> None:
    """Each tool's words end at the next tool's: a line repeating a tool's name cost quadratic on main (12,000
    `goreleaser` words: 14 CPU-s)."""
    for unit in ("go-licenses report --template " + "a/" * 32 + "\n", "trivy fs --template @x ", "-t " * 16,
                 "goreleaser ", "python -m alembic ", "echo "):
        line = "grype dir:. " if unit.startswith("-t") else ""
        assert_linear(ciconfigs.named, line + unit * (65_536 // len(unit)), line + unit * (262_144 // len(unit)),
                      budget=2.0)


# --- a Crystal program CI runs -----------------------------------------------------------------------------------

CRYSTAL = {"run_specs.cr": "require \"./spec/**\"\n", "tools/gen.cr": "puts 1\n", "src/termisu.cr": "module T\nend\n",
           "spec/termisu_spec.cr": "require \"./spec_helper\"\n"}


@pytest.mark.parametrize(("line", "named"), [
    ("crystal run tools/gen.cr", "tools/gen.cr"),
    ("crystal tools/gen.cr -- --verbose", "tools/gen.cr"),
    ("crystal run --release tools/gen.cr", "tools/gen.cr"),
    ("crystal build run_specs.cr -o ./bin/run_specs\n./bin/run_specs", "run_specs.cr"),
    ("crystal build run_specs.cr -o ./bin/run_specs\n"
     "TERM=xterm-256color unbuffer kcov --clean --include-path=./src ./coverage ./bin/run_specs", "run_specs.cr"),
    ("crystal build run_specs.cr -o bin/run_specs && bin/run_specs --verbose", "run_specs.cr"),
])
@pytest.mark.parametrize(("definition", "template"), DEFINITIONS)
def test_a_crystal_program_ci_runs_is_ci(definition: str, template: str, line: str, named: str) -> None:
    found = _runs(_with_line(definition, template, line.replace("\n", "\n" + _indent(template)), CRYSTAL))
    assert named in found, found
    assert "src/termisu.cr" not in found


def _indent(template: str) -> str:
    """The blanks before `{line}` in `template` (a later line of a block stays in the block)."""
    before = template.partition("{line}")[0].rpartition("\n")[2]
    return before if not before.strip() else ""


@pytest.mark.parametrize("line", [
    "crystal build src/termisu.cr -o bin/termisu --release",  # the product built, not run
    "crystal build --no-codegen src/termisu.cr",
    "crystal tool format --check src/termisu.cr",
    "crystal docs src/termisu.cr",
    "echo crystal run src/termisu.cr",
    "crystal build src/termisu.cr -o bin/termisu\nls -la bin/termisu",  # the output listed, not run
])
def test_crystal_lookalikes(line: str) -> None:
    template = BLOCK_DEFINITIONS[0][1]
    found = _runs(_with_line(".github/workflows/ci.yml", template, line.replace("\n", "\n" + _indent(template)),
                             CRYSTAL))
    assert "src/termisu.cr" not in found, found


def test_crystal_build_runs_cost_linear() -> None:
    def text(size: int) -> list[str]:
        return ["crystal build x.cr -o bin/x", "kcov " + "-a " * (size // 3), "kcov ./c " * (size // 9)]

    assert_linear(datawords.built_runs, text(65_536), text(262_144), budget=2.0)
