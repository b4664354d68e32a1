"""The only module that talks to regopy: compile, build once, query through a binding, in isolation.

Every entry point runs the engine in a forked child (`run_isolated`) under a hard time limit, with
the C library's log level at none and its stdout/stderr sent to /dev/null. Errors come back as
PolicyError naming `file:line:col`; a crash or a hang as EngineCrashed / EngineTimedOut.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import pickle
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from gatekeeper.errors import PolicyError
from gatekeeper.policy import forkserver
from gatekeeper.policy.isolate import (
    EngineCrashed,
    EngineTimedOut,
    Isolated,
    signal_name,
    start_isolated,
)
from gatekeeper.policy.rego_errors import Diagnostic, compile_error, diagnostics, runtime_error
from gatekeeper.policy.rego_values import InputBuilder, output_text, read_node, restore_strings

__all__ = ["UNDEFINED", "Evaluating", "RegoTestOutcome", "check_modules", "run_tests", "start_evaluating"]

_ERROR_KINDS = (1800, 1804)  # NodeKind.Error, NodeKind.ErrorSeq


class _Undefined:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __reduce__(self) -> str:
        return "UNDEFINED"  # unpickles as the module-level singleton


UNDEFINED: Any = _Undefined()

# A child that has its answer exits at once (os._exit); freeing a 10,000-file input and the
# interpreter node by node first would cost more than the evaluation. Children park them here.
_NEVER_FREED: list[Any] = []

# Bundles built in this process, live (interpreter, bundle), by the sha256 of everything that built them
# (modules, data, query). A child forked after one is held evaluates on the parent's copy (nothing to build or
# load) instead of compiling and building again (~50 ms for the shipped policies): a process that gates many
# changes (`audit replay`, a test run) pays the build twice, not every time. Still one child per evaluation,
# under the same limit. The parent builds a key only after a child built it and answered (so a bundle that
# crashes or hangs the engine is never built outside a child), and only on the key's second use: a one-gate
# process never does. Not regopy's saved binary bundle: a bundle loaded from it prints data strings through
# `sprintf("%s")` with quotes around them where the built one does not, so findings would depend on how many
# gates a process had run. With a fork server (forkserver.py) the server holds them, under the same rule: this
# process says when a key answered (`_hold` runs there before the fork).
_BUILT: dict[str, tuple[Any, Any]] = {}
_ANSWERED: set[str] = set()
_BUILT_MAX = 16
# What a fork server (forkserver.py) imports before its first child: this module and the C library.
_PRELOAD = ("regopy", __name__)


@dataclass(frozen=True, slots=True)
class RegoTestOutcome:
    """One Rego unit test's result: `pass`, `fail` (false or undefined) or `error` (with where).

    `died` is set when the engine crashed or ran past its time limit on the test (status `error`).
    """

    name: str
    status: str
    message: str = ""
    where: str | None = None
    died: bool = False


class Evaluating:
    """An evaluation at work in its child: `result()` waits, `cancel()` kills it."""

    def __init__(self, job: Isolated, key: str) -> None:
        self._job, self._key = job, key

    def complete(self, rests: Sequence[Mapping[str, Any]]) -> None:
        """Send the child the rest of each input (started with `late=True`): the keys its input lacks."""
        self._job.feed(pickle.dumps([dict(rest) for rest in rests], protocol=pickle.HIGHEST_PROTOCOL))

    def result(self) -> list[Any]:
        """Per input, its value (UNDEFINED when it has none) or its PolicyError.

        A crash, a hang or a bundle that does not build raises (EngineCrashed, EngineTimedOut, PolicyError).
        """
        values = self._job.result()
        if len(_ANSWERED) >= 4 * _BUILT_MAX:
            _ANSWERED.clear()
        _ANSWERED.add(self._key)
        return [PolicyError(item[1], where=item[2], hint=item[3]) if isinstance(item, tuple) else item
                for item in values]

    def cancel(self) -> None:
        """Stop the child (the caller failed before collecting the result)."""
        self._job.cancel()


def start_evaluating(
    modules: Mapping[str, str], data: Mapping[str, Any], inputs: Sequence[Mapping[str, Any]], query: str, *,
    timeout: float, late: bool = False,
) -> Evaluating:
    """Evaluate the Rego expression `query` over each of `inputs` in one forked child with one build.

    The child gets the inputs through the fork (nothing is pickled on the way in); the caller works on
    and collects with `.result()`. `timeout` is for all the inputs together.
    `late`: each input is only its first keys; the caller sends the rest with `.complete()` (pickled: keep it small)
    while the child builds the bundle and hands the engine those first keys (a gate's `files`: the bulk of the work).
    """
    _load_library()
    key = _bundle_key(modules, data, query)
    served = forkserver.server(_PRELOAD)
    if served is not None:  # the server holds the bundles (the same rule), not this process
        sent = dict(modules)
        prepare = partial(_hold, key, sent, data, query) if key in _ANSWERED else None
        try:
            return Evaluating(served.start(_evaluate_held, (key, sent, data, list(inputs), query), timeout=timeout,
                                           fed=late, prepare=prepare), key)
        except forkserver.ServerGone:
            pass
    built = _BUILT.get(key)
    if built is None and key in _ANSWERED:
        if len(_BUILT) >= _BUILT_MAX:
            _BUILT.clear()
        built = _BUILT[key] = _built_bundle(modules, data, query)
    job = start_isolated(_evaluate_here, dict(modules), data, list(inputs), query, built, timeout=timeout,
                         fed=late)
    return Evaluating(job, key)


def _bundle_key(modules: Mapping[str, str], data: Mapping[str, Any], query: str) -> str:
    return content_key([query], modules, data)


def content_key(prefix: Sequence[str], modules: Mapping[str, str], data: Mapping[str, Any]) -> str:
    """sha256 over `prefix`, the data document and every module (name and source), each part length-prefixed so
    no two different inputs share a key: what a built bundle, or a compile check that passed, is remembered by."""
    digest = hashlib.sha256()
    parts = [*prefix, json.dumps(data, sort_keys=True, separators=(",", ":"))]
    for name in sorted(modules):
        parts += [name, modules[name]]
    for part in parts:
        raw = part.encode("utf-8", "surrogatepass")
        digest.update(len(raw).to_bytes(8, "big") + raw)
    return digest.hexdigest()


def check_modules(modules: Mapping[str, str], *, timeout: float) -> None:
    """Compile `modules` in a child; raise PolicyError naming `file:line:col` when one does not compile."""
    _load_library()
    _start(_check_here, dict(modules), timeout=timeout).result()


def run_tests(
    modules: Mapping[str, str], data: Mapping[str, Any], package: str, tests: Sequence[str], *, timeout: float
) -> list[RegoTestOutcome]:
    """Run the boolean `tests` rules of `package` (one build, one query each) in a child.

    A crash or hang of the shared child is retried one test per child, so it is pinned on the test
    that caused it and the others still report; the per-test retry uses the same `timeout`.
    """
    _load_library()
    try:
        return _start(_tests_here, dict(modules), data, package, list(tests), timeout=timeout).result()
    except (EngineCrashed, EngineTimedOut):
        pass
    outcomes: list[RegoTestOutcome] = []
    for name in tests:
        try:
            outcomes.extend(_start(_tests_here, dict(modules), data, package, [name], timeout=timeout).result())
        except EngineCrashed as exc:
            crashed = f"the Rego engine crashed running this test ({signal_name(exc.signal_number)})"
            outcomes.append(RegoTestOutcome(name, "error", crashed, died=True))
        except EngineTimedOut:
            outcomes.append(RegoTestOutcome(name, "error", f"the test ran past {timeout:g} s", died=True))
    return outcomes


def _start(func: Callable[..., Any], *args: Any, timeout: float) -> Isolated:
    """`func(*args)` in a child of the fork server when this process has one, else forked here."""
    served = forkserver.server(_PRELOAD)
    if served is not None:
        try:
            return served.start(func, args, timeout=timeout, fed=False, prepare=None)
        except forkserver.ServerGone:
            pass
    return start_isolated(func, *args, timeout=timeout)


def _load_library() -> None:
    """Load regopy's C library here, once, so the children forked after it do not each load it again.

    (~20 ms a child.)
    """
    importlib.import_module("regopy")


# --- below runs inside the forked child (and `_built_bundle` in a parent on a key's second use) ------------
# regopy is imported inside these functions: its C library is heavy, and a one-gate parent never needs it.


def _interpreter(modules: Mapping[str, str], data: Mapping[str, Any] | None) -> Any:
    from regopy import Interpreter, LogLevel, RegoError  # deferred: the child only (see above)

    rego = Interpreter()
    rego.log_level = LogLevel.NONE
    rego.strict_built_in_errors = True
    if data:
        rego.add_data(data)  # once, whole: a second add_data with the same top-level key is dropped
    for name, source in modules.items():
        try:
            rego.add_module(name, source)
        except RegoError as exc:
            raise compile_error(str(exc), name, modules) from None
    return rego


def _built_bundle(modules: Mapping[str, str], data: Mapping[str, Any], query: str) -> tuple[Any, Any]:
    """(interpreter, bundle) for `query` over `modules` and `data`, as each evaluating child builds them."""
    rego = _interpreter(modules, data)
    return rego, _build(rego, f"x := [v | v := ({query})]", modules)


def _evaluate_here(modules: dict[str, str], data: Mapping[str, Any], inputs: list[Any], query: str,
                   built: tuple[Any, Any] | None,
                   receive: Callable[[], bytes] | None = None) -> list[Any]:
    """Per input, its value or error. `built`: the parent's (interpreter, bundle) for these, else built here.

    `receive`: the parent's feed (start_evaluating's `late`), the rest of every input, read when the first input's
    first keys are in the engine."""
    from regopy.rego_shared import rego_bundle_query  # deferred: the child only (see above)

    rego, bundle = built if built is not None else _built_bundle(modules, data, query)
    _NEVER_FREED.extend((rego, bundle))
    results: list[Any] = []
    rests: list[dict[str, Any]] = []

    def rest_of(index: int) -> dict[str, Any]:
        if receive is not None and not rests:
            rests.extend(pickle.loads(receive()))
        return rests[index]

    for index, input in enumerate(inputs):
        try:
            restore = _set_input(rego, input, None if receive is None else partial(rest_of, index))
            values = _read(rego_bundle_query(rego._impl, bundle._impl), modules, binding="x")
        except PolicyError as exc:  # sent as plain values: the error class takes keyword arguments
            results.append(("error", exc.what, exc.where, exc.hint))
            continue
        results.append(UNDEFINED if values is UNDEFINED or not values else restore_strings(values[0], restore))
    return results


def _hold(key: str, modules: Mapping[str, str], data: Mapping[str, Any], query: str) -> None:
    """In a fork server, before it forks: build and hold `key`'s bundle (the caller says a child answered for it)."""
    if key not in _BUILT:
        if len(_BUILT) >= _BUILT_MAX:
            _BUILT.clear()
        _BUILT[key] = _built_bundle(modules, data, query)


