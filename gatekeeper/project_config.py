"""The optional `gatekeeper.yaml` in the working directory: defaults that command-line flags override.

```yaml
policy_dir: policies        # the bundle (relative to this file's folder)
enable: [deps, size]        # on top of the bundle's defaults
disable: []
format: text                # gate report format
log: audit/decisions.jsonl  # decision log to append to
timeout: 10                 # seconds per policy evaluation
```
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gatekeeper.bounded import YAML, compose_yaml, construct_yaml, duplicate_key, read_bytes
from gatekeeper.errors import UsageError, where

FILE_NAMES = ("gatekeeper.yaml", "gatekeeper.yml")
_KEYS = ("policy_dir", "enable", "disable", "format", "log", "timeout")


@dataclass(frozen=True, slots=True)
class ProjectConfig:
    """What `gatekeeper.yaml` sets; None / () for what it leaves out.

    `path` is where the file sits in the working directory (relative settings are resolved against
    its folder); `label` names where it was read from: that path, or `BASE:path` for git objects.
    """

    path: Path | None = None
    label: str | None = None
    policy_dir: Path | None = None
    enable: tuple[str, ...] = ()
    disable: tuple[str, ...] = ()
    format: str | None = None
    log: Path | None = None
    timeout: float | None = None


def load_project_config(folder: Path | None = None, *, formats: tuple[str, ...] = ()) -> ProjectConfig:
    """Read `gatekeeper.yaml` from `folder` (default: the working directory); empty when there is none."""
    base = Path.cwd() if folder is None else Path(folder)
    path = next((base / name for name in FILE_NAMES if (base / name).is_file()), None)
    if path is None:
        return ProjectConfig()
    try:
        data = read_bytes(path, YAML)
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror}", where=str(path)) from None
    return parse_project_config(data, path, str(path), formats=formats)


def parse_project_config(data: bytes, path: Path, label: str, *, formats: tuple[str, ...] = ()) -> ProjectConfig:
    """Parse the bytes of a `gatekeeper.yaml` that sits at `path` (read from `label`, shown in errors)."""
    try:
        text = data.decode("utf-8")
        root = compose_yaml(text, label)
        if (twice := duplicate_key(root)) is not None:  # YAML keeps the last silently (red team 25)
            raise UsageError(f"`{twice.value}` given twice", where=where(label, twice.start_mark.line + 1))
        doc = construct_yaml(root)
    except UnicodeDecodeError:
        raise UsageError("not UTF-8", where=label) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise UsageError(
            f"not valid YAML: {getattr(exc, 'problem', exc)}", where=where(label, mark.line + 1 if mark else None)
        ) from None
    if doc is None:
        return ProjectConfig(path=path, label=label)
    if not isinstance(doc, dict):
        raise UsageError("must be a mapping of settings", where=where(label, 1), hint=f"keys: {', '.join(_KEYS)}")
    lines = {key.value: key.start_mark.line + 1 for key, _ in root.value} if isinstance(root, yaml.MappingNode) else {}

    def bad(key: str, expected: str) -> UsageError:
        return UsageError(f"`{key}` must be {expected}", where=where(label, lines.get(key), key))

    unknown = [key for key in doc if key not in _KEYS]
    if unknown:
        raise UsageError(
            f"unknown setting `{unknown[0]}`",
            where=where(label, lines.get(unknown[0])),
            hint=f"known: {', '.join(_KEYS)}",
        )
    values: dict[str, Any] = {"path": path, "label": label}
    if doc.get("policy_dir") is not None:
        if not isinstance(doc["policy_dir"], str) or not doc["policy_dir"]:
            raise bad("policy_dir", "a folder path")
        values["policy_dir"] = path.parent / doc["policy_dir"]
    for key in ("enable", "disable"):
        names = doc.get(key)
        if names is None:
            continue
        if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
            raise bad(key, "a list of policy names")
        values[key] = tuple(names)
    if doc.get("format") is not None:
        if not isinstance(doc["format"], str) or (formats and doc["format"] not in formats):
            raise bad("format", f"one of {', '.join(formats)}" if formats else "a report format name")
        values["format"] = doc["format"]
    if doc.get("log") is not None:
        if not isinstance(doc["log"], str) or not doc["log"]:
            raise bad("log", "a file path")
        values["log"] = path.parent / doc["log"]
    if doc.get("timeout") is not None:
        timeout = doc["timeout"]
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 3600:
            raise bad("timeout", "a number of seconds between 0 and 3600")
        values["timeout"] = float(timeout)
    return ProjectConfig(**values)
