"""The cileft65 round: one table of command wrappers (wrappers.WRAPPERS) for every reader of a command line, and the
wrappers and shell forms CI runs a repository file through that the walk did not follow (issue 12, issue 13).

- One table: the script a command runs, the task runner's file and pytest's or Nix's files are read behind the same
  wrappers (`sudo -E`, `timeout 600`, `uv run`, `python -m`, `coverage run -m`, `npx`), the three former prefix
  lists of commandlines, toolreads and taskrunners gone.
- A debugger, an emulator or a container with the repository mounted: `gdb --args`, `lldb --`, `valgrind`,
  `qemu-aarch64 -L …`, `docker run -v "$(pwd)":/w -w /w img ./x`, `docker run -v $PWD:/src img /src/x`, `podman run
  --mount type=bind,source=…,target=…`; an image's own program (no repository mount) names nothing.
- A shell `case` arm's command (`build) ./x ;;`), a quoted command before a redirection (`"./x" > log`).
"""

from __future__ import annotations

from citools import BLOCK_DEFINITIONS, RUN_WORKFLOW, named_paths, one_tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import ciforms, ciruns, toolreads, walkpaths, wrappers

DEFINITIONS = [*BLOCK_DEFINITIONS,
               ("ci/test.sh", "#!/usr/bin/env bash\nset -euo pipefail\ncd \"$(dirname \"$0\")/..\"\n{line}\n")]


def _text(path: str, template: str, line: str) -> str:
    del path  # a Jenkinsfile's `sh '''…'''` holds a line's own quotes as they are
    return template.format(line=line)


def _names(path: str, text: str, helper: str) -> bool:
    scripts, _, folders = ciruns.named_in(path, text)
    return any(walkpaths.reaches(pattern, helper)
               for named in scripts for pattern in ciruns.resolved(named, path, folders))


# One table: each reader of a command (a script, a task runner's file, pytest's, Nix's) behind each wrapper
ONE_TABLE_WRAPPERS = ["sudo -E {c}", "sudo -u ci --preserve-env {c}", "timeout 600 {c}", "nice -n 10 {c}",
                      "env -i PATH=/usr/bin {c}", "time {c}", "exec {c}", "uv run {c}", "uv run --frozen {c}",
                      "poetry run {c}", "pipenv run {c}", "hatch run {c}", "xvfb-run -a {c}", "command {c}",
                      "nohup {c}", "stdbuf -oL {c}", "pdm run {c}", "rye run {c}", "conda run -n ci {c}",
                      "timeout -k 10 600 sudo -E {c}"]
ONE_TABLE_COMMANDS = [("tools/gen --all", "tools/gen"), ("make -C tools check", "tools/Makefile"),
                      ("pytest -q tests", "tests/conftest.py"), ("nix-build ci/release.nix", "ci/release.nix"),
                      ("just release", "justfile"), ("python3 -m pytest -x", "tests/conftest.py"),
                      ("tox -e lint", "tox.ini")]


@each_case("wrapper, command, helper", [(w, c, h) for w in ONE_TABLE_WRAPPERS for c, h in ONE_TABLE_COMMANDS])
def test_every_reader_reads_behind_every_wrapper(wrapper: str, command: str, helper: str) -> None:
    line = wrapper.format(c=command)
    missed = [path for path, template in DEFINITIONS[:3] + DEFINITIONS[5:]
              if not _names(path, _text(path, template, line), helper)]
    assert not missed, (line, missed)


# A Python module run as a command, and the package runners of the former prefix lists
MODULE_RUNS = [("python -m pytest tests", "tests/conftest.py"), ("python3.12 -u -m pytest", "tests/conftest.py"),
               ("coverage run -m pytest", "tests/conftest.py"), ("uvx tox -e py", "tox.ini"),
               ("pipx run nox -s tests", "noxfile.py"), ("npx gulp build", "gulpfile.js"),
               ("pnpm exec gulp build", "gulpfile.js"), ("bundle exec rake spec", "Rakefile"),
               ("sudo python3 -m pytest", "tests/conftest.py"), ("py -3 -m pytest", "tests/conftest.py"),
               # a module run inside `$(…)` stays the interpreter's command (Kiwi TCMS's `VERSION=$(python3 -m tcms)`)
               ("VERSION=$(python3 -m tcms)", "tcms/__main__.py"), ("timeout 60 python3 -m tools.gen", "tools/gen.py")]


