"""What a YAML (or JSON) file's documents are, read as YAML: the second look of tier 3 behind the line patterns.

The line patterns of sniff.py read `^apiVersion:` lines in the first 8 KiB. The tools that apply these
files read YAML: keys in flow style, an indented root, tags, anchors, aliases and merge keys, escaped or
explicit keys, block scalars, CR/NEL/LS line breaks, the deciding keys past 8 KiB of labels — kubectl,
kustomize, Argo CD and Flux read all of them as the same Deployment (tests/test_redteam_yaml_forms.py).
So a candidate the patterns found nothing in is parsed here (yamlnodes.py), the whole file up to FULL_READ: libyaml's
event stream only (nothing is constructed, no recursion, nesting bounded by libyaml), each document's
root kept as plain nodes with aliases shared, never expanded. A document that stops parsing counts with
what it showed before the error (fail closed: kubectl may apply the documents before it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextvars import ContextVar

from gatekeeper.bounded import Limits, load_json_stream
from gatekeeper.classify.cisettings import CASC_KEY_WORDS, casc_node, hidden_job_node
from gatekeeper.classify.composeroots import compose
from gatekeeper.classify.contextrules import ContextRules
from gatekeeper.classify.yamlnodes import Node, documents
from gatekeeper.errors import LimitError
from gatekeeper.lazy_pattern import lazy

_MERGE = "<<"
_MAX_MERGE_DEPTH = 8  # merge keys whose values merge further: deeper than any real file goes
# Mappings looked into per file. Aliases share nodes, so merge keys over aliases (`<<: [*a, *a, ...]` on every
# level) reach a mapping along exponentially many paths: 395 bytes took 20 s before this bound. Measured, 1 MiB
# files of real shapes look into 20,000-100,000; past the bound the file is not read (UNREAD_RULE: reviewed).
_BUDGET = 500_000
# A JSON file is read within these (bounded.load_json): depth 64 of JSON, counted twice here since every key of a
# mapping holds a list of its values (_json_mapping); a file up to FULL_READ holds fewer values than the cap.
_JSON_LIMITS = Limits(max_bytes=4 << 20, max_depth=128, max_values=1_000_000)
_SPENT: ContextVar[list[int]] = ContextVar("gatekeeper_yamlroots_spent")
UNREAD_RULE = "iac.content.unread"
_CFN_TYPE = lazy(r"(?:AWS|Alexa|Custom)::\w|[A-Za-z]\w*::\w+::\w")  # AWS's, and registry types (Org::Svc::Res)
_PLAY_KEYS = frozenset({"tasks", "roles", "pre_tasks", "post_tasks", "handlers"})
_IMPORT_PLAYBOOK = frozenset({"import_playbook", "ansible.builtin.import_playbook"})
# What an apiVersion looks like (`v1`, `apps/v1`, `x.example.com/v1beta1`): a template or a prose value is not one.
# `v[0-9][a-z0-9]*` is `v[0-9]+[a-z0-9]*` read one way (`v1` + 16 Ki digits + `-` was split every way: 1.4 CPU-s)
API_VERSION = lazy(r"(?:[a-z0-9]([a-z0-9.-]*[a-z0-9])?/)?v[0-9][a-z0-9]*\Z")

# Go's unicode.IsSpace: what kubectl's reader trims around a `---` separator and skips after a JSON value.
_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
            "\u2028\u2029\u202f\u205f\u3000"
# A line kubectl cuts documents at (lines end at \n only): `---`, then white space and at most a `#` comment.
_KUBECTL_SEPARATOR = lazy(f"^---[{_GO_SPACE.replace(chr(10), '')}]*(?:#[^\n]*)?$", re.MULTILINE)
# What may follow `---` for YAML to read a document marker (blank, line break, or the end).
_YAML_MARKER_ENDS = ("", " ", "\t", "\r", "\n", "\x85", "\u2028", "\u2029")


# Every signal below needs one of these keys (or `jobs`, `steps`, `stage`, ... of a CI definition: each one
# ci_definitions reads needs at least one of them), and YAML spells a key's text literally, on one line before
# its `:`, but for five ways round: an alias as the key (`*a : apps/v1`), an explicit key (`? apiVersion`), an
# escape in a double-quoted scalar (`"apiVersio\x6e"`: a quote, at most 31 of a key's characters, then an escape
# that can make one or a line break it swallows), a `!!binary` scalar, or a tag built by a %TAG directive or
# %-escapes (`!e!ary`, `!<...%62inary>`). Text showing none of these cannot hold a deciding key and is not parsed:
# most data and settings files, when parsing costs ~0.4 ms a KiB (tests/test_redteam_yaml_forms.py: every form).
_MAY_HOLD_A_KEY = lazy(
    r"(?:apiVersion|AWSTemplateFormatVersion|Transform|Resources|hosts|import_playbook"
    r"|jobs|runs|using|phases|plan|platform|pool|task|stages?|script|trigger|workflows|orbs|pipelines|steps|services"
    r"|before_script|after_script|globalCredentialsConfiguration|domainCredentials|installations|" + CASC_KEY_WORDS +
    r")[\"']?\s*:"
    r"|\*[^\s,\[\]{}]+[ \t]*:|(?:^|[\s\[{,-])\?(?:\s|$)"
    r'|"[A-Za-z._]{0,31}\\[xuU\r\n\x85\u2028\u2029]|[!:]binary|%TAG|![^\s]*%',
    re.MULTILINE,
)


def yaml_signals(text: str, rules: ContextRules) -> list[tuple[str, str, str]]:
    """(bucket, rule id, evidence) of each Kubernetes object, CloudFormation template, Ansible play or Compose file
    (composeroots.py) `text` holds when read as YAML."""
    if not _MAY_HOLD_A_KEY.search(text):
        return []
    token = _SPENT.set([0])
    try:
        return _signals(applied_roots(text), rules)
    except _TooComplex:
        return [("iac", UNREAD_RULE, f"more than {_BUDGET:,} mappings to look into through aliases and merge keys, "
                                          "or nested deeper than can be read")]
    finally:
        _SPENT.reset(token)


class _TooComplex(Exception):
    """The file's aliases and merge keys make it more work to read than any real file is."""


