"""Classes of false alarms and misses the ninety-first label set found (bench/classify_accuracy/ninetyfirst.tsv,
measured blind first; the label92 round): a CI definition's commented-out steps read as runs (class 6), each with the
look-alikes that must keep their bucket; real `git`, tree and patch modes, and the CLI's `classify --tree`/`gate
--tree`."""

from __future__ import annotations

import json
from pathlib import Path

from cpucost import assert_linear, repeated
from incli import classify_and_gate, run_cli
from tables import each_case

from gatekeeper.classify import nixstrings
from gatekeeper.classify.yamlcomments import uncommented
from tests.gitrepo import GitRepo
from tests.test_classify_context import added_files, patch_files, tree_files
from tests.test_classify_seventyfourth_classes import APPSPEC, ECS_APPSPEC

# CI systems whose definitions are YAML: (path, a job's head, the indentation of its command list's items)
SYSTEMS = {
    "github": (".github/workflows/ci.yml", "on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n",
               "      - run: ", "      "),
    "gitlab": (".gitlab-ci.yml", "build:\n  script:\n", "    - ", "    "),
    "azure": ("azure-pipelines.yml", "steps:\n", "  - script: ", "  "),
    "circleci": (".circleci/config.yml",
                 "version: 2.1\njobs:\n  build:\n    docker:\n      - image: cimg/base:current\n    steps:\n",
                 "      - run: ", "      "),
    "travis": (".travis.yml", "language: minimal\nscript:\n", "  - ", "  "),
    "bitbucket": ("bitbucket-pipelines.yml", "pipelines:\n  default:\n    - step:\n        script:\n",
                  "          - ", "          "),
    "buildkite": (".buildkite/pipeline.yml", "steps:\n", "  - command: ", "  "),
}
# the ways a step is left commented out (each a line or lines, `{item}` the command list's item, `{pad}` its
# indentation, `{cmd}` the command): whole-line comments at any indentation, a commented block scalar's lines, a
# comment after a step, a shell comment line inside a live `run: |`
COMMENTED = [
    "#{item}{cmd}", "{pad}#{item}{cmd}", "{pad}# {cmd}", "{pad}#   {cmd}", "#\t{cmd}", "{pad}  # {cmd}",
    "{pad}#{item}|\n{pad}#     {cmd}", "{item}echo ok # {cmd}", "{item}echo ok #{cmd}",
    "{item}|\n{pad}    echo ok\n{pad}    # {cmd}\n{pad}    #{cmd}",
    "{item}>-\n{pad}    # {cmd}",
]
# look-alikes a run must keep: a live step, a `#` without whitespace before it, a `#` after a quote (maybe a shell's
# quoted text: kept whole), a comment line then a live step, a step after a commented one in the same block scalar
LIVE = [
    "{item}{cmd}", "{item}{cmd} --ref=a#b", "{item}echo \"#\" && {cmd}", "{item}echo 'x' # && {cmd}",
    "{pad}# build first\n{item}{cmd}", "{item}|\n{pad}    # ./scripts/not_this.sh\n{pad}    {cmd}",
    "{item}\"echo a #b && {cmd}\"",
]


def _definition(system: str, dead: list[str], live: list[str]) -> dict[str, str]:
    path, head, item, pad = SYSTEMS[system]
    lines = [form.format(item=item, pad=pad, cmd=f"./scripts/{system}_dead{i}.sh") for i, form in enumerate(dead)]
    lines += [form.format(item=item, pad=pad, cmd=f"./scripts/{system}_live{i}.sh") for i, form in enumerate(live)]
    # a last live step, so the definition never ends on a comment
    files = {path: head + "\n".join(lines) + f"\n{item}echo done\n"}
    files |= {f"scripts/{system}_dead{i}.sh": "echo dead\n" for i in range(len(dead))}
    files |= {f"scripts/{system}_live{i}.sh": "echo live\n" for i in range(len(live))}
    return files


def _all_systems() -> dict[str, str]:
    files: dict[str, str] = {}
    for system in SYSTEMS:
        files |= _definition(system, COMMENTED, LIVE)
    return files


