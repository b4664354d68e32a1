"""What the `gatekeeper gate` command does: configuration, bundle, decision, decision log, report.

gate.py decides; this module is the command layer around it: it resolves what a decision needs from
flags and `gatekeeper.yaml` (read once, from BASE under `--tree`: config_source), binds the patch to
the pull request (`--tree`), and hands the decision to the approvals, the signature, the log and the
reporter.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from gatekeeper.atomic import named_input, withdraw_output
from gatekeeper.attest.binding import Binding, bind, check_options, ci_repository, repository_name
from gatekeeper.attest.facts import NO_PACKET
from gatekeeper.attest.keys import Trust, parse_trust
from gatekeeper.attest.verdict import apply_approvals, packet_attestation, sign_summary, summary_path
from gatekeeper.audit.sinks import log_decision, log_failure
from gatekeeper.catfile import shared_processes
from gatekeeper.classify.change import bulk_allocation
from gatekeeper.commits import commits_patch, run_id
from gatekeeper.config_source import TrackedLog, check_log_place, gate_configuration, trusted_file, trusted_guards
from gatekeeper.deps.advisories import load as load_advisories
from gatekeeper.errors import ExitCode, GatekeeperError, UsageError
from gatekeeper.gate import DEFAULT_TIMEOUT, MAX_TIMEOUT, decide, resolve_enabled
from gatekeeper.model import Decision, Derived
from gatekeeper.packet import build_packet, derive, open_tree_context
from gatekeeper.policy.bundle import Bundle
from gatekeeper.reports import FORMATS, emit
from gatekeeper.revrange import RevRange, resolve_option
from gatekeeper.treecheck import merge_differences, tree_differences
from gatekeeper.verify import read_packet, validate_packet

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class GateOptions:
    """What `gatekeeper gate` was asked to do; None means "use gatekeeper.yaml, else the default"."""

    packet: Path | None  # None: judge the pull request `tree` from its commits alone (gatekeeper.commits)
    patch: Path | None
    policy_dir: Path | None = None
    enable: tuple[str, ...] = ()
    disable: tuple[str, ...] = ()
    format: str | None = None
    output: Path | None = None
    log: Path | None = None
    dry_run: bool = False
    timeout: float | None = None
    tree: str | None = None  # "BASE..HEAD": the patch must be exactly the change HEAD makes; classify with its context
    repo: Path | None = None  # where BASE and HEAD live (default: the current folder)
    log_git: str | None = None  # "REMOTE[#REF]": append the decision as a commit on that ref and push it
    log_url: str | None = None  # an OPA decision-log collector to POST the record to (spooled when down)
    trust: Path | None = None  # allowed signers: verify packet.intoto.json beside the packet (BASE's copy under --tree)
    approvals: Path | None = None  # signed approvals that may turn exactly this review into allow
    advisories: Path | None = None  # OSV records that mark vulnerable dependency changes (deps.advisories)
    sign: Path | None = None  # a key to sign the decision with (a SLSA verification summary beside the report)
    log_init: bool = False  # the decision log's folder may be created: a new chain by intent
    base_commit: str | None = None  # from a patch alone: the commit it applies to, which a signed packet must name
    repository: str | None = None  # the repository judged, which a signed packet's URL must name (beside the CI's)


def run_gate(options: GateOptions, *, env: Mapping[str, str] | None = None) -> tuple[Decision, str]:
    """Decide, append to the decision log when asked, render the report: (decision, text for stdout).

    When the gate cannot decide (exit 2), that is logged too, to the destinations named by the options.
    The cyclic garbage collector is paused for the run (`bulk_allocation`): a 10,000-file gate allocates
    ~1,000,000 objects that live until it ends, which collections would walk again and again (~10 % of its CPU). The
    gate's readers of the repository share one `git cat-file` process, ended with the run (`shared_processes`)."""
    _check_output_place(options)  # before anything is written or withdrawn: no report may replace an input
    try:
        with bulk_allocation(), shared_processes():
            return _run_gate(options, env=env)
    except Exception as exc:
        if not isinstance(exc, GatekeeperError) or exc.exit_code == ExitCode.ERROR:
            # No decision, so no report: a file already at --output (one the change committed) is not published as
            # this run's by a job that publishes the path whatever the status (red team 49).
            withdraw_output(options.output)
            withdraw_output(summary_path(options.output) if options.sign is not None else None)
            log_file = None if isinstance(exc, TrackedLog) else options.log
            log_failure(exc, file=log_file, git=options.log_git, url=options.log_url, tree=options.tree,
                        env=os.environ if env is None else env, sign=options.sign, dry_run=options.dry_run)
        raise


