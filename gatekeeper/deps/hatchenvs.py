"""Hatch's environments in a pyproject.toml: `[tool.hatch.envs.<name>]` with `dependencies` and `extra-dependencies`,
lists of PEP 508 requirements Hatch installs into that environment (tests, docs, linting), which Renovate's pep621
manager bumps (marimo-team/marimo: `"google-generativeai==0.8.4"` → `==0.8.5` in `[tool.hatch.envs.test-optional]`).
They are development scope: no user of the package installs them. An item that is no requirement (Hatch's context
formatting, `"marimo @ {root:uri}"`) is kept whole, by its text, so a change of it still shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gatekeeper.deps.loaders import listing, mapping
from gatekeeper.deps.model import Dependency, Scope

ENV_KEYS = ("dependencies", "extra-dependencies")


def hatch_envs(doc: dict[str, Any], path: str,
               requirement: Callable[[str, str, Scope], Dependency | None]) -> list[Dependency]:
    """Every environment's requirements, at dev scope (`requirement` reads one: pypi's reader)."""
    envs = mapping(mapping(mapping(doc.get("tool"), "tool").get("hatch"), "tool.hatch").get("envs"), "tool.hatch.envs")
    out: list[Dependency] = []
    for env in envs.values():
        for key in ENV_KEYS:
            for item in listing(mapping(env, "tool.hatch.envs.*").get(key), f"tool.hatch.envs.*.{key}"):
                if isinstance(item, str):
                    out.append(requirement(item, path, "dev") or Dependency("pip", item, item, path, True, "dev"))
    return out
