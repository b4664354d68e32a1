"""Attack 21: red team 23's named-set and tag-name checks read a name across the whole module, so a custom bundle
that reused a name in two rules (`wanted := {"ci", "iac"}` for buckets in one, `wanted := {"added"}` for statuses in
the next; `some t in f.tags` in one, `t := input.packet.tool; t == "bash"` in another) was refused at load for a typo
it did not have. Each binding is now read in its own rule; a rule of its own (`buckets := {...}` at a line's start)
still reaches every rule, and a misspelt value in the same rule is still refused.
"""

from __future__ import annotations

from tables import each_case
from test_redteam22_value_typos import _issues

NEXT = '\n}\n\ndeny contains "y" if {\n\t'


@each_case("body", [
    'wanted := {"ci", "iac"}\n\tsome f in input.files\n\tf.bucket in wanted' + NEXT
    + 'wanted := {"added", "deleted"}\n\tsome f in input.files\n\tf.status in wanted',
    'some b in ["ci"]\n\tsome f in input.files\n\tf.bucket == b' + NEXT
    + 'some b in ["added"]\n\tsome f in input.files\n\tf.status == b',
    'some f in input.files\n\tsome t in f.tags\n\tt == "needs-context"' + NEXT
    + 't := input.packet.tool\n\tt == "bash"',
])
def test_a_name_reused_in_another_rule_is_that_rule_s(body: str) -> None:
    assert _issues(body) == [], body


@each_case("body", [
    'some f in input.files\n\tf.path != ""\n}\n\nbuckets := {"cii"}\n\ndeny contains "z" if {\n\t'
    'some f in input.files\n\tf.bucket in buckets',
    'wanted := {"ci"}\n\tsome f in input.files\n\tf.path != ""' + NEXT
    + 'wanted := {"cii"}\n\tsome f in input.files\n\t'
    'f.bucket in wanted',
    'some f in input.files\n\tf.path != ""' + NEXT + 'some f in input.files\n\tsome t in f.tags\n\tt == "needs-contxt"',
])
def test_a_misspelt_value_its_rule_reaches_is_still_refused(body: str) -> None:
    assert _issues(body), body
