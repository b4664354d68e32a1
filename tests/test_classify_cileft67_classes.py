"""The cileft67 round: what a CI step only reads or compiles is the product, what it runs or loads is `ci` (issue 12).

- A bundler's or compiler's input (`ncc build src/setup.ts`, `obuild src/index.ts`, `tsdown src/index.ts`, `swag init
  -g routes.go`) is the product's source the step turns into an artefact: no file CI runs, and its imports are not
  followed. A config the bundler loads (`rollup -c tools/rollup.config.mjs`), a compiled output a later command runs
  (`esbuild x.ts --outfile=o.js && node o.js`), `ncc run`, `bun x.ts`, `tsx x.ts` still name what runs.
- A program's read call (`File.read('lib/acme/version.rb')` in a Rakefile, `fs.readFileSync('src/x.ts')`, Python's
  `open('pkg/_version.py')`) reads data; the same read handed to `eval`/`exec`/`instance_eval` still runs it.
- black's `--force-exclude` and tar/rsync's `--exclude-from` take a value that is data (datawords.EXCLUDES).
- mage: the files with a `mage` build tag of the folder mage runs in (`mage build`, or `go run mage.go`, the
  zero-install bootstrap importing `github.com/magefile/mage/mage`) are the job's tasks.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from citools import BLOCK_DEFINITIONS, RUN_WORKFLOW, named_paths, one_tree_runs, yaml_quoted
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import datawords, fedruns

DEFINITIONS = [*BLOCK_DEFINITIONS, ("ci/release.sh", "#!/usr/bin/env bash\nset -euo pipefail\n{line}\n")]


def _named(line: str) -> set[str]:
    """The paths each definition of DEFINITIONS names when it holds `line`, merged."""
    return {path for definition, template in DEFINITIONS
            for path in named_paths(definition, template.format(line=line))}


def _package_runs(scripts: dict[str, str], files: dict[str, str], run: str = "npm run build") -> set[str]:
    """What the walk finds CI runs where a workflow runs `run` over a package.json of `scripts` beside `files`."""
    tree = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=run),
            "package.json": json.dumps({"name": "acme", "scripts": scripts}), **files}
    runs = one_tree_runs(tree)
    assert isinstance(runs, dict)
    return {path for path in runs if path in tree}


ENTRY = "src/setup.ts"
# A bundler or compiler building the product from its entry (harden-runner's `ncc build src/setup.ts --source-map -o
# dist/pre`, ofetch's `obuild src/index.ts`, t3-env's `tsdown src/index.ts`), behind the launchers package scripts use
BUILDS = ["ncc build {f} --source-map -o dist/pre", "ncc build {f} --license licenses.txt", "obuild {f}",
          "tsdown {f}", "tsdown {f} --format esm,cjs --dts", "tsup {f} --dts --clean", "unbuild {f}",
          "esbuild {f} --bundle --platform=node --outfile=dist/index.js", "rollup {f} --file dist/x.js --format cjs",
          "webpack --entry ./{f} -o dist", "microbundle -i {f}", "bun build {f} --outdir dist", "tsc {f} --outDir dist",
          "babel {f} -d dist", "swc {f} -o dist/x.js", "pkgroll --src {f}", "npx ncc build {f} -o dist",
          "pnpm exec tsup {f}", "pnpm dlx tsdown {f}", "bunx esbuild {f} --bundle", "vite build {f}",
          "parcel build {f}", "rimraf dist && tsup {f}", "tsup {f} && tsup src/cli.ts --format esm"]


@pytest.mark.parametrize("form", BUILDS)
def test_a_bundlers_input_names_no_file_ci_runs(form: str) -> None:
    line = form.format(f=ENTRY)
    assert ENTRY not in _named(line), line


# The same tools where what they build runs, or where they load a config of the repository's: still named
STILL_RUN = [
    ("esbuild {f} --bundle --outfile=o.js && node o.js", ENTRY), ("ncc run {f}", ENTRY), ("bun {f}", ENTRY),
    ("bun run {f}", ENTRY), ("tsx {f}", ENTRY), ("ts-node {f}", ENTRY), ("node {f}", ENTRY),
    ("tsup {f} | bash", ENTRY), ("tsc {f} && node dist/setup.js && bash tools/after.sh", "tools/after.sh"),
    ("rollup -c tools/rollup.config.mjs {f}", "tools/rollup.config.mjs"),
    ("webpack --config tools/webpack.config.js", "tools/webpack.config.js"),
    ("tsup --config=tools/tsup.config.ts {f}", "tools/tsup.config.ts"),
    ("vite build --config tools/vite.config.ts", "tools/vite.config.ts"),
    ("esbuild {f} --bundle && python3 tools/post.py", "tools/post.py"),
    ('eval "$(tsup {f})"', ENTRY), ("tsup {f} > /tmp/x.sh", ENTRY),
]


@pytest.mark.parametrize(("form", "target"), STILL_RUN)
def test_what_a_build_line_runs_or_loads_stays_named(form: str, target: str) -> None:
    line = form.format(f=ENTRY)
    assert target in _named(line), line


@pytest.mark.parametrize(("scripts", "entries"), [
    ({"build": "npm run main && npm run pre", "main": "ncc build src/index.ts --source-map",
      "pre": "ncc build src/setup.ts --source-map -o dist/pre"}, ("src/index.ts", "src/setup.ts")),  # harden-runner
    ({"build": "obuild src/index.ts", "prepack": "pnpm build"}, ("src/index.ts",)),  # ofetch
    ({"build": "tsdown src/index.ts src/presets.ts"}, ("src/index.ts", "src/presets.ts")),  # t3-env
])
def test_a_library_a_workflow_builds_through_package_scripts_stays_the_product(
        scripts: dict[str, str], entries: tuple[str, ...]) -> None:
    files = {entry: "import { helper } from './util'\nexport const x = helper()\n" for entry in entries}
    files["src/util.ts"] = "export const helper = () => 1\n"
    files["scripts/release.ts"] = "console.log(1)\n"
    found = _package_runs({**scripts, "release": "tsx scripts/release.ts"}, files,
                          run="npm ci && npm run build && npm run release")
    assert "package.json" in found
    assert "scripts/release.ts" in found  # a script the job runs stays ci
    assert not found & {*entries, "src/util.ts"}, sorted(found)


def test_a_build_script_a_bundler_compiles_and_node_runs_stays_ci() -> None:
    files = {"scripts/build.ts": "import { x } from './lib'\n", "scripts/lib.ts": "export const x = 1\n"}
    found = _package_runs({"build": "esbuild scripts/build.ts --bundle --outfile=dist/build.js && node dist/build.js"},
                          files)
    assert {"scripts/build.ts", "scripts/lib.ts"} <= found, sorted(found)


# A generator reading a product file as its input (`swag init -g routes.go`): data
@pytest.mark.parametrize("line", ["swag init -g cmd/api/routes.go",
                                  "swag init --generalInfo cmd/api/routes.go -o docs",
                                  "swag init -d ./ -g cmd/api/routes.go --parseDependency",
                                  "swag fmt -g cmd/api/routes.go"])
def test_a_generators_input_names_no_file_ci_runs(line: str) -> None:
    assert "cmd/api/routes.go" not in _named(line)


def test_a_generator_beside_a_run_keeps_the_run() -> None:
    assert "cmd/api/routes.go" in _named("swag init -g cmd/api/routes.go && go run cmd/api/routes.go")


# A program's read call: data (a Rakefile reading a version, a build script reading a template)
READS = [
    ("Rakefile", "VERSION = File.read('lib/acme/version.rb')[/\\d+\\.\\d+/]\ntask :default => :spec\n"),
    ("Rakefile", "version = File.readlines(\"lib/acme/version.rb\").grep(/VERSION/).first\n"),
    ("Rakefile", "spec = IO.read('lib/acme/version.rb')\n"),
    ("tools/release.py", "import re\nv = re.search(r'(\\d+)', open('lib/acme/version.rb').read())\n"),
    ("tools/release.py", "from pathlib import Path\ntext = open(\"lib/acme/version.rb\", encoding='utf-8').read()\n"),
    ("tools/build.js", "const src = fs.readFileSync('lib/acme/version.rb', 'utf8')\n"),
    ("tools/build.js", "const src = await readFile(\"lib/acme/version.rb\", 'utf8')\n"),
]


@pytest.mark.parametrize(("name", "text"), READS)
def test_a_programs_read_call_names_no_file_ci_runs(name: str, text: str) -> None:
    assert "lib/acme/version.rb" not in named_paths(name, text), text


EVALS = [
    ("Rakefile", "instance_eval(File.read('lib/acme/version.rb'))\n"),
    ("Rakefile", "eval File.read('lib/acme/version.rb')\n"),
    ("Rakefile", "load 'lib/acme/version.rb'\n"),
    ("Rakefile", "require_relative 'lib/acme/version.rb'\nVERSION = File.read('VERSION')\n"),
    ("tools/release.py", "exec(open('lib/acme/version.rb').read())\n"),
    ("tools/build.js", "eval(fs.readFileSync('lib/acme/version.rb', 'utf8'))\n"),
    ("tools/build.js", "new Function(readFileSync('lib/acme/version.rb'))()\n"),
    ("tools/release.py", "subprocess.run(['ruby', 'lib/acme/version.rb']); open('x.txt').read()\n"),
]


@pytest.mark.parametrize(("name", "text"), EVALS)
def test_a_read_handed_to_eval_or_a_load_stays_named(name: str, text: str) -> None:
    assert "lib/acme/version.rb" in named_paths(name, text), text


def test_a_rakefiles_read_lib_file_is_not_ci_end_to_end() -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="bundle exec rake"),
             "Rakefile": "VERSION = File.read('lib/acme/version.rb')[/[\\d.]+/]\nload 'tasks/release.rake'\n",
             "lib/acme/version.rb": "require_relative 'helper.rb'\nmodule Acme; VERSION = '1.0'; end\n",
             "lib/acme/helper.rb": "x = 1\n", "tasks/release.rake": "task :release\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert {"Rakefile", "tasks/release.rake"} <= set(runs)
    assert not {"lib/acme/version.rb", "lib/acme/helper.rb"} & set(runs), sorted(runs)


@pytest.mark.parametrize("line", ["black --check --force-exclude {f} .", "black . --force-exclude '{f}'",
                                  "ruff check --force-exclude {f}", "tar --exclude-from {f} -czf out.tgz .",
                                  "tar czf out.tgz --exclude-from={f} ."])
def test_more_exclude_options_name_data(line: str) -> None:
    assert "tools/gen.py" not in _named(line.format(f="tools/gen.py"))


MAGE_BOOT = ('//go:build ignore\n\npackage main\n\nimport (\n\t"os"\n\n\t"github.com/magefile/mage/mage"\n)\n\n'
             "func main() { os.Exit(mage.Main()) }\n")


@pytest.mark.parametrize("run", ["mage build", "mage -v test", "go run mage.go build", "go run ./mage.go -v lint",
                                 "go run mage.go", "mage"])
@pytest.mark.parametrize(("tasks", "tag"), [("magefile.go", "//go:build mage"), ("build.go", "//go:build mage"),
                                            ("ci_tasks.go", "// +build mage"), ("magefiles/release.go", "")])
def test_the_files_mage_runs_are_ci(run: str, tasks: str, tag: str) -> None:
    text = (f"{tag}\n" if tag else "") + "\npackage main\n\nfunc Release() error { return nil }\n"
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=yaml_quoted(run)), "mage.go": MAGE_BOOT,
             tasks: text, "main.go": "package main\n\nfunc main() {}\n", "cmd/tool/build.go": "package main\n",
             "util.go": "// mage build runs this? no: a product file\npackage main\n",
             "linux.go": "//go:build linux\n\npackage main\n", "magefile_test.go": "//go:build mage\npackage main\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict)
    assert tasks in runs, sorted(runs)
    assert not {"main.go", "cmd/tool/build.go", "util.go", "linux.go"} & set(runs), sorted(runs)


def test_a_go_program_that_does_not_import_mage_runs_no_magefile() -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="go run tools/gen.go"),
             "tools/gen.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }\n",
             "build.go": "//go:build mage\n\npackage main\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict) and "build.go" not in runs


@pytest.mark.parametrize("unit", ["ncc build src/a.ts -o dist ", "tsup x.ts && ", "File.read('a.rb') ",
                                  "fs.readFileSync('a.js') ", "swag init -g a.go "])
def test_a_hostile_line_is_read_in_linear_time(unit: str) -> None:
    def read(line: str) -> object:
        return datawords.unrun(datawords.unread(line))

    assert_linear(read, repeated(unit), budget=0.5)


# A shell function that runs its argument, and the words `echo`/`printf` feed to `xargs` a shell runs
FUNCTIONS = [
    'run() {{ bash "$1"; }}\nrun {f}\n',
    'run() {{\n  echo "running $1"\n  bash "$1"\n}}\nrun {f} --fast\n',
    'function step {{\n  "$@"\n}}\nstep {f} all\n',
    'retry() {{ for i in 1 2 3; do "$@" && return 0; sleep 1; done; return 1; }}\nretry {f}\n',
    'with_log() {{ echo "+ $*"; "$@" 2>&1 | tee -a log.txt; }}\nwith_log ./{f}\n',
    'run_py() {{ python3 "$@"; }}\nrun_py {f} --check\n',
    'load_lib() {{ source "$1"; }}\nload_lib {f}\n',
    'function go_step() {{ sudo -E bash "${{1}}"; }}\ngo_step {f}\n',
]
FED = ["echo {f} | xargs bash", "printf '%s\\n' {f} tools/other | xargs -n1 sh", "echo {f} | xargs -I{{}} bash {{}}",
       "echo {f} | xargs -n 1 python3"]


@pytest.mark.parametrize("definition", ["ci/all.sh", ".gitlab-ci.yml"])
@pytest.mark.parametrize("form", FUNCTIONS)
def test_a_shell_function_that_runs_its_argument_names_it(definition: str, form: str) -> None:
    text = form.format(f="tools/gen")
    if definition.endswith(".yml"):
        text = "test:\n  script:\n    - |\n" + "".join(f"      {line}\n" for line in text.splitlines())
    assert "tools/gen" in named_paths(definition, text), text


@pytest.mark.parametrize("line", FED)
def test_words_fed_to_a_shell_through_xargs_are_run(line: str) -> None:
    assert "tools/gen" in _named(line.format(f="tools/gen"))


# look-alikes: a function that only prints or reads its argument, a call of another name, a comment, xargs into a
# reader or a linter
NOT_RUN = [
    'log() {{ echo "$1"; }}\nlog {f}\n', 'check() {{ test -f "$1"; }}\ncheck {f}\n',
    'count() {{ wc -l "$1"; }}\ncount {f}\n', 'run() {{ bash "$1"; }}\necho run {f}\n',
    'run() {{ bash "$1"; }}\n# run {f}\n', 'run() {{ bash "$1"; }}\nrunner {f}\n',
    'say() {{ local f="$1"; echo "$f"; }}\nsay {f}\n',
    "echo {f} | xargs cat\n", "echo {f} | xargs shellcheck\n", "echo {f} | xargs -n1 wc -l\n",
    "# echo {f} | xargs bash\n",
]


@pytest.mark.parametrize("form", NOT_RUN)
def test_a_function_or_xargs_that_runs_nothing_names_nothing(form: str) -> None:
    assert "tools/gen" not in named_paths("ci/all.sh", "#!/bin/bash\n" + form.format(f="tools/gen"))


def test_many_functions_and_calls_are_read_in_linear_time() -> None:
    unit = 'f{n}() { bash "$1"; }\nf{n} tools/x{n}\necho tools/x{n} | xargs -n1 bash\n'

    def read(text: str) -> object:
        return fedruns.function_runs(text), [fedruns.xargs_runs(line) for line in text.splitlines()]

    def text(size: int) -> str:
        out = "".join(unit.replace("{n}", str(n)) for n in range(size // len(unit)))
        return out + 'run() {\n' + "  echo x\n" * (size // 8) + "}\n"  # and a long body

    assert_linear(read, text, budget=0.5)
    assert len(fedruns.function_runs(text(64 * 1024))) == fedruns.MAX_FUNCTIONS  # the bound: the first 32 runners


# The truth: real bash runs the helper through each function form and xargs line the reader names (python3 and sudo
# forms left to the reader's table: the helper is a shell script, and sudo may be absent), and never through a
# look-alike.
def _bash_runs(tmp_path: Path, text: str) -> bool:
    (tmp_path / "tools").mkdir()
    helper = tmp_path / "tools" / "gen"
    helper.write_text("#!/bin/sh\necho ran >> ran.txt\n")
    helper.chmod(0o755)
    subprocess.run(["bash", "-c", text], cwd=tmp_path, capture_output=True, timeout=30, check=False,
                   env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})
    return (tmp_path / "ran.txt").exists()


@each_case("text", [form for form in FUNCTIONS + FED if "python3" not in form and "sudo" not in form])
def test_bash_runs_what_the_function_or_xargs_forms_name(tmp_path: Path, text: str) -> None:
    assert _bash_runs(tmp_path, text.format(f="tools/gen")), text


@each_case("text", NOT_RUN)
def test_bash_runs_nothing_through_the_look_alikes(tmp_path: Path, text: str) -> None:
    assert not _bash_runs(tmp_path, text.format(f="tools/gen")), text
