"""Orchestration of one run: created → cloned → generating → captured → packeted → done.

Every stage change is saved to state.json before the next stage starts, so a run killed at
any moment can be resumed from what is on disk (`resume`).
"""

from __future__ import annotations

import math
import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gatekeeper import verify
from gatekeeper.atomic import write_atomic, write_json_atomic
from gatekeeper.attest.keys import load_signer
from gatekeeper.attest.packet import envelope_path, sign_packet
from gatekeeper.bounded import load_json
from gatekeeper.classify import load_rules
from gatekeeper.errors import ExitCode, LimitError, PacketError, RunError, UsageError
from gatekeeper.packet import build_packet, derive, packet_json, read_bundle_revision
from gatekeeper.policy_dir import resolve_policy_dir
from gatekeeper.readable import printable
from gatekeeper.runner import checkpoint, egresslog, generator, mounts, relay, relaylog, rundir, sandbox, workspace
from gatekeeper.runner import env as genenv
from gatekeeper.runner.relay_api import CLIENT_VARIABLES, Upstream, parse_model_api, parse_model_keys
from gatekeeper.runner.repocheck import check_repo
from gatekeeper.runner.rundir import RunDir, now
from gatekeeper.runner.state import Request, RunState, load, save

Progress = Callable[[str], None]
MODEL_REPORT_MAX = 64 * 1024
SANDBOX_STARTS = 3  # a start that a vanishing host socket broke is tried again (sandbox.lost_a_cover)


@dataclass(frozen=True, slots=True)
class RunRequest:
    """What `gatekeeper run` was asked to do."""

    command: tuple[str, ...]
    repo: str = "."
    ref: str | None = None
    model: str | None = None
    sandbox: str = "auto"
    timeout: float | None = None
    checkpoint_interval: float = 30.0
    pass_env: tuple[str, ...] = ()
    policy: str | None = None
    model_apis: tuple[str, ...] = ()
    model_keys: tuple[str, ...] = ()
    max_tokens: int | None = None
    sign_key: Path | None = None


@dataclass(frozen=True, slots=True)
class RunResult:
    """The summary of a finished run (what `run --format json` prints)."""

    run: RunDir
    state: RunState

    @property
    def exit_code(self) -> ExitCode:
        """OK when the generator exited 0 in time; FAILED when it did not (the packet is written either way)."""
        gen = self.state.generator or {}
        return ExitCode.OK if gen.get("exit_code") == 0 and not gen.get("timed_out") else ExitCode.FAILED

    def to_dict(self) -> dict[str, Any]:
        s, run = self.state, self.run
        return {
            "run_id": run.run_id, "run_dir": str(run.path), "patch": str(run.patch), "packet": str(run.packet),
            "stage": s.stage, "ok": self.exit_code == ExitCode.OK, "repository": s.repository,
            "generator": s.generator, "sandbox": s.sandbox, "model": s.model, "relay": s.relay, "diff": s.diff,
            "checkpoints": len(s.checkpoints), "attempts": s.attempts,
            "logs": {"stdout": str(run.logs / "stdout.log"), "stderr": str(run.logs / "stderr.log"),
                     "truncated": list(s.logs_truncated)},
            "warnings": list(s.warnings),
        }

    def to_text(self) -> str:
        """What `run --format text` prints: where things are and how the generator fared (ends in a newline)."""
        summary = self.to_dict()
        gen, box, model = summary["generator"], summary["sandbox"], summary["model"]
        return "".join([
            f"run_id:    {summary['run_id']}\n",
            f"run_dir:   {summary['run_dir']}\n",
            f"patch:     {summary['patch']}\n",
            f"packet:    {summary['packet']}\n",
            f"generator: exit code {gen['exit_code']}" + (" (timed out)" if gen["timed_out"] else "") + "\n",
            f"sandbox:   {box['backend']}, network {box['network']}\n",
            f"model:     requested {_shown(model['requested'])}, reported {_shown(model['reported'])}"
            + (f", served {', '.join(map(_shown, model['served'])) or 'none'}" if model.get("served") is not None
               else "") + "\n",
        ])