def _expected(files: dict[str, str]) -> dict[str, str]:
    return {path: "ci" if "_live" in path else "src" for path in files if path.startswith("scripts/")}


def test_commented_out_steps_run_nothing_in_any_ci_system(git_repo: GitRepo, tmp_path: Path) -> None:
    files = _all_systems()
    git_repo.write("README.md", "# proj\n")
    git_repo.commit("base")
    for path, text in files.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    want = _expected(files)
    for mode, got in (("tree", tree_files(git_repo)), ("patch", patch_files(git_repo, tmp_path))):
        wrong = {path: (got[path].bucket, got[path].rule) for path, bucket in want.items()
                 if got[path].bucket != bucket}
        assert not wrong, (mode, len(wrong), wrong)


def test_the_codeql_starter_comment_leaves_the_makefile_alone(git_repo: GitRepo, tmp_path: Path) -> None:
    """The CodeQL starter's `#   make bootstrap` (class 6 of the ninety-first set); `make release` live stays a run."""
    workflow = ("on: [push]\njobs:\n  analyze:\n    runs-on: ubuntu-latest\n    steps:\n"
                "    - uses: actions/checkout@v4\n"
                "    # If the Autobuild fails above, remove it and uncomment the following three lines.\n"
                "    #- run: |\n    #   make bootstrap\n    #   make release\n"
                "    #       run: ./scripts/fuzzit.sh\n    - run: echo done\n")
    files = {".github/workflows/codeql.yml": workflow, "Makefile": "bootstrap:\n\t./scripts/boot.sh\n",
             "scripts/boot.sh": "echo\n", "scripts/fuzzit.sh": "echo\n"}
    for path, text in files.items():
        git_repo.write(path, text)
    git_repo.commit("base")
    git_repo.write("scripts/boot.sh", "echo 2\n")
    git_repo.write("scripts/fuzzit.sh", "echo 2\n")
    git_repo.write("Makefile", "bootstrap:\n\t./scripts/boot.sh\n\techo\n")
    git_repo.commit("head")
    got = tree_files(git_repo)
    assert {p: f.bucket for p, f in got.items()} == {"Makefile": "src", "scripts/boot.sh": "src",
                                                     "scripts/fuzzit.sh": "src"}, got
    live = workflow.replace("    #   make bootstrap\n", "    - run: make bootstrap\n")
    git_repo.write(".github/workflows/codeql.yml", live)
    git_repo.commit("live")
    git_repo.write("Makefile", "bootstrap:\n\t./scripts/boot.sh\n\techo 3\n")
    git_repo.commit("again")
    assert tree_files(git_repo)["Makefile"].bucket == "ci"


def test_commented_steps_through_the_cli(tmp_path: Path) -> None:
    """`classify --tree` and `gate --tree` of a real repository: a commented step's script is src, a live one's ci."""
    head = _definition("github", COMMENTED[:3], LIVE[:1])
    base = {"README.md": "# proj\n"}
    buckets, _ = classify_and_gate(tmp_path, base, {**base, **head})
    assert {p: b for p, b in buckets.items() if p.startswith("scripts/")} == _expected(head), buckets


@each_case(("text", "kept"), [
    ("a: 1 # c\n", "a: 1\n"), ("# c\na: 1\n", "\na: 1\n"), ("a: '# x'  # c\n", "a: '# x'\n"),
    ('a: "x \\" # y" # c\n', 'a: "x \\" # y"\n'), ("a: x#y\n", "a: x#y\n"),
    ("a: |\n  # c\n  b # d\n", "a: |\n\n  b # d\n"),
    ("a: \"x\n  # y\"\nb: 1 # c\n", "a: \"x\n  # y\"\nb: 1\n"), ("a: 'it''s # x'\n", "a: 'it''s # x'\n"),
    ("- |\n  # x\nb: 1 # y\n", "- |\n\nb: 1\n"), ("a: echo \"x\" # y\n", "a: echo \"x\" # y\n"),
])
def test_yaml_comments_are_cut_outside_quoted_and_block_scalars(text: str, kept: str) -> None:
    assert uncommented(text) == kept