@each_case(("line", "helper"), MODULE_RUNS)
def test_a_module_or_package_runner_runs_its_tool(line: str, helper: str) -> None:
    assert all(_names(path, _text(path, template, line), helper) for path, template in DEFINITIONS), line


# Debuggers, emulators, profilers: the program they run is the command after their own options
DEBUGGERS = ["gdb --args {c}", "gdb -batch -ex run -ex bt --args {c}", "gdb -q -x ci/gdbinit --args {c}",
             "lldb -- {c}", "lldb --batch -o run -k bt -- {c}", "valgrind {c}",
             "valgrind --leak-check=full --error-exitcode=1 --suppressions=ci/valgrind.supp {c}",
             "qemu-aarch64 -L /usr/aarch64-linux-gnu {c}", "qemu-arm-static {c}", "qemu-riscv64 -cpu rv64 {c}",
             "qemu-ppc64le -L /usr/powerpc64le-linux-gnu -E LD_LIBRARY_PATH=/lib {c}",
             "heaptrack {c}", "rr record {c}", "catchsegv {c}", "sde64 -- {c}"]
# (a command run from the repository's root, the helper it runs)
RUN_FROM_ROOT = [("tools/gen", "tools/gen"), ("./tools/gen --fast", "tools/gen"), ("sh tools/gen", "tools/gen"),
                 ("bash ./tools/gen", "tools/gen"), ("make -C tools test", "tools/Makefile")]


@each_case("wrapper, command, helper", [(w, c, h) for w in DEBUGGERS for c, h in RUN_FROM_ROOT])
def test_a_debugged_or_emulated_program_is_named(wrapper: str, command: str, helper: str) -> None:
    line = wrapper.format(c=command)
    missed = [path for path, template in DEFINITIONS if not _names(path, _text(path, template, line), helper)]
    assert not missed, (line, missed)


# A container with the repository mounted: its command's paths below the mount are the repository's files
CONTAINERS = [
    ('docker run --rm -v "$(pwd)":/w -w /w ubuntu:22.04 {c}', ""),
    ("docker run --rm -v $PWD:/src -w /src alpine:3.19 {c}", ""),
    ("docker run --rm -v ${{PWD}}:/workspace --workdir /workspace ghcr.io/org/builder:1.4 {c}", ""),
    ("docker run --rm -it -e CI=true -v $(pwd):/code -w /code --entrypoint '' node:20 {c}", ""),
    ("docker run --rm --volume=$PWD:/repo:ro --workdir=/repo -u $(id -u):$(id -g) golang:1.22 {c}", ""),
    ("podman run --rm --mount type=bind,source=$(pwd),target=/work -w /work fedora:39 {c}", ""),
    ("docker run --rm -v .:/src -w /src rust:1 {c}", ""),
    ("docker run --rm -v ${{{{ github.workspace }}}}:/github/workspace -w /github/workspace img {c}", ""),
    ("docker run --rm -v $CI_PROJECT_DIR:/builds/app -w /builds/app img {c}", ""),
    ("sudo docker run --privileged --rm -v $PWD:/src -w /src debian:12 {c}", ""),
    ("docker run --rm -v $PWD:/src debian:12 /src/{c}", "/src/"),
    ("docker run --rm -v $(pwd):/opt/app python:3.12 sh /opt/app/{c}", "/opt/app/"),
    ("podman run --rm -v $PWD:/data:Z docker.io/library/bash:5 bash /data/{c}", "/data/"),
]
CONTAINER_COMMANDS = [("tools/gen", "tools/gen"), ("tools/gen --all", "tools/gen"),
                      ("ci/run-tests.sh", "ci/run-tests.sh")]


@each_case("form, prefix, command, helper", [(f, p, c, h) for f, p in CONTAINERS for c, h in CONTAINER_COMMANDS])
def test_a_container_runs_a_mounted_file(form: str, prefix: str, command: str, helper: str) -> None:
    del prefix  # the form writes the container's path
    line = form.format(c=command)
    missed = [path for path, template in DEFINITIONS if not _names(path, _text(path, template, line), helper)]
    assert not missed, (line, missed)


