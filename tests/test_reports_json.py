"""`--format json`: the decision itself, indented, in one stable key order."""

from __future__ import annotations

import json
import random

from decisions import ALL, hostile, review
from tables import each_case

from gatekeeper.reports import render
from gatekeeper.reports.json_report import DECISION_KEYS, REASON_KEYS


@each_case("name", sorted(ALL))
def test_round_trips_to_the_same_decision(name: str) -> None:
    decision = ALL[name]()
    assert json.loads(render("json", decision)) == decision


def test_indented_and_ascii_only() -> None:
    text = render("json", hostile())
    assert text.startswith('{\n  "outcome": "deny",\n')
    assert text.isascii()  # non-UTF-8 path bytes survive as \udcXX escapes
    assert "\\udcff" in text


def test_key_order_is_stable_whatever_order_the_gate_built() -> None:
    decision = review()
    shuffled = dict(random.Random(7).sample(list(decision.items()), len(decision)))
    shuffled["reasons"] = [dict(reversed(list(r.items()))) for r in decision["reasons"]]
    shuffled["bundle"] = dict(reversed(list(decision["bundle"].items())))
    assert render("json", shuffled) == render("json", decision)
    top = list(json.loads(render("json", shuffled)))
    assert top == [key for key in DECISION_KEYS if key in decision]
    first = json.loads(render("json", shuffled))["reasons"][0]
    assert list(first) == [key for key in REASON_KEYS if key in first]


def test_unknown_keys_are_kept_after_the_known_ones() -> None:
    decision = review()
    decision["zeta"] = 1
    decision["alpha"] = {"b": 2, "a": 1}
    keys = list(json.loads(render("json", decision)))
    assert keys[-2:] == ["alpha", "zeta"]
    assert json.loads(render("json", decision)) == decision