@each_case("unit", [
    "    # - run: ./x.sh\n", "a: 1 # c\n", "  - run: |\n      # c\n      ./x.sh\n", "a: \"x #\n", " " * 60 + "#",
    "\\" * 40 + "\" #", "'' #", "- - - - a: | #\n", "run: \"echo \\\" # ", "key #key ", " ", "| ", "- ", "#",
])
def test_cutting_comments_costs_linear_time(unit: str) -> None:
    """One line of many units, or many lines: the quoted-value match, the quote closer and the block tracking are each
    one pass (a quote's backslashes are counted back to the quote's start only)."""
    assert_linear(uncommented, repeated(unit, "a: \"", "\"\n"), budget=0.1)
    assert_linear(uncommented, repeated(unit, "- run: # ", "x: |\n"), budget=0.1)


# class 7: a Nix file CI evaluates runs its strings, not its package lists. Each runner, the file it runs, and a
# string that runs it (the live look-alike)
RUNNERS = {"just": ("justfile", "just check"), "make": ("Makefile", "make check"), "rake": ("Rakefile", "rake check"),
           "pytest": ("tests/conftest.py", "pytest -q")}
TASK_FILES = {"justfile": "check:\n\techo\n", "Makefile": "check:\n\techo\n", "Rakefile": "task :check do\nend\n",
              "tests/conftest.py": "import os\n"}
NIX_CHECK = "on: [push]\njobs:\n  c:\n    runs-on: ubuntu-latest\n    steps:\n      - run: nix flake check\n"
PACKAGE_LISTS = [
    "{{ outputs = {{ self, nixpkgs }}: {{ devShells.default = pkgs.mkShell {{\n"
    "  packages = [\n{lines}\n  ];\n}}; }}; }}\n",
    "{{ devShell = pkgs.mkShell {{\n  buildInputs = with pkgs; [\n    cargo\n{lines}\n    go-task\n  ];\n}}; }}\n",
    "{{ devShell = pkgs.mkShell {{\n  nativeBuildInputs = [\n    pkgs.cargo\n{lines}  ]; # {words}\n}}; }}\n",
    "{{ devShell = pkgs.mkShell {{ packages = [ {words} ]; /*\n{lines}\n*/ }}; }}\n",
]


def _nix_repo(git_repo: GitRepo, flake: str) -> dict[str, str]:
    files = {".github/workflows/nix.yml": NIX_CHECK, "flake.nix": flake, **TASK_FILES}
    git_repo.write("README.md", "# proj\n")
    git_repo.commit("base")
    for path, text in files.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    return {path: got.bucket for path, got in tree_files(git_repo).items() if path in TASK_FILES}


@each_case("form", PACKAGE_LISTS)
def test_a_nix_package_list_runs_no_task_file(form: str, git_repo: GitRepo) -> None:
    lines = "\n".join(f"    {runner}" for runner in RUNNERS)
    got = _nix_repo(git_repo, form.format(lines=lines, words=" ".join(RUNNERS)))
    assert got == dict.fromkeys(TASK_FILES, "src"), got


@each_case("form", [
    "{{ devShell = pkgs.mkShell {{\n  packages = [ just ];\n  shellHook = ''\n    {run}\n  '';\n}}; }}\n",
    "{{ checks.x = pkgs.stdenv.mkDerivation {{ checkPhase = \"{run}\"; }}; }}\n",
    "{{ checks.x = pkgs.runCommand \"c\" {{}} ''\n  echo ''${{x}} '''quoted'''\n  {run}\n''; }}\n",
    "{{ x = pkgs.writeShellScriptBin \"ci\" \"cd . && {run}\"; }}\n",
])
def test_a_nix_string_still_runs_its_task_file(form: str, git_repo: GitRepo) -> None:
    """The look-alikes: a shellHook, a phase, a runCommand's script and a wrapper's text are shell."""
    flake = form.format(run=" && ".join(run for _, run in RUNNERS.values()))
    got = _nix_repo(git_repo, flake)
    assert got == dict.fromkeys(TASK_FILES, "ci"), got


