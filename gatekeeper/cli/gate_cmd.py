"""`gatekeeper gate`: verify a packet against its patch, evaluate the policies, report, exit."""

from __future__ import annotations

import os
from pathlib import Path

import click

from gatekeeper.cli.stdout import write_report
from gatekeeper.errors import EXIT_CODE_HELP
from gatekeeper.gate import exit_code
from gatekeeper.gate_command import GateOptions, run_gate
from gatekeeper.reports import FORMATS  # the registry only: no renderer is imported until one is used

_FILE = click.Path(dir_okay=False, path_type=Path)
_DIR = click.Path(file_okay=False, path_type=Path)


@click.command("gate", epilog=EXIT_CODE_HELP)
@click.argument("packet", type=_FILE, required=False)
@click.option("--patch", type=_FILE,
              help="The patch PACKET describes (git diff --cached --binary); required with PACKET.")
@click.option(
    "--policy",
    "policy_dir",
    type=_DIR,
    help="Policy bundle folder (default: gatekeeper.yaml, ./policies, the shipped one); "
    "with --tree, one inside the checkout is read from BASE.",
)
@click.option("--enable", multiple=True, metavar="NAME", help="Switch a policy on (repeatable).")
@click.option("--disable", multiple=True, metavar="NAME", help="Switch a policy off (repeatable).")
@click.option(
    "--format", "fmt", type=click.Choice(FORMATS), help="Report format (default: gatekeeper.yaml, else text)."
)
@click.option("--output", type=_FILE, help="Write the report to FILE (atomically) instead of stdout; a file "
              "already there is removed when the gate cannot decide (exit 2); a FILE that is the packet, the "
              "patch, the log or a key is refused (exit 2).")
@click.option("--log", type=_FILE, help="Append the decision to this hash-chained decision log "
              "(its folder must exist).")
@click.option("--log-init", is_flag=True, help="Create the --log file's folder when missing (a new chain by intent).")
@click.option("--log-git", metavar="REMOTE[#REF]",
              help="Append the decision as a commit on REF (default refs/gatekeeper/decisions) of the git "
                   "repository REMOTE (path or URL) and push it.")
@click.option("--log-url", metavar="URL",
              help="POST the decision record to an OPA decision-log collector; spooled when it is down "
                   "(send later with `gatekeeper audit flush`).")
@click.option("--dry-run", is_flag=True, help="Report the real decision but exit 0 (for rolling a policy out).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True, max=3600), metavar="SECONDS",
              help="Time limit of the policy evaluation (default: gatekeeper.yaml, else 10).")
@click.option("--tree", metavar="BASE..HEAD",
              help="Deny unless the patch is exactly the change HEAD makes on BASE, classify with the commits' "
              "markers and content, and read gatekeeper.yaml and the bundle from BASE, never from the checkout "
              "(run in the clone; flag only).")
@click.option("--repo", type=_DIR, help="The clone holding BASE and HEAD (default: the current folder).")
@click.option("--trust", type=_FILE, metavar="FILE",
              help="Allowed signers: verify the runner's packet.intoto.json beside PACKET (a bad signature is a "
              "deny; unsigned claims stay unverified). A signature counts only for its change: the run's base "
              "commit must be --tree's merge base or, from a patch alone, --base-commit (without either the claims "
              "are unverified), and its URL the repository GitHub Actions, GitLab CI or --repository names. Under "
              "--tree a FILE in the checkout is read from BASE.")
@click.option("--base-commit", metavar="COMMIT",
              help="From a patch alone (no --tree): the full id of the commit the patch applies to (the pull "
              "request's merge base); a signed packet's claims count only when its run cloned that commit.")
@click.option("--repository", metavar="URL",
              help="The repository judged (e.g. https://github.com/acme/app), for CIs that do not name it: a signed "
              "packet's claims count only when its run cloned that repository.")
@click.option("--approvals", type=_DIR, metavar="DIR",
              help="Signed approvals (gatekeeper approve) that may turn exactly this review into allow; needs --trust.")
@click.option("--sign", "sign_key", type=_FILE, metavar="KEY",
              help="Sign the decision: a SLSA verification summary written beside the report (FILE.intoto.json, "
              "else ./decision.intoto.json; removed when the gate cannot decide).")
@click.option("--advisories", type=_DIR, metavar="DIR",
              help="OSV records (JSON files, searched recursively): a dependency change whose new version one "
              "marks is in input.dependencies with its ids (the deps policy denies it).")
def gate(packet: Path | None, patch: Path | None, policy_dir: Path | None, enable: tuple[str, ...],
         disable: tuple[str, ...], fmt: str | None, output: Path | None, log: Path | None, log_git: str | None,
         log_url: str | None, dry_run: bool, timeout: float | None, tree: str | None, repo: Path | None,
         trust: Path | None, approvals: Path | None, sign_key: Path | None, advisories: Path | None,
         log_init: bool, base_commit: str | None, repository: str | None) -> int:
    """Decide on PACKET and its patch, or without PACKET on the pull request --tree BASE..HEAD from its
    commits alone: exit 0 allow, 1 deny, 3 review, 2 could not decide.

    Without PACKET no runner made claims: sandbox, model and provenance count as unverified."""
    options = GateOptions(packet=packet, patch=patch, policy_dir=policy_dir, enable=enable, disable=disable,
                          format=fmt, output=output, log=log, dry_run=dry_run, timeout=timeout, tree=tree,
                          log_git=log_git, log_url=log_url, repo=repo, trust=trust, approvals=approvals,
                          sign=sign_key, advisories=advisories, log_init=log_init, base_commit=base_commit,
                          repository=repository)
    decision, text = run_gate(options, env=os.environ)
    if text:
        write_report(text)
    for logged in decision.decision_log or ():
        if logged["status"] == "spooled":
            click.echo(f"gatekeeper: {logged['message']}", err=True)
    for problem in (decision.approvals or {}).get("problems") or []:
        click.echo(f"gatekeeper: approval not counted: {problem}", err=True)
    if output is not None or dry_run:
        note = " (dry run: exit 0)" if dry_run else ""
        click.echo(f"gatekeeper: {decision.outcome}, {len(decision.reasons)} finding(s){note}", err=True)
    return int(exit_code(decision))


COMMANDS: list[click.Command] = [gate]