def _spend() -> None:
    spent = _SPENT.get(None)
    if spent is not None:
        spent[0] += 1
        if spent[0] > _BUDGET:
            raise _TooComplex


def _signals(roots: list[Node], rules: ContextRules) -> list[tuple[str, str, str]]:
    found = []
    for api, kind in kube_objects(roots):
        version = api.lower()
        if API_VERSION.match(version) and "{" not in kind:
            if (rule := rules.api_rule(version.rpartition("/")[0], kind)) is not None:
                found.append((rule.bucket, rule.id, f"apiVersion: {api[:60]} / kind: {kind[:60]} (read as YAML)"))
    if (evidence := cloudformation(roots)) is not None:
        found.append(("iac", "iac.content.cloudformation", f"{evidence} (read as YAML)"))
    if (evidence := ansible_play(roots)) is not None:
        found.append(("iac", "iac.content.ansible-play", f"{evidence} (read as YAML)"))
    if (evidence := compose(roots, values)) is not None:
        found.append(("iac", "iac.content.compose", f"{evidence} (read as YAML)"))
    found.extend(("ci", rule, f"{evidence} (read as YAML)") for rule, evidence in ci_definitions(roots))
    return found


def applied_roots(text: str) -> list[Node]:
    """The root of every document (or JSON value) in `text` that a tool applying the file may read.

    kubectl (and Argo CD, with the same reader: k8s.io/apimachinery/pkg/util/yaml/decoder.go) reads a stream
    of JSON values (`{...}{...}`) when the file starts with `{`, and after at most one of them the rest as
    YAML; it cuts YAML into documents at its own separator lines and decodes each one alone; kustomize and
    Flux read one YAML stream. Every reading counts (fail closed): a file that is JSON is read once, as JSON
    (YAML would read the same roots or stop at a line break before a colon), and its rest as YAML."""
    found, rest = json_documents(text)
    if not found:
        return yaml_documents(text)
    return (found + yaml_documents(_after_json(rest))) if rest.strip() else found


def json_documents(text: str) -> tuple[list[Node], str]:
    """The JSON values `text` starts with, one after another, and the text after them (_TooComplex past the
    limits); nothing when it does not start with one.

    JSON is not quite YAML: a line break may come before a key's colon, where libyaml stops reading, and kubectl
    reads a `.json` manifest as JSON. Every value of a repeated key is kept (whichever one a reader takes)."""
    if not text.lstrip("\ufeff \t\r\n").startswith(("{", "[")):
        return [], text
    try:
        found, end = load_json_stream(text, "", _JSON_LIMITS, object_pairs_hook=_json_mapping, parse_float=str,
                                      parse_int=str, parse_constant=str)
    except LimitError:  # nested too deep, or too many values: kubectl reads it, so its keys may be anywhere
        raise _TooComplex from None
    return [_json_node(value) for value in found], text[end:]


