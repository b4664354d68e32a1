"""Review 66a, a bypass of attack 47's lowering (printfs.py: a `printf` of literal arguments names exactly what it
prints): bash's printf reads `\\xHH`, `\\NNN` (octal), `\\uHHHH` and `\\UHHHHHHHH` in its format, `%b` reads them (and
`\\0NNN`) in its argument and stops all output at `\\c`, but printfs.py left them as written, so `bash "$(printf
'scripts/\\x63heck.sh')"` named no file and an edit to scripts/check.sh was exit 0 on 089857f9.

The class: every escape bash's printf knows, in the format and in a `%b` argument. Real bash is the truth: each
character of the path written as each escape, in the format and through `%b`, prints what bash prints. Look-alikes:
`\\c` in a format is two characters; an unknown escape (`\\q`) stays a backslash and its letter."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess

from citools import one_tree_runs
from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import printfs

PATH = "scripts/check.sh"
FORMS = [lambda c: f"\\x{ord(c):02x}", lambda c: f"\\x{ord(c):x}", lambda c: f"\\{ord(c):o}",
         lambda c: f"\\u{ord(c):04x}", lambda c: f"\\U{ord(c):08x}"]
B_FORMS = [*FORMS, lambda c: f"\\0{ord(c):o}"]


def _calls() -> list[str]:
    """printf's words: the path with one character written as each escape, in the format and through `%b`."""
    out = []
    for at in (0, 8, 9, len(PATH) - 1):
        for form in FORMS:
            out.append(f"'{PATH[:at]}{form(PATH[at])}{PATH[at + 1:]}'")
        for form in B_FORMS:
            out.append(f"'%b' '{PATH[:at]}{form(PATH[at])}{PATH[at + 1:]}'")
    return [*out, "'%b' 'scripts/check.sh\\c' extra", "'%b%s' 'scripts/check.sh\\c' x", "'scripts/check.sh\\c'",
            "'%s\\q' scripts/check.sh", "'%b' 'scripts/\\x63heck.sh\\t'", "'scripts/\\x6'"]


CALLS = _calls()


def test_escapes_print_what_bash_prints() -> None:
    bash = shutil.which("bash")
    assert bash is not None
    script = "\n".join(f"printf {words}; echo" for words in CALLS)
    env = {**os.environ, "LC_ALL": "C.UTF-8"}  # `\\u`'s character in UTF-8, as a CI runner's locale prints it
    done = subprocess.run([bash, "-c", script], capture_output=True, text=True, check=True, env=env)
    wrong = [(words, mine, truth) for words, truth in zip(CALLS, done.stdout.split("\n"), strict=False)
             if shlex.split(mine := printfs.evaluated(f"printf {words}").removeprefix("printf ")) != truth.split()]
    assert not wrong, (len(wrong), len(CALLS), wrong[:4])


@each_case("words", [w for w in CALLS[:-5] if "\\c' x" not in w])
def test_the_escaped_path_is_ci(words: str) -> None:
    run = f"bash \"$(printf {words})\""
    text = "on: [pull_request]\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: " + \
        "'" + run.replace("'", "''") + "'\n"
    runs = one_tree_runs({".github/workflows/ci.yml": text, PATH: "#!/bin/sh\n"})
    assert isinstance(runs, dict) and PATH in runs, run


@each_case("hostile", [repeated("\\x6"), repeated("\\0", "%b '", "'"), repeated("\\u12345")])
def test_a_hostile_format_is_read_in_linear_time(hostile: object) -> None:
    assert callable(hostile)
    assert_linear(lambda text: printfs.evaluated(f"printf '{text}'"), hostile, budget=0.25)
