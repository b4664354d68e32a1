"""A workflow's install-command reader (gatekeeper/deps/runlines.py) never stalls on a line the change's author chose.

`installs` runs its regular expressions over every line of every workflow a change touches, and a workflow may be
32 MiB on one line. Overlapping repetition in a pattern (`;` then blanks matched by `[;&|(]\\s*` and again by the
`\\s*` after it; `1.1.1…1!` by `(?:\\.\\d+)*` and the `[\\w.+-]*` after it) takes time quadratic in the line: an
8,000-blank line took 2 s, so a 32 MiB one hours. Each hostile line here is generated from the pieces the patterns
look for — a command's lead, a command, a filler repeated to 4 KiB, an end that fails
the match and names a command (a line naming none is passed over before any pattern runs) — and
the reader's work is measured as the CPU time of a child process (`time.process_time`, no wall clock, no sleeps):
per line far below what a quadratic scan of 4 KiB costs (~0.5 s), and linear in the line's length. The child is
forked (`run_isolated`: it starts with the readers imported, and is killed past its time limit, failing the test).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from cpucost import least_cpu

from gatekeeper.deps import hunklines, precommit
from gatekeeper.deps.model import ManifestError
from gatekeeper.deps.runlines import installs
from gatekeeper.deps.toolfiles import parse_makefile
from gatekeeper.policy.isolate import run_isolated

# Where a command starts (runlines._LEAD), the commands it reads, and what a backtracking pattern would chew on.
LEADS = ["", ";", "&&", "|", "$(", "run: ", "run: |", "run: >-", "  - ", "sudo ", "; sudo "]
COMMANDS = ["", "go install ", "go install -v ", "cargo install ", "cargo +nightly install --version ",
            "pip install ", "python3 -m pip install ", "uv tool install ", "npm i -g ", "npx ", "pnpm add ", "bunx "]
FILLERS = [" ", "\t", " \t", ";", "; ", "a", "-a ", "a/", "a.", "1.", "1", "v1.", "@1", "@", "==1", "=", "-",
           "--version ", "--vers=1.", "@a/", "[", "x==1.", "sudo ", "run: ", "- ", "go install a/b", "&& "]
# `install` at the end: a line naming no install command (`install`, `npx`, `add`, …) is passed over before any pattern
ENDS = ["!", "@ install", " npx!"]
# each lead alone, each command alone, and each command after the leads that reach it through blanks or a word
PREFIXES = LEADS + COMMANDS + [lead + command for lead in ("; ", "run: |", "sudo ", "  - ") for command in COMMANDS[1:]]
# 4 KiB lines, and a limit that shrinks with the square of the size: a quadratic pattern costs c * n^2, so a
# limit of 0.5 s at 16 KiB and of 0.5 / 16 s at 4 KiB catch the same ones (c >= ~1.9e-9 s per character
# squared; the patterns this round fixed cost ~3e-8), while a linear scan of 4 KiB (~0.8 ms) stays ~40 times under
# it. 4,779 lines at 16 KiB took 15 CPU-s of every run; the growth from 16 to 64 KiB is the test below.
SIZE = 4 * 1024
WORST = 0.5 / 16
# a line of the hunk readers: 4 KiB and 0.5 / 16 s since suite round 32, as the install reader's above (it was 16 KiB
# and 0.5 s: the same c; their worst linear line now ~4 ms, 2.8 CPU-s -> 0.8 for the 840 lines)
HUNK_WORST = 0.5 / 16


def _read_lines(prefixes: list[str], fillers: list[str], ends: list[str], size: int) -> dict[str, float]:
    worst, total, n = 0.0, 0.0, 0
    for prefix in prefixes:
        for filler in fillers:
            for end in ends:
                line = (prefix + filler * (size // len(filler)))[:size] + end
                spent = least_cpu(partial(installs, ".github/workflows/ci.yml"), line, under=WORST)
                worst, total, n = max(worst, spent), total + spent, n + 1
    return {"worst": worst, "total": total, "lines": n}


def _scale(lead: str, filler: str, end: str) -> list[float]:
    spent = []
    for times in (1, 4):
        body = lead + filler * (16 * 1024 * times) + end
        started = time.process_time()
        for _ in range(5):
            installs(".github/workflows/ci.yml", body)
        spent.append(time.process_time() - started)
    return spent


def test_no_generated_hostile_line_stalls_the_install_reader() -> None:
    found = run_isolated(_read_lines, PREFIXES, FILLERS, ENDS, SIZE, timeout=600)
    assert found["lines"] == len(PREFIXES) * len(FILLERS) * len(ENDS)
    # A linear scan of 4 KiB takes under a millisecond; the quadratic patterns took ~0.5 s per line at this size.
    assert found["worst"] < WORST, found
    assert found["total"] < 30 / 4, found  # all lines together: linear in the size, a quarter of 16 KiB's


def test_the_reader_is_linear_in_a_line_of_blanks_after_a_command_lead() -> None:
    # the shape that was quadratic: a lead then blanks, then no command (16 KiB, then 64 KiB)
    spent = run_isolated(_scale, "; sudo ", " ", "install!", timeout=600)
    small, large = spent
    assert large < max(16 * small, 0.05) / 2, spent  # quadratic would be 16 times; linear is 4


# The hunk line readers of YAML dependency files and the Makefile reader (round 9): the same kind of generated lines,
# through the public readers, each line changed in a one-line hunk side.
def _read_hunk_lines(prefixes: list[str], fillers: list[str], ends: list[str], size: int) -> dict[str, float]:
    readers = [hunklines.precommit_line, hunklines.pubspec_line, hunklines.kustomize_line, precommit.hook_item_line]
    worst, n = 0.0, 0
    for prefix in prefixes:
        for filler in fillers:
            for end in ends:
                line = (prefix + filler * (size // len(filler)))[:size] + end
                worst, n = max(worst, least_cpu(partial(_read_hunk_line, readers), line, under=HUNK_WORST)), n + 1
    return {"worst": worst, "lines": n}


HUNK_PREFIXES = ["", "  - ", "  - rev: ", "  - repo: ", "  name: ", " a: ", " a: x", "  additional_dependencies:",
                 "  additional_dependencies: [", "  image: ", "A := ", "A", "\tdocker run ", "  - name: "]
HUNK_FILLERS = [" ", "\t", "a", "a ", "'", "\"", "x\"", ":", "- ", "# ", "[", "1.", "@1", "=", "\\\\"]
HUNK_ENDS = ["!", "\"", "'x", " x"]


def _read_hunk_line(readers: list[Callable[[list[tuple[str, bool]], int], object]], line: str) -> None:
    for read in readers:
        try:
            read([(line, True)], 0)
        except ManifestError:
            pass
    parse_makefile("Makefile", line.encode())


def test_no_generated_hostile_line_stalls_the_hunk_line_readers() -> None:
    found = run_isolated(_read_hunk_lines, HUNK_PREFIXES, HUNK_FILLERS, HUNK_ENDS, SIZE, timeout=600)
    assert found["lines"] == len(HUNK_PREFIXES) * len(HUNK_FILLERS) * len(HUNK_ENDS)
    # pubspec's `name: value` pattern was cubic in a line of blanks (minutes at 4 KiB); linear is ~4 ms at most
    assert found["worst"] < HUNK_WORST, found
