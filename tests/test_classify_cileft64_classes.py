"""What CI runs that the walk still did not follow (issue 12, the cileft64 round).

Each a way a CI definition runs a repository file the CI walk (ciwalk.ci_runs) did not reach on main (9592e7c):

1. the repository's root on PATH (`echo "$GITHUB_WORKSPACE" >> $GITHUB_PATH`, `PATH=.:$PATH`, `$PWD`, GitLab's
   `$CI_PROJECT_DIR`, Azure's `prependpath`, Jenkins' `PATH+X=${env.WORKSPACE}`, a Makefile's `$(CURDIR)/bin`): a
   bare command name runs a root file of that name;
2. a Makefile's variables: `$$TOOL` (the shell's, in a recipe), `$(CURDIR)`/`$(shell pwd)`/the `MAKEFILE_LIST` idiom
   (the Makefile's own folder), a target's own variable, `+=` lists a recipe's loop runs;
3. what a command lists and then runs: `X=$(ls ci/*.sh)` then a loop over `$X`, `find … | xargs bash`, `find … |
   while read f; do "$f"; done`, a loop over listed words (`for s in ci/a ci/b; do ./$s; done`);
4. Nix: `nix develop`/`nix-shell`/`nix-build`/`nix build` enter the flake.nix, shell.nix or default.nix of their folder
   (or the file named);
5. pytest: the `conftest.py` files it loads, the plugins `-p NAME` (on the command line or in `addopts`) and
   `pytest_plugins` name.

Look-alikes keep their bucket: a comment, an echo, a loop that only reads its files, a tool named in prose. Hostile
inputs are read in-process, linear at 16 and 64 KiB (tests/cpucost.py; 256 KiB until suite round 32: the same read).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from citools import named_count
from citools import one_tree_runs as _runs
from cpucost import assert_linear, repeated
from gitrepo import two_commits
from incli import tree_classify
from tables import each_case

from gatekeeper.classify import cienv, ciloops, ciruns, runvars, toolreads

GHA = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{steps}"
S = "#!/bin/sh\necho hi\n"


def _gha(steps: str, **files: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": GHA.format(steps=steps), **files}


def _make(recipe: str, **files: str) -> dict[str, str]:
    return _gha("      - run: make test\n", Makefile=recipe, **files)


# (case, the repository's files, the file CI now runs); each failed on main 9592e7c unless marked held
RUN: list[tuple[str, dict[str, str], str]] = [
    # 1. the root on PATH: a bare name runs a root file
    ("root to GITHUB_PATH", _gha('      - run: echo "$GITHUB_WORKSPACE" >> "$GITHUB_PATH"\n      - run: mytool --go\n',
                                 mytool=S), "mytool"),
    ("PATH=.:", _gha("      - run: |\n          export PATH=.:$PATH\n          mytool\n", mytool=S), "mytool"),
    ("PATH=$PWD:", _gha('      - run: |\n          export PATH="$PWD:$PATH"\n          cd sub && mytool arg\n',
                        mytool=S), "mytool"),
    ("PATH=$PATH:$(pwd)", _gha('      - run: PATH="$PATH:$(pwd)" mytool\n', mytool=S), "mytool"),
    ("GitLab root", {".gitlab-ci.yml": 'b:\n  script:\n    - export PATH="$CI_PROJECT_DIR:$PATH"\n    - mytool\n',
                     "mytool": S}, "mytool"),
    ("Azure root", {"azure-pipelines.yml": "steps:\n- script: echo '##vso[task.prependpath]$(Build.SourcesDirectory)'\n"
                                           "- script: mytool --x\n", "mytool": S}, "mytool"),
    ("Jenkins root", {"Jenkinsfile": "pipeline {\n  agent any\n  stages {\n    stage('b') {\n      steps {\n"
                                     "        withEnv([\"PATH+ROOT=${env.WORKSPACE}\"]) {\n          sh 'mytool'\n"
                                     "        }\n      }\n    }\n  }\n}\n", "mytool": S}, "mytool"),
    ("CircleCI BASH_ENV root", {".circleci/config.yml": "version: 2.1\njobs:\n  b:\n"
                                "    docker: [{image: cimg/base:2024.01}]\n    steps:\n      - checkout\n"
                                "      - run: echo 'export PATH=$PWD:$PATH' >> $BASH_ENV\n      - run: mytool\n",
                                "mytool": S}, "mytool"),
    ("Makefile CURDIR/bin on PATH", _make("export PATH := $(CURDIR)/bin:$(PATH)\ntest:\n\tmytool\n",
                                          **{"bin/mytool": S}), "bin/mytool"),
    # 2. a Makefile's variables
    ("recipe $$TOOL", _make("test:\n\tTOOL=hack/tool; $$TOOL --check\n", **{"hack/tool": S}), "hack/tool"),
    ("export then $$TOOL", _make("export TOOL := hack/tool\ntest:\n\t$$TOOL --check\n", **{"hack/tool": S}),
     "hack/tool"),
    ("$(CURDIR)", _make("TOOL := $(CURDIR)/hack/tool\ntest:\n\t$(TOOL) --check\n", **{"hack/tool": S}), "hack/tool"),
    ("${CURDIR} in a sub-folder", {**_gha("      - run: make -C tools\n"), "tools/Makefile": "all:\n\t${CURDIR}/gen\n",
                                   "tools/gen": S}, "tools/gen"),
    ("$(shell pwd)", _make("ROOT := $(shell pwd)\ntest:\n\t$(ROOT)/hack/tool\n", **{"hack/tool": S}), "hack/tool"),
    ("MAKEFILE_LIST idiom", _make("HERE := $(dir $(abspath $(lastword $(MAKEFILE_LIST))))\ntest:\n\t$(HERE)hack/tool\n",
                                  **{"hack/tool": S}), "hack/tool"),
    ("target variable", _make("test: TOOL = hack/tool\ntest:\n\t$(TOOL) --go\n", **{"hack/tool": S}), "hack/tool"),
    ("+= list a loop runs", _make("CHECKS := hack/a\nCHECKS += hack/tool\ntest:\n\tfor c in $(CHECKS); do $$c; done\n",
                                  **{"hack/tool": S}), "hack/tool"),
    ("?= (held)", _make("TOOL ?= hack/tool\ntest:\n\t${TOOL} --check\n", **{"hack/tool": S}), "hack/tool"),
    # 3. what a command lists and then runs
    ("X=$(ls glob)", _gha('      - run: |\n          X=$(ls scripts/*.sh)\n          for f in $X; do bash "$f"; done\n',
                          **{"scripts/a.sh": S}), "scripts/a.sh"),
    ("for in $(find)", {".gitlab-ci.yml": "b:\n  script:\n"
                                          "    - for f in $(find ci/hooks -name '*.sh'); do sh $f; done\n",
                        "ci/hooks/a.sh": S}, "ci/hooks/a.sh"),
    ("find | xargs bash", _gha("      - run: find ci/checks -name '*.sh' | xargs -n1 bash\n",
                               **{"ci/checks/a.sh": S}), "ci/checks/a.sh"),
    ("find | while read", _gha('      - run: find tools/checks -type f | while read -r f; do "$f"; done\n',
                               **{"tools/checks/a": S}), "tools/checks/a"),
    ("ls | xargs sh", {".buildkite/pipeline.yml": "steps:\n  - command: ls tools/checks/* | xargs -I{} sh {}\n",
                       "tools/checks/a": S}, "tools/checks/a"),
    ("for over words", _gha("      - run: for s in tools/a tools/b; do ./$s; done\n", **{"tools/b": S}), "tools/b"),
    ("find -exec (held)", _gha("      - run: find tools/checks -type f -exec bash {} \\;\n", **{"tools/checks/a": S}),
     "tools/checks/a"),
    # 4. Nix
    ("nix-shell default.nix", _gha("      - run: nix-shell --run 'make test'\n", **{"default.nix": "{ }\n"}),
     "default.nix"),
    ("nix-build", _gha("      - run: nix-build -A pkg\n", **{"default.nix": "{ }\n"}), "default.nix"),
    ("nix-shell FILE", _gha("      - run: nix-shell ci/env.nix --run make\n", **{"ci/env.nix": "{ }\n"}), "ci/env.nix"),
    ("nix develop flake", _gha("      - run: nix develop ./tools#ci --command make\n",
                               **{"tools/flake.nix": "{ }\n"}), "tools/flake.nix"),
    ("nix build in a folder", _gha("      - run: nix build\n        working-directory: pkgs/app\n",
                                   **{"pkgs/app/default.nix": "{ }\n", "pkgs/app/flake.nix": "{ }\n"}),
     "pkgs/app/flake.nix"),
    # 5. pytest
    ("pytest conftest", _gha("      - run: pytest\n", **{"conftest.py": "", "tests/test_a.py": ""}), "conftest.py"),
    ("python -m pytest deep conftest", _gha("      - run: python -m pytest tests\n",
                                            **{"tests/unit/conftest.py": "", "tests/unit/test_a.py": ""}),
     "tests/unit/conftest.py"),
    ("pytest -p", _gha("      - run: pytest -p tools.plug\n", **{"tools/plug.py": ""}), "tools/plug.py"),
    ("addopts -p", _gha("      - run: pytest\n", **{"pytest.ini": "[pytest]\naddopts = -ra -p tools.plug\n",
                                                   "tools/plug.py": ""}), "tools/plug.py"),
    ("pyproject addopts", {".gitlab-ci.yml": "t:\n  script:\n    - pytest -q\n",
                           "pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-p tools.plug --strict-markers"\n',
                           "tools/plug/__init__.py": ""}, "tools/plug/__init__.py"),
    ("pytest_plugins", _gha("      - run: pytest\n", **{"conftest.py": 'pytest_plugins = ["tools.fixtures", "x.y"]\n',
                                                       "tools/fixtures.py": ""}), "tools/fixtures.py"),
    ("a subshell runs the loop's file", _gha('      - run: for f in ci/*.sh; do ("$f"); done\n', **{"ci/a.sh": S}),
     "ci/a.sh"),
    ("a substitution runs the loop's file", _gha('      - run: for f in ci/*.sh; do out=$("$f"); done\n',
                                                 **{"ci/b.sh": S}), "ci/b.sh"),
    ("tox runs pytest", _gha("      - run: tox -e py\n", **{"tox.ini": "[testenv]\ncommands =\n    pytest {posargs}\n",
                                                           "conftest.py": ""}), "conftest.py"),
]


@each_case(("case", "files", "ran"), RUN, ids=[case for case, _, _ in RUN])
def test_what_ci_runs_this_way_is_reached(case: str, files: dict[str, str], ran: str) -> None:
    found = _runs(files)
    assert isinstance(found, dict), case
    assert ran in found, (case, sorted(found))


LOOK_ALIKES: list[tuple[str, dict[str, str], str]] = [
    ("commented PATH", _gha('      - run: |\n          # export PATH="$PWD/bin:$PATH"\n          mytool\n',
                            **{"bin/mytool": S}), "bin/mytool"),
    ("root on PATH, no command by that name", _gha('      - run: |\n          export PATH="$PWD:$PATH"\n'
                                                   "          make\n", mytool=S), "mytool"),
    ("a root on PATH names no folder's file", _gha('      - run: |\n          export PATH="$PWD:$PATH"\n'
                                                   "          mytool\n", **{"sub/mytool": S}), "sub/mytool"),
    ("echoed root", _gha('      - run: echo "$GITHUB_WORKSPACE is here"\n      - run: mytool\n', mytool=S), "mytool"),
    ("printed variable", _make("TOOL := hack/tool\ntest:\n\t@echo $(TOOL)\n", **{"hack/tool": S}), "hack/tool"),
    ("$$ printed", _make("test:\n\tTOOL=hack/tool; echo $$TOOL\n", **{"hack/tool": S}), "hack/tool"),
    ("a loop reads its files", _gha('      - run: for f in scripts/*.sh; do shellcheck "$f"; done\n',
                                    **{"scripts/a.sh": S}), "scripts/a.sh"),
    ("xargs lints", _gha("      - run: find ci -name '*.sh' | xargs shellcheck\n", **{"ci/a.sh": S}), "ci/a.sh"),
    ("while read prints", _gha('      - run: find ci -type f | while read f; do echo "$f"; done\n', **{"ci/a": S}),
     "ci/a"),
    # bomctl's check-go-headers.sh: `go_files=$(git ls-files '*.go')`, then a loop that reads each file's header and
    # collects the bad ones in a bash array (`fix_files+=("$file")`: an element, no subshell running it)
    ("an array collects the loop's files", _gha('      - run: |\n          for f in ci/*.sh; do\n'
                                                '            bad+=("$f")\n            all=( "$f" )\n'
                                                '            local seen=("$f")\n          done\n', **{"ci/a.sh": S}),
     "ci/a.sh"),
    ("nix in prose", _gha("      - run: echo 'run nix-shell locally'\n", **{"default.nix": "{ }\n"}), "default.nix"),
    ("nix-shell with its shell.nix", _gha("      - run: nix-shell --run make\n",
                                          **{"shell.nix": "{ }\n", "sub/default.nix": "{ }\n"}), "sub/default.nix"),
    ("no pytest", _gha("      - run: npm test\n", **{"package.json": "{}", "conftest.py": ""}), "conftest.py"),
    ("pytest in an echo", _gha("      - run: echo pytest\n", **{"conftest.py": ""}), "conftest.py"),
    ("-p no:cacheprovider", _gha("      - run: pytest -p no:cacheprovider\n", **{"no.py": ""}), "no.py"),
]


@each_case(("case", "files", "kept"), LOOK_ALIKES, ids=[case for case, _, _ in LOOK_ALIKES])
def test_look_alikes_reach_nothing(case: str, files: dict[str, str], kept: str) -> None:
    found = _runs(files)
    assert isinstance(found, dict), case
    assert kept not in found, case


def test_the_gate_calls_them_ci(tmp_path: Path) -> None:
    """The whole classifier, both trees: a root tool on PATH, a `$$TOOL` helper, a plugin, a conftest.py an agent
    edits; a file CI does not run stays what it was."""
    base = {**_gha('      - run: echo "$GITHUB_WORKSPACE" >> "$GITHUB_PATH"\n      - run: mytool\n'
                   "      - run: make test\n      - run: pytest\n"),
            "mytool": S, "Makefile": "test:\n\tT=hack/tool; $$T\n", "hack/tool": S, "hack/free": S,
            "pytest.ini": "[pytest]\naddopts = -p tools.plug\n", "tools/plug.py": "", "tests/conftest.py": ""}
    repo, first, second = two_commits(tmp_path / "r", base, {path: "id\n" for path in
                                                             ("mytool", "hack/tool", "hack/free", "tools/plug.py",
                                                              "tests/conftest.py")})
    files = tree_classify(repo.root, first, second)
    assert {path: files[path]["bucket"] for path in files} == {
        "mytool": "ci", "hack/tool": "ci", "hack/free": "src", "tools/plug.py": "ci", "tests/conftest.py": "ci"}


@each_case(("path", "text"), [
    (".github/workflows/ci.yml", repeated("a\n", 'export PATH="$PWD:$PATH"\n')),
    (".github/workflows/ci.yml", repeated("a", 'export PATH="$PWD:$PATH"\n')),
    (".github/workflows/ci.yml", repeated(".:", "PATH=")),
    ("Makefile", repeated("/a", "X := $(CURDIR)", "\nt:\n\t$$X\n")),
    ("Makefile", repeated("$(dir $(abspath ")),
    ("Makefile", repeated("$$")),
    (".github/workflows/ci.yml", repeated("-x ", "find a ", "| xargs bash")),
    (".github/workflows/ci.yml", repeated("a", "find ", " | while read f; do $f; done")),
    (".github/workflows/ci.yml", repeated("ls ", None, "| xargs sh")),
    (".github/workflows/ci.yml", repeated("a/*", "X=$(ls ", ")\nfor f in $X; do $f; done")),
    (".github/workflows/ci.yml", repeated("a/b ", "for s in ", "; do ./$s; done")),
    (".github/workflows/ci.yml", repeated("a.nix ", "nix-shell ")),
    (".github/workflows/ci.yml", repeated("./a#", "nix develop ")),
    (".github/workflows/ci.yml", repeated("-p a ", "pytest ")),
    ("pytest.ini", repeated("-p ", "[pytest]\naddopts = ")),
    ("conftest.py", repeated("'a',", "pytest_plugins = [")),
], ids=lambda value: value if isinstance(value, str) else repr(value(64)[:40]))
def test_hostile_texts_are_read_to_the_end_or_the_bound(path: str, text: Callable[[int], str]) -> None:
    def read(hostile: str) -> None:
        assert named_count(path, hostile) < 20 * len(hostile)  # or the walk closes: every script ci
        assert isinstance(cienv.path_folders(hostile), list)
        assert isinstance(ciloops.globbed(hostile), list)
        assert isinstance(runvars.values(hostile), dict)
        assert isinstance(toolreads.plugins(path, hostile), list)

    # every text names the same at 16, 64 and 256 KiB and none closes (suite round 32): 64 KiB reads what 256 did, and
    # the ratio catches a quadratic reader; the slowest, the root on PATH before 32 Ki one-word lines, ~0.55 CPU-s
    assert_linear(read, text, budget=4.0)


def test_a_root_on_path_past_the_bound_closes() -> None:
    """More bare command names than a definition may name: the walk closes (every script ci), never a cut."""
    names = "".join(f"          tool{index}\n" for index in range(ciruns.MAX_NAMED + 1))
    files = _gha(f'      - run: |\n          export PATH="$PWD:$PATH"\n{names}', tool0=S)
    assert _runs(files) is False
