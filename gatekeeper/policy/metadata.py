"""Read a policy module's `# METADATA` annotation: title, description, version, owner, rule ids.

The annotation is OPA's: a comment block opened by `# METADATA` whose body is YAML. We keep our own
keys under `custom` (`version` semver, `owner`, `rules`), so the same module still loads in OPA.
regopy cannot read annotations at run time (`rego.metadata.*`), so this loader is the only reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

from gatekeeper.bounded import load_yaml
from gatekeeper.errors import PolicyError, where
from gatekeeper.lazy_pattern import lazy

SEMVER = lazy(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
RULE_ID = lazy(r"^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+$")
_PACKAGE = lazy(r"^package\s+([A-Za-z_][\w.]*)\s*$", re.M)


@dataclass(frozen=True, slots=True)
class Metadata:
    """What a policy's annotation declares."""

    title: str
    description: str
    version: str
    owner: str
    rules: tuple[str, ...]
    line: int  # 1-based line of `# METADATA`


def read_block(source: str) -> tuple[int, str] | None:
    """The first `# METADATA` block as (line of the marker, YAML text), or None."""
    lines = source.splitlines()
    for index, line in enumerate(lines):
        if line.strip() != "# METADATA":
            continue
        body: list[str] = []
        for follow in lines[index + 1 :]:
            stripped = follow.lstrip()
            if not stripped.startswith("#"):
                break
            text = stripped[1:]
            body.append(text[1:] if text.startswith(" ") else text)
        return index + 1, "\n".join(body)
    return None


def package_of(source: str) -> tuple[str, int] | None:
    """The module's package and the line declaring it."""
    found = _PACKAGE.search(source)
    if not found:
        return None
    return found.group(1), source.count("\n", 0, found.start()) + 1


# Valid annotations by (source, policy): their YAML, read twice (limits, then the value), was a third of a bundle's
# load when a process loads the same modules again (the test suite; a long-lived caller), often from a
# new folder (a copy; BASE's bundle exported under `--tree`). A one-shot CLI loads once and gains nothing. The path
# only places an error; a refusal raises and is never remembered.
_VALID: dict[tuple[str, str], Metadata] = {}
_VALID_MAX = 64


def parse_metadata(source: str, path: str, policy: str) -> Metadata:
    """Validate the annotation of `policy`'s module at `path`; PolicyError names the line and field."""
    found = _VALID.get((source, policy))
    if found is None:
        found = _parse_metadata(source, path, policy)
        if len(_VALID) >= _VALID_MAX:
            _VALID.clear()
        _VALID[source, policy] = found
    return found


def _parse_metadata(source: str, path: str, policy: str) -> Metadata:
    block = read_block(source)
    if block is None:
        raise PolicyError(
            "no `# METADATA` annotation",
            where=path,
            hint="start the module with a `# METADATA` comment block "
            "holding title, description and custom.version/owner/rules",
        )
    line, text = block
    try:
        doc = load_yaml(text, path, first_line=line + 1)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = line + 1 + mark.line if mark is not None else line
        raise PolicyError(
            f"`# METADATA` is not valid YAML: {getattr(exc, 'problem', exc)}", where=where(path, at)
        ) from None
    if not isinstance(doc, dict):
        raise PolicyError("`# METADATA` must be a YAML mapping", where=where(path, line))
    custom = doc.get("custom")
    if not isinstance(custom, dict):
        raise PolicyError(
            "`# METADATA` needs a `custom` mapping with version, owner and rules", where=where(path, line, "custom")
        )
    title = _text(doc, "title", path, line)
    description = _text(doc, "description", path, line)
    if isinstance(custom.get("version"), (int, float)) and not isinstance(custom.get("version"), bool):
        raise PolicyError(
            f"custom.version {custom['version']!r} is not semver (MAJOR.MINOR.PATCH)",
            where=where(path, line, "custom.version"),
        )
    version = _text(custom, "version", path, line, "custom.")
    if not SEMVER.match(version):
        raise PolicyError(
            f"custom.version {version!r} is not semver (MAJOR.MINOR.PATCH)", where=where(path, line, "custom.version")
        )
    owner = _text(custom, "owner", path, line, "custom.")
    rules = custom.get("rules")
    if not isinstance(rules, list) or not rules or not all(isinstance(r, str) for r in rules):
        raise PolicyError("custom.rules must list the policy's rule ids", where=where(path, line, "custom.rules"))
    for rule in rules:
        if not RULE_ID.match(rule) or not rule.startswith(f"{policy}."):
            raise PolicyError(
                f"rule id {rule!r} must look like `{policy}.<name>` (lower case, dots)",
                where=where(path, line, "custom.rules"),
            )
    if len(set(rules)) != len(rules):
        raise PolicyError("custom.rules lists a rule id twice", where=where(path, line, "custom.rules"))
    return Metadata(title, description.strip(), version, owner, tuple(rules), line)


def _text(doc: dict[str, Any], key: str, path: str, line: int, prefix: str = "") -> str:
    value = doc.get(key)
    if not isinstance(value, str) or not value.strip():
        raise PolicyError(
            f"`# METADATA` needs a non-empty `{prefix}{key}` string", where=where(path, line, prefix + key)
        )
    return value