# A subfolder mounted: its files by the container's path
def test_a_mounted_subfolder_maps_to_its_folder() -> None:
    line = "docker run --rm -v $PWD/tools:/t -w /t alpine:3 /t/gen --all"
    assert "tools/gen" in named_paths(".github/workflows/ci.yml", DEFINITIONS[0][1].format(line=line))


# The shell's own forms: a `case` arm's command, a quoted command before a redirection
SHELL_FORMS = [
    'case "$1" in build) {c} ;; esac',
    "case $TARGET in\n  release|all) {c} ;;\nesac",
    "case \"${{MODE:-}}\" in\n  *) {c}\n  ;;\nesac",
    "case $OS in (linux) {c};; esac",
    'case "$1" in "build") {c} >/dev/null ;; esac',
]


def test_a_one_line_case_in_a_pipeline_runs_its_arm() -> None:
    gitlab = "build:\n  script:\n    - case \"$CI_JOB_NAME\" in build) tools/gen ;; esac\n"
    workflow = DEFINITIONS[0][1].format(line="if true; then case $X in *) tools/gen ;; esac; fi")
    for path, line in ((".gitlab-ci.yml", gitlab), (".github/workflows/ci.yml", workflow)):
        assert "tools/gen" in named_paths(path, line), path


@each_case("form, command, helper", [(f, c, h) for f in SHELL_FORMS for c, h in RUN_FROM_ROOT])
def test_a_case_arm_runs_its_command(form: str, command: str, helper: str) -> None:
    text = DEFINITIONS[-1][1].format(line=form.format(c=command))
    assert _names(DEFINITIONS[-1][0], text, helper), form
    assert _names("Makefile", "all:\n\t" + form.format(c=command).replace("\n", " \\\n\t") + "\n", helper), form


QUOTED = [('"./tools/gen" > out.log', "tools/gen"), ("'tools/gen' 2>&1", "tools/gen"),
          ('"tools/gen" --all >> "$LOG" 2>&1', "tools/gen"), ('"$ROOT/tools/gen" > out', None),
          ("exec \"./tools/gen\" 2> >(tee err.log)", "tools/gen"), ('"./tools/gen"', "tools/gen")]


@each_case(("line", "helper"), QUOTED)
def test_a_quoted_command_before_a_redirection_is_named(line: str, helper: str | None) -> None:
    for path, template in DEFINITIONS:
        if helper is not None:
            assert _names(path, _text(path, template, line), helper), (path, line)


# What `git ls-files` lists, piped into a shell that runs each file (as `find`/`ls` were: ciloops.py)
LISTED = [("git ls-files '*.sh' | xargs bash", "ci/deep/x.sh"), ("git ls-files -- '*.sh' | xargs -n1 sh", "x.sh"),
          ("git ls-files 'ci/*.sh' | xargs -n1 bash", "ci/x.sh"), ("git ls-files -z ci | xargs -0 -n1 bash", "ci/y"),
          ("for f in $(git ls-files 'hooks/*.sh'); do bash \"$f\"; done", "hooks/pre.sh"),
          ("git ls-files tools/ | xargs -I{} sh {}", "tools/gen")]


@each_case(("line", "helper"), LISTED)
def test_a_listed_file_a_shell_runs_is_named(line: str, helper: str) -> None:
    for path, template in DEFINITIONS:
        assert _names(path, _text(path, template, line), helper), (path, line)


def test_a_listing_no_shell_runs_names_nothing() -> None:
    for line in ("git ls-files '*.sh' | xargs shellcheck", "git ls-files 'ci/*.sh' | wc -l", "echo git ls-files"):
        assert not _names(".gitlab-ci.yml", DEFINITIONS[1][1].format(line=line), "ci/x.sh"), line


