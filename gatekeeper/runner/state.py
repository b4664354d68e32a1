"""The run's state (state.json): an immutable record, replaced and saved atomically at every step.

Nested records that the packet carries as they are (`sandbox`, `generator`, `model`, checkpoints)
stay JSON-shaped mappings; everything the runner reasons about is a typed field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from gatekeeper.atomic import write_json_atomic
from gatekeeper.bounded import load_json, read_bytes
from gatekeeper.errors import InputFileError, RunError
from gatekeeper.runner.rundir import RunDir, now

STAGES: tuple[str, ...] = ("created", "cloned", "generating", "captured", "packeted", "done")
STATE_VERSION = 1
Record = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Request:
    """What the run was asked to do, kept so that `--resume` can do it again (names only, no values)."""

    repo: str
    repo_url: str
    ref: str | None
    command: tuple[str, ...]
    model: str | None
    sandbox: str
    timeout: float | None
    checkpoint_interval: float
    pass_env: tuple[str, ...]
    policy_dir: str
    model_apis: tuple[str, ...] = ()  # --model-api NAME=URL, as given
    model_keys: tuple[str, ...] = ()  # --model-key NAME=VARIABLE: the variable's name, never its value
    max_tokens: int | None = None
    sign_key: str | None = None  # the runner's signing key (a path outside the sandbox's reach)


@dataclass(frozen=True, slots=True)
class RunState:
    """Where a run is and what it has produced so far."""

    run_id: str
    stage: str
    created_at: str
    request: Request
    repository: Record | None = None
    sandbox: Record | None = None
    generator: Record | None = None
    model: Record = field(default_factory=lambda: {"requested": None, "reported": None, "reported_by": None})
    relay: Record | None = None  # the relay log's summary over every attempt (None: the run had no relay)
    attempts: int = 0
    checkpoints: tuple[Record, ...] = ()
    patch: Record | None = None
    diff: Record | None = None
    logs_truncated: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    updated_at: str = ""

    def at(self, stage: str, **changes: Any) -> RunState:
        """A copy moved to `stage` (with other fields changed too)."""
        if stage not in STAGES:
            raise ValueError(stage)
        return replace(self, stage=stage, **changes)

    def to_dict(self) -> dict[str, Any]:
        """What state.json holds. Its fields as they are, not dataclasses.asdict's deep copy (saved at every
        step, ~5 ms a run): only `request` is a dataclass, and the JSON of a tuple is that of a list."""
        doc: dict[str, Any] = {"state_version": STATE_VERSION}
        for item in fields(self):
            doc[item.name] = getattr(self, item.name)
        doc["request"] = {item.name: getattr(self.request, item.name) for item in fields(self.request)}
        return doc


def save(run: RunDir, state: RunState) -> RunState:
    """Write state.json atomically, stamping `updated_at`; returns the state as written."""
    stamped = replace(state, updated_at=now())
    write_json_atomic(run.state, stamped.to_dict())
    return stamped


def load(run: RunDir) -> RunState:
    """Read and check state.json (InputFileError when unreadable, RunError when not understood)."""
    try:
        doc = load_json(read_bytes(run.state), str(run.state))
    except (OSError, ValueError) as exc:
        raise InputFileError(f"cannot read the run state: {exc}", where=str(run.state)) from exc
    try:
        if not isinstance(doc, dict) or doc.pop("state_version", None) != STATE_VERSION:
            raise TypeError("unknown state_version")
        req = doc.pop("request")
        request = Request(**{**req, "command": tuple(req["command"]), "pass_env": tuple(req["pass_env"]),
                             "model_apis": tuple(req.get("model_apis", ())),
                             "model_keys": tuple(req.get("model_keys", ()))})
        state = RunState(
            request=request, **{**doc, "checkpoints": tuple(doc.get("checkpoints", ())),
                                "logs_truncated": tuple(doc.get("logs_truncated", ())),
                                "warnings": tuple(doc.get("warnings", ()))},
        )
        if state.stage not in STAGES or not state.request.command:
            raise TypeError("bad stage or command")
    except (TypeError, KeyError, AttributeError) as exc:
        raise RunError(f"the run state is not one this version understands ({exc})", where=str(run.state),
                       hint="start a new run") from None
    return state