def test_a_nix_package_list_through_the_cli(tmp_path: Path) -> None:
    """`classify --tree`/`gate --tree`: the dev shell's `just` leaves the justfile alone; its shellHook's runs it."""
    base = {"README.md": "# proj\n", "justfile": "check:\n\techo\n"}
    listed = "{ devShell = pkgs.mkShell {\n  packages = [\n    just\n  ];\n}; }\n"
    head = {**base, ".github/workflows/nix.yml": NIX_CHECK, "flake.nix": listed, "justfile": "check:\n\techo 2\n"}
    buckets, _ = classify_and_gate(tmp_path / "listed", base, head)
    assert buckets["justfile"] == "src", buckets
    hooked = listed.replace("};", "shellHook = ''\n  just check\n'';\n};")
    buckets, _ = classify_and_gate(tmp_path / "hooked", base, {**head, "flake.nix": hooked})
    assert buckets["justfile"] == "ci", buckets


@each_case("unit", ["''", "'''", "''$", "''\\", "\"", "\\\"", "/*", "*", "#", "just\n", "' ", "${x} "])
def test_reading_a_nix_files_strings_costs_linear_time(unit: str) -> None:
    """Strings left open, escapes, comments left open: one pass (possessive loops, no backtracking)."""
    assert_linear(nixstrings.commands, repeated(unit), budget=0.1)
    assert_linear(nixstrings.commands, repeated(unit, "x = ''", "''; y = \"z\";"), budget=0.1)


# class 9: from a patch, a task file CI runs by task is read for those tasks, as --tree reads it. Each runner: the task
# file, its text over the tasks (`{t}` a task, `{s}` its script), the steps that run `lint` and `unit-test`
TASKED = {
    "make": ("Makefile", "{t}:\n\t./scripts/{s}.sh\n\n", ["make lint", "make unit-test"]),
    "make-two": ("Makefile", "{t}:\n\tbash scripts/{s}.sh\n\n", ["make -k lint unit-test"]),
    "make-and": ("Makefile", ".PHONY: {t}\n{t}:\n\t@scripts/{s}.sh\n\n", ["make lint && make unit-test"]),
    "just": ("justfile", "{t}:\n    ./scripts/{s}.sh\n\n", ["just lint", "just unit-test"]),
}
# a package.json's scripts stay read whole from a patch: a workflow the patch leaves out may run any by name
NPM = ("package.json", None, ["npm run lint", "npm run unit-test"])
TASK_NAMES = {"lint": "lint", "unit-test": "test", "build": "build", "publish": "publish"}


def _tasked_files(runner: str, extra: str = "") -> dict[str, str]:
    task_file, form, steps = NPM if runner == "npm" else TASKED[runner]
    if form is None:
        text = json.dumps({"scripts": {t: f"./scripts/{s}.sh" for t, s in TASK_NAMES.items()}}, indent=2) + "\n"
    else:
        text = "".join(form.format(t=t, s=s) for t, s in TASK_NAMES.items())
    workflow = "on: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n" \
        + "".join(f"      - run: {step}\n" for step in steps) + extra
    return {".github/workflows/ci.yml": workflow, task_file: text,
            **{f"scripts/{s}.sh": f"echo {s}\n" for s in TASK_NAMES.values()}}


@each_case("runner", list(TASKED))
def test_a_patch_reads_a_task_file_for_the_tasks_ci_runs(runner: str, git_repo: GitRepo, tmp_path: Path) -> None:
    files = _tasked_files(runner)
    git_repo.write("README.md", "# proj\n")
    git_repo.commit("base")
    for path, text in files.items():
        git_repo.write(path, text)
    git_repo.commit("head")
    want = {"scripts/lint.sh": "ci", "scripts/test.sh": "ci", "scripts/build.sh": "src", "scripts/publish.sh": "src"}
    for mode, got in (("tree", tree_files(git_repo)), ("patch", patch_files(git_repo, tmp_path))):
        assert {p: got[p].bucket for p in want} == want, (mode, {p: (got[p].bucket, got[p].rule) for p in want})


# (a package.json shown as hunks is no JSON and names nothing, before this round too: in the report's "Left"); npm
# "added": its scripts are read whole from a patch
@each_case(("runner", "shown"), [(runner, shown) for runner in ("make", "just", "npm")
                                 for shown in ("definition", "task file", "whole", "added")
                                 if (runner, shown) != ("npm", "task file") and (shown != "added" or runner == "npm")])