def _check_output_place(options: GateOptions) -> None:
    """Refuse an --output (or the signed summary beside it) that names a file the gate reads: the packet, the patch,
    the decision log or its head file, the trust or key file (review 67b)."""
    log_head = None if options.log is None else options.log.with_name(options.log.name + ".head")
    outputs = [options.output, summary_path(options.output) if options.sign is not None else None]
    taken = named_input(outputs, [options.packet, options.patch, options.log, log_head, options.trust, options.sign])
    if taken is not None:
        raise UsageError("the report would replace a file the gate reads (the packet, the patch, the decision log, "
                         "a key or trust file)", where=f"--output {taken}", hint="write the report to another file")


def _run_gate(options: GateOptions, *, env: Mapping[str, str] | None = None) -> tuple[Decision, str]:
    """Decide, append to the decision log when asked, render the report: (decision, text for stdout).

    Without a packet, the patch is derived from `tree` (commits.commits_patch) and the packet built in memory."""
    if options.packet is None or options.patch is None:
        if options.packet is not None or options.patch is not None or options.tree is None:
            raise UsageError("gate needs PACKET and --patch, or --tree BASE..HEAD alone", where="gate",
                             hint="pass the packet and its patch, or name the pull request's commits with --tree")
    check_options(options.base_commit, options.repository, tree=options.tree is not None,
                  trust=options.trust is not None)
    # --tree is resolved once, here, and every step reads that one answer (revrange.py).
    revs = resolve_option(options.tree, options.repo)
    check_log_place(options.log, revs)  # before anything is logged to it, a failure too
    if options.patch is None:
        assert revs is not None  # checked above
        with commits_patch(revs) as patch:
            return _gate_resolved(replace(options, patch=patch), env, True, revs)
    return _gate_resolved(options, env, False, revs)


def _gate_resolved(options: GateOptions, env: Mapping[str, str] | None, commits: bool,
                   revs: RevRange | None) -> tuple[Decision, str]:
    # The tree check is git's work (applying the patch to a scratch index, writing the tree): it runs
    # beside the bundle and packet loading, and is collected where it has always run, so that errors
    # still come in the same order. A patch derived from the commits is their change: nothing to bind, but
    # what merging HEAD into BASE writes is checked either way (treecheck.merge_differences).
    tree_check = None if revs is None else _Background(partial(_tree_differences, options, commits, revs))
    try:
        return _decide_and_report(options, env, commits, revs, tree_check)
    finally:
        if tree_check is not None:
            tree_check.wait()  # an earlier error: git is never left running behind it


