"""Lowering: a file the path rules put in deps moves to src (or other) only with proof on every side.

A test's data folder below its tests (never vendored code), or the content signal that proves a deps manifest is
something else (an Ansible module named setup.py, a setup.cfg holding tool settings only), read whole on every
side the change has. Never from ci or iac, and never the repository root's setup.py by its content.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from gatekeeper.classify.ruleset import RuleSet
from gatekeeper.classify.sniff import Signal
from gatekeeper.model import ClassifiedFile


class Shown(Protocol):
    """What was read of one side of a change (contexttypes.Shown)."""

    @property
    def path(self) -> str: ...

    @property
    def complete(self) -> bool: ...


def lower_with_proof(item: ClassifiedFile, rules: RuleSet, signals: Sequence[tuple[Shown, Signal | None]]
                     ) -> ClassifiedFile:
    """deps → src (or other), only with proof on every side; never from ci or iac."""
    if item.bucket != "deps":
        return item
    sides = item.change.sides()
    test_data = rules.context.deps_test_data
    # Vendored code stays vendored code below its own tests' folders (vendor/x/tests/assets/logo.png).
    if test_data is not None and item.ecosystem != "vendored" and all(
            _in_test_data(side, test_data.folders, test_data.tests) for side in sides):
        return replace(item, bucket="src", rule=test_data.id, ecosystem=None, tier="context",
                       evidence=f"{sides[0]}: below a test's data folder")
    blobs = (item.change.status != "deleted") + (item.change.status != "added")  # what every side holds
    proof = _LOWERING_PROOF.get(_proof_name(sides[0].rpartition("/")[2]))
    if proof is not None and not all("/" in side for side in sides):
        proof = tuple(rule for rule in proof if rule not in _NOT_AT_ROOT)  # the root's setup.py is what pip runs
    if proof and signals and len(signals) == blobs and all(
        shown.complete and signal is not None and signal.rule in proof for shown, signal in signals
    ):
        shown, signal = signals[0]
        assert signal is not None
        return replace(item, bucket=signal.bucket, rule=signal.rule, ecosystem=None,  # type: ignore[arg-type]
                       tier="content", evidence=f"{shown.path}: {signal.evidence}")
    return item


# The deps manifests content may lower, each with the signal that proves it (an Ansible module; tool settings only:
# setup.cfg, pyproject.toml).
_LOWERING_PROOF = {"setup.py": ("src.content.ansible-module", "src.content.setup-not-packaging"),
                   "setup.cfg": ("other.content.setup-cfg-tools",), "description": ("src.content.not-r-description",),
                   "pyproject.toml": ("other.content.pyproject-tools",)}
# Proofs that never lower a file at the repository's root: `pip install .` runs the root's setup.py whatever it holds
# (an "Ansible module" there too: DOCUMENTATION = ... above setup code is still what pip runs).
_NOT_AT_ROOT = frozenset({"src.content.setup-not-packaging", "src.content.ansible-module"})


def _proof_name(name: str) -> str:
    """The key of _LOWERING_PROOF: setup.py and setup.cfg as pip reads them, DESCRIPTION in any case (the path rules
    ignore case)."""
    return "description" if name.lower() == "description" else name


def _in_test_data(path: str, folders: frozenset[str], tests: frozenset[str]) -> bool:
    parts = [part.lower() for part in path.split("/")[:-1]]
    for index, part in enumerate(parts):
        if part in tests and any(later in folders for later in parts[index + 1:]):
            return True
    return False
