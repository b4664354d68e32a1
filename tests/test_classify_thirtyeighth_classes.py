"""Classes of misses the thirty-eighth label set showed (bench/classify_accuracy/thirtyeighth.tsv), one test each.

The first is no miss of a label but of the gate itself: techno-tim/launchpad's `authserver.conf` (an INI file with
CRLF line ends and a long block of comment lines) held `gatekeeper classify --tree` for more than 600 s. Every
pattern that skipped comment or blank lines as `(?:#[^\\n]*)?\\r?\\n` let a CRLF line end match two ways (the `\\r` in
the comment or in `\\r?`), so a run of n such lines that failed to lead to a match was tried 2**n ways.
"""

from __future__ import annotations

import random
import re
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from gatekeeper.classify import ansible, platformshapes, sniff

# The patterns as they were before the fix, to compare the fixed ones with where backtracking is cheap (few lines).
_OLD_INVENTORY_HOSTS = re.compile(
    r"^\[[A-Za-z0-9_.-]+\][ \t]*\r?\n(?:[ \t]*(?:[#;][^\n]*)?\r?\n)*"
    r"[A-Za-z0-9][A-Za-z0-9_.:-]*(?<!:)"
    r"(?:\[[0-9a-z:]+\][A-Za-z0-9_.-]*)?(?:[ \t]+[A-Za-z_][A-Za-z0-9_]*=\S*[^\s:])*[ \t]*\r?$", re.MULTILINE)
_OLD_COMMENT = re.compile(rb"\A(?:[ \t]*(?:(?:#|//)[^\n]*)?\r?\n)*[ \t]*(?:(?:#|//)[^\n]*)?\Z")
_OLD_TALOS = re.compile(
    r"^machine:[ \t]*\r?\n(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]+(?:install|kubelet)[ \t]*:", re.MULTILINE)


@contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    """Fail (rather than hang the suite) when the block runs longer than `seconds`."""
    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"took more than {seconds} s")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _comment_block(lines: int, mark: str, end: str) -> str:
    return "".join(f"{mark} setting {i}: what it does, written as the server's sample does{end}" for i in range(lines))


BOMBS: list[tuple[str, Callable[[], object]]] = [
    # an INI file of a game server: a [section], then CRLF comment lines, then `LogsDir = ""` (no inventory host)
    ("ini-inventory", lambda: ansible.ansible(
        "docker/wow-auth/etc/authserver.conf",
        "[authserver]\r\n\r\n" + _comment_block(60, "#", "\r\n") + 'LogsDir = ""\r\n')),
    ("ini-inventory-semicolons", lambda: ansible.ansible(
        "conf/app.ini", "[main]\r\n" + _comment_block(60, ";", "\r\n") + "key = value\r\n")),
    # a window of comment lines that ends in code: not only comments
    ("only-comments", lambda: sniff.only_comments(
        (_comment_block(60, "//", "\r\n") + "int main(void) { return 0; }\r\n").encode())),
    # a `machine:` key (not Talos') followed by CRLF comments and an unindented line
    ("talos-machine", lambda: platformshapes.platform_shape(
        "machine.yaml", "machine:\r\n" + _comment_block(60, "#", "\r\n") + "name: build-host\r\n")),
    ("buildkite-plugin", lambda: platformshapes.platform_shape(
        "plugin.yml", "name: x\r\nconfiguration:\r\n" + _comment_block(60, "#", "\r\n") + "other: 1\r\n")),
    # reckoner's bounded look-ahead: lines that start with long runs of blanks
    ("reckoner", lambda: platformshapes.platform_shape(
        "course.yml", "charts:\nminimum_versions:\n" + ("\t" * 3000 + "x\n") * 8 + "y: 1\n")),
]


@pytest.mark.parametrize("run", [run for _, run in BOMBS], ids=[name for name, _ in BOMBS])
def test_comment_runs_with_crlf_line_ends_are_read_in_linear_time(run: Callable[[], object]) -> None:
    with _deadline(5):
        run()


def _variants(seed: str, count: int) -> Iterator[str]:
    """Short texts of headers, comment, blank and CR-only lines in every line-end style, and host-like lines."""
    rnd = random.Random(seed)
    pieces = ["# c", "; c", "#", "  # c\r", "", "  ", "\r", "host1", "host1 a=b", "host1:", "db[01:02].x", "k = v",
              "machine:", "  install:", "  kubelet:", "//x"]
    for _ in range(count):
        lines = [rnd.choice(["[group]", "machine:", "#x"])] + [rnd.choice(pieces) for _ in range(rnd.randint(0, 6))]
        yield "".join(line + rnd.choice(["\n", "\r\n", "\r\r\n"]) for line in lines)


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_the_fixed_patterns_match_what_the_old_ones_matched(seed: str) -> None:
    for text in _variants(seed, 400):
        old = _OLD_INVENTORY_HOSTS.search(text)
        new = ansible._INVENTORY_HOSTS.search(text)
        assert (old and old.span()) == (new and new.span()), text
        assert bool(_OLD_COMMENT.match(text.encode())) == sniff.only_comments(text.encode()), text
        assert (_OLD_TALOS.search(text) is None) == (platformshapes._TALOS_MACHINE.search(text) is None), text
