"""A Go program CI builds counts as run where a later word runs it, not where a file command only copies, moves, links,
strips or removes it (issue 12, the label93 round; the ninety-first set's class 8 of label91b's report).

quorumcontrol/tupelo's Makefile builds `go build -o tupelo ./signer/` and, in its `install:` target, `cp tupelo
$(FIRSTGOPATH)/bin/`; CI runs `make test` and `make github-prepare`, whose `$(MAKE) $(packr)` has a variable part
(the Makefile is read whole), and the `cp` operand read as a run of `tupelo` made every Go file under `signer/` `ci`
(gobuilds.py; compiledruns.py read `bin/tool` after `go build -o bin/tool` the same way). Real `git` and `--tree`."""

from __future__ import annotations

from pathlib import Path

from citools import LINE_DEFINITIONS, tree_runs, with_line
from cpucost import assert_linear, repeated
from incli import classify_and_gate
from tables import each_case

from gatekeeper.classify import gobuilds
from tests.test_attack48_go_builds import FILES

BUILD = "go build -o bin/tool ./cmd/tool"
# a file command that handles the built program and runs nothing of it
HANDLED = ["cp bin/tool /usr/local/bin/", "mv bin/tool /usr/local/bin/tool", "ln -sf bin/tool /usr/local/bin/tool",
           "install -m 755 bin/tool /usr/local/bin/tool", "strip bin/tool", "chmod +x bin/tool", "rm -f bin/tool",
           "sudo cp bin/tool /usr/bin/", "sha256sum bin/tool > tool.sha256", "tar czf tool.tgz bin/tool",
           "ls -l bin/tool"]
# and then a run of it: still ci
RUN_AFTER = ["cp bin/tool /usr/local/bin/ && tool --check", "chmod +x bin/tool && ./bin/tool",
             "install -m755 bin/tool /usr/bin/ ; tool", "mv bin/tool /usr/bin/tool && tool -v",
             "sudo cp bin/tool /usr/bin/ && sudo tool"]


@each_case("line", HANDLED)
def test_a_copied_program_is_not_run(line: str) -> None:
    assert "cmd/tool/main.go" not in tree_runs(with_line(*LINE_DEFINITIONS[0], f"{BUILD} && {line}", FILES))


@each_case("line", RUN_AFTER)
def test_a_copied_program_run_after_is_run(line: str) -> None:
    assert "cmd/tool/main.go" in tree_runs(with_line(*LINE_DEFINITIONS[0], f"{BUILD} && {line}", FILES))


MAKEFILE = ("packr = signer/packrd/packed-packr.go\ngosources = $(shell find . -type f -name \"*.go\" -print)\n\n"
            "all: tupelo\n\n$(packr):\n\techo packr\n\n"
            "tupelo: $(packr) $(gosources) go.mod go.sum\n\tgo build -o tupelo ./signer/\n\n"
            "test: $(packr) $(gosources) go.mod go.sum\n\tgo test -tags=integration ./...\n\n"
            "install: tupelo\n\tcp tupelo $(FIRSTGOPATH)/bin/\n\n"
            "github-prepare:\n\tVERSION=$(shell echo $(GITHUB_REF) | rev) $(MAKE) $(packr)\n")
WORKFLOW = ("on: release\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v1\n"
            "      - run: scripts/test-suite.sh\n      - run: make github-prepare\n")
TUPELO = {"go.mod": "module 127.0.0.1/q/tupelo\n\ngo 1.14\n", "Makefile": MAKEFILE,
          ".github/workflows/release.yml": WORKFLOW, "scripts/test-suite.sh": "#!/usr/bin/env bash\nmake test\n",
          "signer/main.go": "package main\n", "signer/gossip/node.go": "package gossip\n",
          "signer/metrics/go.mod": "module 127.0.0.1/q/tupelo/signer/metrics\n",
          "signer/metrics/main.go": "package main\n"}


def test_tupelos_makefile_runs_no_signer_file() -> None:
    runs = tree_runs(TUPELO)
    assert not [p for p in runs if p.startswith("signer/")], runs
    # the look-alike: an install target that then runs the program keeps it ci
    ran = MAKEFILE.replace("cp tupelo $(FIRSTGOPATH)/bin/\n", "cp tupelo $(FIRSTGOPATH)/bin/\n\ttupelo version\n")
    assert "signer/main.go" in tree_runs({**TUPELO, "Makefile": ran})


def test_tupelos_shape_through_the_cli(tmp_path: Path) -> None:
    buckets, _ = classify_and_gate(tmp_path, TUPELO, {"signer/gossip/node.go": "package gossip\n\nvar X = 1\n"})
    assert buckets == {"signer/gossip/node.go": "src"}, buckets


@each_case("text", [repeated("go build -o t ./x && cp t /b/\n", "", "t"), repeated("cp t ", "go build -o t ./x\n", "")])
def test_copies_are_read_in_linear_time(text: object) -> None:
    mods = (gobuilds.Module("127.0.0.1/x", ""),)
    assert_linear(lambda source: gobuilds.packages(source, "ci/build.sh", [], mods), text,  # type: ignore[arg-type]
                  budget=0.2)  # 0.048 CPU-s at 64 KiB (load 19)
