"""Policy bundles and their evaluation: loading (`bundle`), the Rego engine wrapper (`engine`), findings.

Kept import-free on purpose: `gatekeeper.policy.engine` is the only module that loads regopy, and
only the commands that evaluate Rego should pay for it.
"""
