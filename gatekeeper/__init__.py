"""gatekeeper: a policy-as-code gate for changes written by code-generating agents."""

__version__ = "0.1.0"