def test_a_patch_reads_the_whole_task_file_where_it_cannot_see_the_tasks(runner: str, shown: str, git_repo: GitRepo,
                                                                         tmp_path: Path) -> None:
    """Fail closed: a definition shown as hunks may run other tasks out of sight; a task file shown as hunks may hide
    where a task starts; a step naming the file whole (`cat`) reads it whole."""
    task_file = (NPM if runner == "npm" else TASKED[runner])[0]
    files = _tasked_files(runner, f"      - run: sh ./{task_file}\n" if shown == "whole" else "")
    git_repo.write("README.md", "# proj\n")
    if shown not in ("whole", "added"):  # the base holds the file shown as hunks, with room to leave parts out
        first = files[".github/workflows/ci.yml" if shown == "definition" else task_file]
        git_repo.write(".github/workflows/ci.yml" if shown == "definition" else task_file, first)
    git_repo.commit("base")
    for path, text in files.items():
        git_repo.write(path, text)
    edited = ".github/workflows/ci.yml" if shown == "definition" else task_file
    if shown not in ("whole", "added"):
        git_repo.write(edited, files[edited].replace("lint", "lint", 1) + ("\n" * 20) + "# edited\n"
                       if edited.endswith(".yml") else _edited(runner, files[edited]))
    git_repo.commit("head")
    got = patch_files(git_repo, tmp_path)
    buckets = {p: got[p].bucket for p in ("scripts/build.sh", "scripts/publish.sh")}
    assert buckets == {"scripts/build.sh": "ci", "scripts/publish.sh": "ci"}, (buckets, got[edited].tags)


def _edited(runner: str, text: str) -> str:
    """The task file with a change far from its tasks' heads, so its hunk shows one task's body alone."""
    if runner == "npm":
        return text.replace("./scripts/publish.sh", "./scripts/publish.sh --ci")
    return "# header\n" * 12 + text.replace("scripts/publish.sh", "scripts/publish.sh --ci")


