"""The thin command-line layer: options in, one call into the library, exit code out.

Each command lives in its own module here, which imports its library code at the top. The group loads
only the module of the command being run (`COMMAND_MODULES`, click's lazy-group pattern): loading all of
them costs ~7x the start-up of one (1.04 s against 0.15 s measured on a loaded 2-core machine), and
`gatekeeper gate` has no use for the runner, the audit or the signing libraries.
"""

from __future__ import annotations

import atexit
import errno
import importlib
import os
import sys
import threading
import traceback
from collections.abc import Sequence
from typing import NoReturn

import click

from gatekeeper import __version__
from gatekeeper.cli.stdout import unwritable
from gatekeeper.errors import EXIT_CODE_HELP, ExitCode, GatekeeperError
from gatekeeper.gitcmd import absolute_path
from gatekeeper.readable import inert

# Command name -> the module in gatekeeper.cli whose COMMANDS list defines it.
COMMAND_MODULES: dict[str, str] = {
    "approve": "attest_cmd",
    "audit": "audit_cmd",
    "classify": "classify_cmd",
    "deps": "deps_cmd",
    "gate": "gate_cmd",
    "keys": "attest_cmd",
    "packet": "packet_cmd",
    "policy": "policy_cmd",
    "run": "run_cmd",
    "test": "test_cmd",
    "verify": "packet_cmd",
}


class _Commands(click.Group):
    """The top-level group: a command's module is imported when that command is asked for.

    A pipe whose reader is gone refuses what click prints (help and version while parsing, a command's echo);
    click would make that EPIPE `sys.exit(1)`, the deny code, with no message: here it is an OutputError (exit 2,
    one line) before click sees it (gatekeeper/cli/stdout.py).
    """

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: object) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            raise unwritable(exc) from exc

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            raise unwritable(exc) from exc

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module_name = COMMAND_MODULES.get(cmd_name)
        if module_name is None:
            return None
        module = importlib.import_module(f"gatekeeper.cli.{module_name}")
        return next(command for command in module.COMMANDS if command.name == cmd_name)


@click.group(cls=_Commands, epilog=EXIT_CODE_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gatekeeper")
@click.option("--debug", is_flag=True, help="Show a traceback for unexpected errors.")
def cli(debug: bool) -> None:
    """Policy-as-code gate for changes written by code-generating agents."""


# click 8.2 raises this (a UsageError whose message is the whole help) for a group called without a command.
class _NeverRaised(click.ClickException):
    """Stands in for NoArgsIsHelpError on a click without it."""


_NO_ARGS_IS_HELP: type[click.ClickException] = getattr(click.exceptions, "NoArgsIsHelpError", _NeverRaised)


def one_line(text: str) -> str:
    """`text` with its line breaks folded into spaces (click's messages may span lines)."""
    return " ".join(text.split())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code (callable from tests)."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    # A relative or empty PATH entry (`node_modules/.bin`, `bin`, `::`) is searched from the working folder, which
    # for the gate is the change under review: any program a library looks up by name (platform's `uname -p`
    # when regopy is imported, a helper git starts) would be the change's own. Every command, and every process
    # it starts, sees PATH's absolute entries only.
    os.environ["PATH"] = absolute_path(os.environ.get("PATH", os.defpath))
    try:
        result = cli.main(args=args, prog_name="gatekeeper", standalone_mode=False)
    except GatekeeperError as exc:
        # A name from the change may be in the message: no CI runner reads it as a command (red team 49).
        click.echo(inert(f"gatekeeper: error: {exc}"), err=True)
        return int(exc.exit_code)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except _NO_ARGS_IS_HELP as exc:  # a bare `gatekeeper`: the help is the answer, not an error line
        exc.show()
        return int(ExitCode.ERROR)
    except click.UsageError as exc:
        # One line, as every other error: what is wrong, then where to look.
        command = exc.ctx.command_path if exc.ctx is not None else "gatekeeper"
        click.echo(f"gatekeeper: error: {one_line(exc.format_message())} (see '{command} --help')", err=True)
        return int(ExitCode.ERROR)
    except click.ClickException as exc:
        click.echo(f"gatekeeper: error: {one_line(exc.format_message())}", err=True)
        return int(ExitCode.ERROR)
    except click.exceptions.Abort:
        click.echo("gatekeeper: error: aborted", err=True)
        return int(ExitCode.ERROR)
    except KeyboardInterrupt:
        click.echo("gatekeeper: error: interrupted", err=True)
        return int(ExitCode.ERROR)
    except BrokenPipeError:
        return int(ExitCode.ERROR)
    except Exception as exc:  # the last line of defence: never a traceback unless asked for
        if debug:
            traceback.print_exc()
        click.echo(
            f"gatekeeper: internal error: {type(exc).__name__}: {exc} "
            "(this is a bug; rerun with --debug for the traceback)",
            err=True,
        )
        return int(ExitCode.ERROR)
    if result is None:
        return int(ExitCode.OK)
    return int(result)


def run() -> NoReturn:
    """The `gatekeeper` program (its console script, `python -m gatekeeper`): `main()`, then exit with its code.

    Without the interpreter's teardown: after a 10,000-file gate, finalization (module teardown, its
    collections over what the run left) costs ~0.1 s of CPU after the answer is out. What teardown would
    still do for us is done first: the atexit handlers run and the streams are flushed. A flush that fails,
    or a thread still running that is not a daemon, gets the ordinary exit, which deals with them as it
    always did."""
    code = main()
    main_thread = threading.main_thread()
    if any(t is not main_thread and not t.daemon and t.is_alive() for t in threading.enumerate()):
        sys.exit(code)  # joined first, as the ordinary exit does
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # the ordinary exit reports a stream that cannot be written (EPIPE: status 120)
        sys.exit(code)
    os._exit(code)
