"""Test data by content: what a test-data folder holds is `src` unless it shows CI or infrastructure (issue 12 item 6).

The test-data rules (principle 1) may lower `deps` to `src` (a Cargo.toml in a test's expected output), never `ci` or
`iac`: the path tier lets a later ci or iac rule decide (ruleset.TEST_DATA), and this reads the content of the candidate
files (YAML, JSON, no extension, Dockerfiles, ...) with the patterns of tier 3 and, as the catch-all, whole as YAML up
to FULL_READ: a Kubernetes object in `testdata/` (in flow style or with merged anchors too: attack 31), a CloudFormation
template in `tests/fixtures/`, a playbook of an ansible-test target, a workflow kept as a test's input are `ci`/`iac` as
anywhere else. Not the catch-all's "longer than read" rule: a longer fixture stays test data. Markers still do not reach
into test data (a chart kept as a fixture: its templates raise by their own content), and a patch that does not show the
content adds no `needs-context` (a test's data is not deployed unless CI names it: deployruns.py).
"""

from __future__ import annotations

from collections.abc import Callable

from gatekeeper.classify.contexttypes import Context
from gatekeeper.classify.ruleset import TEST_DATA, RuleSet
from gatekeeper.classify.sniff import is_candidate, sniff
from gatekeeper.model import ClassifiedFile

Raise = Callable[[ClassifiedFile, str, str, str, str], ClassifiedFile]


def unlowered(item: ClassifiedFile, rules: RuleSet, context: Context, raise_: Raise) -> ClassifiedFile:
    """`item` (a test-data rule's file) raised to ci or iac by the content signals of any side it has."""
    change = item.change
    if not item.rule.startswith(TEST_DATA) or change.binary and context.kind != "tree" \
            or not any(map(is_candidate, change.sides())):
        return item
    for shown in context.content(change):
        signal = sniff(shown.path, shown.data, rules.context, as_yaml=True)  # flow style, anchors (attack 31)
        if signal is not None and signal.bucket in ("ci", "iac"):
            item = raise_(item, signal.bucket, signal.rule, "content",
                          f"{shown.path}: {signal.evidence} (test data never lowers {signal.bucket})")
    return item
