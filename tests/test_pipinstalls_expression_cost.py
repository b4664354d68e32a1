"""A file argument's `${{ … }}` expressions cost linear time (cost round 40's Left: 16 KiB of `${{` with no closing
`}}` cost 0.41 CPU-s in `pipinstalls.path_pattern`, 16 × its 4 KiB cost: every `${{` scanned to the word's end for a
`}}`). The same expressions are still read as a variable part (`*`), and a line's GitHub expressions are still one
word. Cost round 42 adds every CI reader that ran such a pattern (enclosures.py)."""

from __future__ import annotations

import pytest
from cpucost import assert_linear, repeated

from gatekeeper.classify import ciconfigs, ciruns, deployruns, pipinstalls, playbookwords


@pytest.mark.parametrize("unit", ["${{", "${{ a ", "${{x}", "$${{"])
def test_unclosed_expressions_cost_linear_time(unit: str) -> None:
    assert_linear(pipinstalls.path_pattern, repeated(unit, "ci/"), budget=0.5)


@pytest.mark.parametrize("unit", ["${{", "${{ matrix.x "])
def test_a_line_of_unclosed_expressions_costs_linear_time(unit: str) -> None:
    assert_linear(pipinstalls.installed_requirements, repeated(unit, "- run: pip install -r ", "\n"), budget=1.5)


@pytest.mark.parametrize(("value", "pattern"), [
    ("ci/${{ matrix.python }}.txt", "ci/*.txt"),
    ("requirements/${{ inputs.kind }}-${{ matrix.os }}.txt", "requirements/*-*.txt"),
    ("ci/${{ x }}/${VAR}/$(cat f)/req.txt", "ci/*/*/*/req.txt"),
    ("ci/req-${{ a }}}.txt", "ci/req-*}.txt"),
])
def test_expressions_are_still_variable_parts(value: str, pattern: str) -> None:
    assert pipinstalls.path_pattern(value) == pattern


# Cost round 42: every reader that ran an opener-to-closer pattern over text a change writes.
@pytest.mark.parametrize("unit", ["${{", "${{ a ", "${", "$(", "$((", "${{x}"])
def test_ci_readers_on_a_line_of_unclosed_openers_cost_linear_time(unit: str) -> None:
    head, tail = "jobs:\n  a:\n    steps:\n      - run: pip install -r ", "\n"
    assert_linear(ciconfigs.named, repeated(unit, head, tail), budget=1.0)
    assert_linear(deployruns.targets, repeated(unit, head + "kubectl apply -f ", tail), budget=1.0)
    assert_linear(lambda text: ciruns.named(text, strings=False), repeated(unit, head + "bash ", tail), budget=2.0)


@pytest.mark.parametrize("unit", ["{{", "{{ a ", "{{a}"])
def test_a_playbook_value_of_unclosed_jinja_costs_linear_time(unit: str) -> None:
    assert_linear(lambda text: playbookwords.words(text, "site.yml", ""), repeated(unit, "- include_tasks: ", "\n"),
                  budget=1.0)
