"""perf38: `dotnetrun.assemblies` read a long token (a minified bundle, a lockfile's hash line) in time quadratic in
its length: `_RUN`'s `[^\\s;&|]*dotnet` was tried from every character of the token and scanned to its end each time
(redux-toolkit's tree: 419 of 428 CPU-s of `classify --tree` in `_RUN.findall`, 121 texts). Answers unchanged."""

from __future__ import annotations

import re

import pytest

from gatekeeper.classify import dotnetrun
from tests.cpucost import assert_linear, repeated

# A text reaches the run pattern when it holds `.dll`, `--project` or `-p `; the body is one long token.
_HEADS = ["x.dll ", "-p q\n"]
_UNITS = ["a", "dotnet", "DotNet_"]


@pytest.mark.parametrize("head", _HEADS)
@pytest.mark.parametrize("unit", _UNITS)
def test_one_long_token_is_read_in_linear_time(head: str, unit: str) -> None:
    assert_linear(lambda text: dotnetrun.assemblies(text, {}, lambda _: b""), repeated(unit, head, " done\n"),
                  budget=1.0)


@pytest.mark.parametrize("unit", _UNITS)
def test_projects_reads_one_long_token_in_linear_time(unit: str) -> None:
    assert_linear(dotnetrun.projects, repeated(unit, "dotnet ", " done\n"), budget=1.0)


# b493f73c's pattern: on short texts its matches are the truth the linear one keeps
_OLD_RUN = re.compile(r"(?i:[^\s;&|]*dotnet[^\s;&|]*)[ \t]++run(?=[ \t])([^\n;&|]*)")
_PREFIXES = ["", "x", "./.dotnet/", '"$DOTNET_EXE"', "x;", "a&&", "a|", "\t", "echo "]
_NAMES = ["dotnet", "DOTNET", "dotnet.exe", "dotnetrun", "Dot", "dotne", "mydotnet-x"]
_TAILS = [" run --project build/Build.csproj", " run", " run\tx", " runner -p a", "  run -p b.fsproj -- --x",
          "; run --project c", " RUN --project d", "\trun x|y", " run x&& dotnet run y"]


@pytest.mark.parametrize("prefix", _PREFIXES)
@pytest.mark.parametrize("name", _NAMES)
def test_run_matches_unchanged(prefix: str, name: str) -> None:
    for tail in _TAILS:
        for text in (f"{prefix}{name}{tail}", f"{prefix}{name}{tail} \n{prefix}{name}{tail}\n"):
            assert dotnetrun._RUN.findall(text) == _OLD_RUN.findall(text), text