def _decide_and_report(options: GateOptions, env: Mapping[str, str] | None, commits: bool, revs: RevRange | None,
                       tree_check: _Background[list[str]] | None) -> tuple[Decision, str]:
    # Under --tree the settings and the bundle come from BASE, never from the checkout (config_source).
    with gate_configuration(options.policy_dir, revs, formats=FORMATS) as found:
        config, bundle = found.config, found.bundle
        if config.label is not None:
            for name in (*config.enable, *config.disable):
                if name not in {p.name for p in bundle.policies}:
                    raise UsageError(
                        f"unknown policy {name!r}",
                        where=config.label,
                        hint=f"the bundle has: {', '.join(p.name for p in bundle.policies)}",
                    )
        # Flags win over gatekeeper.yaml: a flag's policy leaves the file's opposite list.
        enable = [*(n for n in config.enable if n not in options.disable), *options.enable]
        disable = [*(n for n in config.disable if n not in options.enable), *options.disable]
        enabled = resolve_enabled(bundle, dict.fromkeys(enable), dict.fromkeys(disable))
        _check_log_folder(options.log or config.log, options.log_init)
        check_log_place(None if options.log else config.log, revs)
        # Without a packet (the commits alone), it is built from the one derivation the gate verifies, below. The
        # packet file is read at its first use, by decide once the engine child is forked (~50 ms of a 10,000-file
        # packet off the path to the fork), and its schema check runs beside the child (decide's `beside`); when
        # anything fails before, the check runs first (reading the packet): the reading's error comes first, then the
        # schema's, as when both ran here.
        packet_file = None if commits else options.packet
        read: _Once[dict[str, Any]] = _Once(None if packet_file is None else partial(read_packet, packet_file))
        checked = _Once(None if packet_file is None else partial(_validate, read, str(packet_file)))
        with checked.first_on_error():
            timeout = options.timeout or config.timeout or DEFAULT_TIMEOUT
            if not 0 < timeout <= MAX_TIMEOUT:  # also NaN, which a range check on the flag lets through
                raise UsageError(
                    f"timeout {timeout!r} is not a number of seconds in 0 < t <= {MAX_TIMEOUT:g}", where="--timeout"
                )
            index = None
            if options.advisories is not None:  # before any git work: a bad folder is reported first
                index = load_advisories(options.advisories)
            # The tree check (git, in its thread) is collected by decide once the patch is verified, before it forks
            # the engine child: the trust file, the packet's signature, the tree context and the derivation are read
            # meanwhile. An error of theirs comes after the check's, as when the check was collected before them
            # (_after_tree_check).
            with _after_tree_check(tree_check):
                trust = _trust(options, revs)
                attestation = NO_PACKET.to_input() if commits else None
                if trust is not None and packet_file is not None:
                    # A signature counts for this change only: the run's base and repository are the ones judged.
                    attestation = bind(packet_attestation(packet_file, read(), trust), read(),
                                       _binding(options, revs, env)).to_input()
                with open_tree_context(revs, bundle.rules) as context:
                    assert options.patch is not None  # run_gate derived it from the commits when none was given
                    derived = None
                    packet: dict[str, Any] | _Once[dict[str, Any]] = read
                    if packet_file is None:  # the commits' own packet: derived once, and the gate verifies it
                        derived = derive(options.patch, bundle.rules, context)
                        assert revs is not None  # a packet-less gate has --tree
                        packet = _commits_packet(revs, bundle, derived)
                    in_use = (*found.in_use, *trusted_guards(options.trust, revs))  # what the next gate reads
                    decision = decide(packet, options.patch, bundle, enabled, dry_run=options.dry_run,
                                      timeout=timeout, guarded=found.guarded, in_use=in_use,
                                      tree_differences=tree_check.result if tree_check is not None else (),
                                      context=context, attestation=attestation, advisories=index, derived=derived,
                                      beside=checked)
            checked()  # decide ran it: a gate that decided has a schema-valid packet
        if attestation is not None:  # the log record keeps what the signature proved (audit show, replay)
            decision = replace(decision, attestation=attestation)
    if options.approvals is not None and trust is not None:  # _trust refuses --approvals without --trust
        decision = Decision.from_dict(apply_approvals(decision.to_dict(), options.approvals, trust,
                                                     bundle.params, options.sign))
    if options.sign is not None:
        decision = replace(decision, signed_summary=str(sign_summary(decision.to_dict(), options.sign, options.output)))
    log = options.log or config.log
    if log is not None or options.log_git or options.log_url:
        logged = log_decision(decision.to_dict(), file=log, git=options.log_git, url=options.log_url,
                              tree=options.tree, env=os.environ if env is None else env, sign=options.sign)
        decision = replace(decision, decision_log=tuple(logged))
    # After logging: where the files lay is for the report (SARIF locations), not part of the record.
    decision = replace(decision, sources=_sources(options, commits))
    fmt = options.format or config.format or "text"
    return decision, emit(fmt, decision, output=options.output, env=env)


def _commits_packet(revs: RevRange, bundle: Bundle, derived: Derived) -> dict[str, Any]:
    """The packet of a pull request without one: its facts derived from the commits, no runner claims."""
    # No generator, no model, sandbox "none": claims only our runner can make are absent, not invented.
    return build_packet(derived, bundle.rules, run_id=run_id(revs),
                        bundle_revision=bundle.revision)


