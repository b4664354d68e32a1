"""`gatekeeper gate` as a CI check step: configuration, bundle, decision, decision log, report.

gate.py decides; this module gathers what a decision needs from flags and `gatekeeper.yaml`, refuses a
change to the gate's own configuration, binds the patch to the pull request (`--tree`), and hands the
decision to the log and the reporter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gatekeeper.errors import UsageError
from gatekeeper.gate import DEFAULT_TIMEOUT, MAX_TIMEOUT, decide, resolve_enabled

if TYPE_CHECKING:
    from gatekeeper.project_config import ProjectConfig


@dataclass(frozen=True, slots=True)
class GateOptions:
    """What `gatekeeper gate` was asked to do; None means "use gatekeeper.yaml, else the default"."""

    packet: Path
    patch: Path
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


def run_gate(options: GateOptions, *, env: Mapping[str, str] | None = None) -> tuple[dict[str, Any], str]:
    """Decide, append to the decision log when asked, render the report: (decision, text for stdout)."""
    from gatekeeper.config import resolve_policy_dir
    from gatekeeper.packet import load_packet, open_tree_context
    from gatekeeper.policy.bundle import load_bundle
    from gatekeeper.policy.selfguard import guarded_paths
    from gatekeeper.project_config import load_project_config
    from gatekeeper.reports import FORMATS, emit

    config = load_project_config(formats=FORMATS)
    bundle = load_bundle(resolve_policy_dir(options.policy_dir or config.policy_dir))
    if config.path is not None:
        for name in (*config.enable, *config.disable):
            if name not in {p.name for p in bundle.policies}:
                raise UsageError(
                    f"unknown policy {name!r}",
                    where=str(config.path),
                    hint=f"the bundle has: {', '.join(p.name for p in bundle.policies)}",
                )
    # Flags win over gatekeeper.yaml: a flag's policy leaves the file's opposite list.
    enable = [*(n for n in config.enable if n not in options.disable), *options.enable]
    disable = [*(n for n in config.disable if n not in options.enable), *options.disable]
    enabled = resolve_enabled(bundle, dict.fromkeys(enable), dict.fromkeys(disable))
    packet = load_packet(options.packet)
    timeout = options.timeout or config.timeout or DEFAULT_TIMEOUT
    if not 0 < timeout <= MAX_TIMEOUT:  # also NaN, which a range check on the flag lets through
        raise UsageError(
            f"timeout {timeout!r} is not a number of seconds in 0 < t <= {MAX_TIMEOUT:g}", where="--timeout"
        )
    guarded = guarded_paths(Path.cwd(), _configuration(options, config, bundle.root))
    differences = _tree_differences(options)
    with open_tree_context(options.tree, options.repo, bundle.rules) as context:
        decision = decide(packet, options.patch, bundle, enabled, dry_run=options.dry_run, timeout=timeout,
                          guarded=guarded, tree_differences=differences, context=context)
    log = options.log or config.log
    if log is not None:
        _append_to_log(log, decision)
    fmt = options.format or config.format or "text"
    return decision, emit(fmt, decision, output=options.output, env=env)


def _tree_differences(options: GateOptions) -> list[str]:
    if options.tree is None:
        return []
    from gatekeeper.treecheck import parse_range, tree_differences

    base, head = parse_range(options.tree)
    # The packet and patch may travel in the pull request itself (.agent/): their paths are not compared.
    return tree_differences(options.repo or Path.cwd(), base, head, options.patch,
                            transport=(options.packet, options.patch))


def _configuration(options: GateOptions, config: ProjectConfig, bundle_root: Path) -> list[tuple[Path, str]]:
    """Every file whose presence or content decides how this run judges: config files, bundle, fallback bundle."""
    from gatekeeper.project_config import FILE_NAMES

    items = [(Path(name), "the gate's configuration file") for name in FILE_NAMES]
    items.append((bundle_root, "the policy bundle in use"))
    if options.policy_dir is None and config.policy_dir is None:
        items.append((Path("policies"), "the policy bundle the gate looks for first"))
    return items


def _append_to_log(log: Path, decision: dict[str, Any]) -> None:
    try:
        from gatekeeper.audit.log import append_decision
    except ImportError:
        raise UsageError("the decision log is not available in this installation (gatekeeper.audit.log is missing)",
                         where="--log", hint="install the audit component or drop --log") from None
    append_decision(log, decision)
