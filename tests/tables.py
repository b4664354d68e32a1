"""A dense table of cases run as one test: `@each_case` instead of `@pytest.mark.parametrize`.

pytest costs ~1.5-2 ms of CPU a test beyond the test's own work (its setup and teardown protocol, the report a worker
sends to xdist's controller, the controller's bookkeeping), which for a table of path rules is ten times what the
case costs. A table whose cases only read (no function-scoped fixture, nothing written) runs as one test: every case
still runs and is asserted, and a failure names every case that failed, with its arguments and its own message.
A table whose only function-scoped fixture is `tmp_path` may write there: each case gets a new empty folder of its own
(`tmp_path/case<N>`), as each test got one; so may one that asks for `git_repo` (an empty repository, conftest.py):
each case gets a new one in its own folder (`case<N>/repo`, the `tmp_path/repo` the fixture makes), and `tmp_path`
is that folder. A table that asks for any other function-scoped fixture (`monkeypatch`, `capsys`, ...) stays
parametrized, since its cases would share it.
A case that calls `pytest.skip()` skips itself only (the table is skipped when every case skipped; a table where some
cases skipped passes with a warning naming them, so the run's summary still shows each skip).
A case may be a `pytest.param` (its values; a failure names it by its id); one with marks (skip, xfail) means
something only to pytest, and its table stays parametrized.
`-k` can no longer pick one case; run the test and read the list.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest
from gitrepo import GitRepo

_PARAM = type(pytest.param(None))  # pytest's ParameterSet, not exported under its own name


def each_case(argnames: str | Sequence[str], cases: Iterable[Any],
              ids: Iterable[str] | Callable[[Any], object] | None = None,
              ) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """`parametrize`'s arguments (names, then one value or one tuple a case; `ids` a name a case or a function
    naming each value, optional), run as one test."""
    names = [n.strip() for n in argnames.split(",")] if isinstance(argnames, str) else list(argnames)
    table = list(cases)
    assert not any(isinstance(case, _PARAM) and case.marks for case in table), "a case with marks: parametrize it"
    params = {index: case.id for index, case in enumerate(table) if isinstance(case, _PARAM)}
    table = [case.values if isinstance(case, _PARAM) else case for case in table]
    single = isinstance(argnames, str) and len(names) == 1  # as parametrize: one name in a string, the bare value
    labels = [str(i) for i in ids] if ids is not None and not callable(ids) else None
    assert labels is None or len(labels) == len(table), "one id a case"
    assert table, "an empty table asserts nothing"

    def label(index: int, values: tuple[Any, ...]) -> str:
        if params.get(index) is not None:
            return str(params[index])
        if labels is not None:
            return labels[index]
        if callable(ids):
            return "-".join(str(ids(v)) for v in values)
        return ", ".join(f"{n}={_short(v)}" for n, v in zip(names, values, strict=True))

    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(test)
        assert all(name in signature.parameters for name in names), (test.__name__, names)

        @functools.wraps(test)
        def run_every_case(**fixtures: Any) -> None:
            failed, skipped = [], []
            repo = fixtures.get("git_repo")
            if repo is not None:  # conftest's `git_repo` is `GitRepo(tmp_path / "repo")`: each case its own, so made
                assert isinstance(repo, GitRepo) and repo.root.name == "repo", repo
                assert fixtures.get("tmp_path", repo.root.parent) == repo.root.parent, "git_repo outside tmp_path"
            folder = repo.root.parent if repo is not None else fixtures.get("tmp_path")
            for index, case in enumerate(table):
                values = (case,) if single and index not in params else tuple(case)
                assert len(values) == len(names), (test.__name__, case)
                if folder is not None:  # each case its own new empty folder, as `tmp_path` gave each test
                    (folder / f"case{index}").mkdir()
                    if "tmp_path" in fixtures:
                        fixtures["tmp_path"] = folder / f"case{index}"
                    if repo is not None:
                        fixtures["git_repo"] = GitRepo(folder / f"case{index}" / "repo")
                try:
                    test(**fixtures, **dict(zip(names, values, strict=True)))
                except (AssertionError, pytest.fail.Exception) as error:
                    failed.append(f"[{label(index, values)}] {error}")
                except pytest.skip.Exception as skip:  # that case skipped, as its own test was: the others still run
                    skipped.append(f"[{label(index, values)}] {skip.msg}")
                except Exception as error:
                    error.add_note(f"in the case [{label(index, values)}] of {test.__name__}")
                    raise
            if failed:
                raise AssertionError(f"{len(failed)} of {len(table)} cases failed:\n" + "\n".join(failed))
            if len(skipped) == len(table):
                pytest.skip("every case skipped: " + "; ".join(skipped))
            if skipped:  # shown in the run's warnings summary, as a skipped parametrized case was in its counts
                warnings.warn(f"{len(skipped)} of {len(table)} cases skipped: " + "; ".join(skipped), stacklevel=2)

        # pytest reads the fixtures a test asks for from its signature: the table's names are not fixtures.
        run_every_case.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[p for name, p in signature.parameters.items() if name not in names])
        return run_every_case

    return decorate


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else f"{text[:100]}...({len(text)} characters)"
