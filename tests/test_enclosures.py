"""enclosures.py reads an opener-to-closer alternation as `re` reads it (cost round 42): the same matches as the old
patterns on generated texts over their alphabet and on real workflow lines, in linear time where `re` took the square
of a line of openers."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest
from cpucost import assert_linear, repeated

from gatekeeper.classify import enclosures, pipinstalls, playbookwords, tfrefs
from gatekeeper.classify.enclosures import Enclosed, Enclosures

# The patterns as they were on 19a3564a, each beside the reader that replaced it.
_OLD = [
    (r"\$\{\{.*?\}\}", enclosures.GITHUB_EXPRESSION),
    (r"\$\{\{.*?\}\}|\$\{[^}]*\}|\$\(\([^)]*\)\)|\$\([^)]*\)|\$[A-Za-z_0-9@*#?!-]+|%[A-Za-z_0-9]+%|`[^`]*`",
     pipinstalls._EXPRESSION),
    (r"""[^\s"'{}\[\],;&|<>()`]+|\{\{[^}]*\}\}[^\s"'{}\[\],;&|<>()`]*""", playbookwords._TOKEN),
    (r"(?s)/\*.*?\*/|#[^\n]*", tfrefs._NIX_COMMENT),
]
_ALPHABET = ["$", "{", "}", "(", ")", "`", "%", "a", "-", "/", " ", "\n", "${{", "}}", "${", "$(", "{{", "*", "#", "/*",
             "*/"]
_MIRRORS = Path("/work/.mirror")


def _same(old: str, new: Enclosures, text: str) -> None:
    expected = [(m.span(), m.group()) for m in re.finditer(old, text)]
    assert [(m.span(), m.group()) for m in new.finditer(text)] == expected, text
    assert [(m.span(), m.group()) for m in new._scan(text)] == expected, text  # the scanner, where `re` is cheap too
    assert new.sub("<\\g<0>>", text) == re.sub(old, "<\\g<0>>", text), text
    assert new.sub(lambda m: m.group().upper(), text) == re.sub(old, lambda m: m.group().upper(), text), text


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("old", "new"), _OLD, ids=["github", "pipinstalls", "playbook", "nix"])
def test_generated_texts_match_as_the_old_pattern_matched(old: str, new: Enclosures, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(2_000):
        _same(old, new, "".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(16))))


def test_edge_texts_match_as_the_old_pattern_matched() -> None:
    texts = ["", "$", "${{", "${{}}", "${{ a }}}", "${{ a }\n}}", "${{a\n${{b}}", "$((a)", "$((a))", "$(a", "$()",
             "${a${b}", "`a", "`a`b`", "%a%b%", "$a${{", "${{${{}}", "{{a}}b", "{{a}b}}", "{{{{", "{{}}}}", "}}${{",
             "${{ x }}\n${{", "a\r${{b}}\r", "/*/", "/**/", "/* a\n*/ #b\n/*", "#/*\n*/"]
    for old, new in _OLD:
        for text in texts:
            _same(old, new, text)


def test_an_alternative_is_tried_only_where_its_closer_follows() -> None:
    scan = Enclosures(r"\w+", Enclosed(r"<[^>]*>>", "<", ">", then=">"), Enclosed(r"\[.*?\]", "[", "]", line=True))
    for text in ["a<b>>c", "<a>b>>", "<<>>", "[a\n]b[c]", "x[<a>>]", "<" * 10 + ">>", "[[[" + "]"]:
        _same(r"\w+|<[^>]*>>|\[.*?\]", scan, text)


def _workflow_lines(most: int) -> list[str]:
    """Lines holding `${` or `$(` from the workflows of the label sets' mirrored repositories (the first that have
    them), read with git; none where no mirror is on the machine."""
    lines: list[str] = []
    for mirror in sorted(_MIRRORS.glob("*/repo"))[:200] if _MIRRORS.is_dir() else []:
        listed = subprocess.run(["git", "-C", str(mirror), "ls-tree", "-r", "--name-only", "HEAD",
                                 ".github/workflows/"], capture_output=True, text=True, check=False).stdout.split()
        for name in listed[:4]:
            shown = subprocess.run(["git", "-C", str(mirror), "show", f"HEAD:{name}"], capture_output=True,
                                   text=True, errors="replace", check=False).stdout
            lines += [line for line in shown.splitlines() if "${" in line or "$(" in line or "{{" in line]
        if len(lines) >= most:
            break
    return lines[:most]


def test_real_workflow_lines_match_as_the_old_pattern_matched() -> None:
    lines = _workflow_lines(3_000)
    if not lines:
        pytest.skip("no mirrored repositories on this machine")
    for old, new in _OLD:
        for line in lines:
            _same(old, new, line)
        _same(old, new, "\n".join(lines[:400]))  # a whole file's worth: expressions end in their own lines


@pytest.mark.parametrize("unit", ["${{", "${{ a ", "${", "$(", "$((", "$((a)", "`", "%a", "${{a}", "$${{"])
@pytest.mark.parametrize(("old", "new"), _OLD[:2], ids=["github", "pipinstalls"])
def test_lines_of_openers_cost_linear_time(old: str, new: Enclosures, unit: str) -> None:
    assert_linear(lambda text: list(new.finditer(text)), repeated(unit, "run: "), budget=0.5)


@pytest.mark.parametrize("unit", ["{{", "{{a}", "{{ a "])
def test_a_value_of_jinja_openers_costs_linear_time(unit: str) -> None:
    assert_linear(lambda text: list(playbookwords._TOKEN.finditer(text)), repeated(unit, "src: "), budget=0.5)


@pytest.mark.parametrize("unit", ["/*", "/* a\n", "/*#"])
def test_a_nix_file_of_unclosed_comments_costs_linear_time(unit: str) -> None:
    assert_linear(lambda text: tfrefs.nix_paths("", text), repeated(unit, "{ imports = [ ./a.nix ]; }\n"), budget=0.5)
