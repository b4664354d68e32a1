"""Run every enabled policy in one query, check each finding's shape, and aggregate an outcome.

One interpreter, one build, one query per policy input collects `deny`, `review` and `warn` of every enabled
package (each wrapped in a comprehension, so a package without one of them yields []).
A finding must be `{"rule", "msg", "bucket"?, "paths"?}` with a rule id its policy declares;
anything else is a PolicyError naming the policy file, because a malformed finding that
silently disappears would be a silent allow.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gatekeeper.errors import PolicyError
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import BUCKETS, LEVELS, Finding
from gatekeeper.policy import engine, reference
from gatekeeper.policy.bundle import Bundle, PolicyInfo
from gatekeeper.policy.compile_check import start_check
from gatekeeper.policy.isolate import EngineCrashed, EngineTimedOut, signal_name
from gatekeeper.policy.rego_errors import locate_text, rule_at

_FINDING_KEYS = frozenset({"rule", "msg", "bucket", "paths"})


def findings_query(policies: Sequence[PolicyInfo]) -> str:
    """The single Rego expression that gathers every level of every policy."""
    parts = []
    for info in policies:
        levels = ", ".join(f'"{level}": [v | v := data.{info.package}.{level}]' for level in LEVELS)
        parts.append(f'"{info.name}": {{{levels}}}')
    return "{" + ", ".join(parts) + "}"


class Evaluation:
    """The enabled policies being evaluated over some policy inputs in one engine child.

    Beside it, OPA compiles the very modules regopy evaluates (or not at all when these bytes passed
    before): a module it rejects fails every input whatever regopy answers. `cross_check` (for
    `gatekeeper test`) also evaluates every input in OPA when it is installed; an input on which the
    engines disagree gets a PolicyError showing both results.
    """

    def __init__(self, bundle: Bundle, enabled: Sequence[str], inputs: Sequence[Mapping[str, Any]], *,
                 timeout: float, cross_check: bool = False, late: bool = False) -> None:
        """`late`: `inputs` are each input's first keys, the rest comes with `complete()` (before `results()`)."""
        self._bundle, self._timeout, self._cross_check = bundle, timeout, cross_check
        self._policies = [bundle.policy(name) for name in enabled]
        self._inputs = list(inputs)
        self._modules = bundle.modules_for(info.name for info in self._policies)
        self._query = findings_query(self._policies)
        self._job: engine.Evaluating | None = None
        self._theirs: Callable[[], list[Any]] | None = None
        self._check: Callable[[], None] = _no_check
        self._waiting = late
        if not self._policies or not self._inputs:
            return
        # The engine child first: the check's work here (its reference scan and cache key, ~5 ms) then runs while the
        # child takes the input in, not before its fork; its answer is still read before the child's (`results`).
        self._job = engine.start_evaluating(self._modules, bundle.data(), self._inputs, self._query, timeout=timeout,
                                            late=late)
        try:
            self._check = start_check(self._modules, bundle.data(), timeout=timeout)
        except BaseException:
            self._job.cancel()
            raise
        if not late:
            self._start_theirs()

    def complete(self, rests: Sequence[Mapping[str, Any]]) -> None:
        """The rest of each input (keys its first part lacks), sent to the engine child while it works."""
        if not self._waiting:
            raise RuntimeError("complete() without late=True, or twice")
        for doc, rest in zip(self._inputs, rests, strict=True):
            if doc.keys() & rest.keys():
                raise ValueError(f"keys given twice: {sorted(doc.keys() & rest.keys())}")
        self._waiting = False
        self._inputs = [{**doc, **rest} for doc, rest in zip(self._inputs, rests, strict=True)]
        if self._job is not None:
            self._job.complete(rests)
            self._start_theirs()

    def _start_theirs(self) -> None:
        if self._cross_check and reference.missing_reason() is None:
            self._theirs = reference.start_evaluating(self._modules, self._bundle.data(), self._inputs, self._query,
                                                      timeout=self._timeout * 3)

    def results(self) -> list[list[Finding] | PolicyError]:
        """Per input, its validated findings (each with `policy` and `level`) or the PolicyError that stopped it.

        A failure of the child as a whole is every input's error; a crash or a hang of a child shared by
        several inputs is attributed by evaluating each input alone.
        """
        if self._waiting:
            raise RuntimeError("results() before complete(): the engine child waits for the rest of its input")
        if self._job is None:
            return [[] for _ in self._inputs]
        try:
            self._check()
        except PolicyError as exc:
            self.cancel()
            return [exc for _ in self._inputs]
        except BaseException:
            self.cancel()
            raise
        try:
            ours = self._job.result()
        except (EngineCrashed, EngineTimedOut) as exc:
            if len(self._inputs) > 1:
                return [self._alone(doc) for doc in self._inputs]
            return [self._died(exc)]
        except PolicyError as exc:
            return [self._located(exc, doc) for doc in self._inputs]
        theirs = self._theirs() if self._theirs is not None else [None] * len(ours)
        return [self._checked(raw, other, doc) for raw, other, doc in zip(ours, theirs, self._inputs, strict=True)]

    def cancel(self) -> None:
        """Stop the evaluation (the caller failed before collecting it)."""
        if self._job is not None:
            self._job.cancel()

    def _alone(self, doc: Mapping[str, Any]) -> list[Finding] | PolicyError:
        names = [info.name for info in self._policies]
        alone = Evaluation(self._bundle, names, [doc], timeout=self._timeout, cross_check=self._cross_check)
        (found,) = alone.results()
        return found

    def _died(self, exc: EngineCrashed | EngineTimedOut) -> PolicyError:
        if isinstance(exc, EngineCrashed):
            return _attribute_crash(self._bundle, self._policies, self._inputs[0], self._timeout, exc)
        return PolicyError(f"policy evaluation ran past {self._timeout:g} s", where=self._where(), hint=exc.hint)

    def _checked(self, raw: Any, other: Any, doc: Mapping[str, Any]) -> list[Finding] | PolicyError:
        if isinstance(raw, PolicyError):
            return self._located(raw, doc)
        try:
            if self._theirs is not None and reference.normalise(raw) != reference.normalise(other):
                raise PolicyError(f"regopy and OPA disagree: regopy gave {_short(raw, 600)}; "
                                  f"OPA gave {_short(other, 600)}", where=self._where(),
                                  hint="one engine mis-evaluates a construct; see docs/policies.md")
            return collect(self._policies, raw, self._modules)
        except PolicyError as exc:
            return self._located(exc, doc)

    def _located(self, exc: PolicyError, doc: Mapping[str, Any]) -> PolicyError:
        """`exc` with a place: where OPA's evaluation fails when regopy gave none, else the policy files."""
        if exc.where:
            return exc
        located = locate_runtime_error(self._modules, self._bundle.data(), doc, self._query, exc,
                                       timeout=self._timeout)
        if located is not None:
            return located
        exc.where = self._where()
        return exc

    def _where(self) -> str:
        return ", ".join(str(info.module_path) for info in self._policies)


