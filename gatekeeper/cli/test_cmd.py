"""`gatekeeper test`: the bundle's Rego unit tests, the fixture cases and rule coverage."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from gatekeeper.errors import ExitCode
from gatekeeper.testing.report import FORMATS


@dataclass(frozen=True, slots=True)
class TestOptions:
    """The parsed command line of `gatekeeper test`."""

    __test__ = False  # not a pytest test class, despite the name

    policy: Path | None
    fixtures: Path | None
    fmt: str
    min_coverage: float
    output: Path | None


def execute(options: TestOptions) -> ExitCode:
    """Run the suite, print or write the report, and return the run's exit code."""
    from gatekeeper.atomic import write_atomic
    from gatekeeper.config import resolve_policy_dir
    from gatekeeper.testing.report import render, summary_line
    from gatekeeper.testing.suite import run_suite

    policy_dir = resolve_policy_dir(options.policy)
    fixtures = options.fixtures
    if fixtures is None and (Path.cwd() / "fixtures").is_dir():
        fixtures = Path.cwd() / "fixtures"
    run = run_suite(policy_dir, fixtures, min_coverage=options.min_coverage)
    text = render(options.fmt, run)
    if options.output is not None:
        write_atomic(options.output, text)
        click.echo(summary_line(run), err=True)
    else:
        click.echo(text, nl=False)
    return run.exit_code


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
def test_command(policy: Path | None, fixtures: Path | None, fmt: str, min_coverage: float,
                 output: Path | None) -> int:
    """Run the bundle's Rego unit tests and fixture cases, and check rule coverage.

    Exit 0 when everything passes; 1 when a test or case fails or coverage is below the floor;
    2 when the bundle or the fixtures cannot be loaded.
    """
    return int(execute(TestOptions(policy, fixtures, fmt, min_coverage, output)))


COMMANDS: list[click.Command] = [test_command]
