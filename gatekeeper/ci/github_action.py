"""The gate step of the composite GitHub Action (`action.yml`), runnable and testable on its own.

The runner hands the action's inputs over as `INPUT_*` environment variables. The step runs the
real `gatekeeper gate` once (JSON decision to a file), then renders that decision as annotations
plus the job summary with the github reporter, writes an optional extra report, sets the step
outputs `outcome`, `findings` and `report` in `$GITHUB_OUTPUT`, and exits non-zero for review and
deny unless dry-run. A gate that cannot decide always fails the step: the gate fails closed.

For pull request events the patch is bound to the pull request (`--tree BASE..HEAD`, the event's
base and head commits unless the inputs name others; on a merge queue's `merge_group` event, the
group's), which also makes the gate read `gatekeeper.yaml` and the bundle from BASE; no `--policy`
is passed unless asked for, so the gate's own choice applies (and without --tree its self-guard
sees a patch that edits `./policies`).

Run as `python -I -m gatekeeper.ci.github_action` from the action's own virtualenv: the working
directory is the change under review, and without `-I` a `gatekeeper/` package in it would be imported
instead of the gate.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from gatekeeper.atomic import named_input, withdraw_output
from gatekeeper.bounded import load_json, read_bytes
from gatekeeper.errors import OUTCOME_EXIT, ExitCode, GatekeeperError, LimitError, UsageError
from gatekeeper.reports import FORMATS, emit
from gatekeeper.reports.github import command
from gatekeeper.reports.markdown import escape

# YAML 1.2 core-schema booleans, as GitHub's toolkit accepts them for boolean inputs.
_TRUE = ("true", "True", "TRUE")
_FALSE = ("false", "False", "FALSE")


@dataclass(frozen=True, slots=True)
class ActionInputs:
    """The action's inputs, checked."""

    packet: str | None  # None (with patch None): judge the pull request from its commits alone
    patch: str | None
    policy: str | None = None
    enable: tuple[str, ...] = ()
    disable: tuple[str, ...] = ()
    dry_run: bool = False
    report_format: str | None = None
    report_file: str | None = None
    log: str | None = None
    base: str | None = None
    head: str | None = None


@dataclass(frozen=True, slots=True)
class StepResult:
    """What the step reports back: its outputs and its exit status."""

    outcome: str  # allow | review | deny | error
    findings: int
    exit_code: int
    report: str | None = None


def read_inputs(env: Mapping[str, str]) -> ActionInputs:
    """Parse the `INPUT_*` variables; a missing or malformed input is a UsageError naming it."""
    packet = _get(env, "PACKET")
    patch = _get(env, "PATCH")
    for name, value, other in (("packet", packet, patch), ("patch", patch, packet)):
        if other and not value:
            raise UsageError(f"the '{name}' input is needed with the other one", where=f"input {name}",
                             hint="give packet and patch, or neither to judge the pull request from its commits")
    report_format = _get(env, "FORMAT") or None
    if report_format is not None and report_format not in FORMATS:
        raise UsageError(
            f"unknown report format {report_format!r}", where="input format", hint=f"one of: {', '.join(FORMATS)}"
        )
    report_file = _get(env, "OUTPUT") or None
    if report_format and not report_file:
        report_file = f"gatekeeper-report.{_EXTENSIONS.get(report_format, report_format)}"
    log = _get(env, "LOG") or None
    read = [Path(name) for name in (packet, patch, log, log and f"{log}.head") if name]
    if report_format and report_file and named_input([Path(report_file)], read) is not None:
        raise UsageError("the extra report would replace a file the gate reads (the packet, the patch, the decision "
                         "log)", where="input output", hint="write the report to another file")  # review 67b
    bounds = _tree_bounds(env)
    if not packet and not (bounds["base"] and bounds["head"]):
        raise UsageError("without packet and patch the gate judges a pull request's commits, and there are none",
                         where="input packet",
                         hint="run on pull_request events, or give base and head (or packet and patch)")
    return ActionInputs(
        packet=packet or None,
        patch=patch or None,
        policy=_get(env, "POLICY") or None,
        enable=tuple(_get(env, "ENABLE").split()),
        disable=tuple(_get(env, "DISABLE").split()),
        dry_run=_boolean(env, "DRY_RUN"),
        report_format=report_format,
        report_file=report_file if report_format else None,
        log=log,
        **bounds,
    )