def _attribute_crash(
    bundle: Bundle, policies: Sequence[PolicyInfo], input_doc: Mapping[str, Any], timeout: float,
    crash: EngineCrashed,
) -> PolicyError:
    """Re-run each policy alone so the error names the module that crashes the engine."""
    culprit = None
    if len(policies) > 1:
        for info in policies:
            try:
                (value,) = engine.start_evaluating(bundle.modules_for([info.name]), bundle.data(), [input_doc],
                                                   findings_query([info]), timeout=timeout).result()
            except (EngineCrashed, EngineTimedOut):
                culprit = info
                break
            except PolicyError:
                continue
    shown = str(culprit.module_path) if culprit else " or ".join(str(info.module_path) for info in policies)
    signal = signal_name(crash.signal_number)
    return PolicyError(
        f"the Rego engine crashed evaluating {shown} ({signal})",
        hint="regopy segfaults on some forms (e.g. `with input as {...}`); "
        "see docs/policies.md, and run `gatekeeper test`",
    )


def collect(policies: Sequence[PolicyInfo], raw: Any, modules: Mapping[str, str]) -> list[Finding]:
    """Validate the query result and flatten it into findings (deny, review, warn; by policy)."""
    if not isinstance(raw, dict):
        raise PolicyError(
            f"the policy query returned {type(raw).__name__}, not an object", hint="this is a bug in gatekeeper"
        )
    found: list[Finding] = []
    for level in LEVELS:
        for info in policies:
            values = raw.get(info.name, {}).get(level, [])
            if not values:
                continue
            value = values[0]
            if not isinstance(value, list):
                raise PolicyError(
                    f"`{level}` must be a set of findings, not {_kind(value)}",
                    where=str(info.module_path),
                    hint=f"write `{level} contains finding if {{ ... }}` with finding := lib.finding(rule, msg)",
                )
            checked = [check_finding(info, level, item, modules) for item in value]
            found.extend(sorted(checked, key=lambda f: (f.rule, f.msg)))
    return found


