"""`bazelrc.rc_lines(text, commands)`: the lines of those commands, split as the whole reading splits them (suite round
32: a run-control reading of a file not named `*bazelrc*`, any Dockerfile, splits only those lines' words).

The filter is the whole reading's lines whose command (lower-cased) is one of `commands`, over generated texts of
every spelling the reader knows: quotes, escapes, continuations (LF and CR LF, inside a command's name too), comments,
configs, Unicode blanks and blank lines.
"""

from __future__ import annotations

import random

from gatekeeper.classify.bazelrc import rc_lines
from gatekeeper.classify.platformshapes import _BAZEL_COMMANDS

PIECES = ["build", "Build", "b\\\nuild", "b\\\r\nuild", '"build"', "'te'st", "test:ci", "common", "startup", "# c",
          "#", " ", "\t", "\n", "\r\n", "\\", "\\\n", "--x=1", "-", "\u00a0", "\u2003", "\x1c", "\x85", "\v", "\f",
          "import", "a#b", '"', "'", "x", "\u2028"]


def test_the_lines_of_some_commands_are_the_whole_readings_lines_of_them() -> None:
    rng = random.Random(32)
    texts = ["", "\n\n", " \t\n", "build --x=1\nfoo --y\n\n  \nb\\\nuild --z\n"]
    texts += ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12))) for _ in range(3_000)]
    kept = 0
    for text in texts:
        every = rc_lines(text)
        some = rc_lines(text, _BAZEL_COMMANDS)
        assert some == [line for line in every if line.command.lower() in _BAZEL_COMMANDS], repr(text)
        kept += len(some)
    assert kept > 500  # the texts hold such lines, not only others


def test_a_blank_line_holds_no_line() -> None:
    # str.isspace is re's \s: a line of Unicode blanks is no line, as the whole reading found none in it
    assert rc_lines(" \t\u00a0\u2003\x1c\n\v\f\x85\n") == []
    assert [line.command for line in rc_lines("\u00a0build --x\n")] == ["build"]