def held_keys() -> list[str]:
    """The keys of the bundles this process holds built (a fork server's: through its `call`)."""
    return sorted(_BUILT)


def _evaluate_held(key: str, modules: dict[str, str], data: Mapping[str, Any], inputs: list[Any], query: str,
                   receive: Callable[[], bytes] | None = None) -> list[Any]:
    """_evaluate_here in a fork server's child: on the bundle the server holds for `key`, if it holds one."""
    return _evaluate_here(modules, data, inputs, query, _BUILT.get(key), receive)


def _check_here(modules: dict[str, str]) -> None:
    _interpreter(modules, None)


def _tests_here(
    modules: dict[str, str], data: Mapping[str, Any], package: str, tests: list[str]
) -> list[RegoTestOutcome]:
    from regopy import RegoError  # deferred: the child only (see above)
    from regopy.rego_shared import rego_bundle_query_entrypoint  # deferred: the child only (see above)

    rego = _interpreter(modules, data)
    prefix = package.replace(".", "/")
    points = [f"{prefix}/{name}" for name in tests]
    try:
        bundle = rego.build(None, points)
    except RegoError as exc:
        raise compile_error(str(exc), "", modules) from None
    outcomes = []
    for name, point in zip(tests, points, strict=True):
        try:
            value = _read(rego_bundle_query_entrypoint(rego._impl, bundle._impl, point), modules)
        except PolicyError as exc:
            outcomes.append(RegoTestOutcome(name, "error", exc.what, exc.where))
            continue
        if value is True:
            outcomes.append(RegoTestOutcome(name, "pass"))
        elif value is UNDEFINED:
            outcomes.append(
                RegoTestOutcome(name, "fail", "the test is undefined (a condition in its body did not hold)")
            )
        else:
            outcomes.append(RegoTestOutcome(name, "fail", f"the test evaluated to {json.dumps(value)}"))
    return outcomes


