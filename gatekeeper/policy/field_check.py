"""Field names a policy reads must exist: a misspelt input field, key or param fails closed at load.

regopy (and OPA without a schema) evaluates `input.summary.bucket.ci.files`, `f.pth`, `object.get(input.packet,
"sanbox", {})` or `lib.param(data.gatekeeper.params, ["deps", "max_neww"], 3)` as undefined or as the
fallback: the rule never fires and the gate allows. OPA's compiler cannot see it (the bindings take no
schema), so this lexical check does, over comment- and string-blanked source (offsets kept):

- a ref rooted at `input` (and a variable bound by `some v in input.x` / `some v in lib.notable(input.files, ...)`,
  and the key path of `object.get(input.x, ...)`) is walked through the published input schema
  (input-v1, with the packet schema under `packet`): a key a closed object does not declare is an error;
- any other `v.key` (and `object.get(v, "key", ...)`) must name a key the bundle can know: a field of the
  input or packet schema, a key of an object literal or a params key of the bundle;
- a params path (`lib.param(data.gatekeeper.params, [...], ...)`, `data.gatekeeper.params.x.y`) must be set in
  the manifest or named `params.x.y` in a comment of the bundle (an optional, documented param);
- a rule of a policy package that no module of the gate reads and that is not `deny`/`review`/`warn` is an
  error: a misspelt or renamed entry point (`reviw contains ...`, `violation contains ...`) would never be
  queried. Names starting with `_` (private by convention; no entry point's typo does) are left alone.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from importlib import resources
from typing import Any

from gatekeeper import schema_validation
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import BUCKETS, TAGS
from gatekeeper.policy.field_memo import context_key, remembered
from gatekeeper.policy.near_values import free_text
from gatekeeper.policy.param_types import param_issues
from gatekeeper.policy.reference import CompileIssue
from gatekeeper.policy.value_check import enums, helpers, value_issues
from gatekeeper.testing.rego_source import blank, package_of

_ID = r"[A-Za-z_][A-Za-z0-9_]*"
_STEP = r"(?:\s*\.\s*" + _ID + r"|\[[^\[\]\n]*\])"
_INPUT = lazy(rf"(?<![\w.])input((?:{_STEP})+)")
_VAR_REF = lazy(rf"(?<![\w.])({_ID})((?:\.{_ID})+)(?![\w.]|\s*\()")
_STEP_PART = lazy(rf"\.\s*({_ID})|\[([^\[\]\n]*)\]")
_VAR_BRACKET = lazy(rf"(?<![\w.])({_ID})((?:{_STEP})*\[[^\[\]\n]*\](?:{_STEP})*)")
_BIND = lazy(rf"\bsome\s+(?:{_ID}\s*,\s*)?({_ID})\s+in\s+(?:lib\.notable\(\s*)?input((?:\.{_ID})+)")
_OBJECT_GET = lazy(rf"\bobject\.get\(\s*(input(?:\.{_ID})*|{_ID}(?:\.{_ID})*)\s*,\s*(\"[^\"\n]*\"|\[[^\]\n]*\])")
_KEY_LIST = lazy(rf"\b(object|json)\.(?:filter|remove)\(\s*(input(?:\.{_ID})*|{_ID}(?:\.{_ID})*)\s*,\s*([\[{{][^)\n]*)")
_PARAM_CALL = lazy(r"\bparam\(\s*data\.gatekeeper\.params\s*,\s*\[([^\]\n]*)\]")
_PARAM_REF = lazy(rf"(?<![\w.])data\.gatekeeper\.params((?:\.{_ID})+)")
_TAG_LITERAL = lazy(r'"([^"\n]*)"\s+in\s+(?:[\w.]+\.)?tags\b')
_BUCKET_LITERAL = lazy(r'\bbucket\s*(?:==|!=|\bin\b)\s*(\{[^{}\n]*\}|\[[^\[\]\n]*\]|"[^"\n]*")')
_TOP = lazy(r"\n(?=\S)")
_DATA_REF = lazy(rf"(?<![\w.])data((?:\.{_ID})+)")
_PARAM_DOC = lazy(rf"\bparams((?:\.{_ID})+)")
_LITERAL_KEY = lazy(r'"([^"\n]*)"\s*:(?!=)')
_STRING = lazy(r'"([^"\n]*)"')
_WORD = lazy(r"(?<![\w])[A-Za-z_][A-Za-z0-9_]*")
_HEAD = lazy(rf"^(?:default\s+)?({_ID})\b(?!\s*\.)", re.M)
_LINE_KIND = lazy(r"^[ \t]*(?:package|import)\b.*$", re.M)
_KEYWORDS = frozenset({"package", "import", "default", "not", "some", "every", "with", "as", "if", "contains",
                       "else", "in", "true", "false", "null"})
FIELD_CHECK = "gatekeeper-field-check-7"  # bump when what the check refuses changes: old cached passes then expire
_ENTRY_POINTS = frozenset({"deny", "review", "warn"})
# Built-in namespaces (`time.now_ns`, ...) are calls, skipped; these are the non-call refs no schema holds.
_SKIP_HEADS = frozenset({"data", "input", "rego", "future"})
_FINDING_KEYS = frozenset({"rule", "msg", "bucket", "paths"})


def field_issues(modules: Mapping[str, str], data: Mapping[str, Any]) -> list[CompileIssue]:
    """Every read of a field, key, param or rule the bundle cannot have, at `file:line:col`."""
    root = _input_schema()
    params = data.get("gatekeeper", {}).get("params", {}) if isinstance(data.get("gatekeeper"), dict) else {}
    codes = {name: blank(text) for name, text in modules.items()}
    names = _SCHEMA_NAMES[0] | _FINDING_KEYS | _param_keys(params)  # near_values: a literal key may be a misspelt value
    known = set(names) | {m.group(1) for text in modules.values() for m in _LITERAL_KEY.finditer(text)}
    documented: set[tuple[str, ...]] = set()
    for name, text in modules.items():  # in a comment: a param's own ref would document itself (attack 17)
        for hit in _PARAM_DOC.finditer(text):
            if _in_comment(text, codes[name], hit.start()):
                documented.add(tuple(hit.group(1).lstrip(".").split(".")))
    packages = {p for p in (package_of(text) for text in modules.values()) if p}
    fields = enums(root)  # value literals compared with enumerated fields, keys held in names (value_check.py)
    called, free = helpers(modules, codes, fields), free_text(root)  # free: near_values' free-text fields

    def issues_of(name: str, text: str, code: str) -> list[CompileIssue]:
        return [*_module_issues(name, text, code, root, known, params, documented, packages, data),
                *value_issues(text, code, fields, functools.partial(_walk, root),
                              functools.partial(_issue, name, code, name=None), called, names, free)]

    context = context_key(known, params, documented, packages, data, called)  # all else a module's issues read
    issues = [i for name, text in modules.items() for i in remembered(context, issues_of, name, text, codes[name])]
    return [*issues, *_unread_rules(modules, codes), *param_issues(modules, codes, params)]  # param types: red team 25


def _module_issues(name: str, text: str, code: str, root: dict[str, Any], known: set[str],
                   params: Mapping[str, Any], documented: set[tuple[str, ...]], packages: set[str],
                   data: Mapping[str, Any]) -> Iterator[CompileIssue]:
    aliases = {m.group(1) for m in re.finditer(rf"^import\s+data(?:\.{_ID})*\.({_ID})\s*$", code, re.M)}
    aliases |= {m.group(1) for m in re.finditer(rf"^import\s+\S+\s+as\s+({_ID})\s*$", code, re.M)}
    # `import input.packet as pkt`: pkt's refs are the input's (attack 17)
    inputs = {m.group(2): [(k, True) for k in m.group(1).split(".")[1:]]
              for m in re.finditer(rf"^import\s+input((?:\.{_ID})*)\s+as\s+({_ID})\s*$", code, re.M)}
    skip_spans = [m.span() for m in _LINE_KIND.finditer(code)]
    skip_starts = [a for a, _ in skip_spans]

    def skipped(at: int) -> bool:
        i = bisect.bisect_right(skip_starts, at) - 1
        return i >= 0 and at < skip_spans[i][1]

    for hit in _INPUT.finditer(code):
        steps = _steps(hit.group(1), text, hit.start(1))
        reason = _walk(root, steps)
        if reason:
            yield _issue(name, code, hit.start(), f"undefined ref: input{_shown(steps)} ({reason})", "input")
    for chunk_start, chunk in _chunks(code):
        bound: dict[str, dict[str, Any]] = {}
        for hit in _BIND.finditer(chunk):
            node = _node(root, [(s, True) for s in hit.group(2).lstrip(".").split(".")])
            items = node.get("items") if isinstance(node, dict) else None
            if isinstance(items, dict):
                bound[hit.group(1)] = items
        for hit in _VAR_REF.finditer(chunk):
            at = chunk_start + hit.start()
            head = hit.group(1)
            keys = hit.group(2).lstrip(".").split(".")
            if head in inputs and not skipped(at):
                reason = _walk(root, inputs[head] + [(k, True) for k in keys])
                if reason:
                    yield _issue(name, code, at, f"undefined ref: {head}.{'.'.join(keys)} ({reason})", head)
                continue
            if skipped(at) or head in _SKIP_HEADS or head in aliases or head in _KEYWORDS:
                continue
            if head in bound:
                reason = _walk(bound[head], [(k, True) for k in keys])
            else:
                unknown = [k for k in keys if k not in known]
                reason = f"no input field, object key or param is called `{unknown[0]}`" if unknown else None
            if reason:
                yield _issue(name, code, at, f"undefined ref: {head}.{'.'.join(keys)} ({reason})", head)
        for hit in _VAR_BRACKET.finditer(chunk):  # `f["pth"]`, `f["b\u0075cket"]` of a bound variable (attack 17)
            if hit.group(1) in bound and not skipped(at := chunk_start + hit.start()):
                steps = _steps(hit.group(2), text, chunk_start + hit.start(2))
                if reason := _walk(bound[hit.group(1)], steps):
                    yield _issue(name, code, at, f"undefined ref: {hit.group(1)}{_shown(steps)} ({reason})", None)
    for hit in _OBJECT_GET.finditer(code):
        keys = [s.group(1) for s in _STRING.finditer(text[hit.start(2):hit.end(2)])]
        if keys and (reason := _key_reason(root, known, hit.group(1), keys)):
            yield _issue(name, code, hit.start(2), f"undefined key: object.get({hit.group(1)}, {keys}) ({reason})",
                         None)
    for hit in _KEY_LIST.finditer(code):  # the keys object.filter/remove, json.filter/remove keep (attack 18)
        arg = text[hit.start(3):hit.end(3)]
        inner = re.findall(r"\[([^\[\]]*)\]", arg[1:])  # json's `[["a", "b"]]` paths, else strings: `"a/b"`
        paths = [[m.group(1) for m in _STRING.finditer(part)] for part in inner] if inner else [
            m.group(1).strip("/").split("/") if hit.group(1) == "json" else [m.group(1)] for m in _STRING.finditer(arg)]
        for keys in paths:
            if keys and (reason := _key_reason(root, known, hit.group(2), keys)):
                yield _issue(name, code, hit.start(3), f"undefined key: {hit.group(1)}.*({hit.group(2)}, {keys}) "
                                                       f"({reason})", None)
    for hit in _DATA_REF.finditer(code):
        reason = _data_reason(hit.group(1).lstrip(".").split("."), packages, data)
        if reason:
            yield _issue(name, code, hit.start(), f"undefined ref: data{hit.group(1)} ({reason})", None)
    for hit in _TAG_LITERAL.finditer(code):
        value = text[hit.start(1):hit.end(1)]
        if value not in TAGS:
            yield _issue(name, code, hit.start(1), f'unknown tag "{value}" (tags: {", ".join(TAGS)})', None)
    for hit in _BUCKET_LITERAL.finditer(code):
        for literal in _STRING.finditer(text[hit.start(1):hit.end(1)]):
            if literal.group(1) not in BUCKETS:
                yield _issue(name, code, hit.start(1) + literal.start(), f'unknown bucket "{literal.group(1)}" '
                                                                         f'(buckets: {", ".join(BUCKETS)})', None)
    param_paths = [(hit.start(1), [s.group(1) for s in _STRING.finditer(text[hit.start(1):hit.end(1)])])
                   for hit in _PARAM_CALL.finditer(code)]
    param_paths += [(hit.start(1), hit.group(1).lstrip(".").split(".")) for hit in _PARAM_REF.finditer(code)]
    for at, keys in param_paths:
        if keys and not _has_path(params, keys) and tuple(keys) not in documented:
            shown = ".".join(keys)
            yield _issue(name, code, at, f"undefined param: params.{shown} (the manifest sets no such param and "
                                         f"no comment of the bundle documents `params.{shown}`)", None)


def _key_reason(root: dict[str, Any], known: set[str], target: str, keys: list[str]) -> str | None:
    """Why `target` (input-rooted: walked; else any object: a known key) has no key path `keys`."""
    if target == "input" or target.startswith("input."):
        return _walk(root, [(s, True) for s in target.split(".")[1:]] + [(k, True) for k in keys])
    unknown = [k for k in keys if k not in known and not k.isdigit()]
    return f"no input field, object key or param is called `{unknown[0]}`" if unknown else None


def _data_reason(path: list[str], packages: set[str], data: Mapping[str, Any]) -> str | None:
    """Why `data.<path>` is neither in a package of the bundle nor in its data document (None when it is)."""
    node: Any = data
    for i, key in enumerate(path):
        prefix = ".".join(path[:i + 1])
        if prefix in packages:
            return None  # a package of the bundle: its rules are ref_check's
        if any(p.startswith(prefix + ".") for p in packages):
            node = node.get(key) if isinstance(node, dict) else None
            continue
        if isinstance(node, dict) and key in node:
            if prefix == "gatekeeper.params":
                return None  # the params check reads on
            node = node[key]
            continue
        if node is None or isinstance(node, dict):
            return f"no package of the bundle and no key of its data document is called data.{prefix}"
        return None
    return None


def _unread_rules(modules: Mapping[str, str], codes: Mapping[str, str]) -> Iterator[CompileIssue]:
    """Rules of a policy package that no module reads and the gate never queries; helpers elsewhere (lib) that no
    module reads and whose name is a typo of a sibling's."""
    gate_code = "\n".join(codes[n] for n in modules if not (package_of(modules[n]) or "").endswith("_test"))
    words = Counter(m.group(0) for m in _WORD.finditer(gate_code))
    words.subtract(m.group(1) for m in _HEAD.finditer(gate_code))
    for name, text in modules.items():
        package = package_of(text) or ""
        if package.endswith("_test"):
            continue
        code = codes[name]
        heads = {m.group(1): m.start(1) for m in _HEAD.finditer(code) if m.group(1) not in _KEYWORDS}
        for rule, at in heads.items():
            if rule in _ENTRY_POINTS or rule.startswith(("test_", "todo_")) or words[rule] > 0:
                continue
            if package.startswith("gatekeeper.policies.") and not rule.startswith("_"):
                yield _issue(name, code, at, f"rule {rule} is never read and is not deny, review or warn (a "
                                             f"misspelt entry point is never queried)", rule)
                continue
            # A helper the enabled policies need not read (lib): unread AND one typo from a sibling is one definition
            # of `files_text(n)` misspelt, which leaves calls for that case undefined (a finding without its message).
            near = [other for other in heads if other != rule and _one_typo(rule, other)]
            if near:
                yield _issue(name, code, at, f"rule {rule} is never read and is one typo from {near[0]} (a misspelt "
                                             f"definition leaves the calls it should answer undefined)", rule)