def _binding(options: GateOptions, revs: RevRange | None, env: Mapping[str, str] | None) -> Binding:
    """What binds a signed packet to this change: the merge base or the named base, the CI's and named repository."""
    named = (ci_repository(os.environ if env is None else env), repository_name(options.repository))
    return Binding(tree=revs is not None, merge_base=None if revs is None else revs.merge_base,
                   base_commit=options.base_commit, repositories=tuple(n for n in named if n is not None))


def _check_log_folder(log: Path | None, init: bool) -> None:
    """A log in a folder that does not exist is a typo or a lost volume, not a new chain: refuse it."""
    if log is None or log.parent.is_dir():
        return
    if not init:
        raise UsageError("the decision log's folder does not exist: a new chain would start silently",
                         where=str(log.parent),
                         hint="fix the path, or pass --log-init to create the folder and start a new log")
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the decision log's folder: {exc.strerror}", where=str(log.parent)) from exc


def _sources(options: GateOptions, commits: bool) -> dict[str, str | None]:
    """The packet's and the patch's paths relative to the checkout, None when they lie outside it."""
    root = (options.repo or Path.cwd()).resolve()

    def inside(path: Path | None) -> str | None:
        if path is None:
            return None
        try:
            return path.resolve().relative_to(root).as_posix()
        except (ValueError, OSError):
            return None

    # A patch derived from the commits is a temporary file: it stands for nothing in the repository.
    return {"packet": inside(options.packet), "patch": None if commits else inside(options.patch)}


def _trust(options: GateOptions, revs: RevRange | None) -> Trust | None:
    if options.trust is None:
        if options.approvals is not None:
            raise UsageError("approvals are checked against trusted signers", where="--approvals",
                             hint="add --trust FILE (an allowed-signers file)")
        return None

    data, label = trusted_file(options.trust, revs)
    return parse_trust(data.decode("utf-8", "replace"), label)


@contextmanager
def _after_tree_check(tree_check: _Background[list[str]] | None) -> Iterator[None]:
    """When the body fails, the tree check's error (if it has one) is raised in its place: the body's errors come
    after the check's, wherever the body collects it."""
    try:
        yield
    except Exception:
        if tree_check is not None:
            tree_check.result()
        raise


class _Once(Generic[T]):
    """A function run at most once (at the first call): its value, or its error, given again at every later call.
    None: a check with nothing to check."""

    def __init__(self, func: Callable[[], T] | None) -> None:
        self._func = func
        self._value: T | None = None
        self._error: Exception | None = None

    def __call__(self) -> T:
        if self._func is not None:
            func, self._func = self._func, None
            try:
                self._value = func()
            except Exception as exc:
                self._error = exc
        if self._error is not None:
            raise self._error
        return cast("T", self._value)

    @contextmanager
    def first_on_error(self) -> Iterator[None]:
        """When the body fails, the function's error is raised in its place (the body's when it has none)."""
        try:
            yield
        except Exception:
            self()
            raise


def _validate(read: _Once[dict[str, Any]], label: str) -> None:
    validate_packet(read(), label)


class _Background(Generic[T]):
    """`func()` running in a thread; `result()` waits for it and returns its value or raises its error."""

    def __init__(self, func: Callable[[], T]) -> None:
        self._value: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(func,), name="gatekeeper-tree-check", daemon=True)
        self._thread.start()

    def _run(self, func: Callable[[], T]) -> None:
        try:
            self._value = func()
        except BaseException as exc:  # handed to the caller by result()
            self._error = exc

    def wait(self) -> None:
        """Wait for the thread to end, whatever it did."""
        self._thread.join()

    def result(self) -> T:
        """The function's value (its exception is raised here)."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return cast("T", self._value)


def _tree_differences(options: GateOptions, commits: bool, revs: RevRange) -> list[str]:
    """Run in the tree check's thread: `revs` is handed to it, resolved once by the command (no shared state)."""
    if commits:
        return merge_differences(revs)
    # The packet and patch may travel in the pull request itself (.agent/): their paths are not compared.
    assert options.packet is not None and options.patch is not None  # run_gate: a packet-less gate has no binding
    return tree_differences(revs, options.patch, transport=(options.packet, options.patch))