def test_a_patch_reads_the_tasks_ci_runs_through_the_cli(tmp_path: Path) -> None:
    """`classify`/`gate --tree` of the same repository, and `classify PATCH` agree: build.sh and publish.sh stay src."""
    head = _tasked_files("make")
    base = {"README.md": "# proj\n"}
    buckets, _ = classify_and_gate(tmp_path, base, {**base, **head})
    assert (buckets["scripts/build.sh"], buckets["scripts/lint.sh"]) == ("src", "ci"), buckets
    patch = tmp_path / "change.diff"
    patch.write_bytes(GitRepo(tmp_path).git("diff", "--binary", "HEAD~1", "HEAD"))
    done = run_cli(["classify", patch, "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    patched = {f["path"]: f["bucket"] for f in json.loads(str(done.stdout))["files"]}
    assert (patched["scripts/build.sh"], patched["scripts/lint.sh"]) == ("src", "ci"), patched


# class 4: from a patch that holds the appspec, the scripts its CodeDeploy hooks name are iac, as with --tree
HOOKED = ("codedeploy-prepare.sh", "scripts/setup app.sh", "scripts/start_server", "scripts/warm.sh",
          "scripts/validate.py", "bundle/hooks/after.sh")
NOT_HOOKED = ("outside.sh", "scripts/other.sh", "hooks/after.sh", "ecs/LambdaFunctionToValidateBeforeInstall",
              "scripts/place.sh")


def _codedeploy_files() -> dict[str, str]:
    script = "#!/bin/sh\necho\n"
    return {"appspec.yml": APPSPEC, **dict.fromkeys(HOOKED, script), **dict.fromkeys(NOT_HOOKED, script),
            "scripts/validate.py": "print('ok')\n",
            "bundle/appspec.yaml": "version: 0.0\nos: linux\nhooks:\n  AfterInstall:\n    - location: hooks/after.sh\n",
            "ecs/appspec.yml": ECS_APPSPEC, "config/places.yml": "hooks:\n  - location: scripts/place.sh\n"}


@each_case("shown", ["added", "hunk"])
def test_a_patch_holding_the_appspec_makes_its_hooks_iac(shown: str, git_repo: GitRepo, tmp_path: Path) -> None:
    """The appspec added whole, or edited so that its hunk shows the `location:` lines and not the `hooks:` key."""
    files = _codedeploy_files()
    git_repo.write("README.md", "# proj\n")
    if shown == "hunk":
        git_repo.write("appspec.yml", "version: 0.0\nos: linux\n" + "files:\n  - source: /\n    destination: /srv\n"
                       + "# padding\n" * 12 + "hooks:\n")
        git_repo.write("bundle/appspec.yaml", "version: 0.0\nos: linux\n" + "# padding\n" * 12 + "hooks:\n")
    git_repo.commit("base")
    for path, text in files.items():
        git_repo.write(path, text if shown == "added" or "appspec" not in path or path.startswith("ecs/")
                       else git_repo.root.joinpath(path).read_text() + text[text.index("hooks:\n") + 7:])
    git_repo.commit("head")
    for mode, got in (("tree", tree_files(git_repo)), ("patch", patch_files(git_repo, tmp_path))):
        assert {p: got[p].rule for p in HOOKED} == dict.fromkeys(HOOKED, "iac.context.deploy-hook"), \
            (mode, {p: got[p].rule for p in HOOKED})
        assert {p: got[p].bucket for p in NOT_HOOKED} == dict.fromkeys(NOT_HOOKED, "src"), mode


def test_a_patch_without_the_appspec_leaves_its_hooks_alone(git_repo: GitRepo, tmp_path: Path) -> None:
    """The patch cannot see an appspec it does not hold: the hook stays src there (tree mode: iac)."""
    files = _codedeploy_files()
    for path, text in files.items():
        git_repo.write(path, text)
    git_repo.commit("base")
    git_repo.write("scripts/warm.sh", "#!/bin/sh\necho 2\n")
    git_repo.commit("head")
    assert tree_files(git_repo)["scripts/warm.sh"].bucket == "iac"
    assert patch_files(git_repo, tmp_path)["scripts/warm.sh"].bucket == "src"


def test_codedeploy_hooks_through_the_cli(tmp_path: Path) -> None:
    """`classify --tree`/`gate --tree`, and `classify PATCH` of the same commits: the hook is iac, a look-alike src."""
    base = {"README.md": "# proj\n"}
    buckets, _ = classify_and_gate(tmp_path, base, {**base, **_codedeploy_files()})
    assert (buckets["scripts/warm.sh"], buckets["scripts/other.sh"]) == ("iac", "src"), buckets
    patch = tmp_path / "change.diff"
    patch.write_bytes(GitRepo(tmp_path).git("diff", "--binary", "HEAD~1", "HEAD"))
    done = run_cli(["classify", patch, "--format", "json"], text=True)
    assert done.returncode == 0, done.stderr
    patched = {f["path"]: f["bucket"] for f in json.loads(str(done.stdout))["files"]}
    assert (patched["scripts/warm.sh"], patched["scripts/other.sh"]) == ("iac", "src"), patched


def test_a_compose_services_paths_survive_the_comment_cut(git_repo: GitRepo) -> None:
    """composeruns.localized adds `#` lines naming a mounted service's host paths after the comments are cut: the
    ninetieth set's full-stack-fastapi-template (`docker compose exec -T backend bash /app/scripts/lint.sh` with
    `./backend/:/app` mounted) stays ci, a commented-out exec of another script does not run it."""
    workflow = ("on: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      # a comment\n"
                "      - run: docker compose up -d\n"
                "      - run: docker compose exec -T backend bash /app/scripts/lint.sh\n"
                "      # - run: docker compose exec -T backend bash /app/scripts/old.sh\n")
    compose = "services:\n  backend:\n    # the code, live\n    volumes:\n      - ./backend/:/app\n    image: python\n"
    files = added_files(git_repo, {".github/workflows/test.yml": workflow, "docker-compose.yml": compose,
                                   "backend/scripts/lint.sh": "echo\n", "backend/scripts/old.sh": "echo\n"})
    assert (files["backend/scripts/lint.sh"].bucket, files["backend/scripts/old.sh"].bucket) == ("ci", "src"), files
