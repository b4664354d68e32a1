"""`gatekeeper test`: the bundle's Rego unit tests, the fixture cases and rule coverage."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import click

from gatekeeper.atomic import write_output
from gatekeeper.errors import ExitCode, UsageError
from gatekeeper.policy_dir import resolve_policy_dir
from gatekeeper.testing.report import FORMATS, render, render_verbose, summary_line
from gatekeeper.testing.suite import run_suite


@dataclass(frozen=True, slots=True)
class TestOptions:
    """The parsed command line of `gatekeeper test`."""

    __test__ = False  # not a pytest test class, despite the name

    policy: Path | None
    fixtures: Path | None
    fmt: str
    min_coverage: float
    output: Path | None
    verbose: bool = False
    run: str | None = None
    since: str | None = None


def execute(options: TestOptions) -> ExitCode:
    """Run the suite, print or write the report, and return the run's exit code."""
    policy_dir = resolve_policy_dir(options.policy)
    fixtures = options.fixtures
    if fixtures is None and (Path.cwd() / "fixtures").is_dir():
        fixtures = Path.cwd() / "fixtures"
    select = _pattern(options.run) if options.run is not None else None
    run = run_suite(policy_dir, fixtures, min_coverage=options.min_coverage, select=select, since=options.since)
    text = render_verbose(run) if options.verbose and options.fmt == "text" else render(options.fmt, run)
    if options.output is not None:
        write_output(options.output, text)
        click.echo(summary_line(run), err=True)
    else:
        click.echo(text, nl=False)
    return run.exit_code


def _pattern(text: str) -> re.Pattern[str]:
    try:
        return re.compile(text)
    except re.error as exc:
        raise UsageError(f"--run is not a valid regular expression: {exc}", where="--run",
                         hint="e.g. --run 'deps' or --run '^test_lockfile'") from None


@click.command("test")
@click.option("--policy", "policy", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Policy bundle folder (default: gatekeeper.yaml, ./policies, the shipped one).")
@click.option("--fixtures", "fixtures", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Fixture cases folder (default: ./fixtures when it exists).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--min-coverage", type=click.FloatRange(0, 100), default=100.0, show_default=True, metavar="PCT",
              help="Fail when fewer than PCT percent of the declared rule ids are covered: asserted by a passing "
                   "fixture, or named by a passing Rego test (see docs/testing.md).")
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the report to FILE (atomically) instead of stdout.")
@click.option("-v", "--verbose", is_flag=True, help="List every test and case with its result and time.")
@click.option("--run", "run", default=None, metavar="REGEX",
              help="Run only the Rego tests (name or data.<package>.<name>) and fixture cases (<case>[<set>]) "
                   "REGEX finds; coverage is not enforced on a selection.")
@click.option("--since", "since", default=None, metavar="REV",
              help="Also fail when a policy's modules changed since git revision REV without the version bump "
                   "the change needs (patch; minor for a new rule id; major for a removed one).")
def test_command(policy: Path | None, fixtures: Path | None, fmt: str, min_coverage: float,
                 output: Path | None, verbose: bool, run: str | None, since: str | None) -> int:
    """Run the bundle's Rego unit tests and fixture cases in regopy and in OPA, and check rule coverage.

    OPA (the reference engine) compiles the whole bundle first; an OPA compile error or a
    disagreement between the engines fails the run. With --since REV, a policy changed since
    REV without the version bump its change needs fails too.

    Exit 0 when everything passes; 1 when a test or case fails or coverage is below the floor;
    2 when the bundle or the fixtures cannot be loaded.
    """
    return int(execute(TestOptions(policy, fixtures, fmt, min_coverage, output, verbose, run, since)))


COMMANDS: list[click.Command] = [test_command]