def _shown(value: object) -> str:
    # The packet says null for "nothing reported"; Python's None would read like a model name. Escaped: the
    # served names come from the upstream's replies.
    return "null" if value is None else printable(str(value))


def _check(request: RunRequest) -> None:
    if not request.command:
        raise UsageError("no generator command", hint="put the command after `--`: gatekeeper run -- COMMAND [ARG]...")
    check_repo(request.repo)
    # `not 0 < x < inf` rather than `x <= 0`: NaN compares false both ways and must be refused too.
    if request.timeout is not None and not (0 < request.timeout < math.inf):
        raise UsageError(
            f"the timeout must be a positive number of seconds, not {request.timeout!r}", where="--timeout"
        )
    if not (0 < request.checkpoint_interval < math.inf):
        raise UsageError(
            f"the checkpoint interval must be a positive number of seconds, not {request.checkpoint_interval!r}",
            where="--checkpoint-interval",
        )
    genenv.check_names(request.pass_env)
    if request.max_tokens is not None and request.max_tokens <= 0:
        raise UsageError("the token budget must be a positive number", where="--max-tokens")
    upstreams = _upstreams(request.model_apis)
    keys = parse_model_keys(request.model_keys, set(upstreams))
    leaked = sorted(set(keys.values()) & set(request.pass_env))
    if leaked:
        raise UsageError(f"--pass-env {leaked[0]} would put the model API key inside the sandbox",
                         where="--pass-env", hint="the relay adds the key outside; drop the --pass-env")
    if request.max_tokens is not None and not upstreams:
        raise UsageError("--max-tokens needs a model relay", where="--max-tokens", hint="add --model-api NAME[=URL]")


def _upstreams(specs: tuple[str, ...]) -> dict[str, Upstream]:
    upstreams: dict[str, Upstream] = {}
    for spec in specs:
        upstream = parse_model_api(spec)
        if upstream.flavour in upstreams:
            raise UsageError(f"a second upstream for {upstream.flavour}", where=f"--model-api {spec}")
        upstreams[upstream.flavour] = upstream
    return upstreams


def start(request: RunRequest, *, out: Path | None, environ: Mapping[str, str], progress: Progress) -> RunResult:
    """Start a new run and take it to the end (raises GatekeeperError when it cannot)."""
    _check(request)
    if request.sign_key is not None:
        load_signer(request.sign_key)  # a bad key fails before anything runs
    policy_dir = resolve_policy_dir(request.policy).resolve()
    rules = load_rules(policy_dir)  # bad rules fail before anything runs
    box = sandbox.select(request.sandbox)
    run = rundir.create(out if out is not None else rundir.default_runs_root(environ))
    progress(f"run {run.run_id}: run directory {run.path}")
    req = Request(
        repo=request.repo, repo_url=workspace.repo_url(request.repo), ref=request.ref,
        command=tuple(request.command), model=request.model, sandbox=request.sandbox, timeout=request.timeout,
        checkpoint_interval=request.checkpoint_interval, pass_env=genenv.check_names(request.pass_env),
        policy_dir=str(policy_dir), model_apis=request.model_apis, model_keys=request.model_keys,
        max_tokens=request.max_tokens,
        sign_key=None if request.sign_key is None else str(request.sign_key.resolve()),
    )
    state = RunState(run_id=run.run_id, stage="created", created_at=now(), request=req,
                     model={"requested": req.model, "reported": None, "reported_by": None})
    with rundir.Lock(run):
        state = save(run, state)
        try:
            state = _clone(run, state, progress)
        except RunError:
            shutil.rmtree(run.path, ignore_errors=True)  # nothing to resume from a run that never had a base
            raise
        return _proceed(run, state, rules, box, environ, progress, resuming=False)