def _one_typo(a: str, b: str) -> bool:
    """Whether `a` becomes `b` by one deletion, insertion, substitution or swap of neighbours (or two edits)."""
    if abs(len(a) - len(b)) > 2:
        return False
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row = row, [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
    return row[-1] <= 2


def _chunks(code: str) -> Iterator[tuple[int, str]]:
    """Top-level statements (a rule and its body): where each starts, and its text."""
    starts = [0] + [m.end() for m in _TOP.finditer(code)] + [len(code)]
    for a, b in zip(starts, starts[1:], strict=False):
        yield a, code[a:b]


def _steps(chain: str, text: str, offset: int) -> list[tuple[str, bool]]:
    """(key, is a literal key) per step of `.a["b"][i]`; string contents come from the unblanked text."""
    out: list[tuple[str, bool]] = []
    for m in _STEP_PART.finditer(chain):
        if m.group(1):
            out.append((m.group(1), True))
            continue
        inner = text[offset + m.start(2):offset + m.end(2)].strip()
        literal = re.fullmatch(r'"([^"\n]*)"|`([^`]*)`', inner)  # a raw string is a key too (attack 17)
        out.append((literal.group(literal.lastindex or 1), True) if literal else (inner, False))
    return out


def _in_comment(text: str, code: str, at: int) -> bool:
    """Whether offset `at` is inside a comment: after a `#` of its line that no open string holds."""
    start = text.rfind("\n", 0, at) + 1
    hashes = (q for q in range(start, at) if text[q] == "#" and code[q] == " ")
    return any(code.count('"', start, q) % 2 == 0 for q in hashes)


def _shown(steps: list[tuple[str, bool]]) -> str:
    return "".join(f".{k}" if lit and re.fullmatch(_ID, k) else (f'["{k}"]' if lit else f"[{k}]") for k, lit in steps)


def _walk(node: Any, steps: list[tuple[str, bool]]) -> str | None:
    """Why the schema has no such path (None when it has, or cannot tell past an open object)."""
    where = "input"
    for key, literal in steps:
        if not isinstance(node, dict):
            return None
        if "items" in node and "properties" not in node:
            if literal and not key.isdigit():
                return f"{where} is an array: it has no key `{key}`"
            node = node["items"]
        elif "properties" in node or node.get("additionalProperties") is False:
            if not literal:
                extra = node.get("additionalProperties")
                node = extra if isinstance(extra, dict) else None
            elif key in node.get("properties", {}):
                node = node["properties"][key]
            elif isinstance(node.get("additionalProperties"), dict):
                node = node["additionalProperties"]
            elif node.get("additionalProperties", False) is False:
                # closed, or open with declared fields only (packet.sandbox): a policy reads what a schema declares
                known = ", ".join(sorted(node.get("properties", {}))) or "none"
                return f"{where} has no field `{key}` (it has: {known})"
            else:
                return None
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            return None
        where = f"{where}.{key}" if literal else f"{where}[{key}]"
    return None


def _node(node: Any, steps: list[tuple[str, bool]]) -> Any:
    for key, _ in steps:
        if not isinstance(node, dict):
            return None
        node = node.get("properties", {}).get(key)
    return node


def _vocabulary(node: Any) -> set[str]:
    names: set[str] = set()
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            names.update(props)
        for value in node.values():
            names |= _vocabulary(value)
    elif isinstance(node, list):
        for value in node:
            names |= _vocabulary(value)
    return names


def _param_keys(params: Any) -> set[str]:
    if not isinstance(params, dict):
        return set()
    keys = set(params)
    for value in params.values():
        keys |= _param_keys(value)
    return keys


def _has_path(params: Any, path: list[str]) -> bool:
    for key in path:
        if not isinstance(params, dict) or key not in params:
            return False
        params = params[key]
    return True


SCHEMAS = ("input-v1.schema.json", "packet-v1.schema.json")


@functools.cache
def schemas_digest() -> str:
    """sha256 of the schemas this check reads: part of the compile cache's key (compile_check.cache_key)."""
    digest = hashlib.sha256()
    for name in SCHEMAS:
        digest.update(resources.files("gatekeeper").joinpath("schemas", name).read_bytes())
    return digest.hexdigest()


_SCHEMA: list[dict[str, Any]] = []
_SCHEMA_NAMES: list[frozenset[str]] = []


def _input_schema() -> dict[str, Any]:
    """input-v1 with `packet` replaced by the packet schema ($refs resolved), built once per process."""
    if not _SCHEMA:
        root = _resolve(schema_validation.load("input-v1.schema.json"), None)
        packet = schema_validation.load("packet-v1.schema.json")
        root["properties"]["packet"] = _resolve(packet, packet.get("$defs", {}))
        tags = root["properties"]["summary"]["properties"]["tags"]  # a closed set: the rules may set no other
        tags["properties"] = {tag: tags["additionalProperties"] for tag in TAGS}
        tags["additionalProperties"] = False
        _SCHEMA.append(root)
        _SCHEMA_NAMES.append(frozenset(_vocabulary(root)))
    return _SCHEMA[0]


def _resolve(node: Any, defs: Mapping[str, Any] | None) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and defs is not None and ref.startswith("#/$defs/"):
            return _resolve(defs.get(ref.rsplit("/", 1)[-1], {}), defs)
        return {k: _resolve(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_resolve(v, defs) for v in node]
    return node


def _issue(file: str, code: str, at: int, message: str, name: str | None) -> CompileIssue:
    line = code.count("\n", 0, at) + 1
    column = at - (code.rfind("\n", 0, at) + 1) + 1
    return CompileIssue(file, line, column, "rego_ref_error", message, name)
