"""Signed statements: key files, trust (allowed signers), in-toto Statements in DSSE envelopes.

Everything gatekeeper signs — the runner's packet, a human's approval, the gate's decision — is an
in-toto Statement v1 whose subject is the patch's sha256, wrapped in a DSSE envelope and signed with
an ed25519 key (securesystemslib does the DSSE and key work). Trust is a file of allowed signers,
read by the caller from a trusted place (the base branch), never from the change under review.
"""