# Look-alikes: no repository file runs
LOOK_ALIKES = [
    "docker run --rm alpine:3 tools/gen", "docker run --rm -v /var/run/docker.sock:/var/run/docker.sock img "
    "/src/tools/gen", "docker run --rm -v cache:/src img /src/tools/gen", "docker pull ghcr.io/org/tools/gen",
    "docker build -t gen -f tools/Dockerfile .", "echo gdb --args tools/gen", "# valgrind tools/gen",
    "gdb -p 1234 -batch -ex bt", "qemu-system-x86_64 -kernel tools/gen -nographic -m 512",
    "docker run --rm -v $PWD:/src img echo /src/tools/gen", "podman volume create tools/gen",
    'echo "case x in a) tools/gen ;; esac"', "docker run -v $PWD/docs:/docs img /src/tools/gen",
]


@each_case("line", LOOK_ALIKES)
def test_a_look_alike_names_no_file(line: str) -> None:
    for path, template in DEFINITIONS:
        assert not _names(path, _text(path, template, line), "tools/gen"), (path, line)


def test_the_table_knows_each_wrapper_once() -> None:
    """One table: every wrapper a reader skips is a row of it (what commandlines and toolreads read come from it)."""
    for name in ("sudo", "exec", "env", "time", "nice", "nohup", "command", "uv", "uvx", "pipx", "npx", "gdb", "lldb",
                 "valgrind", "docker", "podman", "coverage"):
        assert name in wrappers.WRAPPERS, name


HOSTILE = ["docker run -v $PWD:/s ", "-v .:/a ", "gdb --args ", "case x in a) ", "a) ", "qemu-arm -L / ",
           "--mount type=bind,source=.,target=/x ", '"./x" > ', "python -m ", "coverage run -m "]


@each_case("unit", HOSTILE)
def test_a_hostile_line_is_read_in_linear_time(unit: str) -> None:
    def read(line: str) -> object:
        return ciruns.named_in("ci/test.sh", "#!/bin/sh\n" + line + "\n")

    # linear is the ratio bound; the budget guards a constant-factor hang: `python -m ` × 26,000 (256 KiB) cost 1.44
    # CPU-s idle on main 7022fb12, 2.07 in make test's load (budget 3.0); a quarter of that at cpucost's 64 KiB
    assert_linear(read, repeated(unit), budget=0.75)


# Nix: the files a Nix file CI evaluates imports by a path literal (toolreads.nix_imports)
NIX_ENTRIES = [("nix develop --command make test", "flake.nix"), ("nix-shell --run 'make test'", "shell.nix"),
               ("nix-build ci/release.nix", "ci/release.nix"), ("nix build .#tool", "flake.nix")]
NIX_IMPORTS = [("import ./nix/shell.nix {{ inherit pkgs; }}", "nix/shell.nix"),
               ("pkgs.callPackage ./pkgs/tool {{ }}", "pkgs/tool/default.nix"),
               ("callPackage ./z.nix {{}}", "z.nix"), ("imports = [ ./modules/ci.nix ../shared.nix ];", None),
               ("let overlay = import ./nix/overlay.nix; in overlay", "nix/overlay.nix"),
               ("import ./nix", "nix/default.nix")]


@each_case("command, entry, expression, imported", [(c, e, x, i) for c, e in NIX_ENTRIES for x, i in NIX_IMPORTS])
def test_a_nix_file_ci_evaluates_names_its_imports(command: str, entry: str, expression: str,
                                                   imported: str | None) -> None:
    folder = entry.rpartition("/")[0]
    imported = imported or (f"{folder}/modules/ci.nix" if folder else "modules/ci.nix")
    target = f"{folder}/{imported}" if folder and not imported.startswith(folder) else imported
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run=command), "Makefile": "test:\n\techo ok\n",
             entry: "{ pkgs ? import <nixpkgs> {} }:\n# import ./docs/old.nix\n" + expression.format() + "\n",
             target: "{ }: { }\n", "docs/old.nix": "{ }\n", "README.md": "x\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict) and target in runs, (command, expression, sorted(runs) if runs else runs)
    assert "docs/old.nix" not in runs  # a comment's path


def test_a_nix_file_no_ci_evaluates_names_nothing() -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="make test"), "Makefile": "test:\n\techo ok\n",
             "flake.nix": "{ outputs = _: { x = import ./nix/shell.nix; }; }\n", "nix/shell.nix": "{ }\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict) and "nix/shell.nix" not in runs


