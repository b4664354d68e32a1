"""The runner: `gatekeeper run` — a sandboxed generator, durable checkpoints, one patch and one packet.

Kept free of imports so that the in-sandbox shim (`gatekeeper.runner.inside`) loads only the standard library.
"""
