"""Run every enabled policy in one query, check each finding's shape, and aggregate an outcome.

One interpreter, one build, one query collects `deny`, `review` and `warn` of every enabled
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
from gatekeeper.model import BUCKETS
from gatekeeper.policy.bundle import Bundle, PolicyInfo
from gatekeeper.policy.compile_check import start_check
from gatekeeper.policy.rego_errors import locate_text

LEVELS: tuple[str, ...] = ("deny", "review", "warn")
OUTCOMES: tuple[str, ...] = ("allow", "review", "deny")
_FINDING_KEYS = frozenset({"rule", "msg", "bucket", "paths"})


def findings_query(policies: Sequence[PolicyInfo]) -> str:
    """The single Rego expression that gathers every level of every policy."""
    parts = []
    for info in policies:
        levels = ", ".join(f'"{level}": [v | v := data.{info.package}.{level}]' for level in LEVELS)
        parts.append(f'"{info.name}": {{{levels}}}')
    return "{" + ", ".join(parts) + "}"


def run_policies(
    bundle: Bundle, enabled: Sequence[str], input_doc: Mapping[str, Any], *, timeout: float
) -> list[dict[str, Any]]:
    """Evaluate the enabled policies over `input_doc`; their findings, each with `policy` and `level`."""
    return start_policies(bundle, enabled, input_doc, timeout=timeout).findings()


class PendingFindings:
    """Policies being evaluated in a child; `findings()` waits and validates."""

    def __init__(
        self, bundle: Bundle, policies: list[PolicyInfo], input_doc: Mapping[str, Any] | None, timeout: float
    ) -> None:
        from gatekeeper.policy import engine

        self._bundle, self._policies, self._input, self._timeout = bundle, policies, input_doc or {}, timeout
        self._modules = bundle.modules_for(info.name for info in policies)
        self._query = findings_query(policies)
        self._alive = True
        self._job: engine.Isolated | None = None
        # OPA compiles the very modules regopy evaluates, side by side with the evaluation (or not at all
        # when these bytes passed before): a module it rejects fails the gate whatever regopy answers.
        self._check = start_check(self._modules, bundle.data(), timeout=timeout) if policies else _no_check
        if policies and input_doc is not None:
            self._job = engine.start_evaluation(self._modules, bundle.data(), input_doc, self._query, timeout=timeout)

    def start_feeding(self, packet: Mapping[str, Any]) -> None:
        """Fork the child now; the input's `packet` goes first, `files` follow through `send_files`."""
        from gatekeeper.policy import engine

        if self._policies:
            self._job = engine.start_fed_evaluation(self._modules, self._bundle.data(), {"packet": packet}, "files",
                                                    self._query, timeout=self._timeout)

    def send_files(self, entries: list[dict[str, Any]]) -> None:
        """Hand the child the next file entries of the input (nothing once it died: `findings` reports it)."""
        if self._job is not None and self._alive:
            self._alive = self._job.send(("items", entries))

    def end_files(self) -> None:
        """No more file entries: the child folds them into the input while the caller finishes the rest."""
        if self._job is not None and self._alive:
            self._alive = self._job.send(("end", None))

    def finish(self, input_doc: Mapping[str, Any]) -> None:
        """Send the input's remaining members (all but packet and files); `input_doc` is the whole document."""
        self._input = input_doc
        if self._job is not None and self._alive:
            rest = {key: value for key, value in input_doc.items() if key not in ("packet", "files")}
            self._alive = self._job.send(("rest", rest))

    def findings(self) -> list[dict[str, Any]]:
        """The validated findings (PolicyError naming the policy file on any failure)."""
        from gatekeeper.policy import engine

        if self._job is None:
            return []
        try:
            self._check()
        except BaseException:
            self._job.cancel()
            raise
        try:
            raw = self._job.result()
        except engine.EngineCrashed as exc:
            raise _attribute_crash(self._bundle, self._policies, self._input, self._timeout, exc) from None
        except engine.EngineTimedOut as exc:
            raise PolicyError(
                f"policy evaluation ran past {self._timeout:g} s",
                where=", ".join(str(info.module_path) for info in self._policies),
                hint=exc.hint,
            ) from None
        except PolicyError as exc:
            if not exc.where:  # regopy gave no location: OPA, evaluating the same, names the place
                located = locate_runtime_error(self._modules, self._bundle.data(), self._input, self._query, exc,
                                               timeout=self._timeout)
                if located is not None:
                    raise located from None
                exc.where = ", ".join(str(info.module_path) for info in self._policies)
            raise
        return collect(self._policies, raw, self._modules)

    def cancel(self) -> None:
        """Stop the evaluation (the caller failed before collecting it)."""
        if self._job is not None:
            self._job.cancel()