def _after_json(rest: str) -> str:
    """Where kubectl's reader goes on as YAML after a JSON value: past white space up to the first line break."""
    for at, char in enumerate(rest):
        if char not in _GO_SPACE or char == "\n":
            return rest[at + (char == "\n"):]
    return ""


def yaml_documents(text: str) -> list[Node]:
    """The roots of `text` read as one YAML stream, and, when a line kubectl cuts documents at is not a YAML
    document marker (`---#`, `---` and a no-break space), of each part kubectl cuts, read alone."""
    roots = documents(text)
    cuts = [m for m in _KUBECTL_SEPARATOR.finditer(text) if m.group()[3:4] not in _YAML_MARKER_ENDS]
    if cuts:
        for part in _KUBECTL_SEPARATOR.split(text):
            roots += documents(part)
    return roots


def _json_mapping(pairs: list[tuple[str, object]]) -> dict[str, list[Node]]:
    mapping: dict[str, list[Node]] = {}
    for key, value in pairs:
        mapping.setdefault(key, []).append(_json_node(value))
    return mapping


def _json_node(value: object) -> Node:
    if value is True or value is False:
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list):
        return [_json_node(item) for item in value]
    return value  # type: ignore[return-value]  # str, or a mapping _json_mapping already built


def values(node: Node, key: str, depth: int = 0) -> Iterator[Node]:
    """Every value of `key` in the mapping `node`, merge keys (`<<: *base`, `<<: [*a, *b]`) included."""
    if not isinstance(node, dict) or depth > _MAX_MERGE_DEPTH:
        return
    _spend()
    yield from node.get(key, ())
    for merged in node.get(_MERGE, ()):
        for source in merged if isinstance(merged, list) else [merged]:
            yield from values(source, key, depth + 1)


def strings(node: Node, key: str) -> list[str]:
    """The scalar values of `key` in the mapping `node`."""
    return [value for value in values(node, key) if isinstance(value, str)]


def kube_objects(roots: list[Node]) -> Iterator[tuple[str, str]]:
    """(apiVersion, kind) of each root object, and of each item of a root `kind: *List` (kubectl flattens them)."""
    for root in roots:
        objects = [root]
        if any(kind.endswith("List") for kind in strings(root, "kind")):
            objects += [item for items in values(root, "items") if isinstance(items, list) for item in items]
        for obj in objects:
            for api in strings(obj, "apiVersion"):
                for kind in strings(obj, "kind"):
                    yield api.strip(), kind.strip()


def cloudformation(roots: list[Node]) -> str | None:
    """The evidence that a root is a CloudFormation/SAM template, or None."""
    for root in roots:
        if any(True for _ in values(root, "AWSTemplateFormatVersion")):
            return "AWSTemplateFormatVersion"
        if any(value.strip().startswith("AWS::Serverless") for value in _flat_strings(values(root, "Transform"))):
            return "Transform: AWS::Serverless"
        for resources in values(root, "Resources"):
            if not isinstance(resources, dict):
                continue
            for resource in (r for rs in resources.values() for r in rs):
                for kind in strings(resource, "Type"):
                    if _CFN_TYPE.match(kind.strip()):
                        return f"Resources: ... Type: {kind.strip()[:80]}"
    return None


def ansible_play(roots: list[Node]) -> str | None:
    """The evidence that a root is a playbook (a list of plays), or None."""
    for root in roots:
        for item in root if isinstance(root, list) else ():
            if not isinstance(item, dict):
                continue
            keys = set(item) | {key for merged in values(item, _MERGE) if isinstance(merged, dict) for key in merged}
            if keys & _IMPORT_PLAYBOOK or ("hosts" in keys and keys & _PLAY_KEYS):
                return "- hosts: ..." if "hosts" in keys else "- import_playbook: ..."
    return None


def _mappings(node: Node) -> list[dict[str, list[Node]]]:
    """The values of a mapping (or the items of a sequence) that are mappings."""
    if isinstance(node, dict):
        return [v for vs in node.values() for v in vs if isinstance(v, dict)]
    return [v for v in node if isinstance(v, dict)] if isinstance(node, list) else []


def _has(node: Node, *keys: str) -> bool:
    return any(True for key in keys for _ in values(node, key))


def _first(node: Node, key: str) -> str:
    found = strings(node, key)
    return found[0].strip() if found else ""


def _jobs(root: Node) -> Iterator[dict[str, list[Node]]]:
    for jobs in values(root, "jobs"):
        yield from _mappings(jobs)