def _build(rego: Any, query: str, modules: Mapping[str, str]) -> Any:
    from regopy import RegoError  # deferred: the child only (see above)

    try:
        bundle = rego.build(query)
    except RegoError as exc:
        raise compile_error(str(exc), "", modules) from None
    if not bundle.ok():
        raise PolicyError("the policy bundle did not build", hint="run `gatekeeper test` to find the module at fault")
    return bundle


def _read(output: int, modules: Mapping[str, str], *, binding: str | None = None) -> Any:
    """The value of `binding` (else of the first expression) in one query output; UNDEFINED when none.

    An error output becomes a PolicyError located at `file:line:col`.
    """
    from regopy.rego_shared import rego as lib  # deferred: the child only (see above)
    from regopy.rego_shared import rego_free_output, rego_node_json  # deferred: the child only (see above)

    try:
        node = lib.regoOutputNode(output)
        kind = lib.regoNodeType(node) if node else 0
        if kind in _ERROR_KINDS:
            parts = [node] if kind == 1800 else [lib.regoNodeGet(node, i) for i in range(lib.regoNodeSize(node))]
            found = [d for part in parts for d in diagnostics(rego_node_json(part))]
            found = found or [Diagnostic("evaluation failed")]
            raise runtime_error(found, modules)
        text = output_text(lib, output)
        if text == "undefined":
            return UNDEFINED
        try:
            doc = json.loads(text)
            return doc["bindings"][binding] if binding else doc["expressions"][0]
        except (ValueError, KeyError, IndexError, TypeError):
            # The engine writes some strings unescaped; read the result tree instead of its JSON.
            return _read_tree(lib, output, binding)
    finally:
        rego_free_output(output)