def check_finding(info: PolicyInfo, level: str, item: Any, modules: Mapping[str, str]) -> Finding:
    """One finding, checked against the contract and stamped with `policy` and `level`."""
    own = {key: modules[key] for key in info.modules if key in modules}
    rule = item.get("rule") if isinstance(item, dict) else None
    at = (locate_text(f'"{rule}"', own) if isinstance(rule, str) else None) or str(info.module_path)

    def bad(what: str, hint: str | None = None) -> PolicyError:
        return PolicyError(
            f"a `{level}` finding {what}: {_short(item)}",
            where=at,
            hint=hint or "build findings with data.gatekeeper.lib",
        )

    if not isinstance(item, dict):
        return _raise(bad("is not an object"))
    if not isinstance(item.get("msg"), str) or not item["msg"].strip():
        return _raise(bad("has no `msg` string"))
    if not isinstance(rule, str) or not rule:
        return _raise(bad("has no `rule` id"))
    if rule not in info.rules:
        return _raise(bad(f"uses rule id {rule!r}, which the policy does not declare",
                          f"add it to custom.rules in the `# METADATA` of {info.module_path}"))
    unknown = set(item) - _FINDING_KEYS
    if unknown:
        return _raise(
            bad(f"has unknown key(s) {', '.join(sorted(unknown))}", "a finding holds rule, msg, bucket and paths only")
        )
    bucket = item.get("bucket")
    if "bucket" in item and bucket not in BUCKETS:
        return _raise(bad(f"names bucket {bucket!r}", f"one of {', '.join(BUCKETS)}"))
    paths = item.get("paths")
    if "paths" in item and (not isinstance(paths, list) or not all(isinstance(p, str) for p in paths)):
        return _raise(bad("has `paths` that is not an array of strings"))
    # Each path once, in the order the policy named them: a policy listing a file per dependency it moved
    # (63 go.sum downgrades) names one file, not the same path 63 times.
    return Finding(info.name, rule, level, item["msg"], bucket, None if paths is None else tuple(dict.fromkeys(paths)))


def locate_runtime_error(modules: Mapping[str, str], data: Mapping[str, Any], input_doc: Mapping[str, Any],
                         query: str, error: PolicyError, *, timeout: float) -> PolicyError | None:
    """regopy's unlocated evaluation `error`, placed at the `file:line` and rule where OPA's evaluation fails.

    Only on the error path: None when the reference engine is missing or evaluates without error.
    """
    if reference.missing_reason() is not None:
        return None
    try:
        (result,) = reference.start_evaluating(modules, data, [input_doc], query, timeout=timeout)()
    except PolicyError:
        return None
    if not (isinstance(result, dict) and set(result) == {"error"}):
        return None
    place = _OPA_PLACE.match(str(result["error"]))
    if place is None or place.group(1) not in modules:
        return None
    file, line, code, message = place.group(1), int(place.group(2)), place.group(3), place.group(4)
    rule = rule_at(modules[file], line)
    in_rule = f" (in rule `{rule}`)" if rule else ""
    return PolicyError(f"evaluation failed: {code}: {message}{in_rule}; regopy said: {error.what}",
                       where=f"{file}:{line}", hint=error.hint)


_OPA_PLACE = lazy(r"^(.+?):(\d+): ([a-z_]+): (.*)$", re.S)


def _no_check() -> None:
    return None


def _raise(error: PolicyError) -> Finding:
    raise error


def _kind(value: Any) -> str:
    return {dict: "an object", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), type(value).__name__
    )


def _short(item: Any, limit: int = 160) -> str:
    text = json.dumps(item, ensure_ascii=True, sort_keys=True, default=repr)
    return text if len(text) <= limit else text[: limit - 3] + "..."
