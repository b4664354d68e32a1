"""What CI runs through a folder, a variable, a module, a loader or a sub-make that the walk did not follow (issue 12,
the cileft63 round).

Six classes, each a way a CI definition runs a repository file the CI walk (ciwalk.ci_runs) did not reach on main:

1. the folder a command runs in: `cd tools/sub && ../pack` and a script's `cd "$(dirname "$0")"` then `. ../lib/log`
   (a leading `..` was dropped), `(cd native; make)` (make before `)` or `;`), CircleCI's `working_directory:
   ~/repo/web`;
2. a path a variable holds: `SCRIPT=ci/build; bash "$SCRIPT"`, an `env:` key or GitLab `variables:` used as `$X` or
   `${{ env.X }}`, a line written to `$GITHUB_ENV`, and a script's `DIR=$(dirname "$0"); . $DIR/../lib` on one line;
3. a Dagger module chosen by `DAGGER_MODULE`;
4. a variable that makes a program load a file: `LD_PRELOAD`, `-javaagent:`/`-agentpath:` (`JAVA_TOOL_OPTIONS`,
   `MAVEN_OPTS`, a `java` command), `ZDOTDIR`, `MAKEFILES`, `ENV`, `RUBYOPT=-rx`, `PERL5OPT=-Mx`;
5. a sub-make: `make -Cdir`, `$(MAKE) -C $@` over `SUBDIRS`, `for d in $(SUBDIRS); do $(MAKE) -C $$d`, `include
   $(MK)/ci.mk` with `MK := build/make`;
6. direnv: `direnv exec DIR …`, `direnv allow`/`export`, the direnv actions: the `.envrc` and what it loads.

Look-alikes keep their bucket: a comment, prose, a remote module, an absolute library, a makefile that enters no
variable folder, an `.envrc` no CI step loads. Hostile inputs are read in-process, linear at 16
and 64 KiB (tests/cpucost.py; 256 KiB until suite round 32).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from citools import named_count
from citools import one_tree_runs as _runs
from cpucost import LARGE, assert_linear, repeated
from gitrepo import two_commits
from incli import tree_classify
from tables import each_case

from gatekeeper.classify import ciruns, daggermods, jobenv, runvars
from gatekeeper.classify.treereads import PastBound

GHA = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n{steps}"
S = "#!/bin/sh\necho hi\n"
DAGGER_GO = '{"name": "ci", "sdk": {"source": "go"}}'


def _gha(steps: str) -> dict[str, str]:
    return {".github/workflows/ci.yml": GHA.format(steps=steps)}


def _env(var: str, value: str, run: str = "npm test") -> dict[str, str]:
    return {".github/workflows/ci.yml": f"on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    env:\n      {var}: "
                                        f"{value}\n    steps:\n      - uses: actions/checkout@v4\n      - run: {run}\n"}


# (case, the repository's files, the files CI now runs); each failed on main (88fff27a) unless marked held
RUN: list[tuple[str, dict[str, str], list[str]]] = [
    # 1. folders
    ("cd then ..", {**_gha("      - run: cd tools/sub && ../pack\n"), "tools/pack": S}, ["tools/pack"]),
    ("script cd own folder, ../", {**_gha("      - run: bash scripts/ci/build.sh\n"), "scripts/lib/log": S,
                                   "scripts/ci/build.sh": '#!/bin/bash\ncd "$(dirname "$0")"\n. ../lib/log\n'},
     ["scripts/lib/log"]),
    ("recipe cd .. (held)", {**_gha("      - run: make -C tools/ci\n"), "tools/ci/Makefile": "all:\n\tcd .. && ./gen\n",
                      "tools/gen": S}, ["tools/gen"]),
    ("subshell make", {**_gha("      - run: (cd native; make)\n"), "native/Makefile": "all:\n\t./gen\n",
                       "native/gen": S}, ["native/Makefile", "native/gen"]),
    ("make before ;", {**_gha("      - run: cd native; make; cd ..\n"), "native/Makefile": "all:\n\ttrue\n"},
     ["native/Makefile"]),
    ("circleci job folder", {".circleci/config.yml": "version: 2.1\njobs:\n  b:\n    docker:\n      - image: cimg/base:"
                             "current\n    working_directory: ~/repo/web\n    steps:\n      - checkout:\n          "
                             "path: ~/repo\n      - run: ./bin/test\n", "web/bin/test": S}, ["web/bin/test"]),
    ("absolute folder", {**_gha("      - run: cd /home/runner/work/app/app/web && ./bin/test\n"), "web/bin/test": S},
     ["web/bin/test"]),
    # 2. a path a variable holds
    ("same line, bash", {**_gha('      - run: SCRIPT=ci/build; bash "$SCRIPT"\n'), "ci/build": S}, ["ci/build"]),
    ("prefix assignment", {**_gha('      - run: FOO=tools/gen python "$FOO"\n'), "tools/gen": S}, ["tools/gen"]),
    ("env key", {".github/workflows/ci.yml": "on: push\nenv:\n  BUILD: tools/build\njobs:\n  t:\n    runs-on: ubuntu-"
                 "latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: bash $BUILD\n",
                 "tools/build": S}, ["tools/build"]),
    ("env expression", {**_env("TOOL", "tools/release", "${{ env.TOOL }} --go"), "tools/release": S},
     ["tools/release"]),
    ("folder word", {**_gha("      - run: DIR=tools; bash $DIR/pack\n"), "tools/pack": S}, ["tools/pack"]),
    ("gitlab variables", {".gitlab-ci.yml": "variables:\n  TESTS: ci/run-tests\nt:\n  script:\n    - $TESTS\n",
                          "ci/run-tests": S}, ["ci/run-tests"]),
    ("GITHUB_ENV line", {**_gha('      - run: echo "GEN=tools/gen" >> $GITHUB_ENV\n      - run: bash $GEN\n'),
                         "tools/gen": S}, ["tools/gen"]),
    ("azure variable", {"azure-pipelines.yml": "variables:\n  tool: build/sign\nsteps:\n- script: $(tool) --all\n",
                        "build/sign": S}, ["build/sign"]),
    ("make variable", {**_gha("      - run: make gen\n"), "Makefile": "GEN := tools/gen\ngen:\n\t$(GEN) --all\n",
                       "tools/gen": S}, ["tools/gen"]),
    ("script, one line", {**_gha("      - run: scripts/ci/a.sh\n"), "scripts/lib/log": S,
                          "scripts/ci/a.sh": '#!/bin/bash\nDIR=$(dirname "$0"); . $DIR/../lib/log\n'},
     ["scripts/lib/log"]),
    ("script, literal", {**_gha("      - run: scripts/ci/a.sh\n"), "tools/sign": S,
                         "scripts/ci/a.sh": '#!/bin/bash\nTOOL=tools/sign && "$TOOL" --now\n'}, ["tools/sign"]),
    # 3. Dagger
    ("DAGGER_MODULE env", {**_env("DAGGER_MODULE", "./flow", "dagger call build"), "flow/dagger.json": DAGGER_GO,
                           "flow/main.go": "package main\n"}, ["flow/dagger.json", "flow/main.go"]),
    ("DAGGER_MODULE export", {**_gha("      - run: |\n          export DAGGER_MODULE=build/dagger\n          dagger "
                                     "call test\n"), "build/dagger/dagger.json": DAGGER_GO,
                              "build/dagger/main.go": "package main\n"}, ["build/dagger/main.go"]),
    ("DAGGER_MODULE gitlab", {".gitlab-ci.yml": "variables:\n  DAGGER_MODULE: flow\nb:\n  script:\n    - dagger call "
                              "build\n", "flow/dagger.json": DAGGER_GO, "flow/main.go": "package main\n"},
     ["flow/main.go"]),
    # 4. loaders
    ("LD_PRELOAD", {**_env("LD_PRELOAD", "./lib/libhook.so"), "lib/libhook.so": "x"}, ["lib/libhook.so"]),
    ("LD_PRELOAD workspace", {**_env("LD_PRELOAD", "${{ github.workspace }}/lib/a.so:lib/b.so"), "lib/a.so": "x",
                              "lib/b.so": "x"}, ["lib/a.so", "lib/b.so"]),
    ("LD_PRELOAD export", {**_gha("      - run: |\n          export LD_PRELOAD=$PWD/lib/libhook.so\n          make "
                                  "test\n"), "lib/libhook.so": "x"}, ["lib/libhook.so"]),
    ("JAVA_TOOL_OPTIONS", {**_env("JAVA_TOOL_OPTIONS", "-javaagent:tools/agent.jar"), "tools/agent.jar": "x"},
     ["tools/agent.jar"]),
    ("MAVEN_OPTS quoted", {**_env("MAVEN_OPTS", '"-Xmx1g -javaagent:tools/agent.jar=debug"'), "tools/agent.jar": "x"},
     ["tools/agent.jar"]),
    ("java command", {**_gha("      - run: java -javaagent:tools/agent.jar -jar app.jar\n"), "tools/agent.jar": "x"},
     ["tools/agent.jar"]),
    ("agentpath", {**_env("JAVA_TOOL_OPTIONS", "-agentpath:native/libprof.so"), "native/libprof.so": "x"},
     ["native/libprof.so"]),
    ("ZDOTDIR", {**_env("ZDOTDIR", "ci/zsh", "zsh -c 'make'"), "ci/zsh/.zshenv": "x", "ci/zsh/.zshrc": "x"},
     ["ci/zsh/.zshenv", "ci/zsh/.zshrc"]),
    ("MAKEFILES", {**_env("MAKEFILES", "ci/extra.mk", "make"), "ci/extra.mk": "x:\n"}, ["ci/extra.mk"]),
    ("ENV", {**_env("ENV", "ci/env.sh", "sh -i -c make"), "ci/env.sh": S}, ["ci/env.sh"]),
    ("RUBYOPT -r", {**_env("RUBYOPT", "-rtools/boot", "rake"), "tools/boot.rb": "x"}, ["tools/boot.rb"]),
    ("PERL5OPT -M", {**_env("PERL5OPT", "-MCI::Hook=quiet\n      PERL5LIB: ci/lib:$PERL5LIB", "prove t"),
                     "ci/lib/CI/Hook.pm": "x"}, ["ci/lib/CI/Hook.pm"]),
    ("PERL5OPT -I", {**_gha("      - run: PERL5OPT='-Itools/perl -MHook' make test\n"), "tools/perl/Hook.pm": "x"},
     ["tools/perl/Hook.pm"]),
    # 5. sub-makes
    ("make -Cdir", {**_gha("      - run: make -Cnative\n"), "native/Makefile": "all:\n\ttrue\n"},
     ["native/Makefile"]),
    ("SUBDIRS rule", {**_gha("      - run: make all\n"), "Makefile": "SUBDIRS := lib app\nall: $(SUBDIRS)\n"
                      "$(SUBDIRS):\n\t$(MAKE) -C $@ $(MAKECMDGOALS)\n.PHONY: all $(SUBDIRS)\n",
                      "lib/Makefile": "all:\n\t./gen\n", "lib/gen": S, "app/Makefile": "all:\n\ttrue\n"},
     ["lib/Makefile", "app/Makefile", "lib/gen"]),
    ("SUBDIRS loop", {**_gha("      - run: make\n"), "Makefile": "SUBDIRS = lib \\\n\tapp\nall:\n\tfor d in "
                      "$(SUBDIRS); do $(MAKE) -C $$d; done\n", "lib/Makefile": "all:\n", "app/Makefile": "all:\n"},
     ["lib/Makefile", "app/Makefile"]),
    ("SUBDIRS wildcard", {**_gha("      - run: make\n"), "Makefile": "SUBDIRS := $(wildcard */.)\nall: $(SUBDIRS)\n"
                          "$(SUBDIRS):\n\t$(MAKE) -C $@\n", "one/Makefile": "all:\n", "two/Makefile": "all:\n"},
     ["one/Makefile", "two/Makefile"]),
    ("include variable", {**_gha("      - run: make ci\n"), "Makefile": "MK := build/make\ninclude $(MK)/ci.mk\n",
                          "build/make/ci.mk": "ci:\n\t./tools/ci\n", "tools/ci": S},
     ["build/make/ci.mk", "tools/ci"]),
    # 6. direnv
    ("direnv exec", {**_gha("      - run: direnv exec . make test\n"), ".envrc": "source_env tools/env.sh\n",
                     "tools/env.sh": S}, [".envrc", "tools/env.sh"]),
    ("direnv exec folder", {**_gha("      - run: direnv exec web npm test\n"), "web/.envrc": "dotenv .env.ci\n"
                            "source_env ../tools/env\n", "web/.env.ci": "X=1\n", "tools/env": S},
     ["web/.envrc", "web/.env.ci", "tools/env"]),
    ("direnv export", {**_gha('      - run: |\n          direnv allow .\n          eval "$(direnv export bash)"\n'),
                       ".envrc": "source ./ci/env.sh\n", "ci/env.sh": S}, [".envrc", "ci/env.sh"]),
    ("direnv action", {**_gha("      - uses: HatsuneMiku3939/direnv-action@v1\n      - run: make\n"),
                       ".envrc": "source_env ci/env\n", "ci/env": S}, [".envrc", "ci/env"]),
]


@each_case(("case", "files", "ran"), RUN, ids=[case for case, _, _ in RUN])
def test_what_ci_runs_this_way_is_reached(case: str, files: dict[str, str], ran: list[str]) -> None:
    found = _runs(files)
    assert isinstance(found, dict), case
    assert [path for path in ran if path not in found] == [], found


# (case, files, the files that must stay unreached)
KEPT: list[tuple[str, dict[str, str], list[str]]] = [
    ("a comment", {**_gha("      # LD_PRELOAD: lib/libhook.so, DAGGER_MODULE: flow, direnv exec . make\n      - run: "
                          "true\n"), "lib/libhook.so": "x", "flow/dagger.json": DAGGER_GO, "flow/main.go": "x",
                   ".envrc": "source_env tools/env.sh\n", "tools/env.sh": S},
     ["lib/libhook.so", "flow/main.go", ".envrc", "tools/env.sh"]),
    ("prose", {"docs/howto.md": "export LD_PRELOAD=lib/libhook.so\ndirenv exec . make\n", "lib/libhook.so": "x",
               ".envrc": "source_env tools/env.sh\n", "tools/env.sh": S}, ["lib/libhook.so", ".envrc"]),
    ("a remote module", {**_env("DAGGER_MODULE", "github.com/acme/ci@v1", "dagger call build"),
                         "flow/dagger.json": DAGGER_GO, "flow/main.go": "x"}, ["flow/main.go"]),
    ("an absolute library", {**_env("LD_PRELOAD", "/usr/lib/libjemalloc.so"), "usr/lib/libjemalloc.so": "x"},
     ["usr/lib/libjemalloc.so"]),
    ("LD_LIBRARY_PATH's other files", {**_env("LD_LIBRARY_PATH", "lib"), "lib/app.py": "x"}, ["lib/app.py"]),
    ("no variable folder", {**_gha("      - run: make\n"), "Makefile": "DIRS := lib app\nall:\n\t$(MAKE) -C docs\n",
                            "lib/Makefile": "all:\n", "docs/Makefile": "all:\n"}, ["lib/Makefile"]),
    ("a value no use reads", {**_gha("      - run: FOO=tools/gen make\n"), "Makefile": "all:\n", "tools/gen": S},
     ["tools/gen"]),
    ("a word, no folder use", {**_gha("      - run: DIR=tools; bash $DIR\n"), "tools": S}, []),
    ("an envrc nothing loads", {**_gha("      - run: make\n"), "Makefile": "all:\n", ".envrc": "source_env "
                                "tools/env.sh\n", "tools/env.sh": S}, [".envrc", "tools/env.sh"]),
    (".. above the root", {**_gha("      - run: cd .. && ./pack\n"), "pack": S, "x/pack": S}, ["x/pack"]),
]


@each_case(("case", "files", "kept"), KEPT, ids=[case for case, _, _ in KEPT])
def test_look_alikes_reach_nothing(case: str, files: dict[str, str], kept: list[str]) -> None:
    found = _runs(files)
    assert isinstance(found, dict), case
    assert [path for path in kept if path in found] == [], case


def _classify(tmp_path: Path, base: dict[str, str], head: dict[str, str]) -> dict[str, dict[str, object]]:
    repo, first, second = two_commits(tmp_path / "r", base, head)
    return tree_classify(repo.root, first, second)


def test_the_gate_calls_them_ci(tmp_path: Path) -> None:
    """The whole classifier, both trees: a preloaded library, a sub-make's Makefile and a `..` helper an agent edits."""
    base = {**_env("LD_PRELOAD", "./lib/libhook.so", "make all"), "lib/libhook.so": "x",
            "Makefile": "SUBDIRS := native\nall: $(SUBDIRS)\n$(SUBDIRS):\n\t$(MAKE) -C $@\n",
            "native/Makefile": "all:\n\tcd sub && ../pack\n", "native/pack": S, "native/free": S}
    files = _classify(tmp_path, base, {"lib/libhook.so": "y", "native/Makefile": "all:\n\tcd sub && ../pack\n\tid\n",
                                       "native/pack": S + "id\n", "native/free": S + "id\n"})
    assert {path: files[path]["bucket"] for path in files} == {
        "lib/libhook.so": "ci", "native/Makefile": "ci", "native/pack": "ci", "native/free": "src"}


