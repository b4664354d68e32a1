"""Content sniffing never stalls on text the change's author chose: every signal over hostile 64 KiB windows.

The sniffer runs regular expressions over text an attacker writes; one with overlapping repetition
(`all:` followed by blank lines took time exponential in their number) stalls the gate. Each hostile
window here is built from the pieces the signals look for, repeated to the window's size; a child
process (forked, so it starts with the sniffer already imported) must sniff them all well within a limit that a
linear scan never approaches; past it the child is killed and the test fails.
"""

from __future__ import annotations

from gatekeeper.classify.contextrules import ContextRules
from gatekeeper.classify.sniff import FULL_READ, LONG_WINDOW, sniff
from gatekeeper.policy.isolate import run_isolated

# Fragments that start a signal's match, and fillers that a backtracking pattern would chew on.
STARTS = ["all:\n", "ungrouped:\n", "- hosts: x\n", '"$schema": "https://schema.management.azure.com/schemas/',
          "AWSTemplateFormatVersion:", "Resources:\n", "Transform: AWS::Serverless", "apiVersion: v1\nkind: ",
          '{"apiVersion": "', "runs:\n", "on:\n", "FROM ", "from setuptools", "DOCUMENTATION =", "# c\n", "---\n"]
FILLERS = ["\n", " \n", "  \n", "\t\n", " ", "\t", "a", "deploymentTemplate", "  x\n", "  - \n", "#\n", "\r\n",
           '"', "//", "-", ":"]
# Top-level YAML list items, each read as a possible play up to the next one: every item had the text's remaining
# lines listed (quadratic: 36,000 items took 28 CPU-s; a 1 MiB file ~7 minutes, far past the limit here).
ITEMS = ["- a: x\n"]

PATHS = ("inventory.yaml", "roles/x/tasks/main.yml", "template.json", "setup.py", "Dockerfile")


def _sniff_all(starts: list[str], fillers: list[str], items: list[str]) -> int:
    rules = ContextRules()
    n = 0
    for start in starts:
        for filler in fillers:
            body = (start + filler * (LONG_WINDOW // max(1, len(filler))))[:LONG_WINDOW - 1] + "x"
            for path in PATHS:
                sniff(path, body.encode(), rules)
                n += 1
    for item in items:  # a whole file (read whole: no signal in its window) of top-level list items
        sniff("playbook.yml", (item * (FULL_READ // len(item))).encode(), rules)
        n += 1
    return n


def test_no_hostile_window_stalls_the_sniffer() -> None:
    # run_isolated kills the child past the timeout and raises (EngineTimedOut), as the old `python -c` child's
    # subprocess timeout did; forking skips that child's interpreter start and imports (~0.3 CPU-s)
    assert run_isolated(_sniff_all, STARTS, FILLERS, ITEMS, timeout=120) == len(STARTS) * len(FILLERS) * 5 + len(ITEMS)
    assert LONG_WINDOW == 64 * 1024  # the window the sizes above are built for