def test_a_nix_text_of_many_paths_fails_wide_and_linear() -> None:
    assert toolreads.nix_imports("".join(f"import ./m{i}.nix\n" for i in range(300))) == ["./${x}.nix"]
    assert_linear(toolreads.nix_imports, repeated("import ./a.nix "), budget=1.0)
    assert_linear(toolreads.nix_imports, repeated("./"), budget=1.0)


# Gradle: the init scripts a run names (anywhere in the tree), the scripts a build CI runs applies
GRADLE_RUNS = ["./gradlew --init-script tools/ci/init.gradle build", "./gradlew -I tools/ci/init.gradle check",
               "gradle -Itools/ci/init.gradle test", "./gradlew --init-script=tools/ci/init.gradle build",
               "sudo -E ./gradlew --no-daemon -I tools/ci/init.gradle publish"]
GRADLE_APPLIES = ["apply from: 'gradle/publish.gradle'", 'apply from: "$rootDir/gradle/publish.gradle"',
                  "apply from: rootProject.file('gradle/publish.gradle')", 'apply(from = "gradle/publish.gradle")',
                  'apply from: "${rootDir}/gradle/publish.gradle"']


@each_case("run", GRADLE_RUNS)
def test_a_gradle_init_script_ci_names_is_run(run: str) -> None:
    for path, template in DEFINITIONS:
        assert _names(path, _text(path, template, run), "tools/ci/init.gradle"), (path, run)


@each_case("apply", GRADLE_APPLIES)
def test_a_script_the_build_applies_is_run(apply: str) -> None:
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="./gradlew build"), "gradlew": "#!/bin/sh\n",
             "build.gradle": f"plugins {{ id 'java' }}\n{apply}\n// apply from: 'gradle/old.gradle'\n",
             "gradle/publish.gradle": "publishing {}\n", "README.md": "x\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict) and "gradle/publish.gradle" in runs, apply


def test_a_remote_or_unrun_gradle_script_names_nothing() -> None:
    assert toolreads.gradle_applied("apply from: 'https://example.com/x.gradle'\n") == []
    files = {".github/workflows/ci.yml": RUN_WORKFLOW.format(run="make test"), "Makefile": "test:\n\techo\n",
             "build.gradle": "apply from: 'gradle/publish.gradle'\n", "gradle/publish.gradle": "x\n"}
    runs = one_tree_runs(files)
    assert isinstance(runs, dict) and "gradle/publish.gradle" not in runs
    assert_linear(toolreads.gradle_applied, repeated("apply from: '"), budget=1.0)


# A definition a step copies (or feeds) into place: its source is that definition's text
COPIES = [("cp .gitlab-ci.yml.dist .gitlab-ci.yml", ".gitlab-ci.yml.dist"),
          ("cp -f ci/templates/release.yml .github/workflows/release.yml", "ci/templates/release.yml"),
          ("cp ci/templates/release.yml .github/workflows/", "ci/templates/release.yml"),
          ("envsubst < ci/pipeline.yml.tpl > .gitlab-ci.yml", "ci/pipeline.yml.tpl"),
          ("ln -sf ../ci/jenkins/Jenkinsfile.release Jenkinsfile", "ci/jenkins/Jenkinsfile.release"),
          ("install -m 0644 templates/drone.yml.in .drone.yml", "templates/drone.yml.in")]
NOT_COPIES = ["cp .env.example .env", "cp .gitlab-ci.yml backup/gitlab-ci.yml.bak", "cp README.md docs/",
              "mv build/out.yml dist/"]


@each_case(("line", "source"), COPIES)
def test_a_definition_copied_into_place_is_ci(line: str, source: str) -> None:
    for path, template in DEFINITIONS:
        assert _names(path, _text(path, template, line), source), (path, line)


@each_case("line", NOT_COPIES)
def test_a_copy_to_no_definition_names_nothing_new(line: str) -> None:
    source = line.split()[-2]
    for path, template in DEFINITIONS[:2]:
        assert ciforms.copied_definitions(_text(path, template, line)) == [], (path, line, source)


def test_copies_are_read_in_linear_time() -> None:
    assert_linear(ciforms.copied_definitions, repeated("cp a .gitlab-ci.yml "), budget=1.0)
    assert_linear(ciforms.copied_definitions, repeated("< a "), budget=1.0)
