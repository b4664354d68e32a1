"""A Compose file read as YAML (red team 12, second round; tests/test_redteam12_compose_forms.py).

The line patterns (shapes.py, `iac.content.compose`) read a block-style `services:` with an indented `image:` or
`build:` line. Compose reads YAML, so JSON, flow style, quoted keys and an image through a merge key are the same
services; yamlroots.py parses such a file and asks this module of its roots.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["compose"]

Values = Callable[[Any, str], Iterator[Any]]  # yamlroots.values: every value of a key, merge keys included


def compose(roots: list[Any], values: Values) -> str | None:
    """The evidence that a root is a Compose file: a `services` mapping holding a service (a mapping) with an `image`
    or a `build`. A GitLab job's `services:` is a list of images; an application's mapping of URLs has neither."""
    for root in roots:
        for services in values(root, "services"):
            if not isinstance(services, dict):
                continue
            for name, defined in services.items():
                for service in defined:
                    for key in ("image", "build"):
                        if isinstance(service, dict) and any(True for _ in values(service, key)):
                            return f"services: {str(name)[:60]}: {key}"
    return None
