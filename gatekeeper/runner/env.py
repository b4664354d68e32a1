"""The generator's environment, built from an allowlist: no token, key or credential passes unless named."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gatekeeper.errors import UsageError

ALLOWED = ("PATH", "LANG", "TZ", "TERM")
ALLOWED_PREFIXES = ("LC_",)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True, slots=True)
class GeneratorEnv:
    """The environment handed to the generator, and the names the packet may show."""

    values: Mapping[str, str]
    passed: tuple[str, ...]  # the --pass-env names that were set and passed
    missing: tuple[str, ...]  # the --pass-env names that were not set in the caller's environment

    @property
    def names(self) -> list[str]:
        """Every variable name the generator receives, sorted (never values)."""
        return sorted(self.values)


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """Validate `--pass-env` names (raises UsageError)."""
    for name in names:
        if not _NAME.match(name):
            raise UsageError(f"not an environment variable name: {name!r}", where="--pass-env",
                             hint="pass the NAME only; the value is taken from your environment")
    return tuple(dict.fromkeys(names))


def build(
    caller: Mapping[str, str],
    *,
    home: Path,
    run_id: str,
    model: str | None,
    model_report: Path,
    pass_env: Sequence[str] = (),
) -> GeneratorEnv:
    """The allowlisted subset of `caller`, a HOME inside the run, the GATEKEEPER_* values, and `pass_env`."""
    values = {k: v for k, v in caller.items() if k in ALLOWED or k.startswith(ALLOWED_PREFIXES)}
    values.setdefault("PATH", DEFAULT_PATH)
    values["HOME"] = str(home)
    passed = tuple(n for n in pass_env if n in caller)
    for name in passed:
        values[name] = caller[name]
    # Set after the passed names so that a caller cannot fake the runner's own variables.
    values["GATEKEEPER_RUN_ID"] = run_id
    values["GATEKEEPER_MODEL_REPORT"] = str(model_report)
    if model is not None:
        values["GATEKEEPER_MODEL"] = model
    else:
        values.pop("GATEKEEPER_MODEL", None)
    missing = tuple(n for n in pass_env if n not in caller)
    return GeneratorEnv(values=values, passed=passed, missing=missing)
