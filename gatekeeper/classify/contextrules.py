"""Reading the context tiers' data: `<bundle>/classification-context.yaml` (markers, API groups).

The file is optional (a bundle without it classifies by path and content signals with no marker
or API-group data); when present it is validated strictly and its bytes join the rules digest.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gatekeeper.bounded import YAML, compose_yaml, construct_yaml, duplicate_key, read_bytes
from gatekeeper.errors import RulesError
from gatekeeper.lazy_pattern import lazy
from gatekeeper.model import BUCKETS

CONTEXT_FILE = "classification-context.yaml"
CLAIMS = ("all", "config", "manifests", "program", "types")
_ID = lazy(r"[a-z0-9][a-z0-9._-]*\Z")
_NAME = lazy(r"[^/\0]+(/[^/\0]+)*/?\Z")
_HINT = "see docs/classification.md, section 'Tiers', for the format of classification-context.yaml"
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True, slots=True)
class MarkerRule:
    """A marker: files (or `folder/` names) that make their folder a project root, and what that claims."""

    id: str
    description: str
    names: tuple[str, ...]  # "Chart.yaml"; "group_vars/" (a folder); "roles/*/tasks/" (a folder shape)
    claims: str  # one of CLAIMS
    under: tuple[str, ...]  # sub-folders of the root the claim covers (empty: all of it)
    bucket: str = "iac"  # what the claimed files become (a Jenkins shared library's code is ci)
    whole: frozenset[str] = frozenset()  # folder names below the root the tool reads whole (chart templates/)
    skip: frozenset[str] = frozenset()  # folder names below the root never claimed (a role's library/)
    stop: frozenset[str] = frozenset()  # file names that make a folder below the root a separate application
    types: frozenset[str] = frozenset()  # the extensions a `types` claim covers (lower case, no dot)


@dataclass(frozen=True, slots=True)
class ApiGroupRule:
    """An apiVersion group (shell pattern) and optional kinds → bucket."""

    id: str
    description: str
    groups: tuple[str, ...]
    kinds: tuple[str, ...]
    bucket: str

    def matches(self, group: str, kind: str) -> bool:
        """True when `group` (lower-case; "" for the core group) and `kind` fall under this rule."""
        if not any(g == group or (g != "" and fnmatch.fnmatchcase(group, g)) for g in self.groups):
            return False
        return not self.kinds or any(fnmatch.fnmatchcase(kind, k) for k in self.kinds)


@dataclass(frozen=True, slots=True)
class TestDataRule:
    """Where a dependency manifest is test data: a `folders` segment below a `tests` segment."""

    id: str
    description: str
    folders: frozenset[str]
    tests: frozenset[str]


@dataclass(frozen=True, slots=True)
class ContextRules:
    """The validated context data of a bundle (empty tables when the bundle has no such file)."""

    markers: tuple[MarkerRule, ...] = ()
    api_groups: tuple[ApiGroupRule, ...] = ()
    deps_test_data: TestDataRule | None = None
    source: str | None = None

    def api_rule(self, group: str, kind: str) -> ApiGroupRule | None:
        """The first API-group rule for `group`/`kind`, or None."""
        for rule in self.api_groups:
            if rule.matches(group, kind):
                return rule
        return None


def context_bytes(bundle_dir: Path) -> bytes | None:
    """The context data file's bytes (None when the bundle has none); RulesError when unreadable, LimitError past the
    YAML cap (read no further, as classification.yaml: a FIFO or device is refused, never waited on)."""
    path = bundle_dir / CONTEXT_FILE
    try:
        return read_bytes(path, YAML)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RulesError(f"cannot read the context rules: {exc.strerror}", where=str(path)) from None


# Valid files' tables by their bytes: the YAML costs ~4 ms, and load_rules' cache is by folder, so a process that
# loads a bundle copied to a new folder (the test suite's copies; BASE's bundle exported by each `--tree` gate) read it
# again. The path only names the file in an error and in `source`; a refusal raises and is never remembered.
_VALID: dict[bytes, tuple[tuple[MarkerRule, ...], tuple[ApiGroupRule, ...], TestDataRule | None]] = {}
_VALID_MAX = 8


def read_context_rules(bundle_dir: Path) -> tuple[ContextRules, bytes | None]:
    """The bundle's context data and the file's bytes (None when the bundle has none); RulesError when invalid."""
    path = bundle_dir / CONTEXT_FILE
    data = context_bytes(bundle_dir)
    if data is None:
        return ContextRules(), None
    tables = _VALID.get(data)
    if tables is None:
        tables = _read_tables(data, path)
        if len(_VALID) >= _VALID_MAX:
            _VALID.clear()
        _VALID[data] = tables
    return ContextRules(*tables, str(path)), data


def _read_tables(data: bytes, path: Path) -> tuple[tuple[MarkerRule, ...], tuple[ApiGroupRule, ...],
                                                    TestDataRule | None]:
    try:
        root = compose_yaml(data.decode("utf-8"), str(path), loader=_Loader)
        doc = construct_yaml(root)
    except (UnicodeDecodeError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        raise RulesError(f"invalid YAML: {getattr(exc, 'problem', None) or exc}", where=where, hint=_HINT) from None
    if (twice := duplicate_key(root)) is not None:  # YAML keeps the last silently (red team 25)
        raise RulesError(f"`{twice.value}` given twice", where=f"{path}:{twice.start_mark.line + 1}", hint=_HINT)
    reader = _Reader(str(path))
    top = reader.mapping(doc, "the file", ("version", "markers", "api_groups", "deps_test_data"))
    if top.get("version") != 1:
        raise RulesError(f"unsupported version {top.get('version')!r}", where=str(path), hint="write 'version: 1'")
    markers = tuple(reader.marker(item) for item in reader.seq(top.get("markers", []), "markers"))
    groups = tuple(reader.api_group(item) for item in reader.seq(top.get("api_groups", []), "api_groups"))
    test_data = reader.test_data(top["deps_test_data"]) if "deps_test_data" in top else None
    ids = [m.id for m in markers] + [g.id for g in groups] + ([test_data.id] if test_data else [])
    for rule_id in ids:
        if ids.count(rule_id) > 1:
            raise RulesError(f"duplicate rule id {rule_id!r}", where=str(path), hint="ids must be unique")
    return markers, groups, test_data


class _Reader:
    """Field checks that name the file and the rule being read."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, what: str, rule: str | None = None) -> RulesError:
        return RulesError(what + (f" (rule {rule!r})" if rule else ""), where=self.source, hint=_HINT)

    def mapping(self, value: Any, what: str, keys: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(f"{what} must be a mapping")
        for key in value:
            if key not in keys:
                raise self.fail(f"unknown key {key!r} in {what}; allowed: {', '.join(keys)}")
        return value

    def seq(self, value: Any, what: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(f"'{what}' must be a list")
        return value

    def strings(self, value: Any, what: str, rule: str, *, empty: bool = False) -> tuple[str, ...]:
        items = self.seq(value, what)
        if not items and not empty or not all(isinstance(item, str) for item in items):
            raise self.fail(f"'{what}' must be a list of strings", rule)
        return tuple(items)

    def head(self, value: Any, keys: tuple[str, ...], required: tuple[str, ...]) -> tuple[dict[str, Any], str, str]:
        fields = self.mapping(value, "a rule", keys)
        rule_id = fields.get("id")
        if not isinstance(rule_id, str) or not _ID.match(rule_id):
            raise self.fail(f"bad or missing rule id {rule_id!r}")
        for key in required:
            if key not in fields:
                raise self.fail(f"missing '{key}'", rule_id)
        description = fields["description"]
        if not isinstance(description, str) or not description.strip() or "\n" in description.strip():
            raise self.fail("'description' must be one non-empty line", rule_id)
        return fields, rule_id, description.strip()

    def marker(self, value: Any) -> MarkerRule:
        keys = ("id", "description", "names", "claims", "under", "bucket", "whole", "skip", "stop", "types")
        fields, rule_id, description = self.head(value, keys, ("description", "names", "claims"))
        names = self.strings(fields["names"], "names", rule_id)
        for name in names:
            if not _NAME.match(name) or name.startswith("/") or ".." in name.split("/"):
                raise self.fail(f"bad marker name {name!r}", rule_id)
        if fields["claims"] not in CLAIMS:
            raise self.fail(f"'claims' must be one of {', '.join(CLAIMS)}", rule_id)
        under = self.strings(fields.get("under", []), "under", rule_id, empty=True)
        bucket = fields.get("bucket", "iac")
        if bucket not in ("ci", "iac"):
            raise self.fail("a marker's 'bucket' must be ci or iac (markers only raise)", rule_id)
        whole, skip, stop, types = (
            frozenset(
                n if key == "stop" else n.lower() for n in self.strings(fields.get(key, []), key, rule_id, empty=True)
            )
            for key in ("whole", "skip", "stop", "types")
        )
        if (fields["claims"] == "types") != bool(types):
            raise self.fail("'types' goes with 'claims: types', and only with it", rule_id)
        return MarkerRule(
            rule_id,
            description,
            names,
            fields["claims"],
            tuple(u.strip("/") for u in under),
            bucket,
            whole,
            skip,
            stop,
            types,
        )

    def api_group(self, value: Any) -> ApiGroupRule:
        keys = ("id", "description", "groups", "kinds", "bucket")
        fields, rule_id, description = self.head(value, keys, ("description", "groups", "bucket"))
        if fields["bucket"] not in BUCKETS:
            raise self.fail(f"unknown bucket {fields['bucket']!r}", rule_id)
        groups = tuple(g.lower() for g in self.strings(fields["groups"], "groups", rule_id))
        kinds = self.strings(fields.get("kinds", []), "kinds", rule_id, empty=True)
        return ApiGroupRule(rule_id, description, groups, kinds, fields["bucket"])

    def test_data(self, value: Any) -> TestDataRule:
        keys = ("id", "description", "folders", "tests")
        fields, rule_id, description = self.head(value, keys, ("description", "folders", "tests"))
        folders = frozenset(f.lower() for f in self.strings(fields["folders"], "folders", rule_id))
        tests = frozenset(t.lower() for t in self.strings(fields["tests"], "tests", rule_id))
        return TestDataRule(rule_id, description, folders, tests)