def start_policies(
    bundle: Bundle, enabled: Sequence[str], input_doc: Mapping[str, Any], *, timeout: float
) -> PendingFindings:
    """Start evaluating the enabled policies in the background."""
    return PendingFindings(bundle, [bundle.policy(name) for name in enabled], input_doc, timeout)


def start_fed_policies(
    bundle: Bundle, enabled: Sequence[str], packet: Mapping[str, Any], *, timeout: float
) -> PendingFindings:
    """Start evaluating before the input is complete: `send_files` batches, then `finish` with the document."""
    pending = PendingFindings(bundle, [bundle.policy(name) for name in enabled], None, timeout)
    pending.start_feeding(packet)
    return pending


def run_policies_many(
    bundle: Bundle, enabled: Sequence[str], input_docs: Sequence[Mapping[str, Any]], *, timeout: float
) -> list[list[dict[str, Any]] | PolicyError]:
    """`run_policies` over many inputs with one engine child: per input its findings or its PolicyError.

    A crash, a hang or a bundle that does not build fails the whole call (EngineCrashed,
    EngineTimedOut, PolicyError): the caller re-runs the inputs one by one to attribute it.
    """
    return start_policies_many(bundle, enabled, input_docs, timeout=timeout)()


def start_policies_many(
    bundle: Bundle, enabled: Sequence[str], input_docs: Sequence[Mapping[str, Any]], *, timeout: float,
    cross_check: bool = False,
) -> Callable[[], list[list[dict[str, Any]] | PolicyError]]:
    """`run_policies_many` in the background: call the returned function to collect the results.

    `cross_check` (for `gatekeeper test`) also evaluates every input in the reference engine (OPA) when it
    is installed; an input on which the engines disagree gets a PolicyError showing both results.
    """
    from gatekeeper.policy import engine, reference

    policies = [bundle.policy(name) for name in enabled]
    modules = bundle.modules_for(info.name for info in policies)
    check = start_check(modules, bundle.data(), timeout=timeout) if policies else _no_check
    query = findings_query(policies)
    job = (
        engine.start_evaluating_many(modules, bundle.data(), input_docs, query, timeout=timeout)
        if policies else None
    )
    theirs = (reference.start_evaluating(modules, bundle.data(), input_docs, query, timeout=timeout * 3)
              if policies and cross_check and reference.missing_reason() is None else None)

    def results() -> list[list[dict[str, Any]] | PolicyError]:
        if job is None:
            return [[] for _ in input_docs]
        check()
        ours = job()
        others = theirs() if theirs is not None else [None] * len(ours)
        out: list[list[dict[str, Any]] | PolicyError] = []
        for raw, other, doc in zip(ours, others, input_docs, strict=True):
            try:
                if isinstance(raw, PolicyError):
                    if not raw.where:
                        raise locate_runtime_error(modules, bundle.data(), doc, query, raw, timeout=timeout) or raw
                    raise raw
                if theirs is not None and reference.normalise(raw) != reference.normalise(other):
                    raise PolicyError(f"regopy and OPA disagree: regopy gave {_short(raw, 600)}; "
                                      f"OPA gave {_short(other, 600)}",
                                      where=", ".join(str(info.module_path) for info in policies),
                                      hint="one engine mis-evaluates a construct; see docs/policies.md")
                out.append(collect(policies, raw, modules))
            except PolicyError as exc:
                if not exc.where:  # as `PendingFindings.findings`: name the evaluated policy files
                    exc.where = ", ".join(str(info.module_path) for info in policies)
                out.append(exc)
        return out

    return results