def gate_argv(inputs: ActionInputs, decision_file: Path) -> list[str]:
    """The `gatekeeper gate` arguments for `inputs`, writing the JSON decision to `decision_file`."""
    argv = ["gate"]
    if inputs.packet and inputs.patch:
        argv += [inputs.packet, "--patch", inputs.patch]
    argv += ["--format", "json", "--output", str(decision_file)]
    if inputs.policy:
        argv += ["--policy", inputs.policy]
    if inputs.base and inputs.head:
        argv += ["--tree", f"{inputs.base}..{inputs.head}"]
    for name in inputs.enable:
        argv += ["--enable", name]
    for name in inputs.disable:
        argv += ["--disable", name]
    if inputs.dry_run:
        argv.append("--dry-run")
    if inputs.log:
        argv += ["--log", inputs.log]
    return argv


def run_step(env: Mapping[str, str], out: TextIO, err: TextIO, *, python: str = sys.executable) -> StepResult:
    """Run the whole step: gate, annotations, summary, extra report; return outputs and exit status."""
    try:
        inputs = read_inputs(env)
    except GatekeeperError as exc:
        return _cannot_decide(out, str(exc), env)
    runner_temp = env.get("RUNNER_TEMP")
    scratch = runner_temp if runner_temp and Path(runner_temp).is_dir() else None
    with tempfile.TemporaryDirectory(prefix="gatekeeper-", dir=scratch) as tmp:
        decision_file = Path(tmp) / "decision.json"
        done = subprocess.run(
            # -I: the working directory is the change under review; its `gatekeeper/` must not be imported.
            [python, "-I", "-m", "gatekeeper", *gate_argv(inputs, decision_file)],
            capture_output=True,
            encoding="utf-8",
            errors="replace",  # what the gate says is shown, never a reason for this step to crash
            env=interpreter_env(env),
            check=False,
        )
        if done.stdout:
            out.write(done.stdout)
        if done.stderr:
            err.write(done.stderr)
        decision = _read_decision(decision_file) if done.returncode != ExitCode.ERROR else None
    if decision is None:
        reason = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit status {done.returncode}"
        withdraw_output(inputs.report_file)  # what lies there is not this run's report (red team 49)
        return _cannot_decide(out, reason, env)
    try:
        out.write(emit("github", decision, env=env))
        if inputs.report_format and inputs.report_file:
            emit(inputs.report_format, decision, output=Path(inputs.report_file), env={})
    except GatekeeperError as exc:
        withdraw_output(inputs.report_file)
        return _cannot_decide(out, str(exc), env)
    outcome = decision["outcome"]
    failing = OUTCOME_EXIT.get(outcome, ExitCode.FAILED)
    exit_code = ExitCode.OK if inputs.dry_run else failing
    if inputs.dry_run and failing != ExitCode.OK:
        out.write(f"gatekeeper: dry run: outcome {outcome} would have failed this step\n")
    return StepResult(outcome, len(decision.get("reasons") or ()), int(exit_code), inputs.report_file)


def interpreter_env(env: Mapping[str, str]) -> dict[str, str]:
    """`env` without what steers a Python interpreter or pip (PYTHON*, PIP_*, a virtualenv's marks).

    `-I` already makes the interpreter ignore PYTHON*; dropping them also keeps them from any
    interpreter the gate might start without it.
    """
    return {key: value for key, value in env.items() if not key.startswith(_INTERPRETER_VARS)}


def set_outputs(path: str | None, values: Mapping[str, str]) -> None:
    """Append step outputs to the `$GITHUB_OUTPUT` file (a delimiter form for multi-line values)."""
    if not path:
        return
    lines = []
    for name, value in values.items():
        if "\n" in value or "\r" in value:
            marker = f"ghadelimiter_{uuid.uuid4()}"
            lines.append(f"{name}<<{marker}\n{value}\n{marker}\n")
        else:
            lines.append(f"{name}={value}\n")
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write("".join(lines))
    except OSError as exc:
        raise UsageError(f"cannot write step outputs: {exc.strerror}", where=f"GITHUB_OUTPUT={path}") from exc