def ci_definitions(roots: list[Node]) -> Iterator[tuple[str, str]]:
    """(rule id, evidence) of each CI system's definition a root is, by the keys only that system writes: the
    line patterns of sniff.py read the same shapes in block style only."""
    for root in roots:
        if not isinstance(root, dict):
            if isinstance(root, list) and any(_has(item, "script", "trigger") and _has(item, "stage")
                                              for item in _mappings(root)):
                yield "ci.content.gitlab-ci", "- stage: ... script: ..."
            continue
        jobs = list(_jobs(root))
        if _has(root, "on") and any(_has(job, "runs-on", "steps", "uses") for job in jobs):
            yield "ci.content.github-workflow", "on: ... jobs: ..."
        if any(_first(runs, "using").startswith(("composite", "node", "docker")) for runs in values(root, "runs")):
            yield "ci.content.github-action", "runs: using: ..."
        if _first(root, "version") in ("0.1", "0.2") and _has(root, "phases"):
            yield "ci.content.codebuild", "version: 0.x phases: ..."
        if any(_has(job, "plan") for job in jobs) or (
                _first(root, "platform").startswith(("linux", "windows", "darwin")) and _has(root, "run")):
            yield "ci.content.concourse", "jobs: plan: ... / platform: run: ..."
        if _has(root, "pool") and _has(root, "steps", "jobs", "stages") or _azure_task(root):
            yield "ci.content.azure-pipelines", "pool: / - task: Name@N"
        stages = _has(root, "stages")
        if any(_has(job, "script", "before_script", "after_script", "trigger") and (stages or _has(job, "stage"))
               for job in _mappings(root)):
            yield "ci.content.gitlab-ci", "stage(s): ... script: ..."
        if _first(root, "version") in ("2", "2.0", "2.1") and _has(root, "workflows", "orbs") and jobs:
            yield "ci.content.circleci", "version: 2.x workflows: ... jobs: ..."
        if _first(root, "kind") == "pipeline" and _has(root, "steps"):
            yield "ci.content.drone-woodpecker", "kind: pipeline steps: ..."
        if any(_has(p, "default", "branches", "pull-requests", "tags", "custom") for p in values(root, "pipelines")):
            yield "ci.content.bitbucket", "pipelines: ..."
        if any(item == "wait" or _has(item, *_BUILDKITE_STEPS)
               for steps in values(root, "steps") if isinstance(steps, list) for item in steps):
            yield "ci.content.buildkite", "steps: - command: ..."
        if _first(root, "version") == "1.0" and any(
                _first(step, "type") in _CODEFRESH_TYPES for holder in [root, *values(root, "spec")]
                for steps in values(holder, "steps") for step in _mappings(steps)):
            yield "ci.content.codefresh", "version: 1.0 steps: type: ..."
        if casc_node(root):  # the sixty-first round's shapes (cisettings.py), in flow style too: docs review 56
            yield "ci.content.jenkins-casc", "jenkins: numExecutors: ... (Configuration as Code)"
        if hidden_job_node(root):
            yield "ci.content.gitlab-ci", ".hidden: script: ..."


_BUILDKITE_STEPS = ("command", "commands", "trigger", "block", "wait", "input")
_CODEFRESH_TYPES = frozenset({"freestyle", "build", "push", "git-clone", "composition", "launch-composition",
                              "deploy", "helm", "pending-approval", "parallel", "codefresh-run"})
_AZURE_TASK = lazy(r"[A-Za-z][\w.-]*@[0-9]+\Z")
_MAX_WALK = 10_000  # mappings looked into for an Azure task: bounded, whatever the file holds


def _azure_task(root: Node) -> bool:
    """An Azure Pipelines task reference (`- task: Name@2`) in any steps list the definition holds."""
    queue, seen = [root], 0
    while queue and seen < _MAX_WALK:
        node = queue.pop()
        seen += 1
        _spend()
        if isinstance(node, dict):
            if any(_AZURE_TASK.match(task.strip()) for task in strings(node, "task")):
                return True
            queue.extend(v for vs in node.values() for v in vs if isinstance(v, dict | list))
        elif isinstance(node, list):
            queue.extend(v for v in node if isinstance(v, dict | list))
    return False


def _flat_strings(nodes: Iterator[Node]) -> Iterator[str]:
    for node in nodes:
        if isinstance(node, str):
            yield node
        elif isinstance(node, list):
            yield from (item for item in node if isinstance(item, str))