# Hostile inputs for each reader this round touches: read in-process, to the end or to the bound, linear at 16 and 64
# KiB (tests/cpucost.py). They were 256 KiB until suite round 32: each names the same at 16, 64 and 256 KiB but two, a
# line whose one copy passes runvars.MAX_OUT (256 KiB) there; the copies past the bound are the table after this one.
@each_case(("path", "text"), [
    (".github/workflows/ci.yml", repeated("a:", "LD_PRELOAD=")),
    (".github/workflows/ci.yml", repeated("-javaagent:", "JAVA_TOOL_OPTIONS=")),
    (".github/workflows/ci.yml", repeated(" ", "ZDOTDIR: ", "x")),
    (".github/workflows/ci.yml", repeated("-M", "PERL5OPT=")),
    (".github/workflows/ci.yml", repeated("-r", "RUBYOPT=")),
    (".github/workflows/ci.yml", repeated("=", "DAGGER_MODULE=")),
    (".github/workflows/ci.yml", repeated("$X", "X=a/b\n")),
    ("Makefile", repeated("d ", "SUBDIRS := ", "\nall:\n\t$(MAKE) -C $@\n")),
    ("Makefile", repeated("for d in a b; do $(MAKE) -C $$d; done; ", "x:\n\t")),
    (".github/workflows/ci.yml", repeated("d ", "direnv exec ")),
    (".envrc", repeated("a", "source_env ")),
    (".github/workflows/ci.yml", repeated("../", "cd ", "x && ./y")),
    ("ci/build.sh", repeated("A=1; ", None, 'B=a/b "' + "$(" * 1_000 + "; . $B/x")),
], ids=lambda value: value if isinstance(value, str) else repr(value(64)[:40]))
def test_hostile_texts_are_read_to_the_end_or_the_bound(path: str, text: Callable[[int], str]) -> None:
    def read(hostile: str) -> None:
        assert named_count(path, hostile) < 20 * len(hostile)  # or the walk closes: every script ci
        assert isinstance(jobenv.loaded(hostile), list)
        assert isinstance(daggermods.named(hostile), list)

    # the slowest at 64 KiB (a line of 32 Ki `$X` rewritten, the `A=1; ` line before 1,000 `$(`) ~0.4 CPU-s
    assert_linear(read, text, budget=3.0)