def _read_tree(lib: Any, output: int, binding: str | None) -> Any:
    if binding:
        node = lib.regoOutputBindingAtIndex(output, 0, binding.encode("ascii"))
    else:
        terms = lib.regoOutputExpressionsAtIndex(output, 0)
        node = lib.regoNodeGet(terms, 0) if terms and lib.regoNodeSize(terms) else None
    if not node:
        raise PolicyError("the engine returned a result without the queried value", hint="this is a bug in gatekeeper")
    return read_node(lib, node)


def _set_input(rego: Any, value: Mapping[str, Any], rest: Callable[[], Mapping[str, Any]] | None = None
               ) -> dict[str, str]:
    """Hand `value` to the engine through the C input builder; the map of encoded strings back.

    `rest`: the keys `value` lacks, asked for once `value`'s own are in (one object of both)."""
    from regopy.rego_shared import rego as lib  # deferred: the child only (see above)
    from regopy.rego_shared import rego_new_input, rego_set_input  # deferred: the child only (see above)

    handle = rego_new_input()  # never freed: see _NEVER_FREED
    builder = InputBuilder(lib, handle)
    if rest is None:
        builder.value(value)
    else:  # one object: the keys the child had at the fork, then the ones the parent sent since
        for key, inner in value.items():
            builder.key(key)
            builder.value(inner)
            builder.item()
        late = rest()
        for key, inner in late.items():
            builder.key(key)
            builder.value(inner)
            builder.item()
        builder.object(len(value) + len(late))
    if builder.failed:
        raise PolicyError("the engine refused the policy input", hint="this is a bug in gatekeeper")
    rego_set_input(rego._impl, handle)
    return builder.restore
