"""cost40: every reader the CI walk hands a text or a line, fed the shapes that make a regular expression or a loop
super-linear (issues 12 and 13: an agent shapes the files CI reads, and a gate that takes minutes is a CI outage).

The readers are not a hand list: a walk over a repository of CI definitions, scripts and manifests (the `_CARRIERS`,
each holding the marker `_MARK` on a command line after the lines that wake the readers: `dotnet run`, `npx`, `go
run`, `pip install`, ...) is traced (`sys.setprofile`), and every function of a `gatekeeper` module it calls with a
string that holds the marker is a reader, called again with its recorded arguments, the marker replaced by a hostile
body: one 64 KiB word, 64 KiB of one token readers look for (`-p `, `./`, `${`, `$(`, quotes, backslashes, `(`), deep
nesting and many short lines. A reader added to the walk is covered without a line here.

A call that costs little at 64 KiB is repeated until the small text costs `_AMPLIFIED` CPU seconds, so the ratio check
of `assert_linear` measures it (review67b: a quadratic reader under 10 ms at 64 KiB passes the floor and costs 256
times that at FULL_READ). One under `_NEGLIGIBLE` at 64 KiB is left out: quadratic, it would cost under 26 ms at 1 MiB.
"""

from __future__ import annotations

import copy
import math
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from citools import BLOCK_DEFINITIONS, RUN_WORKFLOW, one_tree_runs, yaml_quoted

from tests.cpucost import LARGE, assert_linear, least_cpu, repeated

_MARK = "QqCost40MarkQq"
# the words that wake the walk's readers (each reads a text only when it holds one of them)
_HEAD = [
    "dotnet run --project build/x.csproj -p:a=b ./out/x.dll tools/x.exe", "go run ./cmd/x", "cargo run -p foo",
    "npx ./t --x", "pip install -e . -r requirements.txt", "docker build -f Dockerfile .",
    "docker compose -f stack.yml up", "helmfile -f helmfile.yaml sync", "ansible-playbook site.yml",
    "terraform -chdir=infra apply", "rubocop -c .rubocop.yml", "pylint --rcfile=.pylintrc x",
    "mypy --config-file x.ini",
    "bash scripts/x.sh", "cd sub && ./gradlew build", "make -C sub all", "source .envrc", "npm run build",
    "python -m pytest tests", "kubectl apply -f k8s/", 'DIR="$(dirname "$0")"; . "$DIR/lib.sh"',
    "${{ github.action_path }}/a.sh", "xargs -n1 sh -c 'x'", "for f in a b; do ./$f.sh; done",
    f"echo {_MARK} done",
]
_LINE = "\n".join(_HEAD)
def _indent(template: str) -> int:
    line = next(line for line in template.splitlines() if "{line}" in line)
    return len(line) - len(line.lstrip())


def _carriers() -> dict[str, str]:
    """What the walk reads: six CI systems' definitions, and the script, Makefile, package.json, .envrc, Dockerfile,
    Taskfile, justfile, tox.ini, Earthfile and pyproject.toml they run."""
    files = {path: text.format(line=_LINE.replace("\n", "\n" + " " * _indent(text)))
             for path, text in BLOCK_DEFINITIONS}
    files["scripts/x.sh"] = "#!/bin/bash\nset -e\n" + _LINE + "\n"
    files["sub/Makefile"] = "all:\n" + "".join(f"\t{line}\n" for line in _HEAD)
    files["package.json"] = ('{"name": "p", "scripts": {"build": "' + " && ".join(_HEAD).replace("\\", "\\\\")
                             .replace('"', '\\"') + '"}}\n')
    files[".envrc"] = _LINE + "\n"
    # and what a workflow's other steps run: a Dockerfile it builds, a local action, task runners' files
    files[".github/workflows/build.yml"] = RUN_WORKFLOW.format(
        run="docker build -f Dockerfile . && task build && just build && tox -e x && earthly +build")
    files["Dockerfile"] = "FROM x\nCOPY . /src\n" + "".join(f"RUN {line}\n" for line in _HEAD)
    files["Taskfile.yml"] = "version: '3'\ntasks:\n  build:\n    cmds:\n" + "".join(
        f"      - {yaml_quoted(line)}\n" for line in _HEAD)
    files["justfile"] = "build:\n" + "".join(f"    {line}\n" for line in _HEAD)
    files["tox.ini"] = "[testenv:x]\ncommands =\n" + "".join(f"    {line}\n" for line in _HEAD)
    files["Earthfile"] = "VERSION 0.8\nbuild:\n" + "".join(f"    RUN {line}\n" for line in _HEAD)
    files["pyproject.toml"] = f'[tool.poe.tasks]\nx = "{_HEAD[-1]}"\n'
    return files


@dataclass(frozen=True, slots=True)
class _Call:
    """A reader and the arguments the walk called it with (the marker still in them)."""

    function: Callable[..., object]
    args: tuple[object, ...]
    kwargs: dict[str, object]


