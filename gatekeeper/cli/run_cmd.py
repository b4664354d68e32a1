"""`gatekeeper run`: run a generator in a sandbox, capture one patch and one packet."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click
from click.core import ParameterSource

from gatekeeper.errors import ExitCode, UsageError
from gatekeeper.runner.run import RunRequest, resume, start
from gatekeeper.runner.sandbox import BACKENDS

_NEW_RUN_ONLY = ("repo", "ref", "model", "sandbox", "timeout", "checkpoint_interval", "pass_env", "policy",
                 "model_api", "model_key", "max_tokens", "sign_key")


@click.command(
    "run",
    epilog="Exit codes: 0 the generator succeeded and the packet is written; 1 the packet is written but the "
    "generator failed or timed out; 2 the run could not be set up, isolated or finished.",
)
@click.option("--repo", default=".", show_default=True, help="Repository to clone: local path or URL.")
@click.option("--ref", default=None, help="Branch, tag or full commit id to start from (default: its HEAD).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Runs folder (default: $XDG_STATE_HOME/gatekeeper/runs, else ~/.local/state/gatekeeper/runs).")
@click.option("--model", default=None, help="Model to request; handed to the generator as GATEKEEPER_MODEL.")
@click.option("--sandbox", type=click.Choice(BACKENDS), default="auto", show_default=True,
              help="Isolation backend (network, processes, a filesystem read-only but for the workspace); "
              "auto fails closed when nothing can isolate; none only when asked.")
@click.option("--timeout", type=float, default=None, help="Seconds before the generator's process group is killed.")
@click.option("--checkpoint-interval", type=float, default=30.0, show_default=True,
              help="Seconds between workspace checkpoints.")
@click.option("--pass-env", multiple=True, metavar="NAME", help="Pass this variable to the generator (repeatable).")
@click.option("--policy", default=None, help="Policy bundle whose classification rules the packet uses.")
@click.option("--model-api", multiple=True, metavar="NAME[=URL]",
              help="Start the model relay for API NAME (anthropic, openai) to URL (default: the API's own; "
              "plain http only on loopback). The generator's SDK is pointed at it; nothing else gets out.")
@click.option("--model-key", multiple=True, metavar="NAME=VARIABLE",
              help="The variable of YOUR environment that holds NAME's key; the relay adds it outside, the "
              "generator gets a placeholder.")
@click.option("--max-tokens", type=int, default=None, help="Token budget of the run, counted by the relay.")
@click.option("--sign-key", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Sign the packet with this key (gatekeeper keys generate): packet.intoto.json beside packet.json. "
              "The key is covered inside the sandbox.")
@click.option("--resume", "resume_id", default=None, metavar="RUN_ID", help="Finish an interrupted run.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def run_command(
    ctx: click.Context, repo: str, ref: str | None, out: Path | None, model: str | None, sandbox: str,
    timeout: float | None, checkpoint_interval: float, pass_env: tuple[str, ...], policy: str | None,
    model_api: tuple[str, ...], model_key: tuple[str, ...], max_tokens: int | None, sign_key: Path | None,
    resume_id: str | None, fmt: str, command: tuple[str, ...],
) -> ExitCode:
    """Run COMMAND (after `--`) on a fresh clone inside a sandbox; write patch.diff and packet.json."""
    def progress(line: str) -> None:
        click.echo(f"gatekeeper run: {line}", err=True)

    if resume_id is not None:
        given = [n for n in _NEW_RUN_ONLY if ctx.get_parameter_source(n) is not ParameterSource.DEFAULT]
        if command or given:
            raise UsageError("--resume takes only --out and --format", where="--resume",
                             hint="the run's command and options are read from its state.json")
        result = resume(resume_id, out=out, environ=os.environ, progress=progress)
    else:
        request = RunRequest(
            command=command, repo=repo, ref=ref, model=model, sandbox=sandbox, timeout=timeout,
            checkpoint_interval=checkpoint_interval, pass_env=pass_env, policy=policy,
            model_apis=model_api, model_keys=model_key, max_tokens=max_tokens, sign_key=sign_key,
        )
        result = start(request, out=out, environ=os.environ, progress=progress)
    click.echo(json.dumps(result.to_dict(), indent=2) if fmt == "json" else result.to_text(), nl=fmt == "json")
    return result.exit_code


COMMANDS: list[click.Command] = [run_command]