def resume(run_id: str, *, out: Path | None, environ: Mapping[str, str], progress: Progress) -> RunResult:
    """Finish an interrupted run from its last recorded stage and checkpoint."""
    run = rundir.existing(out if out is not None else rundir.default_runs_root(environ), run_id)
    with rundir.Lock(run):
        state = load(run)
        progress(f"run {run_id}: resuming at stage {state.stage}")
        if state.stage == "done":
            return RunResult(run, state)
        rules = load_rules(Path(state.request.policy_dir))
        box = sandbox.select(state.request.sandbox)
        if state.stage == "created":
            state = _clone(run, state, progress)
        return _proceed(run, state, rules, box, environ, progress, resuming=True)


def _clone(run: RunDir, state: RunState, progress: Progress) -> RunState:
    req = state.request
    shutil.rmtree(run.workspace, ignore_errors=True)
    progress(f"cloning {req.repo_url}" + (f" at {req.ref}" if req.ref else ""))
    repo = workspace.clone(req.repo_url, req.ref, run)
    progress(f"base {repo.base_ref} at {repo.base_commit[:12]}, run branch {repo.run_branch}")
    return save(run, state.at("cloned", repository=repo.to_dict()))


def _proceed(
    run: RunDir, state: RunState, rules: Any, box: sandbox.Sandbox, environ: Mapping[str, str],
    progress: Progress, *, resuming: bool,
) -> RunResult:
    if state.stage in ("cloned", "generating"):
        state = _generate(run, state, box, environ, progress, resuming=resuming)
        state = _capture(run, state, progress)
    if state.stage == "captured":
        state = _packet(run, state, rules, progress)
    if state.stage == "packeted":
        state = save(run, state.at("done"))
    return RunResult(run, state)