def _resolved(frame: types.FrameType) -> Callable[..., object] | None:
    """The module-level function or class method whose code runs in `frame` (None for a nested function)."""
    code = frame.f_code
    if "<locals>" in code.co_qualname:
        return None
    first, *rest = code.co_qualname.split(".")
    found: Any = frame.f_globals.get(first)
    for part in rest:
        found = found.__dict__.get(part) if isinstance(found, type) else None
        found = found.__func__ if isinstance(found, (staticmethod, classmethod)) else found
    found = getattr(found, "__wrapped__", found)  # a functools.cache: the reader itself, not its memo
    return found if getattr(found, "__code__", None) is code else None


def _marked(value: object) -> bool:
    return (isinstance(value, str) and _MARK in value) or (
        isinstance(value, (list, tuple)) and any(isinstance(item, str) and _MARK in item for item in value))


@cache
def readers() -> dict[str, _Call]:
    """{module.function: its first call in a walk over `_carriers()` with an argument holding the marker}."""
    calls: dict[str, _Call] = {}

    def profile(frame: types.FrameType, event: str, _: object) -> None:
        module = frame.f_globals.get("__name__", "")
        if event != "call" or not module.startswith("gatekeeper."):
            return
        code = frame.f_code
        name = f"{module.removeprefix('gatekeeper.')}.{code.co_qualname}"
        if name in calls:
            return
        local = frame.f_locals
        positional = code.co_varnames[:code.co_argcount]
        keywords = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
        star = code.co_varnames[code.co_argcount + code.co_kwonlyargcount] if code.co_flags & 4 else None
        values = [local[v] for v in positional] + list(local[star] if star else ())
        if not any(_marked(v) for v in (*values, *(local[k] for k in keywords))):
            return
        function = _resolved(frame)
        if function is not None:
            calls[name] = _Call(function, tuple(copy.copy(v) for v in values),
                                {k: copy.copy(local[k]) for k in keywords})

    sys.setprofile(profile)
    try:
        one_tree_runs(_carriers())
    finally:
        sys.setprofile(None)
    return calls


def _with(value: object, body: str) -> object:
    if isinstance(value, str):
        return value.replace(_MARK, body)
    if isinstance(value, (list, tuple)) and _marked(value):
        return type(value)(_with(item, body) for item in value)
    return value


def _reading(call: _Call) -> Callable[[str], object]:
    """`call` with the marker replaced by a body: what it returns, read whole (a generator drained)."""
    def read(body: str) -> object:
        args = [_with(value, body) for value in call.args]
        kwargs = {key: _with(value, body) for key, value in call.kwargs.items()}
        try:
            got = call.function(*args, **kwargs)
            return list(got) if isinstance(got, types.GeneratorType) else got
        except Exception as error:  # noqa: BLE001  (a reader that refuses a text: its cost is what is measured)
            return error
    return read


# name: the unit the body repeats
SHAPES: dict[str, str] = {
    "word": "a",
    "dash-p": "-p ",
    "dot-slash": "./",
    "dollar-brace": "${",
    "dollar-paren": "$(",
    "paren": "(",
    "single-quoted": "'a'",
    "double-quote": '"',
    "backslash": "\\",
    "nesting": "{[(",
    "short-lines": "x\n",
}
_AMPLIFIED = 0.002  # CPU seconds the small text's calls cost at least, repeated (assert_linear: 16 ms over its floor)
_NEGLIGIBLE = 0.0001  # a call at 64 KiB under this is not measured for its ratio
_LINEAR = 6.0  # a ratio under this at the first measure passes; past it, assert_linear decides (least of several)
_BUDGET = 1.0  # CPU seconds of one call at 64 KiB


def test_the_walk_has_readers() -> None:
    """The trace finds the readers this round fixed and the ones every text passes (a broken trace is no pass)."""
    found = readers()
    assert len(found) > 60, sorted(found)
    for name in ("classify.ciruns.named_tasks", "classify.dotnetrun.assemblies", "classify.npmbins.named",
                 "classify.pipinstalls.installed_projects", "classify.composeruns.localized",
                 "classify.deployruns.targets", "classify.ciconfigs.named", "classify.dockerrefs.run_scripts",
                 "classify.shellwords.split"):
        assert name in found, name


def _repeated(read: Callable[[str], object], times: int) -> Callable[[str], object]:
    return lambda body: [read(body) for _ in range(times)]


@pytest.mark.parametrize("reader", sorted(readers()))
def test_every_reader_is_linear_in_each_hostile_shape(reader: str) -> None:
    read = _reading(readers()[reader])
    slow = []
    for shape, unit in SHAPES.items():
        text = repeated(unit)
        large = least_cpu(read, text(LARGE), runs=1)
        assert large < _BUDGET, (shape, large)
        if large < _NEGLIGIBLE:
            continue
        times = max(1, math.ceil(4 * _AMPLIFIED / large))
        amplified = _repeated(read, times)
        large = large if times == 1 else least_cpu(amplified, text(LARGE), runs=1)  # a dear call: measured once
        if large < _LINEAR * least_cpu(amplified, text(LARGE // 4), runs=1):
            continue
        try:
            assert_linear(amplified, text, budget=_BUDGET * times)
        except AssertionError as error:
            slow.append(f"{shape}: {error}")
    assert not slow, slow