def main(env: Mapping[str, str] | None = None) -> int:
    """Entry point of the action's gate step; returns the step's exit status."""
    environ = os.environ if env is None else env
    result = run_step(environ, sys.stdout, sys.stderr)
    values = {"outcome": result.outcome, "findings": str(result.findings), "report": result.report or ""}
    try:
        set_outputs(environ.get("GITHUB_OUTPUT"), values)
    except GatekeeperError as exc:
        sys.stdout.write(_error_annotation(str(exc)))
        return int(ExitCode.ERROR)
    sys.stdout.flush()
    return result.exit_code


_INTERPRETER_VARS = ("PYTHON", "PIP_", "VIRTUAL_ENV", "__PYVENV_LAUNCHER__")
_EXTENSIONS: Mapping[str, str] = {"text": "txt", "markdown": "md", "junit": "xml", "github": "txt"}


def _get(env: Mapping[str, str], name: str) -> str:
    return env.get(f"INPUT_{name}", "").strip()


def _boolean(env: Mapping[str, str], name: str) -> bool:
    value = _get(env, name)
    if value in _TRUE:
        return True
    if value in _FALSE or value == "":
        return False
    raise UsageError(
        f"not a boolean: {value!r}", where=f"input {name.lower().replace('_', '-')}", hint="use true or false"
    )


def _tree_bounds(env: Mapping[str, str]) -> dict[str, str | None]:
    """`base` and `head`: the inputs, else the commits of the event's pull request or merge group; both or
    neither."""
    pull, group = _event_sections(env)
    base = _get(env, "BASE") or _sha(pull, "base") or _group_sha(group, "base")
    head = _get(env, "HEAD") or _sha(pull, "head") or _group_sha(group, "head")
    if bool(base) != bool(head):
        missing = "head" if base else "base"
        raise UsageError(f"the '{missing}' input is needed with the other one", where=f"input {missing}",
                         hint="give both base and head, or neither outside pull request events")
    return {"base": base or None, "head": head or None}


def _event_sections(env: Mapping[str, str]) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """The event's `pull_request` and `merge_group` objects ({} for what it does not have). A merge queue checks
    out the merge group commit: its change is `base_sha..head_sha`, bound to the patch as a pull request's is."""
    path = env.get("GITHUB_EVENT_PATH")
    if not path:
        return {}, {}
    try:
        event = load_json(read_bytes(Path(path)), f"GITHUB_EVENT_PATH={path}")
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read the event payload: {exc}", where=f"GITHUB_EVENT_PATH={path}") from exc
    pull, group = (event.get(key) if isinstance(event, dict) else None for key in ("pull_request", "merge_group"))
    return (pull if isinstance(pull, dict) else {}), (group if isinstance(group, dict) else {})


def _group_sha(group: Mapping[str, Any], side: str) -> str:
    sha = group.get(f"{side}_sha")
    return sha if isinstance(sha, str) else ""


def _sha(pull: Mapping[str, Any], side: str) -> str:
    ref = pull.get(side)
    sha = ref.get("sha") if isinstance(ref, dict) else None
    return sha if isinstance(sha, str) else ""


def _read_decision(path: Path) -> dict[str, Any] | None:
    try:
        decision = load_json(read_bytes(path), str(path))
    except (OSError, ValueError, LimitError):
        return None
    if not isinstance(decision, dict) or decision.get("outcome") not in OUTCOME_EXIT:
        return None
    return decision


def _cannot_decide(out: TextIO, message: str, env: Mapping[str, str]) -> StepResult:
    """One error annotation and a job summary saying why; the step fails closed (exit 2)."""
    reason = _bare(message)
    out.write(_error_annotation(reason))
    target = env.get("GITHUB_STEP_SUMMARY")
    if target:
        text = (f"### \u26d4 gatekeeper could not decide\n\n{escape(reason)}\n\n"
                "No decision is not an allow: this check fails until the gate can decide (exit 2).\n\n")
        try:
            with open(target, "a", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as exc:
            out.write(_error_annotation(f"cannot append the job summary: {exc.strerror}"))
    return StepResult("error", 0, int(ExitCode.ERROR))


def _bare(message: str) -> str:
    # The CLI's line starts "gatekeeper: error: "; the annotation's title already says who and what.
    for prefix in ("gatekeeper: error: ", "gatekeeper: "):
        message = message.removeprefix(prefix)
    return message


def _error_annotation(message: str) -> str:
    return command("error", message, title="gatekeeper could not decide") + "\n"


if __name__ == "__main__":
    sys.exit(main())