@each_case(("path", "text"), [
    ("ci/build.sh", "A=" + "a/" * 100 + "\n" + ("${A}/" * 64 + "\n") * 200),
    # the two 256 KiB texts above that closed there, at 64 KiB: a longer value, more values
    (".github/workflows/ci.yml", "X=a/b/c/d/e\n" + "$X" * (LARGE // 2)),
    ("ci/build.sh", "B=c/d; B=e/f; B=g/h; B=i/j; " + "A=1; " * (LARGE // 5) + 'B=a/b "' + "$(" * 1_000 + "; . $B/x"),
], ids=lambda value: value if len(value) < 40 else repr(value[:32]))
def test_hostile_copies_past_the_bound_close_the_walk(path: str, text: str) -> None:
    with pytest.raises(PastBound):
        ciruns.named_in(path, text)
    assert named_count(path, text) == 0  # every script ci
    assert isinstance(jobenv.loaded(text), list)
    assert isinstance(daggermods.named(text), list)


def test_a_large_pipeline_using_a_path_variable_everywhere_is_read_not_closed() -> None:
    """A 200 KiB GitLab file whose every job runs `$SCRIPTS/…` is read whole (a 64 KiB bound would close the walk);
    past the bound, the walk closes (PastBound), never a cut."""
    jobs = "".join(f"job{index}:\n  script:\n    - $SCRIPTS/step-{index} --now\n" for index in range(2_500))
    text = "variables:\n  SCRIPTS: ci/scripts\n" + jobs
    assert len(runvars.expanded(text, runvars.values(text))) - len(text) > 64 * 1024
    scripts, _, _ = ciruns.named_in(".gitlab-ci.yml", text)
    assert {"ci/scripts/step-0", "ci/scripts/step-2499"} <= set(scripts)
    with pytest.raises(PastBound):
        hostile = "X: a/" + "b" * 250 + "\n" + "$X " * 2_000
        runvars.expanded(hostile, runvars.values(hostile))
