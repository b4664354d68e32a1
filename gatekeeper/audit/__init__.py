"""The audit trail: a hash-chained decision log, its verification, statistics, replay and policy history.

Kept empty on purpose: the gate imports `gatekeeper.audit.log` on every run with `--log`, and that
import must not pull in yaml, git helpers or the policy engine.
"""
