"""`gatekeeper keys generate` and `gatekeeper approve`: signing keys, and approvals bound to a patch."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from gatekeeper.atomic import write_json_atomic
from gatekeeper.attest import approvals, roles
from gatekeeper.attest.keys import generate as make_keys
from gatekeeper.attest.keys import load_signer, parse_trust
from gatekeeper.config_source import trusted_file
from gatekeeper.errors import ExitCode, UsageError
from gatekeeper.gate_command import GateOptions, run_gate
from gatekeeper.revrange import resolve_option

_FILE = click.Path(dir_okay=False, path_type=Path)
_DIR = click.Path(file_okay=False, path_type=Path)


@click.group("keys")
def keys() -> None:
    """Signing keys for the runner, approvers and the gate."""


@keys.command("generate")
@click.option("--name", required=True, help="The signer's name (letters, digits and ._@+-).")
@click.option("--out", "folder", type=_DIR, required=True, help="Folder for NAME.key (0600) and NAME.pub.")
@click.option("--role", "role_names", multiple=True, type=click.Choice(sorted(roles.ROLES)),
              help="What the key signs: its line lists that namespace (runner: gatekeeper-packet, approver: "
              "gatekeeper-approval, gate: gatekeeper-gate). Repeatable. Without it the line has no namespaces=: "
              "such a key signs packets and gate records, never approvals.")
def generate(name: str, folder: Path, role_names: tuple[str, ...]) -> int:
    """Write an ed25519 key pair; print the line to add to an allowed-signers file."""
    namespaces = tuple(dict.fromkeys(roles.ROLES[role] for role in role_names)) or None
    private, public, signer = make_keys(name, folder, namespaces)
    click.echo(f"gatekeeper: wrote {private} (private, keep it out of every sandbox and repository) "
               f"and {public}; key id {signer.keyid}", err=True)
    click.echo(signer.line())
    return ExitCode.OK


@click.command("approve")
@click.argument("packet", type=_FILE)
@click.option("--patch", type=_FILE, required=True, help="The exact patch being approved.")
@click.option("--key", "key_file", type=_FILE, required=True, help="Your private key (gatekeeper keys generate).")
@click.option("--out", "folder", type=_DIR, required=True, help="Folder to write the approval file into.")
@click.option("--comment", default="", help="Why you approve (recorded, signed).")
@click.option("--policy", "policy_dir", type=_DIR, help="Policy bundle folder, as for gate.")
@click.option("--enable", multiple=True, metavar="NAME", help="As for gate (the approval binds to the decision).")
@click.option("--disable", multiple=True, metavar="NAME", help="As for gate.")
@click.option("--tree", metavar="BASE..HEAD", help="As for gate.")
@click.option("--trust", type=_FILE, metavar="FILE", help="As for gate (the packet's verified claims are part of "
              "the decision you approve).")
@click.option("--base-commit", metavar="COMMIT", help="As for gate (what binds the signed packet to this change).")
@click.option("--repository", metavar="URL", help="As for gate.")
def approve(packet: Path, patch: Path, key_file: Path, folder: Path, comment: str, policy_dir: Path | None,
            enable: tuple[str, ...], disable: tuple[str, ...], tree: str | None, trust: Path | None,
            base_commit: str | None, repository: str | None) -> int:
    """Sign an approval of the review findings of exactly this patch's decision."""
    signer = load_signer(key_file)
    decision, _ = run_gate(GateOptions(packet=packet, patch=patch, policy_dir=policy_dir, enable=enable,
                                       disable=disable, format="json", tree=tree, trust=trust,
                                       base_commit=base_commit, repository=repository), env=os.environ)
    rules = sorted({finding.rule for finding in decision.reasons if finding.level == "review"})
    if decision.outcome != "review":
        raise UsageError(f"the decision is {decision.outcome}, not review: nothing to approve", where=str(packet),
                         hint="an approval never overrides a deny")
    sha256 = str(decision.packet["diff_sha256"])
    envelope = approvals.make(signer, patch_sha256=sha256, input_digest=decision.input_digest, rules=rules,
                              comment=comment, bundle_digest=str(decision.bundle["digest"]))
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"approval-{sha256[:12]}-{signer.public_key.keyid[:12]}.json"
    write_json_atomic(target, envelope)
    click.echo(f"gatekeeper: approved {', '.join(rules)} for patch {sha256[:12]}: {target}", err=True)
    if trust is not None and (warning := _uncounted(trust, tree, str(signer.public_key.keyid))) is not None:
        click.echo(f"gatekeeper: warning: {warning}", err=True)
    click.echo(json.dumps({"approval": str(target), "rules": rules, "patch_sha256": sha256}))
    return ExitCode.OK


def _uncounted(trust: Path, tree: str | None, keyid: str) -> str | None:
    """Why a gate given the same --trust (BASE's copy under --tree, as the gate reads it) will not count an approval
    signed with `keyid`, and what to change; None when it will count as far as the key goes."""
    data, label = trusted_file(trust, resolve_option(tree, None))
    signer = parse_trust(data.decode("utf-8", "replace"), label).named(keyid)
    if signer is None:
        return (f"your key {keyid[:12]} is not in {label}: the gate will not count this approval; add the line "
                f"`gatekeeper keys generate --role approver` printed for it")
    if signer.allows(roles.APPROVAL):
        return None
    what, hint = roles.refusal(signer.name, signer.where or label, signer.namespaces, roles.APPROVAL)
    return f"the gate will not count this approval: {what}; {hint}"


COMMANDS: list[click.Command] = [keys, approve]