def _attribute_crash(
    bundle: Bundle, policies: Sequence[PolicyInfo], input_doc: Mapping[str, Any], timeout: float, crash: Any
) -> PolicyError:
    """Re-run each policy alone so the error names the module that crashes the engine."""
    from gatekeeper.policy import engine

    culprit = None
    if len(policies) > 1:
        for info in policies:
            try:
                engine.evaluate(
                    bundle.modules_for([info.name]), bundle.data(), input_doc, findings_query([info]), timeout=timeout
                )
            except (engine.EngineCrashed, engine.EngineTimedOut):
                culprit = info
                break
            except PolicyError:
                continue
    shown = str(culprit.module_path) if culprit else " or ".join(str(info.module_path) for info in policies)
    signal = engine.signal_name(crash.signal_number)
    return PolicyError(
        f"the Rego engine crashed evaluating {shown} ({signal})",
        hint="regopy segfaults on some forms (e.g. `with input as {...}`); "
        "see docs/policies.md, and run `gatekeeper test`",
    )


def collect(policies: Sequence[PolicyInfo], raw: Any, modules: Mapping[str, str]) -> list[dict[str, Any]]:
    """Validate the query result and flatten it into findings (deny, review, warn; by policy)."""
    if not isinstance(raw, dict):
        raise PolicyError(
            f"the policy query returned {type(raw).__name__}, not an object", hint="this is a bug in gatekeeper"
        )
    found: list[dict[str, Any]] = []
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
            found.extend(sorted(checked, key=lambda f: (f["rule"], f["msg"])))
    return found


def check_finding(info: PolicyInfo, level: str, item: Any, modules: Mapping[str, str]) -> dict[str, Any]:
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
    finding: dict[str, Any] = {"policy": info.name, "rule": rule, "level": level, "msg": item["msg"]}
    if "bucket" in item:
        if item["bucket"] not in BUCKETS:
            return _raise(bad(f"names bucket {item['bucket']!r}", f"one of {', '.join(BUCKETS)}"))
        finding["bucket"] = item["bucket"]
    if "paths" in item:
        paths = item["paths"]
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            return _raise(bad("has `paths` that is not an array of strings"))
        finding["paths"] = paths
    return finding


def outcome_of(findings: Sequence[Mapping[str, Any]]) -> str:
    """Any deny → deny; else any review → review; else allow (warn never blocks)."""
    levels = {finding["level"] for finding in findings}
    if "deny" in levels:
        return "deny"
    if "review" in levels:
        return "review"
    return "allow"


def locate_runtime_error(modules: Mapping[str, str], data: Mapping[str, Any], input_doc: Mapping[str, Any],
                         query: str, error: PolicyError, *, timeout: float) -> PolicyError | None:
    """regopy's unlocated evaluation `error`, placed at the `file:line` and rule where OPA's evaluation fails.

    Only on the error path: None when the reference engine is missing or evaluates without error.
    """
    from gatekeeper.policy import reference
    from gatekeeper.policy.rego_errors import rule_at

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


_OPA_PLACE = re.compile(r"^(.+?):(\d+): ([a-z_]+): (.*)$", re.S)


def _no_check() -> None:
    return None


def _raise(error: PolicyError) -> dict[str, Any]:
    raise error


def _kind(value: Any) -> str:
    return {dict: "an object", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), type(value).__name__
    )


def _short(item: Any, limit: int = 160) -> str:
    text = json.dumps(item, ensure_ascii=True, sort_keys=True, default=repr)
    return text if len(text) <= limit else text[: limit - 3] + "..."