def _generate(
    run: RunDir, state: RunState, box: sandbox.Sandbox, environ: Mapping[str, str], progress: Progress,
    *, resuming: bool,
) -> RunState:
    req, repo = state.request, workspace.Repository(**state.repository or {})
    if resuming:
        last = checkpoint.last(run, state.checkpoints)
        progress("restoring the workspace from " + (f"checkpoint {last.name}" if last else "the base"))
        workspace.restore(run, repo, last)
    gen_env = genenv.build(environ, home=run.home, run_id=run.run_id, model=req.model,
                           model_report=run.model_report, pass_env=req.pass_env)
    warnings = [f"--pass-env {name}: not set in the environment, not passed" for name in gen_env.missing]
    for text in warnings:
        progress(f"warning: {text}")
    state = save(run, state.at("generating", attempts=state.attempts + 1, warnings=state.warnings + tuple(warnings)))
    run.exchange.mkdir(exist_ok=True)
    run.probe.unlink(missing_ok=True)
    # A report speaks for the attempt that wrote it: a resumed generator that reports nothing is null.
    run.model_report.unlink(missing_ok=True)
    program = shutil.which(req.command[0], path=gen_env.values["PATH"]) or req.command[0]
    # What the command names is what it needs to see: its PATH, its program's folder, the files among its
    # arguments (a script in /tmp, say); bound back read-only where they lie in a hidden folder.
    named = [arg for arg in req.command[1:] if os.path.isabs(arg) and os.path.isfile(arg)]
    needed = (*gen_env.values["PATH"].split(os.pathsep), os.path.dirname(program), *named)
    key = () if req.sign_key is None else (Path(req.sign_key),)
    model_relay = _start_relay(run, req, environ)
    relay_apis = tuple(model_relay.upstreams) if model_relay else ()

    def tick() -> None:
        nonlocal state
        try:
            entry = checkpoint.take(run, repo.base_commit, state.checkpoints)
        except RunError as exc:
            # The generator is still writing (a file changing under `git add`, a FIFO blocking git): skip this
            # one, the next may work; the final capture, once the generator has ended, decides the run.
            progress(f"warning: checkpoint skipped: {exc.what}")
            return
        if entry is not None:
            state = save(run, state.at("generating", checkpoints=state.checkpoints + (entry,)))
            progress(f"checkpoint {entry['seq']:04d} ({entry['bytes']} bytes)")

    _import_what_follows()
    try:
        for start in range(1, SANDBOX_STARTS + 1):
            # Planned right before each start: the host's listening sockets come and go (other jobs' relays).
            # The generator's HOME is scratch space, like /tmp: a private tmpfs, nothing of it reaches the run dir.
            plan = mounts.plan(run_dir=run.path, writable=(run.workspace, run.exchange), private=(run.home,),
                               needed=needed, environ=environ, keys=key)
            if model_relay is not None:
                # On top of everything (the plan covers every listening socket): the relay's, read-only.
                plan = plan.bind(run.relay_socket, run.relay_socket)
            # Every attempt around the relay goes to the shim's catch-all and is recorded (egresslog, catchall).
            egress = egresslog.EgressRecorder(run.egress_log) if box.isolates else None
            if egress is not None:
                plan = egresslog.show_resolver(plan, run.resolv_conf)
            pipe = model_relay.key_pipe() if model_relay else None  # the relay's secret, for this start's shim alone
            argv = sandbox.wrap(box, run.probe, req.command, plan, relay=run.relay_socket if model_relay else None,
                                relay_apis=relay_apis, egress_fd=egress.fd if egress else None, relay_key_fd=pipe)
            progress(f"generator starting in sandbox {box.backend} (attempt {state.attempts}): "
                     f"{' '.join(req.command)}")
            try:
                result = generator.run(argv, cwd=run.workspace, env=gen_env.values, logs=run.logs,
                                       timeout=req.timeout, tick=tick, tick_interval=req.checkpoint_interval,
                                       attempt=state.attempts, hand_over=(egress.hand_over() if egress else None, pipe))
            finally:
                if egress is not None:
                    egress.stop()
            # Only a start whose shim never spoke (no egress status: it reports before any generator runs).
            silent = egress is None or egress.status is None
            if start == SANDBOX_STARTS or not silent or not sandbox.lost_a_cover(plan, run.probe,
                                                                                 run.logs / "stderr.log"):
                break
            progress("warning: the sandbox did not start: a socket it was to cover vanished meanwhile; "
                     "starting it again")
    finally:
        if model_relay is not None:
            model_relay.stop()
    probe = sandbox.read_probe(box, run.probe, run.logs / "stderr.log")
    relayed = _relayed(run.relay_log) if model_relay else None
    reported, notes = _model_report(run)
    for text in notes:
        progress(f"warning: {text}")
    progress(f"generator finished: exit code {result.exit_code}" + (" (timed out)" if result.timed_out else "")
             + f"; network {probe['network']}")
    return state.at(
        "generating",
        sandbox={
            # Without a sandbox nothing holds the network closed, whatever the probe saw at the start.
            "backend": box.backend, "network": _network(box, probe, relayed),
            "egress_checked": bool(probe["egress_checked"]),
            "env_passed": sorted({*gen_env.names, *(v for api in relay_apis for v in CLIENT_VARIABLES[api])}),
            **({"egress": egresslog.sandbox_egress(egress)} if egress else {}),
        },
        relay=None if relayed is None else {"apis": list(relay_apis), **relayed},
        generator={"command": list(req.command), "exit_code": result.exit_code, "timed_out": result.timed_out,
                   "started_at": result.started_at, "finished_at": result.finished_at},
        model={"requested": req.model, **reported, "served": None if relayed is None else relayed["served"]},
        logs_truncated=tuple(sorted(set(state.logs_truncated) | set(result.truncated))),
        warnings=state.warnings + tuple(notes),
    )


def _relayed(log: Path) -> dict[str, Any]:
    """The packet's relay summary, with the sha256 of relay.jsonl as the stopped relay left it (the log it sums up)."""
    return relaylog.summarize_log(log)  # its `served` names a model an earlier attempt may have left unrecorded


def _network(box: sandbox.Sandbox, probe: Mapping[str, Any], relayed: Mapping[str, Any] | None) -> str:
    # Without a sandbox nothing holds the network closed, whatever the probe saw at the start; with the
    # relay, the one way out is the relay's allowlist.
    if not box.isolates:
        return "unrestricted"
    return "allowlist" if relayed is not None and probe["network"] == "denied" else str(probe["network"])


