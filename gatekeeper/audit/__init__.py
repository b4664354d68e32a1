"""The audit trail: a hash-chained decision log (a file, a git ref, an OPA collector), its verification,
statistics, replay and policy history.

Kept empty on purpose: the gate imports `gatekeeper.audit.sinks` on every run that logs, and that import
must stay standard-library only: no yaml, no policy engine.
"""
