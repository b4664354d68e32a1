"""This stop's line readers on hostile text, CPU seconds (load cannot flake them), the least of three, the collector
off; a quadratic reading costs 16 times for 4 times the text, a linear one ~4.

- The run-control tokenizer (bazelrc.py, docs review 54's fix): quotes left open, escapes, continuations and comment
  marks over the 64 KiB it reads before a file is `ci` unread (2-42 ms at 64 KiB).
- The readers of the lines below a YAML key (a playbook's includes and roles: playbookwords.py since red team 39,
  playbookreads.py; a Zuul job's run keys;
  GitLab includes; a helmfile's keys, cireaches.py): each listed `text[end:].splitlines()` again for every key, so a
  playbook of `roles:` lines cost 16 CPU-s at 256 KiB (and ~4 minutes at the 1 MiB read) on `17f70ab`; they now read
  one line at a time (ansible.lines_from), 11-48 ms at 256 KiB.
"""

from __future__ import annotations

from collections.abc import Callable

from cpucost import assert_linear, repeated
from tables import each_case

from gatekeeper.classify import cireaches, gitlabincludes, playbookreads, playbookwords, zuuljobs
from gatekeeper.classify.bazelrc import rc_lines

RC_SHAPES = {"double quotes": '"', "single quotes": "'", "mixed quotes and escapes": "\"'\\",
             "continuations": "\\\n", "CRLF continuations": "\\\r\n", "escapes": "\\a",
             "open quoted options": 'build "--x=a ', "comment marks": "#'\"", "config names": "build:a.b/c+d "}


def _playbook(text: str) -> object:
    return playbookwords.words(text, "site.yml", ""), playbookreads._role_names(text)


KEY_READERS: dict[str, tuple[Callable[[str], object], str]] = {
    "playbook include keys": (_playbook, "include_tasks:\n"),
    "playbook include lists": (_playbook, "include_tasks:\n  - x\n  - y\n"),
    "playbook roles keys": (_playbook, "roles:\n"),
    "playbook role dependencies": (_playbook, "dependencies:\n  - { role: a\n"),
    "zuul run keys": (zuuljobs._values, "run:\n"),
    "zuul run lists": (zuuljobs._values, "- run:\n    - a.yaml\n"),
    "gitlab include keys": (gitlabincludes._by_lines, "include:\n"),
    "helmfile keys": (cireaches._helmfile_words, "values:\n"),
    "helmfile lists": (cireaches._helmfile_words, "- bases:\n  - a.yaml\n"),
}




@each_case("unit", list(RC_SHAPES.values()), ids=list(RC_SHAPES))
def test_a_hostile_run_control_file_is_read_in_linear_time(unit: str) -> None:
    assert_linear(rc_lines, repeated(unit), budget=1.0)


@each_case(("read", "unit"), list(KEY_READERS.values()), ids=list(KEY_READERS))
def test_keys_over_hostile_lines_are_read_in_linear_time(read: Callable[[str], object], unit: str) -> None:
    # 0.5 CPU-s: Zuul's keys cost 0.19-0.31 at 64 KiB on the restarted VM (up to 1.01 at 256 KiB: linear); the bound
    # that catches a quadratic reading is assert_linear's, 8 times the small text's
    assert_linear(read, repeated(unit), budget=1.0)