def _start_relay(run: RunDir, req: Request, environ: Mapping[str, str]) -> relay.Relay | None:
    if not req.model_apis:
        return None
    upstreams = _upstreams(req.model_apis)
    variables = parse_model_keys(req.model_keys, set(upstreams))
    keys: dict[str, str] = {}
    for flavour, variable in variables.items():
        value = environ.get(variable, "")
        if not value.strip():
            raise RunError(f"the variable {variable} holds no key for the {flavour} API", where="--model-key",
                           hint=f"export {variable} in the environment that runs gatekeeper")
        keys[flavour] = value.strip()
    limits = relay.RelayLimits(max_tokens=req.max_tokens)
    run.relay_socket.parent.mkdir(exist_ok=True)  # a run started before the relay existed
    return relay.Relay(run.relay_socket, run.relay_log, upstreams, keys, limits).start()


def _import_what_follows() -> None:
    """Import every module the stages after the generator use, before it starts (the install is read-only to
    it as well): nothing the runner imports may come from a disk the generator has had its hands on."""
    try:
        # An invalid packet takes validation's every path, jsonschema's error reporting included.
        verify.validate_packet({}, "the runner's warm-up")
    except PacketError:
        pass


def _capture(run: RunDir, state: RunState, progress: Progress) -> RunState:
    snap = workspace.capture(run, (state.repository or {})["base_commit"])
    progress(f"patch {run.patch} ({snap.bytes} bytes)")
    return save(run, state.at("captured", patch={"sha256": snap.sha256, "bytes": snap.bytes}))


def _model_report(run: RunDir) -> tuple[dict[str, Any], list[str]]:
    """`reported`/`reported_by` from the generator's model report, and warnings about an unusable one."""
    nothing: dict[str, Any] = {"reported": None, "reported_by": None}
    try:
        data = rundir.read_exchange(run.model_report, MODEL_REPORT_MAX)
    except FileNotFoundError:
        return nothing, []
    except OSError as exc:
        return nothing, [f"the model report is unusable ({exc.strerror}); ignored"]
    try:
        doc = load_json(data, str(run.model_report))
    except ValueError as exc:
        return nothing, [f"the model report is not JSON ({exc}); ignored"]
    except LimitError as exc:
        return nothing, [f"the model report is unusable ({exc.what}); ignored"]
    model = doc.get("model") if isinstance(doc, dict) else None
    # A control, format or separator character would write a line (a CI log's `::` command) or drive a terminal.
    if not isinstance(model, str) or not model.strip() or len(model) > 200 or not model.strip().isprintable():
        return nothing, ['the model report has no usable "model" string (at most 200 printable characters); ignored']
    return {"reported": model.strip(), "reported_by": "generator"}, []


def _packet(run: RunDir, state: RunState, rules: Any, progress: Progress) -> RunState:
    derived = derive(run.patch, rules)
    packet = build_packet(
        derived, rules, run_id=run.run_id, model_requested=state.model["requested"],
        model_reported=state.model["reported"], reported_by=state.model["reported_by"],
        model_served=state.model.get("served"), relay=dict(state.relay) if state.relay is not None else None,
        repository=dict(state.repository or {}), generator=dict(state.generator or {}),
        sandbox=dict(state.sandbox or {}), checkpoints=[dict(c) for c in state.checkpoints],
        bundle_revision=read_bundle_revision(Path(state.request.policy_dir)),
    )
    write_atomic(run.packet, packet_json(packet))  # the runner's own folder: never through a link
    progress(f"packet {run.packet} ({derived.diff['file_count']} files)")
    if state.request.sign_key is not None:
        signed = envelope_path(run.packet)
        write_json_atomic(signed, sign_packet(load_signer(Path(state.request.sign_key)), packet))
        progress(f"signed packet {signed}")
    diff = {k: derived.diff[k] for k in ("sha256", "bytes", "file_count", "additions", "deletions")}
    return save(run, state.at("packeted", diff=diff))
